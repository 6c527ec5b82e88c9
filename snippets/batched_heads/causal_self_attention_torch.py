# --8<-- [start:math]
import torch

vectors = {"The": [1, 0, 1, 0], "cat": [0, 1, 0, 1], "sat": [1, 1, 1, 1],
           "[PAD]": [0, 0, 0, 0]}  # the pad token's embedding: all zeros
batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to the length of the longest sentence
lengths = torch.tensor([3, 2])     # real tokens per sentence
X = torch.tensor([[vectors[t] for t in s] for s in batch], dtype=torch.float64)  # (B, T, C) = (2, 3, 4)

# W_Q = W_K = W_V regroup the features: x1 and x3 go to head 1, x2 and x4 to head 2.
# W_O is the identity, so that the output shows each head's part.
W_Q = W_K = W_V = torch.tensor([[1, 0, 0, 0],
                                [0, 0, 1, 0],
                                [0, 1, 0, 0],
                                [0, 0, 0, 1]], dtype=torch.float64)
W_O = torch.eye(4, dtype=torch.float64)
h = 2  # heads, of C // h = 2 entries each


class CausalSelfAttention(torch.nn.Module):
    """Every sentence of the batch and every head at once, in the form of nanoGPT's layer."""

    def __init__(self, C, h, n_ctx):
        super().__init__()
        self.h = h
        # nn.Linear computes X @ weight.T: qkv.weight is W_Q.T, W_K.T and W_V.T stacked, (3C, C)
        self.qkv = torch.nn.Linear(C, 3 * C, bias=False, dtype=torch.float64)
        self.proj = torch.nn.Linear(C, C, bias=False, dtype=torch.float64)  # weight W_O.T
        # The causal mask, made once for the longest input, n_ctx tokens: a buffer moves with the
        # module (.to(device)) and is saved in its state_dict, but it is not a parameter: never trained.
        self.register_buffer("causal", torch.ones(n_ctx, n_ctx, dtype=torch.bool).tril())

    def forward(self, X, lengths):
        B, T, C = X.size()  # (B, T, C)
        h = self.h
        Q, K, V = self.qkv(X).split(C, dim=2)  # (B, T, C) each: X @ W_Q, X @ W_K, X @ W_V
        q, k, v = (M.view(B, T, h, C // h) for M in (Q, K, V))  # (B, T, h, d_head)
        q, k, v = (M.transpose(1, 2) for M in (q, k, v))  # (B, h, T, d_head)
        att = q @ k.transpose(-2, -1) / (C // h) ** 0.5  # (B, h, T, T)
        causal = self.causal[:T, :T]  # (T, T): the buffer, cut to this batch's length
        pad = torch.arange(T)[None, :] < lengths[:, None]  # (B, T): True where the token is real
        mask = causal & pad[:, None, None, :]  # (B, 1, T, T)
        att = att.masked_fill(~mask, float("-inf"))  # (B, h, T, T)
        att = torch.softmax(att, dim=-1)  # (B, h, T, T)
        y = att @ v  # (B, h, T, d_head)
        y = y.transpose(1, 2)  # (B, T, h, d_head)
        y = y.contiguous().view(B, T, C)  # (B, T, C)
        output = self.proj(y)  # (B, T, C): y @ W_O
        return output, att


layer = CausalSelfAttention(4, h, n_ctx=1024)  # GPT-2 reads at most 1,024 tokens
with torch.no_grad():
    layer.qkv.weight.copy_(torch.cat([W_Q.T, W_K.T, W_V.T]))  # (12, 4)
    layer.proj.weight.copy_(W_O.T)
    output, weights = layer(X, lengths)
    alone = [layer(X[b:b + 1, :k], lengths[b:b + 1])[0] for b, k in enumerate(lengths.tolist())]
# --8<-- [end:math]

# Check: PyTorch's own attention on the same heads, with the same mask (True = may attend).
with torch.no_grad():
    Q, K, V = layer.qkv(X).split(4, dim=2)
    q, k, v = (M.view(2, 3, h, 2).transpose(1, 2) for M in (Q, K, V))  # (B, h, T, d_head)
    pad = torch.arange(3)[None, :] < lengths[:, None]                   # (B, T)
    y = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=layer.causal[:3, :3] & pad[:, None, None, :])
    builtin = layer.proj(y.transpose(1, 2).reshape(2, 3, 4))

# Check: torch.nn.MultiheadAttention with the same weights. Its masks mean the opposite:
# True = leave this key out. So it gets ~pad (B, T) and ~causal (T, T).
mha = torch.nn.MultiheadAttention(4, h, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():
    mha.in_proj_weight.copy_(layer.qkv.weight)
    mha.out_proj.weight.copy_(layer.proj.weight)
    mha_output, mha_weights = mha(X, X, X, key_padding_mask=~pad, attn_mask=~layer.causal[:3, :3],
                                  average_attn_weights=False)

for b, sentence in enumerate(batch):
    for head in range(h):
        print(f'"{" ".join(sentence)}", head {head + 1}')
        print("         " + "".join(f"{t:>8}" for t in sentence))
        for token, row in zip(sentence, weights[b, head].tolist(), strict=True):
            print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))
    print()
print("output")
for b, sentence in enumerate(batch):
    for token, row in zip(sentence, output[b].tolist(), strict=True):
        print(f"  {b + 1}: {token:<7}[" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
same = all(torch.allclose(output[b, :k], alone[b][0], rtol=0, atol=1e-12) for b, k in enumerate(lengths.tolist()))
print("real tokens the same as each sentence alone:", same)
print("same as F.scaled_dot_product_attention:", torch.allclose(output, builtin, rtol=0, atol=1e-12))
print("same as torch.nn.MultiheadAttention:",
      torch.allclose(output, mha_output, rtol=0, atol=1e-12)
      and torch.allclose(weights, mha_weights, rtol=0, atol=1e-12))
