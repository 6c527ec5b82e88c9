# no-twin: training a model is PyTorch-only on this site
# --8<-- [start:script]
import torch

torch.set_num_threads(1)  # one thread and deterministic kernels:
torch.use_deterministic_algorithms(True)  # the same numbers on every run

letters = "abcdefgh"
n = 6  # letters per sequence, all different


def draw_sequences(count, generator):
    """count different sequences, each n different letters (as ids 0-7) in a random order."""
    seen, rows = set(), []
    while len(rows) < count:
        row = tuple(torch.randperm(len(letters), generator=generator)[:n].tolist())
        if row not in seen:  # a sequence drawn again is skipped
            seen.add(row)
            rows.append(row)
    return torch.tensor(rows)  # (count, n)


ids = draw_sequences(512 + 256, torch.Generator().manual_seed(0))
train_ids, test_ids = ids[:512], ids[512:]  # no held-out sequence is in training


def positional_encoding(n, d):
    pos = torch.arange(n, dtype=torch.float64)[:, None]  # (n, 1)
    i2 = torch.arange(0, d, 2, dtype=torch.float64)[None, :]  # (1, d/2): the even columns
    angle = pos / torch.pow(10000.0, i2 / d)  # (n, d/2)
    PE = torch.zeros((n, d), dtype=torch.float64)
    PE[:, 0::2] = torch.sin(angle)
    PE[:, 1::2] = torch.cos(angle)
    return PE


class ReversalAttention(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.embed = torch.nn.Embedding(len(letters), d, dtype=torch.float64)
        self.W_Q = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_K = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.PE = positional_encoding(n, d)  # (n, d)

    def attention(self, ids):  # (B, n)
        X = self.embed(ids) + self.PE  # each letter's vector plus its position's
        Q, K = self.W_Q(X), self.W_K(X)  # (B, n, d) each
        return torch.softmax(Q @ K.transpose(1, 2) / Q.shape[-1] ** 0.5, dim=-1)  # (B, n, n)

    def forward(self, ids):
        V = torch.nn.functional.one_hot(ids, len(letters)).double()  # the values: the letters, one-hot
        return self.attention(ids) @ V  # (B, n, 8): for each position, a probability for each letter


def loss_of(model, ids):
    """Cross-entropy: -ln of the probability of the right letter (the sequence reversed), averaged."""
    p = model(ids).gather(-1, ids.flip(1)[..., None])  # (B, n, 1)
    return -torch.log(p).mean()


def report(model, step):
    """Loss, accuracy, and the mean and the least weight of a query on its partner, on the held-out sequences."""
    with torch.no_grad():
        right = model(test_ids).argmax(dim=-1) == test_ids.flip(1)  # (B, n)
        partner = model.attention(test_ids)[:, torch.arange(n), torch.arange(n - 1, -1, -1)]  # (B, n)
        loss = loss_of(model, test_ids).item()
        mean, least = partner.mean().item(), partner.min().item()
        print(f"{step:4}{loss:8.3f}{right.double().mean().item():10.1%}{mean:11.1%}{least:8.1%}")


torch.manual_seed(0)
model = ReversalAttention(d=16)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.01)
print(f"{len(train_ids)} training sequences, {len(test_ids)} held out")
print("step    loss  accuracy  on partner   least   (held out)")
for step in range(201):
    if step in (0, 25, 200):
        report(model, step)
    if step == 200:
        break
    loss = loss_of(model, train_ids)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

example = test_ids[0]
print()
print("attention weights of", " ".join(letters[k] for k in example.tolist()), "after 200 steps")
with torch.no_grad():
    A = model.attention(example[None])[0]
print("      " + "".join(f"{letters[k]:>6}" for k in example.tolist()))
for k, row in zip(example.tolist(), A.tolist(), strict=True):
    print(f"  {letters[k]:<4}" + "".join(f"{w:6.2f}" for w in row))
# --8<-- [end:script]
