"""Many users, one app: light actions stay quick while every session runs a live probe.

Starts the app (``probe-ui``, in its own process, with a users file: one user per session) and the loopback
OpenAI-compatible test server answering after 0.5 s. Then N sessions (``gradio_client``, signed in, each as its
own user; they arrive over ``--ramp`` seconds, as a room does, then all work at once), each: connects, adds its own
two endpoints (its own key) and, for ``--rounds`` rounds, starts a
live probe of 8 answers (4 variants x 2 models, a question of its own so that no answer comes from the cache) and,
while its probe runs, does the light actions a person does, one after the other: load the page, list the models,
pick an image, preview the variants; then waits for its answers and thinks for a second. Every action and every
probe (from Run to its last answer) is timed; a newcomer connects at the peak. The clients share one TLS context
(``tests/app_server.api_client``): gradio_client otherwise builds one per HTTP request, 86 of the ~100 ms of CPU a
call cost the clients, which run on the app's own cores here (in a room, each on its own machine).

Goals (issue 23), at every N: light actions p95 < 3 s; no call times out at gradio_client's default timeout
(20 s for a connection); every answer stored once (nothing lost, nothing twice). Prints p50 / p95 per action and
exits 1 when a goal is missed.

    python perf/many_users.py [--sessions 20 50] [--rounds 2] [--latency 0.5] [--ramp 10]
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
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"  # the clients too: no telemetry thread per session

import httpx  # noqa: E402
from app_server import api_client, free_port  # noqa: E402
from fake_openai import FakeOpenAIServer  # noqa: E402

STEPS0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}
LIGHT = ("connect", "page load", "model list", "pick image", "preview")
GOAL_P95_S = 3.0
ANSWERS = 8  # 4 variants (original + 3 rotations) x 2 models


def serve_model(latency: float, conn: Any) -> None:
    """The loopback OpenAI-compatible model server, in a process of its own (the clients' work must not delay
    its answers), until its parent ends it; with a listen backlog for hundreds of calls at once (the standard
    library's 5 drops connections when hundreds arrive together, and each dropped one waits a second)."""
    from http.server import ThreadingHTTPServer

    ThreadingHTTPServer.request_queue_size = 1024
    with FakeOpenAIServer(answer="A", latency_s=latency) as server:
        conn.send(server.base_url)
        threading.Event().wait()


def start_model_server(latency: float) -> tuple[Any, str]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=serve_model, args=(latency, child), daemon=True)
    proc.start()
    return proc, parent.recv()


def start_app(folder: Path, users: int, *, login: bool = True, source: str | None = None
              ) -> tuple[subprocess.Popen[str], str]:
    """The app in its own process, with signed-in users ``user0`` ... (password ``password-<i>``) or without a
    login; ``source``: run the app from that source tree instead (an older checkout, to compare)."""
    login_args: list[str] = []
    if login:
        from probe_ui.security.users import Account, hash_password, write_users

        accounts = {f"user{i}": Account(f"user{i}", "prober", hash_password(f"password-{i}"))
                    for i in range(users + 1)}
        write_users(folder / "users", accounts)
        login_args = ["--auth-file", str(folder / "users")]
    port = free_port()
    env = dict(os.environ, PROBE_UI_DISCOVER="0", GRADIO_ANALYTICS_ENABLED="False", NO_PROXY="127.0.0.1,localhost",
               no_proxy="127.0.0.1,localhost")
    if source:
        env["PYTHONPATH"] = os.pathsep.join([source, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    log = (folder / "app.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "probe_ui", "--port", str(port), "--db", str(folder / "b.db"),
                             *login_args], cwd=folder, env=env, text=True, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 300  # a busy shared machine imports Gradio slowly
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2, trust_env=False).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"the app did not start:\n{(folder / 'app.log').read_text()[-3000:]}")
        time.sleep(0.3)
    proc.kill()
    raise SystemExit("the app did not answer within 300 s")


