"""A module imported on first use, for the libraries a module needs only when it does its work.

The perturbation modules compute with NumPy, but ``probe-ui perturbations`` only lists them: importing NumPy for
the list cost a fifth of the command's time (issue 48). ``np = lazy_module("numpy")`` binds a stand-in that imports
the module the first time one of its attributes is read (through :func:`importlib.import_module`, so under the
import lock, safe from threads), then reads the attribute from it.

Type checkers see the real module::

    if TYPE_CHECKING:
        import numpy as np
    else:
        np = lazy_module("numpy")
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for module ``name`` until an attribute is read, then reads it from the imported module."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module: ModuleType = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


def lazy_module(name: str) -> Any:
    """A stand-in for module ``name`` that imports it on first attribute access."""
    return LazyModule(name)
