# --8<-- [start:math]
import torch

vectors = {  # made-up embeddings, 4 numbers per word
    "dog": [1.0, 1.0, 1.0, 0.0],
    "bites": [0.0, 0.0, 1.0, 1.0],
    "man": [1.0, 0.0, 1.0, 0.0],
}


def self_attention(sentence):
    X = torch.tensor([vectors[word] for word in sentence.split()], dtype=torch.float64)  # (3, 4)
    S = X @ X.T  # scores, (3, 3)
    A = torch.exp(S - S.amax(dim=1, keepdim=True))  # e^(score - its row's largest score)
    A = A / A.sum(dim=1, keepdim=True)  # attention weights: the softmax of each row, (3, 3)
    return S, A @ X  # scores and outputs


S1, Y1 = self_attention("dog bites man")
S2, Y2 = self_attention("man bites dog")
# Position i of "man bites dog" holds the word at position order[i] of "dog bites man".
order = [2, 1, 0]
same_scores = torch.equal(S2, S1[order][:, order])  # rows and columns reordered
same_outputs = torch.allclose(Y2, Y1[order])  # rows reordered
# --8<-- [end:math]


def show(sentence, S):
    print(f'Scores for "{sentence}":')
    print(" " * 8 + "".join(f"{word:>7}" for word in sentence.split()))
    for word, row in zip(sentence.split(), S, strict=True):
        print(f"  {word:<6}" + "".join(f"{float(x):7.0f}" for x in row))


show("dog bites man", S1)
print()
show("man bites dog", S2)

print("Same scores, rows and columns reordered:", same_scores)
print("Same outputs, rows reordered:", same_outputs)
print('Output for dog in "dog bites man":', ", ".join(f"{float(x):.3f}" for x in Y1[0]))
print('Output for dog in "man bites dog":', ", ".join(f"{float(x):.3f}" for x in Y2[2]))
