# --8<-- [start:math]
import torch

letters = "abcdefgh"
sequence = "c f b h a g".split()
n = len(sequence)
ids = torch.tensor([letters.index(t) for t in sequence])
V = torch.nn.functional.one_hot(ids, len(letters)).double()  # (n, 8): the values, each letter one-hot

# the pattern to find: query i puts all of its weight on key n + 1 - i (here counted from 0: n - 1 - i)
pattern = torch.eye(n, dtype=torch.float64).flip(0)  # (n, n): ones on the diagonal from top right to bottom left
# a blurred one: half of each query's weight on its partner, the other half spread over all n keys
blurred = 0.5 * pattern + 0.5 / n


def score(A, V):
    """Attention weights A (..., n, n), values V (..., n, 8): the mean weight of a query on its
    partner, the share of positions answered right, and the loss (the cross-entropy)."""
    n = A.shape[-1]
    on_partner = A[..., torch.arange(n), torch.arange(n - 1, -1, -1)]  # (..., n)
    shares = A @ V  # (..., n, 8): for each position, a share for each letter
    right = V.flip(-2).argmax(dim=-1)  # (..., n): the letters of the reversed sequence
    accuracy = (shares.argmax(dim=-1) == right).double().mean()
    # the letters are all different, so the share of the right letter is the weight on the partner
    loss = torch.log(1 / on_partner).mean()  # -ln of it, averaged
    return on_partner.mean(), accuracy, loss


reversed_by_pattern = pattern @ V  # (n, 8): the pattern applied to the values
# --8<-- [end:math]

print("the pattern gives:", " ".join(letters[k] for k in reversed_by_pattern.argmax(dim=1).tolist()))
print("                on partner  accuracy   loss")
for name, A in (("the pattern", pattern), ("blurred", blurred)):
    on_partner, accuracy, loss = score(A, V)
    print(f"{name:<14}{float(on_partner):12.1%}{float(accuracy):10.1%}{float(loss):7.3f}")