class Session:
    """One person: a signed-in gradio_client session and its timings."""

    def __init__(self, url: str, i: int, base_url: str, rounds: int, times: dict[str, list[float]],
                 failures: list[str], login: bool = True) -> None:
        self.url, self.i, self.base_url, self.rounds, self.login = url, i, base_url, rounds, login
        self.times, self.failures = times, failures
        self.runs: list[str] = []

    def timed(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - counted, the session goes on
            url = getattr(getattr(exc, "_request", None), "url", "")  # httpx: the request that failed
            self.failures.append(f"session {self.i}, {what}: {type(exc).__name__}: {str(exc)[:200]}"
                                 + (f" ({url})" if url else ""))
            return None
        finally:
            self.times[what].append(time.perf_counter() - t0)

    def auth(self) -> tuple[str, str] | None:
        return (f"user{self.i}", f"password-{self.i}") if self.login else None

    def run(self) -> None:
        c = self.timed("connect", api_client, self.url, auth=self.auth(), analytics_enabled=False)
        if c is None:
            return
        http = httpx.Client(cookies=c.cookies, timeout=20, trust_env=False)
        try:
            for m in ("a", "b"):
                self.timed("add endpoint", c.predict, "openai", self.base_url, f"vlm-{m}", f"sk-session-{self.i}",
                           f"mine-{m}", api_name="/add_endpoint")
            for r in range(self.rounds):
                question = f"Which modality is shown (session {self.i}, round {r})?"
                self.timed("pick image", c.predict, "mr_small.png", STEPS0, api_name="/use_bundled_image")
                t0 = time.perf_counter()
                finished: list[float] = []
                job = c.submit(question, "choice", "CT\nMRI", "CT", "", STEPS0, 0, ["rotations"], True,
                               "auto (per kind)", [], "mine-a, mine-b", api_name="/run")
                job.add_done_callback(lambda _job: finished.append(time.perf_counter() - t0))
                # what a person does while the answers arrive
                self.timed("page load", lambda: http.get(self.url).raise_for_status())
                self.timed("model list", c.predict, api_name="/models")
                self.timed("pick image", c.predict, "ct_small_axial.png", STEPS0, api_name="/use_bundled_image")
                self.timed("preview", c.predict, question, "choice", "CT\nMRI", "CT", "", STEPS0, 0,
                           ["rotations"], True, "auto (per kind)", [], "mine-a", api_name="/preview")
                try:
                    table, run, *_ = job.result(timeout=600)
                    self.runs.append(run)
                    if f"{ANSWERS} of {ANSWERS} answers" not in table["html"]:
                        self.failures.append(f"session {self.i}: probe {run} did not finish all {ANSWERS} answers")
                except Exception as exc:  # noqa: BLE001 - counted
                    self.failures.append(f"session {self.i}, probe: {type(exc).__name__}: {str(exc)[:200]}")
                self.times["probe"].append(finished[0] if finished else time.perf_counter() - t0)
                time.sleep(1.0)
        finally:
            http.close()
            c.close()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far (Linux), to tell the app's own work from the machine's."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run_sessions(url: str, base_url: str, indices: list[int], n: int, rounds: int, login: bool, start: float,
                 ramp: float) -> tuple[dict[str, list[float]], list[str], list[str], float]:
    """Some of the sessions, each on a thread of this worker process, session ``i`` arriving at ``start`` +
    ``ramp * i / n`` (wall clock); returns their timings, failures, runs and this process's CPU seconds."""
    times: dict[str, list[float]] = defaultdict(list)
    failures: list[str] = []
    sessions = [Session(url, i, base_url, rounds, times, failures, login) for i in indices]
    threads = [threading.Thread(target=s.run, name=f"session-{s.i}") for s in sessions]
    for s, t in zip(sessions, threads):
        time.sleep(max(0.0, start + ramp * s.i / n - time.time()))
        t.start()
    for t in threads:
        t.join()
    used = os.times()
    return dict(times), failures, [r for s in sessions for r in s.runs], used.user + used.system


