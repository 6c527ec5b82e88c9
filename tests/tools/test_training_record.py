"""Layer 3: publish.generate.training_record, the record that keeps a training run's figures so that no build
trains: its key changes with any keyed file, a record under another key (or none, or a broken one)
is not used, and a key naming a missing file is an error that names it."""

from __future__ import annotations

import json

import pytest

from publish.generate import training_record as tr


def test_the_key_follows_the_files_and_folders_it_names(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "pkg" / "notes.txt").write_text("not code\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("B = 1\n", encoding="utf-8")
    key = tr.content_key(tmp_path, ["pkg", "b.py"], "2.13.0")
    assert key == tr.content_key(tmp_path, ["pkg", "b.py"], "2.13.0")
    assert key != tr.content_key(tmp_path, ["pkg", "b.py"], "2.14.0")  # the extra counts
    (tmp_path / "pkg" / "notes.txt").write_text("changed\n", encoding="utf-8")
    assert key == tr.content_key(tmp_path, ["pkg", "b.py"], "2.13.0")  # only .py files count
    (tmp_path / "b.py").write_text("B = 2\n", encoding="utf-8")
    assert key != tr.content_key(tmp_path, ["pkg", "b.py"], "2.13.0")
    with pytest.raises(ValueError, match=r"^missing\.py: the record's key names a file or folder that does not exist"):
        tr.content_key(tmp_path, ["missing.py"], None)


def test_the_key_reads_the_code_not_its_docstrings_comments_or_layout(tmp_path):
    """An edited docstring or comment trains nothing again (the language model's run takes 20 s)."""
    code = (
        '"""A module."""\n\n\ndef f(x):\n    """Twice x."""\n    return 2 * x  # doubled\n\n\n'
        'class C:\n    """Doc."""\n'
    )
    path = tmp_path / "m.py"
    path.write_text(code, encoding="utf-8")
    key = tr.content_key(tmp_path, ["m.py"], None)
    for same in (
        code.replace("Twice x.", "Two times x, with more words."),
        code.replace("# doubled", "# times two"),
        code.replace('"""A module."""\n', "").replace('    """Doc."""\n', '    """Other."""\n'),
        code.replace("return 2 * x", "return (2 *\n            x)"),
    ):
        path.write_text(same, encoding="utf-8")
        assert tr.content_key(tmp_path, ["m.py"], None) == key, same
    for other in (code.replace("2 * x", "3 * x"), code.replace("def f(x)", "def f(y)"), code + "X = 1\n"):
        path.write_text(other, encoding="utf-8")
        assert tr.content_key(tmp_path, ["m.py"], None) != key, other


def test_a_record_is_used_only_under_its_key(tmp_path):
    calls = []

    def train():
        calls.append(1)
        return {"loss": 0.5}

    record = {"key": "k", "run": {"loss": 0.25}}
    assert tr.figures("k", record, "run", train) == {"key": "k", "run": {"loss": 0.25}} and not calls
    assert tr.figures("other", record, "run", train) == {"key": "other", "run": {"loss": 0.5}}
    assert tr.figures("k", None, "run", train)["run"] == {"loss": 0.5}
    assert tr.figures("k", {"key": "k", "run": 3}, "run", train)["run"] == {"loss": 0.5}  # not a list or object
    assert len(calls) == 3


def test_a_broken_record_reads_as_none(tmp_path):
    path = tmp_path / "run.json"
    assert tr.recorded(path) is None
    path.write_text("{not json", encoding="utf-8")
    assert tr.recorded(path) is None
    path.write_text("[1, 2]", encoding="utf-8")
    assert tr.recorded(path) is None
    path.write_text(tr.text({"key": "k", "run": {}}), encoding="utf-8")
    assert tr.recorded(path) == {"key": "k", "run": {}}
    assert json.loads(tr.text({"a": 1})) == {"a": 1} and tr.text({"a": 1}).startswith("{\n")
