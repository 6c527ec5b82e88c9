"""The word-order experiment: a tiny attention classifier that must tell who bites whom.

PyTorch only: a training run needs autograd and an optimizer, so this module has no NumPy twin
(and is not one of the twins in :mod:`selfattn_ref.torch`); it imports ``torch``.

Every sentence is "A bites B" with one animal and one person, in both orders: "dog bites
man" (label 0, the animal bites) and "man bites dog" (label 1, the person bites). A
sentence and its reverse hold the same three words, so a model that cannot see word order
gives them the same answer and is wrong on one of the two: on any set that holds every
sentence's reverse, its accuracy is exactly 50%. With sinusoidal positional encoding added
to the embeddings, the same model learns the task.

The model is one self-attention layer (learned W_Q, W_K, W_V, scaled scores), the mean of
its outputs over the words, and a linear classifier. Training is full-batch AdamW, seeded,
on one CPU thread with deterministic kernels, so that every run gives the same numbers.
``snippets/positional_encoding/train_torch.py`` restates this module for readers, and a
test holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import torch

from .._validate import check_size, dtype_name, positive_integer, value_text
from ..torch.positional import sinusoidal_positional_encoding

ANIMALS = ("dog", "cat", "horse", "snake", "wolf", "fox", "bear", "goose")
PEOPLE = ("man", "woman", "child", "king", "queen", "farmer", "nurse", "baker")
VERB = "bites"
VOCAB = (*ANIMALS, *PEOPLE, VERB)
LABELS = ("the animal bites", "the person bites")  # label 0, label 1
SENTENCE_LENGTH = 3

# The published run: these settings and nothing else.
SEED = 0
D_MODEL = 16
STEPS = 150
LR = 0.02
WEIGHT_DECAY = 0.1


def is_held_out(i: int, j: int) -> bool:
    """Whether the pair (ANIMALS[i], PEOPLE[j]) is kept out of training: a quarter of the
    pairs, two for every animal and two for every person."""
    return (i - j) % 4 == 0


def sentences(held_out: bool) -> list[tuple[str, int]]:
    """(sentence, label) for every pair of the split, the animal-first order then its reverse.

    Label 0: the animal bites ("dog bites man"). Label 1: the person bites ("man bites dog").
    """
    if not isinstance(held_out, bool):
        raise ValueError(f"held_out must be True or False, got {held_out!r}")
    out = []
    for i, animal in enumerate(ANIMALS):
        for j, person in enumerate(PEOPLE):
            if is_held_out(i, j) == held_out:
                out += [(f"{animal} {VERB} {person}", 0), (f"{person} {VERB} {animal}", 1)]
    return out


def reverse(sentence: str) -> str:
    """The sentence with its words in the opposite order: "dog bites man" -> "man bites dog"."""
    if not isinstance(sentence, str) or not sentence.split():
        raise ValueError(f"sentence must be a non-empty string of words, got {sentence!r}")
    return " ".join(reversed(sentence.split()))


def encode(data) -> tuple[torch.Tensor, torch.Tensor]:
    """Token ids (N, 3) and labels (N,) of a list of (sentence, label)."""
    data = list(data)
    if not data:
        raise ValueError("data must hold at least one (sentence, label) pair, got none")
    rows, labels = [], []
    for k, item in enumerate(data):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise ValueError(f"data[{k}] must be a (sentence, label) pair, got {item!r}")
        sentence, label = item
        words = sentence.split() if isinstance(sentence, str) else []
        if len(words) != SENTENCE_LENGTH:
            raise ValueError(f"data[{k}]: a sentence has {SENTENCE_LENGTH} words, got {sentence!r}")
        unknown = [w for w in words if w not in VOCAB]
        if unknown:
            raise ValueError(f"data[{k}]: unknown word {unknown[0]!r} in {sentence!r}; the vocabulary is {list(VOCAB)}")
        if label not in (0, 1) or isinstance(label, bool):
            raise ValueError(f"data[{k}]: the label must be 0 or 1, got {label!r}")
        rows.append([VOCAB.index(w) for w in words])
        labels.append(label)
    return torch.tensor(rows), torch.tensor(labels)  # (N, 3), (N,)


class AttentionClassifier(torch.nn.Module):
    """Embedding, one self-attention layer, the mean over the words, a linear classifier.

    With ``positional`` the sinusoidal encoding of each position is added to the
    embeddings before attention; without it the model sees only which words are there.
    Float64 throughout.
    """

    def __init__(self, d: int = D_MODEL, positional: bool = True):
        super().__init__()
        d = positive_integer(d, "d")
        check_size((d, d), f"with d = {value_text(d)}, each of W_Q, W_K and W_V (d, d)")
        if not isinstance(positional, bool):
            raise ValueError(f"positional must be True or False, got {positional!r}")
        self.positional = positional
        self.embed = torch.nn.Embedding(len(VOCAB), d, dtype=torch.float64)
        self.W_Q = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_K = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_V = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.classify = torch.nn.Linear(d, len(LABELS), dtype=torch.float64)
        self.register_buffer("PE", sinusoidal_positional_encoding(SENTENCE_LENGTH, d))  # (3, d)

    def attention(self, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(output (B, n, d), weights (B, n, n)) of the attention layer for token ids (B, n)."""
        if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.dtype != torch.int64:
            got = (
                f"shape {tuple(ids.shape)}, dtype {dtype_name(ids.dtype)}"
                if isinstance(ids, torch.Tensor)
                else repr(ids)
            )
            raise ValueError(f"ids must be an int64 tensor of shape (batch, n), got {got}")
        if ids.shape[1] != SENTENCE_LENGTH:
            raise ValueError(f"ids must hold sentences of {SENTENCE_LENGTH} words, got shape {tuple(ids.shape)}")
        X = self.embed(ids)  # (B, n, d)
        if self.positional:
            X = X + self.PE  # (B, n, d) + (n, d)
        Q, K, V = self.W_Q(X), self.W_K(X), self.W_V(X)  # (B, n, d) each
        A = torch.softmax(Q @ K.transpose(1, 2) / Q.shape[-1] ** 0.5, dim=-1)  # (B, n, n)
        return A @ V, A

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """Logits (B, 2) for token ids (B, n)."""
        Y, _ = self.attention(ids)
        return self.classify(Y.mean(dim=1))  # (B, d) -> (B, 2)


