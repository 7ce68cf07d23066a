"""Live probes send every call at once, within one fair limit per provider and server shared by every probe
(probe_ui.live.calls), reuse their SDK clients, honour Retry-After, and fill their table without reading back.

No wall-clock goals here (those are perf/live_probe.py's): the tests look at the ORDER and OVERLAP of the
requests in the loopback server's log."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from probe_ui import live
from probe_ui.live import calls as live_calls
from probe_ui.presets import ASSETS_DIR
from probe_ui.providers import sdk, shared_clients
from probe_ui.providers.base import ModelConfig
from probe_ui.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "db" / "probe-ui.db")
    yield s
    s.close()


@pytest.fixture(autouse=True)
def fresh_limits():
    """Each test starts with no live limits and no shared clients (as a fresh app would)."""
    live_calls.shutdown()
    yield
    live_calls.shutdown()


@pytest.fixture
def ct():
    return live.load_upload(str(ASSETS_DIR / "ct_head_axial.png")).image


def variants(ct, question="Which modality?", n_steps=5):
    it = live.build_item(question, "choice", "CT\nMRI\nUltrasound", "CT", "", (ct,))
    steps = [[i, "rotate", json.dumps({"angle": 10 * i})] for i in range(1, n_steps + 1)]
    return live.make_variants(it, (ct,), live.parse_steps(steps))


def models(server, names=("a", "b", "c"), **kw):
    return {f"openai/{m}": ModelConfig(name=f"openai/{m}", provider="openai", model=m, base_url=server.base_url, **kw)
            for m in names}


def in_flight_together(requests, latency_s):
    """Whether every request reached the server before the first answer could have left it."""
    times = sorted(r.received_at for r in requests)
    return times[-1] - times[0] < latency_s


def most_within(requests, window_s):
    """The most requests that reached the server within any ``window_s`` (each is in flight at least that long)."""
    times = sorted(r.received_at for r in requests)
    return max(sum(1 for t in times[i:] if t - start < window_s) for i, start in enumerate(times))


def finish(states):
    state = None
    for state in states:
        pass
    return state


# ---- one probe ---------------------------------------------------------------------------------------------------
def test_all_calls_of_a_live_probe_are_in_flight_together(store, ct, fake_openai):
    # 6 variants x 3 models of one server: 18 calls, more than the old limit of 8 per provider
    fake_openai.latency_s = 3.0
    extra = models(fake_openai)
    state = finish(live.run_live(store, variants(ct), list(extra), extra_models=extra, use_cache=False))
    assert state.finished and state.done == 18 and all(c.status == "answered" for c in state.cards)
    assert len(fake_openai.chat_requests) == 18
    assert in_flight_together(fake_openai.chat_requests, fake_openai.latency_s)


def test_the_cards_come_from_memory_not_from_reading_the_store(store, ct, fake_openai, monkeypatch):
    extra = models(fake_openai, ("a",))

    def no_read(*a, **k):
        raise AssertionError("the table read an answer back from the store")

    monkeypatch.setattr(store, "get_response", no_read)
    monkeypatch.setattr(store, "response_id", no_read)
    saved = []
    real_save = store.save_response
    monkeypatch.setattr(store, "save_response", lambda row: saved.append(row) or real_save(row))
    state = finish(live.run_live(store, variants(ct, n_steps=2), list(extra), extra_models=extra, use_cache=False))
    assert len(saved) == 3  # one write per answer
    monkeypatch.undo()
    for card in state.cards:  # what the card shows is what was stored
        row = store.get_response(card.response_id)
        assert card.status == "answered" and (card.parsed, card.correct) == (row["parsed"], row["correct"])
        assert card.raw == row["raw_text"]


def test_ratings_are_read_once_per_probe_and_again_after_a_rating(store, ct):
    state = finish(live.run_live(store, variants(ct, n_steps=1), ["baseline/first"]))
    reads = []
    real = store.ratings_frame
    store.ratings_frame = lambda *a, **k: reads.append(1) or real(*a, **k)  # type: ignore[method-assign]
    for _ in range(20):  # the table redrawn as answers arrive
        assert live.ratings_of(store, state.run) == {}
    assert len(reads) == 1
    rid = state.cards[0].response_id
    store.rate_response(rid, "correct", "fine", rater="dr lee")
    assert live.ratings_of(store, state.run) == {rid: ("correct", "fine")}
    assert len(reads) == 2


# ---- the shared, fair limit ---------------------------------------------------------------------------------------
def test_the_live_limit_is_one_per_server_across_probes(store, ct, fake_openai):
    fake_openai.latency_s = 0.6
    extra = models(fake_openai, ("a", "b"), live_concurrency=4)
    done = []

    def probe(i):
        done.append(finish(live.run_live(store, variants(ct, f"Which modality ({i})?", 3), list(extra),
                                         extra_models=extra, use_cache=False, user=f"user{i}")))

    threads = [threading.Thread(target=probe, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [s.done for s in done] == [8, 8, 8] and all(c.status == "answered" for s in done for c in s.cards)
    assert len(fake_openai.chat_requests) == 24
    assert most_within(fake_openai.chat_requests, fake_openai.latency_s) <= 4  # never more than the limit at once
    rows = live_calls.status("user0")
    assert [(r.provider, r.where, r.limit, r.in_flight, r.waiting) for r in rows] == [
        ("openai", fake_openai.base_url, 4, 0, 0)]


def test_two_servers_have_two_limits(fake_openai):
    from probe_ui.providers import create

    one = ModelConfig(name="x", provider="openai", model="m", base_url="http://127.0.0.1:1/v1")
    two = ModelConfig(name="y", provider="openai", model="m", base_url="http://127.0.0.1:2/v1")
    same = ModelConfig(name="z", provider="openai", model="other", base_url="http://127.0.0.1:1/v1")
    limits = [live_calls.limit_for(create(m), m) for m in (one, two, same)]
    assert limits[0] is limits[2] and limits[0] is not limits[1]
    # a 10-variant x 8-model probe at once, and ten people's 6 x 3 probes pressed at the same moment
    assert limits[0].capacity == live_calls.DEFAULT_LIVE_LIMIT >= 10 * 6 * 3


def test_waiting_calls_are_let_in_round_robin_between_probes():
    async def scenario():
        limit = live_calls.FairLimit("openai", "server", 1)
        order = []

        async def call(owner, n):
            await limit.acquire(owner)
            order.append(f"{owner}{n}")
            await asyncio.sleep(0)
            limit.release()

        await limit.acquire("hold")  # the one slot is taken: everything below waits
        tasks = [asyncio.create_task(call("A", n)) for n in range(3)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(call("B", 0)))
        await asyncio.sleep(0)
        limit.release()
        await asyncio.gather(*tasks)
        return order

    # probe B's one call does not wait behind all of probe A's
    assert asyncio.run(scenario()) == ["A0", "B0", "A1", "A2"]


def test_a_cancelled_wait_gives_its_place_back():
    async def scenario():
        limit = live_calls.FairLimit("openai", "server", 1)
        await limit.acquire("A")
        waiter = asyncio.create_task(limit.acquire("B"))
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        limit.release()
        return limit.in_flight, limit.queued

    assert asyncio.run(scenario()) == (0, 0)


def test_retry_after_holds_back_new_calls_to_that_server(store, ct, fake_openai):
    # max_retries 0 is no retry of a real error; a rate-limit refusal is still waited out as the server asks and sent
    # again (issue 50, probe_ui.providers.rate_control): the card is answered, not failed
    extra = models(fake_openai, ("a",), options={"max_retries": 0})
    fake_openai.fail(429, retry_after=1.0)
    first = finish(live.run_live(store, variants(ct, "first?", 0), list(extra), extra_models=extra,
                                 use_cache=False))
    assert first.cards[0].status == "answered"
    rejected, retried = fake_openai.chat_requests
    assert retried.received_at - rejected.received_at >= 0.9  # the server's Retry-After, not at once


@pytest.mark.parametrize("headers, wait", [({"retry-after": "2"}, 2.0), ({"retry-after-ms": "250"}, 0.25),
                                           ({"retry-after": "soon"}, None), ({}, None)])
def test_retry_after_is_read_in_seconds_milliseconds_or_not_at_all(headers, wait):
    assert shared_clients.retry_after_s(headers) == wait


# ---- clients -------------------------------------------------------------------------------------------------------
def test_clients_are_made_once_per_server_and_key_and_closed_at_shutdown(store, ct, fake_openai, monkeypatch):
    made = []
    real = sdk.capped_http_client
    monkeypatch.setattr(sdk, "capped_http_client", lambda *a: made.append(real(*a)) or made[-1])
    extra = models(fake_openai)
    for i in range(live_calls.LOOPS + 2):  # probes of three models each, one server, one key
        finish(live.run_live(store, variants(ct, f"q{i}?", 1), list(extra), extra_models=extra, use_cache=False))
    assert len(made) <= live_calls.LOOPS and len(made) < 9  # one per loop, not one per model per probe
    other_key = {"k": ModelConfig(name="k", provider="openai", model="a", base_url=fake_openai.base_url,
                                  secret="sk-someone-else-1234567890")}
    before = len(made)
    finish(live.run_live(store, variants(ct, "q-other?", 0), ["k"], extra_models=other_key, use_cache=False))
    assert len(made) == before + 1  # another person's key never rides on someone else's client
    live_calls.shutdown()
    assert all(c.is_closed for c in made)


# ---- what the Models tab shows -----------------------------------------------------------------------------------
def test_status_names_a_server_only_to_those_who_used_it(store, ct, fake_openai):
    extra = models(fake_openai, ("a",))
    finish(live.run_live(store, variants(ct, n_steps=0), list(extra), extra_models=extra, user="alice"))
    assert fake_openai.base_url in live_calls.status_text("alice")
    text = live_calls.status_text("bob")
    assert fake_openai.base_url not in text and "another server" in text and "in flight" in text
    assert fake_openai.base_url in live_calls.status_text("bob", admin=True)


# ---- probe-ui stress of one item -----------------------------------------------------------------------------------
def test_stress_of_one_item_sends_its_calls_together(tmp_path, fake_openai, monkeypatch):
    from probe_ui.cli import main

    fake_openai.latency_s = 3.0  # long enough for a busy machine to send 18 calls; a wave would wait one answer
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    args = ["stress", "medblink_depth/depth-echo", "--suite", "dot-colours", "-m", "openai/a", "-m", "openai/b",
            "-m", "openai/c", "--db", str(tmp_path / "probe-ui.db"), "--json"]
    assert main(args) == 0
    calls = fake_openai.chat_requests
    assert len(calls) == 18  # six colour permutations x three models, more than a batch's 8 per provider
    assert in_flight_together(calls, fake_openai.latency_s)


def test_baselines_are_not_servers_in_the_live_calls_view(store, ct, fake_openai):
    """A baseline (random, first option) answers in this process: it takes no server's place and is not listed as
    a server beside the real one."""
    extra = models(fake_openai, ("a",))
    finish(live.run_live(store, variants(ct, n_steps=0), ["baseline/random", "baseline/first", *extra],
                         extra_models=extra, user="alice"))
    assert [(r.provider, r.where) for r in live_calls.status("alice")] == [("openai", fake_openai.base_url)]
    assert "baseline" not in live_calls.status_text("alice")
