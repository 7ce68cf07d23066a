"""No module of probe_ui reaches into another's private names.

A name that starts with one underscore is its module's own business: another module that imports it (``from
probe_ui.scoring import _val``) or reads it off an imported module (``runner._execute``) breaks when the owner
changes it, and hides that the helper is shared. A shared helper is made public in its right home instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

import probe_ui

ROOT = Path(probe_ui.__file__).parent


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_uses(path: Path) -> list[str]:
    """``path:line: what`` for each private name of another probe_ui module that ``path`` imports or reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[str] = []
    modules: set[str] = set()  # local names bound to probe_ui modules
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "probe_ui":
                    modules.add(a.asname or a.name.split(".")[0])
                    if any(_private(p) for p in a.name.split(".")[1:]):
                        found.append(f"{path}:{node.lineno}: import {a.name}")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base
                                                                                                 else []))
            if not base.startswith("probe_ui") or base == here:
                continue
            if any(_private(p) for p in base.split(".")[1:]):
                found.append(f"{path}:{node.lineno}: from {base} import ...")
            for a in node.names:
                if _private(a.name):
                    found.append(f"{path}:{node.lineno}: from {base} import {a.name}")
                else:
                    modules.add(a.asname or a.name)  # may be a module (from probe_ui import scoring)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules):
            found.append(f"{path}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    found = [use for path in sorted(ROOT.rglob("*.py")) for use in private_uses(path)]
    assert not found, "private names used across modules (make them public in their home):\n" + "\n".join(found)


def test_the_check_sees_each_kind_of_private_use(tmp_path: Path) -> None:
    pkg = tmp_path / "probe_ui" / "sub"
    pkg.mkdir(parents=True)
    bad = pkg / "mod.py"
    bad.write_text("from probe_ui.scoring import _val\nfrom probe_ui import runner\nimport probe_ui.store as st\n"
                   "from . import _helper\nx = runner._execute\ny = st._frame\nz = runner.run_batch\n"
                   "class A:\n    def f(self):\n        return self._own\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path / "probe_ui"
    try:
        found = private_uses(bad)
    finally:
        ROOT = saved
    assert [f.split(": ", 1)[1] for f in found] == [
        "from probe_ui.scoring import _val", "from probe_ui.sub import _helper", "runner._execute", "st._frame"]
