"""Start-up and streaming: how soon `probe-ui batch` asks, how fast a finished batch re-runs, how close a batch comes
to the ideal time, and how much memory a 100k-item preset needs.

Runs the real command (`python -m probe_ui batch`, a fresh process each time) against the loopback
OpenAI-compatible test server (tests/fake_openai.py), with a catalogue entry pointing at it. Prints four figures
and their goals (issue 15 and issue 14 F7):

1. first request: seconds from starting `probe-ui batch` on a 200-item preset (13 bundled images reused) to the
   server receiving the first request. Goal: <= 1.0 s (issue 48; issue 15 had 1.5 s).
2. re-run: wall seconds of the same command once the batch is finished (0 calls). Goal: < 3 s.
3. full batch: wall seconds of that 200-item batch at concurrency 16 against a 0.5 s server, against the ideal
   N x L / C. Goal: <= ideal + 3 s. Beside it, the batch's CPU per call (CPU seconds / N; issue 50's goal: <= 3 ms
   at N=2000, C=64) and the CPU of `batch --dry-run` on the same preset, as a share of the batch's (goal <= 20 %).
4. 100k items: peak resident memory of `probe-ui batch` on a 100k-item preset (~10 MB of YAML, the same 13 images)
   against the server with no latency. Goal: <= 2 GB.

    python perf/startup.py [--items 200] [--latency 0.5] [--concurrency 16] [--big 100000] [--repeat 3]
    python perf/startup.py --big 0        # skip the 100k run (it takes several minutes)

The commands run with Python's bytecode cache, as an installed probe-ui does (``PYTHONDONTWRITEBYTECODE`` is
removed from their environment), after one unmeasured batch that compiles every module they import.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_openai import FakeOpenAIServer, RecordedRequest  # noqa: E402

from probe_ui.files.resources import ASSETS_DIR  # noqa: E402


class CountingServer(FakeOpenAIServer):
    """The loopback server, keeping only a count and the first request's time (a 100k-request run would otherwise
    hold every request body, images included, in this process)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = 0
        self.first_at: float | None = None
        self._count_lock = threading.Lock()

    def _record(self, req: RecordedRequest) -> tuple[None, None]:
        with self._count_lock:
            self.count += 1
            if self.first_at is None:
                self.first_at = req.received_at
        return None, None

    def _log(self, req: RecordedRequest) -> None:
        pass

    def restart_count(self) -> None:
        with self._count_lock:
            self.count, self.first_at = 0, None


def write_preset(path: Path, n: int) -> Path:
    """n choice items over the 13 bundled images, one flow-style line each (~100 bytes an item)."""
    images = sorted(p.name for p in ASSETS_DIR.glob("*.png"))
    with path.open("w", encoding="utf-8") as f:
        f.write(f"name: {path.stem}\nitems:\n")
        for i in range(n):
            f.write(f"- {{id: q{i}, image: {images[i % len(images)]}, question: 'What is seen in image {i}?', "
                    "options: [mass, no mass, effusion], answer: A}\n")
    return path


def batch_rss(python: str, preset: Path, db: Path, env: dict[str, str], *extra: str
              ) -> tuple[float, float, int, str]:
    """Run `probe-ui batch` once (with ``extra`` arguments, e.g. ``--dry-run``): (wall seconds, CPU seconds, peak
    resident bytes, stdout), the last two from the kernel's accounting of that process."""
    args = [python, "-m", "probe_ui", "batch", str(preset), "-m", "loop", "--db", str(db), "--no-progress", *extra]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, stdout=out, stderr=err, env=env, cwd=db.parent)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"probe-ui batch failed ({proc.returncode}): {err.read().decode()[-2000:]}")
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, out.read().decode()


def loop_backend(folder: Path, server: CountingServer, concurrency: int) -> None:
    """The catalogue entry ``loop``: the loopback server as an OpenAI-compatible model."""
    (folder / "loop.yaml").write_text(f"name: loop\nprovider: openai\nmodel: gpt-4o\nbase_url: {server.base_url}\n"
                                      f"concurrency: {concurrency}\n", encoding="utf-8")


