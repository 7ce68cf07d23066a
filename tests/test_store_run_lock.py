"""One batch per run and shard at a time (issue 14, F9): two identical batches started at once on one store used
to both ask every cell (each call paid twice) and one crashed with ``IntegrityError: UNIQUE constraint failed``.
Now the second stops at once, in one line naming the batch that holds the run, and writes nothing; shards of one
run still run together; a dead holder's lock is gone with it; the cell insert race keeps the first finished row.

No test measures time: batches are held in place by a loopback server that answers only when told to."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from helpers import choice_item, require_module, stop, write_png, write_preset
from sqlalchemy import event

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import RunInUseError, Store, responses, runs, variants

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

N_ITEMS = 3
MODEL = "openai/fake-vlm"


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    for i in range(N_ITEMS):
        write_png(tmp_path / f"im{i}.png", seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i}.png", answer="B") for i in range(N_ITEMS)])


@pytest.fixture
def held_server(fake_openai: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The loopback server, answering only once ``release`` is set (``first`` is set by the first request);
    it lets go by itself when it receives more requests than the batch has cells (the second batch is asking them
    again: the defect), so that the code before the fix fails on its assertions rather than hanging."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    first, release = threading.Event(), threading.Event()

    def respond(_body: dict[str, Any]) -> str:
        first.set()
        if len(fake_openai.chat_requests) > N_ITEMS:
            release.set()
        release.wait(60)  # a safety net only: every test sets it
        return "The answer is (B)."

    fake_openai.responder = respond
    fake_openai.first, fake_openai.release = first, release
    try:
        yield fake_openai
    finally:
        release.set()


def _batch(db: Path, preset: Path, out: dict[str, Any], key: str) -> None:
    store = Store(db)  # each batch its own Store, as two processes would have
    try:
        out[key] = run_batch(store, [load_preset(str(preset))], [MODEL],
                             BatchOptions(run_name="same", progress=False))
    except BaseException as exc:  # noqa: BLE001 - examined by the test
        out[key] = exc
    finally:
        store.close()


def test_two_identical_batches_at_once_the_second_stops_and_nothing_is_paid_twice(
        tmp_path: Path, preset: Path, held_server: Any) -> None:
    db = tmp_path / "same.db"
    out: dict[str, Any] = {}
    first = threading.Thread(target=_batch, args=(db, preset, out, "first"))
    first.start()
    try:
        assert held_server.first.wait(60), "the first batch never asked anything"
        before = _rows(db)
        second = threading.Thread(target=_batch, args=(db, preset, out, "second"))
        second.start()
        second.join(120)
        assert not second.is_alive()
    finally:
        held_server.release.set()
        first.join(120)
    assert not isinstance(out["first"], BaseException), out["first"]
    assert out["first"].answered == N_ITEMS and out["first"].errors == 0
    err = out["second"]
    assert isinstance(err, RunInUseError), err
    text = str(err)
    assert "\n" not in text
    assert "run 'same' is in use by another probe-ui batch" in text
    assert f"pid {os.getpid()}" in text and socket.gethostname() in text and "since " in text
    assert "--run" in text
    assert len(held_server.chat_requests) == N_ITEMS  # every cell paid once
    after = _rows(db)
    assert after["responses"] == N_ITEMS and after["runs"] == before["runs"] == [("same",)]
    assert not list(tmp_path.glob("same.db.run-*.lock"))  # the holder removed its lock files


def _rows(db: Path) -> dict[str, Any]:
    store = Store(db)
    try:
        with store.engine.connect() as c:
            return {"runs": [tuple(r) for r in c.execute(sa.select(runs.c.name))],
                    "responses": store.count(responses)}
    finally:
        store.close()


def test_a_second_process_is_told_who_holds_the_run_and_a_killed_holder_frees_it(
        tmp_path: Path, preset: Path, held_server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "same.db"
    argv = ["batch", str(preset), "-m", MODEL, "--db", str(db), "--run", "same", "--no-progress"]
    holder = subprocess.Popen([sys.executable, "-m", "probe_ui", *argv], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert held_server.first.wait(120), "the first batch never asked anything"
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 1
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1, err
        assert lines[0].startswith("error: run 'same' is in use by another probe-ui batch")
        assert f"pid {holder.pid}" in lines[0] and socket.gethostname() in lines[0]
        assert "wait for it to finish, or use another --run" in lines[0]
        asked = len(held_server.chat_requests)
        assert asked <= N_ITEMS  # the refused batch asked nothing

        holder.send_signal(signal.SIGKILL)  # dies holding the run: the OS drops its lock
        holder.wait(60)
        held_server.release.set()
        code = main(argv)
        out = capsys.readouterr().out
        assert code == 0, out
        assert f"{N_ITEMS} answers planned" in out
    finally:
        held_server.release.set()
        stop(holder)
    store = Store(db)
    assert store.count(responses) == N_ITEMS and store.count(variants) == N_ITEMS


def test_shards_of_one_run_hold_it_together_and_refuse_their_doubles(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    a, b, c = Store(db), Store(db), Store(db)
    with a.run_lock("r", (1, 2)), b.run_lock("r", (2, 2)):  # two shards at once: fine
        with pytest.raises(RunInUseError, match=r"run 'r' \(shard 1/2\) is in use .*pid \d+"):
            with c.run_lock("r", (1, 2)):
                pass
        with pytest.raises(RunInUseError, match=r"run 'r' is in use by another probe-ui batch \(pid \d+.*shard"):
            with c.run_lock("r"):  # the whole run beside its shards
                pass
        with c.run_lock("other"):  # another run: free
            pass
    with c.run_lock("r"):
        with pytest.raises(RunInUseError, match=r"\(shard 2/2\) is in use .*the whole run"):
            with a.run_lock("r", (2, 2)):
                pass
    with a.run_lock("r", (1, 2)):  # all let go
        pass
    assert not list(tmp_path.glob("*.lock"))


def test_a_failed_batch_lets_go_of_its_run(tmp_path: Path, preset: Path) -> None:
    store = Store(tmp_path / "x.db")
    with pytest.raises(ZeroDivisionError):
        with store.run_lock("r"):
            1 / 0
    with Store(tmp_path / "x.db").run_lock("r"):
        pass


def test_live_probes_are_not_blocked_by_a_batch_of_their_run(tmp_path: Path, preset: Path) -> None:
    from probe_ui.live import run_live
    from probe_ui.presets.suites import expand

    variants_ = expand(load_preset(str(preset)), 0, []).variants
    store = Store(tmp_path / "x.db")
    with Store(tmp_path / "x.db").run_lock("live-run"):
        states = list(run_live(store, variants_, ["baseline/first"], seed=0, run_name="live-run"))
    assert states and store.count(responses) == N_ITEMS


def test_the_cell_insert_race_keeps_the_finished_row(tmp_path: Path) -> None:
    """Two writers store the same cell at the same moment (each found it empty): the second's insert hits the
    unique key. The finished answer there is kept; an error row there is replaced by a finished answer."""
    db = tmp_path / "race.db"
    first, second = Store(db), Store(db)
    run = first.ensure_run("r", 0, {})
    from probe_ui.presets.suites import expand

    for i in range(2):
        write_png(tmp_path / f"im{i}.png", seed=i)
    p = write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i}.png") for i in range(2)])
    vs = expand(load_preset(str(p)), 0, []).variants
    first.add_variants(run.id, vs)

    def row(v: Any, text: str | None, error: str | None = None) -> dict[str, Any]:
        return {"run_id": run.id, "variant_id": v.id, "model": "m", "prompt": "p", "sample": 0, "request_hash": "h",
                "messages": [], "settings": {}, "raw_text": text, "error": error}

    pending: list[dict[str, Any]] = []

    def before(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
        """Let ``first`` store the pending row just before ``second``'s insert reaches the database."""
        if pending and statement.lstrip().upper().startswith("INSERT INTO RESPONSES"):
            first.save_response(pending.pop())

    event.listen(second.engine, "before_cursor_execute", before)

    def race(with_row: dict[str, Any]) -> None:
        pending.append(with_row)

    race(row(vs[0], "first answer"))
    second.save_response(row(vs[0], "second answer"))
    race(row(vs[1], None, error="timeout"))
    second.save_response(row(vs[1], "second answer"))
    with first.engine.connect() as c:
        got = dict(c.execute(sa.select(responses.c.variant_id, responses.c.raw_text)).all())
    assert got == {vs[0].id: "first answer", vs[1].id: "second answer"}
    with pytest.raises(sa.exc.IntegrityError):  # another integrity error (no such variant) is not the race
        second.save_response(dict(row(vs[0], "x"), variant_id="nope", sample=5))


