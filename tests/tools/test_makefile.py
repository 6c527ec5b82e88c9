"""The Makefile gives every variable to its program exactly as typed (issue 27, item 1).

Each test runs the real target with a stand-in venv whose ``python`` writes down the arguments it
was given (NUL-separated, so that a line break shows), or hands them to the real interpreter: no
pip, no build, under a second each. A value that make or the shell read as code would show here as
a changed argument, or as the file its command creates.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from publish import ROOT

# Quotes, $ in every form make and the shell know, backticks, a line break, a leading dash, globs.
HOSTILE = [
    'a"; touch PWNED; echo "',
    "it's $(touch PWNED) `touch PWNED` $$HOME $HOME $5 ${x}",
    "$(shell touch PWNED) $(value NAME) $@ $< %",
    "two\nlines; touch PWNED",
    "--help",
    "-x * ? [a] ~ # \\ \\\\ ; | & < > ( )",
    "spaces  inside and after  ",  # (make's NAME=value drops spaces right after the =, as in a makefile)
    "é 日本 \U0001f642",
]


def stand_in(tmp_path: Path, body: str) -> Path:
    """A venv (its stamp up to date) whose bin/python is the shell script ``body``."""
    venv = tmp_path / "venv"
    python = venv / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    python.chmod(0o755)
    (venv / ".installed").touch()
    return venv


# Each call: the number of arguments, then each argument, all NUL-terminated.
RECORD = 'printf "%s\\0" "$#" >> "{log}"; for a in "$@"; do printf "%s\\0" "$a" >> "{log}"; done\n'


def recorder(tmp_path: Path) -> tuple[Path, Path]:
    log = tmp_path / "argv"
    return stand_in(tmp_path, RECORD.format(log=log)), log


def calls(log: Path) -> list[list[str]]:
    """Every call the stand-in python recorded, its arguments as Python's argv would hold them."""
    words = [os.fsdecode(w) for w in log.read_bytes().split(b"\0")[:-1]] if log.exists() else []
    out = []
    while words:
        n, words = int(words[0]), words[1:]
        out.append(words[:n])
        words = words[n:]
    return out


def make(tmp_path: Path, target: str, *assignments: str, env: dict[str, str] | None = None):
    given = ("NAME", "TITLE", "FROM", "BENCH_ARGS", "PORT", "MAKEFLAGS", "NUMBERS_AUDIT", "NUMBERS_AUDIT_ON_PAGE")
    environ = {k: v for k, v in os.environ.items() if k not in given}
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), target, *assignments],
        cwd=tmp_path,  # a command that the shell ran would create PWNED here or in ROOT
        env=environ | (env or {}),
        capture_output=True,
        timeout=60,
    )


def no_pwned(tmp_path: Path) -> None:
    assert not (tmp_path / "PWNED").exists() and not (ROOT / "PWNED").exists()


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_make_example_passes_name_title_and_from_as_typed(tmp_path, value):
    venv, log = recorder(tmp_path)
    proc = make(tmp_path, "example", f"VENV={venv}", f"NAME={value}", f"TITLE={value}", f"FROM={value}")
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log) == [["-m", "publish", "new-example", f"--title={value}", f"--from={value}", "--", value]]
    no_pwned(tmp_path)


@pytest.mark.parametrize("value", HOSTILE[:4], ids=range(4))
def test_values_from_the_environment_are_passed_as_typed_too(tmp_path, value):
    venv, log = recorder(tmp_path)
    proc = make(tmp_path, "example", f"VENV={venv}", env={"NAME": value, "TITLE": value})
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log) == [["-m", "publish", "new-example", f"--title={value}", "--", value]]
    no_pwned(tmp_path)


def test_bytes_that_are_not_utf8_reach_the_program_unchanged(tmp_path):
    venv, log = recorder(tmp_path)
    title = os.fsdecode(b"caf\xe9 \xff")
    proc = make(tmp_path, "example", f"VENV={venv}", "NAME=x", f"TITLE={title}")
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log) == [["-m", "publish", "new-example", f"--title={title}", "--", "x"]]


def test_make_example_without_a_name_says_how_and_runs_nothing(tmp_path):
    venv, log = recorder(tmp_path)
    for assignments in ([], ["NAME="], ["TITLE=$(touch PWNED)"]):
        proc = make(tmp_path, "example", f"VENV={venv}", *assignments)
        assert proc.returncode == 2
        assert proc.stdout.decode().startswith("usage: make example NAME=<slug>")
    assert calls(log) == []
    no_pwned(tmp_path)


