# --8<-- [start:math]
import torch

vectors = {"dog": [1, 1, 1, 0], "bites": [0, 0, 1, 1], "man": [1, 0, 1, 0]}


def rope(X, positions, base=10000.0):
    """Each row of X (n, d) turned for its position: pair p, entries 2p and 2p + 1 (from 0),
    by the angle pos / base^(2p/d)."""
    d = X.shape[-1]
    theta = positions[:, None] / base ** (torch.arange(0, d, 2, dtype=X.dtype) / d)  # (n, d/2): one angle per pair
    cos, sin = torch.cos(theta), torch.sin(theta)  # (n, d/2)
    a, b = X[:, 0::2], X[:, 1::2]  # (n, d/2): each pair's first entry and its second
    turned = torch.empty_like(X)  # (n, d)
    turned[:, 0::2] = a * cos - b * sin
    turned[:, 1::2] = a * sin + b * cos
    return turned


def attention_with_rope(words):
    """Self-attention without projections or scaling, as on the page on positional encoding, with the
    queries and keys turned for their positions 0, 1, 2, ...; the values are not turned."""
    X = torch.tensor([vectors[w] for w in words], dtype=torch.float64)  # (n, d)
    R = rope(X, torch.arange(len(words)))  # (n, d): the queries, and the keys
    S = R @ R.T  # (n, n)
    weights = torch.softmax(S, dim=1)  # (n, n)
    return R, S, weights, weights @ X


# The score of dog's query at position a with man's key at position a + r, for 64 starts a.
dog = torch.tensor([vectors["dog"]], dtype=torch.float64)  # (1, d)
man = torch.tensor([vectors["man"]], dtype=torch.float64)
starts, distances = torch.arange(32, 96), torch.arange(-2, 3)
grid = torch.tensor([[(rope(dog, torch.tensor([a])) @ rope(man, torch.tensor([a + r])).T).item()
                      for r in distances.tolist()] for a in starts.tolist()], dtype=torch.float64)  # (64, 5)
# --8<-- [end:math]


# Check: the paper's own form of the turn (RoFormer, eq. 34, as Meta's Llama code writes it): each
# pair (x1, x2) as the complex number x1 + i x2, multiplied by e^(i theta), which turns it by theta.
def rope_complex(X, positions, base=10000.0):
    d = X.shape[-1]
    theta = positions[:, None] / base ** (torch.arange(0, d, 2, dtype=X.dtype) / d)  # (n, d/2)
    z = torch.view_as_complex(X.reshape(X.shape[0], d // 2, 2).contiguous())  # (n, d/2)
    return torch.view_as_real(z * torch.polar(torch.ones_like(theta), theta)).reshape(X.shape)


def show(title, M, rows, cols):
    print(title)
    print("          " + "".join(f"{c:>9}" for c in cols))
    for label, row in zip(rows, M.tolist(), strict=True):
        print(f"  {label:<8}" + "".join(f"{x:9.4f}" for x in row))


same = True
for words in (["dog", "bites", "man"], ["man", "bites", "dog"]):
    R, S, weights, output = attention_with_rope(words)
    X = torch.tensor([vectors[w] for w in words], dtype=torch.float64)
    same = same and torch.allclose(R, rope_complex(X, torch.arange(len(words))), rtol=0, atol=1e-12)
    print(f'"{" ".join(words)}"')
    show("turned", R, words, ["x1", "x2", "x3", "x4"])
    show("scores", S, words, words)
    show("weights", weights, words, words)
    print("  average output [" + ", ".join(f"{x:.4f}" for x in output.mean(dim=0).tolist()) + "]")
    print()
show("dog at a, man at a + r", grid[[0, 1, 32, 63]], [f"a = {a}" for a in starts[[0, 1, 32, 63]].tolist()],
     [f"r = {r}" for r in distances.tolist()])
spread = (grid.max(dim=0).values - grid.min(dim=0).values).max().item()
print("each column the same for all 64 starts, to 1e-12:", spread < 1e-12)
print("same as the paper's complex form:", same)
