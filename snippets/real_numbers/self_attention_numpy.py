# --8<-- [start:math]
import numpy as np

words = ["bank", "of", "river"]
X = np.array(
    [
        [1.0, 0.0, 1.0, 0.0],  # bank
        [0.0, 1.0, 0.0, 1.0],  # of
        [1.0, 1.0, 0.0, 0.0],  # river
    ]
)  # (3 words, 4 numbers each)

S = X @ X.T  # 1. score: every dot product, (3, 3)
A = np.exp(S - S.max(axis=1, keepdims=True))  # 2. normalize: e^(score - its row's largest score)
A = A / A.sum(axis=1, keepdims=True)  # divided by the row's total: softmax of each row, (3, 3)
Y = A @ X  # 3. mix: weighted sums of the vectors, (3, 4)
# --8<-- [end:math]


def show(title, M, columns, decimals):
    print(title)
    print(" " * 8 + "".join(f"{c:>8}" for c in columns))
    for word, row in zip(words, M, strict=True):
        print(f"  {word:<6}" + "".join(f"{float(x):8.{decimals}f}" for x in row))


show("Scores S = X @ X.T", S, words, 0)
show("\nWeights A = softmax(S)", A, words, 3)
print("  row totals:", ", ".join(f"{float(t):.3f}" for t in A.sum(axis=1)))
show("\nOutputs Y = A @ X", Y, ["x1", "x2", "x3", "x4"], 3)
