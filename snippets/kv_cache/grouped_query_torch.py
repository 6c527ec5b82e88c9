# --8<-- [start:math]
import torch

words = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (n, d_model) = (3, 4)
# Two query heads, as on the page on multi-head attention: head 1 reads x1 and x3, head 2 x2 and x4.
W_Q = torch.tensor([[1, 0, 0, 0],
                [0, 0, 1, 0],
                [0, 1, 0, 0],
                [0, 0, 0, 1]], dtype=torch.float64)  # (d_model, num_heads * d_head)
# One key-value head, shared by both: W_Q's first two columns, head 1's (x1 and x3).
W_K = W_V = W_Q[:, :2]  # (d_model, num_kv_heads * d_head)
W_O = torch.eye(4, dtype=torch.float64)
num_heads, num_kv_heads, d_head = 2, 1, 2
groups = num_heads // num_kv_heads  # query heads per key-value head


def split(M, heads):  # (n, heads * d_head) -> (heads, n, d_head)
    return M.reshape(len(M), heads, d_head).transpose(0, 1)


Q = split(X @ W_Q, num_heads)  # (num_heads, n, d_head) = (2, 3, 2)
K = split(X @ W_K, num_kv_heads)  # (num_kv_heads, n, d_head) = (1, 3, 2): what the cache keeps
V = split(X @ W_V, num_kv_heads)  # (1, 3, 2)
K_rep = K.repeat_interleave(groups, dim=0)  # (num_heads, n, d_head): key heads 1, 1
V_rep = V.repeat_interleave(groups, dim=0)
S = Q @ K_rep.transpose(-2, -1) / d_head**0.5  # (num_heads, n, n)
A = torch.exp(S - S.amax(dim=-1, keepdim=True))
A = A / A.sum(dim=-1, keepdim=True)  # (num_heads, n, n)
output = (A @ V_rep).transpose(0, 1).reshape(len(X), num_heads * d_head) @ W_O  # (n, d_model)

kept_per_token = 2 * num_kv_heads * d_head  # keys and values the cache keeps for one token
kept_per_token_multi_head = 2 * num_heads * d_head  # with a key-value head per query head
# --8<-- [end:math]

for head in range(num_heads):
    print(f"query head {head + 1}, keys and values of key-value head {head // groups + 1}")
    print("        " + "".join(f"{w:>8}" for w in words))
    for word, row in zip(words, A[head], strict=True):
        print(f"  {word:<6}" + "".join(f"{x:8.4f}" for x in row))
print("output")
for word, row in zip(words, output, strict=True):
    print(f"  {word:<6}[" + ", ".join(f"{x:.4f}" for x in row) + "]")
print(f"numbers kept per token: {kept_per_token}, against {kept_per_token_multi_head} with two key-value heads")
# PyTorch's own, given the one key-value head as it is: enable_gqa repeats it for the query heads
builtin = torch.nn.functional.scaled_dot_product_attention(Q, K, V, enable_gqa=True)  # (num_heads, n, d_head)
same = torch.allclose(builtin, A @ V_rep, rtol=0, atol=1e-12)
print("same as F.scaled_dot_product_attention(enable_gqa=True):", same)
