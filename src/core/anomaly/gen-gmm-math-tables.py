#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the constants and tables of ws-gmm-math.h (exp and log for EM)
to stdout, computed with Python's decimal at 80 digits and rounded to
double once (float() of a Decimal is correctly rounded).

    python3 src/core/anomaly/gen-gmm-math-tables.py > tables.inc
"""
from decimal import Decimal, getcontext
import struct

getcontext().prec = 80
LN2 = Decimal(2).ln()
N = 128  # table entries of each function


def bits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def round_bits(v, nbits):
    """v rounded to nbits significant bits (v > 0), exactly."""
    e = 0
    while v >= 2:
        v /= 2
        e += 1
    while v < 1:
        v *= 2
        e -= 1
    m = (v * (1 << (nbits - 1))).to_integral_value()
    return Decimal(m) / (1 << (nbits - 1)) * (Decimal(2) ** e)


def split(v, hi_bits=None):
    hi = float(round_bits(v, hi_bits)) if hi_bits else float(v)
    return hi, float(v - Decimal(hi))


def lit(d):
    return d.hex() if d != 0 else "0.0"


out = []
# exp: x = n ln2/N + r, n = N m + j; 2^(j/N) = 2^(j/N)_hi (1 + tail).
ln2n = LN2 / N
hi, lo = split(ln2n, 32)   # |n| < 2^18 on the domain: n * hi is exact
out.append(f"#define EXP_INV_LN2_N {lit(float(N / LN2))}")
out.append(f"#define EXP_LN2_N_HI {lit(hi)}")
out.append(f"#define EXP_LN2_N_LO {lit(lo)}")
out.append("/* bits of 2^(j/N) minus j << 45, so that adding n << 45 adds m to the exponent */")
out.append("static const guint64 exp_table_bits[EXP_N] = {")
rows = []
tails = []
for j in range(N):
    v = (Decimal(j) / N * LN2).exp()
    h = float(v)
    rows.append(f"  0x{(bits(h) - (j << 45)) & 0xffffffffffffffff:016x},")
    tails.append(f"  {lit(float((v - Decimal(h)) / Decimal(h)))},")
out += rows + ["};", "/* (2^(j/N) − its double) / its double */", "static const double exp_table_tail[EXP_N] = {"] + tails + ["};"]

# log: s = 2^e f, f in [1, 2), F_i = 1 + i/N <= f < F_{i+1}; c_i = 1/f's
# centre to 8 bits (c_0 = 1), so (f - F_i) c_i is exact.
hi, lo = split(LN2, 42)   # e * hi is exact for |e| < 2^11
out.append(f"#define LOG_LN2_HI {lit(hi)}")
out.append(f"#define LOG_LN2_LO {lit(lo)}")
cs, vs, his, los = [], [], [], []
for i in range(N):
    F = 1 + Decimal(i) / N
    c = Decimal(1) if i == 0 else round_bits(1 / (F + Decimal(1) / (2 * N)), 8)
    v = F * c - 1
    assert float(v) == v and float(c) == c
    lc = -(c.ln())
    h, l = split(lc)
    cs.append(f"  {lit(float(c))},")
    vs.append(f"  {lit(float(v))},")
    his.append(f"  {lit(h)},")
    los.append(f"  {lit(l)},")
out += ["/* c_i: 1/(1 + (i + 1/2)/N) to 8 bits, and c_0 = 1 */", "static const double log_table_c[LOG_N] = {"] + cs + ["};"]
out += ["/* F_i c_i − 1, exact */", "static const double log_table_v[LOG_N] = {"] + vs + ["};"]
out += ["/* −ln c_i, high and low parts */", "static const double log_table_hi[LOG_N] = {"] + his + ["};"]
out += ["static const double log_table_lo[LOG_N] = {"] + los + ["};"]
print("\n".join(out))
