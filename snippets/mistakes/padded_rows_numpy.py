# --8<-- [start:math]
import numpy as np

tokens = ["cat", "sat", "[PAD]"]          # "cat sat", padded to 3 tokens
X = np.array([[0, 1, 0, 1],   # cat
              [1, 1, 1, 1],   # sat
              [0, 0, 0, 0]],  # [PAD]: an all-zero embedding
             dtype=np.float64)  # (3, 4); identity projections
real = np.array([True, True, False])      # the padding mask: which tokens are real

S = X @ X.T / np.sqrt(X.shape[1])         # (3, 3), the scaled scores
S = np.where(real[None, :], S, -np.inf)   # no query may attend to the [PAD] key
e = np.exp(S - S.max(axis=-1, keepdims=True))
output = (e / e.sum(axis=-1, keepdims=True)) @ X  # (3, 4): the [PAD] query still gets a row

right = output[real].mean(axis=0)         # average over the real tokens only
wrong = output.mean(axis=0)               # WRONG: the [PAD] row joins the average
# --8<-- [end:math]

for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print("sentence vector, real rows only: [" + ", ".join(f"{x:.4f}" for x in right.tolist()) + "]")
print("sentence vector, every row:      [" + ", ".join(f"{x:.4f}" for x in wrong.tolist()) + "]")