def test_postgres_shards_share_a_run_and_doubles_are_refused(postgres_db: str) -> None:
    require_module("psycopg", 'pip install -e ".[dev]"')
    a, b, c = Store(postgres_db), Store(postgres_db), Store(postgres_db)
    try:
        with a.run_lock("r", (1, 2)), b.run_lock("r", (2, 2)):
            with pytest.raises(RunInUseError, match=rf"run 'r' \(shard 1/2\) is in use .*pid {os.getpid()}"):
                with c.run_lock("r", (1, 2)):
                    pass
            with pytest.raises(RunInUseError, match=r"run 'r' is in use"):
                with c.run_lock("r"):
                    pass
        with c.run_lock("r"):
            with pytest.raises(RunInUseError, match=r"the whole run"):
                with a.run_lock("r", (1, 2)):
                    pass
        with a.run_lock("r"):  # all let go, and the pool holds no session that kept a lock
            pass
    finally:
        for s in (a, b, c):
            s.close()


def test_a_postgres_run_is_free_the_moment_its_lock_ends(postgres_db: str) -> None:
    """A batch that ends lets go of its run at once: the next batch (here, another store, straight after) never
    finds the run still held by a session that is only closing. CI once saw 'in use' right after a block ended,
    when the locks went only with the closed session's backend (a race this machine does not reproduce on demand:
    40 rounds give it 40 chances)."""
    require_module("psycopg", 'pip install -e ".[dev]"')
    a, b = Store(postgres_db), Store(postgres_db)
    try:
        for i in range(40):
            with a.run_lock(f"r{i}", (1, 2)):
                with pytest.raises(RunInUseError):
                    with b.run_lock(f"r{i}"):
                        pass
            with b.run_lock(f"r{i}"):  # at once: no retry, no wait
                pass
    finally:
        a.engine.dispose()
        b.engine.dispose()
