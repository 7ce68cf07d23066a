"""Starting the app: loopback by default; any other address only with a password, because the app can spend
API credit and shows everything in the store."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import ipaddress
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from probe_ui.app import DEFAULT_HOST, DEFAULT_MAX_UPLOAD_MB, DEFAULT_PORT
from probe_ui.app.http_guard import client_address
from probe_ui.app.known_devices import known_device
from probe_ui.errors import ProbeUIError
from probe_ui.security.outbound import OPEN, OutboundPolicy, OutboundRefused
from probe_ui.security.users import Accounts, LiveTokens, UsersError

#: where the app's login (user:password, one admin) may come from instead of the command line
AUTH_ENV = "PROBE_UI_AUTH"
#: the hosts endpoints added in the app may point at, when --endpoint-hosts is not given
ENDPOINT_HOSTS_ENV = "PROBE_UI_ENDPOINT_HOSTS"
#: the reverse proxies whose X-Forwarded-For is believed, when --trusted-proxies is not given
PROXIES_ENV = "PROBE_UI_TRUSTED_PROXIES"
#: how long one thread may run Python before the interpreter hands it to another that waits (Python's default is
#: 5 ms). The app is many threads that mostly wait (Gradio's event loop and worker threads, the live probes' loops,
#: the store's writers), and at 5 ms a thread woken by an answer or a request kept taking the interpreter from
#: whichever was working: ten people's live probes at once cost 0.17-0.19 s of CPU a probe and the slowest of them
#: 1.84-1.98 s; at 20 ms, 0.14-0.16 s and 1.55-1.69 s (perf/live_probe.py, alternating, two cores; 1 ms was
#: worse, 2.07-2.27 s; 50 ms and 100 ms no better than 20). A person's click still gets its turn within 20 ms.
SWITCH_INTERVAL_S = 0.02
log = logging.getLogger("probe_ui.app")


class ServeError(ProbeUIError, ValueError):
    """The app cannot start as asked (an unsafe host without auth, a malformed --auth)."""


@dataclass(frozen=True)
class ServeOptions:
    db: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: who may sign in (None: no login, loopback only)
    accounts: Accounts | None = field(default=None, repr=False)
    demo: bool = False
    max_upload_mb: int = DEFAULT_MAX_UPLOAD_MB
    #: where endpoints added in the app may point (probe_ui.security.outbound)
    policy: OutboundPolicy = OPEN
    #: reverse proxies whose X-Forwarded-For is believed (addresses or networks; none: the connection's address)
    trusted_proxies: tuple[str, ...] = ()


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_auth(value: str | None, source: str = "--auth") -> tuple[str, str] | None:
    """``user:password`` (surrounding whitespace, a Windows line ending included, is not part of it)."""
    if value is None:
        return None
    user, sep, password = value.strip().partition(":")
    if not sep or not user.strip() or not password:
        raise ServeError(f"{source} takes user:password (both non-empty), e.g. alice:s3cret")
    return user.strip(), password


def credentials(auth: str | None = None, auth_file: str | None = None) -> Accounts | None:
    """Who may sign in: ``--auth user:password`` (one admin; shown to every user of this machine by the process
    list: a warning says so), else the users of ``--auth-file`` (``probe-ui users add``: one per line, salted
    hashes and roles), else ``$PROBE_UI_AUTH`` (one admin); None for no login."""
    if auth is not None:
        log.warning("--auth on the command line is visible to other users of this machine in the process list; "
                    "put users in a file (probe-ui users add NAME --file PATH, then --auth-file PATH) or the login "
                    "in %s instead", AUTH_ENV)
        return Accounts.single(*parse_auth(auth))  # type: ignore[misc]
    if auth_file is not None:
        path = Path(auth_file)
        try:
            accounts = Accounts.from_file(path)  # followed as it changes: no restart for a new or removed user
            mode = path.stat().st_mode
        except UsersError as exc:
            raise ServeError(f"--auth-file {exc}") from None
        except OSError as exc:
            raise ServeError(f"--auth-file {path} cannot be read: {exc.strerror or exc}") from None
        if mode & 0o077:
            log.warning("--auth-file %s is readable by other users of this machine: chmod 600 it", path)
        return accounts
    if os.environ.get(AUTH_ENV):
        return Accounts.single(*parse_auth(os.environ[AUTH_ENV], AUTH_ENV))  # type: ignore[misc]
    return None


@dataclass
class _Strikes:
    count: int = 0
    last: float = 0.0


class LoginGate:
    """The app's login check (Gradio's ``auth=`` callable): salted hashes compared in constant time
    (:class:`probe_ui.security.users.Accounts`), and failed attempts slowed so that guessing is slow and nobody else is
    locked out (issue 52, F38 and F39).

    Failures are counted three ways, each forgotten after :attr:`forget_after_s` seconds without one:

    - per (address, name) pair: after :attr:`free_attempts` every further attempt for that name from that address
      waits, doubling from :attr:`base_delay_s` to :attr:`max_delay_s`, and such attempts are answered one at a time
      (parallel guesses queue behind the delay). A success clears the pair.
    - per address, whatever the name (after :attr:`free_address_attempts`): waits up to only
      :attr:`address_max_delay_s`, and are never queued, so people behind one shared address (a hospital proxy, a
      NAT) are not held up by a stranger's failures for more than a few seconds.
    - per name, across addresses (after :attr:`free_name_attempts`): waits up to :attr:`name_max_delay_s`, one at a
      time for the whole server, so guessing one name from many addresses gets no more tries than from one. A
      browser that signed in as that name before (a device cookie, :mod:`probe_ui.app.known_devices`) is exempt, so
      the real user is not locked out; a success clears the name.

    An address's attempts run at most :attr:`parallel_per_address` at once. Every failure is logged (address and
    name, never the password); crossing an address's or a name's threshold is logged as an alarm. The address is the
    connection's, or the ``X-Forwarded-For`` one only from a proxy named in ``--trusted-proxies``."""

    free_attempts = 3
    free_address_attempts = 20
    free_name_attempts = 10
    parallel_per_address = 16
    base_delay_s = 1.0
    max_delay_s = 30.0
    address_max_delay_s = 4.0
    name_max_delay_s = 4.0
    forget_after_s = 900.0
    #: counts kept at most (the oldest are dropped first): guesses from many addresses cannot fill the memory
    max_tracked = 10_000

    def __init__(self, accounts: Accounts, *, sleep: Any = asyncio.sleep,
                 address: Callable[[], str] = client_address, known: Callable[[], str] = known_device) -> None:
        self.accounts = accounts
        self.sleep = sleep
        self.address = address
        self.known = known
        self._strikes: dict[tuple[str, ...], _Strikes] = {}
        self._parallel: dict[str, asyncio.Semaphore] = {}
        self._queues: dict[tuple[str, ...], asyncio.Lock] = {}

    def _count(self, key: tuple[str, ...], now: float) -> int:
        s = self._strikes.get(key)
        if s is None:
            return 0
        if now - s.last > self.forget_after_s:
            del self._strikes[key]
            return 0
        return s.count

    def _wait(self, failures: int, free: int, ceiling: float) -> float:
        if failures < free:
            return 0.0
        return min(self.base_delay_s * 2 ** (failures - free), ceiling)

    def delay(self, address: str, user: str, known: bool = False) -> float:
        """How long the next attempt from ``address`` for ``user`` waits (``known``: from a browser that signed in
        as ``user`` before)."""
        now = time.monotonic()
        name = 0.0 if known else self._wait(self._count(("name", user), now), self.free_name_attempts,
                                              self.name_max_delay_s)
        return max(self._wait(self._count(("pair", address, user), now), self.free_attempts, self.max_delay_s),
                   self._wait(self._count(("address", address), now), self.free_address_attempts,
                              self.address_max_delay_s), name)

    def _fail(self, key: tuple[str, ...], now: float) -> int:
        s = self._strikes.pop(key, None) or _Strikes()  # re-inserted: the dict stays oldest-first
        s.count, s.last = s.count + 1, now
        self._strikes[key] = s
        while len(self._strikes) > self.max_tracked:
            del self._strikes[next(iter(self._strikes))]
        return s.count

    def _queue(self, key: tuple[str, ...]) -> asyncio.Lock:
        lock = self._queues.get(key)
        if lock is None:
            if len(self._queues) > self.max_tracked:  # drop the idle ones
                self._queues = {k: q for k, q in self._queues.items() if q.locked()}
            lock = self._queues[key] = asyncio.Lock()
        return lock

    async def login(self, username: str, password: str) -> bool:
        """Whether the login is right; a coroutine *function*, which is how Gradio knows to await it (an object
        with an async ``__call__`` would be called without awaiting, and its coroutine taken for True)."""
        address, user = self.address(), str(username)[:200]
        known = bool(user) and self.known() == user
        many = self._parallel.get(address)
        if many is None:
            if len(self._parallel) > self.max_tracked:  # drop the idle ones
                self._parallel = {a: g for a, g in self._parallel.items() if g.locked()}
            many = self._parallel[address] = asyncio.Semaphore(self.parallel_per_address)
        now = time.monotonic()
        queues = [self._queue(("pair", address, user))] if self._count(("pair", address, user), now) else []
        if not known and self._count(("name", user), now) >= self.free_name_attempts:
            queues.append(self._queue(("name", user)))
        async with many, contextlib.AsyncExitStack() as stack:
            for q in queues:  # always pair, then name: no two attempts wait for each other's lock
                await stack.enter_async_context(q)
            return await self._attempt(address, user, str(password), known)

    async def _attempt(self, address: str, user: str, password: str, known: bool) -> bool:
        await self.sleep(self.delay(address, user, known))
        found = await asyncio.to_thread(self.accounts.check, user, password)
        now = time.monotonic()
        if found is not None:
            self._strikes.pop(("pair", address, user), None)
            self._strikes.pop(("name", user), None)
            return True
        self._fail(("pair", address, user), now)
        for key, free, what in ((("address", address), self.free_address_attempts, f"from {address}"),
                                (("name", user), self.free_name_attempts, f"for user {user[:80]!r}")):
            count = self._fail(key, now)
            if count == free or (count > free and count % 100 == 0):
                log.error("possible password guessing: %d failed logins %s in the last %d min; further attempts "
                          "are slowed", count, what, self.forget_after_s // 60)
        log.warning("failed login for user %r from %s (%d in a row; the next attempt from there waits %g s)",
                    user[:80], address, self._count(("pair", address, user), now), self.delay(address, user))
        return False


def check(host: str, accounts: Accounts | None) -> None:
    """Refuse to listen beyond this machine without a login."""
    if not is_loopback(host) and accounts is None:
        raise ServeError(
            f"refusing to listen on {host} without --auth: anyone who can reach this address could read every "
            f"stored image and answer and spend your API keys. Give users with --auth-file PATH (probe-ui users add "
            f"NAME --file PATH) or a login with {AUTH_ENV}=user:password (and put the app behind HTTPS), or keep "
            "the default --host 127.0.0.1.")


def parse_proxies(value: str | None, source: str = "--trusted-proxies") -> tuple[str, ...]:
    """The reverse proxies to believe, each an address or a network (a name is refused: the client's address is
    compared, and a name could change its address)."""
    out = []
    for part in (value or "").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(str(ipaddress.ip_network(part.strip("[]"), strict=False)))
        except ValueError:
            raise ServeError(f"{source}: {part[:80]!r} is not an address or network (e.g. 10.0.0.5 or "
                             "10.0.0.0/24)") from None
    return tuple(out)


def options(db: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, auth: str | None = None,
            demo: bool = False, max_upload_mb: int | None = None, auth_file: str | None = None,
            endpoint_hosts: str | list[str] | None = None, trusted_proxies: str | None = None) -> ServeOptions:
    accounts = credentials(auth, auth_file)
    check(host, accounts)
    if not 0 < port < 65536:
        raise ServeError(f"--port must be 1-65535, not {port}")
    mb = max_upload_mb or int(os.environ.get("PROBE_UI_MAX_UPLOAD_MB", DEFAULT_MAX_UPLOAD_MB))
    try:
        policy = OutboundPolicy.parse(endpoint_hosts if endpoint_hosts is not None
                                      else os.environ.get(ENDPOINT_HOSTS_ENV), enforced=not is_loopback(host))
    except OutboundRefused as exc:
        raise ServeError(str(exc)) from None
    proxies = (parse_proxies(trusted_proxies) if trusted_proxies is not None
               else parse_proxies(os.environ.get(PROXIES_ENV), PROXIES_ENV))
    return ServeOptions(db=db, host=host, port=port, accounts=accounts, demo=demo, max_upload_mb=mb, policy=policy,
                        trusted_proxies=proxies)


def claim_port(host: str, port: int) -> None:
    """Refuse, before anything is built or printed, a port another program is listening on (uvicorn would find out
    only after the app is built, and the wait for the first answer would then time out)."""
    import errno
    import socket  # here: every command imports this module for the app's options

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a port in TIME_WAIT is free
        try:
            s.bind((host, port))
        except OSError as exc:
            why = ("is in use by another program" if exc.errno == errno.EADDRINUSE
                   else f"cannot be used ({exc.strerror})")
            raise ServeError(f"port {port} on {host} {why}: stop that program or choose another with --port "
                             f"(e.g. --port {port + 1 if port < 65535 else 8000})") from None


def theme() -> Any:
    """Gradio's default look with system fonts (the page loads nothing from outside this machine), its orange and
    its grey hints darkened to WCAG AA contrast (white on the default orange button is 2.8:1, hints 1.9:1)."""
    import gradio as gr

    return gr.themes.Default(font=["ui-sans-serif", "system-ui", "sans-serif"],
                             font_mono=["ui-monospace", "monospace"]).set(
        button_primary_background_fill="*primary_700", button_primary_background_fill_hover="*primary_800",
        button_primary_background_fill_dark="*primary_700", color_accent="*primary_700",
        body_text_color_subdued="*neutral_600", block_info_text_color="*neutral_600",
        input_placeholder_color="*neutral_500")


def headless_plots() -> None:
    """Matplotlib draws off screen in the app (a server has no display). Gradio wraps every event in a switch to
    matplotlib's off-screen backend; with no backend chosen, asking for the current one first imports pyplot and
    its fonts: 1.1 s of CPU on the first click after every start (2-core machine, under load)."""
    os.environ.setdefault("MPLBACKEND", "agg")
    if "matplotlib" in sys.modules:  # imported already: the variable was read then
        sys.modules["matplotlib"].rcParams["backend"] = os.environ["MPLBACKEND"]


#: what the first click would otherwise import: matplotlib (Gradio asks for its backend on every event) and the API
#: SDKs (the first live call): about 1 s of CPU each on a busy 2-core machine, paid by the first person to probe
WARM_IMPORTS = ("matplotlib", "openai", "anthropic")


def warm_imports() -> None:
    """Import, on a background thread while the app starts, what the first event and the first probe need."""
    def run() -> None:
        for name in WARM_IMPORTS:
            try:
                importlib.import_module(name)
            except ImportError:  # an SDK not installed: its models say so when asked
                pass

    threading.Thread(target=run, name="probe-ui warm imports", daemon=True).start()


#: how long the app may take to stop after Ctrl+C before it is stopped at once (Gradio waits up to 5 s for its web
#: server; the interpreter's tear-down takes up to 3 s on a busy two-core machine)
STOP_WITHIN_S = 15.0


def stop_on_ctrl_c(within_s: float = STOP_WITHIN_S) -> None:
    """Ctrl+C stops the app, always and soon. The first press stops it in order (the web server closed, the port
    given back); were anything to hold the process up longer than ``within_s`` (a thread that does not end, a
    library's clean-up that waits), the threads' stacks are printed and the process ends anyway, and a second press
    ends it at once. Nothing is lost either way: every answer is committed as it arrives. Does nothing outside the
    main thread, where no signal handler can be set (the app started by a test)."""
    import faulthandler
    import signal

    if threading.current_thread() is not threading.main_thread():
        return
    stopping = False

    def on_ctrl_c(signum: int, frame: Any) -> None:
        nonlocal stopping
        if stopping:  # pressed again
            os._exit(130)
        stopping = True
        print(f"probe-ui: stopping (Ctrl+C again stops at once; stopped anyway in {within_s:.0f} s)",
              file=sys.stderr, flush=True)
        faulthandler.dump_traceback_later(within_s, exit=True)  # a C thread: it fires even in the tear-down
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_ctrl_c)


