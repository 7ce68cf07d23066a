"""The one registry mechanism (probe_ui/registry.py): lookups name the kind and the known entries, a name is
registered once, lazy entries are built on first use only, and a registry found by walking a package is complete
for every thread that asks while another is still importing it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from probe_ui.errors import ProbeUIError
from probe_ui.registry import Registry, RegistryError


def test_an_unknown_name_says_the_kind_and_the_known_names() -> None:
    reg: Registry[int] = Registry("colour")
    reg.add("red", 1)
    reg.add("blue", 2)
    with pytest.raises(RegistryError, match=r"unknown colour 'green'; known: blue, red") as info:
        reg.get("green")
    assert isinstance(info.value, ProbeUIError)


def test_a_name_is_registered_once_unless_replaced_on_purpose() -> None:
    reg: Registry[int] = Registry("colour")
    reg.add("red", 1)
    with pytest.raises(RegistryError, match="colour 'red' is registered twice"):
        reg.add("red", 2)
    reg.add("red", 3, replace=True)
    assert reg.get("red") == 3


def test_a_lazy_entry_is_built_once_on_first_use() -> None:
    built: list[str] = []
    reg: Registry[str] = Registry("sdk")

    def factory() -> str:
        built.append("x")
        return "client"

    reg.lazy("heavy", factory)
    assert reg.names() == ["heavy"] and "heavy" in reg and built == []
    assert reg.get("heavy") == reg.get("heavy") == "client" and built == ["x"]


def test_ordered_registries_keep_registration_order() -> None:
    menu: Registry[int] = Registry("template", ordered=True)
    for n, name in enumerate(("zeta", "alpha", "mid")):
        menu.add(name, n)
    assert menu.names() == ["zeta", "alpha", "mid"] and [k for k, _ in menu.items()] == menu.names()
    assert Registry("x").names() == []


def test_threads_asking_during_discovery_see_every_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "slowpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from probe_ui.registry import Registry\nREG = Registry('thing', "
                                     "packages=('slowpkg',))\n", encoding="utf-8")
    for i in range(3):
        (pkg / f"m{i}.py").write_text(f"import time\nfrom slowpkg import REG\ntime.sleep(0.2)\nREG.add('t{i}', {i})\n",
                                      encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import slowpkg  # type: ignore[import-not-found]

    seen: list[list[str]] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            seen.append(slowpkg.REG.names())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert not errors and seen == [["t0", "t1", "t2"]] * 4