def test_the_real_command_reads_a_name_that_starts_with_a_dash_as_a_name(tmp_path):
    """Through the real interpreter: NAME=--help is refused as a name (not taken for --help), and
    a title with quotes and $(...) arrives whole; nothing is written."""
    venv = stand_in(tmp_path, f'exec "{sys.executable}" "$@"\n')
    before = sorted(p.name for p in (ROOT / "selfattn_ref/examples").iterdir())
    proc = make(tmp_path, "example", f"VENV={venv}", "NAME=--help", 'TITLE=Say "hi" $(touch PWNED) now')
    assert proc.returncode == 2, proc.stdout.decode()
    err = proc.stderr.decode()
    assert "error: '--help' is not a valid example name" in err, err
    assert sorted(p.name for p in (ROOT / "selfattn_ref/examples").iterdir()) == before
    no_pwned(tmp_path)


def test_bench_args_are_split_at_spaces_and_read_as_nothing_else(tmp_path):
    venv, log = recorder(tmp_path)
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n", encoding="utf-8")
    chromium.chmod(0o755)
    args = '--markdown $(touch PWNED) `touch PWNED` "a b" * $$HOME ~'
    proc = make(tmp_path, "bench", f"VENV={venv}", f"CHROMIUM={chromium}", f"BENCH_ARGS={args}")
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log) == [["bench/run.py", *args.split(" ")]]
    no_pwned(tmp_path)


def test_the_environment_variables_of_make_venv_are_passed_as_typed(tmp_path):
    """PYTHON (which makes the venv), TORCH_INDEX_URL and CHROMIUM, each with quotes and $(...)."""
    log = tmp_path / "argv"
    weird = tmp_path / "it's $(touch PWNED)"
    weird.mkdir()
    python = weird / "python3"  # `PYTHON -m venv VENV` makes a venv whose python records its arguments
    recording = tmp_path / "recording"
    recording.write_text("#!/bin/sh\n" + RECORD.format(log=log), encoding="utf-8")
    python.write_text(f'#!/bin/sh\nmkdir -p "$3/bin" && cp "{recording}" "$3/bin/python" && chmod +x "$3/bin/python"\n',
                      encoding="utf-8")  # fmt: skip
    python.chmod(0o755)
    chromium = weird / "chromium `touch PWNED`"
    chromium.write_text("#!/bin/sh\n", encoding="utf-8")
    chromium.chmod(0o755)
    url = "https://example.invalid/$(touch PWNED)/`id`?a=1&b='2'"
    venv = tmp_path / "venv"
    proc = make(tmp_path, "venv", f"VENV={venv}", f"PYTHON={python}", f"TORCH_INDEX_URL={url}")
    assert proc.returncode == 0, proc.stderr.decode()
    got = calls(log)
    assert got[0][:7] == ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--index-url"]
    assert got[0][7:] == [url, "torch==2.13.0"], got[0]
    assert len(got) == 4 and got[3][0] == "-c"
    proc = make(tmp_path, "chromium", f"CHROMIUM={chromium}")
    assert proc.returncode == 0 and proc.stdout == b"", proc
    no_pwned(tmp_path)
    assert not (weird / "PWNED").exists()


@pytest.mark.parametrize("venv", ["a b", "v$(shell touch PWNED)", "a:b", "it's", ""])
def test_a_venv_path_make_cannot_use_is_refused(tmp_path, venv):
    proc = make(tmp_path, "update", f"VENV={venv}")
    assert proc.returncode == 2
    assert f"VENV must be one path of letters, digits and . _ - / + ~ @ , (no spaces, quotes or $); got '{venv}'" in (
        proc.stderr.decode()
    ), proc.stderr.decode()
    no_pwned(tmp_path)


def test_make_serve_shows_wrong_numbers_on_the_page(tmp_path):
    """`make serve` runs mkdocs serve with NUMBERS_AUDIT_ON_PAGE=true (publish/markdown/numbers_audit.py: the box at
    the top of a page with a wrong number), and the audit itself as mkdocs.yml sets it (on)."""
    venv, log = recorder(tmp_path)
    mkdocs = venv / "bin" / "mkdocs"
    record = f'printf "%s\\0" 2 "$NUMBERS_AUDIT_ON_PAGE" "${{NUMBERS_AUDIT-unset}}" >> "{log}"'
    mkdocs.write_text(f"#!/bin/sh\n{record}\n", encoding="utf-8")
    mkdocs.chmod(0o755)
    proc = make(tmp_path, "serve", f"VENV={venv}")
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log) == [["true", "unset"]]