def startup_figures(args: argparse.Namespace, server: CountingServer, work: Path, env: dict[str, str]) -> list[str]:
    """Figures 1-3 (median of ``--repeat`` fresh runs, each followed by its re-run); returns the goals missed."""
    ideal = args.items * args.latency / args.concurrency
    server.latency_s = args.latency
    loop_backend(work / "backends", server, args.concurrency)
    preset = write_preset(work / f"bench{args.items}.yaml", args.items)
    firsts, walls, reruns, cpus, dry = [], [], [], [], []
    warm = work / "warm" / "probe-ui.db"  # one batch first: the modules compiled to bytecode, as once installed
    warm.parent.mkdir()
    batch_rss(args.python, write_preset(work / "warm.yaml", 2), warm, env)
    for r in range(args.repeat):
        db = work / f"run{r}" / "probe-ui.db"
        db.parent.mkdir()
        server.restart_count()
        wall, cpu, _, out = batch_rss(args.python, preset, db, env)
        t0 = time.monotonic() - wall
        if server.count != args.items or server.first_at is None:
            raise SystemExit(f"expected {args.items} requests, the server got {server.count}: {out}")
        firsts.append(server.first_at - t0)
        walls.append(wall)
        cpus.append(cpu)
        server.restart_count()
        rerun, rerun_cpu, _, out = batch_rss(args.python, preset, db, env)
        if server.count:
            raise SystemExit(f"the re-run asked {server.count} questions again: {out}")
        reruns.append(rerun)
        _, dry_cpu, _, _ = batch_rss(args.python, preset, work / f"run{r}" / "plan.db", env, "--dry-run")
        dry.append(dry_cpu)
        print(f"run {r + 1}: first request {firsts[-1]:.2f} s, full batch {wall:.2f} s (CPU {cpu:.2f} s), "
              f"re-run {rerun:.2f} s (CPU {rerun_cpu:.2f} s), --dry-run CPU {dry_cpu:.2f} s")
    first, full, again = (statistics.median(x) for x in (firsts, walls, reruns))
    print(f"\n{args.items} items (13 images), concurrency {args.concurrency}, {args.latency} s per answer; "
          f"median of {args.repeat}:")
    missed = []
    for label, value, goal in (("first request after start", first, 1.0), ("re-run of a finished batch", again, 3.0),
                               (f"full batch (ideal {ideal:.2f} s)", full, ideal + 3.0)):
        ok = value <= goal
        missed += [] if ok else [label]
        print(f"  {label:<34} {value:6.2f} s   goal <= {goal:.2f} s   {'ok' if ok else 'MISSED'}")
    batch_cpu, plan_cpu = statistics.median(cpus), statistics.median(dry)
    per_call = 1000 * batch_cpu / args.items
    print(f"  {'CPU per call (batch CPU / N)':<34} {per_call:6.2f} ms  (issue 50: <= 3 ms at N=2000, C=64)")
    share = plan_cpu / batch_cpu
    ok = share <= 0.2
    missed += [] if ok else ["--dry-run CPU"]
    print(f"  {'--dry-run CPU, share of the batch':<34} {plan_cpu:6.2f} s   {100 * share:.0f} % of {batch_cpu:.2f} s   "
          f"goal <= 20 %   {'ok' if ok else 'MISSED'}")
    return missed


def memory_figure(args: argparse.Namespace, server: CountingServer, work: Path, env: dict[str, str]) -> list[str]:
    """Figure 4: peak RSS of a batch of ``--big`` items against the server with no latency."""
    server.latency_s = 0.0
    loop_backend(work / "backends", server, 32)
    big = write_preset(work / f"big{args.big}.yaml", args.big)
    db = work / "big" / "probe-ui.db"
    db.parent.mkdir()
    server.restart_count()
    wall, cpu, rss, out = batch_rss(args.python, big, db, env)
    ok = rss <= 2 * 1024 ** 3 and server.count == args.big
    print(f"  {args.big:,} items ({big.stat().st_size / 1e6:.1f} MB of YAML): peak RSS {rss / 1024 ** 2:,.0f} MiB"
          f"   goal <= 2048 MiB   {'ok' if ok else 'MISSED'}   ({server.count:,} requests in {wall:.0f} s, "
          f"CPU {cpu:.0f} s)")
    return [] if ok else ["peak memory"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--latency", type=float, default=0.5, help="seconds per answer for the full-batch figure")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each small figure, the median reported (0: skip)")
    ap.add_argument("--big", type=int, default=100_000, help="items of the memory run (0: skip it)")
    ap.add_argument("--python", default=sys.executable,
                    help="the interpreter that runs probe-ui (e.g. .venv/bin/python of the README's base install, "
                         "without the dev extra; default: this one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, CountingServer() as server:
        work = Path(tmp)
        (work / "backends").mkdir()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"PROBE_UI_BACKENDS": str(work / "backends"), "PROBE_UI_DISCOVER": "0",
               "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
        missed = startup_figures(args, server, work, env) if args.repeat else []
        missed += memory_figure(args, server, work, env) if args.big else []
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
