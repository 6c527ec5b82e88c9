# --8<-- [start:math]
import torch

words = ["bank", "of", "river"]
X = torch.tensor(
    [
        [1.0, 0.0, 1.0, 0.0],  # bank
        [0.0, 1.0, 0.0, 1.0],  # of
        [1.0, 1.0, 0.0, 0.0],  # river
    ],
    dtype=torch.float64,
)  # (3 words, 4 numbers each)
Q = K = V = X  # no projections and no scaling, as on the first page


def online_attention(Q, K, V, tile):
    """softmax(Q K^T) V, reading the keys and values `tile` at a time."""
    n = len(Q)
    m = torch.full((n,), -torch.inf, dtype=Q.dtype)  # running maximum of each query's scores: none seen yet
    l = torch.zeros(n, dtype=Q.dtype)  # running total of e^(score - m)
    O = torch.zeros(n, V.shape[1], dtype=Q.dtype)  # running output: sum of e^(score - m) times each value
    states = []
    for start in range(0, len(K), tile):
        S = Q @ K[start : start + tile].T  # (n, tile): this tile's scores only
        m_new = torch.maximum(m, S.amax(dim=1))  # (n,): the new running maximum
        rescale = torch.exp(m - m_new)  # (n,): e^(old m - new m), 0 at the first tile
        P = torch.exp(S - m_new[:, None])  # (n, tile): the tile's terms, each at most 1
        l = l * rescale + P.sum(dim=1)  # (n,)
        O = O * rescale[:, None] + P @ V[start : start + tile]  # (n, d_v)
        m = m_new
        states.append((m, rescale, l, O))
    Y = O / l[:, None]  # (n, d_v): the outputs
    lse = m + torch.log(l)  # (n,): the logarithm of each row's total of e^score
    A = torch.cat(  # the weights, tile by tile, from m and l: e^(score - lse)
        [torch.exp(Q @ K[s : s + tile].T - lse[:, None]) for s in range(0, len(K), tile)], dim=1
    )
    return Y, A, states


Y1, A1, states1 = online_attention(Q, K, V, tile=1)  # one key at a time
Y2, A2, states2 = online_attention(Q, K, V, tile=2)  # two keys, then the last one

S = Q @ K.T  # the plain way: every score at once, (3, 3)
A = torch.exp(S - S.amax(dim=1, keepdim=True))
A = A / A.sum(dim=1, keepdim=True)  # softmax of each row, (3, 3)
Y = A @ V  # (3, 4)
# --8<-- [end:math]

builtin = torch.nn.functional.scaled_dot_product_attention(Q, K, V, scale=1.0)  # PyTorch's own, unscaled


def show(title, M, columns):
    print(title)
    print(" " * 8 + "".join(f"{c:>8}" for c in columns))
    for word, row in zip(words, M, strict=True):
        print(f"  {word:<6}" + "".join(f"{float(x):8.4f}" for x in row))


print("Tiles of one key")
for k, (m, rescale, l, O) in enumerate(states1):
    print(f"after key {k + 1} ({words[k]}):")
    for word, mi, ri, li, Oi in zip(words, m, rescale, l, O, strict=True):
        row = ", ".join(f"{float(x):.4f}" for x in Oi)
        print(f"  {word:<6} m = {float(mi):.4f}  rescale = {float(ri):.4f}  l = {float(li):.4f}  O = [{row}]")
print()
show("Weights, tiles of one key", A1, words)
show("Weights, the plain softmax", A, words)
show("Outputs, tiles of one key", Y1, ["x1", "x2", "x3", "x4"])
show("Outputs, the plain softmax", Y, ["x1", "x2", "x3", "x4"])
print()
for tile, A_t, Y_t in ((1, A1, Y1), (2, A2, Y2)):
    same = torch.allclose(A_t, A, rtol=0, atol=1e-12) and torch.allclose(Y_t, Y, rtol=0, atol=1e-12)
    print(f"tiles of {tile}: weights and outputs equal to the plain softmax's within 1e-12: {same}")
print("same as F.scaled_dot_product_attention:", torch.allclose(Y1, builtin, rtol=0, atol=1e-12))
