"""Many people, one app (issue 23): each person's keys, endpoints, runs, ratings and sets are their own.

Two or three ``gradio_client`` sessions on one running app, with a login (a users file with a prober each for
Alice and Bob, a viewer and an admin) and without one (loopback, one local user: each browser session its own).
Each failure the issue found is tried the way a hostile member of the audience would, and must now be refused or
isolated; what held (file routes, uploads per session, the environment's keys never sent to an added endpoint)
is checked to hold still.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from app_server import USERS, AppServer, api_client, module_app, served, serving
from fake_openai import FakeOpenAIServer, loopback_no_proxy
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError
from helpers import Recorder

from probe_ui.runner import BatchOptions

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

STEPS0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}
AUTO = "auto (per kind)"


def client(server: AppServer, user: str | None = None) -> Client:
    """A new session on ``server``, signed in as ``user`` (a name of :data:`app_server.USERS`) or not."""
    auth = (user, USERS[user][1]) if user else None
    return api_client(server.url, auth=auth)


def probe(c: Client, models: list[str], adhoc: str = "", suites: list[str] | None = None) -> tuple[dict, str]:
    """A live probe of a bundled image: (the table's value, the run's name)."""
    c.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")
    table, run, *_ = c.predict("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, suites or [], True,
                               AUTO, models, adhoc, api_name="/run")
    return table, run


# One app per kind for the whole module (tests/app_server.py, module_app), as one room shares one server: the
# app is many-user by design, every test works in sessions and logins of its own and looks only at the runs,
# ratings, endpoints and sets it made. A test that changes what the whole server remembers has its own app.
open_app = module_app(demo=False, max_upload_mb=20)
login_app = module_app(demo=False, max_upload_mb=20, users=USERS)


@pytest.fixture(scope="module", params=["no login", "login"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app without a login (sessions are apart) and with one (users are apart)."""
    users = USERS if request.param == "login" else None
    with served(tmp_path_factory.mktemp("app"), demo=False, max_upload_mb=20, users=users) as server:
        yield server


@pytest.fixture
def fresh_login_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppServer]:
    """A login app of the test's own: failed logins are remembered by the server (the gate slows the next ones)."""
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=20, users=USERS)


def two(server: AppServer) -> tuple[Client, Client]:
    """Alice's and Bob's sessions (two anonymous sessions on an app without a login)."""
    signed = server.app.auth is not None
    return client(server, "alice" if signed else None), client(server, "bob" if signed else None)


# ---- endpoints and keys ----------------------------------------------------------------------------------------

def test_an_endpoint_is_its_adders_own(app: AppServer, fake_openai: FakeOpenAIServer) -> None:
    """Issue: session B saw A's endpoint, called it with A's key, and re-added it under the same name at B's own
    server, so that A's next probe sent A's question and image to B."""
    a, b = two(app)
    key_a = "sk-alice-secret-0123456789"
    a.predict("openai", fake_openai.base_url, "gpt-4o", key_a, "mine", api_name="/add_endpoint")
    assert "mine" in json.dumps(a.predict(api_name="/models"))

    assert "mine" not in json.dumps(b.predict(api_name="/models"))  # not listed
    tested = b.predict("mine", api_name="/test_model")
    assert "answered" not in tested and "unknown model" in tested  # not testable
    table, _run = probe(b, [], adhoc="mine")
    assert "unknown model" in table["html"]  # not callable
    assert not any(r.api_key == key_a for r in fake_openai.requests)  # A's key went nowhere for B

    with FakeOpenAIServer(answer="B") as bobs:  # B's own server under the same name: B's only
        b.predict("openai", bobs.base_url, "gpt-4o", "sk-bob-0000000000", "mine", api_name="/add_endpoint")
        table, run = probe(a, [], adhoc="mine")
        assert "1 of 1 answers" in table["html"]
        # A's question and image went to A's server, not B's (B's server saw only B's own look at its model list)
        assert not bobs.chat_requests and not any(r.api_key == key_a for r in bobs.requests)
        assert [r.api_key for r in fake_openai.chat_requests] == [key_a]
        probe(b, [], adhoc="mine")
        assert len(bobs.chat_requests) == 1 and len(fake_openai.chat_requests) == 1


