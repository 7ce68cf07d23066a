"""The ``hf`` provider against a tiny random LLaVA saved like a real checkpoint (tests/tiny_vlm.py), offline.

Architecture coverage (every family through ``hf/<folder>``) is in test_hf_families.py, micro-batching in
test_hf_batching.py."""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers import require_local_models
from tiny_vlm import OPTIONS, QUESTION, ask, image, mc_request, provider

from probe_ui import catalogue
from probe_ui.messages import GenerationSettings, Request
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, ProviderError
from probe_ui.providers.hf import NOT_INSTALLED, HFLocalProvider, cached_models, engine, loading, resolve_source, unload

#: every test here loads a tiny checkpoint: marked hf (and so slow), skipped without torch, failed under CI=true
pytestmark = pytest.mark.hf


@pytest.fixture(autouse=True)
def _local_models() -> None:
    require_local_models()


# ---- generate --------------------------------------------------------------------------------------------------
def test_generate_answers_deterministically(tiny_llava):
    p = provider(tiny_llava)
    assert p.default_concurrency == 16  # twice the default batch size: the next micro-batch queues while one runs
    assert HFLocalProvider.unavailable_reason(p.config) is None
    first = ask(p, mc_request())
    second = ask(provider(tiny_llava), mc_request())
    assert first.text and first.text == second.text
    assert first.error is None and first.cost == 0.0
    assert first.input_tokens > 16  # 16 image tokens plus the prompt
    assert first.output_tokens == 6 and first.finish_reason == "length"  # the tiny model never emits EOS
    assert first.details["mode"] == "generate" and first.latency_s > 0


def test_model_is_loaded_once_and_shared(tiny_llava, monkeypatch):
    unload(str(tiny_llava))
    loads = []
    real_load = loading._load

    def counting(*args, **kwargs):
        loads.append(args[1])
        time.sleep(0.2)  # a slow load: the concurrent callers must wait for it, not load again
        return real_load(*args, **kwargs)

    monkeypatch.setattr(loading, "_load", counting)
    a, b = provider(tiny_llava), provider(tiny_llava)

    async def both():
        return await asyncio.gather(a.generate(mc_request()), b.generate(mc_request()))

    ra, rb = asyncio.run(both())
    assert len(loads) == 1
    assert ra.text == rb.text
    assert a.load() is b.load()
    keys = [k for k in cached_models() if k[0] == str(tiny_llava)]
    assert keys == [(str(tiny_llava), "float32", "cpu", False)]
    assert "load_s" in ra.details or "load_s" in rb.details
    ask(provider(tiny_llava), mc_request())  # a third instance, later: still no new load
    assert len(loads) == 1


def test_different_models_asked_at_once_load_one_after_the_other_and_whole(tiny_llava, tiny_gemma3, monkeypatch):
    """Two users (or one batch) asking two different hf/ models at once: transformers' loading changes process-wide
    state (the default dtype, the meta device), so overlapping loads left a bfloat16 Qwen2.5-VL with float32 weights
    on a GPU and a Gemma 3 without its tied lm_head. Loads must not overlap, and each model must come out whole."""
    unload()
    active, peak, lock = [0], [0], threading.Lock()
    real_load = loading._load

    def watched(*args, **kwargs):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        try:
            time.sleep(0.3)  # long enough that two unserialised loads overlap on any machine
            return real_load(*args, **kwargs)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch.setattr(loading, "_load", watched)
    folders = [tiny_llava, tiny_gemma3, tiny_llava, tiny_gemma3]
    with ThreadPoolExecutor(len(folders)) as pool:
        entries = list(pool.map(lambda f: provider(f, dtype="bfloat16", device="cpu").load(), folders))
    assert peak[0] == 1
    assert entries[0] is entries[2] and entries[1] is entries[3]  # each model loaded once
    for entry in entries[:2]:
        kinds = {str(t.dtype) for t in entry.model.parameters()}
        assert kinds == {"torch.bfloat16"}, (entry.key, kinds)
    for folder in (tiny_llava, tiny_gemma3):
        assert ask(provider(folder, dtype="bfloat16", device="cpu"), mc_request()).error is None
    unload()


def test_dtype_option_is_a_separate_cached_model(tiny_llava):
    p = provider(tiny_llava, dtype="bfloat16", device="cpu")
    r = ask(p, mc_request())
    assert r.text
    entry = p.load()
    assert entry.key == (str(tiny_llava), "bfloat16", "cpu", False)
    assert str(entry.model.dtype) == "torch.bfloat16"
    assert entry is not provider(tiny_llava).load()


