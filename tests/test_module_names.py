"""Each module of probe_ui binds a top-level name once: a second assignment of a module constant silently replaces
the first for every function that reads it (a reader draft's second ``_CLAUSE_MARK`` in sureness.py moved twelve
hedge decisions of the corpus before a reply-by-reply comparison caught it). ``typing.overload`` stubs are exempt."""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "probe_ui"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _overload(node: ast.AST) -> bool:
    return any((isinstance(d, ast.Name) and d.id == "overload")
               or (isinstance(d, ast.Attribute) and d.attr == "overload")
               for d in getattr(node, "decorator_list", []))


def bound_twice(source: str) -> dict[str, int]:
    """Top-level names bound more than once by an assignment, a function or a class."""
    names: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ([target] if isinstance(target, ast.Name)
                             else target.elts if isinstance(target, ast.Tuple) else []):
                    if isinstance(name, ast.Name):
                        names[name.id] += 1
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not _overload(node):
            names[node.name] += 1
    return {name: n for name, n in names.items() if n > 1}


def test_bound_twice_finds_a_constant_assigned_again() -> None:
    assert bound_twice("import re\nA = re.compile('x')\ndef f(): return A\nA = re.compile('y')\n") == {"A": 2}
    assert bound_twice("from typing import overload\n@overload\ndef f(x: int) -> int: ...\n"
                       "@overload\ndef f(x: str) -> str: ...\ndef f(x): return x\n") == {}


def test_every_module_binds_each_name_once() -> None:
    assert len(MODULES) > 100  # (the package was found)
    twice = {str(p.relative_to(PACKAGE)): found for p in MODULES if (found := bound_twice(p.read_text("utf-8")))}
    assert not twice, twice
