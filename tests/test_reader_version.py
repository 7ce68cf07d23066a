"""The robust reader's fingerprint (:func:`probe_ui.reading.answers.parser_version`) covers every module it is made of.

Why: the parse stored with each answer is a cache, trusted only under the fingerprint of the code that wrote it.
The reader spans ``answers.py`` (the rule order) and the modules of ``probe_ui/reading/`` (the rules and word
lists); a change to any of them must change the fingerprint, or stored answers keep a reading the code no longer
gives.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import probe_ui
from probe_ui.reading import answers

PACKAGE = Path(probe_ui.__file__).parent
READING = PACKAGE / "reading"


def _module_file(name: str) -> Path | None:
    """The source file of a probe_ui module name, or None when it is not one."""
    rel = Path(*name.split(".")[1:])
    for path in (PACKAGE / rel.with_suffix(".py"), PACKAGE / rel / "__init__.py"):
        if path.is_file():
            return path
    return None


def _top_level_imports(path: Path) -> set[Path]:
    """The probe_ui modules a file imports at module level (what the reading rules run on)."""
    found: set[Path] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("probe_ui"):
            names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("probe_ui")]
        found |= {f for n in names if (f := _module_file(n)) is not None}
    return found


def test_every_reading_module_is_in_the_fingerprint() -> None:
    sources = answers.reader_sources()
    assert sources[0] == Path(answers.__file__)
    assert set(READING.glob("*.py")) <= set(sources)
    assert len(sources) == len(set(sources))


def test_every_module_the_reader_imports_is_in_the_fingerprint() -> None:
    """A rule moved to a new module outside probe_ui/reading/ would escape the fingerprint: the reader's module-level
    imports, followed from answers.py, all lie in the hashed files (the images package aside: items.py uses it for
    image bookkeeping, not for reading)."""
    sources = set(answers.reader_sources())
    seen: set[Path] = set()
    todo = [Path(answers.__file__)]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += [p for p in _top_level_imports(path) if PACKAGE / "images" not in p.parents]
    assert seen - {PACKAGE / "__init__.py"} <= sources, sorted(str(p) for p in seen - sources)
    assert len(seen) > 10  # the walk followed the imports into probe_ui/reading/


def test_a_change_to_any_reader_module_changes_the_fingerprint(tmp_path: Path) -> None:
    sources = answers.reader_sources()
    copies = []
    for i, path in enumerate(sources):
        copy = tmp_path / str(i) / path.name
        copy.parent.mkdir()
        shutil.copyfile(path, copy)
        copies.append(copy)
    base = answers.fingerprint(copies)
    assert base == answers.parser_version()
    for copy in copies:
        original = copy.read_bytes()
        copy.write_bytes(original.replace(b"\n", b"\n ", 1))
        assert answers.fingerprint(copies) != base, f"{copy.name}: a change left the fingerprint as it was"
        copy.write_bytes(original)
    assert answers.fingerprint(copies) == base
