# --8<-- [start:math]
import torch

words = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (n, d) = (3, 4); Q = K = V = X, no projections
n, window = len(X), 2  # each token sees itself and the window - 1 tokens before it

i = torch.arange(n)[:, None]  # (n, 1): the query's position
j = torch.arange(n)[None, :]  # (1, n): the key's position
causal = j <= i  # (n, n): True where query i may see key j
sliding = causal & (i - j < window)  # (n, n): and key j is at most window - 1 tokens back


def attention(mask):
    S = X @ X.T / X.shape[1] ** 0.5  # (n, n): scaled scores
    S = S.masked_fill(~mask, -torch.inf)
    A = torch.exp(S - S.amax(dim=1, keepdim=True))
    A = A / A.sum(dim=1, keepdim=True)  # (n, n)
    return A, A @ X  # weights (n, n), output (n, d)


weights_causal, output_causal = attention(causal)
weights, output = attention(sliding)
# --8<-- [end:math]


def show(title, M, columns, decimals=4):
    print(title)
    print("        " + "".join(f"{c:>8}" for c in columns))
    for word, row in zip(words, M, strict=True):
        print(f"  {word:<6}" + "".join(f"{float(x):8.{decimals}f}" for x in row))


show("Mask, window of 2 (1 = may attend)", sliding, words, decimals=0)
show("Weights, causal mask", weights_causal, words)
show("Weights, window of 2", weights, words)
show("Output, window of 2", output, ["x1", "x2", "x3", "x4"])
print("scores let through:", int(sliding.sum()), "of", int(causal.sum()), "with the causal mask")
builtin = torch.nn.functional.scaled_dot_product_attention(X, X, X, attn_mask=sliding)  # True = may attend
print("same as F.scaled_dot_product_attention:", torch.allclose(builtin, output, rtol=0, atol=1e-12))