def test_seeded_sampling_is_reproducible(tiny_llava):
    p = provider(tiny_llava)
    sampled = GenerationSettings(temperature=1.0, top_p=0.95, seed=7, max_tokens=8)
    a = ask(p, mc_request(sampled))
    b = ask(p, mc_request(sampled))
    other = ask(p, mc_request(GenerationSettings(temperature=1.0, top_p=0.95, seed=8, max_tokens=8)))
    greedy = ask(p, mc_request(GenerationSettings(max_tokens=8)))
    assert a.text == b.text
    assert a.text != other.text
    assert a.text != greedy.text


@pytest.mark.parametrize("batch_size", [1, 3])
def test_one_batch_at_a_time_per_model_without_blocking_the_loop(tiny_llava, monkeypatch, batch_size):
    """Two provider instances share one model and its worker: generate() calls never overlap, whatever thread or
    event loop the requests come from; with batch_size 1 every request is its own call, else they are gathered
    (a long batch wait, so that a loaded machine cannot split them; the batch closes when it is full)."""
    p1, p2 = (provider(tiny_llava, batch_size=batch_size, batch_wait_ms=5000) for _ in range(2))
    entry = p1.load()
    real_generate = entry.model.generate
    active, peak, calls, lock = [0], [0], [], threading.Lock()

    def instrumented(*args, **kwargs):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
            calls.append(int(kwargs["input_ids"].shape[0]))
        try:
            time.sleep(0.15)
            return real_generate(*args, **kwargs)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch.setattr(entry.model, "generate", instrumented)
    ticks = []

    async def ticker(stop: asyncio.Event):
        while not stop.is_set():
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.01)

    async def main():
        stop = asyncio.Event()
        tick = asyncio.create_task(ticker(stop))
        results = await asyncio.gather(p1.generate(mc_request()), p2.generate(mc_request()),
                                       p1.generate(mc_request()))
        stop.set()
        await tick
        return results

    results = asyncio.run(main())
    assert peak[0] == 1
    assert all(r.text == results[0].text for r in results)
    assert len(ticks) > 10  # the event loop kept running while the model worked
    if batch_size == 1:
        assert calls == [1, 1, 1]
        assert [r.details["batch_size"] for r in results] == [1, 1, 1]
        assert max(r.details["wait_s"] for r in results) >= 0.15  # someone queued behind a running request
    else:
        assert calls == [3]  # all three gathered: one call, three rows
        assert [r.details["batch_size"] for r in results] == [3, 3, 3]

    # callers on different event loops (threads) share the same worker
    peak[0], calls[:] = 0, []
    p3, p4 = (provider(tiny_llava, batch_size=batch_size) for _ in range(2))
    with ThreadPoolExecutor(2) as pool:
        texts = list(pool.map(lambda p: ask(p, mc_request()).text, (p3, p4)))
    assert peak[0] == 1 and texts[0] == texts[1] == results[0].text
    assert sum(calls) == 2


# ---- logit-based modes -----------------------------------------------------------------------------------------
def test_gd_returns_a_probability_per_label(tiny_llava):
    r = ask(provider(tiny_llava, mode="gd"), mc_request())
    probs = r.details["option_probs"]
    assert list(probs) == ["A", "B", "C"]
    assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9)
    assert r.text == max(probs, key=probs.get)
    assert 0 < r.details["label_mass"] <= 1
    assert r.details["mode"] == "gd" and r.output_tokens == 0


def test_gd_matches_the_next_token_distribution(tiny_llava):
    """Independent check: each label's probability is the model's own probability of its best spelling ("B" or
    " B") after the prompt, from plain forward passes over prompt + spelling."""
    import torch

    p = provider(tiny_llava, mode="gd")
    req = mc_request(system=None)
    r = ask(p, req)
    entry = p.load()
    conv = engine.conversation(entry, req.messages, p.label)
    enc = entry.processor.apply_chat_template(conv, add_generation_prompt=True, tokenize=True, return_dict=True,
                                              return_tensors="pt")
    n = enc["input_ids"].shape[1]

    def logprob(spelling: str) -> float:
        ids = entry.tokenizer.encode(spelling, add_special_tokens=False)
        full = torch.cat([enc["input_ids"], torch.tensor([ids])], dim=1)
        with torch.no_grad():
            logits = entry.model(input_ids=full, attention_mask=torch.ones_like(full),
                                 pixel_values=enc["pixel_values"]).logits[0]
        logp = torch.log_softmax(logits.float(), dim=-1)
        return sum(float(logp[n - 1 + j, t]) for j, t in enumerate(ids))

    best = {label: max((logprob(v), v) for v in (label, " " + label)) for label in ("A", "B", "C")}
    assert len(entry.tokenizer.encode(" A", add_special_tokens=False)) == 2  # the multi-token path is exercised
    assert r.details["label_tokens"] == {label: v for label, (_, v) in best.items()}
    total = sum(math.exp(lp) for lp, _ in best.values())
    for label, (lp, _) in best.items():
        assert math.isclose(r.details["option_probs"][label], math.exp(lp) / total, rel_tol=1e-4)
    assert math.isclose(r.details["label_mass"], total, rel_tol=1e-4)


