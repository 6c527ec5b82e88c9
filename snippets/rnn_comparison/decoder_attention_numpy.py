# --8<-- [start:math]
import numpy as np

# The encoder of the previous block: three states, one after another.
X = np.array([[1, 0, 1, 0],    # The
              [0, 1, 0, 1],    # cat
              [1, 1, 1, 1]],   # sat
             dtype=np.float64)
W_xh = np.array([[0.5, -0.3, 0.0, 0.2], [0.1, 0.4, -0.3, 0.0],
                 [0.0, 0.2, 0.5, -0.4], [-0.2, 0.0, 0.3, 0.5]])
W_hh = np.array([[0.5, 0.2, 0.0, -0.1], [0.0, 0.5, 0.3, 0.0],
                 [-0.2, 0.0, 0.5, 0.2], [0.1, -0.3, 0.0, 0.5]])
h, states = np.zeros(4), []
for x in X:
    h = np.tanh(x @ W_xh + h @ W_hh)
    states.append(h)
H = np.stack(states)  # (3, 4): h1, h2, h3

# The decoder's state, and the weights of the additive score (2 attention units).
s = np.array([0.5, -0.5, 0.5, -0.5])                                # (4,)
W_s = np.array([[0.5, 0.0], [0.0, 0.5], [-0.3, 0.0], [0.0, -0.3]])  # (4, 2)
W_h = np.array([[0.5, -0.3], [0.2, 0.5], [0.0, 0.2], [-0.3, 0.0]])  # (4, 2)
v = np.array([1.0, -0.5])                                           # (2,)


def softmax(score):
    powers = np.exp(score - score.max())  # the largest score subtracted first: the same weights
    return powers / powers.sum()


# Additive (Bahdanau): a small network scores s against each h_j.
hidden = np.tanh(s @ W_s + H @ W_h)        # (2,) + (3, 2) -> (3, 2)
additive_scores = hidden @ v               # (3,)
additive_weights = softmax(additive_scores)
additive_context = additive_weights @ H    # (4,): weighted sum of the states

# Dot product (Luong): the score is s . h_j.
dot_scores = H @ s                         # (3,)
dot_weights = softmax(dot_scores)
dot_context = dot_weights @ H              # (4,)
# --8<-- [end:math]


def fmt(v):
    return "[" + ", ".join(f"{x:7.4f}" for x in v.tolist()) + "]"


print("           scores of h1, h2, h3            weights of h1, h2, h3")
print(f"additive   {fmt(additive_scores)}   {fmt(additive_weights)}")
print(f"dot        {fmt(dot_scores)}   {fmt(dot_weights)}")
print()
print(f"context, additive: {fmt(additive_context)}")
print(f"context, dot:      {fmt(dot_context)}")
