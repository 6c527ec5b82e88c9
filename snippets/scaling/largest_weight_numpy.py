import numpy as np

rng = np.random.default_rng(0)  # seeded: the same numbers on every run
trials, n = 1_000, 8            # 1,000 queries, each against 8 keys


def softmax(S):
    """Softmax of each row; minus the row's largest entry, exp() cannot overflow."""
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


largest = {}
print("largest weight, mean over 1,000 queries")
print("    d   unscaled   scaled by 1/sqrt(d)")
for d in (4, 64, 512):
    q = rng.standard_normal((trials, d))      # (1000, d): one query per trial
    K = rng.standard_normal((trials, n, d))   # (1000, 8, d): its 8 keys
    scores = (K * q[:, None, :]).sum(axis=2)  # (1000, 8): q · each key
    unscaled = softmax(scores).max(axis=1).mean()
    scaled = softmax(scores / np.sqrt(d)).max(axis=1).mean()
    largest[d] = (unscaled, scaled)
    print(f"{d:5d}   {unscaled:8.3f}   {scaled:19.3f}")
