"""Layer 3: every Python block of every page, as the reader sees it, runs and prints the
output shown under it.

pytest-codeblocks reads raw Markdown and does not expand ``--8<--`` includes, so the
blocks are found with its extractor and each block's includes are expanded the way the
site build expands them (pymdownx.snippets). A math section and an excerpt of the package run
here; a whole script is run once, by tests/snippets/test_recordings.py (in a fresh interpreter,
what it prints held equal to its recording), and here the page is held to showing that script and,
under it, that recording.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import re
from pathlib import Path

import markdown
import pytest
from pymdownx.snippets import SnippetMissingError
from pytest_codeblocks.main import extract_from_buffer

from publish import ROOT
from publish.generate.snippets import EXCERPT_CLASS, EXCERPT_TITLE, SCRIPT_SECTION, fence_info, shown_whole
from publish.source.includes import include, split_target

from pages import PAGES, expand, page_id


def blocks():
    out = []
    for page in PAGES:
        found = extract_from_buffer(io.StringIO(page.read_text(encoding="utf-8")))
        for b in found:
            lang, _, _ = fence_info(b.syntax or "")  # ```python ... or ```{ .python ... }
            if lang in ("python", "py"):
                out.append(pytest.param(page, b, id=f"{page_id(page)}:{b.lineno}"))
    return out


BLOCKS = blocks()


@contextlib.contextmanager
def _torch_state_restored():
    """A block may set torch's global state (threads, determinism, the seed); undo it so
    that blocks and the tests after them do not depend on the order they run in."""
    import torch

    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    rng = torch.random.get_rng_state()
    try:
        yield
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
        torch.random.set_rng_state(rng)


def test_pages_have_python_blocks():
    assert len(BLOCKS) >= 8, len(BLOCKS)


@pytest.mark.parametrize(("page", "block"), BLOCKS)
def test_block_runs_and_prints_what_the_page_shows(page, block):
    lines = [ln for ln in block.code.splitlines() if ln.strip()]
    includes = [include(ln) for ln in lines]
    assert lines and all(includes), (
        f"{page_id(page)}:{block.lineno}: a code block must be an include of a tested file "
        f'(--8<-- "snippets/..."), not code typed into the page:\n{block.code}'
    )
    target = includes[0][1]
    code = expand(block.code)
    _, classes, title = fence_info(block.syntax or "")
    excerpt = EXCERPT_CLASS in classes and (title or "").endswith(EXCERPT_TITLE)
    if target.startswith("selfattn_ref/"):
        # Code of the package is an excerpt, not a script: it says so and offers no copy button.
        assert excerpt, (
            f"{page_id(page)}:{block.lineno}: {target} is an excerpt of the package, which does not run on its own: "
            f'show it as ```{{ .python .{EXCERPT_CLASS} title="{target.split(":")[0]}{EXCERPT_TITLE}" }}'
        )
        # Where it lives, it runs: define it in its module, as the package does.
        module = importlib.import_module(Path(target.split(":")[0]).with_suffix("").as_posix().replace("/", "."))
        namespace = dict(vars(module))
    else:
        # What a page offers to copy and run runs as shown: in a fresh namespace, on its own.
        assert not excerpt and EXCERPT_CLASS not in classes, (
            f"{page_id(page)}:{block.lineno}: {target} is a script: offer it to copy, as a script"
        )
        path, _, section = target.partition(":")
        if section in ("", SCRIPT_SECTION):
            # The whole script: the file that test_recordings.py runs (the same statements: a
            # section drops only the build's comment lines above it), and its recording under it.
            assert len(includes) == 1, f"{page_id(page)}:{block.lineno}: a whole script is one include"
            file = ROOT / path
            assert ast.dump(ast.parse(code)) == ast.dump(ast.parse(file.read_text(encoding="utf-8"))), (
                f"{page_id(page)}:{block.lineno}: {target} is not the program {path} is"
            )
            recording = file.with_suffix(".out")
            printed = recording.read_text(encoding="utf-8") if recording.is_file() else ""
            shown = "" if block.expected_output is None else expand(block.expected_output)
            assert shown.rstrip("\n") == printed.rstrip("\n"), (
                f"{page_id(page)}:{block.lineno}: the output shown under the block is not what {path} prints "
                f"({recording.relative_to(ROOT)}; without one, the script must print nothing)"
            )
            return
        namespace = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), _torch_state_restored():
        exec(compile(code, f"{page_id(page)}:{block.lineno}", "exec"), namespace)
    if block.expected_output is not None:
        expected = expand(block.expected_output)
        assert out.getvalue().rstrip("\n") == expected.rstrip("\n"), (
            f"{page_id(page)}:{block.lineno}: the output shown under the block is not what it prints"
        )
    else:
        assert target.startswith("selfattn_ref/") or not out.getvalue(), (
            f"{page_id(page)}:{block.lineno}: the block prints output but the page shows none "
            "(add <!--pytest-codeblocks:expected-output--> and the .out include under it)"
        )


# --- the math first ------------------------------------------------------------------------------
# A script that prints its results is shown math first: a block with its "math" section (the lines
# between "# --8<-- [start:math]" and "# --8<-- [end:math]", which run on their own and print
# nothing), then the whole script folded under it, then its output:
#
#     ```python title="NAME.py: the math"
#     --8<-- "snippets/.../NAME.py:math"
#     ```
#
#     ??? example "The whole script, with the printing"
#
#         ```python title="NAME.py"
#         --8<-- "snippets/.../NAME.py"
#         ```
#
# The copy button of either block copies a script that runs as shown (the tests above run both). A
# script whose first lines are for the build (a banner, "# no-twin: ...") is shown whole as its
# "script" section, "NAME.py:script", which starts after them (publish.generate.snippets.shown_whole).

FOLD = '??? example "The whole script, with the printing"'

# Scripts that a page shows whole, not math first, and why.
SHOWN_WHOLE = {
    "snippets/positional_encoding/train_torch.py": (
        "a training run, not a calculation: the data, the model, the training loop and the evaluation "
        "are all the point, there is no short part of it that is 'the math' and runs on its own, and "
        "its printing is only the last lines, the table of results"
    ),
    "snippets/attention_that_learns/train_torch.py": (
        "a training run, as the word-order one: the data, the model, the loop and the snapshots it "
        "prints are one piece, with no short part that is 'the math' and runs on its own"
    ),
}

_SNIPPET_BLOCK = re.compile(
    r'^(?P<pad>[ ]*)```python title="(?P<title>[^"]*)"\n'
    r'(?P=pad)--8<-- "(?P<path>snippets/[^":]+\.py)(?::(?P<section>[^"]*))?"\n'
    r"(?P=pad)```[ ]*$",
    re.M,
)
_PRINTS = re.compile(r"\bprint\(")


def math_first_problems(text: str, page: str, shown_whole: dict[str, str] = SHOWN_WHOLE) -> list[str]:
    """Every snippet block of the page ``text`` that is not shown math first (see above), as
    "page:line: what is wrong"."""
    problems = []
    lines = text.split("\n")
    blocks = list(_SNIPPET_BLOCK.finditer(text))

    def where(m: re.Match) -> str:
        return f"{page}:{text.count(chr(10), 0, m.start()) + 1}"

    def line_before(m: re.Match) -> str:
        i = text.count("\n", 0, m.start()) - 1
        while i >= 0 and not lines[i].strip():
            i -= 1
        return lines[i] if i >= 0 else ""

    for k, m in enumerate(blocks):
        path, section, pad, name = m["path"], m["section"], m["pad"], m["path"].rsplit("/", 1)[-1]
        if section not in (None, SCRIPT_SECTION):
            if section != "math":
                problems.append(f"{where(m)}: {path}:{section}: the section a page shows is 'math'")
                continue
            if m["title"] != f"{name}: the math":
                problems.append(f'{where(m)}: the block of {path}:math is titled "{name}: the math"')
            after = blocks[k + 1] if k + 1 < len(blocks) else None
            if not (
                after
                and after["path"] == path
                and after["section"] in (None, SCRIPT_SECTION)
                and after["pad"] == pad + "    "
                and line_before(after) == pad + FOLD
            ):
                problems.append(f"{where(m)}: {path}:math is not followed by the whole script, folded under {FOLD!r}")
            continue
        if path in shown_whole:
            continue
        before = blocks[k - 1] if k else None
        if not (
            before
            and before["path"] == path
            and before["section"] == "math"
            and line_before(m) == pad[:-4] + FOLD
            and before["pad"] == pad[:-4]
        ):
            problems.append(
                f"{where(m)}: {path} is shown whole: show its math section first and fold the whole "
                f"script under {FOLD!r}, or say in SHOWN_WHOLE why not"
            )
    in_blocks = {text.count("\n", 0, m.start()) + 1 for m in blocks}  # the include is a block's line 2
    for i, line in enumerate(lines):
        inc = include(line)
        if inc and inc[1].startswith("snippets/") and split_target(inc[1])[0].endswith(".py") and i not in in_blocks:
            problems.append(
                f"{page}:{i + 1}: {line.strip()} is not in a block of its own titled with its name "
                f'(```python title="NAME.py"), so this check cannot see how it is shown'
            )
    return problems


def math_section_problems(path: str, base: Path = ROOT) -> list[str]:
    """What is wrong with the math section of the snippet ``path`` (under ``base``): missing,
    printing, or the whole script, so that nothing is left to fold."""
    code = (base / path).read_text(encoding="utf-8")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(base)], "check_paths": True}},
    )
    try:
        section = "\n".join(md.preprocessors["snippet"].run([f'--8<-- "{path}:math"']))  # as the site shows it
    except SnippetMissingError:
        section = ""
    if not section.strip():
        return [f"{path}: no '# --8<-- [start:math]' ... '# --8<-- [end:math]' section"]
    problems = []
    if _PRINTS.search(section):
        problems.append(f"{path}: its math section prints: the printing goes after '# --8<-- [end:math]'")
    if not _PRINTS.search(code.split("# --8<-- [end:math]", 1)[-1]):
        problems.append(f"{path}: nothing prints after its math section: show the whole script instead")
    return problems


def _shown_snippets() -> dict[str, list[str]]:
    """Snippet path -> the sections the pages show of it ("" for the whole script)."""
    shown: dict[str, list[str]] = {}
    for page in PAGES:
        for m in _SNIPPET_BLOCK.finditer(page.read_text(encoding="utf-8")):
            shown.setdefault(m["path"], []).append("" if m["section"] in (None, SCRIPT_SECTION) else m["section"])
    return shown


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_snippets_are_shown_math_first(page):
    problems = math_first_problems(page.read_text(encoding="utf-8"), page_id(page))
    assert not problems, "\n".join(problems)


def test_every_math_section_shown_prints_nothing_and_leaves_the_printing_to_the_fold():
    """(That each math section runs on its own as the page shows it is
    test_block_runs_and_prints_what_the_page_shows.)"""
    shown = [path for path, sections in _shown_snippets().items() if "math" in sections]
    assert len(shown) >= 60, len(shown)
    problems = [p for path in sorted(shown) for p in math_section_problems(path)]
    assert not problems, "\n".join(problems)


def test_every_snippet_file_shown_on_a_page_is_math_first_or_says_why_not():
    shown = _shown_snippets()
    twins = {p for p in shown if p.endswith(("_numpy.py", "_torch.py"))}
    assert len(twins) >= 60, len(twins)
    for path, sections in shown.items():
        if path in SHOWN_WHOLE:
            assert sections == [""], f"{path} is in SHOWN_WHOLE but a page shows its sections {sections}"
            assert len(SHOWN_WHOLE[path].split()) >= 8, f"{path}: SHOWN_WHOLE gives no reason"
        else:
            assert sorted(sections) == ["", "math"], f"{path}: shown as {sections}, not math first"
    # the NumPy and PyTorch twins are shown the same way
    for path in twins:
        twin = (
            path.replace("_numpy.py", "_torch.py")
            if path.endswith("_numpy.py")
            else path.replace("_torch.py", "_numpy.py")
        )
        if twin in shown:
            assert sorted(shown[path]) == sorted(shown[twin]), (path, twin)
    assert set(SHOWN_WHOLE) <= set(shown), f"SHOWN_WHOLE names a script no page shows: {set(SHOWN_WHOLE) - set(shown)}"


# Names that only one library's math section defines, and why.
LIBRARY_IDIOMS = {
    "softmax()": "NumPy has no softmax: its scripts define one, PyTorch's call torch.softmax",
    "rng": "NumPy's seeded generator (PyTorch's is g)",
    "g": "PyTorch's seeded generator (NumPy's is rng)",
    "f64": "PyTorch's scripts name torch.float64 once",
}
# Names that only one library's math section of one pair of scripts defines, and why: where the page
# shows PyTorch's own class on purpose, which NumPy has no twin of.
SCRIPT_IDIOMS = {
    "causal_self_attention": (
        {"causal_self_attention()", "CausalSelfAttention()", "layer"},
        "docs/batched-heads.md: NumPy's layer is a function; PyTorch's a torch.nn.Module with the causal mask as a "
        "buffer, as nanoGPT writes it, and its instance",
    ),
    "inverted_padding": (
        {"S", "_", "mha"},
        "docs/mistakes-at-scale.md: PyTorch's script calls torch.nn.MultiheadAttention (its output unused); NumPy "
        "has none, and its script masks the scores S by hand",
    ),
}


def _math_names(code: str) -> set[str]:
    """The names a math section assigns at its top level, and the functions it defines (as "name()")."""
    tree = ast.parse(code.split(_MATH_START + "\n", 1)[1].split(_MATH_END, 1)[0])
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(f"{node.name}()")
        elif not isinstance(node, (ast.Import, ast.ImportFrom, ast.Expr)):
            names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names


_MATH_START, _MATH_END = "# --8<-- [start:math]", "# --8<-- [end:math]"


def test_the_twins_math_sections_compute_the_same_names():
    """A NumPy script's math and its PyTorch twin's run in parallel: the same steps, named alike."""
    pairs = [
        (p, p.with_name(p.name.replace("_numpy.py", "_torch.py")))
        for p in sorted((ROOT / "snippets").rglob("*_numpy.py"))
        if _MATH_START in p.read_text(encoding="utf-8")
    ]
    assert len(pairs) >= 30, len(pairs)
    for numpy_path, torch_path in pairs:
        a = _math_names(numpy_path.read_text(encoding="utf-8"))
        b = _math_names(torch_path.read_text(encoding="utf-8"))
        own = SCRIPT_IDIOMS.get(numpy_path.stem.removesuffix("_numpy"), (set(), ""))[0]
        differ = (a ^ b) - set(LIBRARY_IDIOMS) - own
        assert not differ, f"{numpy_path.name} and {torch_path.name}: only one math section defines {sorted(differ)}"
        assert len(a & b) >= 3, (numpy_path.name, a & b)


_PLANTED_GOOD = """\
=== "NumPy"

    ```python title="x_numpy.py: the math"
    --8<-- "snippets/x/x_numpy.py:math"
    ```

    ??? example "The whole script, with the printing"

        ```python title="x_numpy.py"
        --8<-- "snippets/x/x_numpy.py"
        ```
