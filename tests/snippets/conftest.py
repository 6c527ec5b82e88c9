"""Fixtures of the snippet tests (tests/snippets/test_<page>.py), for the modules that name them:

- ``ns``: a script's globals after a run in this process (snippet_checks.snippet_namespace), once
  for each script of the module's ``SNIPPET_PATHS``: a test that takes it runs once per script;
- ``ref``: the module's worked example (its ``EXAMPLE``, a slug) and its steps, ``examples.run``.
"""

from __future__ import annotations

import pytest

from selfattn_ref import examples

from snippet_checks import snippet_namespace


def pytest_generate_tests(metafunc):
    if "ns" in metafunc.fixturenames:
        paths = metafunc.module.SNIPPET_PATHS
        metafunc.parametrize("ns", paths, ids=lambda p: p.name, indirect=True, scope="module")


@pytest.fixture(scope="module")
def ns(request) -> dict:
    return snippet_namespace(request.param)


@pytest.fixture(scope="module")
def ref(request) -> tuple[examples.Example, examples.Steps]:
    ex = examples.load(request.module.EXAMPLE)
    return ex, examples.run(ex)
