#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The EM of src/core/anomaly/ws-gmm.c against scikit-learn's GaussianMixture
# on the same data (log-durations of real pg-tpcb waits) and the same
# starting point (our k-means++ initialisation handed over as weights_init,
# means_init, precisions_init; our variance floor as reg_covar): every
# sample's log-likelihood within 1e-3, for K = 1 … 5, and BIC picks the
# same K.  Skipped (exit 77) when scikit-learn is not installed.
import json
import os
import subprocess
import sys

try:
    import numpy as np
    from sklearn.mixture import GaussianMixture
except ImportError:
    print("SKIP: scikit-learn is not installed (Debian: apt-get install python3-sklearn)")
    sys.exit(77)

tool, trace = sys.argv[1], os.path.join(os.environ["WS_TEST_DATA"], "pg-tpcb.perf.txt.gz")
ours = json.loads(subprocess.run([tool, trace, "9"], check=True, capture_output=True, text=True).stdout)
x = np.array(ours["x"]).reshape(-1, 1)
print(f"{len(x)} log-durations")
worst = 0.0
bics = []
for fit in ours["fits"]:
    k, init = fit["k"], fit["init"]
    g = GaussianMixture(n_components=k, covariance_type="full", tol=ours["tolerance"],
                        max_iter=ours["max_iterations"], reg_covar=ours["variance_floor"],
                        weights_init=np.array(init["weights"]),
                        means_init=np.array(init["means"]).reshape(-1, 1),
                        precisions_init=(1.0 / np.array(init["variances"])).reshape(-1, 1, 1))
    g.fit(x)
    theirs = g.score_samples(x)
    diff = np.max(np.abs(theirs - np.array(fit["log_likelihood"])))
    worst = max(worst, diff)
    bics.append((g.bic(x), fit["bic"]))
    print(f"K={k}: iterations ours {fit['iterations']} sklearn {g.n_iter_}, "
          f"mean log-likelihood ours {fit['mean_log_likelihood']:.6f} sklearn {g.score(x):.6f}, "
          f"max per-sample difference {diff:.2e}")
    if diff > 1e-3:
        print(f"FAIL: K={k} differs by {diff} > 1e-3")
        sys.exit(1)
k_sklearn = 1 + min(range(len(bics)), key=lambda i: bics[i][0])
k_ours = 1 + min(range(len(bics)), key=lambda i: bics[i][1])
print(f"BIC picks K={k_ours} (ours) and K={k_sklearn} (sklearn); worst per-sample difference {worst:.2e}")
if k_ours != k_sklearn:
    print("FAIL: BIC picks differ")
    sys.exit(1)
