"""pyproject.toml's bounds and requirements.lock's pins agree: the site's optional dependencies hold
MkDocs below 2 and Material below 10, and every pinned version satisfies the bounds stated."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def lock() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.lock: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = version
    return pins


def test_site_dependencies_bound_mkdocs_and_material():
    site = {canonicalize_name(r.name): r for r in map(Requirement, PROJECT["optional-dependencies"]["site"])}
    assert str(site["mkdocs"].specifier) == "<2,>=1.6"
    assert str(site["mkdocs-material"].specifier) == "<10,>=9.7"
    assert not any(r.name == "mkdocs" for r in map(Requirement, PROJECT["dependencies"])), "the library needs no MkDocs"


def test_the_lock_satisfies_every_bound():
    pins = lock()
    stated = [*PROJECT["dependencies"], *(r for group in PROJECT["optional-dependencies"].values() for r in group)]
    for req in map(Requirement, stated):
        name = canonicalize_name(req.name)
        assert name in pins, f"pyproject.toml names {req.name}, which requirements.lock does not pin"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock pins {req.name}=={pins[name]}, outside pyproject.toml's {req}"
        )
