# --8<-- [start:math]
import torch

g = torch.Generator().manual_seed(0)  # seeded: the same numbers on every run
samples = 10_000                      # pairs (q, k) for each width
f64 = torch.float64

variances = {}  # d_k -> variance of q · k
for d_k in (4, 64, 512):
    q = torch.randn((samples, d_k), generator=g, dtype=f64)  # (10000, d_k): mean 0, var 1
    k = torch.randn((samples, d_k), generator=g, dtype=f64)  # (10000, d_k)
    dots = (q * k).sum(dim=1)                                # (10000,): one per pair
    variances[d_k] = dots.var(correction=0).item()
# --8<-- [end:math]

print("  d_k   variance of q.k   variance / d_k")
for d_k, variance in variances.items():
    print(f"{d_k:5d}   {variance:15.2f}   {variance / d_k:14.2f}")