"""


@pytest.mark.parametrize(
    ("planted", "expected"),
    [
        (_PLANTED_GOOD, []),
        (  # the whole script, not folded and no math first
            '```python title="x_numpy.py"\n--8<-- "snippets/x/x_numpy.py"\n```\n',
            ["page.md:1: snippets/x/x_numpy.py is shown whole"],
        ),
        (  # the fold open (???+), so the printing is not folded away
            _PLANTED_GOOD.replace("??? example", "???+ example"),
            [
                "page.md:3: snippets/x/x_numpy.py:math is not followed",
                "page.md:9: snippets/x/x_numpy.py is shown whole",
            ],
        ),
        (  # the math without the whole script under it
            _PLANTED_GOOD.split("    ??? example")[0],
            ["page.md:3: snippets/x/x_numpy.py:math is not followed"],
        ),
        (  # another file's script folded under the math
            _PLANTED_GOOD.replace('x_numpy.py"\n        ```', 'y_numpy.py"\n        ```'),
            [
                "page.md:3: snippets/x/x_numpy.py:math is not followed",
                "page.md:9: snippets/x/y_numpy.py is shown whole",
            ],
        ),
        (  # the math block's title
            _PLANTED_GOOD.replace("x_numpy.py: the math", "x_numpy.py"),
            ['page.md:3: the block of snippets/x/x_numpy.py:math is titled "x_numpy.py: the math"'],
        ),
        (  # another section
            _PLANTED_GOOD.replace(":math", ":setup"),
            [
                "page.md:3: snippets/x/x_numpy.py:setup: the section a page shows is 'math'",
                "page.md:9: snippets/x/x_numpy.py is shown whole",
            ],
        ),
        (  # a block the check cannot read: no title
            '```python\n--8<-- "snippets/x/x_numpy.py"\n```\n',
            ['page.md:2: --8<-- "snippets/x/x_numpy.py" is not in a block of its own'],
        ),
    ],
    ids=["good", "whole", "open-fold", "no-fold", "other-file", "title", "other-section", "untitled"],
)
def test_the_math_first_check_catches_a_planted_page(planted, expected):
    problems = math_first_problems(planted, "page.md", shown_whole={})
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(start), (problem, start)
    # a script said to be shown whole is let through, and only that one
    assert not math_first_problems(
        '```python title="x_numpy.py"\n--8<-- "snippets/x/x_numpy.py"\n```\n',
        "page.md",
        shown_whole={"snippets/x/x_numpy.py": "why"},
    )


def test_the_math_section_check_catches_a_planted_script(tmp_path):
    good = "# --8<-- [start:math]\nimport math\nx = math.sqrt(4)\n# --8<-- [end:math]\nprint(x)\n"
    planted = {
        "good.py": good,
        "prints.py": good.replace("x = math.sqrt(4)\n", "x = math.sqrt(4)\nprint(x)\n"),
        "all_math.py": good.replace("# --8<-- [end:math]\nprint(x)\n", "print(x)\n# --8<-- [end:math]\n"),
        "no_section.py": "import math\nprint(math.sqrt(4))\n",
    }
    for name, code in planted.items():
        (tmp_path / name).write_text(code, encoding="utf-8")
    assert math_section_problems("good.py", tmp_path) == []
    assert [p.split(": ", 1)[1] for p in math_section_problems("prints.py", tmp_path)] == [
        "its math section prints: the printing goes after '# --8<-- [end:math]'"
    ]
    assert [p.split(": ", 1)[1] for p in math_section_problems("all_math.py", tmp_path)] == [
        "its math section prints: the printing goes after '# --8<-- [end:math]'",
        "nothing prints after its math section: show the whole script instead",
    ]
    assert math_section_problems("no_section.py", tmp_path) == [
        "no_section.py: no '# --8<-- [start:math]' ... '# --8<-- [end:math]' section"
    ]


# --- softmax in the safe form --------------------------------------------------------------------
# Every script a reader copies computes softmax as the site recommends (real-numbers, "Softmax in
# code"): each row's largest score subtracted before exp, or a library's softmax (torch.softmax).
# The one exception is the mistakes lab, which shows the unshifted line as the bug it is.
MISTAKES_LAB = {
    "docs/mistakes.md": "the common-mistakes page shows the unshifted softmax as the bug (e^900 = inf)",
    "docs/notebooks/mistakes.ipynb": "that page as a notebook",
}

_EXP, _SUM, _MAX = {"exp"}, {"sum", "nansum"}, {"max", "amax", "nanmax", "logsumexp"}
_DIVIDE = {"divide", "true_divide", "div"}


def _called(node) -> str | None:
    """The name a call calls (``np.exp(x)``, ``x.exp()``, ``exp(x)``: "exp"), or None."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


