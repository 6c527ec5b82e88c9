"""The generated tables of topic pages show the figures of selfattn_ref.topics, read from the
files the pages include (docs/generated/<topic>/). That the files are what ``make update`` writes
now is tests/content/test_docs_numbers.py's check; this one holds their figures to the package's."""

from __future__ import annotations

import re

from publish import GENERATED
from selfattn_ref.topics import real_numbers, rnn_comparison, scaling


def test_the_cost_table_shows_the_codes_figures():
    table = (GENERATED / "rnn_comparison" / "costs.md").read_text(encoding="utf-8")
    for n, d in rnn_comparison.CASES:
        assert f"n\u00a0=\u00a0{n}<br>d\u00a0=\u00a0{d}" in table  # no-break spaces: one line each on a phone
        c = rnn_comparison.compare(n, d)
        for model in ("rnn", "self_attention"):
            for key in ("multiply_adds", "multiply_adds_within_tokens", "multiply_adds_between_tokens"):
                assert f"{c[model][key]:,}" in table
        assert f"{c['ratio']:g}" in table
    lines = [line for line in table.splitlines() if line.startswith("|")]
    for label, rnn_row in (("steps one after another", 2), ("longest path", 4)):
        assert lines[rnn_row].startswith(f"| {label} | RNN | 3 | 64 | 512 | 4,096 |")
        assert lines[rnn_row + 1] == "| | self-attention | 1 | 1 | 1 | 1 |"
    assert re.search(r"\| \| self-attention ÷ RNN \| 2\.25 \| 1\.625 \| 2\.5 \| 9\.5 \|", table)


def test_the_scaling_tables_show_the_experiments_figures():
    variance = (GENERATED / "scaling" / "variance.md").read_text(encoding="utf-8")
    for r in scaling.variance_experiment():
        assert f"| {r['d']} | {r['variance']:.2f} | {r['variance_scaled']:.2f} |" in variance
    largest = (GENERATED / "scaling" / "largest_weight.md").read_text(encoding="utf-8")
    for r in scaling.largest_weight_experiment():
        assert f"| {r['d']} | {r['unscaled']:.3f} | {r['scaled']:.3f} |" in largest


def test_the_money_tables_show_bank_in_both_sentences():
    river, money = real_numbers.sentences()
    folder = GENERATED / "real_numbers"
    side = (folder / "bank_two_meanings.md").read_text(encoding="utf-8")
    assert "| bank | bank of river | bank of money |" in side
    for k, word in enumerate(("bank", "of", "river / money")):
        assert f"| **weight on {word}** | {river.weights[0, k]:.3f} | {money.weights[0, k]:.3f} |" in side
    for k in range(4):
        assert f"| **Output(bank), x{k + 1}** | {river.output[0, k]:.3f} | {money.output[0, k]:.3f} |" in side
    assert "| **Output(bank), x1** | 0.910 | 0.665 |" in side and "| **Output(bank), x3** | 0.665 | 0.910 |" in side
    assert "| **money** | 0 | 1 | 1 | 0 |" in (folder / "money_embeddings.md").read_text(encoding="utf-8")
    mix = (folder / "money_mix_0.md").read_text(encoding="utf-8")
    assert "+ 0.245 × [0, 1, 1, 0]   (money)\n= [0.665, 0.335, 0.910, 0.090]" in mix
