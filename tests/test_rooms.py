"""The rooms of probe_ui/ and the one direction of their imports (issue 49), held by scripts/rooms.py.

docs/dev/architecture.md writes the layer order; a room imports only rooms on lines above its own, and no two rooms
depend on each other.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import rooms  # noqa: E402


def test_every_room_has_a_line_in_the_layer_order() -> None:
    assert rooms.unplaced() == []


def test_no_import_goes_against_the_layer_order() -> None:
    assert rooms.against_order() == []


def test_no_cycle_between_rooms() -> None:
    assert rooms.cycles() == []


def test_a_cycle_between_rooms_is_found() -> None:
    assert rooms.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_at_most_20_modules_lie_directly_under_probe_ui() -> None:
    top = rooms.top_modules()
    assert len(top) <= rooms.MAX_TOP_MODULES, top


def test_the_rooms_table_of_the_architecture_page_is_what_the_code_gives() -> None:
    assert rooms.current_picture() == rooms.picture(), "run: python scripts/rooms.py --write"


def test_an_import_inside_a_function_counts_and_one_for_the_type_checker_does_not(tmp_path: Path) -> None:
    (tmp_path / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import probe_ui.high\n")
    (tmp_path / "high.py").write_text("def f():\n    from probe_ui.low import x\n")
    (tmp_path / "side.py").write_text("def g():\n    import probe_ui.low\n")
    mods = {"probe_ui.low": tmp_path / "low.py", "probe_ui.high": tmp_path / "high.py",
            "probe_ui.side": tmp_path / "side.py"}
    got = {(a, b) for a, b, _ in rooms.imports(mods)}
    assert got == {("probe_ui.high", "probe_ui.low"), ("probe_ui.side", "probe_ui.low")}


def test_the_check_names_an_import_against_the_order_with_its_line() -> None:
    order = [line[:] for line in rooms.layers()]
    order.insert(0, order.pop(next(i for i, line in enumerate(order) if "registry" in line)))  # registry lowest
    found = rooms.against_order(order)
    assert any(f.startswith("probe_ui.registry:") and "imports probe_ui.errors (registry -> errors, above it)" in f
               for f in found)


def test_the_picture_draws_each_direct_dependence_no_other_path_implies() -> None:
    from rooms import mermaid, reduced

    edges = {"cli": {"app", "store", "errors"}, "app": {"store"}, "store": {"errors"}}
    assert reduced(edges) == {"cli": {"app"}, "app": {"store"}, "store": {"errors"}}
    drawn = mermaid([["errors"], ["store"], ["app"], ["cli"]], edges)
    assert drawn[:2] == ["```mermaid", "flowchart BT"] and drawn[-1] == "```"
    assert drawn[2:-1] == ["  store --> errors", "  app --> store", "  cli --> app"]