@dataclass(frozen=True)
class Run:
    """One trained model and how it does."""

    positional: bool
    model: AttentionClassifier
    train_loss: float
    train_accuracy: float
    held_out_accuracy: float


def evaluate(model: AttentionClassifier, ids: torch.Tensor, labels: torch.Tensor) -> tuple[float, float]:
    """(mean cross-entropy loss, accuracy) of ``model`` on token ids (N, n) and labels (N,)."""
    if not isinstance(labels, torch.Tensor) or labels.shape != (ids.shape[0],):
        got = tuple(labels.shape) if isinstance(labels, torch.Tensor) else repr(labels)
        raise ValueError(f"labels must be a tensor of shape ({ids.shape[0]},), one per sentence, got {got}")
    with torch.no_grad():
        logits = model(ids)  # (N, 2)
        loss = torch.nn.functional.cross_entropy(logits, labels).item()
        accuracy = (logits.argmax(dim=1) == labels).double().mean().item()
    return loss, accuracy


def person_bites_probability(model: AttentionClassifier, sentence: str) -> float:
    """The model's probability for label 1, "the person bites", on one sentence."""
    ids, _ = encode([(sentence, 0)])  # (1, 3); the label is not used
    with torch.no_grad():
        return torch.softmax(model(ids), dim=-1)[0, 1].item()


def train(positional: bool, *, seed: int = SEED, d: int = D_MODEL, steps: int = STEPS) -> Run:
    """Train one model on the training sentences and score it on both splits.

    Deterministic: the seed fixes the starting weights (the same for both values of
    ``positional``), and training runs on one thread with deterministic kernels. The
    caller's RNG state, thread count and determinism setting are restored afterwards.
    """
    if not isinstance(positional, bool):
        raise ValueError(f"positional must be True or False, got {positional!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**64:
        raise ValueError(f"seed must be an integer from -2**63 to 2**64 - 1, got {value_text(seed)}")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    train_ids, train_labels = encode(sentences(held_out=False))
    test_ids, test_labels = encode(sentences(held_out=True))
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    try:
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            model = AttentionClassifier(d, positional)
            optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)
            for _ in range(steps):
                loss = torch.nn.functional.cross_entropy(model(train_ids), train_labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        train_loss, train_accuracy = evaluate(model, train_ids, train_labels)
        _, held_out_accuracy = evaluate(model, test_ids, test_labels)
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
    model.eval()
    return Run(positional, model, train_loss, train_accuracy, held_out_accuracy)


@cache
def experiment() -> tuple[Run, Run]:
    """The published runs, (without positional encoding, with it), trained once per process."""
    return train(False), train(True)
