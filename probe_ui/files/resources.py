"""Where the shipped data lives: the model catalogue, the presets and the bundled images.

In the repository they are the top-level folders ``backends/``, ``presets/`` and ``assets/`` (the source, also what an
editable install sees); a built wheel carries copies inside the package as ``probe_ui/_data/<name>`` (mapped at
build time by ``pyproject.toml``). Every caller asks here, so the code works the same from a clone and installed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: the installed package's folder (this module lives in ``probe_ui/files/``)
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: the folders a wheel maps into ``probe_ui/_data/`` (see ``[tool.hatch.build.targets.wheel.force-include]``)
SHIPPED = ("assets", "backends", "presets")


@cache
def data_dir(name: str) -> Path:
    """The folder of shipped data ``name`` (one of :data:`SHIPPED`): inside the installed package when the wheel
    carries it, else the repository's top-level folder."""
    if name not in SHIPPED:
        raise ValueError(f"unknown data folder {name!r}; known: {', '.join(SHIPPED)}")
    packaged = PACKAGE_DIR / "_data" / name
    return packaged if packaged.is_dir() else PACKAGE_DIR.parent / name


ASSETS_DIR = data_dir("assets")
BACKENDS_DIR = data_dir("backends")
PRESETS_DIR = data_dir("presets")


def bundled_presets() -> list[Path]:
    """The preset files shipped with probe-ui (in the repository's ``presets/``, or inside the installed wheel)."""
    return sorted(PRESETS_DIR.glob("*.yaml"))


def shipped_presets() -> list[dict[str, Any]]:
    """Name, number of items, description and file of every shipped preset (``probe-ui presets``). Read from the
    YAML alone: listing them needs neither the preset validation nor the perturbations it loads (issue 48: the
    listing took 0.9 s of CPU); tests/test_presets.py loads every shipped preset in full."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = []
    for path in bundled_presets():
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}
        rows.append({"name": path.stem, "items": len(data.get("items") or []),
                     "description": " ".join(str(data.get("description") or "").split()), "path": str(path)})
    return rows
