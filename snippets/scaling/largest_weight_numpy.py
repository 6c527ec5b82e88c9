# --8<-- [start:math]
import numpy as np

rng = np.random.default_rng(0)  # seeded: the same numbers on every run
trials, n = 1_000, 8            # 1,000 queries, each against 8 keys


def softmax(S):
    """Softmax of each row; minus the row's largest entry, exp() cannot overflow."""
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


largest = {}  # d_k -> mean largest weight, (unscaled, scaled)
for d_k in (4, 64, 512):
    q = rng.standard_normal((trials, d_k))      # (1000, d_k): one query per trial
    K = rng.standard_normal((trials, n, d_k))   # (1000, 8, d_k): its 8 keys
    scores = (K * q[:, None, :]).sum(axis=2)    # (1000, 8): q · each key
    unscaled = softmax(scores).max(axis=1).mean()
    scaled = softmax(scores / np.sqrt(d_k)).max(axis=1).mean()
    largest[d_k] = (unscaled, scaled)
# --8<-- [end:math]

print("largest weight, mean over 1,000 queries")
print("  d_k   unscaled   scaled by 1/sqrt(d_k)")
for d_k, (unscaled, scaled) in largest.items():
    print(f"{d_k:5d}   {unscaled:8.3f}   {scaled:21.3f}")
