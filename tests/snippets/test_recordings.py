"""Layer 2: every snippet runs on its own, imports only its library, and prints exactly its recorded
output, with nothing on stderr. The tests of one page (tests/snippets/test_<page>.py) keep only what
is particular to that page: that the snippet's numbers are the reference's."""

from __future__ import annotations

import ast
import re

import pytest

from publish import ROOT, SNIPPETS
from publish.generate import snippets as sn
from selfattn_ref import examples

from pages import PAGES

ALL = sn.all_snippets()


def rel(p):
    return str(p.relative_to(ROOT))


@pytest.fixture(scope="session")
def results(request):
    """Every snippet this session's tests ask for, run once, as in fresh interpreters, side by side
    (sn.run_many: one fork server for each set of blocked modules)."""
    params = (getattr(getattr(item, "callspec", None), "params", {}) for item in request.session.items)
    wanted = {p["path"] for p in params if p.get("path") in ALL}
    return {r.path: r for r in sn.run_many(sorted(wanted) or ALL)}


def test_there_are_snippets_in_numpy_and_torch():
    assert any(p.stem.endswith("_numpy") for p in ALL) and any(p.stem.endswith("_torch") for p in ALL), ALL


# Snippets that import more than their own library, and why.
EXTRA_IMPORTS = {
    "snippets/learned_weights/learned_weights_torch.py": (
        {"numpy"},
        "draws the same seeded weights as the NumPy tab, with numpy.random.default_rng(42)",
    ),
    "snippets/transformer_block/block_torch.py": (
        {"numpy"},
        "draws the feed-forward network's seeded weights as the NumPy tab does, with numpy.random.default_rng(42)",
    ),
    "snippets/learning/gradient_torch.py": (
        {"numpy"},
        "draws the stand-in weights of the page on learned weights, with numpy.random.default_rng(42)",
    ),
}
# The language model's scripts read its trained weights from the repository's file (Python's own
# json, base64 and pathlib; snippets.data_files): a reader runs them in a clone, as the pages say.
EXTRA_IMPORTS |= {
    f"snippets/{name}.py": (
        {"base64", "json", "pathlib"},
        "reads the trained weights, selfattn_ref/language_model.json",
    )
    for page, scripts in {"next_word": ("next_word",), "trained_model": ("heads",)}.items()
    for script in scripts
    for name in (f"{page}/{script}_numpy", f"{page}/{script}_torch")
}
# A worked example with seeded random projections: its PyTorch script draws them as the spec says.
EXTRA_IMPORTS |= {
    f"snippets/examples/{ex.slug}_torch.py": ({"numpy"}, "draws the seeded weights with numpy.random.default_rng")
    for ex in examples.load_all()
    if ex.projections == "random"
}
# Snippets that print "nan" on purpose, and why.
PRINTS_NAN = {
    "snippets/mistakes/overflow_numpy.py": "shows the NaN that a softmax without the max subtraction gives",
    "snippets/mistakes/overflow_torch.py": "shows the NaN that a softmax without the max subtraction gives",
    "snippets/mistakes/padding_axis_numpy.py": "shows the NaN of a padding mask that hides the pad's whole row",
    "snippets/mistakes/padding_axis_torch.py": "shows the NaN of a padding mask that hides the pad's whole row",
    "snippets/mistakes/inverted_padding_numpy.py": "shows the NaN of a sentence whose every key is left out",
    "snippets/mistakes/inverted_padding_torch.py": "shows the NaN of a sentence whose every key is left out",
}


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_snippet_prints_its_recorded_output(path, results):
    r = results[path]
    assert r.returncode == 0, f"{rel(path)} failed when run on its own:\n{r.stderr}"
    assert r.stderr == "", f"{rel(path)}: a reader would see this on the terminal too:\n{r.stderr}"
    assert r.recording.is_file(), f"{rel(path)} has no recorded output; run `make update`"
    problem = sn.describe_difference(r)
    assert r.recording.read_text(encoding="utf-8") == r.stdout, f"{problem}\nIf the code is right, run `make update`."
    assert not re.search(r"-0\.0+\b(?!\d)", r.stdout), f"{rel(path)} prints a negative zero"
    if rel(path) not in PRINTS_NAN:
        assert not re.search(r"\bnan\b", r.stdout, re.I), f"{rel(path)} prints nan"


# The NumPy and PyTorch tabs of a script show one output: switching tabs changes the code, not the
# numbers. The twins whose outputs differ, and how: the PyTorch tab's last line (a check against
# PyTorch's own function, which NumPy has not), or other numbers altogether, and why.
TWINS_DIFFER = {
    "snippets/masking/causal": "same as F.scaled_dot_product_attention(..., is_causal=True): True\n",
    "snippets/multi_head/two_heads": "same as torch.nn.MultiheadAttention: True\n",
    "snippets/transformer_block/block": "same as torch.nn.TransformerEncoderLayer: True\n",
    "snippets/next_word/next_word": "\nsame as torch.nn.TransformerEncoderLayer, norm_first=True, causal: True\n",
    "snippets/batched_heads/causal_self_attention": (
        "same as F.scaled_dot_product_attention: True\nsame as torch.nn.MultiheadAttention: True\n"
    ),
    "snippets/cross_attention/encoder_decoder": (
        "same as F.scaled_dot_product_attention: True\nsame as torch.nn.MultiheadAttention: True\n"
    ),
    "snippets/kv_cache/kv_cache": "same as F.scaled_dot_product_attention(is_causal=True): True\n",
    "snippets/kv_cache/grouped_query": "same as F.scaled_dot_product_attention(enable_gqa=True): True\n",
    "snippets/kv_cache/sliding_window": "same as F.scaled_dot_product_attention: True\n",
    "snippets/online_softmax/online_softmax": "same as F.scaled_dot_product_attention: True\n",
    "snippets/rotary/rope": "same as the paper's complex form: True\n",
    # the page says the tabs differ because the generators do (docs/scaling.md)
    "snippets/scaling/variance": None,
    "snippets/scaling/largest_weight": None,
}
TWINS = [p for p in ALL if p.stem.endswith("_numpy") and p.with_name(p.stem[: -len("_numpy")] + "_torch.py").is_file()]


