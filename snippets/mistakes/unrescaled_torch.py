# --8<-- [start:math]
import torch

tokens = ["bank", "of", "river"]
X = torch.tensor([[1, 0, 1, 0],   # bank
              [0, 1, 0, 1],   # of
              [1, 1, 0, 0]],  # river
             dtype=torch.float64)  # (3, 4); Q = K = V = X, unscaled, as on the first page


def online(X, rescale_output):
    """softmax(X X^T) X, one key at a time, with a running maximum m, total l and output O."""
    m = torch.full((3,), -torch.inf, dtype=torch.float64)
    l = torch.zeros(3, dtype=torch.float64)
    O = torch.zeros(3, 4, dtype=torch.float64)
    for j in range(3):
        S = X @ X[j : j + 1].T  # (3, 1): key j's scores
        m_new = torch.maximum(m, S[:, 0])
        rescale = torch.exp(m - m_new)  # (3,)
        P = torch.exp(S - m_new[:, None])  # (3, 1)
        l = l * rescale + P[:, 0]
        if rescale_output:
            O = O * rescale[:, None] + P @ X[j : j + 1]
        else:
            O = O + P @ X[j : j + 1]  # WRONG: O keeps the old maximum's scale
        m = m_new
    return O / l[:, None]  # (3, 4)


right = online(X, rescale_output=True)
wrong = online(X, rescale_output=False)
# --8<-- [end:math]

for title, Y in (("output, O rescaled", right), ("output, O not rescaled (wrong)", wrong)):
    print(title)
    print("       " + "".join(f"{c:>8}" for c in ("x1", "x2", "x3", "x4")))
    for token, row in zip(tokens, Y.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))
print("largest entry of a value: 1; largest entry of an output (wrong):", f"{float(wrong.max()):.4f}")
