"""The typed run settings read every store's JSON as it is: the older release's fixture store, odd hand-edited
values, and what a batch writes today; nothing stored changes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from probe_ui.store import Run
from probe_ui.store.settings import RunSettings
from probe_ui.views.rebuild import reproduce_commands

FIXTURE = Path(__file__).parent / "data" / "stores" / "v1-04c68d0" / "probe-ui.db"


def _stored() -> dict[str, dict]:
    con = sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True)
    try:
        return {name: json.loads(s) for name, s in con.execute("SELECT name, settings FROM runs")}
    finally:
        con.close()


def test_the_older_stores_settings_read_typed_and_round_trip_unchanged() -> None:
    stored = _stored()
    assert {"fixture-batch", "fixture-judge", "fixture-probmed"} <= set(stored)
    for raw in stored.values():
        assert RunSettings.of(raw).to_dict() == raw  # nothing added, dropped or converted
    batch = RunSettings.of(stored["fixture-batch"])
    assert batch.model_names == ["baseline/first", "baseline/random"] and batch.suites == ["rotations"]
    assert batch.samples == 1 and batch.planned == 24 and batch.source == "batch" and batch.judge_name is None
    judged = RunSettings.of(stored["fixture-judge"])
    assert (judged.judge_name, judged.judge_mode, judged.prompt) == ("baseline/last", "mediconfusion", "free")
    imported = RunSettings.of(stored["fixture-probmed"])
    assert imported.source == "import" and imported.benchmark == "probmed" and imported.imports[0]["model"] == "gpt-4o"


@pytest.mark.parametrize("raw, check", [
    (None, lambda s: s.source == "batch" and s.models == []),
    ({"models": ["old/bare-name", {"name": "x/y"}, {"provider": "p"}]},
     lambda s: s.model_names == ["old/bare-name", "x/y"]),
    ({"samples": None, "temperature": "warm", "concurrency": True},
     lambda s: (s.samples, s.temperature, s.concurrency) == (1, None, None)),
    ({"presets": "not a list", "suites": ("a", 2), "judge": "gpt"},
     lambda s: (s.presets, s.suites, s.judge) == ([], ["a", "2"], None)),
    ({"kind": "live", "items": ["q1"], "custom": {"kept": 1}},
     lambda s: s.source == "live" and s.to_dict()["custom"] == {"kept": 1}),
])

def test_odd_values_are_read_leniently(raw, check) -> None:
    assert check(RunSettings.of(raw))


def test_a_run_offers_its_settings_typed_and_the_replay_reads_them() -> None:
    raw = _stored()["fixture-judge"]
    run = Run(id=1, name="fixture-judge", seed=0, settings=raw, versions={}, created_at="", updated_at="")
    assert run.config.judge_name == "baseline/last"

    class Store:
        url = "sqlite:////somewhere/private/r.db"

    cmds = dict(reproduce_commands(Store(), run))
    assert cmds["answers"] == ("probe-ui batch tiny.yaml --model baseline/first --seed 0 --prompt free --judge "
                               "baseline/last --judge-mode mediconfusion --run fixture-judge --db r.db")
