"""Every architecture family the catalogue names, as a tiny random checkpoint loaded through ``hf/<folder>``.

Each family (tests/tiny_vlm.py: its real processor class, PIL image processor and chat template) answers a one-image
and a two-image request, honours the system prompt (a system turn, or folded into the first user turn), and scores
options in ``gd`` and ``ps`` mode, batched exactly as alone. A family whose processor cannot load on this machine
is skipped with the exact error ``hf/`` reports (Qwen2-VL and Qwen2.5-VL: their processors carry a video processor,
which needs torchvision); their model code still runs here, through the same engine, in
``test_qwen_models_run_through_the_engine`` below.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from helpers import require_local_models
from tiny_vlm import (
    FAMILIES,
    SYSTEM,
    ask,
    ask_together,
    mc_request,
    provider,
    tiny_family,  # noqa: F401  (fixture)
)

from probe_ui.providers.base import ProviderError
from probe_ui.providers.hf import engine, families
from probe_ui.providers.hf.batching import Job
from probe_ui.providers.hf.families import Family

#: every test here loads a tiny checkpoint: marked hf (and so slow), skipped without torch, failed under CI=true
pytestmark = pytest.mark.hf


@pytest.fixture(autouse=True)
def _local_models() -> None:
    require_local_models()

#: what the system prompt looks like in each family's rendered prompt (its own template's way, or folded)
SYSTEM_RENDERED = {
    "llava": f"{SYSTEM} USER:",  # llava-1.5's template renders the system text with no role prefix
    "llava_next": f"<<SYS>>\n{SYSTEM}\n<</SYS>>",
    "gemma3": f"<start_of_turn>user\n{SYSTEM}\n\n",  # Gemma 3's template folds it into the first user turn
    "idefics3": f"System: {SYSTEM}<end_of_utterance>",
    "idefics2": f"System: {SYSTEM}<end_of_utterance>",
    "paligemma": f"{SYSTEM}\n\nQuestion:",  # no template: folded by the provider
    "qwen2_vl": f"<|im_start|>system\n{SYSTEM}<|im_end|>",
    "qwen2_5_vl": f"<|im_start|>system\n{SYSTEM}<|im_end|>",
}


def loaded(tiny_family: Any, name: str, **options: Any) -> Any:
    """The family's provider with its model loaded, or a skip with the exact reason it cannot load here."""
    p = provider(tiny_family(name), **options)
    try:
        p.load()
    except ProviderError as exc:
        if "needs torchvision" in str(exc):
            pytest.skip(str(exc))
        raise
    return p


@pytest.mark.parametrize("name", list(FAMILIES))
def test_one_and_two_images(tiny_family, name):
    p = loaded(tiny_family, name)
    one, two = ask(p, mc_request(images=(90,))), ask(p, mc_request(images=(90, 200)))
    assert one.error is None and one.text and two.text
    assert one.finish_reason == "length" and one.output_tokens == 6  # never EOS: the tiny models' EOS is suppressed
    assert two.input_tokens > one.input_tokens  # the second image's tokens are in the prompt
    assert ask(p, mc_request(images=(90,))).text == one.text  # deterministic
    gd = loaded(tiny_family, name, mode="gd")
    probs = [ask(gd, mc_request(images=images)).details["option_probs"] for images in ((90,), (90, 200), (30,))]
    assert probs[0] != probs[1] and probs[0] != probs[2]  # the model sees the images, and the second one


@pytest.mark.parametrize("name", list(FAMILIES))
def test_system_prompt_reaches_the_model(tiny_family, name):
    p = loaded(tiny_family, name)
    entry = p.load()
    request = mc_request()
    conversation = engine.conversation(entry, request.messages, p.label)
    rendered = entry.tokenizer.decode(engine.encode(entry, [conversation], p.label)["input_ids"][0])
    assert SYSTEM_RENDERED[name] in rendered
    assert rendered.count(SYSTEM) == 1
    gd = loaded(tiny_family, name, mode="gd")
    assert ask(gd, mc_request()).details["option_probs"] != ask(gd, mc_request(system=None)).details["option_probs"]


@pytest.mark.parametrize("name", list(FAMILIES))
@pytest.mark.parametrize("mode", ["generate", "gd", "ps"])
def test_batched_answers_equal_answers_alone(tiny_family, name, mode):
    requests = [mc_request(images=(60,)), mc_request(images=(90, 200)), mc_request(system=None, images=(120,)),
                mc_request(labels=("yes", "no"), options=(), images=(150, 30))]
    alone = [ask(loaded(tiny_family, name, mode=mode, batch_size=1), r) for r in requests]
    # a batch that closes when its four requests are in (a long wait, so that a loaded machine cannot split it)
    together = ask_together(loaded(tiny_family, name, mode=mode, batch_size=4, batch_wait_ms=5000), requests)
    assert [r.details["batch_size"] for r in alone] == [1, 1, 1, 1]
    assert [r.details["batch_size"] for r in together] == [4, 4, 4, 4]
    assert [r.text for r in together] == [r.text for r in alone]
    assert [r.input_tokens for r in together] == [r.input_tokens for r in alone]  # padding is not counted
    if mode == "generate":
        return
    for a, b in zip(alone, together):
        probs = a.details["option_probs"]
        assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9) and a.text == max(probs, key=probs.get)
        assert list(b.details["option_probs"]) == list(probs)
        for k, v in probs.items():
            assert math.isclose(b.details["option_probs"][k], v, rel_tol=1e-4, abs_tol=1e-7)


