"""Micro-batching of ``hf/`` requests: the batcher on its own, then on a tiny LLaVA, then through ``probe-ui batch``.

(Batched answers equal answers alone for every family and mode: test_hf_families.py.)
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import CancelledError

import pytest
import sqlalchemy as sa
from helpers import choice_item, require_local_models, write_png, write_preset
from tiny_vlm import (
    ask,
    ask_together,
    mc_request,
    provider,
    tiny_family,  # noqa: F401  (fixture)
)

from probe_ui.cli import main
from probe_ui.messages import GenerationSettings, Request, Response
from probe_ui.providers.base import ModelConfig, ProviderError
from probe_ui.providers.hf import HFLocalProvider
from probe_ui.providers.hf.batching import Batcher, Job, batch_options
from probe_ui.runner import ProviderPool
from probe_ui.store import Store, responses


# ---- the batcher, with a recording stand-in for the model ------------------------------------------------------
class Recorder:
    """Answers each job with its own text and remembers every batch; ``gate`` holds the first batch."""

    def __init__(self, fail_when: int | None = None) -> None:
        self.batches: list[list[str]] = []
        self.fail_when = fail_when
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, jobs: list[Job]) -> list[Response | Exception]:
        self.gate.wait(10)
        names = [j.request.prompt for j in jobs]
        self.batches.append(names)
        if self.fail_when is not None and len(jobs) >= self.fail_when:
            raise RuntimeError("the whole batch failed")
        return [ProviderError(f"bad {n}") if n.startswith("bad") else Response(text=n) for n in names]


def job(name: str, mode: str = "generate", size: int = 8, wait_ms: float = 5.0) -> Job:
    return Job(Request((), prompt=name), mode, "hf/test", size, wait_ms / 1000)


def test_jobs_waiting_while_a_batch_runs_form_the_next_batch():
    rec = Recorder()
    rec.gate.clear()
    b = Batcher(rec)
    first = b.submit(job("r0"))
    time.sleep(0.05)  # r0 runs (held at the gate) ...
    later = [b.submit(job(f"r{i}", size=4)) for i in range(1, 7)]  # ... while six more queue
    rec.gate.set()
    assert [f.result(10).text for f in [first, *later]] == [f"r{i}" for i in range(7)]
    assert rec.batches == [["r0"], ["r1", "r2", "r3", "r4"], ["r5", "r6"]]  # size limit 4, in arrival order
    b.close()


def test_modes_never_share_a_batch_and_the_smallest_limit_wins():
    rec = Recorder()
    rec.gate.clear()
    b = Batcher(rec)
    b.submit(job("hold"))
    time.sleep(0.05)
    futures = [b.submit(job("g1")), b.submit(job("s1", mode="gd")), b.submit(job("g2")),
               b.submit(job("one", size=1)), b.submit(job("s2", mode="gd"))]
    rec.gate.set()
    assert all(f.result(10) for f in futures)
    assert rec.batches == [["hold"], ["g1", "g2"], ["s1", "s2"], ["one"]]
    b.close()


def test_a_lone_request_is_a_batch_of_one_and_cancelled_jobs_are_dropped():
    rec = Recorder()
    b = Batcher(rec)
    assert b.submit(job("alone", wait_ms=0)).result(10).text == "alone"
    assert rec.batches == [["alone"]]
    rec.gate.clear()
    b.submit(job("hold"))
    time.sleep(0.05)
    gone = b.submit(job("gone"))
    kept = b.submit(job("kept"))
    assert gone.cancel()  # its caller gave up (a timeout) before it ran
    rec.gate.set()
    assert kept.result(10).text == "kept"
    with pytest.raises(CancelledError):
        gone.result(0)
    assert ["gone"] not in rec.batches and all("gone" not in batch for batch in rec.batches)
    b.close()


def test_errors_land_on_their_own_request():
    rec = Recorder(fail_when=3)
    rec.gate.clear()
    b = Batcher(rec)
    b.submit(job("hold"))
    time.sleep(0.05)
    futures = [b.submit(job(n)) for n in ("a", "bad-b", "c")]
    rec.gate.set()
    assert futures[0].result(10).text == "a" and futures[2].result(10).text == "c"
    with pytest.raises(ProviderError, match="bad bad-b"):
        futures[1].result(10)
    assert rec.batches[1:] == [["a", "bad-b", "c"], ["a"], ["bad-b"], ["c"]]  # the batch failed: one by one
    b.close()
    with pytest.raises(ProviderError, match="the model was unloaded"):
        b.submit(job("late"))


BAD_OPTIONS = [
    ({"batch_size": 0}, "options.batch_size must be a whole number >= 1, got 0"),
    ({"batch_size": "8"}, "options.batch_size must be a whole number >= 1, got '8'"),
    ({"batch_size": True}, "options.batch_size must be a whole number >= 1, got True"),
    ({"batch_wait_ms": -1}, "options.batch_wait_ms must be a number of milliseconds from 0 to 10000, got -1"),
]


@pytest.mark.parametrize("options, message", BAD_OPTIONS)
def test_bad_batch_options_are_named(options, message):
    with pytest.raises(ProviderError, match=message):
        batch_options(options)
    assert batch_options({"batch_size": 3, "batch_wait_ms": 0}) == (3, 0.0)
    assert batch_options({}) == (8, 0.005)


@pytest.mark.hf
@pytest.mark.parametrize("options, message", BAD_OPTIONS)
def test_the_provider_names_bad_batch_options(options, message, tmp_path):
    require_local_models()  # without torch the provider says "not installed" before it reads the options
    (tmp_path / "config.json").write_text("{}")
    config = ModelConfig(name="m", provider="hf", model=str(tmp_path), options=options)
    assert HFLocalProvider.unavailable_reason(config) == message
    with pytest.raises(ProviderError, match=f"hf/{tmp_path}: {message}"):
        HFLocalProvider(config)


def test_each_local_model_gets_its_own_limit(tiny_llava, tiny_gemma3):
    pool = ProviderPool()
    a = ModelConfig(name="a", provider="hf", model=str(tiny_llava))
    b = ModelConfig(name="b", provider="hf", model=str(tiny_gemma3), options={"batch_size": 2})
    (_, la), (_, lb) = pool.get(a), pool.get(b)
    assert la is not lb and la._value == 16 and lb._value == 4  # twice each model's batch size
    assert ProviderPool(concurrency=1).get(a)[1]._value == 1  # --concurrency 1: one at a time


# ---- on a tiny LLaVA -------------------------------------------------------------------------------------------
def test_seeded_sampling_is_the_same_alone_and_in_any_batch(tiny_llava):
    sampled = GenerationSettings(temperature=1.0, top_p=0.95, seed=7, max_tokens=8)
    other_seed = GenerationSettings(temperature=1.0, top_p=0.95, seed=8, max_tokens=8)
    alone = ask(provider(tiny_llava, batch_size=1), mc_request(sampled)).text
    four = provider(tiny_llava, batch_size=4, batch_wait_ms=5000)  # closes when full: nothing left to chance
    batch = ask_together(four, [mc_request(GenerationSettings(max_tokens=8)), mc_request(sampled),
                                mc_request(other_seed), mc_request(sampled, images=(30,))])
    assert [r.details["batch_size"] for r in batch] == [4, 4, 4, 4]
    assert batch[1].text == alone  # its own generator: the other rows' draws do not move it
    assert batch[2].text != alone and batch[0].text != alone  # another seed, and greedy, differ
    again = ask_together(provider(tiny_llava, batch_size=2, batch_wait_ms=5000),
                         [mc_request(sampled, images=(30,)), mc_request(sampled)])
    assert again[1].text == alone and again[0].text == batch[3].text


def test_each_request_keeps_its_own_token_limit(tiny_llava):
    short, long = GenerationSettings(max_tokens=2), GenerationSettings(max_tokens=7)
    alone = ask(provider(tiny_llava, batch_size=1), mc_request(long))
    together = ask_together(provider(tiny_llava, batch_size=2, batch_wait_ms=5000),
                            [mc_request(short), mc_request(long)])
    assert [r.output_tokens for r in together] == [2, 7]
    assert [r.finish_reason for r in together] == ["length", "length"]
    assert together[1].text == alone.text and alone.text.startswith(together[0].text)


def test_a_bad_request_fails_alone_in_its_batch(tiny_family):
    p = provider(tiny_family("paligemma"), batch_size=3, batch_wait_ms=5000)
    good, bad = mc_request(), mc_request(images=())  # PaliGemma needs an image

    async def both():
        return await asyncio.gather(p.generate(good), p.generate(bad), p.generate(good), return_exceptions=True)

    out = asyncio.run(both())
    assert isinstance(out[1], ProviderError) and "send at least one image" in str(out[1])
    assert out[0].text and out[0].text == out[2].text
    assert out[0].details["batch_size"] == 2  # the bad one never reached the model


def test_a_batch_that_fails_as_a_whole_is_answered_one_by_one(tiny_llava, monkeypatch):
    p = provider(tiny_llava, batch_size=3, batch_wait_ms=5000)
    entry = p.load()
    real = entry.model.generate

    def no_batches(*args, **kwargs):  # e.g. a batch too large for the GPU's memory
        if kwargs["input_ids"].shape[0] > 1:
            raise RuntimeError("CUDA out of memory (simulated)")
        return real(*args, **kwargs)

    monkeypatch.setattr(entry.model, "generate", no_batches)
    out = ask_together(p, [mc_request(), mc_request(images=(30,)), mc_request()])
    assert all(r.text for r in out) and out[0].text == out[2].text
    assert [r.details["batch_size"] for r in out] == [1, 1, 1]


# ---- through probe-ui batch ------------------------------------------------------------------------------------
def test_probe_ui_batch_gathers_local_requests(tmp_path, tiny_llava, capsys):
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", size=(48, 32), seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 4}.png", answer="B") for i in range(12)])
    stored = {}
    for name, extra in (("batched", []), ("one-at-a-time", ["--concurrency", "1"])):
        db = str(tmp_path / f"{name}.db")
        assert main(["batch", str(preset), "-m", f"hf/{tiny_llava}", "--db", db, "--no-progress", *extra]) == 0
        with Store(db).engine.connect() as c:
            stored[name] = [dict(r) for r in c.execute(sa.select(responses).order_by(responses.c.variant_id))
                            .mappings()]
    capsys.readouterr()
    batched, single = stored["batched"], stored["one-at-a-time"]
    assert len(batched) == len(single) == 12 and all(r["error"] is None for r in batched + single)
    assert max(r["details"]["batch_size"] for r in batched) > 1
    assert {r["details"]["batch_size"] for r in single} == {1}
    assert [r["raw_text"] for r in batched] == [r["raw_text"] for r in single]  # greedy: the same answers
    assert [r["input_tokens"] for r in batched] == [r["input_tokens"] for r in single]