class _Softmaxes:
    """Unshifted exp-over-sum in a piece of code: a division whose numerator is e^x and whose
    denominator sums e^x, where x is not shifted by a maximum (``x - x.max(...)``). Names are
    followed to what is assigned to them anywhere in the code (``e = np.exp(S); e / e.sum()``)."""

    def __init__(self, code: str):
        self.tree = ast.parse(code)
        self.values: dict[str, list[ast.AST]] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                self._bind(node.target, node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                same = ast.Name(node.target.id, ast.Load())
                self._bind(node.target, ast.BinOp(same, node.op, node.value))

    def _bind(self, target, value) -> None:
        if isinstance(target, ast.Name):
            self.values.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value] * len(target.elts)
            for t, v in zip(target.elts, parts, strict=False):
                self._bind(t, v)

    def _exp_argument(self, node):
        if _called(node) not in _EXP:
            return None
        if node.args:
            return node.args[0]
        return node.func.value if isinstance(node.func, ast.Attribute) else None  # x.exp()

    def _reaches(self, node, test, seen: frozenset = frozenset()) -> bool:
        """Whether ``test`` holds for a node of ``node``, or of what its names are assigned."""
        for n in ast.walk(node):
            if test(n, seen):
                return True
            if isinstance(n, ast.Name) and n.id not in seen:
                if any(self._reaches(v, test, seen | {n.id}) for v in self.values.get(n.id, ())):
                    return True
        return False

    def _shifted(self, x, seen) -> bool:
        if isinstance(x, ast.Name) and x.id not in seen:
            return any(self._shifted(v, seen | {x.id}) for v in self.values.get(x.id, ()))
        return (
            isinstance(x, ast.BinOp)
            and isinstance(x.op, ast.Sub)
            and self._reaches(x.right, lambda n, _: _called(n) in _MAX, seen)
        )

    def _unshifted_exp(self, node, seen=frozenset()) -> bool:
        x = self._exp_argument(node)
        return x is not None and not self._shifted(x, seen)

    def _exp_over_sum(self, top, bottom) -> bool:
        return (
            self._reaches(top, self._unshifted_exp)
            and self._reaches(bottom, self._unshifted_exp)
            and self._reaches(bottom, lambda n, _: _called(n) in _SUM)
        )

    def lines(self) -> list[tuple[int, str]]:
        found = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                parts = (node.left, node.right)
            elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
                parts = (node.target, node.value)
            elif _called(node) in _DIVIDE and len(node.args) == 2:
                parts = tuple(node.args)
            else:
                continue
            if isinstance(parts[0], ast.Name) and isinstance(node, ast.AugAssign):
                parts = (ast.Name(parts[0].id, ast.Load()), parts[1])
            if self._exp_over_sum(*parts):
                found.append((node.lineno, ast.unparse(node)))
        return found


