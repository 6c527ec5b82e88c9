# --8<-- [start:math]
import torch

vectors = {"The": [1, 0, 1, 0], "cat": [0, 1, 0, 1], "sat": [1, 1, 1, 1],
           "[PAD]": [0, 0, 0, 0]}  # the pad token's embedding: all zeros
batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to the length of the longest sentence
lengths = torch.tensor([3, 2])     # real tokens per sentence
X = torch.tensor([[vectors[t] for t in s] for s in batch], dtype=torch.float64)  # (2, 3, 4)
n = X.shape[1]

# The padding mask: key j of sentence b is real if j < lengths[b]. Shape (2, 1, 3): one row
# per sentence, which every query of that sentence shares.
mask = (torch.arange(n)[None, :] < lengths[:, None])[:, None, :]


def attention(X, mask=None):
    """Self-attention with identity projections (Q = K = V = X), rows of X batched."""
    d_k = X.shape[-1]
    scaled = X @ X.transpose(-1, -2) / d_k**0.5          # (batch, n, n)
    if mask is not None:
        scaled = scaled.masked_fill(~mask, float("-inf"))  # the mask broadcasts over the queries
    weights = torch.softmax(scaled, dim=-1)
    return weights @ X, weights


output, weights = attention(X, mask)
output_unmasked, weights_unmasked = attention(X)
alone, _ = attention(X[1:, :2])  # "The cat" on its own, no padding: (1, 2, 4)
# --8<-- [end:math]

print("padding mask (1 = real token)")
for s, row in zip(batch, mask[:, 0, :].tolist(), strict=True):
    print(f"  {' '.join(s):<15}" + "".join(f"{int(x):3d}" for x in row))
print()
for title, W in (("with the mask", weights), ("without the mask", weights_unmasked)):
    print(f'weights in "The cat [PAD]", {title}')
    print("       " + "".join(f"{t:>8}" for t in batch[1]))
    for token, row in zip(batch[1], W[1].tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))
    print()
print('largest difference from "The cat" alone, for its two real tokens:')
print(f"  with the mask:    {(output[1, :2] - alone[0]).abs().max():.4f}")
print(f"  without the mask: {(output_unmasked[1, :2] - alone[0]).abs().max():.4f}")
