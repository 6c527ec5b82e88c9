# --8<-- [start:math]
import numpy as np

batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to 3 tokens
X = np.array([[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
              [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]]],  # [PAD]: an all-zero embedding
             dtype=np.float64)  # (2, 3, 4); identity projections: Q = K = V = X
lengths = np.array([3, 2])
real = np.arange(3)[None, :] < lengths[:, None]     # (2, 3): the site's padding mask, True = may attend
S = X @ X.swapaxes(-1, -2) / np.sqrt(X.shape[-1])   # (2, 3, 3)


def softmax(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# NumPy has no MultiheadAttention: this does what it does with key_padding_mask (True = leave out).
right = softmax(np.where(~real[:, None, :], -np.inf, S))  # key_padding_mask=~real: leaves out the pad
with np.errstate(invalid="ignore"):  # NumPy would warn: invalid value encountered in subtract
    wrong = softmax(np.where(real[:, None, :], -np.inf, S))  # WRONG: key_padding_mask=real
# --8<-- [end:math]


def show(title, M, tokens):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("         " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


for b in range(2):
    show(f'"{" ".join(batch[b])}", key_padding_mask=~real', right[b], batch[b])
    show(f'"{" ".join(batch[b])}", key_padding_mask=real (wrong)', wrong[b], batch[b])
