"""A batch run's identity (issue 22): a second model set never merges into a run silently; an explicit extension
says what it adds before asking, and the run's planned count, completeness and Resume then cover every model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, batch_change, resume_batch, run_batch
from probe_ui.runner.identity import RunExtensionError
from probe_ui.store import Store


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    for i in range(3):
        write_png(tmp_path / f"im{i}.png", seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 3}.png", answer="AB"[i % 2])
                                              for i in range(12)])


def progress(store: Store, run: str) -> dict:
    return {r["run"]: r for r in store.run_progress()}[run]


def test_a_blank_name_with_another_model_set_is_refused_until_extend(preset: Path, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    assert main(["batch", str(preset), "-m", "baseline/first", "-m", "baseline/last", "--db", db,
                 "--no-progress"]) == 0
    capsys.readouterr()
    run = "p-seed0"
    assert main(["batch", str(preset), "-m", "baseline/random", "--db", db, "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert (f"run '{run}' already holds baseline/first, baseline/last (24 answers done); this batch would add 1 "
            "model (baseline/random): pass --extend") in err
    store = Store(db)
    assert progress(store, run)["answered"] == 24  # nothing was asked

    assert main(["batch", str(preset), "-m", "baseline/random", "--db", db, "--no-progress", "--extend"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"this batch adds 1 model (baseline/random) to run '{run}' (24 answers done)")
    assert "36 answers planned, 24 already done, 12 new" in out[1]  # the whole run: every model ever asked
    p = progress(store, run)
    assert p["answered"] == p["planned"] == 36 and p["complete"]
    models = [m["name"] for m in store.get_run(run).settings["models"]]
    assert models == ["baseline/first", "baseline/last", "baseline/random"]
    # the same command again (or a subset of the models) adds nothing: it just completes the run, no --extend
    assert main(["batch", str(preset), "-m", "baseline/first", "--db", db, "--no-progress"]) == 0
    assert "36 answers planned, 36 already done, 0 new" in capsys.readouterr().out


def test_settings_that_change_what_answers_mean_need_another_run(preset: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    assert main(["batch", str(preset), "-m", "baseline/first", "--db", db, "--run", "r", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["batch", str(preset), "-m", "baseline/first", "--db", db, "--run", "r", "--prompt", "free",
                 "--extend", "--no-progress"]) == 1
    assert "run 'r' cannot take this batch: it was asked with prompt default, not 'free'" in capsys.readouterr().err


def test_a_cancelled_extension_is_interrupted_and_resume_completes_it(preset: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # the baselines answer at once: with answers written (and counted) a moment later in groups, the whole extension
    # would be answered before the third counted; written as they come, the cancel below comes mid-way
    monkeypatch.setattr("probe_ui.runner.execute.BATCH_LINGER_S", 0.0)
    store = Store(tmp_path / "s.db")
    p = load_preset(str(preset))
    run_batch(store, [p], ["baseline/first"], BatchOptions(progress=False))
    run = "p-seed0"
    change = batch_change(store, [p], ["baseline/random", "baseline/last"])
    assert change.adds and change.words() == ("adds 2 models (baseline/random, baseline/last) to run 'p-seed0' "
                                              "(12 answers done)")
    with pytest.raises(RunExtensionError, match="already holds baseline/first"):
        run_batch(store, [p], ["baseline/random", "baseline/last"], BatchOptions(progress=False))
    stop = threading.Event()

    def cancel_soon(done: int, _total: int, result) -> None:
        if result.answered >= 3:
            stop.set()

    part = run_batch(store, [p], ["baseline/random", "baseline/last"], BatchOptions(progress=False, extend=True),
                     cancel=stop, on_progress=cancel_soon)
    assert part.cancelled and part.change is not None and part.change.adds
    cut = progress(store, run)
    # never "complete" against the first batch's plan of 12: the whole plan (36), or unknown while unplanned
    assert not cut["complete"] and cut["planned"] in (36, None) and cut["answered"] < 36
    rest = resume_batch(store, run, BatchOptions(progress=False))
    assert rest.planned == 36 and rest.skipped == cut["answered"]
    done = progress(store, run)
    assert done["complete"] and done["answered"] == done["planned"] == 36
    df = store.answers_frame(store.get_run(run).id)
    assert sorted(df["model"].unique()) == ["baseline/first", "baseline/last", "baseline/random"]
    assert not df.duplicated(["variant_id", "model"]).any()
