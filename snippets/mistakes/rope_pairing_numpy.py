# --8<-- [start:math]
import numpy as np

words = ["dog", "bites", "man"]
X = np.array([[1, 1, 1, 0], [0, 0, 1, 1], [1, 0, 1, 0]], dtype=np.float64)  # (3, 4): the queries and keys
theta = np.arange(3)[:, None] / 10000.0 ** (np.arange(0, 4, 2) / 4)  # (3, 2): each pair's angle at pos 0, 1, 2


def turn(a, b):  # a pair's two entries, (3, 2) each: one column per pair
    return a * np.cos(theta) - b * np.sin(theta), a * np.sin(theta) + b * np.cos(theta)


R = np.stack(turn(X[:, 0::2], X[:, 1::2]), axis=-1).reshape(3, 4)  # pairs x1 x2, x3 x4: as the vectors were made
right = R @ R.T  # (3, 3): the scores
H = np.concatenate(turn(X[:, :2], X[:, 2:]), axis=1)  # WRONG: pairs x1 x3, x2 x4 (halves)
wrong = H @ H.T
Y = X[:, [0, 2, 1, 3]]  # the entries reordered: the even ones, then the odd ones
P = np.concatenate(turn(Y[:, :2], Y[:, 2:]), axis=1)  # halves on the reordered entries
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