def launch(opts: ServeOptions, *, block: bool = True, quiet: bool = False) -> Any:
    """Build the app on its store and serve it; returns the Blocks (with ``block=False``, for tests)."""
    from starlette.middleware import Middleware

    from probe_ui.app.blocks import CSS, JS, AppContext, build_app
    from probe_ui.app.gradio_overhead import keep_signatures
    from probe_ui.app.http_guard import HttpGuard
    from probe_ui.app.shared_pages import SharedPages
    from probe_ui.app.static_assets import StaticAssets
    from probe_ui.store import Store

    claim_port(opts.host, opts.port)  # before the app is built and before anything says it is serving
    headless_plots()
    keep_signatures()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    warm_imports()
    # Gradio summarises its recent events (up to 10,000) for its monitoring page after every event: a pandas frame
    # and a group-by, 8-13 ms of CPU per click on 2 cores, growing with the events kept. probe-ui does not serve
    # that page: summarised once per 1,000 events (a value the operator sets wins)
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", "1000")
    store = Store(opts.db)
    ctx = AppContext(store=store, db_location=opts.db, demo=opts.demo, accounts=opts.accounts, policy=opts.policy)
    app = build_app(ctx)
    url = f"http://{opts.host if ':' not in opts.host else f'[{opts.host}]'}:{opts.port}"
    if not quiet:
        users = f"{len(opts.accounts)} user(s)" if opts.accounts else "no login"
        print(f"probe-ui: serving at {url} (store {opts.db}; {users}){' · demo' if opts.demo else ''}; "
              "Ctrl+C stops", flush=True)
    gate = LoginGate(opts.accounts).login if opts.accounts else None
    # the web server (uvicorn, started by Gradio) believes X-Forwarded-For only from these; its own default is
    # loopback, so a forged header from this machine escaped the login slowdown (issue 52, F38)
    os.environ["FORWARDED_ALLOW_IPS"] = ",".join(opts.trusted_proxies)
    # gradio awaits a coroutine auth function (gradio/routes.py); its annotation names only the plain form
    app.launch(server_name=opts.host, server_port=opts.port, auth=gate,  # type: ignore[arg-type]
               max_file_size=f"{opts.max_upload_mb}mb",
               show_error=True, prevent_thread_lock=True, quiet=True, css=CSS, js=JS, inbrowser=False,
               footer_links=["api"], theme=theme(),
               app_kwargs={"middleware": [Middleware(StaticAssets), Middleware(HttpGuard, sessions=ctx.sessions),
                                          Middleware(SharedPages)]},
               run_history=False,  # Gradio's run history keeps past calls in the browser: not on a shared screen
               _frontend=False)  # Gradio's own check of the address gives up after one 3 s wait: see wait_until_served
    if opts.accounts is not None:  # a login cookie lasts while its user is unchanged in the users file (F47)
        server = app.server_app
        server.tokens = LiveTokens(opts.accounts, dict(server.tokens))
    try:
        wait_until_served(str(app.local_url))
    except BaseException:  # not served (or Ctrl+C while waiting): the port is given back
        app.close()
        raise
    if block:
        app.block_thread()  # until Ctrl+C, as Gradio's own launch does
    return app


#: how long a freshly started server may take to answer its first request before starting is called a failure
SERVED_WITHIN_S = 60.0


def wait_until_served(url: str, within_s: float = SERVED_WITHIN_S) -> None:
    """Returns once the app at ``url`` answers; raises :class:`ServeError` if it does not within ``within_s``.
    Gradio's own check after starting gives up on the first request that takes over 3 s and then says "localhost is
    not accessible, create a share link": on a busy two-core machine (CI, a department server under load) the first
    page can take longer, and a share link is never what probe-ui wants."""
    import httpx

    deadline = time.monotonic() + within_s
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            r = httpx.head(url, timeout=min(10.0, max(0.5, deadline - time.monotonic())))
            if r.status_code < 500:
                return
            last = f"HTTP {r.status_code}"
        except httpx.HTTPError as exc:
            last = type(exc).__name__
        time.sleep(0.25)
    raise ServeError(f"probe-ui started but {url} did not answer within {within_s:.0f} s ({last}); "
                     "is another program using the port, or a proxy set for local addresses?")
