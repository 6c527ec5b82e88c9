import numpy as np

rng = np.random.default_rng(0)  # seeded: the same numbers on every run
samples = 10_000                # pairs (q, k) for each width

variances = {}
print("    d   variance of q.k   variance / d")
for d in (4, 64, 512):
    q = rng.standard_normal((samples, d))  # (10000, d): mean 0, variance 1
    k = rng.standard_normal((samples, d))  # (10000, d)
    dots = (q * k).sum(axis=1)             # (10000,): one dot product per pair
    variances[d] = dots.var()
    print(f"{d:5d}   {variances[d]:15.2f}   {variances[d] / d:12.2f}")
