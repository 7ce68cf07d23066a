"""The spend cap (issue 50, ``--max-cost``, probe_ui.runner.spend): a batch against the loopback OpenAI server stops
before its cap with what it spent stored, the same command with a raised cap finishes it without asking anything
twice, a model with no price is refused before anything is sent, and a cap that is not an amount is a usage error."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from helpers import choice_item, run_cli, write_png, write_preset

from probe_ui.items import Variant
from probe_ui.messages import Response
from probe_ui.providers.base import ModelConfig
from probe_ui.runner import BatchError, plan_cells
from probe_ui.runner.spend import SpendCap, SpendCapReached, check_cap, costs_nothing, estimate, unpriced, usd
from probe_ui.store import Store, responses

N = 12


def preset(folder: Path, n: int = N) -> Path:
    write_png(folder / "im.png", size=(16, 16))
    return write_preset(folder / "p.yaml", [choice_item(i, "im.png", answer="B") for i in range(n)])


def priced_model(folder: Path, base_url: str, monkeypatch: pytest.MonkeyPatch, key: str | None = "sk-test") -> None:
    """A catalogue entry ``priced`` on the loopback server at $1,000 per million tokens both ways; ``key``: the
    OpenAI key set with it (None: the caller's own stays)."""
    backends = folder / "backends"
    backends.mkdir()
    (backends / "priced.yaml").write_text(yaml.safe_dump({
        "name": "priced", "provider": "openai", "model": "fake-vlm", "base_url": base_url,
        "price_input_per_m": 1000.0, "price_output_per_m": 1000.0}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    if key is not None:
        monkeypatch.setenv("OPENAI_API_KEY", key)


def stored(db: str) -> list[dict]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(responses.c.cost, responses.c.error)).mappings()]


def test_a_batch_stops_before_its_cap_and_a_raised_cap_finishes_it(tmp_path, fake_openai, monkeypatch,
                                                                    capsys) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    p, db = str(preset(tmp_path)), str(tmp_path / "s.db")
    argv = ["batch", p, "-m", "priced", "--db", db, "--no-progress", "--concurrency", "2"]

    code, out, err = run_cli(capsys, *argv, "--max-cost", "1")
    rows = stored(db)
    assert code == 1, err
    assert 0 < len(rows) < N, (out, err)
    assert all(r["error"] is None for r in rows)  # the cells not asked are not error cells: nothing stored
    assert len(fake_openai.chat_requests) == len(rows)  # nothing was sent that is not stored
    spent = sum(r["cost"] for r in rows)
    assert 0 < spent <= 1.0
    line = re.search(r"stopped at the spend cap: \$([\d.]+) of \$1\.00 spent; (\d+) of (\d+) cells not asked: "
                     r"run again with a higher --max-cost to finish", err)
    assert line, err
    assert float(line.group(1)) == pytest.approx(spent, abs=0.005)
    assert (int(line.group(2)), int(line.group(3))) == (N - len(rows), N)

    code, out, err = run_cli(capsys, *argv, "--max-cost", "100")
    rows2 = stored(db)
    assert code == 0, err
    assert len(rows2) == N and all(r["error"] is None for r in rows2)
    assert len(fake_openai.chat_requests) == N  # the answers stored the first time were not asked again
    assert f"{len(rows)} already done, {N - len(rows)} new" in out
    assert "spend cap" not in err


def test_the_run_spent_before_counts_against_the_cap(tmp_path, fake_openai, monkeypatch, capsys) -> None:
    # a first run to the end, uncapped; a complete run is not stopped by a cap it is already over (nothing is left
    # to ask), and extended under that cap it asks nothing more: what the run spent before counts
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    p, db = str(preset(tmp_path, 3)), str(tmp_path / "s.db")
    argv = ["batch", p, "-m", "priced", "--db", db, "--no-progress", "--run", "r"]
    assert run_cli(capsys, *argv)[0] == 0
    spent = sum(r["cost"] for r in stored(db))
    assert spent > 0.01
    assert run_cli(capsys, *argv, "--max-cost", "0.01")[0] == 0
    code, out, err = run_cli(capsys, *argv, "--max-cost", "0.01", "--extend", "--suite", "rotations")
    assert code == 1, err
    assert len(fake_openai.chat_requests) == 3  # over the cap already: no request left
    assert f"stopped at the spend cap: {usd(spent)} of $0.01 spent; 9 of 12 cells not asked" in err


def test_a_model_without_a_price_is_refused_unless_it_costs_nothing(tmp_path, fake_openai, monkeypatch,
                                                                     capsys) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    p, db = str(preset(tmp_path, 2)), str(tmp_path / "s.db")
    code, _, err = run_cli(capsys, "batch", p, "-m", "openai/gpt-4o-mini", "--db", db, "--no-progress",
                           "--max-cost", "5")
    assert code == 1
    assert "--max-cost: no price is known for openai/gpt-4o-mini" in err and len(err.strip().splitlines()) == 1
    assert not fake_openai.chat_requests and not Path(db).exists() or not stored(db)
    # the same model on a server on this machine costs nothing: capped at 0 it runs
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    code, _, err = run_cli(capsys, "batch", p, "-m", "openai/fake-vlm", "--db", db, "--no-progress",
                           "--max-cost", "0")
    assert code == 0, err
    assert len(stored(db)) == 2


def test_dry_run_says_when_the_estimate_is_over_the_cap(tmp_path, fake_openai, monkeypatch, capsys) -> None:
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    p, db = str(preset(tmp_path, 3)), str(tmp_path / "s.db")
    argv = ["batch", p, "-m", "priced", "--db", db, "--dry-run"]
    code, out, _ = run_cli(capsys, *argv, "--max-cost", "0.01")
    assert code == 0 and "--max-cost 0.01: the estimate is over the cap" in out
    code, out, _ = run_cli(capsys, *argv, "--max-cost", "100")
    assert code == 0 and "over the cap" not in out
    assert not fake_openai.chat_requests


@pytest.mark.parametrize("cap", ["-1", "nan", "inf", "-inf"])
def test_a_cap_that_is_not_an_amount_is_a_usage_error(tmp_path, capsys, cap) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "batch", "medblink_depth", "-m", "baseline/first", "--db", str(tmp_path / "x.db"),
                f"--max-cost={cap}")
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.startswith("probe-ui batch: error: --max-cost ") and "US dollars" in err
    assert not (tmp_path / "x.db").exists()


