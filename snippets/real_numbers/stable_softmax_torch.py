# --8<-- [start:math]
import torch


def softmax(s):
    """Softmax along the last axis. Subtracting the largest score first keeps exp() from
    overflowing and changes nothing else: every e^score shrinks by the same factor."""
    e = torch.exp(s - s.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


scores = torch.tensor([2.0, 0.0, 1.0], dtype=torch.float64)  # bank's row: bank, of, river
big = scores + 1000
unshifted = torch.exp(big)  # e^1002 is too large for a float: inf
stable = softmax(big)  # the same shares as softmax(scores)
# --8<-- [end:math]


def show(label, weights):
    print(f"{label:<30}" + ", ".join(f"{float(w):.3f}" for w in weights))


for shift in (0, 1, 1000):
    show(f"softmax(scores + {shift}):", softmax(scores + shift))
show("e^(scores + 1000), no shift:", unshifted)
