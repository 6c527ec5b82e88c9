# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
                  [0, 1, 0, 1],   # cat
                  [1, 1, 1, 1]],  # sat
                 dtype=torch.float64)  # (3, 4): one embedding per row

W_xh = torch.tensor([[ 0.5, -0.3,  0.0,  0.2],   # input -> hidden (4, 4)
                     [ 0.1,  0.4, -0.3,  0.0],
                     [ 0.0,  0.2,  0.5, -0.4],
                     [-0.2,  0.0,  0.3,  0.5]], dtype=torch.float64)
W_hh = torch.tensor([[ 0.5,  0.2,  0.0, -0.1],   # hidden -> hidden (4, 4)
                     [ 0.0,  0.5,  0.3,  0.0],
                     [-0.2,  0.0,  0.5,  0.2],
                     [ 0.1, -0.3,  0.0,  0.5]], dtype=torch.float64)


def encode(X, W_xh, W_hh):
    """h_t = tanh(x_t W_xh + h_{t-1} W_hh), one token after another."""
    h = torch.zeros(W_hh.shape[0], dtype=torch.float64)  # h_0: nothing read yet
    states = []
    for x in X:  # step t cannot start before step t-1 has finished
        h = torch.tanh(x @ W_xh + h @ W_hh)
        states.append(h)
    return torch.stack(states)  # (n, 4): row t is h_{t+1}


H = encode(X, W_xh, W_hh)
H_without_the = encode(X[1:], W_xh, W_hh)  # the same encoder on "cat sat"
# --8<-- [end:math]


def fmt(v):
    return "[" + ", ".join(f"{x:7.4f}" for x in v.tolist()) + "]"


for t, token in enumerate(tokens):
    print(f"h{t + 1} = {fmt(H[t])}   after reading {token!r}")
print()
print(f"last state, 'The cat sat': {fmt(H[-1])}")
print(f"last state, 'cat sat':     {fmt(H_without_the[-1])}")
