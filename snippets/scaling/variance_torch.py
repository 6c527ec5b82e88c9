import torch

g = torch.Generator().manual_seed(0)  # seeded: the same numbers on every run
samples = 10_000                      # pairs (q, k) for each width
f64 = torch.float64

variances = {}
print("    d   variance of q.k   variance / d")
for d in (4, 64, 512):
    q = torch.randn((samples, d), generator=g, dtype=f64)  # (10000, d): mean 0, var 1
    k = torch.randn((samples, d), generator=g, dtype=f64)  # (10000, d)
    dots = (q * k).sum(dim=1)                              # (10000,): one per pair
    variances[d] = dots.var(correction=0).item()
    print(f"{d:5d}   {variances[d]:15.2f}   {variances[d] / d:12.2f}")
