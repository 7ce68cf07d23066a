"""PaliGemma (and PaliGemma 2): no chat template, a prefix that attends both ways, a suffix that is causal.

Its checkpoints ship no chat template: the prompt is the images, BOS, the text and a newline, which
``PaliGemmaProcessor`` builds from plain text. The conversation's turns are joined into that text (the system text
first, as the template-less fold does); every request needs at least one image. Text after the prompt (the
generated answer, or an option scored in ``gd`` / ``ps`` mode) is the causal suffix: ``token_type_ids`` 1, as
PaliGemma's own generation marks it, where the prompt is 0.
"""

from __future__ import annotations

from typing import Any, ClassVar

from probe_ui.providers.base import ProviderError
from probe_ui.providers.hf.families import register_family
from probe_ui.providers.hf.families.base import Family


@register_family
class PaliGemma(Family):
    model_type = "paligemma"
    continuation_type_ids: ClassVar[dict[str, int]] = {"token_type_ids": 1}

    def system_style(self, entry: Any) -> str | None:
        return None  # no template: the system text goes before the first user text

    def check(self, conversation: list[dict[str, Any]], label: str) -> None:
        if not any(p["type"] == "image" for turn in conversation for p in turn["content"]):
            raise ProviderError(f"{label}: PaliGemma answers about images: send at least one image")

    def encode(self, entry: Any, conversations: list[list[dict[str, Any]]], label: str) -> Any:
        texts, images = [], []
        for conversation in conversations:
            self.check(conversation, label)
            parts = [p for turn in conversation for p in turn["content"]]
            pictures = [p["image"] for p in parts if p["type"] == "image"]
            text = "\n".join(p["text"] for p in parts if p["type"] == "text")
            texts.append(entry.processor.image_token * len(pictures) + text)  # the processor adds BOS and "\n"
            images.append(pictures)
        inputs = entry.processor(text=texts, images=images, padding=True, return_tensors="pt")
        inputs.pop("labels", None)  # built for fine-tuning, and would make the forward pass compute a loss
        return inputs
