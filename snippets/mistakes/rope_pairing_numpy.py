# --8<-- [start:math]
import numpy as np

words = ["dog", "bites", "man"]
X = np.array([[1, 1, 1, 0], [0, 0, 1, 1], [1, 0, 1, 0]], dtype=np.float64)  # (3, 4): the queries and keys
positions = np.arange(3)


def rope(X, positions, halves=False, base=10000.0):
    d = X.shape[-1]
    theta = positions[:, None] / base ** (np.arange(0, d, 2) / d)  # (n, d/2): one angle per pair
    cos, sin = np.cos(theta), np.sin(theta)
    if halves:  # pair p is entries p and p + d/2 (GPT-NeoX, Hugging Face's Llama)
        a, b = X[:, : d // 2], X[:, d // 2 :]
        return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=1)
    a, b = X[:, 0::2], X[:, 1::2]  # pair p is entries 2p and 2p + 1 (the paper, Meta's Llama)
    turned = np.empty_like(X)
    turned[:, 0::2], turned[:, 1::2] = a * cos - b * sin, a * sin + b * cos
    return turned


R = rope(X, positions)  # the pairing the vectors were made for
right = R @ R.T  # (3, 3): the scores
H = rope(X, positions, halves=True)  # WRONG: the other pairing, on the same entries
wrong = H @ H.T
order = np.concatenate([np.arange(0, 4, 2), np.arange(1, 4, 2)])  # the even entries, then the odd: 0, 2, 1, 3
P = rope(X[:, order], positions, halves=True)  # the entries reordered first
reordered = P @ P.T  # right again
# --8<-- [end:math]


def show(title, M, tokens):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("         " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


show("scores, the pairing the vectors were made for", right, words)
show("scores, the other pairing (wrong)", wrong, words)
print("the other pairing after reordering the entries gives the right scores:",
      bool(np.allclose(reordered, right, rtol=0, atol=1e-12)))
