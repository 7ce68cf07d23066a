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


# ---- one way in: put, with sameness decided by the registry (issue 49) --------------------------------------------

def _module(tmp_path: Path, name: str, body: str) -> object:
    """Import ``body`` as module ``name`` from a file of its own (a fresh import each call, as a re-import is)."""
    import importlib.util
    import sys

    path = tmp_path / f"{name}.py"
    path.write_text(body)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    return module


def test_put_names_an_entry_by_its_own_attribute_and_refuses_one_without() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Tab:
        id: str
        order: int

    tabs: Registry[Tab] = Registry("tab", key="id")
    tab = Tab("notes", 3)
    assert tabs.put(tab) is tab and tabs.get("notes") is tab
    with pytest.raises(RegistryError, match="tab .* has no id"):
        tabs.put(object())


def test_a_module_imported_again_replaces_its_own_entries_but_another_file_is_refused(tmp_path: Path) -> None:
    """One rule for classes, records holding code, and modules: the same definition seen again (a reload) replaces
    the old entry; a different one under the same name is refused, naming both files."""
    import sys
    import types

    reg: Registry[object] = Registry("thing")
    sys.modules["thing_reg"] = types.SimpleNamespace(REG=reg)  # type: ignore[assignment]
    try:
        body = ("from dataclasses import dataclass\nfrom thing_reg import REG\n"
                "@dataclass(frozen=True)\nclass Rec:\n    name: str\n    fn: object\n"
                "def go(x):\n    return x\n"
                "@REG.put\nclass Widget:\n    name = 'widget'\n"
                "REG.put(Rec('rec', go))\n")
        first = _module(tmp_path, "things_a", body)
        again = _module(tmp_path, "things_a", body)  # the same module imported a second time
        assert reg.get("widget") is again.Widget and reg.get("rec").fn is again.go  # type: ignore[attr-defined]
        assert first.Widget is not again.Widget  # type: ignore[attr-defined]
        (tmp_path / "other").mkdir()
        with pytest.raises(RegistryError, match=r"thing 'widget' is registered twice \(by .*things_b.py"):
            _module(tmp_path / "other", "things_b", body)
    finally:
        sys.modules.pop("thing_reg", None)


def test_a_registry_of_instances_holds_one_of_each_class_and_a_plain_record_is_compared_by_value() -> None:
    from dataclasses import dataclass

    formats: Registry[object] = Registry("export format", instances=True)

    @formats.put
    class Csv:
        name = "csv"

    assert isinstance(formats.get("csv"), Csv)
    formats.put(Csv)  # the same class again (a re-import): still one instance of it
    assert isinstance(formats.get("csv"), Csv)

    @dataclass(frozen=True)
    class Pressure:
        name: str
        wording: str

    pressures: Registry[Pressure] = Registry("pressure type")
    pressures.put(Pressure("doubt", "Are you sure?"))
    pressures.put(Pressure("doubt", "Are you sure?"))  # equal: the same definition
    with pytest.raises(RegistryError, match="pressure type 'doubt' is registered twice"):
        pressures.put(Pressure("doubt", "Really?"))
