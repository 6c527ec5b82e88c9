import torch

g = torch.Generator().manual_seed(0)  # seeded: the same numbers on every run
trials, n = 1_000, 8                  # 1,000 queries, each against 8 keys
f64 = torch.float64

largest = {}
print("largest weight, mean over 1,000 queries")
print("    d   unscaled   scaled by 1/sqrt(d)")
for d in (4, 64, 512):
    q = torch.randn((trials, d), generator=g, dtype=f64)     # (1000, d)
    K = torch.randn((trials, n, d), generator=g, dtype=f64)  # (1000, 8, d)
    scores = (K * q[:, None, :]).sum(dim=2)                  # (1000, 8): q · each key
    unscaled = torch.softmax(scores, dim=1).amax(dim=1).mean().item()
    scaled = torch.softmax(scores / d**0.5, dim=1).amax(dim=1).mean().item()
    largest[d] = (unscaled, scaled)
    print(f"{d:5d}   {unscaled:8.3f}   {scaled:19.3f}")