def twin_name(numpy_path) -> str:
    return rel(numpy_path)[: -len("_numpy.py")]


@pytest.mark.parametrize("numpy_path", TWINS, ids=rel)
def test_numpy_and_torch_print_the_same(numpy_path):
    """The recordings of a NumPy script and its PyTorch twin are the same text, but for what
    TWINS_DIFFER says: a last line the PyTorch tab adds, or (None) numbers that differ."""
    torch_path = numpy_path.with_name(numpy_path.stem[: -len("_numpy")] + "_torch.py")
    numpy_out, torch_out = (p.with_suffix(".out").read_text(encoding="utf-8") for p in (numpy_path, torch_path))
    name = twin_name(numpy_path)
    if name not in TWINS_DIFFER:
        assert torch_out == numpy_out, f"{name}: the NumPy and PyTorch tabs print different outputs"
    elif (added := TWINS_DIFFER[name]) is not None:
        assert torch_out == numpy_out + added, f"{name}: the PyTorch tab prints the NumPy tab's lines and {added!r}"
    else:
        assert torch_out != numpy_out, f"{name}: TWINS_DIFFER says the two tabs print different numbers"


def test_the_twins_that_differ_are_twins():
    assert set(TWINS_DIFFER) <= {twin_name(p) for p in TWINS}


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_snippet_imports_only_its_library(path):
    """A reader's copy needs only the library its tab names (and never selfattn_ref)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    own = {"numpy"} if path.stem.endswith("_numpy") else {"torch"}
    assert imported == own | EXTRA_IMPORTS.get(rel(path), (set(), ""))[0], rel(path)


def test_the_exceptions_name_real_snippets():
    assert {*EXTRA_IMPORTS, *PRINTS_NAN} <= {rel(p) for p in ALL}


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_snippet_has_a_pair_and_a_content_test(path):
    """NumPy and PyTorch versions go together, and a test in tests/snippets/ holds the
    snippet's results equal to selfattn_ref's."""
    stem = path.stem
    twin = {"_numpy": "_torch", "_torch": "_numpy"}
    suffix = next((s for s in twin if stem.endswith(s)), None)
    assert suffix, f"{rel(path)}: a snippet's name ends in _numpy or _torch"
    source = path.read_text(encoding="utf-8")
    single = re.search(r"^# no-twin: (\S.*)$", source, re.M)  # e.g. training a model: PyTorch only
    assert single or path.with_name(stem[: -len(suffix)] + twin[suffix] + ".py").is_file(), (
        f"{rel(path)} has no {twin[suffix]} twin (or a '# no-twin: <reason>' line)"
    )
    if path.parent == SNIPPETS / "examples":  # generated from a spec: tests/snippets/test_examples.py covers each
        assert stem[: -len(suffix)] in examples.available(), f"{rel(path)} has no spec; run `make update`"
        return
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "snippets").glob("test_*.py"))
    assert path.name in tests, f"no test in tests/snippets/ names {path.name}"


def test_every_recording_has_its_snippet():
    orphans = [rel(p) for p in SNIPPETS.rglob("*.out") if not p.with_suffix(".py").is_file()]
    assert not orphans, orphans


def test_every_snippet_is_shown_on_a_page():
    included = set()
    for page in PAGES:
        included |= set(re.findall(r'--8<--\s+"(snippets/[^":]+)', page.read_text(encoding="utf-8")))
    unused = [rel(p) for p in ALL if rel(p) not in included]
    assert not unused, f"snippets no page shows: {unused}"


def test_numpy_snippets_cannot_import_torch_or_the_package(tmp_path):
    """The runner blocks what a reader's copy would not have: prove that it does."""
    probe = tmp_path / "probe_numpy.py"
    probe.write_text("import torch\n", encoding="utf-8")
    r = sn.run(probe)
    assert r.returncode != 0 and ("ModuleNotFoundError" in r.stderr or "ImportError" in r.stderr), r.stderr
    probe = tmp_path / "probe_torch.py"
    probe.write_text("import selfattn_ref\n", encoding="utf-8")
    r = sn.run(probe)
    assert r.returncode != 0 and "selfattn_ref" in r.stderr, r.stderr


@pytest.mark.parametrize("path", [p for p in ALL if p.with_suffix(".out").is_file()], ids=rel)
def test_a_changed_digit_in_a_recording_is_reported(path, results):
    """One digit apart between a recorded output and what the code prints: the comparison fails
    and names the file, the line, what is recorded and what the code prints. (The digit is
    changed in the output, not in the file: the recordings on disk are never touched, as copies
    of the repository and the site's build, which other workers make meanwhile, read them.)"""
    r = results[path]
    text = r.recording.read_text(encoding="utf-8")
    m = re.search(r"\d", text)
    assert m, f"{rel(r.recording)} prints no number"
    line = text.count("\n", 0, m.start()) + 1
    changed = text[: m.start()] + str((int(m.group()) + 1) % 10) + text[m.end() :]
    fake = sn.Result(r.path, changed, r.stderr, r.returncode)
    message = sn.describe_difference(fake)
    assert f"{rel(r.recording)}, line {line}: recorded" in message and "the code prints" in message, message
