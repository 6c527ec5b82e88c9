"""``python -m selfattn_ref explain``: the steps as labelled grids, and one-line errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from selfattn_ref import examples
from selfattn_ref.cli import format_number, main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def grid(out: str, title_start: str) -> dict[str, list[str]]:
    """The grid printed under the section whose title contains ``title_start``: {row label: cells}.

    The header line (column labels) is stored under the key "".
    """
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if title_start in line and line[:1].isdigit())
    rows = {"": lines[i + 1].split()}
    for line in lines[i + 2 :]:
        if not line.strip():
            break
        label, *cells = line.split()
        rows[label] = cells
    return rows


def negative_zeros(out: str) -> list[str]:
    """Every printed number that is a negative zero such as "-0.000"."""
    return [w for w in out.split() if re.fullmatch(r"-0(\.0*)?", w)]


def section_titles(out: str) -> list[str]:
    return [line.split(". ", 1)[1] for line in out.splitlines() if line[:1].isdigit() and ". " in line]


# --- named examples ---------------------------------------------------------------------


def test_explain_bank_of_river(capsys):
    code, out, err = run(capsys, "explain", "bank_of_river")
    assert code == 0 and err == ""
    assert "rounded to 3 decimals" in out
    X = grid(out, "Tokens and embeddings")
    assert X == {
        "": ["d1", "d2", "d3", "d4"],
        "bank": ["1.000", "0.000", "1.000", "0.000"],
        "of": ["0.000", "1.000", "0.000", "1.000"],
        "river": ["1.000", "1.000", "0.000", "0.000"],
    }
    assert grid(out, "Scores") == {
        "": ["bank", "of", "river"],
        "bank": ["2.000", "0.000", "1.000"],
        "of": ["0.000", "2.000", "1.000"],
        "river": ["1.000", "1.000", "2.000"],
    }
    assert grid(out, "Weights") == {
        "": ["bank", "of", "river"],
        "bank": ["0.665", "0.090", "0.245"],
        "of": ["0.090", "0.665", "0.245"],
        "river": ["0.212", "0.212", "0.576"],
    }
    assert grid(out, "Outputs") == {
        "": ["z1", "z2", "z3", "z4"],
        "bank": ["0.910", "0.335", "0.665", "0.090"],
        "of": ["0.335", "0.910", "0.090", "0.665"],
        "river": ["0.788", "0.788", "0.212", "0.212"],
    }
    titles = section_titles(out)
    assert not any(t.startswith(("Queries", "Scaled", "W_Q")) for t in titles)  # no projections, no scaling


def test_explain_the_cat_sat(capsys):
    code, out, _ = run(capsys, "explain", "the_cat_sat")
    assert code == 0
    assert [t.split()[0] for t in section_titles(out)] == [
        "Tokens", "Queries", "Keys", "Values", "Scores", "Scaled", "Weights", "Outputs",
    ]  # fmt: skip
    assert grid(out, "Scores")["sat"] == ["2.0000", "2.0000", "4.0000"]
    assert grid(out, "Scaled scores") == {
        "": ["The", "cat", "sat"],
        "The": ["1.0000", "0.0000", "1.0000"],
        "cat": ["0.0000", "1.0000", "1.0000"],
        "sat": ["1.0000", "1.0000", "2.0000"],
    }
    assert grid(out, "Weights")["The"] == ["0.4223", "0.1554", "0.4223"]
    assert grid(out, "Weights")["sat"] == ["0.2119", "0.2119", "0.5761"]
    assert grid(out, "Outputs")["sat"] == ["0.7881"] * 4


def test_explain_learned_shows_the_weight_matrices(capsys):
    code, out, _ = run(capsys, "explain", "learned")
    assert code == 0
    titles = section_titles(out)
    for name in ("W_Q", "W_K", "W_V", "Queries", "Keys", "Values", "Scaled scores"):
        assert any(t.startswith(name) for t in titles), name
    ex = examples.load("learned")
    W_Q = grid(out, "W_Q")
    assert W_Q[""] == ["q1", "q2", "q3", "q4"]
    assert W_Q["d1"] == [f"{x:.4f}" for x in ex.W_Q[0]]
    assert grid(out, "Weights") == {
        "": ["The", "cat", "sat"],
        "The": ["0.2596", "0.2517", "0.4886"],
        "cat": ["0.2833", "0.3402", "0.3765"],
        "sat": ["0.2143", "0.2496", "0.5361"],
    }
    assert grid(out, "Outputs")["The"] == ["0.0874", "-0.3313", "-0.0012", "0.8329"]
    assert grid(out, "Outputs")["cat"] == ["0.0772", "-0.3120", "0.0005", "0.7623"]
    assert grid(out, "Outputs")["sat"] == ["0.0878", "-0.3457", "-0.0001", "0.8541"]


@pytest.mark.parametrize("slug", examples.available())
def test_every_available_example_explains(capsys, slug):
    code, out, err = run(capsys, "explain", slug)
    assert code == 0 and err == ""
    ex = examples.load(slug)
    assert f"rounded to {ex.decimals} decimals" in out
    assert "nan" not in out.lower() and negative_zeros(out) == []
    weights = grid(out, "Weights")
    assert weights[""] == list(ex.tokens) or len(set(ex.tokens)) < len(ex.tokens)
    steps = examples.run(ex)
    first = ex.tokens[0]
    assert weights[first] == [format_number(x, ex.decimals) for x in steps.weights[0]]


def test_decimals_override_for_a_named_example(capsys):
    code, out, _ = run(capsys, "explain", "bank_of_river", "--decimals", "5")
    assert code == 0
    assert grid(out, "Weights")["bank"] == ["0.66524", "0.09003", "0.24473"]


# --- your own input ---------------------------------------------------------------------


def test_explain_custom_vectors_match_the_named_example(capsys):
    code, out, err = run(
        capsys,
        "explain",
        "--tokens",
        "bank",
        "of",
        "river",
        "--vectors",
        "1 0 1 0; 0 1 0 1; 1 1 0 0",
        "--decimals",
        "3",
    )
    assert code == 0 and err == ""
    assert grid(out, "Weights")["bank"] == ["0.665", "0.090", "0.245"]
    assert grid(out, "Outputs")["river"] == ["0.788", "0.788", "0.212", "0.212"]
    assert not any(t.startswith("Scaled") for t in section_titles(out))


def test_explain_custom_default_decimals_is_4(capsys):
    _, out, _ = run(capsys, "explain", "--tokens", "a", "b", "--vectors", "1 0; 0 1")
    assert grid(out, "Weights")["a"] == ["0.7311", "0.2689"]


def test_explain_custom_scale_and_causal(capsys):
    code, out, _ = run(
        capsys, "explain", "--tokens", "bank", "of", "river", "--vectors", "1 0 1 0; 0 1 0 1; 1 1 0 0", "--scale",
        "--causal", "--decimals", "2",
    )  # fmt: skip
    assert code == 0
    assert grid(out, "Scaled scores")["river"] == ["0.50", "0.50", "1.00"]  # [1, 1, 2] / sqrt(4)
    assert grid(out, "Causal mask")["bank"] == ["1.00", "-inf", "-inf"]
    w = grid(out, "Weights")
    assert w["bank"] == ["1.00", "0.00", "0.00"]  # the first token can only see itself
    assert w["of"] == ["0.27", "0.73", "0.00"]  # softmax([0, 1])
    assert w["river"] == ["0.27", "0.27", "0.45"]


def test_vectors_accept_commas_and_a_trailing_semicolon(capsys):
    code, out, _ = run(capsys, "explain", "--tokens", "a", "b", "--vectors", "1, 0; 0, 1;")
    assert code == 0
    assert grid(out, "Tokens")["b"] == ["0.0000", "1.0000"]


def test_negative_zero_prints_as_zero(capsys):
    code, out, _ = run(capsys, "explain", "--tokens", "a", "b", "--vectors", "-0.00001 1; 0 -1", "--decimals", "3")
    assert code == 0
    assert grid(out, "Tokens")["a"] == ["0.000", "1.000"]
    assert negative_zeros(out) == []
    assert negative_zeros("1 -0.000 -0 -0.0001") == ["-0.000", "-0"]  # the helper itself works
    assert format_number(-0.0, 4) == "0.0000"
    assert format_number(-0.00004, 4) == "0.0000"
    assert format_number(-0.00005001, 4) == "-0.0001"
    assert format_number(0.5, 0) == "0"
    with pytest.raises(ValueError):
        format_number(float("nan"), 3)


# --- errors: one line on stderr, exit status 2 ------------------------------------------

ERRORS = [
    (["explain", "--tokens", "a", "b", "--vectors", "1 0 1 0; 0 1 2"], r"--vectors row 2 has 3 numbers, row 1 has 4"),
    (["explain", "--tokens", "a", "b", "--vectors", "1 0"], r"--tokens has 2 tokens but --vectors has 1 row\b"),
    (["explain", "--tokens", "a", "--vectors", "1 0; 0 1"], r"--tokens has 1 token but --vectors has 2 rows"),
    (["explain", "--tokens", "a", "--vectors", "1 x"], r"--vectors row 1 has 'x', which is not a number"),
    (["explain", "--tokens", "a", "--vectors", "1 nan"], r"--vectors row 1 has 'nan'; every entry must be a finite"),
    (["explain", "--tokens", "a", "--vectors", "inf 1"], r"--vectors row 1 has 'inf'"),
    (["explain", "--tokens", "a", "b", "--vectors", "1; -1e400"], r"--vectors row 2 has '-1e400'"),
    (["explain", "--tokens", "a", "b", "--vectors", "1e200; -1e200"], r"too large"),
    (["explain", "--tokens", "a", "b", "--vectors", "1;;2"], r"--vectors row 2 is empty"),
    (["explain", "--tokens", "a", "--vectors", " "], r"--vectors is empty"),
    (["explain", "--tokens", "", "--vectors", "1"], r"--tokens: token 1 is empty"),
    (["explain", "--tokens"], r"argument --tokens: expected at least one argument"),
    (["explain", "--tokens", "a"], r"--tokens needs --vectors"),
    (["explain", "--vectors", "1"], r"give an example name .*bank_of_river.* or --tokens and --vectors"),
    (["explain"], r"give an example name \(one of: .*learned.*\) or --tokens and --vectors"),
    (["explain", "no_such_example"], r"unknown example 'no_such_example'; available: .*the_cat_sat"),
    (["explain", "bank_of_river", "--tokens", "a", "--vectors", "1"], r"either an example name .* not both"),
    (["explain", "bank_of_river", "--scale"], r"--scale applies to --tokens/--vectors input"),
    (["explain", "bank_of_river", "--decimals", "11"], r"argument --decimals: must be an integer from 0 to 10"),
    (["explain", "bank_of_river", "--decimals", "two"], r"argument --decimals: must be an integer"),
    (["explain", "--bogus"], r"unrecognized arguments: --bogus"),
    (["frobnicate"], r"invalid choice: 'frobnicate'"),
    ([], r"choose a command: explain"),
]


@pytest.mark.parametrize(("argv", "pattern"), ERRORS, ids=[" ".join(a) or "(nothing)" for a, _ in ERRORS])
def test_bad_input_prints_one_line_and_exits_2(capsys, argv, pattern):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("error: ")
    assert re.search(pattern, err), err


def test_help_in_process(capsys):
    code, out, _ = run(capsys, "explain", "--help")
    assert code == 0
    for option in ("--tokens", "--vectors", "--scale", "--causal", "--decimals", "EXAMPLE"):
        assert option in out
    assert 'explain --tokens bank of river --vectors "1 0 1 0; 0 1 0 1; 1 1 0 0"' in out
    for slug in examples.available():
        assert slug in out


def test_help_via_subprocess():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-m", "selfattn_ref", "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python -m selfattn_ref")
    assert "explain" in result.stdout and "bank_of_river" in result.stdout
    assert result.stderr == ""
