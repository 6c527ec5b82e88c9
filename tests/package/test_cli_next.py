"""``python -m selfattn_ref next``: the small language model's most probable next words, each head's
weights with --heads, and one-line errors with the limits and number grammar of ``explain``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_output import grid, run

from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.cli import format_number
from selfattn_ref.examples.rules import number_advice

HOW = number_advice("x")  # how a number is written, the start of every such advice

ROOT = Path(__file__).resolve().parents[2]


def ranked(out: str) -> list[tuple[str, str]]:
    """The printed list of next words: (word, probability as printed)."""
    return [(m[1], m[2]) for m in re.finditer(r"^ +\d+\. (\S+) +(\S+)$", out, re.M)]


def test_the_most_probable_next_words(capsys):
    code, out, err = run(capsys, "next", "she took the money to the bank")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == 'Next word after "she took the money to the bank" (7 words of at most 13)'
    assert lines[1] == (
        "the trained language model: 2 blocks of 2 heads, d_model = 16, 43 words; temperature 1; rounded to 4 decimals"
    )
    p = lm.forward("she took the money to the bank").probabilities[-1]
    assert ranked(out) == [(w, format_number(x, 4)) for w, x in lm.ranked(p, 5)]
    assert ranked(out)[0] == ("on", "0.9952")


def test_separate_words_capitals_top_temperature_and_decimals(capsys):
    code, out, _ = run(
        capsys, "next", "The", "bank", "of", "THE", "--top", "3", "--temperature", "2", "--decimals", "2"
    )
    assert code == 0 and out.startswith('Next word after "the bank of the" (4 words of at most 13)')
    assert "; temperature 2; rounded to 2 decimals" in out
    logits = lm.forward("the bank of the").logits[-1]
    expected = lm.ranked(lm.next_word_probabilities(logits, 2.0), 3)
    assert ranked(out) == [(w, format_number(x, 2)) for w, x in expected]
    _, out, _ = run(capsys, "next", "the", "--top", "43", "--decimals", "10")
    shown = ranked(out)
    assert sorted(w for w, _ in shown) == sorted(corpus.VOCABULARY)
    assert abs(sum(float(x) for _, x in shown) - 1) < 1e-8


def test_heads_prints_each_heads_weights(capsys):
    code, out, _ = run(capsys, "next", "near the street the animal was cold so it", "--heads", "--decimals", "3")
    assert code == 0
    steps = lm.forward("near the street the animal was cold so it")
    titles = [line for line in out.splitlines() if re.match(r"\d+\. Block", line)]
    assert titles == [
        f"{k}. Block {b}, head {h}: weights (row = word reading, column = word read)"
        for k, (b, h) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)], 1)
    ]
    head = grid(out, "Block 2, head 1")
    assert head[""] == list(steps.words)
    assert head["it"] == [format_number(x, 3) for x in steps.blocks[1].weights[0, -1]]
    assert head["it"][4] == "0.799"  # "it" reads "animal"
    assert grid(out, "Block 2, head 2")["was"][6:] == ["0.000"] * 3  # no word reads the words after it


ERRORS = [
    (["next", "the bnak"], "error: word 2, 'bnak', is not in the model's vocabulary; the nearest words are 'bank', "
     "'back', 'boat'"),
    (["next", "the \x1b[2J"], "error: word 2, '\\x1b[2J', is not in the model's vocabulary; the nearest words are "
     "'.', 'back', 'bank'"),
    (["next", "the " * 14], "error: text has 14 words; the model reads at most 13"),
    (["next", " "], "error: text holds no word; give at least one of the model's 43 words"),
    (["next"], "error: the following arguments are required: TEXT (see python -m selfattn_ref next --help)"),
    (["next", "the", "--top", "0"], "error: argument --top: must be an integer from 1 to 43, got '0' (see python -m "
     "selfattn_ref next --help)"),
    (["next", "the", "--top", "44"], "error: argument --top: must be an integer from 1 to 43, got '44' (see python -m "
     "selfattn_ref next --help)"),
    (["next", "the", "--temperature", "0"], "error: argument --temperature: must be a positive number, at most "
     "1,000,000, got '0' (see python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "−0.5"], "error: argument --temperature: must be a positive number, at most "
     "1,000,000, got '−0.5' (see python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "nan"], "error: argument --temperature: must be a positive number, at most "
     "1,000,000, got 'nan'; every number must be finite (see python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "2e6"], "error: argument --temperature: must be a positive number, at most "
     "1,000,000, got '2e6'; every number is at most 1,000,000 in size, as in a spec file and the playground (see "
     "python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "x" * 50], "error: argument --temperature: must be a positive number, at most "
     f"1,000,000, got {'x' * 20!r}... (50 characters), which is not a number: {HOW} (see python -m selfattn_ref "
     "next --help)"),
    # the number grammar of explain --vectors, a spec file and the playground (float() read these, or refused '−2')
    (["next", "the", "--temperature", "1_0"], "error: argument --temperature: must be a positive number, at most "
     f"1,000,000, got '1_0', which is not a number: {HOW}; write it without underscores (see python -m "
     "selfattn_ref next --help)"),
    (["next", "the", "--temperature", "\u0663"], "error: argument --temperature: must be a positive number, at most "
     f"1,000,000, got '\u0663', which is not a number: {HOW}; write it with the digits 0 to 9, not another script's "
     "(see python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "\uff12"], "error: argument --temperature: must be a positive number, at most "
     f"1,000,000, got '\uff12', which is not a number: {HOW}; write it with the digits 0 to 9, not another script's "
     "(see python -m selfattn_ref next --help)"),
    (["next", "the", "--temperature", "0x1F"], "error: argument --temperature: must be a positive number, at most "
     f"1,000,000, got '0x1F', which is not a number: {HOW}; write it in decimal digits (see python -m selfattn_ref "
     "next --help)"),
    (["next", "the", "--temperature", "infinity"], "error: argument --temperature: must be a positive number, at "
     "most 1,000,000, got 'infinity'; every number must be finite (see python -m selfattn_ref next --help)"),
    (["next", "the", "--decimals", "11"], "error: argument --decimals: must be an integer from 0 to 10, got '11' (see "
     "python -m selfattn_ref next --help)"),
    (["next", os.fsdecode(b"the \xff")], "error: TEXT: word 2 is not UTF-8 text"),
    (["next", "the", "--seed", "1"], "error: argument --seed: draws the words of --generate; give --generate too "
     "(see python -m selfattn_ref next --help)"),
    (["next", "the", "--generate", "--seed", "4294967296"], "error: argument --seed: must be an integer from 0 to "
     "4,294,967,295, got '4294967296' (see python -m selfattn_ref next --help)"),
    (["next", "the", "--generate", "--seed", "-1"], "error: argument --seed: must be an integer from 0 to "
     "4,294,967,295, got '-1' (see python -m selfattn_ref next --help)"),
    (["next", "the", "--generate", "--seed", "1.5"], "error: argument --seed: must be an integer from 0 to "
     "4,294,967,295, got '1.5' (see python -m selfattn_ref next --help)"),
    # a whole number in the digits 0 to 9, as a link and a spec write it: not another script's digits
    (["next", "the", "--top", "\u0663"], "error: argument --top: must be an integer from 1 to 43, got '\u0663' (see "
     "python -m selfattn_ref next --help)"),
    (["next", "the", "--decimals", "\uff13"], "error: argument --decimals: must be an integer from 0 to 10, got "
     "'\uff13' (see python -m selfattn_ref next --help)"),
    (["next", "the", "--top", "3.0"], "error: argument --top: must be an integer from 1 to 43, got '3.0' (see python "
     "-m selfattn_ref next --help)"),
    (["next", "the " * 13, "--generate"], "error: --generate: the text has 13 words, as many as the model reads: "
     "there is no room for another"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "line"), ERRORS, ids=[repr(a)[:50] for a, _ in ERRORS])
def test_bad_input_prints_one_line_and_exits_2(capsys, argv, line):
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", line + "\n")


def generated(out: str) -> list[tuple[str, str | None, str]]:
    """The printed words of --generate: (word, u or None, probability), as printed."""
    return [(m[1], m[2], m[3]) for m in re.finditer(r"^ +\d+\. (\S+) +(?:u = (\S+)  )?probability (\S+)$", out, re.M)]


@pytest.mark.parametrize(
    ("text", "options", "seed", "temperature"),
    [
        ("she took the money to the bank", ["--seed", "1"], 1, 1.0),
        ("near the animal the street was", ["--seed", "4294967295", "--temperature", "2.5"], 2**32 - 1, 2.5),
        ("the cat", ["--temperature", "0.5"], None, 0.5),
    ],
)
def test_generate_writes_the_librarys_words(capsys, text, options, seed, temperature):
    """--generate writes what selfattn_ref.language_model.generate gives, and the playground: each word,
    the seeded number u it was drawn with (none for greedy) and its probability; then the whole text."""
    code, out, err = run(capsys, "next", text, "--generate", *options, "--decimals", "5")
    assert (code, err) == (0, "")
    steps = lm.generate(text, temperature=temperature, seed=seed)
    p = [format_number(s.probabilities[corpus.VOCABULARY.index(s.word)], 5) for s in steps]
    u = [None if s.u is None else format_number(s.u, 5) for s in steps]
    assert generated(out) == [(s.word, u[k], p[k]) for k, s in enumerate(steps)]
    how = "the most probable each time" if seed is None else f"drawn with seed {seed}"
    assert f'Generated after "{text}", word by word ({how}, temperature {format(temperature, "g")}):' in out
    assert out.splitlines()[-1] == " ".join([text, *(s.word for s in steps)])


@pytest.mark.parametrize(("typed", "value"), [("2", "2"), ("−2", None), (".5", "0.5"), ("2.", "2"), ("5e−1", "0.5")])
def test_the_temperature_is_read_as_explain_reads_a_number(capsys, typed, value):
    """'−' (U+2212, the minus the site prints), '.5', '2.' and '5e−1' are numbers as in --vectors
    (float() refused '5e−1' and '−2'); a negative one is still not a temperature."""
    code, out, err = run(capsys, "next", "the", "--temperature", typed, "--top", "1")
    if value is None:
        assert (code, out) == (2, "") and "must be a positive number" in err
    else:
        assert (code, err) == (0, "") and f"; temperature {value};" in out


def test_a_tiny_temperature_gives_all_to_the_most_probable_word(capsys):
    code, out, _ = run(capsys, "next", "the", "--temperature", "1e-300", "--top", "2")
    assert code == 0 and "temperature 1e-300;" in out
    assert [x for _, x in ranked(out)] == ["1.0000", "0.0000"] and "nan" not in out


def test_help_lists_the_vocabulary_and_examples(capsys):
    code, out, _ = run(capsys, "next", "--help")
    assert code == 0
    for option in ("--top", "--temperature", "--heads", "--decimals", "--generate", "--seed", "TEXT"):
        assert option in out
    assert set(corpus.VOCABULARY) <= set(out.split())
    assert 'next "near the street the animal was cold so it" --heads' in out
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "next" in out


def test_via_subprocess_as_the_issue_writes_it():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-m", "selfattn_ref", "next", "the bank of the"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0 and result.stderr == ""
    # no sentence of the corpus starts "the bank of the" (the river's bank is a bank sentence's end,
    # "... to the bank of the river ."), so the model guesses a noun: what the library gives
    top = lm.ranked(lm.forward("the bank of the").probabilities[-1], 5)
    assert ranked(result.stdout) == [(w, format_number(p, 4)) for w, p in top]
    assert not np.isnan([float(x) for _, x in ranked(result.stdout)]).any()