def test_gd_yes_no_labels(tiny_llava):
    req = mc_request(labels=("yes", "no"), options=())
    r = ask(provider(tiny_llava, mode="gd"), req)
    probs = r.details["option_probs"]
    assert set(probs) == {"yes", "no"} and math.isclose(sum(probs.values()), 1.0)
    assert r.text in ("yes", "no") and r.text == max(probs, key=probs.get)


def test_ps_scores_each_option(tiny_llava):
    import torch

    p = provider(tiny_llava, mode="ps")
    r = ask(p, mc_request())
    probs = r.details["option_probs"]
    assert list(probs) == ["A", "B", "C"]
    assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9)
    assert r.text == max(probs, key=probs.get)
    assert r.details["ps_prompt"] == f"Question: {QUESTION} Answer: "

    # independent check of option A: the geometric mean of its token probabilities after the PS prompt
    entry = p.load()
    conv = [{"role": "user", "content": [{"type": "image", "image": image().pil().convert("RGB")},
                                         {"type": "text", "text": f"Question: {QUESTION} Answer: "}]}]
    enc = entry.processor.apply_chat_template(conv, add_generation_prompt=True, tokenize=True, return_dict=True,
                                              return_tensors="pt")
    ids = entry.tokenizer.encode(OPTIONS[0], add_special_tokens=False)
    n = enc["input_ids"].shape[1]
    full = torch.cat([enc["input_ids"], torch.tensor([ids])], dim=1)
    with torch.no_grad():
        logits = entry.model(input_ids=full, attention_mask=torch.ones_like(full),
                             pixel_values=enc["pixel_values"]).logits[0]
    logp = torch.log_softmax(logits.float(), dim=-1)
    mean = sum(float(logp[n - 1 + j, t]) for j, t in enumerate(ids)) / len(ids)
    assert math.isclose(r.details["option_logprob_mean"]["A"], mean, rel_tol=1e-4)
    geo = {k: math.exp(v) for k, v in r.details["option_logprob_mean"].items()}
    assert math.isclose(probs["A"], geo["A"] / sum(geo.values()), rel_tol=1e-9)


def test_logit_modes_need_their_inputs(tiny_llava):
    with pytest.raises(ProviderError, match="needs answer labels"):
        ask(provider(tiny_llava, mode="gd"), mc_request(labels=()))
    bare = mc_request()
    no_question = Request(bare.messages, bare.settings, bare.labels)
    with pytest.raises(ProviderError, match="Request.question and Request.options"):
        ask(provider(tiny_llava, mode="ps"), no_question)
    with pytest.raises(ProviderError, match="options.mode must be one of"):
        provider(tiny_llava, mode="beam")
    bad = ModelConfig(name="x", provider="hf", model=str(tiny_llava), options={"mode": "beam"})
    assert "options.mode" in HFLocalProvider.unavailable_reason(bad)


def test_gemma3_in_every_mode(tiny_gemma3):
    """MedGemma's architecture: token_type_ids mark the image tokens and must grow with the scored option."""
    gen = ask(provider(tiny_gemma3), mc_request())
    assert gen.text and gen.text == ask(provider(tiny_gemma3), mc_request()).text
    for mode in ("gd", "ps"):
        r = ask(provider(tiny_gemma3, mode=mode), mc_request())
        probs = r.details["option_probs"]
        assert list(probs) == ["A", "B", "C"] and math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9)
        assert r.text == max(probs, key=probs.get)


