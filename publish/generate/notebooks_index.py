"""docs/notebooks/index.md: the list of the pages' notebooks, and what their outputs were made with.

The list is :data:`publish.generate.notebooks.NOTEBOOKS` in the nav's order, each notebook by the title of
the page it comes from, with what it needs (:func:`publish.generate.notebooks.libraries`, which its introduction
says too). The versions are those the snippets' recorded outputs
were made with (each recording's fingerprint file beside it), which are the outputs the notebooks show. The worked
examples' notebooks are listed in the gallery, with the examples.
"""

from __future__ import annotations

from ..escape import md_text
from . import notebooks
from .registry import generated
from .snippets import versions


@generated("notebooks/list.md")
def _list() -> str:
    # Out of the search index (Material skips an element marked data-search-exclude): the titles
    # are the pages' own, which a search finds there; here they would only compete with them.
    rows = ['<div data-search-exclude="titles" markdown>', "", "| Notebook | Needs |", "|---|---|"]
    for nb in notebooks.NOTEBOOKS:
        rows.append(f"| [{md_text(notebooks.title(nb.page))}]({nb.page}.ipynb) | {notebooks.libraries(nb.page)} |")
    return "\n".join([*rows, "", "</div>"]) + "\n"


@generated("notebooks/versions.md")
def _versions() -> str:
    v = versions()
    torch = v["torch"].split("+")[0]  # "2.13.0+cpu": the build, not the version
    return (
        f"The outputs on the notebooks' pages were made with Python {v['python']}, NumPy {v['numpy']} "
        f"and PyTorch {torch}.\n"
    )
