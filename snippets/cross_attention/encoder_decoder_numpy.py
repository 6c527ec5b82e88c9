# --8<-- [start:math]
import numpy as np

vectors = {"The": [1, 0, 1, 0], "cat": [0, 1, 0, 1], "sat": [1, 1, 1, 1],
           "[PAD]": [0, 0, 0, 0]}  # the pad token's embedding: all zeros
# Made-up vectors for the target: a French word gets its English word's vector, "est" one of its own.
vectors |= {"Le": vectors["The"], "chat": vectors["cat"], "assis": vectors["sat"], "est": [0, 0, 1, 1]}
source = [["The", "cat", "sat"],
          ["The", "cat", "[PAD]"]]             # what the encoder reads
target = [["Le", "chat", "est", "assis"],
          ["Le", "chat", "[PAD]", "[PAD]"]]    # what the decoder writes
source_lengths = np.array([3, 2])              # real tokens per sentence
target_lengths = np.array([4, 2])
X_source = np.array([[vectors[t] for t in s] for s in source], dtype=np.float64)  # (batch, n_k, d) = (2, 3, 4)
X_target = np.array([[vectors[t] for t in s] for s in target], dtype=np.float64)  # (batch, n, d) = (2, 4, 4)
n_k, n = X_source.shape[1], X_target.shape[1]


def attention(X, memory, mask):
    """One head, identity projections: queries from the rows of X, keys and values from the
    rows of memory. mask: True where a query may attend to a key."""
    scaled = X @ memory.swapaxes(-1, -2) / np.sqrt(X.shape[-1])  # (batch, rows of X, rows of memory)
    scaled = np.where(mask, scaled, -np.inf)
    e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ memory, weights


source_pad = np.arange(n_k)[None, :] < source_lengths[:, None]  # (batch, n_k): True where real
target_pad = np.arange(n)[None, :] < target_lengths[:, None]    # (batch, n)
causal = np.tril(np.ones((n, n), dtype=bool))                    # (n, n)

# The encoder: source to source, the source's padding mask.
memory, encoder_weights = attention(X_source, X_source, source_pad[:, None, :])
# The decoder's self-attention: target to target, the causal mask and the target's padding mask.
decoded, decoder_weights = attention(X_target, X_target, causal & target_pad[:, None, :])
# Cross-attention: the decoder's rows read the encoder's, with the source's padding mask only.
output, weights = attention(decoded, memory, source_pad[:, None, :])  # (2, 4, 4), (2, 4, 3)
# The same step on the vectors themselves, to read it word by word.
word_by_word, direct_weights = attention(X_target, X_source, source_pad[:, None, :])
# --8<-- [end:math]


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
