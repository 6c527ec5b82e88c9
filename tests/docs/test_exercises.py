"""The exercises at the end of the pages: every article and topic page has some, every expected
answer is the reference's (computed here a second way, from selfattn_ref's attention function), and a
bad spec is refused with the file, the key and the line."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from publish import DOCS, GENERATED
from publish import exercises as exr
from selfattn_ref import examples, scaled_dot_product_attention
from selfattn_ref.masks import causal_mask
from selfattn_ref.positional import sinusoidal_positional_encoding
from selfattn_ref.topics.rnn_comparison import compare

# The pages that teach: the four articles and the topics beyond them.
TEACHING_PAGES = [
    "real-numbers", "queries-keys-values", "learned-weights", "learning", "where-used",
    "scaling", "masking", "positional-encoding", "attention-that-learns", "multi-head", "rnn-comparison",
]  # fmt: skip
ALL = [(page, ex) for page, exs in exr.load_all().items() for ex in exs]


def test_every_teaching_page_has_two_to_four_exercises_and_includes_them():
    specs = exr.load_all()
    for page in TEACHING_PAGES:
        assert 2 <= len(specs.get(page, ())) <= 4, page
        text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
        assert f'--8<-- "docs/generated/exercises/{page}.md"' in text, page
    assert set(specs) <= set(TEACHING_PAGES) | {"mistakes"}


def _learning_second_way(name: str) -> float:
    """docs/learning.md's numbers, again: the softmax of "The cat sat"'s scaled scores (example
    learned), the finite difference from two losses, and the step with PyTorch's autograd."""
    import torch

    from selfattn_ref.topics.learning import DELTA, ENTRY, LR

    ex = examples.load("learned")

    def loss(W_Q):
        _, weights = scaled_dot_product_attention(ex.E @ W_Q, ex.E @ ex.W_K, ex.E)
        return -np.log(weights[2, 1])  # sat's weight on cat

    up, down = ex.W_Q.copy(), ex.W_Q.copy()
    up[ENTRY] += DELTA
    down[ENTRY] -= DELTA
    W = torch.tensor(ex.W_Q, requires_grad=True)
    X, W_K = torch.tensor(ex.E), torch.tensor(ex.W_K)
    (-torch.log_softmax((X @ W) @ (X @ W_K).T / 2, dim=-1)[2, 1]).backward()
    values = {
        "loss": loss(ex.W_Q),
        "finite_difference": (loss(up) - loss(down)) / (2 * DELTA),
        "entry_after": ex.W_Q[ENTRY] - LR * W.grad[ENTRY].item(),
        "thirds": np.log(3),
    }
    return values[name]


def _reversal_second_way(name: str) -> float:
    """docs/attention-that-learns.md's numbers, again: from the training module's constants and the
    run's record as the file holds it."""
    from selfattn_ref.training import reversal

    record = json.loads((GENERATED / "attention_that_learns" / "run.json").read_text(encoding="utf-8"))
    (last,) = [s for s in record["run"]["snapshots"] if s["step"] == reversal.STEPS]
    values = {
        "partner_of_2": reversal.partner(2),
        "equal_loss": np.log(reversal.LENGTH),
        "step200.first_loss": -np.log(last["example"][0][reversal.LENGTH - 1]),
        "guess": 1 / reversal.LENGTH,
    }
    return values[name]


def _second_way(spec: dict):
    """The expected answer of an exercise computed without publish.exercises: the example run
    again with selfattn_ref's scaled_dot_product_attention, the cost model, or a topic's numbers
    computed another way."""
    if "topic" in spec:
        second = {"learning": _learning_second_way, "attention_that_learns": _reversal_second_way}[spec["topic"]]
        return np.array([float(second(spec["answer"]))])
    if "compare" in spec:
        value = compare(**spec["compare"])
        for part in spec["answer"].split("."):
            value = value[part]
        return np.array([float(value)])
    ex = examples.load(spec["example"])
    E = ex.E.copy()
    if "embedding" in spec:
        E[ex.tokens.index(spec["embedding"]["token"])] = spec["embedding"]["vector"]
    PE = sinusoidal_positional_encoding(*E.shape)
    if spec.get("positions"):
        E = E + PE
    if ex.projections == "none":
        Q = K = V = E
    else:
        W_Q, W_K, W_V = (np.eye(E.shape[1]),) * 3 if ex.projections == "identity" else (ex.W_Q, ex.W_K, ex.W_V)
        Q, K, V = E @ W_Q, E @ W_K, E @ W_V
    if "heads" in spec:
        w = Q.shape[1] // spec["heads"]
        cols = slice((spec["head"] - 1) * w, spec["head"] * w)
        Q, K, V = Q[:, cols], K[:, cols], V[:, cols]
    scale_on = spec.get("scale", ex.scale) or "heads" in spec
    scale = 1 / np.sqrt(Q.shape[1]) if scale_on else 1.0
    causal = spec.get("causal", ex.causal)
    mask = causal_mask(len(ex.tokens)) if causal else None
    output, weights = scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    S = Q @ K.T * scale
    e = np.where(mask if mask is not None else True, np.exp(S), 0.0)
    names = {"E": E, "Q": Q, "K": K, "V": V, "weights": weights, "output": output, "exp": e, "scaled": S, "PE": PE}
    names["scores"] = Q @ K.T
    m = re.fullmatch(r"(\w+)\[([^,\]]+)(?:, ([^\]]+))?\]", spec["answer"])
    name, row, col = m.groups()
    i = ex.tokens.index(row) if row in ex.tokens else int(row) - 1
    if name == "total":
        return np.array([e[i].sum()])
    M = names[name]
    if col is None:
        return M[i]
    j = ex.tokens.index(col) if col in ex.tokens and M.shape[1] == len(ex.tokens) else int(col) - 1
    return np.array([M[i, j]])


