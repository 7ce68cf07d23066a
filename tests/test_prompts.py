"""Prompt templates: the papers' exact wording, and requests that carry images by hash."""

from __future__ import annotations

import pytest
from PIL import Image

from probe_ui.benchmarks.mediconfusion.prompts import MEDICONFUSION_SYSTEM
from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.prompts import PromptError, render, template_for


def _variant(**kw) -> Variant:
    im = CanonicalImage.from_pil(Image.new("L", (8, 8), 7))
    base = dict(item_id="i", question="What do you see on this angiogram?", kind="choice",
                options=("Terminating into the ophthalmic artery", "Showing an aggravating pseudoaneurysm"),
                answer="Showing an aggravating pseudoaneurysm", images=(im,))
    base.update(kw)
    return Variant(**base)


def test_mediconfusion_template_is_verbatim() -> None:
    req = render(_variant())
    system, user = req.messages
    assert system.role == "system" and system.text() == "You are a helpful assitant expert in medical domain."
    assert user.text() == (
        "Based on the image, choose the correct option for the following question.\n"
        "Question: What do you see on this angiogram?\n"
        "A: Terminating into the ophthalmic artery\n"
        "B: Showing an aggravating pseudoaneurysm\n"
        "Answer with the option's letter from the given choices directly. Your answer should be just one letter.\n"
        "Answer: ")
    assert MEDICONFUSION_SYSTEM.count("assitant") == 1
    assert req.labels == ("A", "B") and req.prompt == "mediconfusion-mc"
    assert req.settings.temperature == 0 and req.settings.max_tokens == 32
    # images come first, and are logged by hash only
    assert req.rendered()[1]["content"][0] == {"type": "image", "image_id": _variant().images[0].id}


def test_yesno_label_free_and_named_templates() -> None:
    yn = render(_variant(kind="yesno", options=(), answer="no", question="Is there a pleural effusion?"))
    assert yn.messages[-1].text() == "Is there a pleural effusion? (please answer yes/no)"
    already = render(_variant(kind="yesno", options=(), answer="no", question="Effusion? (please answer yes/no)"))
    assert already.messages[-1].text() == "Effusion? (please answer yes/no)"
    lab = render(_variant(kind="label", options=("red", "green", "blue"), answer="red",
                          question="Which of the dots is closest to the surface of the skin?"))
    assert (lab.messages[-1].text().endswith("(Answer with red, green, or blue)")
            and lab.labels == ("red", "green", "blue"))
    free = render(_variant(), "free")
    assert free.messages[-1].text() == ("Based on the image, answer following question.\n"
                                        "What do you see on this angiogram?")
    assert free.labels == ()
    vh = render(_variant(), "medvh-mc")
    assert vh.messages[-1].text().endswith("Choices: A: Terminating into the ophthalmic artery. "
                                           "B: Showing an aggravating pseudoaneurysm.")
    bl = render(_variant(), "blink-mc")
    assert "Select from the following choices.\n(A) Terminating" in bl.messages[-1].text()


def test_template_choice_falls_back_by_kind_and_rejects_unknown_names() -> None:
    yn = _variant(kind="yesno", options=(), answer="yes")
    assert template_for(yn, "mediconfusion-mc").name == "yesno"  # does not fit a yes/no item
    with pytest.raises(PromptError, match="unknown prompt template 'nope'"):
        template_for(yn, "nope")


def test_cache_key_depends_on_images_text_model_and_settings() -> None:
    a = render(_variant())
    b = render(_variant(images=(CanonicalImage.from_pil(Image.new("L", (8, 8), 8)),)))
    assert a.cache_key("openai", "m") != b.cache_key("openai", "m")
    assert a.cache_key("openai", "m") != a.cache_key("openai", "n")
    assert a.cache_key("openai", "m") == render(_variant()).cache_key("openai", "m")
    # two servers may serve different models under one name: one's answer never stands in for the other's
    assert a.cache_key("openai", "m", base_url="http://a:8000/v1") != a.cache_key("openai", "m",
                                                                                   base_url="http://b:8000/v1")
    assert a.cache_key("openai", "m", base_url=None) == a.cache_key("openai", "m")  # earlier keys still match


def test_template_for_prefers_the_variants_own_template() -> None:
    v = _variant(prompt="mediconfusion-mc/shorten")
    assert template_for(v, "medvh-mc").name == "mediconfusion-mc/shorten"
    assert render(v, "medvh-mc").prompt == "mediconfusion-mc/shorten"
    assert template_for(v, None).name == "mediconfusion-mc/shorten"
    # a variant template that does not fit the kind gives way to the requested one, then to the default
    yn = _variant(kind="yesno", options=(), answer="yes", prompt="mediconfusion-mc/polite")
    assert template_for(yn, "probmed").name == "probmed" and template_for(yn, None).name == "yesno"
    with pytest.raises(PromptError, match="unknown prompt template 'mediconfusion-mc/rude'"):
        template_for(_variant(prompt="mediconfusion-mc/rude"), None)
    # the FCJ template needs a suggestion: without one, the run's request falls back to the kind's default
    assert template_for(_variant(), "medvh-fcj").name == "mediconfusion-mc"
    with_sugg = _variant(prompt_args={"suggestion": {"letter": "A", "text": "Terminating into the ophthalmic artery",
                                                     "wording": "physician", "hint": False}})
    assert template_for(with_sugg, "medvh-fcj").name == "medvh-fcj"


def test_every_template_is_registered_once_with_its_kinds() -> None:
    from probe_ui.benchmarks.mediconfusion.prompts import MEDICONFUSION_PHRASINGS
    from probe_ui.prompts import TEMPLATES

    for style in MEDICONFUSION_PHRASINGS:
        t = TEMPLATES[f"mediconfusion-mc/{style}"]
        assert t.kinds == ("choice",) and t.max_tokens == 32
    assert TEMPLATES["mediconfusion-mc/original"].render(_variant()) == TEMPLATES["mediconfusion-mc"].render(_variant())
    assert TEMPLATES["medvh-fcj"].kinds == ("choice",)


def test_preview_shows_images_and_the_exact_prompt_in_order() -> None:
    from probe_ui.prompts import preview

    v = _variant()
    images, text = preview(v)
    assert len(images) == 1 and images[0].size == (8, 8)
    assert text == ("[system]\nYou are a helpful assitant expert in medical domain.\n\n"
                    "[user]\n<image 1>\n" + render(v).messages[-1].text())
    ex = _variant(item_id="e", question="Which vessel?", options=("ICA", "ECA"), answer="ECA",
                  images=(CanonicalImage.from_pil(Image.new("L", (4, 4), 1)),))
    images, text = preview(v.evolve(examples=(ex,)), "blink-mc")
    assert [im.size for im in images] == [(4, 4), (8, 8)]
    assert text == ("[user]\n<image 1>\nWhich vessel?\nSelect from the following choices.\n(A) ICA\n(B) ECA\n\n"
                    "[assistant]\nB\n\n"
                    "[user]\n<image 2>\nWhat do you see on this angiogram?\nSelect from the following choices.\n"
                    "(A) Terminating into the ophthalmic artery\n(B) Showing an aggravating pseudoaneurysm")


def test_prompt_args_render_the_same_for_the_same_variant() -> None:
    v = _variant(prompt_args={"cot": True})
    assert render(v).rendered() == render(_variant(prompt_args={"cot": True})).rendered()
    assert render(v).settings.max_tokens == 512
    assert render(v, settings=None).rendered() != render(_variant()).rendered()
