"""The public names of the package and of its PyTorch twin, found by introspection (shared by the
twin test, tests/package/test_twins.py, and the input-class test, tests/package/test_input_classes.py).

The public names of a module are its ``__all__`` where it has one, else the functions and classes
it defines under a name without ``_`` (the rule of the API page, tests/content/test_api_page.py).
A module's twin is the module at the same path under ``selfattn_ref.torch``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import selfattn_ref
import selfattn_ref.torch


def modules(package) -> list[str]:
    """Every module below ``package`` but private ones and the packages that only gather modules."""
    out = []
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if info.ispkg and info.name != "selfattn_ref.examples":
            continue
        out.append(info.name)
    return sorted(out)


NUMPY = [m for m in modules(selfattn_ref) if not m.startswith(("selfattn_ref.torch.", "selfattn_ref.training."))]
TORCH = modules(selfattn_ref.torch)


def twin_of(name: str) -> str:
    return name.replace("selfattn_ref.", "selfattn_ref.torch.", 1)


def public(module) -> dict[str, object]:
    if hasattr(module, "__all__"):
        return {name: getattr(module, name) for name in module.__all__}
    return {
        name: obj
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    }


PAIRS = [(name, twin_of(name)) for name in NUMPY if twin_of(name) in TORCH] + [("selfattn_ref", "selfattn_ref.torch")]


def twin_functions() -> dict[str, tuple[object, object]]:
    """Every public function that has a twin: its name -> (the NumPy function, the PyTorch one)."""
    out: dict[str, tuple[object, object]] = {}
    for numpy_name, torch_name in PAIRS:
        np_public = public(importlib.import_module(numpy_name))
        torch_public = public(importlib.import_module(torch_name))
        for name, f in np_public.items():
            if inspect.isfunction(f) and name in torch_public:
                out[name] = (f, torch_public[name])
    return out


def lone_functions(module_names) -> dict[str, object]:
    """Every public function of the modules ``module_names`` that has no twin, and every public method of
    their public classes: "<module>.<name>" (the module's last part: "corpus.generate") or
    "<module>.<Class>.<method>" -> the function (a method unbound: call it on an instance)."""
    twins = twin_functions()
    out: dict[str, object] = {}
    for module_name in module_names:
        short = module_name.rsplit(".", 1)[1]
        for name, obj in public(importlib.import_module(module_name)).items():
            if inspect.isfunction(inspect.unwrap(obj)) and twins.get(name, (None,))[0] is not obj:
                out[f"{short}.{name}"] = obj  # (functools.cache's wrapper too)
            elif inspect.isclass(obj):
                for method, f in vars(obj).items():
                    if inspect.isfunction(f) and not method.startswith("_"):
                        out[f"{short}.{name}.{method}"] = f
    return out
