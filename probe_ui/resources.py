"""Where the shipped data lives: the model catalogue, the presets and the bundled images.

In the repository they are the top-level folders ``backends/``, ``presets/`` and ``assets/`` (the source, also what an
editable install sees); a built wheel carries copies inside the package as ``probe_ui/_data/<name>`` (mapped at
build time by ``pyproject.toml``). Every caller asks here, so the code works the same from a clone and installed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
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