def measure(url: str, base_url: str, n: int, rounds: int, db: Path, ramp: float, app_pid: int,
            login: bool = True, processes: int = 1) -> tuple[bool, list[str]]:
    """Run ``n`` sessions on ``processes`` worker processes (the clients' own work must not slow the app's
    answers down through one interpreter's lock), a newcomer at the peak; print the figures."""
    import multiprocessing

    times: dict[str, list[float]] = defaultdict(list)
    failures: list[str] = []
    runs: list[str] = []
    start = time.time() + 2.0  # every worker ready
    t0 = time.perf_counter()
    cpu0, load0 = cpu_seconds(app_pid), os.getloadavg()[0]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        jobs = [pool.apply_async(run_sessions, (url, base_url, list(range(k, n, processes)), n, rounds, login, start,
                                                ramp)) for k in range(processes)]
        time.sleep(max(0.0, start + ramp - time.time()) + 3)  # the peak: every session connected and probing
        newcomer = Session(url, n, base_url, 0, times, failures, login)  # a newcomer connects (user n) at the peak
        c = newcomer.timed("newcomer connect", api_client, url, auth=newcomer.auth(), analytics_enabled=False)
        if c is not None:
            c.close()
        clients_cpu = 0.0
        for job in jobs:
            t, f, r, cpu = job.get()
            for k, v in t.items():
                times[k] += v
            failures += f
            runs += r
            clients_cpu += cpu
    wall = time.perf_counter() - t0
    cpu1, load1 = cpu_seconds(app_pid), os.getloadavg()[0]

    from probe_ui.store import Store

    store = Store(db)
    stored = 0
    for run in runs:
        df = store.answers_frame(store.get_run(run).id)
        stored += len(df)
        if df.duplicated(["variant_id", "model"]).any():
            failures.append(f"{run}: an answer stored twice")
    store.close()
    expected = n * rounds * ANSWERS
    timeouts = [f for f in failures if "Timeout" in f or "timed out" in f.lower()]
    light = [x for k in LIGHT for x in times[k]]
    print(f"\n{n} sessions arriving over {ramp:g} s, {rounds} probes each ({ANSWERS} answers at the server's "
          f"latency), {wall:.1f} s:")
    print(f"  {'action':<18}{'n':>6}{'p50 s':>9}{'p95 s':>9}{'max s':>9}")
    for k in (*LIGHT, "newcomer connect", "add endpoint", "probe"):
        v = times.get(k, [])
        if v:
            print(f"  {k:<18}{len(v):>6}{statistics.median(v):>9.2f}{pct(v, 0.95):>9.2f}{max(v):>9.2f}")
    print(f"  {'light actions':<18}{len(light):>6}{statistics.median(light):>9.2f}{pct(light, 0.95):>9.2f}"
          f"{max(light):>9.2f}")
    print(f"  answers stored: {stored} of {expected}; failed calls: {len(failures)} ({len(timeouts)} timeouts)")
    if cpu0 is not None and cpu1 is not None:
        print(f"  the app used {cpu1 - cpu0:.1f} s of CPU in {wall:.1f} s ({(cpu1 - cpu0) / wall:.2f} cores), the "
              f"sessions' clients {clients_cpu:.1f} s ({processes} processes); machine load average {load0:.1f} -> "
              f"{load1:.1f} on {os.cpu_count()} cores")
    for f in failures[:10]:
        print(f"    {f}")
    ok = pct(light, 0.95) < GOAL_P95_S and not timeouts and stored == expected and not failures
    return ok, failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, nargs="+", default=[20, 50])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--latency", type=float, default=0.5)
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds over which the sessions arrive (default 10)")
    ap.add_argument("--no-login", action="store_true", help="serve without a login (each session anonymous)")
    ap.add_argument("--sessions-per-process", type=int, default=50,
                    help="sessions per client process (default 50: on a machine of few cores, more client processes "
                         "take the app's cores; on a larger one, 10 keeps the clients from slowing each other)")
    ap.add_argument("--app-source", default=None, metavar="DIR",
                    help="run the app from this source tree (e.g. an older checkout, with --no-login, to compare)")
    args = ap.parse_args()
    results = []
    fake, base_url = start_model_server(args.latency)
    with tempfile.TemporaryDirectory(prefix="probe-ui-many-users-") as tmp:
        for n in args.sessions:
            folder = Path(tmp) / f"n{n}"
            folder.mkdir()
            proc, url = start_app(folder, n, login=not args.no_login, source=args.app_source)
            try:
                ok, _ = measure(url, base_url, n, args.rounds, folder / "b.db", args.ramp, proc.pid,
                                login=not args.no_login, processes=max(1, -(-n // args.sessions_per_process)))
                results.append((n, ok))
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    fake.terminate()
    fake.join(10)
    print()
    for n, ok in results:
        print(f"{n} sessions: {'ok' if ok else 'GOAL MISSED'} (light actions p95 < {GOAL_P95_S:g} s, no timeout, "
              "every answer stored once)")
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
