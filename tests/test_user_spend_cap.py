"""A user's spending limit in the app (issue 50, probe_ui.runner.allowance): an admin sets it in the users file
(``probe-ui users limit NAME USD``), what a user has spent is the stored cost of their own runs' calls plus their
calls in flight, a reached limit refuses the next call with one line, raising it lets the next request through, and
requests sent at once never pass it together; through the app, a user with a small limit probes a priced model until
refused while another user is not."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from helpers import choice_item, run_cli, write_png, write_preset

from probe_ui.items import Variant
from probe_ui.messages import Response
from probe_ui.providers.base import ModelConfig
from probe_ui.runner import BatchError, BatchOptions, plan_cells, run_batch
from probe_ui.runner.allowance import Allowance, LimitReached, SpendLimitReached, limit_line
from probe_ui.runner.spend import SpendCap, SpendCapReached, SpendStopped, estimate, usd
from probe_ui.security.users import Accounts, UsersError, add_user, read_users, set_limit
from probe_ui.store import Store, responses, runs

LINE = re.compile(r"^Your spending limit of \$[\d,.]+ is reached \(\$[\d,.]+ spent\); ask an admin to raise it\.$")


def preset(folder: Path, n: int, name: str = "p") -> Path:
    write_png(folder / "im.png", size=(16, 16))
    return write_preset(folder / f"{name}.yaml", [choice_item(i, "im.png", answer="B") for i in range(n)])


def priced_model(folder: Path, base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalogue entry ``priced`` on the loopback server at $1,000 per million tokens both ways."""
    backends = folder / "backends"
    backends.mkdir(exist_ok=True)
    (backends / "priced.yaml").write_text(yaml.safe_dump({
        "name": "priced", "provider": "openai", "model": "fake-vlm", "base_url": base_url,
        "price_input_per_m": 1000.0, "price_output_per_m": 1000.0}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def users(path: Path, **limits: float | None) -> Path:
    for name in ("alice", "bob", "root"):
        add_user(path, name, "admin" if name == "root" else "prober", f"{name}-passphrase")
    for name, usd_ in limits.items():
        set_limit(path, name, usd_)
    return path


def cost_of(store: Store, user: str) -> float:
    q = (sa.select(sa.func.coalesce(sa.func.sum(responses.c.cost), 0.0))
         .select_from(responses.join(runs, responses.c.run_id == runs.c.id)).where(runs.c.created_by == user))
    with store.engine.connect() as c:
        return float(c.execute(q).scalar() or 0.0)


def the_request(tmp_path: Path) -> tuple[ModelConfig, object]:
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import stream_variants

    m = ModelConfig(name="m", provider="openai", model="x", base_url="https://api.example.com/v1",
                    price_input_per_m=1000.0, price_output_per_m=1000.0)
    v = next(x for x in stream_variants(load_preset(preset(tmp_path, 1)), 0, []) if isinstance(x, Variant))
    return m, plan_cells([v], [m], None, 0)[0].request


# ---- the users file and the command line --------------------------------------------------------------------------
def test_an_admin_sets_and_clears_a_limit_from_the_command_line(tmp_path: Path, capsys) -> None:
    f = users(tmp_path / "users")
    code, out, err = run_cli(capsys, "users", "limit", "alice", "5", "--file", str(f))
    assert code == 0, err
    assert "alice may spend $5.00" in out
    assert read_users(f)["alice"].max_cost_usd == 5.0 and read_users(f)["bob"].max_cost_usd is None
    assert "alice:prober:scrypt$" in f.read_text() and ":max_cost_usd=5.0\n" in f.read_text()
    code, out, _ = run_cli(capsys, "users", "list", "--file", str(f))
    assert "alice\tprober\tlimit $5.00" in out.splitlines() and "bob\tprober" in out.splitlines()
    add_user(f, "alice", "prober", "a new passphrase")  # a new password keeps the limit
    assert read_users(f)["alice"].max_cost_usd == 5.0
    code, out, _ = run_cli(capsys, "users", "limit", "alice", "--clear", "--file", str(f))
    assert code == 0 and "alice has no spending limit now" in out
    assert read_users(f)["alice"].max_cost_usd is None and "max_cost_usd" not in f.read_text().split("\n", 1)[1]


@pytest.mark.parametrize("bad", ["abc", "-1", "nan", "inf", "1e400", ""])
def test_a_bad_amount_is_refused_with_one_line_naming_the_field(tmp_path: Path, capsys, bad: str) -> None:
    f = users(tmp_path / "users")
    before = f.read_bytes()
    code, out, err = run_cli(capsys, "users", "limit", "alice", bad, "--file", str(f))
    assert code != 0 and not out
    assert len(err.strip().splitlines()) == 1, err
    assert "max_cost_usd" in err and "US dollars" in err
    assert f.read_bytes() == before  # nothing was changed


def test_the_command_needs_an_amount_or_clear_and_a_known_user(tmp_path: Path, capsys) -> None:
    f = users(tmp_path / "users")
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "users", "limit", "alice", "--file", str(f))
    assert exc.value.code == 2 and "or --clear" in capsys.readouterr().err
    code, _, err = run_cli(capsys, "users", "limit", "carol", "3", "--file", str(f))
    assert code == 1 and "no user 'carol'" in err and len(err.strip().splitlines()) == 1


def test_a_users_file_with_a_bad_limit_names_the_line_and_field(tmp_path: Path) -> None:
    f = users(tmp_path / "users", alice=2.0)
    text = f.read_text()
    for bad, says in (("max_cost_usd=lots", "max_cost_usd 'lots'"), ("budget=3", "unknown field 'budget'")):
        (tmp_path / "bad").write_text(text.replace("max_cost_usd=2.0", bad))
        with pytest.raises(UsersError, match=rf"bad: line \d+: {says}"):
            read_users(tmp_path / "bad")


# ---- what a user has spent, and the hold ---------------------------------------------------------------------------
def test_only_the_users_own_runs_count(tmp_path: Path, fake_openai, monkeypatch) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    store = Store(tmp_path / "s.db")
    p = preset(tmp_path, 3)
    from probe_ui.presets import load_preset

    run_batch(store, [load_preset(p)], ["priced"], BatchOptions(run_name="a1", progress=False, user="alice"))
    run_batch(store, [load_preset(p)], ["priced"],
              BatchOptions(run_name="b1", progress=False, user="bob", use_cache=False))
    allowance = Allowance(store, lambda user: None)
    alice, bob = allowance.spent("alice"), allowance.spent("bob")
    assert alice > 0.1 and bob > 0.1
    assert alice == pytest.approx(cost_of(store, "alice")) and bob == pytest.approx(cost_of(store, "bob"))
    assert store.user_cost("alice") == pytest.approx(alice) and store.user_cost("carol") == 0
    # a cached answer costs its user nothing: bob's same batch again, from the cache, in a run of his own
    run_batch(store, [load_preset(p)], ["priced"], BatchOptions(run_name="b2", progress=False, user="bob"))
    assert allowance.spent("bob") == pytest.approx(bob)


def test_a_judge_asked_of_another_users_run_is_charged_to_who_asked_even_after_a_restart(
        tmp_path: Path, fake_openai, monkeypatch) -> None:
    """Bob asks the judge about Alice's unread replies: the judge's calls, stored in her run, count against his
    limit and not hers, and still do when the app starts again (a new Allowance reads the store)."""
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.presets import load_preset
    from probe_ui.runner import resolve_models
    from probe_ui.scoring.fallback import judge_runs

    store = Store(tmp_path / "s.db")
    fake_openai.answer = "Hard to say from this picture."  # nothing the rules can read: left for the judge
    run_batch(store, [load_preset(preset(tmp_path, 3))], ["priced"],
              BatchOptions(run_name="alices", progress=False, user="alice"))
    alice_before = store.user_cost("alice")
    assert alice_before > 0 and store.user_cost("bob") == 0
    fake_openai.answer = "B"
    allowance = Allowance(store, {"bob": 100.0}.get)
    lines = judge_runs(store, ["alices"], resolve_models(["priced"])[0], cap_of=lambda run: allowance.cap("bob"))
    assert any("judge" in line for line in lines), lines
    with store.engine.connect() as c:
        judged = float(c.execute(sa.select(sa.func.sum(responses.c.cost)).where(responses.c.role == "judge")).scalar()
                       or 0.0)
    assert judged > 0
    assert store.user_cost("alice") == pytest.approx(alice_before)  # her run, not her call
    assert store.user_cost("bob") == pytest.approx(judged)
    restarted = Allowance(store, {"bob": 100.0}.get)
    assert restarted.spent("bob") == pytest.approx(judged) and restarted.spent("alice") == pytest.approx(alice_before)


def test_a_models_test_call_is_held_to_the_limit_and_counts_though_it_is_not_stored(tmp_path: Path, fake_openai,
                                                                                   monkeypatch) -> None:
    """The Models tab's Test sends one real request: a user at their limit cannot send it (one line, nothing sent),
    one under it can, and its cost then counts against them although no answer is stored."""
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.catalogue.endpoints import test_model

    store = Store(tmp_path / "s.db")
    limits = {"alice": 0.0, "bob": 100.0}
    allowance = Allowance(store, limits.get)
    refused = test_model("priced", spend=allowance.cap("alice"))
    assert not refused["ok"] and LINE.match(refused["error"]), refused
    assert not fake_openai.chat_requests  # nothing left for the server
    fine = test_model("priced", spend=allowance.cap("bob"))
    assert fine["ok"], fine
    assert len(fake_openai.chat_requests) == 1
    spent = allowance.spent("bob")
    assert spent > 0 and store.user_cost("bob") == 0  # counted, not stored
    limits["bob"] = spent  # the limit now reached: the next Test is refused
    again = test_model("priced", spend=allowance.cap("bob"))
    assert not again["ok"] and LINE.match(again["error"]) and len(fake_openai.chat_requests) == 1
    unpriced = ModelConfig(name="openai/gpt-x", provider="openai", model="gpt-x", base_url="https://api.example.com")
    held = test_model("openai/gpt-x", {"openai/gpt-x": unpriced}, spend=allowance.cap("bob"))
    assert not held["ok"] and "has no known price" in held["error"]


def test_a_reached_limit_refuses_and_raising_it_lets_the_next_request_through(tmp_path: Path, fake_openai,
                                                                               monkeypatch) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.presets import load_preset

    store, p = Store(tmp_path / "s.db"), load_preset(preset(tmp_path, 2))
    f = users(tmp_path / "users")
    accounts = Accounts.from_file(f)
    allowance = Allowance(store, accounts.limit)
    run_batch(store, [p], ["priced"], BatchOptions(run_name="first", progress=False, user="alice"),
              user_cap=allowance.cap("alice"))
    spent = allowance.spent("alice")
    assert spent > 0 and len(fake_openai.chat_requests) == 2

    set_limit(f, "alice", spent / 2)  # the admin sets a limit under what she has spent: live, no restart
    with pytest.raises(SpendLimitReached) as refused:
        run_batch(store, [p], ["priced"],
                  BatchOptions(run_name="second", progress=False, user="alice", use_cache=False),
                  user_cap=allowance.cap("alice"))
    assert refused.value.line == limit_line(spent / 2, spent) and LINE.match(refused.value.line)
    assert len(fake_openai.chat_requests) == 2  # nothing was sent
    with pytest.raises(SpendLimitReached):
        allowance.check("alice")
    allowance.check("alice", [ModelConfig(name="baseline/first", provider="baseline", model="first")])  # free
    allowance.check("bob")  # bob has no limit

    set_limit(f, "alice", spent * 10)  # raised: the next request goes
    result = run_batch(store, [p], ["priced"],
                       BatchOptions(run_name="second", progress=False, user="alice", use_cache=False),
                       user_cap=allowance.cap("alice"))
    assert result.answered == 2 and result.spend_line is None and len(fake_openai.chat_requests) == 4
    assert result.spent is None  # no --max-cost: the run's own spend is not what the user's limit reports
    set_limit(f, "alice", None)  # cleared: no limit at all
    allowance.check("alice")


def test_a_batch_stops_at_the_limit_keeps_its_answers_and_resumes_once_raised(tmp_path: Path, fake_openai,
                                                                              monkeypatch) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.presets import load_preset
    from probe_ui.runner import resume_batch

    store, p = Store(tmp_path / "s.db"), load_preset(preset(tmp_path, 8))
    limits = {"alice": 0.5}
    allowance = Allowance(store, limits.get)
    result = run_batch(store, [p], ["priced"],
                       BatchOptions(run_name="r", progress=False, user="alice", concurrency=2),
                       user_cap=allowance.cap("alice"))
    stored = cost_of(store, "alice")
    assert 0 < result.answered < 8 and result.errors == 0
    assert len(fake_openai.chat_requests) == result.answered  # every request sent is stored
    assert 0 < stored <= 0.5
    line = result.spend_line or ""
    assert line.startswith(limit_line(0.5, stored)), line
    assert line.endswith(f"{8 - result.answered} of 8 answers were not asked; asking again once it is raised asks "
                         "only those.")
    limits["alice"] = 100.0
    again = resume_batch(store, "r", BatchOptions(progress=False, user="alice"), user_cap=allowance.cap("alice"))
    assert again.answered == 8 - result.answered and again.spend_line is None
    assert len(fake_openai.chat_requests) == 8


def test_the_users_limit_and_a_runs_cap_hold_together(tmp_path: Path) -> None:
    m, req = the_request(tmp_path)
    est = estimate(m, req)
    allowance = Allowance(_EmptyStore(), {"alice": 10 * est}.get)
    with allowance.cap("alice").within(SpendCap(1.5 * est)) as cap:
        cap.reserve(m, req)
        with pytest.raises(SpendCapReached) as exc:  # the run's --max-cost stops it first
            cap.reserve(m, req)
        assert not isinstance(exc.value, LimitReached) and cap.reached and cap.limit_line() is None
        assert "--max-cost" in cap.line(1, 2)
    with allowance.cap("alice").within(SpendCap(100 * est)) as cap:
        for _ in range(10):  # the first action's reservation was released when it ended without a reply
            cap.reserve(m, req)
        with pytest.raises(LimitReached):
            cap.reserve(m, req)
        assert cap.limit_line() and LINE.match(cap.limit_line() or "")
        assert cap.inner is not None and cap.inner.reserved == pytest.approx(10 * est)  # released from the run's cap


class _EmptyStore:
    """A store in which nobody has spent anything yet."""

    def user_cost(self, user: str) -> float:
        return 0.0


def test_concurrent_reservations_cannot_pass_the_limit(tmp_path: Path) -> None:
    m, req = the_request(tmp_path)
    est = estimate(m, req)
    assert est > 0
    allowance = Allowance(_EmptyStore(), {"alice": 10.5 * est}.get)
    caps = [allowance.cap("alice") for _ in range(4)]  # four actions of hers at once: a probe, a batch, ...
    bob = allowance.cap("bob")
    granted: list[float] = []
    refused: list[int] = []
    start = threading.Barrier(8)

    def work(cap) -> None:
        start.wait()
        for _ in range(10):
            try:
                granted.append(cap.reserve(m, req))
            except LimitReached as exc:
                assert LINE.match(exc.line), exc.line
                refused.append(1)
                return

    for cap in (*caps, bob):
        cap.__enter__()
    threads = [threading.Thread(target=work, args=(c,)) for c in (*caps, *caps)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(granted) == 10 and sum(granted) <= 10.5 * est  # together, never past the limit
    assert all(c.reached for c in caps) and refused
    assert allowance.spent("alice") == pytest.approx(10 * est)  # the ten in flight count as spent
    for _ in range(50):  # bob has no limit: never refused
        bob.reserve(m, req)
    # the replies come back: their costs replace the estimates, and the limit frees what they did not use
    for cap in caps:
        while cap.reserved > 1e-12:
            cap.settle(est, Response(text="B", input_tokens=10, output_tokens=1, cost=0.011))
    assert allowance.spent("alice") == pytest.approx(0.011 * 10)
    fresh = allowance.cap("alice")
    with fresh:
        fresh.reserve(m, req)  # a new action has room again
    for cap in (*caps, bob):
        cap.__exit__(None, None, None)


def test_a_model_the_limit_cannot_hold_is_refused_and_free_ones_always_go(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    m, req = the_request(tmp_path)
    unpriced = ModelConfig(name="openai/gpt-x", provider="openai", model="gpt-x", base_url="https://api.example.com")
    local = ModelConfig(name="local", provider="openai", model="x", base_url="http://127.0.0.1:9/v1")
    base = ModelConfig(name="baseline/first", provider="baseline", model="first")
    limits: dict[str, float] = {"alice": 0.0}
    allowance = Allowance(_EmptyStore(), limits.get)
    with allowance.cap("alice") as cap:
        assert list(cap.refusals([unpriced, local, base, m])) == ["openai/gpt-x"]
        with pytest.raises(LimitReached, match="openai/gpt-x has no known price"):
            cap.reserve(unpriced, req)
        cap.reserve(local, req)
        cap.reserve(base, req)  # a $0 limit: only what costs nothing
        with pytest.raises(LimitReached):
            cap.reserve(m, req)
        assert cap.not_sent("openai/gpt-x") and cap.not_sent("m")
    with allowance.cap("bob") as cap:  # no limit: nothing refused
        assert cap.refusals([unpriced]) == {} and cap.reserve(unpriced, req) == 0.0


def test_a_live_probe_stops_at_the_limit_and_keeps_its_answers(tmp_path: Path, fake_openai, monkeypatch) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.live import run_live
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import stream_variants
    from probe_ui.runner import resolve_models

    store = Store(tmp_path / "s.db")
    vs = [x for x in stream_variants(load_preset(preset(tmp_path, 1)), 0, ["rotations"]) if isinstance(x, Variant)]
    assert len(vs) >= 4
    model = resolve_models(["priced"])[0]
    est = estimate(model, plan_cells(vs[:1], [model], None, 0)[0].request)
    allowance = Allowance(store, {"alice": 2.5 * est}.get)
    *_, state = run_live(store, vs, ["priced"], user="alice", spend=allowance.cap("alice"))
    answered = [c for c in state.cards if c.status == "answered"]
    refused = [c for c in state.cards if c.status == "error"]
    assert answered and refused and len(answered) + len(refused) == len(vs)  # what fit went; the rest never left
    assert len(fake_openai.chat_requests) == len(answered)
    assert 0 < store.user_cost("alice") <= 2.5 * est
    assert state.spend_line and LINE.match(state.spend_line)
    assert all(c.error == state.spend_line for c in refused)
    # a limit that leaves less than one call: the next probe is refused before anything is made
    allowance.limit_of = {"alice": allowance.spent("alice") + 0.5 * est}.get
    runs_before = len(store.list_runs())
    with pytest.raises(SpendLimitReached):
        next(run_live(store, vs, ["priced"], user="alice", spend=allowance.cap("alice")))
    assert len(store.list_runs()) == runs_before
    # a stress test of the same variants stops the same way, and says so in one line after what was answered
    from probe_ui.stress import run_stress

    asked = len(fake_openai.chat_requests)
    allowance.limit_of = {"alice": allowance.spent("alice") + 1.4 * est}.get
    with pytest.raises(SpendStopped) as stopped:
        run_stress(store, "rotations", ["priced"], variants=vs, run_name="stress-a", user="alice",
                   spend=allowance.cap("alice"), seed=1)
    assert LINE.match(stopped.value.line) and len(fake_openai.chat_requests) == asked + 1
    assert store.get_run("stress-a").created_by == "alice"


def test_the_judge_is_held_to_the_limit_too(tmp_path: Path, fake_openai, monkeypatch) -> None:
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    from probe_ui.runner import resolve_models
    from probe_ui.scoring.fallback import JudgeError, judge_runs

    store = Store(tmp_path / "s.db")
    judge = resolve_models(["priced"])[0]
    allowance = Allowance(store, {"alice": 0.0}.get)
    with pytest.raises(SpendLimitReached) as exc:
        judge_runs(store, ["a", "b"], judge, cap_of=lambda run: allowance.cap("alice"))
    assert LINE.match(exc.value.line)
    unpriced = ModelConfig(name="openai/gpt-x", provider="openai", model="gpt-x", base_url="https://api.example.com")
    with pytest.raises(JudgeError, match="has no known price"):
        judge_runs(store, ["a"], unpriced, cap_of=lambda run: allowance.cap("alice"))
    assert not fake_openai.chat_requests


def test_a_batch_refuses_a_model_the_limit_cannot_hold(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    from probe_ui.presets import load_preset

    store = Store(tmp_path / "s.db")
    allowance = Allowance(store, {"alice": 5.0}.get)
    with pytest.raises(BatchError, match="openai/gpt-4o-mini has no known price, so your spending limit"):
        run_batch(store, [load_preset(preset(tmp_path, 1))], ["openai/gpt-4o-mini"],
                  BatchOptions(progress=False, user="alice"), user_cap=allowance.cap("alice"))


def test_the_batch_tab_says_the_limit_in_one_line_after_what_was_answered() -> None:
    from probe_ui.app.batch_tab import summary
    from probe_ui.runner import BatchResult
    from probe_ui.store import Run

    line = limit_line(1, 0.98) + " 3 of 5 answers were not asked; asking again once it is raised asks only those."
    result = BatchResult(run=Run(1, "r", 0, {}, {}, "", "", "alice"), planned=5, answered=2, spend_line=line,
                         plan_complete=True)
    html = summary(result)
    assert "<b>Stopped at your spending limit</b>" in html and "2 new answers" in html
    assert html.count("$1.00") == 1 and "ask an admin to raise it." in html
    assert "answers failed" not in html


def test_usd_in_the_line() -> None:
    assert limit_line(5, 4.98) == "Your spending limit of $5.00 is reached ($4.98 spent); ask an admin to raise it."
    assert usd(0.05) == "$0.05"


# ---- through the app ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_through_the_app_a_user_probes_until_refused_and_another_is_not(tmp_path: Path, fake_openai,
                                                                         monkeypatch) -> None:
    from app_server import api_client, serving

    fake_openai.answer = "CT"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    people = {"alice": ("prober", "alice-pass-1"), "bob": ("prober", "bob-pass-22")}
    gen = serving(tmp_path, monkeypatch, demo=False, max_upload_mb=20, users=people)
    server = next(gen)
    try:
        f = tmp_path / "users"
        set_limit(f, "alice", 0.5)  # the admin's command, while the app runs
        steps = {"headers": ["variant", "perturbation", "parameters"], "data": []}

        def probe(c, k: int) -> tuple[str, str]:
            c.predict("mr_small.png", steps, api_name="/use_bundled_image")
            out = c.predict(f"Which modality is image {k}?", "choice", "CT\nMRI", "CT", "", steps, 0, [], True,
                            "auto (per kind)", [], "priced", api_name="/run")
            return out[1], out[2]  # the run's name, the message beside Run

        alice = api_client(server.url, auth=("alice", people["alice"][1]))
        said, sent = "", []
        for k in range(30):
            run, said = probe(alice, k)
            if "spending limit" in said:
                break
            sent.append(run)
        assert sent, "at least one probe fits the limit"
        text = re.sub(r"<[^>]+>", "", said).replace("⚠", "").strip()
        assert LINE.match(text), said
        assert "$0.50" in text
        store = server.store()
        assert 0 < store.user_cost("alice") <= 0.5
        asked = len(fake_openai.chat_requests)
        assert asked == len(sent)  # the refused probe sent nothing

        bob = api_client(server.url, auth=("bob", people["bob"][1]))
        run, said = probe(bob, 100)
        assert "spending limit" not in said and run
        assert len(fake_openai.chat_requests) == asked + 1

        set_limit(f, "alice", 100)  # raised: her next request goes through, no restart
        run, said = probe(alice, 200)
        assert "spending limit" not in said and len(fake_openai.chat_requests) == asked + 2
    finally:
        gen.close()