def unshifted_softmaxes(code: str) -> list[tuple[int, str]]:
    """(line, code) of each softmax in ``code`` that takes exp of scores without subtracting a maximum."""
    return _Softmaxes(code).lines()


def _shown_code() -> list[tuple[str, str]]:
    """(where, code) of every Python block the pages show, as the reader sees it, and of every
    notebook's code cell."""
    import json

    out = [(f"{page_id(p.values[0])}:{p.values[1].lineno}", expand(p.values[1].code)) for p in BLOCKS]
    for nb in sorted((ROOT / "docs" / "notebooks").rglob("*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                out.append((f"{nb.relative_to(ROOT)}, cell {cell['id']}", "".join(cell["source"])))
    return out


def test_every_script_shown_outside_the_mistakes_lab_shifts_its_softmax():
    shown = _shown_code()
    assert len(shown) >= 150, len(shown)
    problems = [
        f"{where}, line {line}: {code}"
        for where, source in shown
        if where.split(":")[0].split(",")[0] not in MISTAKES_LAB
        for line, code in unshifted_softmaxes(source)
    ]
    assert not problems, (
        "softmax without the row's largest score subtracted first (write np.exp(S - S.max(axis=-1, "
        "keepdims=True)) before dividing by the sum, or call torch.softmax):\n" + "\n".join(problems)
    )
    # and the check sees the bug where the mistakes lab shows it
    lab = [where for where, source in shown if where.startswith("docs/mistakes.md") and unshifted_softmaxes(source)]
    assert len(lab) >= 2, lab


@pytest.mark.parametrize(
    "code",
    [
        "A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)",
        "A = np.exp(x) / np.sum(np.exp(x), axis=-1, keepdims=True)",
        "A = torch.exp(S) / torch.exp(S).sum(dim=1, keepdim=True)",
        "A = torch.exp(S) / torch.sum(torch.exp(S), 1, keepdim=True)",
        "e = np.exp(S)\nA = e / e.sum(axis=1, keepdims=True)",
        "e = np.exp(S)\ne /= e.sum(axis=1, keepdims=True)",
        "e = np.exp(S)\nZ = e.sum(-1)[:, None]\nA = e / Z",
        "A = S.exp() / S.exp().sum(-1, keepdim=True)",
        "A = np.divide(np.exp(S), np.exp(S).sum(axis=1, keepdims=True))",
        "A = [math.exp(s) / sum(math.exp(t) for t in row) for s in row]",
        "def f(S):\n    E = np.exp(S / 2)\n    return E / E.sum(axis=1, keepdims=True)",
        "m = S.min(axis=1, keepdims=True)\ne = np.exp(S - m)\nA = e / e.sum()",  # shifted by the minimum
    ],
)
def test_the_softmax_check_catches_an_unshifted_form(code):
    assert len(unshifted_softmaxes(code)) == 1, code


@pytest.mark.parametrize(
    "code",
    [
        "e = np.exp(S - S.max(axis=1, keepdims=True))\nA = e / e.sum(axis=1, keepdims=True)",
        "A = np.exp(S - S.max(axis=1, keepdims=True))\nA = A / A.sum(axis=1, keepdims=True)",
        "e = torch.exp(S - S.amax(dim=-1, keepdim=True))\ne /= e.sum(dim=-1, keepdim=True)",
        "m = S.max(axis=1, keepdims=True)\nz = S - m\ne = np.exp(z)\nA = e / e.sum(axis=1, keepdims=True)",
        "A = (S - S.max()).exp() / (S - S.max()).exp().sum()",
        "e = np.exp(e - e.max())\nw = e / e.sum()",
        "A = torch.softmax(S, dim=1)",
        "scaled = Q @ K.T / np.sqrt(d_k)\nY = A @ V / 2",
    ],
)
def test_the_softmax_check_lets_the_safe_forms_through(code):
    assert unshifted_softmaxes(code) == [], code


# --- what a reader copies carries no build marker ------------------------------------------------
# Lines that are there for the build, not for the reader: a generated file's banner, the twins'
# "# no-twin: <reason>" (tests/snippets/test_recordings.py), a pymdownx.snippets marker. A file may
# keep them above its "script" section (publish.generate.snippets); no code block or notebook cell shows them.
BUILD_MARKER = re.compile(r"^\s*# no-twin:|\(make update\); do not edit\.|--8<--")


def build_markers(code: str) -> list[str]:
    """The lines of ``code`` that are there for the build."""
    return [line.strip() for line in code.split("\n") if BUILD_MARKER.search(line)]


def test_no_block_a_page_shows_has_a_line_for_the_build():
    problems = [f"{where}: {line}" for where, code in _shown_code() for line in build_markers(code)]
    assert not problems, (
        "a shown script carries lines for the build: put them above a '# --8<-- [start:script]' line "
        "and include NAME.py:script\n" + "\n".join(problems)
    )


def test_the_whole_script_is_what_pymdownx_snippets_includes():
    """publish.generate.snippets.shown_whole, which the notebooks run, is what the page shows whole: the file's
    "script" section where it has one, else the file, without section markers, and no build line."""
    with_section = 0
    for path in sorted((ROOT / "snippets").rglob("*.py")):
        code = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        section = f"# --8<-- [start:{SCRIPT_SECTION}]" in code
        with_section += section
        included = expand(f'--8<-- "{rel}{":" + SCRIPT_SECTION if section else ""}"')
        assert shown_whole(code).rstrip("\n") == included.rstrip("\n"), rel
        assert not build_markers(shown_whole(code)), f"{rel}: its whole script shows {build_markers(shown_whole(code))}"
    assert with_section >= 15, with_section  # the worked examples' scripts and the training run


def test_shown_whole_takes_the_script_section():
    code = "# banner\n# --8<-- [start:script]\n# --8<-- [start:math]\nx = 1\n# --8<-- [end:math]\nprint(x)\n"
    assert shown_whole(code + "# --8<-- [end:script]\n") == "x = 1\nprint(x)\n"
    assert shown_whole(code) == "x = 1\nprint(x)\n"  # no end: to the end of the file, as pymdownx does
    assert shown_whole("# --8<-- [start:math]\nx = 1\n# --8<-- [end:math]\nprint(x)\n") == "x = 1\nprint(x)\n"


_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.S)
_TAG = re.compile(r"<[^>]+>")


def test_no_code_block_of_the_built_site_shows_a_line_for_the_build(strict_build):
    """Every code block of every built page (notebook pages included), and every code cell of every
    notebook a reader downloads, is free of build lines: what is shown and copied is the script."""
    import html
    import json

    assert strict_build.proc.returncode == 0, strict_build.proc.stdout + strict_build.proc.stderr
    site = strict_build.dir
    problems, blocks = [], 0
    for page in sorted(site.rglob("*.html")):
        for m in _PRE.finditer(page.read_text(encoding="utf-8")):
            blocks += 1
            problems += [
                f"{page.relative_to(site)}: {line}" for line in build_markers(html.unescape(_TAG.sub("", m[1])))
            ]
    notebooks = sorted(site.rglob("*.ipynb"))
    for nb in notebooks:
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                problems += [
                    f"{nb.relative_to(site)}, cell {cell['id']}: {line}"
                    for line in build_markers("".join(cell["source"]))
                ]
    assert blocks >= 300 and len(notebooks) >= 15, (blocks, len(notebooks))
    assert not problems, "\n".join(problems)


# --- what the built site offers to run ---------------------------------------------------------------
# "Every code block a reader copies runs as shown": on the built pages, a block of Python that offers
# its copy button is the text of a script that the tests above run as shown (its math section, or the
# whole script), and a block of the package's code says it is an excerpt and offers no copy button.


def _shown_texts() -> dict[str, set[str]]:
    """A script's name -> the texts a page may show of it: the whole script and its math section."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "snippets").rglob("*.py")):
        code = path.read_text(encoding="utf-8")
        texts = {shown_whole(code).rstrip("\n")}
        if _MATH_START in code:
            section = code.split(_MATH_START + "\n", 1)[1].split(_MATH_END, 1)[0]
            texts.add(section.rstrip("\n"))
        out.setdefault(path.name, set()).update(texts)
    return out


def offered_python_problems(html: str, page: str, shown: dict[str, set[str]]) -> tuple[int, list[str]]:
    """(how many blocks of Python the built page ``html`` offers to copy, what is wrong with its blocks)."""
    from bs4 import BeautifulSoup

    offered, problems = 0, []
    for block in BeautifulSoup(html, "html.parser").select("div.highlight"):
        name = block.select_one(".filename")
        title = name.get_text() if name else ""
        file = title.split(":", 1)[0].strip()
        if not file.endswith(".py"):
            continue
        copies = block.find_parent(class_=EXCERPT_CLASS) is None and EXCERPT_CLASS not in block.get("class", [])
        if file.startswith("selfattn_ref/") or not copies:
            if copies or not title.endswith(EXCERPT_TITLE) or not file.startswith("selfattn_ref/"):
                problems.append(f"{page}: {title!r} is code of the package: title '...{EXCERPT_TITLE}', no copy")
            continue
        offered += 1
        text = block.select_one("pre code").get_text().rstrip("\n")
        if text not in shown.get(Path(file).name, set()):
            problems.append(f"{page}: the block {title!r} offers to copy code that is no tested script as shown")
    return offered, problems


def test_every_block_the_site_offers_to_run_is_a_script_the_tests_run(strict_build):
    assert strict_build.proc.returncode == 0, strict_build.proc.stdout + strict_build.proc.stderr
    shown = _shown_texts()
    offered, problems = 0, []
    for path in sorted(strict_build.dir.rglob("index.html")):
        page = path.relative_to(strict_build.dir).as_posix()
        if page.startswith("notebooks/"):
            continue  # a notebook's cells run in its kernel (tests/content/test_notebooks.py)
        count, found = offered_python_problems(path.read_text(encoding="utf-8"), page, shown)
        offered += count
        problems += found
    assert not problems, "\n".join(problems)
    assert offered >= 130, offered


def test_the_offered_block_check_catches_a_package_excerpt_with_a_copy_button():
    excerpt = (
        '<div class="highlight"><span class="filename">selfattn_ref/learning.py</span><pre><code>x</code></pre></div>'
    )
    _, problems = offered_python_problems(excerpt, "learning/index.html", {})
    assert problems and "code of the package" in problems[0], problems
    labelled = excerpt.replace('class="highlight"', f'class="{EXCERPT_CLASS} highlight"').replace(
        "learning.py<", f"learning.py{EXCERPT_TITLE}<"
    )
    assert offered_python_problems(labelled, "learning/index.html", {}) == (0, [])
    script = '<div class="highlight"><span class="filename">a_numpy.py</span><pre><code>print(2)</code></pre></div>'
    assert offered_python_problems(script, "p", {"a_numpy.py": {"print(1)"}})[1], "a block not as the script is"
    assert offered_python_problems(script, "p", {"a_numpy.py": {"print(2)"}}) == (1, [])
