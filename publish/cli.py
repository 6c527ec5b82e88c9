"""The contributors' command line: ``python -m publish COMMAND`` (``make update``, ``make example``).

``update`` rewrites every generated file and recorded output; ``new-example`` scaffolds a worked
example. The reader's command, ``python -m selfattn_ref explain``, is the library's; this one
reuses its parser and its one-line errors (:func:`selfattn_ref.cli.run`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from selfattn_ref.cli import CLIError, build_parser, display, run

PROG = "python -m publish"


def text_argument(value: str) -> str:
    """An argument that becomes text in a file (a name, a title). Bytes the system's encoding could
    not decode (Python keeps them as lone surrogates, which no file can hold) are read as UTF-8
    (a C or POSIX locale sends UTF-8 text as such bytes), or refused, naming them."""
    if not any("\udc80" <= c <= "\udcff" for c in value):
        return value
    try:
        return os.fsencode(value).decode("utf-8")
    except (UnicodeError, ValueError):
        bad = "".join(display(c) for c in value if "\udc80" <= c <= "\udcff")
        raise argparse.ArgumentTypeError(
            f"'{display(value)}' holds bytes that are not UTF-8 text ({bad}): give it in UTF-8 "
            "(a terminal or locale in another encoding sends other bytes)"
        ) from None


text_argument.__name__ = "text"  # argparse names the type in "invalid text value"


def run_update(args) -> int:
    from selfattn_ref.examples import SpecError

    from .files import UnsafePath
    from .generate.update import UpdateError, apply, plan

    try:
        p = plan(force=args.all)
    except SpecError as exc:
        raise CLIError(f"bad worked-example spec: {exc}") from None
    except UpdateError as exc:
        raise CLIError(str(exc)) from None
    try:
        changed = apply(p, verbose=not args.quiet)
    except UnsafePath as exc:  # a link that appeared while the plan was made: every file was put back
        raise CLIError(f"{exc}; nothing was written") from None
    print(f"{changed} file(s) changed" if changed else "everything recorded is up to date")
    if p.foreign:
        print(f"{len(p.foreign)} file(s) in generated folders were not written by `make update` and were left alone")
    if p.refused:
        print(f"{len(p.refused)} file(s) reached through a symbolic link or outside the repository were left alone")
    return 0


def add_update(subparsers) -> None:
    p = subparsers.add_parser(
        "update",
        help="regenerate the site's tables (docs/generated/) and recorded snippet outputs (snippets/*.out)",
        description="Rewrite every generated file (tables, worked-example pages and scripts, notebooks) from the\n"
        "reference as it is now, and run every snippet that changed since its recording (all of them with\n"
        "--all; the .fingerprint.json beside each recording says what it was made from) and rewrite its\n"
        "recorded output. Run it from a clone of the repository after changing the package, an example or\n"
        "a snippet, and commit what it changes. CI never runs it: the tests run every snippet and only\n"
        "compare, and on a difference tell you to run `make update`.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--all", action="store_true", help="run every snippet, even those unchanged since their recording")
    p.set_defaults(func=run_update)


def run_new_example(args) -> int:
    from selfattn_ref import examples

    from . import ROOT
    from .generate import example_pages as ep
    from .generate.scaffold import prepare
    from .generate.update import UpdateError, _atomic_write, apply, plan

    if args.base not in examples.available():
        raise CLIError(f"--from {args.base!r} is not an example; available: {', '.join(examples.available())}")
    try:  # prepare checks every spec (load_all), so a bad one elsewhere stops it here
        path, text, ex = prepare(args.slug, title=args.title, base=args.base)
        if args.no_update:
            _atomic_write(path, text)
            print(f"wrote {path.relative_to(ROOT)}")
        else:  # everything computed (and the scripts run) before the spec or any file is written
            every = [*examples.load_all(), ex]
            only = [ep.snippet_path(args.slug, lib) for lib in ep.LIBRARIES]
            apply(plan(every, only=only, extra={path: text}), verbose=True)
    except (ValueError, examples.SpecError, UpdateError) as exc:
        raise CLIError(str(exc)) from None
    rel = path.relative_to(ROOT)
    print(
        f"\nNext: edit {rel} (title, description, tokens, embeddings, options), then\n"
        f"  make update   # regenerates the page docs/examples/{args.slug}.md, its tables, scripts and notebook\n"
        f"  make serve    # the page is under 'Worked examples': http://127.0.0.1:8000/examples/{args.slug}/\n"
        "  make test     # checks every number of it"
    )
    return 0


def add_new_example(subparsers) -> None:
    p = subparsers.add_parser(
        "new-example",
        help="scaffold a worked example: a spec file that becomes a page, scripts, a notebook and tests",
        description="Write selfattn_ref/examples/SLUG.toml, a valid spec with every key explained, holding the\n"
        "numbers of an existing example (--from) under a new title, and generate its page, tables, NumPy and\n"
        "PyTorch scripts, recorded outputs and notebook. Edit the file, then run `make update`.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "slug",
        metavar="SLUG",
        type=text_argument,
        help="the example's name: lower-case letters, digits and underscores",
    )
    p.add_argument("--title", type=text_argument, help="the page's title (default: from the slug)")
    p.add_argument(
        "--from",
        dest="base",
        default="the_cat_sat",
        metavar="EXAMPLE",
        type=text_argument,
        help="start from this example's numbers",
    )
    p.add_argument("--no-update", action="store_true", help="write the spec file only; run `make update` later")
    p.set_defaults(func=run_new_example)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the contributors' command line with ``argv`` and return the exit status."""
    parser = build_parser(
        prog=PROG,
        subcommands=[add_update, add_new_example],
        description="The publishing tools of the self-attention site (run in a clone of its repository).",
        epilog=f"examples:\n  {PROG} update\n  {PROG} new-example river_bank --from bank_of_river\n",
    )
    return run(parser, argv)
