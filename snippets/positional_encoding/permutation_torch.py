# --8<-- [start:math]
import torch

vectors = {  # the made-up embeddings of "dog bites man", 4 numbers per word
    "dog": [1.0, 1.0, 1.0, 0.0],
    "bites": [0.0, 0.0, 1.0, 1.0],
    "man": [1.0, 0.0, 1.0, 0.0],
}
words = ["dog", "bites", "man"]
X = torch.tensor([vectors[word] for word in words], dtype=torch.float64)  # (3, 4)


def self_attention(X):
    S = X @ X.T  # scores, (3, 3)
    A = torch.exp(S - S.amax(dim=1, keepdim=True))  # e^(score - its row's largest score)
    A = A / A.sum(dim=1, keepdim=True)  # attention weights: the softmax of each row, (3, 3)
    return S, A, A @ X  # scores, weights and outputs


S, A, Y = self_attention(X)

# P has a single 1 in each row: row i picks the word that goes to position i, so P @ X is
# the reordered sentence. The order [2, 1, 0] is "man bites dog".
P = torch.eye(3, dtype=torch.float64)[[2, 1, 0]]  # (3, 3)
S2, A2, Y2 = self_attention(P @ X)  # S2 = P S Pᵀ, A2 = P A Pᵀ, Y2 = P Y: the whole script checks every order
# --8<-- [end:math]

# Every order of the three words, each checked as above.
orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
print(f"{'sentence':<16}{'S2 = P S Pᵀ':>13}{'A2 = P A Pᵀ':>13}{'Y2 = P Y':>10}   average output")
for order in orders:
    P = torch.eye(3, dtype=torch.float64)[order]  # (3, 3)
    S2, A2, Y2 = self_attention(P @ X)
    sentence = " ".join(words[i] for i in order)
    checks = [torch.equal(S2, P @ S @ P.T), torch.allclose(A2, P @ A @ P.T), torch.allclose(Y2, P @ Y)]
    average = ", ".join(f"{float(x):.3f}" for x in Y2.mean(dim=0))
    print(f"{sentence:<16}{checks[0]!s:>13}{checks[1]!s:>13}{checks[2]!s:>10}   {average}")
