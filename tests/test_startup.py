"""Start-up and streaming: Ctrl+C stops the app whatever the parent did with SIGINT, each image file is loaded once
per run, a batch asks while it is still planning, and shipped presets work by name from any folder.

How fast this happens is measured by perf/startup.py (the tests check only what happens).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from app_server import free_port
from helpers import ctrl_c, stop, wait_for_page

from probe_ui import runner
from probe_ui.cli import main
from probe_ui.files.resources import ASSETS_DIR, PRESETS_DIR
from probe_ui.presets import load_preset, suites
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.runner import batch as runner_batch
from probe_ui.store import Store

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

IMAGES = sorted(p.name for p in ASSETS_DIR.glob("*.png"))


def big_preset(path: Path, n: int) -> Path:
    """n items over the bundled images, reused (the issue's 200 items on 13 images)."""
    lines = ["items:"] + [f"- {{id: q{i}, image: {IMAGES[i % len(IMAGES)]}, question: 'What is seen in image {i}?', "
                          "options: [mass, no mass], answer: A}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_ctrl_c_stops_the_app_started_with_sigint_ignored(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, PROBE_UI_DISCOVER="0", GRADIO_ANALYTICS_ENABLED="False", NO_PROXY="127.0.0.1")
    proc = subprocess.Popen([sys.executable, "-m", "probe_ui", "--port", str(port), "--db", "a.db"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))  # as `nohup` / `&` do
    try:
        wait_for_page(f"http://127.0.0.1:{port}/", proc)
        ctrl_c(proc, timeout=60)  # without the restored handler SIGINT is ignored and this times out
    finally:
        stop(proc)


#: a process that, after Ctrl+C, would never end on its own: a thread that is not a daemon and never returns
HANGS_AFTER_CTRL_C = """
import sys, threading, time
from probe_ui.app.serve import stop_on_ctrl_c
stop_on_ctrl_c(within_s=float(sys.argv[1]))
def never_ends():
    threading.Event().wait()
threading.Thread(target=never_ends, name="never-ends").start()
print("ready", flush=True)
try:
    time.sleep(120)
except KeyboardInterrupt:
    pass  # the main thread ends; the interpreter waits for the thread for ever
"""


def test_the_app_stops_after_ctrl_c_even_when_something_holds_it_up() -> None:
    """A user's Ctrl+C ends the app within the time it promises, and says what held it up."""
    proc = subprocess.Popen([sys.executable, "-c", HANGS_AFTER_CTRL_C, "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        out = proc.stdout.read()
    finally:
        stop(proc)
    assert "Ctrl+C again stops at once" in out
    assert "never_ends" in out  # the stack of the thread that held it up
    assert proc.returncode != 0


def test_a_second_ctrl_c_stops_the_app_at_once() -> None:
    proc = subprocess.Popen([sys.executable, "-c", HANGS_AFTER_CTRL_C, "600"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        proc.send_signal(signal.SIGINT)
        assert "stopping" in proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        stop(proc)
    assert proc.returncode == 130


def test_each_image_file_is_loaded_once_per_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[str] = []
    real = suites._load

    def counting(path, **options):  # type: ignore[no-untyped-def]
        loads.append(Path(path).name)
        return real(path, **options)

    monkeypatch.setattr(suites, "_load", counting)
    preset = load_preset(big_preset(tmp_path / "p200.yaml", 200))
    store = Store(tmp_path / "x.db")
    result = run_batch(store, [preset], ["baseline/first"], BatchOptions(progress=False))
    assert result.answered == result.planned == 200
    assert sorted(loads) == IMAGES  # 13 files for 200 items: each read (decoded, hashed) once
    ex = suites.expand(preset, 0, files=suites.ImageFiles())
    by_file: dict[str, set[int]] = {}
    for item, v in zip(preset.items, ex.variants):
        by_file.setdefault(item.images[0].path, set()).add(id(v.images[0]))
    assert all(len(objs) == 1 for objs in by_file.values())  # the items share one image object per file
    # the same again asks nothing and reads the files once more (a new run of the command)
    again = run_batch(store, [preset], ["baseline/first"], BatchOptions(progress=False))
    assert (again.skipped, again.answered) == (200, 0)


def test_a_batch_asks_while_it_is_still_planning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner stops after its first variants until an answer is stored: a batch that planned everything
    before asking would wait here for ever (the 30 s is a guard, not a limit)."""
    answered = threading.Event()
    waited: list[bool] = []
    real = runner_batch.stream_variants

    def slow_plan(*args, **kwargs):  # type: ignore[no-untyped-def]
        for n, x in enumerate(real(*args, **kwargs)):
            if n == 2:
                waited.append(answered.wait(30))
            yield x

    monkeypatch.setattr(runner_batch, "stream_variants", slow_plan)
    preset = load_preset(big_preset(tmp_path / "p.yaml", 20))
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int, result: runner.BatchResult) -> None:
        seen.append((done, total))
        if result.answered:
            answered.set()

    result = run_batch(Store(tmp_path / "x.db"), [preset], ["baseline/first", "baseline/last"],
                       BatchOptions(progress=False), on_progress=progress)
    assert waited == [True] and result.answered == result.planned == 40
    assert any(0 < done and total < 40 for done, total in seen)  # answers came in before the plan was complete
    assert seen[-1] == (40, 40)
    assert Store(tmp_path / "x.db").run_progress()[0]["planned"] == 40


def test_a_failing_plan_stops_the_batch_with_its_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = runner_batch.stream_variants

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        for n, x in enumerate(real(*args, **kwargs)):
            if n == 5:
                raise RuntimeError("disk full")
            yield x

    monkeypatch.setattr(runner_batch, "stream_variants", broken)
    store = Store(tmp_path / "x.db")
    with pytest.raises(RuntimeError, match="disk full"):
        run_batch(store, [load_preset(big_preset(tmp_path / "p.yaml", 20))], ["baseline/first"],
                  BatchOptions(progress=False))
    df = store.answers_frame(store.get_run().id)
    assert len(df) <= 5 and df.error.isna().all()  # what was asked before the failure is stored; nothing after


def test_shipped_presets_by_name_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    assert main(["presets", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))
    assert all(r["items"] > 0 and r["description"] for r in rows)
    assert main(["presets"]) == 0
    assert "mediconfusion_pairs" in capsys.readouterr().out
    for spec in ("medvh_nota", "medvh_nota.yaml", "presets/medvh_nota.yaml"):
        assert load_preset(spec).path == str(PRESETS_DIR / "medvh_nota.yaml")
    assert main(["batch", "medblink_orientation", "-m", "baseline/first", "--db", "d/x.db", "--no-progress"]) == 0
    assert "0 errors, 0 items not loaded" in capsys.readouterr().out
    (tmp_path / "medvh_nota.yaml").write_text("items: [{id: mine, question: q, answer: 'yes'}]\n", encoding="utf-8")
    assert load_preset("medvh_nota.yaml").path == "medvh_nota.yaml"  # a file of that name here wins
    assert main(["batch", "no_such_preset", "-m", "baseline/first", "--db", "d/x.db"]) == 1
    assert "shipped presets, usable by name from any folder: medblink_depth" in capsys.readouterr().err
