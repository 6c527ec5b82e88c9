# no-twin: training a model is PyTorch-only on this site
# --8<-- [start:script]
import torch

torch.set_num_threads(1)  # one thread and deterministic kernels:
torch.use_deterministic_algorithms(True)  # the same numbers on every run

animals = ["dog", "cat", "horse", "snake", "wolf", "fox", "bear", "goose"]
people = ["man", "woman", "child", "king", "queen", "farmer", "nurse", "baker"]
vocab = animals + people + ["bites"]


def sentences(held_out):
    """Each animal with each person, in both orders. Label 0: the animal bites; 1: the person bites."""
    out = []
    for i, animal in enumerate(animals):
        for j, person in enumerate(people):
            if ((i - j) % 4 == 0) == held_out:  # a quarter of the pairs never appear in training
                out += [(f"{animal} bites {person}", 0), (f"{person} bites {animal}", 1)]
    return out


def encode(data):
    ids = torch.tensor([[vocab.index(word) for word in sentence.split()] for sentence, _ in data])  # (N, 3)
    labels = torch.tensor([label for _, label in data])  # (N,)
    return ids, labels


train_ids, train_labels = encode(sentences(held_out=False))
test_ids, test_labels = encode(sentences(held_out=True))


def positional_encoding(n, d):
    pos = torch.arange(n, dtype=torch.float64)[:, None]  # (n, 1)
    even = torch.arange(0, d, 2, dtype=torch.float64)[None, :]  # (1, d/2): the even columns 2p
    angle = pos / torch.pow(10000.0, even / d)  # (n, d/2)
    PE = torch.zeros((n, d), dtype=torch.float64)
    PE[:, 0::2] = torch.sin(angle)
    PE[:, 1::2] = torch.cos(angle)
    return PE


class AttentionClassifier(torch.nn.Module):
    def __init__(self, d, positional):
        super().__init__()
        self.positional = positional
        self.embed = torch.nn.Embedding(len(vocab), d, dtype=torch.float64)
        self.W_Q = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_K = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_V = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.classify = torch.nn.Linear(d, 2, dtype=torch.float64)
        self.PE = positional_encoding(3, d)  # (3, d)

    def forward(self, ids):  # (B, 3)
        X = self.embed(ids)  # (B, 3, d)
        if self.positional:
            X = X + self.PE  # each position gets its own pattern
        Q, K, V = self.W_Q(X), self.W_K(X), self.W_V(X)  # (B, 3, d) each
        A = torch.softmax(Q @ K.transpose(1, 2) / Q.shape[-1] ** 0.5, dim=-1)  # (B, 3, 3)
        return self.classify((A @ V).mean(dim=1))  # mean over the words (B, d) -> logits (B, 2)


def accuracy(model, ids, labels):
    with torch.no_grad():
        return (model(ids).argmax(dim=1) == labels).double().mean().item()


def train(positional):
    torch.manual_seed(0)  # the same starting weights with and without positions
    model = AttentionClassifier(d=16, positional=positional)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1)
    for _ in range(150):
        loss = torch.nn.functional.cross_entropy(model(train_ids), train_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        loss = torch.nn.functional.cross_entropy(model(train_ids), train_labels).item()
    return model, loss


print(f"{len(train_ids)} training sentences, {len(test_ids)} held-out sentences")
print(f"{'':29}{'loss':>6}{'training':>10}{'held-out':>10}")
models = {}
for positional in (False, True):
    model, loss = train(positional)
    models[positional] = model
    name = "with positional encoding" if positional else "without positional encoding"
    train_acc, test_acc = accuracy(model, train_ids, train_labels), accuracy(model, test_ids, test_labels)
    print(f"{name:<29}{loss:6.3f}{train_acc:10.1%}{test_acc:10.1%}")

print()
print(f"{'P(the person bites)':<29}{'without':>8}{'with':>8}")
for sentence in ["dog bites man", "man bites dog"]:  # both held out
    ids = torch.tensor([[vocab.index(word) for word in sentence.split()]])
    with torch.no_grad():
        p = [torch.softmax(models[positional](ids), dim=-1)[0, 1].item() for positional in (False, True)]
    print(f"  {sentence:<27}{p[0]:8.1%}{p[1]:8.1%}")
# --8<-- [end:script]
