# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4): the queries and keys (identity projections)


def turn(x, positions):  # rotary: pairs x1 x2 and x3 x4 of each row turned by pos / 10000^(2p/d)
    pos = torch.tensor(positions, dtype=torch.float64)[:, None]
    theta = pos / 10000.0 ** (torch.arange(0, 4, 2, dtype=torch.float64) / 4)  # (rows, 2)
    a, b = x[:, 0::2], x[:, 1::2]
    turned = [a * torch.cos(theta) - b * torch.sin(theta), a * torch.sin(theta) + b * torch.cos(theta)]
    return torch.stack(turned, dim=-1).reshape(x.shape)


def softmax(s):
    e = torch.exp(s - s.max())
    return e / e.sum()


cache = turn(X[:2], [0, 1])  # (2, 4): the keys of "The cat", turned when they were read


def sat_weights(pos):  # "sat" read after them: its query and key turned for pos, its key appended
    x = turn(X[2:], [pos])  # (1, 4)
    K = torch.cat([cache, x])  # (3, 4)
    return softmax((x @ K.T)[0] / 4**0.5)  # (3,): over The, cat, sat


right = sat_weights(len(cache))  # position 2: the cache's length before "sat" joins it
wrong = sat_weights(len(cache) + 1)  # WRONG: position 3, the length after its key was appended
R = turn(X, [0, 1, 2])  # the whole sentence at once, no cache
whole = softmax(R[2] @ R.T / 4**0.5)  # "sat"'s row: it reads every token
# --8<-- [end:math]

print("sat's weights over  " + "".join(f"{t:>8}" for t in tokens))
print("  position 2        " + "".join(f"{w:8.4f}" for w in right.tolist()))
print("  position 3 (wrong)" + "".join(f"{w:8.4f}" for w in wrong.tolist()))
print("position 2 gives the whole sentence's last row:", bool(torch.allclose(right, whole, rtol=0, atol=1e-12)))
