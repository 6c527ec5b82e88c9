# --8<-- [start:math]
import torch

g = torch.Generator().manual_seed(0)  # seeded: the same numbers on every run
trials, n = 1_000, 8                  # 1,000 queries, each against 8 keys
f64 = torch.float64

largest = {}  # d_k -> mean largest weight, (unscaled, scaled)
for d_k in (4, 64, 512):
    q = torch.randn((trials, d_k), generator=g, dtype=f64)     # (1000, d_k)
    K = torch.randn((trials, n, d_k), generator=g, dtype=f64)  # (1000, 8, d_k)
    scores = (K * q[:, None, :]).sum(dim=2)                    # (1000, 8): q · each key
    unscaled = torch.softmax(scores, dim=1).amax(dim=1).mean().item()
    scaled = torch.softmax(scores / d_k**0.5, dim=1).amax(dim=1).mean().item()
    largest[d_k] = (unscaled, scaled)
# --8<-- [end:math]

print("largest weight, mean over 1,000 queries")
print("  d_k   unscaled   scaled by 1/sqrt(d_k)")
for d_k, (unscaled, scaled) in largest.items():
    print(f"{d_k:5d}   {unscaled:8.3f}   {scaled:21.3f}")