def _specs():
    import tomllib

    for path in sorted(exr.SPEC_DIR.glob("*.toml")):
        for spec in tomllib.loads(path.read_text(encoding="utf-8"))["exercise"]:
            yield path.stem, spec


@pytest.mark.parametrize(("page", "spec"), list(_specs()), ids=lambda x: x if isinstance(x, str) else x["id"])
def test_expected_answer_is_the_references(page, spec):
    ex = next(e for p, e in ALL if p == page and e.id == spec["id"])
    np.testing.assert_allclose(ex.answer.values, _second_way(spec), rtol=0, atol=1e-12)
    data = exr.grader_data(ex)
    want = [exr.shown(v, ex.decimals, ex.percent) for v in _second_way(spec)]
    assert data["answer"] == want


def test_the_page_carries_the_grader_data_escaped():
    text = (GENERATED / "exercises" / "real-numbers.md").read_text(encoding="utf-8")
    attrs = re.findall(r'data-exercise="([^"]*)"', text)
    assert len(attrs) == len(exr.load_all()["real-numbers"])
    for attr in attrs:
        data = json.loads(html.unescape(attr))
        assert set(data) == {"id", "decimals", "percent", "answer", "labels", "rowSumsToOne", "mistakes"}
        assert "'" not in attr or "&#x27;" in text  # quotes inside the JSON are escaped for the attribute


def test_no_number_in_an_exercise_is_typed_by_hand():
    for path in exr.SPEC_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        prose = re.findall(r'^(?:question|solution) = "(.*)"$|^  "(.*)",$|message = "([^"]*)"', text, re.M)
        for parts in prose:
            line = exr._PLACEHOLDER.sub("", "".join(parts))
            assert not exr._TYPED_NUMBER.search(line), (path.name, line)


# --- a bad spec is refused, naming the file, the key and the line -------------------------------


GOOD = """[[exercise]]
id = "one"
question = "Compute it."
example = "bank_of_river"
answer = "weights[bank, river]"
decimals = 3
hints = ["A hint."]
solution = "It is {{weights[bank, river]}}."
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("decimals = 3", 'decimals = 3\ncolour = "red"'), "key 'colour', line 7: unknown key"),
        (('"weights[bank, river]"\n', '"weights[bank, sea]"\n'), "key 'answer', line 5: column 'sea' is not one of"),
        (('"weights[bank, river]"\n', '"heights[bank, river]"\n'), "key 'answer', line 5: 'heights' is not a matrix"),
        (('"weights[bank, river]"\n', '"weights(bank)"\n'), "is not an answer expression"),
        (
            ("It is {{weights[bank, river]}}.", "It is 0.245."),
            "key 'solution', line 8: 'solution' types the number '0.245'",
        ),
        (("It is {{weights[bank, river]}}.", "It is 24.5%."), "types the number '24.5%'"),
        (("Compute it.", "Compute <b>it</b>."), "key 'question', line 3: 'question' must be plain Markdown"),
        (("Compute it.", 'Compute it.{: onclick=\\"x\\" }'), "must be plain Markdown"),
        (("Compute it.", '--8<-- \\".git/config\\"'), "must be plain Markdown"),
        (("decimals = 3", "decimals = 9"), "key 'decimals', line 6: a whole number from 0 to 6"),
        (('example = "bank_of_river"', 'example = "sea"'), "'example' is 'sea', not a worked example"),
        (('id = "one"', 'id = "One two"'), "key 'id', line 2: lower-case letters"),
        (('hints = ["A hint."]', "hints = []"), "key 'hints', line 7: a list of 1 to 4 hints"),
        (
            (
                'hints = ["A hint."]',
                'hints = ["A hint."]\nmistakes = [{answer = "weights[bank, river]", message = "No."}]',
            ),
            "shows as the right answer",
        ),
    ],
)
def test_a_bad_spec_is_refused(tmp_path, monkeypatch, change, message):
    (tmp_path / "real-numbers.toml").write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(exr.ExerciseSpecError) as info:
        exr.load_file(tmp_path / "real-numbers.toml")
    assert str(info.value).startswith(str(tmp_path / "real-numbers.toml"))
    assert message in str(info.value)


def test_a_spec_for_a_page_that_does_not_exist_is_refused(tmp_path):
    (tmp_path / "no-such-page.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(exr.ExerciseSpecError, match="there is no page docs/no-such-page.md"):
        exr.load_file(tmp_path / "no-such-page.toml")


def test_a_good_spec_loads():
    path = exr.SPEC_DIR / "real-numbers.toml"
    assert [e.id for e in exr.load_file(path)][:2] == ["dot-bank-river", "share-bank-bank"]
