# --8<-- [start:math]
import numpy as np

rng = np.random.default_rng(0)  # seeded: the same numbers on every run
samples = 10_000                # pairs (q, k) for each width

variances = {}  # d_k -> variance of q · k
for d_k in (4, 64, 512):
    q = rng.standard_normal((samples, d_k))  # (10000, d_k): mean 0, variance 1
    k = rng.standard_normal((samples, d_k))  # (10000, d_k)
    dots = (q * k).sum(axis=1)               # (10000,): one dot product per pair
    variances[d_k] = dots.var()
# --8<-- [end:math]

print("  d_k   variance of q.k   variance / d_k")
for d_k, variance in variances.items():
    print(f"{d_k:5d}   {variance:15.2f}   {variance / d_k:14.2f}")
