#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-anomaly on one core, then scikit-learn's GaussianMixture on the same
# million log-durations (K = 1 … 5 by BIC, the same tolerance, iteration
# limit and variance floor), for the speed ratio.  Without scikit-learn the
# ratio is skipped with a message.
set -euo pipefail
bench=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
"${pin[@]}" "$bench" --dump "$tmp/x.txt" "$@" | tee "$tmp/ours.txt"
ours=$(sed -n 's/^RESULT fit_s=\([0-9.]*\).*/\1/p' "$tmp/ours.txt")
py=/usr/bin/python3
if ! "$py" -c 'import sklearn' 2>/dev/null; then
  echo "scikit-learn not installed (Debian: python3-sklearn): no speed ratio"
  exit 0
fi
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "${pin[@]}" "$py" - "$tmp/x.txt" "$ours" <<'PY'
import sys, time
import numpy as np
from sklearn.mixture import GaussianMixture
x = np.loadtxt(sys.argv[1]).reshape(-1, 1)
ours = float(sys.argv[2])
t0 = time.process_time()
best = None
for k in range(1, 6):
    g = GaussianMixture(n_components=k, tol=1e-5, max_iter=200, reg_covar=1e-4, random_state=0).fit(x)
    b = g.bic(x)
    if best is None or b < best[0]:
        best = (b, k, g.score(x))
t = time.process_time() - t0
print(f"scikit-learn: {t:.2f} s CPU for K = 1..5 by BIC on the same {len(x)} waits; K = {best[1]}, "
      f"mean log-likelihood {best[2]:.6f}")
print(f"speed ratio: Waitscope {t / ours:.0f}x faster ({ours:.3f} s vs {t:.2f} s)")
PY