# ---- chat template ---------------------------------------------------------------------------------------------
def test_system_message_is_a_turn_or_folded_into_the_user_text(tiny_llava, tiny_llava_nosys):
    req = mc_request(system="Be brief.")
    with_turn = provider(tiny_llava)
    conv = engine.conversation(with_turn.load(), req.messages, with_turn.label)
    assert conv[0] == {"role": "system", "content": [{"type": "text", "text": "Be brief."}]}
    assert conv[1]["content"][0]["type"] == "image"

    folded = provider(tiny_llava_nosys)
    conv = engine.conversation(folded.load(), req.messages, folded.label)
    assert [t["role"] for t in conv] == ["user"]
    assert conv[0]["content"][1]["text"].startswith("Be brief.\n\nQuestion: ")
    r = ask(folded, req)  # and the template renders it (it raises on a system turn)
    assert r.text


# ---- errors and availability -----------------------------------------------------------------------------------
def test_missing_local_folder_is_a_clear_error(tmp_path):
    missing = tmp_path / "no-such-model"
    config = catalogue.resolve(f"hf/{missing}", {})
    reason = HFLocalProvider.unavailable_reason(config)
    assert reason and "local model folder not found" in reason and str(missing) in reason
    with pytest.raises(ProviderError, match="local model folder not found"):
        ask(create(config), mc_request())


def test_hub_id_not_cached_offline_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config = catalogue.resolve("hf/nobody-probe-ui/not-a-model", {})
    assert "not in the Hugging Face cache" in HFLocalProvider.unavailable_reason(config)
    with pytest.raises(ProviderError, match="not in the Hugging Face cache"):
        ask(create(config), mc_request())


def test_hub_id_not_cached_without_network_fails_fast(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(loading, "_hub_reachable", lambda timeout_s=3.0: False)  # never touch the network
    config = catalogue.resolve("hf/nobody-probe-ui/not-a-model", {})
    with pytest.raises(ProviderError, match="not in the Hugging Face cache.*no network connection"):
        ask(create(config), mc_request())


def test_hub_id_in_the_cache_loads_without_the_network(tiny_llava, tmp_path):
    """``hf/<owner>/<name>`` after a download: found in the Hugging Face cache and loaded with local_files_only
    (no Hub round trip, no HF_HUB_OFFLINE needed). In a subprocess: the cache location is read at import."""
    repo = tmp_path / "hub" / "models--someone--tiny-llava"
    shutil.copytree(tiny_llava, repo / "snapshots" / "0123abcd")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd")
    script = (
        "import asyncio\n"
        "from probe_ui.messages import Message, Request, TextPart\nfrom probe_ui.providers.base import ModelConfig\n"
        "from probe_ui.providers.hf import HFLocalProvider\n"
        "import probe_ui.providers.hf.loading as hf\n"
        "hf._hub_reachable = lambda timeout_s=3.0: (_ for _ in ()).throw(AssertionError('asked the network'))\n"
        "cfg = ModelConfig(name='x', provider='hf', model='someone/tiny-llava')\n"
        "assert HFLocalProvider.unavailable_reason(cfg) is None\n"
        "r = asyncio.run(HFLocalProvider(cfg).generate(Request((Message('user', (TextPart('hello'),)),))))\n"
        "print('TEXT', r.text)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME")}
    env.update(HF_HUB_CACHE=str(tmp_path / "hub"), HTTPS_PROXY="http://127.0.0.1:9")  # any Hub call would fail
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "TEXT " in done.stdout and done.stdout.split("TEXT ", 1)[1].strip()


def test_spec_paths_and_hub_ids(tiny_llava):
    assert resolve_source(str(tiny_llava)) == (str(tiny_llava.resolve()), True)
    assert resolve_source("google/medgemma-4b-it") == ("google/medgemma-4b-it", False)
    for path in ("./models/x", "/opt/models/x", "a/b/c", "~/nope-probe-ui"):
        with pytest.raises(ProviderError, match="not found"):
            resolve_source(path)


def test_unavailable_without_transformers(tiny_llava, monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    assert HFLocalProvider.unavailable_reason() == NOT_INSTALLED
    config = catalogue.resolve(f"hf/{tiny_llava}", {})
    assert catalogue.availability(config) == NOT_INSTALLED
    with pytest.raises(ProviderError, match="needs the local extra"):
        ask(create(config), mc_request())


def test_a_wrong_folder_is_named_before_the_missing_extra(tmp_path, monkeypatch):
    """Without torch, a file given as a model folder is still named (fixing the path comes first)."""
    monkeypatch.setitem(sys.modules, "torch", None)
    (tmp_path / "note.txt").write_text("x")
    config = catalogue.resolve(f"hf/{tmp_path / 'note.txt'}", {})
    assert "is a file, not a model folder" in catalogue.availability(config)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}")
    assert catalogue.availability(catalogue.resolve(f"hf/{tmp_path / 'model'}", {})) == NOT_INSTALLED
