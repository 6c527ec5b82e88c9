# --8<-- [start:math]
import torch

vectors = {  # the made-up embeddings of "dog bites man", 4 numbers per word
    "dog": [1.0, 1.0, 1.0, 0.0],
    "bites": [0.0, 0.0, 1.0, 1.0],
    "man": [1.0, 0.0, 1.0, 0.0],
}


def positional_encoding(n, d):
    pos = torch.arange(n, dtype=torch.float64)[:, None]  # (n, 1)
    even = torch.arange(0, d, 2, dtype=torch.float64)[None, :]  # (1, d/2): the even columns 2p
    angle = pos / torch.pow(10000.0, even / d)  # (n, d/2)
    PE = torch.zeros((n, d), dtype=torch.float64)
    PE[:, 0::2] = torch.sin(angle)  # even columns: sine
    PE[:, 1::2] = torch.cos(angle)  # odd columns: cosine
    return PE


def self_attention(sentence):
    X = torch.tensor([vectors[word] for word in sentence.split()], dtype=torch.float64)  # (3, 4)
    X = X + positional_encoding(*X.shape)  # each word's vector plus its position's
    S = X @ X.T  # scores, (3, 3)
    A = torch.exp(S - S.amax(dim=1, keepdim=True))  # e^(score - its row's largest score)
    A = A / A.sum(dim=1, keepdim=True)  # attention weights: the softmax of each row, (3, 3)
    return S, A @ X  # scores and outputs


S1, Y1 = self_attention("dog bites man")
S2, Y2 = self_attention("man bites dog")
# Position i of "man bites dog" holds the word at position order[i] of "dog bites man".
order = [2, 1, 0]
same_scores = torch.allclose(S2, S1[order][:, order])  # False: the positions changed the scores
same_outputs = torch.allclose(Y2, Y1[order])  # False
# --8<-- [end:math]


def show(sentence, S):
    print(f'Scores for "{sentence}", with positions:')
    print(" " * 8 + "".join(f"{word:>8}" for word in sentence.split()))
    for word, row in zip(sentence.split(), S, strict=True):
        print(f"  {word:<6}" + "".join(f"{float(x):8.3f}" for x in row))


print("Positional encoding, positions 0 to 3, d = 4:")
for pos, row in enumerate(positional_encoding(4, 4)):
    print(f"  {pos}: " + ", ".join(f"{float(x):6.3f}" for x in row))
print()

show("dog bites man", S1)
print()
show("man bites dog", S2)
print("Same scores, rows and columns reordered:", same_scores)
print("Same outputs, rows reordered:", same_outputs)
print('Output for dog in "dog bites man":', ", ".join(f"{float(x):.3f}" for x in Y1[0]))
print('Output for dog in "man bites dog":', ", ".join(f"{float(x):.3f}" for x in Y2[2]))
print('Average output of "dog bites man":', ", ".join(f"{float(x):.3f}" for x in Y1.mean(dim=0)))
print('Average output of "man bites dog":', ", ".join(f"{float(x):.3f}" for x in Y2.mean(dim=0)))
