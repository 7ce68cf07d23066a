"""CI's proof that its two pytest steps ran every test exactly once (tests/ledger.py, .ci/run)."""

from __future__ import annotations

from pathlib import Path

from ledger import check


def ledger(prefix: Path, collected: list[str] | None, **ran: list[str]) -> str:
    if collected is not None:
        Path(f"{prefix}.collected").write_text("".join(f"{n}\n" for n in collected), encoding="utf-8")
    for worker, ids in ran.items():
        Path(f"{prefix}.ran.{worker}").write_text("".join(f"{n}\n" for n in ids), encoding="utf-8")
    return str(prefix)


def test_two_steps_that_split_the_collection_pass(tmp_path: Path) -> None:
    full = ["t.py::a", "t.py::b", "u.py::c[1]", "u.py::c[2]"]
    fast = ledger(tmp_path / "fast", full[:2], gw0=["t.py::a"], gw1=["t.py::b"])
    rest = ledger(tmp_path / "rest", full, gw0=["u.py::c[2]", "u.py::c[1]"])
    assert check(rest, [fast, rest]) == []


def test_a_test_in_neither_step_a_test_run_twice_and_an_empty_step_are_named(tmp_path: Path) -> None:
    full = ["t.py::a", "t.py::b", "u.py::c"]
    fast = ledger(tmp_path / "fast", full, main=["t.py::a", "u.py::c"])
    rest = ledger(tmp_path / "rest", full, gw0=["u.py::c"])
    empty = ledger(tmp_path / "empty", None, gw0=[])
    problems = check(rest, [fast, rest, empty])
    assert "ran in neither step: t.py::b" in problems
    assert "ran 2 times: u.py::c" in problems
    assert f"{empty}: no test ran" in problems
    assert len(problems) == 3


def test_a_missing_collection_or_a_test_outside_it_fails(tmp_path: Path) -> None:
    assert "missing" in check(str(tmp_path / "none"), [])[0]
    rest = ledger(tmp_path / "rest", ["t.py::a"], gw0=["t.py::a", "gone.py::x"])
    assert check(rest, [rest]) == ["ran but not in the full collection: gone.py::x"]


def test_a_relative_prefix_keeps_writing_where_pytest_started(tmp_path, monkeypatch):
    """A module-scoped app fixture works in a folder of its own across its module's tests (chdir); the lines of
    those tests must still reach the ledger CI checks, not a copy of it in that folder."""
    import ledger as ledger_module

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ledger_module.ENV, "led/rest")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    monkeypatch.setattr(ledger_module, "_STARTED_WITH", ("led/rest", tmp_path / "led" / "rest"))
    elsewhere = tmp_path / "app-folder"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    class Item:
        nodeid = "tests/test_x.py::test_y"

        def iter_markers(self, name):
            return iter(())

    ledger_module.record_ran(Item())  # type: ignore[arg-type]
    assert (tmp_path / "led" / "rest.ran.gw0").read_text() == "tests/test_x.py::test_y\n"
    assert not (elsewhere / "led").exists()