def test_the_environments_key_never_goes_to_an_added_endpoint(app: AppServer, fake_openai: FakeOpenAIServer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Held before, must keep holding: an endpoint added without a key is sent a placeholder, not the server's
    OPENAI_API_KEY."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-server-environment-key-42")
    a, _b = two(app)
    a.predict("openai", fake_openai.base_url, "gpt-4o", "", "keyless", api_name="/add_endpoint")
    probe(a, [], adhoc="keyless")
    assert fake_openai.chat_requests and all(r.api_key != "sk-server-environment-key-42"
                                             for r in fake_openai.requests)


# ---- cancelling --------------------------------------------------------------------------------------------------

def _wait_for(store: Any, pred: Any, what: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        found = next((r for r in store.run_progress() if pred(r)), None)
        if found is not None:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_only_the_starter_or_an_admin_cancels_a_run(app: AppServer, fake_openai: FakeOpenAIServer) -> None:
    """Issue: run names were listed to everyone, and /cancel_probe and /cancel_batch stopped anyone's run."""
    a, b = two(app)
    store = app.store()
    earlier = {r["run"] for r in store.run_progress()}  # the module's app holds other tests' runs
    fake_openai.latency_s = 1.5
    a.predict("openai", fake_openai.base_url, "gpt-4o", "", "slow", api_name="/add_endpoint")
    a.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")
    job = a.submit("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, ["rotations"], True, AUTO, [],
                   "slow", api_name="/run")
    live = _wait_for(store, lambda r: r["kind"] == "live" and r["run"] not in earlier, "the probe never started")["run"]
    said = b.predict(live, api_name="/cancel_probe")
    assert "Cancel sent" not in said and "not running" in said
    table, run, *_ = job.result(timeout=120)
    assert run == live and "4 of 4 answers · finished" in table["html"] and "cancelled" not in table["html"]

    fake_openai.latency_s = 0.3
    job = a.submit(["mediconfusion_pairs"], None, [], "slow", ["rotations"], 0, "alices-batch", api_name="/batch")
    _wait_for(store, lambda r: r["run"] == "alices-batch" and r["answered"] >= 2, "the batch never started")
    assert "Cancel sent" not in b.predict("alices-batch", api_name="/cancel_batch")
    status = job.result(timeout=180)[0]
    assert "Cancelled" not in status
    done = {r["run"]: r for r in store.run_progress()}["alices-batch"]
    assert done["complete"] and done["answered"] == 64
    if app.app.auth is not None:  # with a login, the runs record their maker, and an admin may cancel
        assert store.get_run("alices-batch").created_by == "alice" and store.get_run(live).created_by == "alice"
        root = client(app, "root")
        job = a.submit(["mediconfusion_pairs"], None, [], "slow", ["rotations"], 1, "alices-2", api_name="/batch")
        _wait_for(store, lambda r: r["run"] == "alices-2" and r["answered"] >= 2, "the batch never started")
        assert "Cancel sent" in root.predict("alices-2", api_name="/cancel_batch")
        assert "Cancelled" in job.result(timeout=180)[0]
        with pytest.raises(AppError, match="only they or an admin can resume"):
            b.predict("alices-2", api_name="/resume_batch")
    else:
        assert store.get_run("alices-batch").created_by == "local"


# ---- ratings -----------------------------------------------------------------------------------------------------

def test_ratings_are_stored_under_the_signed_in_user(login_app: AppServer) -> None:
    """Issue: with a login every rating was stored under the one login name, and B's replaced A's."""
    from probe_ui.metrics.agreement import rater_agreement
    from probe_ui.scoring import scored_answers

    a, b = client(login_app, "alice"), client(login_app, "bob")
    _table, run = probe(a, ["baseline/first"])
    store = login_app.store()
    rid = int(store.answers_frame(store.get_run(run).id).response_id.iloc[0])
    value = {"html": "", "run": run}
    assert "by alice" in a.predict(rid, "correct", "", value, "Dr B", api_name="/rate")[0]  # the typed name: ignored
    assert "by bob" in b.predict(rid, "incorrect", "", value, "Dr A", api_name="/rate")[0]
    per = store.ratings_frame(store.get_run(run).id, per_rater=True)
    assert sorted(zip(per.rater, per.rating)) == [("alice", "correct"), ("bob", "incorrect")]
    assert all(bool(v) for v in per.verified)
    block = rater_agreement(scored_answers(store, run))
    assert block["raters"] == ["alice", "bob"]  # two raters, neither marked


def test_ratings_without_a_login_are_marked_unverified(open_app: AppServer) -> None:
    from probe_ui.metrics.agreement import rater_agreement
    from probe_ui.scoring import scored_answers

    a, b = two(open_app)
    _table, run = probe(a, ["baseline/first"])
    store = open_app.store()
    rid = int(store.answers_frame(store.get_run(run).id).response_id.iloc[0])
    value = {"html": "", "run": run}
    msg = a.predict(rid, "correct", "", value, "Dr A", api_name="/rate")[0]
    assert "by Dr A" in msg and "unverified" in msg
    b.predict(rid, "incorrect", "", value, "Dr B", api_name="/rate")
    per = store.ratings_frame(store.get_run(run).id, per_rater=True)
    assert sorted(per.rater) == ["Dr A", "Dr B"] and not any(bool(v) for v in per.verified)
    block = rater_agreement(scored_answers(store, run))
    assert block["raters"] == ["Dr A (unverified)", "Dr B (unverified)"]


def test_a_viewer_cannot_rate(login_app: AppServer) -> None:
    _table, run = probe(client(login_app, "alice"), ["baseline/first"])
    store = login_app.store()
    rid = int(store.answers_frame(store.get_run(run).id).response_id.iloc[0])
    with pytest.raises(AppError, match=r"role \(viewer\) cannot"):
        client(login_app, "vera").predict(rid, "correct", "", {"html": "", "run": run}, "", api_name="/rate")
    assert store.ratings_frame(store.get_run(run).id).empty


def test_only_an_admin_sets_the_send_gate_or_reads_the_send_ledger(login_app: AppServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 47: the send gate is one policy per server, set by an admin; the ledger is the admin's to read."""
    import os

    from probe_ui.send_gate.policy import POLICY_ENV, TRUSTED_ENV

    monkeypatch.setenv(POLICY_ENV, "")  # whatever the test leaves, the server's environment is put back
    monkeypatch.setenv(TRUSTED_ENV, "")
    login_app.store().record_sends([{"user": "alice", "run": "r", "cell": "v/gpt/0", "provider": "openai",
                                     "host": "api.openai.com", "model": "gpt-4o", "images": ["b" * 64],
                                     "verdict": "blocked"}])
    for name in ("alice", "vera"):  # a prober is refused by the right, a viewer already by the tab
        with pytest.raises(AppError, match=r"Your role \((prober|viewer)\) cannot"):
            client(login_app, name).predict("off", "", api_name="/set_send_gate")
        with pytest.raises(AppError, match=r"Your role \((prober|viewer)\) cannot"):
            client(login_app, name).predict(api_name="/send_ledger")
    with pytest.raises(AppError, match="cannot set the send gate or read the send ledger"):
        client(login_app, "alice").predict(api_name="/verify_send_ledger")
    assert os.environ.get(POLICY_ENV) == ""
    root = client(login_app, "root")
    words, msg = root.predict("off", "gpu.hospital.example", api_name="/set_send_gate")
    assert "check nothing" in words and "gpu.hospital.example" in words and "Set:" in msg
    assert os.environ[POLICY_ENV] == "off" and os.environ[TRUSTED_ENV] == "gpu.hospital.example"
    _words, msg = root.predict("off", "not a host!", api_name="/set_send_gate")
    assert "is not a host name" in msg and os.environ[TRUSTED_ENV] == "gpu.hospital.example"  # nothing changed
    ledger = root.predict(api_name="/send_ledger")
    assert ledger["data"][0][2] == "alice" and ledger["data"][0][6] == "blocked"
    assert "intact: 1 row" in root.predict(api_name="/verify_send_ledger")


def test_a_servers_rate_limits_show_to_its_users_and_admins_only(login_app: AppServer,
                                                                  fake_openai: FakeOpenAIServer) -> None:
    """Issue 50: the Models tab's rate-limit table names a server someone typed in (its host, never its key) to the
    people who can call it and to admins, not to another prober."""
    alice, bob, root = (client(login_app, n) for n in ("alice", "bob", "root"))
    alice.predict("openai", fake_openai.base_url, "gpt-4o", "sk-alice-rate-0123456789", "alices",
                  api_name="/add_endpoint")
    probe(alice, [], adhoc="alices")
    host = fake_openai.base_url.split("//")[1].split("/")[0]

    def servers(c: Client) -> dict[str, list[Any]]:
        table = c.predict(api_name="/rate_limits")
        assert "sk-alice" not in json.dumps(table)
        return {r[0]: r for r in table["data"]}

    mine = servers(alice)
    assert host in mine and mine[host][1] == "openai" and mine[host][4] >= 1  # answered so far
    assert host in servers(root)
    assert host not in servers(bob)


# ---- roles -------------------------------------------------------------------------------------------------------

def test_roles_are_checked_on_the_server(login_app: AppServer, fake_openai: FakeOpenAIServer) -> None:
    """A hidden tab is no protection: a viewer calling the API directly is refused everything but the Results."""
    vera = client(login_app, "vera")
    runs_before = login_app.store().list_runs()  # the module's app holds other tests' runs
    refused = {
        "/run": ("Which?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, [], True, AUTO, ["baseline/first"], ""),
        "/add_endpoint": ("openai", fake_openai.base_url, "gpt-4o", "", "v"),
        "/batch": (["mediconfusion_pairs"], None, ["baseline/first"], "", [], 0, "viewer-batch"),
        "/use_bundled_image": ("mr_small.png", STEPS0),
        "/preset_items": ("mediconfusion_pairs",),
        "/test_model": ("baseline/first",),
    }
    for api, args in refused.items():
        with pytest.raises(AppError, match=r"role \(viewer\) cannot"):
            vera.predict(*args, api_name=api)
    assert not fake_openai.requests and login_app.store().list_runs() == runs_before
    assert vera.predict([], api_name="/runs") is not None  # the Results tab works
    with pytest.raises(AppError, match="Only an admin"):
        client(login_app, "alice").predict("openai", fake_openai.base_url, "gpt-4o", "", "for-all", True,
                                           api_name="/add_endpoint")


def test_an_admin_shares_an_endpoint_whose_key_and_url_stay_hidden(login_app: AppServer,
                                                                    fake_openai: FakeOpenAIServer) -> None:
    root, alice = client(login_app, "root"), client(login_app, "alice")
    root.predict("openai", fake_openai.base_url, "gpt-4o", "sk-shared-9999999999", "department", True,
                 api_name="/add_endpoint")
    listed = json.dumps(alice.predict(api_name="/models"))
    assert "department" in listed and fake_openai.base_url not in listed and "sk-shared" not in listed
    table, _run = probe(alice, [], adhoc="department")
    assert "1 of 1 answers" in table["html"]
    with pytest.raises(AppError, match="name of a shared model"):  # not replaced
        alice.predict("openai", "http://127.0.0.1:9/v1", "m", "", "department", api_name="/add_endpoint")
    assert [r.api_key for r in fake_openai.chat_requests] == ["sk-shared-9999999999"]


# ---- the login ---------------------------------------------------------------------------------------------------

def test_failed_logins_slow_only_that_address_and_name(caplog: pytest.LogCaptureFixture) -> None:
    """Issue: after 7 wrong guesses by someone else the right password took 31 s for everyone."""
    from probe_ui.app import serve
    from probe_ui.security.users import Account, Accounts, hash_password

    accounts = Accounts({n: Account(n, "prober", hash_password(p)) for n, p in
                         [("alice", "alice-pass-1"), ("bob", "bob-pass-22")]})
    sleep, where = Recorder(), {"addr": "203.0.113.9"}
    gate = serve.LoginGate(accounts, sleep=sleep, address=lambda: where["addr"])

    async def attempts() -> list[bool]:
        out = [await gate.login("alice", f"guess-{i}") for i in range(7)]  # the attacker, at 203.0.113.9
        where["addr"] = "198.51.100.7"  # Alice, elsewhere
        out.append(await gate.login("alice", "alice-pass-1"))
        where["addr"] = "203.0.113.9"  # Bob, behind the attacker's address (one room, one NAT)
        out.append(await gate.login("bob", "bob-pass-22"))
        out.append(await gate.login("alice", "alice-pass-1"))  # the attacker's address, the right password
        return out

    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        results = asyncio.run(attempts())
    assert results == [False] * 7 + [True, True, True]
    assert sleep.delays[7] == 0 and sleep.delays[8] == 0  # Alice elsewhere, and Bob, are not slowed
    assert sleep.delays[3:7] == [1, 2, 4, 8] and sleep.delays[9] == 16  # the guesser is
    assert "203.0.113.9" in caplog.text and "guess-" not in caplog.text and "failed login" in caplog.text


def test_many_names_from_one_address_are_slowed_too() -> None:
    from probe_ui.app import serve
    from probe_ui.security.users import Account, Accounts, hash_password

    gate = serve.LoginGate(Accounts({"alice": Account("alice", "prober", hash_password("alice-pass-1"))}),
                           sleep=Recorder(), address=lambda: "203.0.113.9")

    async def spray() -> None:
        for i in range(gate.free_address_attempts + 3):
            await gate.login(f"user{i}", "password")

    asyncio.run(spray())
    assert gate.delay("203.0.113.9", "someone-else") > 0 and gate.delay("198.51.100.7", "alice") == 0


def test_someone_elses_guesses_do_not_lock_a_user_out(fresh_login_app: AppServer) -> None:
    """Seven wrong guesses for Alice; Bob then signs in with gradio_client's default timeout at once."""
    login_app = fresh_login_app
    gate = login_app.app.auth.__self__
    sleep = Recorder()
    gate.sleep = sleep
    with httpx.Client(trust_env=False) as http:
        codes = [http.post(f"{login_app.url}login", data={"username": "alice", "password": f"no-{i}"}).status_code
                 for i in range(7)]
    assert codes == [400] * 7
    gate.sleep = asyncio.sleep  # Bob's login really waits, if it is made to
    t0 = time.monotonic()
    bob = client(login_app, "bob")
    assert time.monotonic() - t0 < 20 and bob.predict([], api_name="/runs") is not None


# ---- outbound policy ---------------------------------------------------------------------------------------------

class PlantedPage:
    """A plain web server that answers every request with an internal page (not a model API)."""

    TEXT = "PLANTED-INTERNAL-PAGE: admin password is hunter2"

    def __enter__(self) -> PlantedPage:
        text = self.TEXT.encode()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _page(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self.send_response(200 if "/ok/" in self.path else 404)
                self.send_header("content-type", "text/html")
                self.send_header("content-length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            do_GET = do_POST = _page

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.root = f"http://127.0.0.1:{self.httpd.server_port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_the_test_result_never_shows_a_raw_body(app: AppServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue: the Test of an endpoint at an internal address showed the start of a plain-text reply."""
    loopback_no_proxy(monkeypatch)
    c = client(app, "root" if app.app.auth is not None else None)
    with PlantedPage() as page:
        for path in ("ok", "missing"):
            c.predict("openai", f"{page.root}/{path}/v1", "m", "", f"internal-{path}", api_name="/add_endpoint")
            result = c.predict(f"internal-{path}", api_name="/test_model")
            assert result.startswith("<b>Does not work</b>") and "PLANTED" not in result and "hunter2" not in result
            assert "not shown" in result


@pytest.fixture
def policed_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppServer]:
    """An app whose added endpoints may only point at localhost (a name) and the documentation network."""
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=20, users=USERS,
                       endpoint_hosts="localhost, 192.0.2.0/24")


def test_endpoints_point_only_at_allowed_hosts(policed_app: AppServer, fake_openai: FakeOpenAIServer) -> None:
    """Issue: any user could add an endpoint at an internal address and make the server call it."""
    alice, root = client(policed_app, "alice"), client(policed_app, "root")
    port = fake_openai.port
    with pytest.raises(AppError, match="not among the hosts"):
        alice.predict("openai", f"http://127.0.0.1:{port}/v1", "gpt-4o", "", "inside", api_name="/add_endpoint")
    with pytest.raises(AppError, match="internal address"):  # allowed by name, but it resolves to loopback
        alice.predict("openai", f"http://localhost:{port}/v1", "gpt-4o", "", "inside", api_name="/add_endpoint")
    with pytest.raises(AppError, match="not among the hosts"):
        alice.predict("openai", "http://169.254.169.254/v1", "gpt-4o", "", "metadata", api_name="/add_endpoint")
    assert not fake_openai.requests and "inside" not in json.dumps(alice.predict(api_name="/models"))
    root.predict("openai", f"http://127.0.0.1:{port}/v1", "gpt-4o", "", "inside", api_name="/add_endpoint")
    assert "answered" in root.predict("inside", api_name="/test_model")  # an admin may


def test_beyond_loopback_only_admins_add_endpoints_unless_hosts_are_allowed(tmp_path: Path) -> None:
    from app_server import users_file

    from probe_ui.app.serve import options
    from probe_ui.security.outbound import OutboundPolicy, OutboundRefused

    auth = str(users_file(tmp_path / "users"))
    policy = options("x.db", "0.0.0.0", auth_file=auth).policy
    assert policy.enforced and not policy.hosts
    with pytest.raises(OutboundRefused, match="only an admin"):
        policy.check("https://api.example.org/v1")
    policy.check("http://10.0.0.5/v1", admin=True)
    assert not options("x.db", "127.0.0.1").policy.enforced  # the person's own machine

    given = options("x.db", "0.0.0.0", auth_file=auth, endpoint_hosts="models.example.org, 10.1.0.0/16").policy
    assert given.hosts == ("models.example.org",) and [str(n) for n in given.networks] == ["10.1.0.0/16"]
    resolved = {"models.example.org": ["93.184.216.34"], "rebound.example.org": ["10.0.0.7"]}
    listed = OutboundPolicy.parse("models.example.org rebound.example.org 10.1.0.0/16", enforced=True,
                                  resolver=lambda host, port: resolved[host])
    listed.check("https://models.example.org/v1")
    listed.check("http://10.1.2.3:8000/v1")
    with pytest.raises(OutboundRefused, match="resolves to 10.0.0.7"):
        listed.check("https://rebound.example.org/v1")


def test_the_outbound_policy_reads_names_patterns_addresses_and_networks() -> None:
    from probe_ui.security.outbound import OutboundPolicy, OutboundRefused

    dns = {"api.models.example.org": ["2606:4700::6810:84e5"], "mapped.example.org": ["::ffff:127.0.0.1"],
           "lab.example.org": ["10.9.8.7"], "models.example.org": ["93.184.216.34"]}

    def resolve(host: str, port: int) -> list[str]:
        if host not in dns:
            raise OSError("no such host")
        return dns[host]

    p = OutboundPolicy.parse("*.models.example.org, lab.example.org 10.9.0.0/16, [fd00::1]", enforced=True,
                             resolver=resolve)
    p.check("https://api.models.example.org/v1")  # under the pattern, a public address
    p.check("http://lab.example.org:8000/v1")  # a private address, but its network is listed
    p.check("http://[fd00::1]:8000/v1")  # a listed address
    for url, why in [("https://models.example.org/v1", "not among"),  # *.x does not cover x itself
                     ("http://10.10.1.1/v1", "not among"),
                     ("http://mapped.example.org/v1", "not among"),
                     ("http://unknown.models.example.org/v1", "cannot be resolved")]:
        with pytest.raises(OutboundRefused, match=why):
            p.check(url)
    p.check("http://10.9.1.1/v1")  # an address inside a listed network
    allowed_mapped = OutboundPolicy.parse("mapped.example.org", enforced=True, resolver=resolve)
    with pytest.raises(OutboundRefused, match="resolves to 127.0.0.1"):  # an IPv4-mapped loopback is loopback
        allowed_mapped.check("http://mapped.example.org/v1")
    with pytest.raises(OutboundRefused, match="not a host name"):
        OutboundPolicy.parse("http://x/", enforced=True)
    OutboundPolicy().check("http://169.254.169.254/")  # not enforced: the app on its owner's machine


# ---- before the login --------------------------------------------------------------------------------------------

ROUTES = ["/", "/config", "/gradio_api/info", "/gradio_api/info?all_endpoints=true", "/gradio_api/openapi.json",
          "/gradio_api/runs", "/gradio_api/startup-events", "/gradio_api/app_id", "/manifest.json",
          "/gradio_api/queue/status", "/theme.css", "/monitoring", "/gradio_api/mcp/schema", "/login", "/logout",
          "/gradio_api/user", "/gradio_api/token"]


def _secrets_of(server: AppServer, tmp_path: Path) -> list[str]:
    """What must not be seen before login: endpoint and preset names, a run's name, paths on the server."""
    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.runner import run_batch

    run_batch(server.store(), [load_preset(PRESETS_DIR / "medvh_nota.yaml")], ["baseline/first"],
              BatchOptions(run_name="secret-run-name-7", progress=False))
    return ["add_endpoint", "cancel_probe", "mediconfusion", "secret-run-name-7", str(tmp_path), str(server.folder),
            str(PRESETS_DIR)]


def test_nothing_about_the_app_before_login(login_app: AppServer, tmp_path: Path) -> None:
    """Issue: before login, / and /gradio_api/runs returned the full API schema and 94 absolute preset paths."""
    needles = _secrets_of(login_app, tmp_path)
    with httpx.Client(trust_env=False) as http:
        for route in ROUTES:
            r = http.get(login_app.url.rstrip("/") + route)
            found = [n for n in needles if n in r.text]
            assert not found, (route, r.status_code, found)
        assert http.get(login_app.url).status_code == 200  # the login page itself is served


def test_no_path_on_the_server_in_any_page(app: AppServer, tmp_path: Path) -> None:
    """Signed in, the page, its config and the API description name presets and sets, never their paths; the
    header names the store by its file name."""
    from probe_ui.presets import PRESETS_DIR

    c = client(app, "alice" if app.app.auth is not None else None)
    c.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")
    c.predict("Which?", "choice", "CT\nMRI", "CT", "", STEPS0, [], "my-set", False, api_name="/add_to_benchmark_set")
    roots = [str(tmp_path), str(app.folder), str(PRESETS_DIR.parent), str(Path.home()),
             str(Path(__file__).resolve().parent.parent)]
    with httpx.Client(trust_env=False) as http:
        if app.app.auth is not None:
            http.post(f"{app.url}login", data={"username": "alice", "password": USERS["alice"][1]})
        pages = {route: http.get(app.url.rstrip("/") + route).text
                 for route in ("/", "/config", "/gradio_api/info")}
    assert "probe-ui.db" in pages["/config"]
    for route, text in pages.items():
        found = [r for r in roots if r in text]
        assert not found, (route, found)
    assert "set:my-set" in json.dumps(c.predict([], [], api_name="/list_runs"))  # offered by name
    bad = tmp_path / "broken-preset.yaml"
    bad.write_text("items: [unclosed\n", encoding="utf-8")
    said = c.predict([], handle_file(str(bad)), ["baseline/first"], "", [], 0, "x", api_name="/batch")[0]
    assert "broken-preset.yaml" in said and "/tmp" not in said  # a file named without its folder on the server


# ---- saved sets --------------------------------------------------------------------------------------------------

def test_a_saved_set_is_its_owners_until_shared(login_app: AppServer) -> None:
    """Issue: another session appended its item to someone else's benchmark set."""
    from probe_ui.presets import load_preset

    a, b = client(login_app, "alice"), client(login_app, "bob")
    for c in (a, b):
        c.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")

    def save(c: Client, question: str, share: bool = False) -> str:
        return c.predict(question, "choice", "CT\nMRI", "CT", "", STEPS0, [], "a-set", share,
                         api_name="/add_to_benchmark_set")[0]

    assert "yours alone" in save(a, "Which modality?")
    path = login_app.db.parent / "presets" / "a-set.yaml"
    before = path.read_bytes()
    assert "another user" in save(b, "Bob's question?")
    assert path.read_bytes() == before
    assert "unknown preset" in b.predict("set:a-set", api_name="/preset_items")[-1]
    assert "a-set" not in json.dumps(b.predict([], [], api_name="/list_runs"))

    assert "shared with everyone" in save(a, "Which modality, again?", share=True)
    assert "set:a-set" in json.dumps(b.predict([], [], api_name="/list_runs"))  # now offered to Bob
    assert b.predict("set:a-set", api_name="/preset_items")[0]
    assert "another user" in save(b, "Bob's question?")  # still not Bob's to change
    preset = load_preset(path)
    assert len(preset.items) == 2 and "Bob" not in path.read_text()


# ---- what held ---------------------------------------------------------------------------------------------------

def test_file_routes_refuse_path_tricks(app: AppServer) -> None:
    tricks = ["/gradio_api/file=/etc/passwd", "/gradio_api/file=../../../../etc/passwd",
              "/gradio_api/file=..%2F..%2F..%2Fetc%2Fpasswd", "/file=/etc/passwd",
              f"/gradio_api/file={app.db}", "/gradio_api/file=%2Fetc%2Fpasswd",
              "/assets/..%2F..%2F..%2F..%2Fetc%2Fpasswd", "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
              "/assets/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd"]
    with httpx.Client(trust_env=False) as http:
        if app.app.auth is not None:
            http.post(f"{app.url}login", data={"username": "alice", "password": USERS["alice"][1]})
        for trick in tricks:
            r = http.get(app.url.rstrip("/") + trick)
            assert r.status_code in (403, 404) and "root:" not in r.text, (trick, r.status_code)


def test_the_page_s_scripts_are_gradio_s_own_compressed_once_and_cached(app: AppServer) -> None:
    """probe_ui/app/static_assets.py: what a browser fetches on arrival comes from memory, byte for byte what
    Gradio ships, and a browser that has a build file does not ask again."""
    import re

    from probe_ui.app.static_assets import gradio_frontend_folders

    with httpx.Client(trust_env=False) as http:
        if app.app.auth is not None:
            http.post(f"{app.url}login", data={"username": "alice", "password": USERS["alice"][1]})
        page = http.get(app.url).text
        names = re.findall(r"/assets/([A-Za-z0-9_.-]+\.js)", page)
        assert names, page[:500]
        r = http.get(f"{app.url}assets/{names[0]}", headers={"Accept-Encoding": "br"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "br"
        assert r.content == (gradio_frontend_folders()["/assets/"] / names[0]).read_bytes()
        assert "immutable" in r.headers["cache-control"]
        again = http.get(f"{app.url}assets/{names[0]}", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304


def test_uploads_stay_in_their_session(app: AppServer) -> None:
    from pydicom.data import get_testdata_file

    a, b = two(app)
    info = a.predict(handle_file(get_testdata_file("CT_small.dcm", download=False)), STEPS0,
                     api_name="/load_image")[1]
    assert "DICOM" in info
    assert "window 40/400" in a.predict(40, 400, 0, None, None, api_name="/apply_window")[1]
    msg = b.predict(40, 400, 0, None, None, api_name="/apply_window")[-1]
    assert "upload a DICOM" in msg  # B has no upload: A's stays A's
