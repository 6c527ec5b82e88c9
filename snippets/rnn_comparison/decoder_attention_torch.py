# --8<-- [start:math]
import torch

f64 = torch.float64
# The encoder of the previous block: three states, one after another.
X = torch.tensor([[1, 0, 1, 0],    # The
                  [0, 1, 0, 1],    # cat
                  [1, 1, 1, 1]],   # sat
                 dtype=f64)
W_xh = torch.tensor([[0.5, -0.3, 0.0, 0.2], [0.1, 0.4, -0.3, 0.0],
                     [0.0, 0.2, 0.5, -0.4], [-0.2, 0.0, 0.3, 0.5]], dtype=f64)
W_hh = torch.tensor([[0.5, 0.2, 0.0, -0.1], [0.0, 0.5, 0.3, 0.0],
                     [-0.2, 0.0, 0.5, 0.2], [0.1, -0.3, 0.0, 0.5]], dtype=f64)
h, states = torch.zeros(4, dtype=f64), []
for x in X:
    h = torch.tanh(x @ W_xh + h @ W_hh)
    states.append(h)
H = torch.stack(states)  # (3, 4): h1, h2, h3

# The decoder's state, and the weights of the additive score (2 attention units).
s = torch.tensor([0.5, -0.5, 0.5, -0.5], dtype=f64)              # (4,)
W_s = torch.tensor([[0.5, 0.0], [0.0, 0.5], [-0.3, 0.0], [0.0, -0.3]],
                   dtype=f64)                                    # (4, 2)
W_h = torch.tensor([[0.5, -0.3], [0.2, 0.5], [0.0, 0.2], [-0.3, 0.0]],
                   dtype=f64)                                    # (4, 2)
v = torch.tensor([1.0, -0.5], dtype=f64)                         # (2,)

# Additive (Bahdanau): a small network scores s against each h_j.
hidden = torch.tanh(s @ W_s + H @ W_h)     # (2,) + (3, 2) -> (3, 2)
additive_scores = hidden @ v               # (3,)
additive_weights = torch.softmax(additive_scores, dim=0)
additive_context = additive_weights @ H    # (4,): weighted sum of the states

# Dot product (Luong): the score is s . h_j.
dot_scores = H @ s                         # (3,)
dot_weights = torch.softmax(dot_scores, dim=0)
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
