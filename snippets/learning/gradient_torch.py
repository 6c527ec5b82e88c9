# --8<-- [start:math]
import numpy as np  # only for NumPy's seeded generator
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
                  [0, 1, 0, 1],   # cat
                  [1, 1, 1, 1]],  # sat
                 dtype=torch.float64)  # (3, 4): one embedding per row

# The seeded stand-ins of the page on learned weights
# (W_V, drawn third, plays no part here).
rng = np.random.default_rng(42)
W_Q = torch.from_numpy(rng.normal(0, 0.5, (4, 4)))
W_K = torch.from_numpy(rng.normal(0, 0.5, (4, 4)))


def weights_of(W_Q):
    """The attention weights (3, 3): softmax of each row of scaled scores."""
    scaled = (X @ W_Q) @ (X @ W_K).T / 4**0.5
    return torch.softmax(scaled, dim=1)


def loss_of(W_Q):
    """The cross-entropy of sat's answer: -ln of sat's weight on cat."""
    return -torch.log(weights_of(W_Q)[2, 1])


def gradient_of(W_Q):
    """By autograd: one pass backwards from the loss gives every entry."""
    W_Q = W_Q.detach().requires_grad_()  # autograd follows what W_Q goes through
    loss = loss_of(W_Q)
    loss.backward()                       # fills W_Q.grad
    return W_Q.grad


loss = loss_of(W_Q)
gradient = gradient_of(W_Q)       # (4, 4)
lr = 2.0                          # the learning rate
W_Q_after = W_Q - lr * gradient  # one step of gradient descent
# --8<-- [end:math]


def show_answer(W):
    with torch.no_grad():
        row, loss = weights_of(W)[2].tolist(), loss_of(W).item()
    print("sat's attention weights: " + ", ".join(f"{t} {w:.4f}" for t, w in zip(tokens, row, strict=True)))
    print(f"loss = -ln({row[1]:.4f}) = {loss:.3f}")


def fmt(x):
    """x at 4 decimals, without a "-0.0000" for a tiny negative number."""
    return f"{x:.4f}".replace("-0.0000", "0.0000")


show_answer(W_Q)
print()
print("gradient of the loss for W_Q")
print("     " + "".join(f"{c:>8}" for c in ["c1", "c2", "c3", "c4"]))
for label, row in zip(["x1", "x2", "x3", "x4"], gradient.tolist(), strict=True):
    print(f"{label:<5}" + "".join(f"{fmt(x):>8}" for x in row))
print()
print(f"after one step, W_Q - {lr} * gradient:")
show_answer(W_Q_after)
