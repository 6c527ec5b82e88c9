"""What the tests of the package's command line (tests/package/test_cli*.py) share: a run of
``python -m selfattn_ref`` in this process, and the grids it prints, read back."""

from __future__ import annotations

from selfattn_ref.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` in this process: (exit code, what it printed on stdout, on stderr)."""
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
