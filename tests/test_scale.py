"""Batch at scale: a shared PostgreSQL store, shards across processes, and resuming after kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import sqlalchemy as sa
from helpers import stop, write_png, write_preset

from probe_ui.cli import main
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchError, BatchOptions, run_batch
from probe_ui.scoring import jsonable, score_run
from probe_ui.store import Store, responses

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

MODELS = ["baseline/first", "baseline/random", "baseline/last"]


def comparable(score: dict) -> dict:
    """A score report without what names the database or run."""
    out = json.loads(json.dumps(jsonable(score)))
    out.pop("run", None)
    return out


def test_postgresql_and_sqlite_score_the_same(tmp_path, postgres_db):
    presets = [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml"),
               load_preset(PRESETS_DIR / "probmed_adversarial.yaml")]
    scores, frames = [], []
    for location in (str(tmp_path / "lite.db"), postgres_db):
        store = Store(location, images_dir=tmp_path / "pg-images-unused" if "://" in location else None)
        result = run_batch(store, presets, MODELS,
                           BatchOptions(suites=["rotations"], seed=7, progress=False, run_name="same"))
        assert result.errors == 0 and result.answered == result.planned > 100
        scores.append(comparable(score_run(store, "same")))
        df = store.answers_frame(store.get_run("same").id, full=True)
        same = ["model", "variant_id", "item_id", "condition", "parsed", "correct", "invalid", "answer_label",
                "options", "category", "attributes", "raw_text"]  # not latency or ids: those differ run to run
        frames.append(df[same].sort_values(["model", "variant_id"]).reset_index(drop=True))
        store.close()
    assert scores[0] == scores[1]
    assert frames[0].astype(str).equals(frames[1].astype(str))
    pg = Store(postgres_db)
    assert pg.images_in_db and not (tmp_path / "pg-images-unused").exists()  # images live in the shared database
    with pg.engine.connect() as c:  # every stored image can be read back, from the database
        ids = [r[0] for r in c.execute(sa.text("select id from images"))]
    assert ids and all(pg.get_image(i).id == i for i in ids)


def test_shards_on_three_processes_share_one_postgresql_batch(tmp_path, postgres_db, monkeypatch, capsys):
    preset = str(PRESETS_DIR / "mediconfusion_pairs.yaml")
    env = {"PROBE_UI_DISCOVER": "0"}
    procs = [subprocess.Popen([sys.executable, "-m", "probe_ui", "batch", preset, *sum((["-m", m] for m in MODELS), []),
                               "--suite", "circular", "--db", postgres_db, "--shard", f"{i}/3", "--no-progress"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
                              cwd=tmp_path) for i in (1, 2, 3)]
    try:
        outs = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            stop(p)
    assert all(p.returncode == 0 for p in procs), outs
    planned = [int(o[0].split(" answers planned")[0].rsplit(" ", 1)[-1]) for o in outs]
    assert all(p > 0 for p in planned)  # every shard had work
    store = Store(postgres_db)
    run = store.get_run("mediconfusion_pairs+circular-seed0")
    df = store.answers_frame(run.id)
    assert len(df) == sum(planned) == 16 * 2 * 3  # 16 items x (original + 1 shift) x 3 models, each exactly once
    assert not df.duplicated(["variant_id", "model", "prompt", "sample"]).any()
    assert {r["run"]: r for r in store.run_progress()}[run.name]["complete"]
    # the same command again, in this process (what it prints is checked, not a process of its own)
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["batch", preset, *sum((["-m", m] for m in MODELS), []), "--suite", "circular", "--db", postgres_db,
                 "--no-progress"]) == 0
    again = capsys.readouterr().out
    assert "96 already done, 0 new" in again
    assert "***" not in again or "@" not in postgres_db


def test_bad_shard_and_bad_database_url(tmp_path, capsys):
    """In this process (``main``, as the command runs it): what is checked is the exit status and the one line, not
    a process of its own."""
    preset = str(PRESETS_DIR / "mediconfusion_pairs.yaml")
    with pytest.raises(SystemExit) as bad:
        main(["batch", preset, "-m", "baseline/first", "--shard", "4/3", "--db", str(tmp_path / "x.db")])
    assert bad.value.code == 2 and "1 <= I <= N" in capsys.readouterr().err
    with pytest.raises(BatchError, match="shard"):
        run_batch(Store(tmp_path / "y.db"), [load_preset(preset)], ["baseline/first"],
                  BatchOptions(shard=(0, 2), progress=False))
    assert main(["score", "--db", "postgresql://probe:s3cret-pw@127.0.0.1:1/none"]) == 1
    out, err = capsys.readouterr()
    assert "s3cret-pw" not in err + out and "cannot open" in err


def test_kill_9_mid_batch_then_resume_gives_every_answer_once(tmp_path, fake_openai):
    """500 variants against the loopback server; kill -9 part-way; the same command again finishes the rest."""
    fake_openai.latency_s = 0.02
    images = tmp_path / "imgs"
    images.mkdir()
    items = [{"id": f"q{i}", "image": write_png(images / f"{i}.png", (24, 24), seed=i).name,
              "question": f"Which finding is in image {i}?", "options": ["mass", "no mass"], "answer": "mass"}
             for i in range(125)]
    preset = write_preset(images / "big.yaml", items)  # 125 items x (original + 3 rotations) = 500 variants
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "loop.yaml").write_text(f"name: loop\nprovider: openai\nmodel: gpt-4o\n"
                                        f"base_url: {fake_openai.base_url}\n"
                                        "concurrency: 4\n", encoding="utf-8")
    db = tmp_path / "data" / "probe-ui.db"
    env = {**os.environ, "PROBE_UI_BACKENDS": str(backends), "PROBE_UI_DISCOVER": "0", "NO_PROXY": "127.0.0.1"}
    args = [sys.executable, "-m", "probe_ui", "batch", str(preset), "-m", "loop", "--suite", "rotations", "--db",
            str(db), "--run", "big", "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        store = None
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"the batch ended before it could be killed: {proc.stderr.read()[-2000:]!r}")
            assert time.monotonic() < deadline, "the batch did not get far enough in time"
            if db.exists():
                store = store or Store(db)
                try:
                    if store.count(responses) >= 150:
                        break
                except sa.exc.OperationalError:
                    pass
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        stop(proc)
    killed_at = store.count(responses)
    assert 150 <= killed_at < 500
    sent_before = len(fake_openai.chat_requests)
    resumed = subprocess.run(args, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{killed_at} already done" in resumed.stdout
    df = store.answers_frame(store.get_run("big").id)
    assert len(df) == 500 and df.error.isna().all()
    assert not df.duplicated(["variant_id", "model", "prompt", "sample"]).any()
    # nothing finished was asked again: the resumed process sent only what was missing (plus nothing else)
    assert len(fake_openai.chat_requests) - sent_before == 500 - killed_at


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path, postgres_db):
    """Shards and app instances create the tables at the same moment: none of them fails."""
    for location in (str(tmp_path / "race.db"), postgres_db):
        code = f"from probe_ui.store import Store; Store({location!r}).ensure_run('r', 0, {{}})"
        procs = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True) for _ in range(8)]
        try:
            errors = [p.communicate(timeout=120)[1] for p in procs]
        finally:
            for p in procs:
                stop(p)
        assert [p.returncode for p in procs] == [0] * 8, [e[-300:] for e in errors if e]
        assert [r.name for r in Store(location).list_runs()] == ["r"]
