# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=float)     # (3, 4): one embedding per row

# The seeded stand-ins of the page on learned weights
# (W_V, drawn third, plays no part here).
rng = np.random.default_rng(42)
W_Q = rng.normal(0, 0.5, (4, 4))
W_K = rng.normal(0, 0.5, (4, 4))


def weights_of(W_Q):
    """The attention weights (3, 3): softmax of each row of scaled scores."""
    scaled = (X @ W_Q) @ (X @ W_K).T / np.sqrt(4)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))  # no overflow
    return e / e.sum(axis=1, keepdims=True)


def loss_of(W_Q):
    """The cross-entropy of sat's answer: -ln of sat's weight on cat."""
    return -np.log(weights_of(W_Q)[2, 1])


def gradient_of(W_Q, delta=0.01):
    """By hand: nudge each entry of W_Q up and down by delta, measure the slope."""
    gradient = np.zeros_like(W_Q)  # (4, 4)
    for r in range(4):
        for c in range(4):
            up, down = W_Q.copy(), W_Q.copy()
            up[r, c] += delta
            down[r, c] -= delta
            gradient[r, c] = (loss_of(up) - loss_of(down)) / (2 * delta)
    return gradient


loss = loss_of(W_Q)
gradient = gradient_of(W_Q)       # 32 losses, 2 per entry
lr = 2.0                          # the learning rate
W_Q_after = W_Q - lr * gradient   # one step of gradient descent
# --8<-- [end:math]


def show_answer(W):
    row = weights_of(W)[2]
    print("sat's attention weights: " + ", ".join(f"{t} {w:.4f}" for t, w in zip(tokens, row, strict=True)))
    print(f"loss = -ln({row[1]:.4f}) = {loss_of(W):.3f}")


def fmt(x):
    """x at 4 decimals, without a "-0.0000" for a tiny negative number."""
    return f"{x:.4f}".replace("-0.0000", "0.0000")


show_answer(W_Q)
print()
print("gradient of the loss for W_Q")
print("     " + "".join(f"{c:>8}" for c in ["c1", "c2", "c3", "c4"]))
for label, row in zip(["x1", "x2", "x3", "x4"], gradient, strict=True):
    print(f"{label:<5}" + "".join(f"{fmt(x):>8}" for x in row))
print()
print(f"after one step, W_Q - {lr} * gradient:")
show_answer(W_Q_after)
