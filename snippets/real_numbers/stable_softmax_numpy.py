# --8<-- [start:math]
import numpy as np


def softmax(s):
    """Softmax along the last axis. Subtracting the largest score first keeps exp() from
    overflowing and changes nothing else: every e^score shrinks by the same factor."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


scores = np.array([2.0, 0.0, 1.0])  # bank's row: bank, of, river
big = scores + 1000
with np.errstate(over="ignore"):  # NumPy would warn: overflow encountered in exp
    unshifted = np.exp(big)  # e^1002 is too large for a float: inf
stable = softmax(big)  # the same shares as softmax(scores)
# --8<-- [end:math]


def show(label, weights):
    print(f"{label:<30}" + ", ".join(f"{float(w):.3f}" for w in weights))


for shift in (0, 1, 1000):
    show(f"softmax(scores + {shift}):", softmax(scores + shift))
show("e^(scores + 1000), no shift:", unshifted)
