"""Rate limits (issue 50, probe_ui.providers.rate_control): against a server that allows so many requests a second, a
batch loses no cell and is refused little; Retry-After holds back every new request to the server; refusals are
waited out, not counted against the retry budget of real errors, which still fail their cell; a server that refuses
everything for the whole rate-limit wait fails the cells left, saying so.

No wall-clock assertions: the servers' own logs (arrival times, refusals) are checked. Timings are in
perf/rate_limits.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from fake_openai import loopback_no_proxy
from helpers import choice_item, write_png, write_preset
from throttled_openai import ThrottledOpenAIServer, reset_text

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.providers import rate_control
from probe_ui.providers.rate_control import duration_text, reset_seconds
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store, responses


def preset(folder: Path, n: int) -> Path:
    for i in range(4):
        write_png(folder / f"im{i}.png", size=(16, 16), seed=i)
    return write_preset(folder / "p.yaml", [choice_item(i, f"im{i % 4}.png", answer="B") for i in range(n)])


def errors(db: str) -> list[str]:
    with Store(db).engine.connect() as c:
        return [r.error for r in c.execute(sa.select(responses.c.error)) if r.error]


@pytest.fixture(autouse=True)
def fresh_controllers():
    """Each test's servers are new ones (a port used before is another server): no learnt state in or out."""
    rate_control.forget()
    yield
    rate_control.forget()


@pytest.fixture
def on_server(monkeypatch: pytest.MonkeyPatch):
    """Point the openai provider at a server (its base URL) with a key."""
    loopback_no_proxy(monkeypatch)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    def use(base_url: str) -> None:
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)

    return use


@pytest.mark.parametrize("headers", [True, False], ids=["x-ratelimit-headers", "retry-after-only"])
def test_a_throttled_server_loses_no_cell_and_refuses_few_requests(tmp_path, on_server, headers) -> None:
    # 40 items at 20 requests/s (a bucket of 10) with --concurrency 16: before issue 50, cells failed with
    # "HTTP 429 rate limited (after 2 retries)" and more requests were refused than accepted. (At most 6 of the
    # first 16 can be refused before the client has heard from the server: the bound leaves room for that.)
    p = load_preset(preset(tmp_path, 40))
    server = ThrottledOpenAIServer(rate_per_s=20, burst=10, latency_s=0.1, answer="B", rate_headers=headers)
    server.start()
    try:
        on_server(server.base_url)
        result = run_batch(Store(str(tmp_path / "t.db")), [p], ["openai/fake-vlm"],
                           BatchOptions(concurrency=16, progress=False))
    finally:
        server.stop()
    assert result.errors == 0 and result.answered == 40, result.error_messages
    assert server.accepted == 40
    # with the server's bucket in its headers the client keeps to it; with Retry-After alone it learns by refusals
    assert server.refused <= (0.25 if headers else 0.5) * server.accepted


def test_retry_after_holds_back_every_new_request_to_the_server(tmp_path, fake_openai, on_server) -> None:
    # 4 in flight: the first is refused with "Retry-After: 2" (after 0.5 s, so that the others have left), the other
    # three answer after 1 s; the slots they free must wait for the server's 2 s, not leave at once (whole seconds:
    # the header's standard form)
    on_server(fake_openai.base_url)
    fake_openai.answer = "B"
    fake_openai.fail(429, retry_after=2, delay_s=0.5).fail(delay_s=1.0, times=3)
    db = str(tmp_path / "t.db")
    assert main(["batch", str(preset(tmp_path, 8)), "-m", "openai/fake-vlm", "--db", db, "--concurrency", "4",
                 "--no-progress"]) == 0
    assert errors(db) == []
    times = [r.received_at for r in fake_openai.chat_requests]
    assert len(times) == 9  # 8 cells and the refused one again
    refused_at = times[0] + 0.5  # when the refusal left
    first_wave = [t for t in times if t < refused_at + 0.4]  # sent before the client could know
    assert len(first_wave) >= 2, [round(t - refused_at, 3) for t in times]
    early = [round(t - refused_at, 2) for t in times if refused_at + 0.4 <= t < refused_at + 1.95]
    assert early == []  # nothing left between the refusal and the time the server asked for
    assert all(t >= refused_at + 1.95 for t in times[len(first_wave):])


