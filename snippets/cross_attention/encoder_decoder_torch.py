# --8<-- [start:math]
import torch

vectors = {"The": [1, 0, 1, 0], "cat": [0, 1, 0, 1], "sat": [1, 1, 1, 1],
           "[PAD]": [0, 0, 0, 0]}  # the pad token's embedding: all zeros
# Made-up vectors for the target: a French word gets its English word's vector, "est" one of its own.
vectors |= {"Le": vectors["The"], "chat": vectors["cat"], "assis": vectors["sat"], "est": [0, 0, 1, 1]}
source = [["The", "cat", "sat"],
          ["The", "cat", "[PAD]"]]             # what the encoder reads
target = [["Le", "chat", "est", "assis"],
          ["Le", "chat", "[PAD]", "[PAD]"]]    # what the decoder writes
source_lengths = torch.tensor([3, 2])          # real tokens per sentence
target_lengths = torch.tensor([4, 2])
X_source = torch.tensor([[vectors[t] for t in s] for s in source], dtype=torch.float64)  # (batch, n_k, d) = (2, 3, 4)
X_target = torch.tensor([[vectors[t] for t in s] for s in target], dtype=torch.float64)  # (batch, n, d) = (2, 4, 4)
n_k, n = X_source.shape[1], X_target.shape[1]


def attention(X, memory, mask):
    """One head, identity projections: queries from the rows of X, keys and values from the
    rows of memory. mask: True where a query may attend to a key."""
    scaled = X @ memory.transpose(-1, -2) / X.shape[-1] ** 0.5  # (batch, rows of X, rows of memory)
    weights = torch.softmax(scaled.masked_fill(~mask, float("-inf")), dim=-1)
    return weights @ memory, weights


source_pad = torch.arange(n_k)[None, :] < source_lengths[:, None]  # (batch, n_k): True where real
target_pad = torch.arange(n)[None, :] < target_lengths[:, None]    # (batch, n)
causal = torch.ones(n, n, dtype=torch.bool).tril()                  # (n, n)

# The encoder: source to source, the source's padding mask.
memory, encoder_weights = attention(X_source, X_source, source_pad[:, None, :])
# The decoder's self-attention: target to target, the causal mask and the target's padding mask.
decoded, decoder_weights = attention(X_target, X_target, causal & target_pad[:, None, :])
# Cross-attention: the decoder's rows read the encoder's, with the source's padding mask only.
output, weights = attention(decoded, memory, source_pad[:, None, :])  # (2, 4, 4), (2, 4, 3)
# The same step on the vectors themselves, to read it word by word.
word_by_word, direct_weights = attention(X_target, X_source, source_pad[:, None, :])
# --8<-- [end:math]

# Check: PyTorch's own attention, with the same mask (True = may attend).
builtin = torch.nn.functional.scaled_dot_product_attention(decoded, memory, memory,
                                                          attn_mask=source_pad[:, None, :])

# Check: torch.nn.MultiheadAttention, called with a query other than its key: the decoder's rows
# as the query, the encoder's as the key and the value. Identity weights, one head. Its
# key_padding_mask means the opposite of ours (True = leave this key out), so it gets ~source_pad.
mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.eye(4, dtype=torch.float64).repeat(3, 1))  # W_Q.T, W_K.T, W_V.T
    mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    mha_output, mha_weights = mha(decoded, memory, memory, key_padding_mask=~source_pad)


def show(title, W, rows, cols):
    print(title)
    print("         " + "".join(f"{t:>8}" for t in cols))
    for token, row in zip(rows, W.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


for b in range(2):
    show(f"word by word: {' '.join(target[b])} over {' '.join(source[b])}", direct_weights[b], target[b], source[b])
print()
show("cross-attention after the encoder and the decoder", weights[0], target[0], source[0])
print()
print("the source's pad gets weight 0 from every target row:", bool((weights[1, :, 2] == 0).all()))
print("same as F.scaled_dot_product_attention:", torch.allclose(output, builtin, rtol=0, atol=1e-12))
print("same as torch.nn.MultiheadAttention:",
      torch.allclose(output, mha_output, rtol=0, atol=1e-12)
      and torch.allclose(weights, mha_weights, rtol=0, atol=1e-12))