def test_make_help_and_the_readme_say_how_to_give_the_bench_its_options(tmp_path):
    """Issue 51: `make bench --quick` is make's own option, which make refuses ("unrecognized
    option"), and neither the README nor `make help` named BENCH_ARGS."""
    proc = make(tmp_path, "help")
    assert proc.returncode == 0, proc.stderr.decode()
    [line] = [line for line in proc.stdout.decode().splitlines() if line.startswith("make bench")]
    assert 'BENCH_ARGS="--quick"' in line and "not make bench --quick" in line, line
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'make bench BENCH_ARGS="--quick"' in readme and "`.venv/bin/python bench/run.py --help`" in readme


def serve_recorder(tmp_path: Path) -> tuple[Path, Path]:
    """A stand-in venv whose mkdocs records its arguments and the SITE_URL it was given."""
    venv, log = recorder(tmp_path)
    mkdocs = venv / "bin" / "mkdocs"
    mkdocs.write_text(f'#!/bin/sh\nprintf "%s\\0" 1 "$SITE_URL" >> "{log}"\n' + RECORD.format(log=log), "utf-8")
    mkdocs.chmod(0o755)
    return venv, log


def test_make_serve_takes_the_port_it_is_given(tmp_path):
    """Issue 51: `make serve` took port 8000 with no way to choose another. PORT=8001 serves there
    (and the site's address says so); without it, 8000."""
    venv, log = serve_recorder(tmp_path)
    for assignments, port in (([], "8000"), (["PORT=8001"], "8001"), (["PORT=65535"], "65535")):
        log.unlink(missing_ok=True)
        proc = make(tmp_path, "serve", f"VENV={venv}", *assignments)
        assert proc.returncode == 0, proc.stderr.decode()
        assert calls(log) == [
            [f"http://127.0.0.1:{port}/"],
            ["serve", "--dev-addr", f"127.0.0.1:{port}", "--livereload"],
        ]


@pytest.mark.parametrize("port", ["80a", "0", "65536", "08000", "123456", "8001 8002", "", *HOSTILE[:4]])
def test_make_serve_refuses_a_port_that_is_not_a_port_number(tmp_path, port):
    venv, log = serve_recorder(tmp_path)
    proc = make(tmp_path, "serve", f"VENV={venv}", f"PORT={port}")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"PORT must be a port number from 1 to 65535, such as PORT=8001; got '{port}'" in proc.stdout.decode()
    assert calls(log) == []
    no_pwned(tmp_path)


def test_make_help_and_the_readme_name_the_port(tmp_path):
    proc = make(tmp_path, "help")
    [line] = [line for line in proc.stdout.decode().splitlines() if line.startswith("make serve")]
    assert "PORT=8001" in line, line
    assert "(on another port: make serve PORT=8001)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("variable", ["TITLE", "NAME", "FROM"])
def test_make_example_refuses_a_value_make_would_cut(tmp_path, variable):
    """Issue 51: make drops the spaces right after the = of a value on its command line, so
    TITLE="  The river bank" gave the title "The river bank", without a word. The value is taken as
    typed or refused: the Makefile reads make's own command line (/proc) and says why."""
    venv, log = recorder(tmp_path)
    values = {"NAME": "river_bank", "TITLE": "The river bank", "FROM": "the_cat_sat"}
    values[variable] = "  " + values[variable]
    proc = make(tmp_path, "example", f"VENV={venv}", *(f"{k}={v}" for k, v in values.items()))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout.decode() == (
        f"{variable} begins with a space, which make drops from a value given on its command line: "
        f"give {variable} without it (a value is taken as typed)\n"
    )
    assert calls(log) == []
    # in the environment, make keeps the spaces: the command gets them, and says what it makes of them
    proc = make(tmp_path, "example", f"VENV={venv}", env=values)
    assert proc.returncode == 0, proc.stderr.decode()
    assert calls(log)[0][-1] == values["NAME"] and f"--title={values['TITLE']}" in calls(log)[0]