def test_a_real_error_fails_its_cell_after_the_retry_budget_and_refusals_do_not_count(tmp_path, fake_openai,
                                                                                      on_server, capsys) -> None:
    on_server(fake_openai.base_url)
    fake_openai.answer = "B"
    p = preset(tmp_path, 1)
    # a 400: no retry, its own message
    fake_openai.fail(400)
    db = str(tmp_path / "a.db")
    main(["batch", str(p), "-m", "openai/fake-vlm", "--db", db, "--no-progress", "--no-cache"])
    assert len(fake_openai.chat_requests) == 1
    assert len(errors(db)) == 1 and "HTTP 400 bad request" in errors(db)[0]
    # a 500 without a retry signal: the SDK's 2 retries, then the cell fails with the status
    fake_openai.reset()
    fake_openai.fail(500, times=3)
    db = str(tmp_path / "b.db")
    main(["batch", str(p), "-m", "openai/fake-vlm", "--db", db, "--no-progress", "--no-cache"])
    assert len(fake_openai.chat_requests) == 3
    assert len(errors(db)) == 1 and "HTTP 500 server error (after 2 retries)" in errors(db)[0]
    # three refusals, then two 500s: the refusals are waited out and cost nothing of the budget, so the two
    # retries of the 500 are still there and the cell is answered (3 refused + 1 + 2 retries = 6 requests)
    fake_openai.reset()
    fake_openai.fail(429, retry_after=0.05, times=3).fail(500, times=2)
    db = str(tmp_path / "c.db")
    assert main(["batch", str(p), "-m", "openai/fake-vlm", "--db", db, "--no-progress", "--no-cache"]) == 0
    assert errors(db) == []
    assert len(fake_openai.chat_requests) == 6
    # the SDK never retried a refusal itself: each refusal's retry is a first attempt for it
    counts = [r.headers.get("x-stainless-retry-count") for r in fake_openai.chat_requests]
    assert counts == ["0", "0", "0", "0", "1", "2"]
    capsys.readouterr()


def test_when_the_rate_limit_wait_is_over_the_remaining_cells_fail_saying_so(tmp_path, fake_openai, on_server,
                                                                             capsys) -> None:
    on_server(fake_openai.base_url)
    fake_openai.fail(429, retry_after=0.2, times=10_000)
    db = str(tmp_path / "t.db")
    main(["batch", str(preset(tmp_path, 6)), "-m", "openai/fake-vlm", "--db", db, "--no-progress",
          "--concurrency", "2", "--rate-limit-wait", "1.5"])
    failed = errors(db)
    assert len(failed) == 6
    assert all("HTTP 429 rate limited" in e and "still rate limited after 1.5 s" in e for e in failed), failed
    # the wait is the server's, not each cell's: about one request per pause, not 6 cells x 1.5 s of them
    assert len(fake_openai.chat_requests) <= 20
    out = capsys.readouterr()
    assert "still rate limited after 1.5 s" in out.out + out.err


def test_a_negative_rate_limit_wait_is_refused(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["batch", str(preset(tmp_path, 1)), "-m", "baseline/first", "--db", str(tmp_path / "t.db"),
              "--rate-limit-wait", "-1"])
    assert "--rate-limit-wait" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", [0.017, 0.5, 1.5, 59.25, 360.0, 3723.5])
def test_reset_durations_read_back_as_written(seconds) -> None:
    assert reset_seconds(reset_text(seconds)) == pytest.approx(seconds, abs=0.001)


@pytest.mark.parametrize("text, seconds", [("120ms", 0.12), ("6m0s", 360.0), ("1h2m3s", 3723.0), ("2.5", 2.5),
                                           ("soon", None), ("", None), ("1x", None)])
def test_openai_reset_headers_are_read(text, seconds) -> None:
    assert reset_seconds(text) == (pytest.approx(seconds) if seconds is not None else None)


def test_durations_in_messages() -> None:
    assert [duration_text(s) for s in (1.5, 45, 600, 90)] == ["1.5 s", "45 s", "10 min", "1.5 min"]


def test_anthropics_rate_limit_headers_teach_the_same_bucket_as_openais() -> None:
    """Anthropic sends anthropic-ratelimit-requests-{limit,remaining,reset} (the reset a time, RFC 3339): a server
    sending them is paced from its bucket as one sending OpenAI's x-ratelimit-* (the reset a duration) is."""
    from datetime import datetime, timedelta, timezone

    at = (datetime.now(timezone.utc) + timedelta(seconds=6)).isoformat().replace("+00:00", "Z")
    anthropic = {"anthropic-ratelimit-requests-limit": "50", "anthropic-ratelimit-requests-remaining": "20",
                 "anthropic-ratelimit-requests-reset": at}
    openai = {"x-ratelimit-limit-requests": "50", "x-ratelimit-remaining-requests": "20",
              "x-ratelimit-reset-requests": "6s"}
    limit, remaining, reset = rate_control.bucket_headers(anthropic)
    assert (limit, remaining) == (50, 20) and reset == pytest.approx(6, abs=0.5)
    assert rate_control.bucket_headers(openai) == (50, 20, 6)
    assert rate_control.bucket_headers({"anthropic-ratelimit-requests-reset": "not a time"}) == (None, None, None)
    learnt = []
    for headers in (anthropic, openai):
        control = rate_control.RateControl("s", 8)
        control.observe(rate_control.Ticket(seq=0, sent_at=0.0), 200, headers)
        learnt.append(control.status()["rate_per_s"])
    assert learnt[0] == pytest.approx(learnt[1], rel=0.1) and learnt[1] == pytest.approx(5.0)  # (50 - 20) / 6 s