def test_stress_stops_at_its_cap_and_shows_what_was_answered(tmp_path, fake_openai, monkeypatch, capsys) -> None:
    fake_openai.answer = "B"
    priced_model(tmp_path, fake_openai.base_url, monkeypatch)
    p, db = str(preset(tmp_path, 4)), str(tmp_path / "s.db")
    code, out, err = run_cli(capsys, "stress", p, "--suite", "rotations", "-m", "priced", "--db", db, "--max-cost",
                             "0.6")
    rows = stored(db)
    assert code == 1, err
    assert 0 < len(rows) and sum(r["cost"] for r in rows) <= 0.6
    assert "stopped at the spend cap:" in err and "of $0.60 spent" in err
    assert "stress-" in out  # the matrix of what was answered, named by its run
    with pytest.raises(SystemExit):
        run_cli(capsys, "stress", p, "--suite", "rotations", "-m", "priced", "--db", db, "--max-cost", "nan")


# ---- the library, without a server --------------------------------------------------------------------------------
def test_check_cap() -> None:
    assert check_cap("2.5") == 2.5 and check_cap(0) == 0.0
    for bad in (-0.01, math.nan, math.inf, "x", True, None):
        with pytest.raises(BatchError, match="--max-cost"):
            check_cap(bad)


def test_reservations_keep_in_flight_requests_within_the_cap(tmp_path) -> None:
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import stream_variants

    m = ModelConfig(name="m", provider="openai", model="x", base_url="https://api.example.com/v1",
                    price_input_per_m=1000.0, price_output_per_m=1000.0)
    v = next(x for x in stream_variants(load_preset(preset(tmp_path, 1)), 0, []) if isinstance(x, Variant))
    req = plan_cells([v], [m], None, 0)[0].request
    est = estimate(m, req)
    assert est > 0
    cap = SpendCap(2.5 * est, spent=0.0)
    a, b = cap.reserve(m, req), cap.reserve(m, req)  # two in flight
    with pytest.raises(SpendCapReached):
        cap.reserve(m, req)  # a third would pass the cap with the two in flight
    assert cap.reached
    cap.settle(a, Response(text="B", input_tokens=10, output_tokens=1, cost=0.011))
    with pytest.raises(SpendCapReached):  # once reached, it stays reached: the batch has stopped
        cap.reserve(m, req)
    cap.settle(b, Response(error="boom"))  # a failed call without token counts costs nothing
    assert cap.spent == pytest.approx(0.011) and cap.reserved == 0
    cut = SpendCap(10 * est)
    cut.settle(cut.reserve(m, req), None)  # cut off before its reply: it may have been billed
    assert cut.spent == pytest.approx(est)
    assert SpendCap(5.0, spent=6.0).line(3, 10) == ("stopped at the spend cap: $6.00 of $5.00 spent; 3 of 10 cells "
                                                    "not asked: run again with a higher --max-cost to finish")


def test_which_models_cost_nothing_and_which_cannot_be_capped(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    local = ModelConfig(name="l", provider="openai", model="x", base_url="http://127.0.0.1:9/v1")
    remote = ModelConfig(name="r", provider="openai", model="x", base_url="https://api.example.com/v1")
    default = ModelConfig(name="d", provider="openai", model="x")
    priced = ModelConfig(name="p", provider="openai", model="x", price_input_per_m=1.0)
    base = ModelConfig(name="baseline/first", provider="baseline", model="first")
    assert costs_nothing(local) and costs_nothing(base) and not costs_nothing(remote)
    assert unpriced([local, remote, default, priced, base]) == ["r", "d"]


def test_usd() -> None:
    assert [usd(x) for x in (0, 1.925, 0.0012, 1204.5, 0.5)] == ["$0.00", "$1.925", "$0.0012", "$1,204.50", "$0.50"]
