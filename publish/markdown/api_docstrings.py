"""What the API page (docs/api.md) reads from the package, beyond the docstrings as written.

A griffe extension, loaded by the mkdocstrings plugin (mkdocs.yml, ``extensions``), that makes
two conventions of the source render on the page:

- Sphinx cross-reference roles, :func:`load` or :mod:`selfattn_ref.topics.scaling`. mkdocstrings renders
  a docstring as Markdown, where a role would show as ":func:" before the name; each one becomes
  an autorefs reference to the object it names: a bare name is looked up in the docstring's
  module first, then as a full path, and an imported name leads to where it is defined. The
  reference is optional: a target that the page does not document (``publish``)
  shows as code without a link rather than failing the strict build.
- The comment after a dataclass field, ``Q: np.ndarray  # (n, d_k)``, which gives its shape:
  the class's docstring gets a list of the fields that have one, so the page shows the fields
  of ``Steps`` with their shapes (the signature above it lists every field and its type).
"""

from __future__ import annotations

import io
import re
import tokenize
from html import escape

import griffe

ROLE = re.compile(r":(?:func|meth|class|exc|mod|data|attr):`~?([A-Za-z_][\w.]*)`")


def _objects(obj: griffe.Object):
    """``obj`` and every module, class, function and attribute defined under it, not imported names."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def _target(name: str, obj: griffe.Object, collection) -> str:
    """The full path of the object that ``name`` names in the docstring of ``obj``."""
    module = obj if obj.is_module else obj.module
    for path in (f"{module.path}.{name}", name):
        try:
            found = collection[path]
            return found.final_target.path if found.is_alias else found.path
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
    return name


def _trailing_comment(line: str) -> str | None:
    """The text of the comment at the end of a line of Python, if there is one."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line.strip()).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    comments = [t.string for t in tokens if t.type == tokenize.COMMENT]
    return comments[-1].lstrip("#").strip() if comments else None


class ApiDocstrings(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs) -> None:
        for obj in _objects(pkg):
            if obj.is_class and "dataclass" in obj.labels and obj.docstring is not None:
                fields = [
                    f"- `{name}`: {comment}"
                    for name, field in obj.members.items()
                    if field.is_attribute and not field.is_alias and field.docstring is None and len(field.lines) == 1
                    if (comment := _trailing_comment(field.lines[0]))
                ]
                if fields:
                    obj.docstring.value += "\n\nFields:\n\n" + "\n".join(fields)
            if obj.docstring is None or ":`" not in obj.docstring.value:
                continue

            def link(match: re.Match, obj=obj) -> str:
                target = _target(match[1], obj, loader.modules_collection)
                return f'<autoref identifier="{escape(target)}" optional><code>{escape(match[1])}</code></autoref>'

            obj.docstring.value = ROLE.sub(link, obj.docstring.value)
