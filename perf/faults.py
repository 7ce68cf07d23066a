"""Fault runs: nothing finished is lost, nothing runs twice.

Three scenarios against the loopback OpenAI-compatible test server (tests/fake_openai.py), each printing
``expected``, ``stored``, ``duplicates`` and ``asked again after finishing`` and exiting 1 if any is off:

- ``faults``: a 500-variant batch where 10 % of model calls get a fault of a random kind (429 with Retry-After,
  500, 503, 529, malformed JSON, connection closed, connection reset, an answer slower than the timeout); the same
  batch is run again until nothing is left to do (it retries the failed cells only).
- ``kill9``: the same batch as a ``probe-ui batch`` process, killed with SIGKILL three times at random points and
  resumed each time by running the same command.
- ``app``: the app as a process; a live probe asks two baselines, a fast and a slow model; the app is killed with
  SIGKILL after the fast answers are stored and before the slow one is; restarted, the same probe runs again.

    python perf/faults.py [--scenario faults|kill9|app|all] [--variants 500] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_openai import FakeOpenAIServer  # noqa: E402
from helpers import write_png, write_preset  # noqa: E402

# Late on purpose: kept with the imports that need the sys.path insert above, after it.
from probe_ui.runner import BatchOptions  # noqa: E402

FAULT_KINDS: list[dict[str, Any]] = [
    dict(status=429, retry_after=0.05), dict(status=500), dict(status=503), dict(status=529),
    dict(malformed=True), dict(close=True), dict(reset=True), dict(delay_s=3.0),
]


class CountingServer(FakeOpenAIServer):
    """The test server; every request gets a call number when it arrives, every answer carries its number
    (``A #17``), and the server remembers which request content (cell) each call asked for, so a stored answer
    tells exactly which call produced it and whether the cell was asked again later."""

    def __init__(self, *, fault_rate: float = 0.0, seed: int = 0, **kw: Any) -> None:
        super().__init__(responder=self._numbered, **kw)
        self.fault_rate = fault_rate
        self.rng = random.Random(seed)
        self.call_cell: dict[int, str] = {}
        self.cell_calls: dict[str, list[int]] = {}
        self.faulted = 0
        self._call = threading.local()

    def start(self) -> CountingServer:
        super().start()
        assert self._httpd is not None
        self._httpd.handle_error = lambda *a: None  # a client killed mid-request is expected here: no traceback
        return self

    def _numbered(self, body: Any) -> str:
        return f"A #{self._call.n}"

    def _record(self, req: Any) -> Any:
        chat = req.path.endswith("/chat/completions")
        if chat and self.fault_rate and self.rng.random() < self.fault_rate:
            self.fail(**self.rng.choice(FAULT_KINDS))
        fault, answer = super()._record(req)
        if chat:
            with self._lock:
                n = self._call.n = len(self.call_cell) + 1
                cell = cell_of(req.body)
                self.call_cell[n] = cell
                self.cell_calls.setdefault(cell, []).append(n)
                self.faulted += fault is not None
        return fault, answer

    def asked_after_stored(self, raw_texts: list[str]) -> int:
        """Stored answers whose cell the server was asked again after answering the stored call."""
        import re

        again = 0
        for text in raw_texts:
            m = re.search(r"#(\d+)", text or "")
            if m and int(m.group(1)) in self.call_cell:
                n = int(m.group(1))
                again += any(k > n for k in self.cell_calls[self.call_cell[n]])
        return again


def cell_of(body: Any) -> str:
    """A request's identity: its model and messages (the same cell asks the same thing)."""
    if not isinstance(body, dict):
        return "?"
    return hashlib.sha256(json.dumps([body.get("model"), body.get("messages")], sort_keys=True).encode()).hexdigest()


def big_preset(folder: Path, variants: int) -> Path:
    """``variants`` / 4 items, each asked as the original and three rotations (the rotations suite)."""
    folder.mkdir(parents=True, exist_ok=True)
    items = [{"id": f"q{i}", "image": write_png(folder / f"{i}.png", (24, 24), seed=i).name,
              "question": f"Which finding is in image {i}?", "options": ["mass", "no mass"], "answer": "mass"}
             for i in range(variants // 4)]
    return write_preset(folder / "big.yaml", items, suites=["rotations"])


def backend(folder: Path, name: str, server: FakeOpenAIServer, **extra: Any) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"name: {name}", "provider: openai", "model: gpt-4o", f"base_url: {server.base_url}"]
    lines += [f"{k}: {json.dumps(v)}" for k, v in extra.items()]
    (folder / f"{name}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def check(name: str, expected: int, store_path: Path, run: str, server: CountingServer | None,
          extra: dict[str, Any] | None = None) -> bool:
    """Print the scenario's counts; True when every expected answer is stored once and none was asked twice."""
    import sqlalchemy as sa

    from probe_ui.store import Store

    store = Store(store_path)
    df = store.answers_frame(store.get_run(run).id)
    finished = int(df.error.isna().sum())
    dups = int(df.duplicated(["variant_id", "model", "prompt", "sample"]).sum())
    with store.engine.connect() as c:  # the unique key makes a duplicate row impossible; count anyway
        raw_dups = c.execute(sa.text("select count(*) from (select run_id, variant_id, model, prompt, sample "
                                     "from responses group by 1,2,3,4,5 having count(*) > 1) t")).scalar()
    twice = server.asked_after_stored(store.answers_frame(store.get_run(run).id, full=True).raw_text.tolist()) \
        if server else 0
    ok = finished == expected and len(df) == expected and dups == 0 and raw_dups == 0 and twice == 0
    parts = [f"expected = {expected}", f"stored = {finished}", f"duplicates = {dups + int(raw_dups)}",
             f"asked again after finishing = {twice}"]
    parts += [f"{k} = {v}" for k, v in (extra or {}).items()]
    print(f"{name:7s} {'PASS' if ok else 'FAIL'}  " + ", ".join(parts), flush=True)
    store.close()
    return ok


def scenario_faults(tmp: Path, variants: int, seed: int) -> bool:
    from probe_ui.presets import load_preset
    from probe_ui.providers.base import ModelConfig
    from probe_ui.runner import run_batch
    from probe_ui.store import Store

    preset = load_preset(big_preset(tmp / "faults", variants))
    with CountingServer(fault_rate=0.10, seed=seed, latency_s=0.01) as server:
        model = ModelConfig(name="flaky", provider="openai", model="gpt-4o", base_url=server.base_url,
                            generation={"timeout_s": 1.0}, options={"max_retries": 1}, concurrency=16)
        store = Store(tmp / "faults.db")
        passes, errors = [], None
        start = time.monotonic()
        while errors != 0 and len(passes) < 6:
            r = run_batch(store, [preset], ["flaky"], BatchOptions(run_name="faults", progress=False),
                          extra_models={"flaky": model})
            errors = r.errors
            passes.append(f"{r.answered}+{r.errors}err")
        faulted = server.faulted
        return check("faults", variants, tmp / "faults.db", "faults", server,
                     {"passes": " / ".join(passes), "calls": len(server.chat_requests), "faulted calls": faulted,
                      "wall": f"{time.monotonic() - start:.1f} s"})


def scenario_kill9(tmp: Path, variants: int, seed: int) -> bool:
    rng = random.Random(seed)
    preset = big_preset(tmp / "kill9", variants)
    db = tmp / "kill9.db"
    with CountingServer(latency_s=0.03) as server:
        backend(tmp / "be-kill9", "loop", server, concurrency=8)
        env = {**os.environ, "PROBE_UI_BACKENDS": str(tmp / "be-kill9"), "PROBE_UI_DISCOVER": "0",
               "NO_PROXY": "127.0.0.1,localhost"}
        cmd = [sys.executable, "-m", "probe_ui", "batch", str(preset), "-m", "loop", "--db", str(db), "--run",
               "kill9", "--no-progress"]
        kills = []
        for _ in range(3):
            target = len(server.call_cell) + rng.randint(variants // 10, variants // 5)
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while len(server.call_cell) < target and proc.poll() is None:
                time.sleep(0.005)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills.append(len(server.call_cell))
        final = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        if final.returncode != 0:
            print(final.stderr[-2000:])
        in_flight_lost = len(server.chat_requests) - variants
        return check("kill9", variants, db, "kill9", server,
                     {"killed after (answers sent)": kills, "re-asked in flight at a kill": in_flight_lost})


def scenario_app(tmp: Path, seed: int) -> bool:
    from app_server import free_port
    from gradio_client import Client

    with CountingServer(latency_s=0.05) as fast, CountingServer(latency_s=20.0) as slow:
        backend(tmp / "be-app", "fast", fast)
        backend(tmp / "be-app", "slow", slow, generation={"timeout_s": 60})
        env = {**os.environ, "PROBE_UI_BACKENDS": str(tmp / "be-app"), "PROBE_UI_DISCOVER": "0",
               "GRADIO_ANALYTICS_ENABLED": "False", "NO_PROXY": "127.0.0.1,localhost"}
        db = tmp / "app" / "probe-ui.db"
        models = ["baseline/first", "baseline/random", "fast", "slow"]
        steps = {"headers": ["variant", "perturbation", "parameters"], "data": [[1, "rotate", '{"angle": 180}']]}
        probe = ("Which modality?", "choice", "CT\nMRI", "CT", "", steps, seed, "(none)", True, "auto (per kind)",
                 models, "")
        expected = 2 * len(models)

        def start() -> tuple[subprocess.Popen, Client]:
            port = free_port()
            proc = subprocess.Popen([sys.executable, "-m", "probe_ui", "--port", str(port), "--db", str(db)],
                                    env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            proc.stdout.readline()
            deadline = time.monotonic() + 120
            while True:
                try:
                    return proc, Client(f"http://127.0.0.1:{port}/", verbose=False)
                except Exception:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)

        def stored() -> list[dict[str, Any]]:
            from probe_ui.store import Store

            if not db.exists():
                return []
            s = Store(db)
            rows = [dict(r) for r in s.run_progress()]
            s.close()
            return rows

        proc, client = start()
        try:
            client.predict("mr_small.png", api_name="/use_bundled_image")
            job = client.submit(*probe, api_name="/run")
            deadline = time.monotonic() + 60
            while not (stored() and stored()[-1]["answered"] >= expected - 2):  # all but the slow model's two
                if time.monotonic() > deadline or job.done():
                    try:
                        job.result()
                        why = "the probe finished early"
                    except Exception as exc:  # noqa: BLE001 - reported, not handled
                        why = str(exc)
                    print(f"app     FAIL  the fast answers never arrived: {why}")
                    return False
                time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGKILL)  # the crash under test (or, on failure, clean-up)
            proc.wait()
        del job
        before = stored()[-1]
        fast_calls = len(fast.chat_requests)

        proc, client = start()
        try:
            client.predict("mr_small.png", api_name="/use_bundled_image")
            run = client.predict(*probe, api_name="/run")[0]
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
        after = {r["run"]: r for r in stored()}
        kept = after[before["run"]]["answered"] == before["answered"]
        ok = check("app", expected, db, run, None,
                   {"stored before the kill": f"{before['answered']} (still there: {'yes' if kept else 'NO'})",
                    "fast model asked again": len(fast.chat_requests) - fast_calls,
                    "slow model asked": f"{len(slow.chat_requests)} (once per variant before the kill, "
                                        "once after: it never finished before)"})
        return ok and kept and len(fast.chat_requests) == fast_calls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", choices=("faults", "kill9", "app", "all"), default="all")
    ap.add_argument("--variants", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.environ.setdefault("PROBE_UI_DISCOVER", "0")
    ok = True
    with tempfile.TemporaryDirectory(prefix="probe-ui-faults-") as d:
        tmp = Path(d)
        if args.scenario in ("faults", "all"):
            ok &= scenario_faults(tmp, args.variants, args.seed)
        if args.scenario in ("kill9", "all"):
            ok &= scenario_kill9(tmp, args.variants, args.seed)
        if args.scenario in ("app", "all"):
            ok &= scenario_app(tmp, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