def test_the_family_registry():
    assert set(families.FAMILIES) == {"paligemma"}  # the others need nothing beyond the default family
    assert type(families.family_for("llava")) is Family
    pali = families.family_for("paligemma")
    assert isinstance(pali, Family) and pali.continuation_type_ids == {"token_type_ids": 1}


def test_paligemma_needs_an_image(tiny_family):
    p = loaded(tiny_family, "paligemma")
    with pytest.raises(ProviderError, match="PaliGemma answers about images: send at least one image"):
        ask(p, mc_request(images=()))


def test_a_folder_that_is_not_a_model_is_named(tmp_path):
    (tmp_path / "notes.txt").write_text("not a model")
    p = provider(tmp_path)
    with pytest.raises(ProviderError, match=rf"hf/{tmp_path}: {tmp_path} is not a model folder \(it has no config"):
        p.load()


# ---- Qwen2-VL / Qwen2.5-VL without their processor ---------------------------------------------------------------
class _QwenImagesOnly(Family):
    """Qwen2-VL's prompt built as Qwen2VLProcessor builds it for images (its image processor, the chat template,
    each <|image_pad|> expanded to the image's merged patch count, mm_token_type_ids 1 on image tokens), for
    driving the model where the processor itself cannot load (it needs torchvision for its video half)."""

    def __init__(self, image_processor: Any) -> None:
        self.image_processor = image_processor

    def encode(self, entry: Any, conversations: list[list[dict[str, Any]]], label: str) -> Any:
        texts, images = [], []
        for conversation in conversations:
            text = entry.tokenizer.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False)
            images += [p["image"] for turn in conversation for p in turn["content"] if p["type"] == "image"]
            texts.append(text)
        pictures = self.image_processor(images=images, return_tensors="pt") if images else {}
        grid = pictures.get("image_grid_thw")
        counts = iter([] if grid is None else (grid.prod(-1) // self.image_processor.merge_size ** 2).tolist())
        expanded = []
        for text in texts:
            pieces = text.split("<|image_pad|>")
            expanded.append(pieces[0] + "".join("<|image_pad|>" * next(counts) + rest for rest in pieces[1:]))
        inputs = entry.tokenizer(expanded, padding=True, return_tensors="pt")
        image_id = entry.tokenizer.convert_tokens_to_ids("<|image_pad|>")
        inputs["mm_token_type_ids"] = (inputs["input_ids"] == image_id).long()
        inputs.update(pictures)
        return inputs


@pytest.mark.parametrize("name", ["qwen2_vl", "qwen2_5_vl"])
def test_qwen_models_run_through_the_engine(tiny_family, name):
    """The Qwen checkpoints' model code (M-RoPE positions that follow the left padding, mm_token_type_ids grown
    with scored text) through the engine's generate / gd / ps, batched as alone."""
    import transformers

    from probe_ui.providers.hf.loading import LoadedModel

    folder = tiny_family(name)
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
    tokenizer.padding_side = "left"
    model = transformers.AutoModelForImageTextToText.from_pretrained(folder).eval()
    entry = LoadedModel(key=(str(folder), "float32", "cpu", False), model=model, processor=tokenizer,
                        tokenizer=tokenizer, input_device=model.device, takes_images=True, load_s=0.0,
                        family=_QwenImagesOnly(transformers.Qwen2VLImageProcessorPil.from_pretrained(folder)))
    requests = [mc_request(images=(60,)), mc_request(images=(90, 200), system=None), mc_request(images=(150,))]
    for mode in ("generate", "gd", "ps"):
        jobs = [Job(r, mode, f"hf/{name}") for r in requests]
        alone = [engine.run_jobs(entry, [job])[0] for job in jobs]
        together = engine.run_jobs(entry, jobs)
        assert all(r.details["batch_size"] == 3 for r in together)
        assert [r.text for r in together] == [r.text for r in alone] and all(r.text for r in alone)
        if mode != "generate":
            for a, b in zip(alone, together):
                for k, v in a.details["option_probs"].items():
                    assert math.isclose(b.details["option_probs"][k], v, rel_tol=1e-4, abs_tol=1e-7)
    assert engine.run_jobs(entry, [Job(mc_request(), "generate", name)])[0].input_tokens > \
        engine.run_jobs(entry, [Job(mc_request(images=()), "generate", name)])[0].input_tokens


def test_qwen_processors_need_torchvision_here(tiny_family):
    """Documents the reason the Qwen families are skipped above; fails (so the skips can go) once they load."""
    import importlib.util

    if importlib.util.find_spec("torchvision") is not None:
        pytest.skip("torchvision is installed: the Qwen processors load")
    with pytest.raises(ProviderError, match=r"^hf/\S+: cannot load '\S+': its processor needs torchvision"):
        provider(tiny_family("qwen2_vl")).load()


def test_build_is_a_real_checkpoint_layout(tiny_family):
    folder = Path(tiny_family("llava_next"))
    names = {p.name for p in folder.iterdir()}
    assert {"config.json", "model.safetensors", "generation_config.json", "processor_config.json"} <= names
    assert any(n.startswith("tokenizer") for n in names) and any("chat_template" in n for n in names)
