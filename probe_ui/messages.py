"""The messages a model is asked with and what comes back: role and text / image parts, images by content hash.

Why a module of their own, below the prompts and the providers: a prompt template builds them
(:mod:`probe_ui.prompts`), every provider translates them to its wire format (:mod:`probe_ui.providers`), the store
logs and hashes them for the cache; none of these should have to import another to speak the same protocol.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from probe_ui.items import content_hash

if TYPE_CHECKING:  # Pillow is imported when an image is loaded, not to build a request's types
    from probe_ui.images import CanonicalImage


@dataclass(frozen=True)
class TextPart:
    text: str
    type: Literal["text"] = "text"


@dataclass(frozen=True)
class ImagePart:
    image: CanonicalImage
    type: Literal["image"] = "image"


Part = TextPart | ImagePart


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: tuple[Part, ...]

    def text(self) -> str:
        return "".join(p.text for p in self.content if isinstance(p, TextPart))

    def images(self) -> tuple[CanonicalImage, ...]:
        return tuple(p.image for p in self.content if isinstance(p, ImagePart))


#: how a model is asked to write its answer (``--answer-format``): "free" text, read by the rules, or "json", an
#: object ``{"answer": <one of the item's labels>}`` the provider asks for in its own way (a JSON schema, a tool,
#: constrained decoding: :mod:`probe_ui.providers.answer_format`)
ANSWER_FORMATS = ("free", "json", "confidence")
#: formats that are plain text to every provider: "confidence" is free text with a fixed last line, "Confidence: N%"
#: (:data:`probe_ui.prompts.CONFIDENCE_INSTRUCTION`, appended to the prompt; ``--confidence``)
TEXT_FORMATS = ("free", "confidence")


@dataclass(frozen=True)
class GenerationSettings:
    """What decoding does; part of the cache key and stored with every response."""

    temperature: float = 0.0
    max_tokens: int = 32
    top_p: float | None = None
    seed: int | None = None
    timeout_s: float = 120.0
    stream: bool = False
    #: one of :data:`ANSWER_FORMATS`; "json" only on a request that has labels (never a free-text prompt)
    answer_format: str = "free"

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored and hashed. The free format, which every request had before answer formats
        existed, is left out: a free-text request keeps the cache key and stored settings it always had, and a
        json one differs from it."""
        out = asdict(self)
        if self.answer_format == "free":
            del out["answer_format"]
        return out

    @property
    def deterministic(self) -> bool:
        return self.temperature == 0


@dataclass(frozen=True)
class Request:
    """A rendered prompt for one variant, plus what a valid answer looks like (used by baselines)."""

    messages: tuple[Message, ...]
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    labels: tuple[str, ...] = ()
    variant_id: str = ""
    sample: int = 0
    prompt: str = ""  # template name
    question: str = ""  # the variant's question and option texts, for logit-based scoring (hf "ps" mode)
    options: tuple[str, ...] = ()

    def rendered(self) -> list[dict[str, Any]]:
        """JSON-able messages with images by id: what is stored and hashed."""
        out = []
        for m in self.messages:
            parts = [
                {"type": "text", "text": p.text} if isinstance(p, TextPart)
                else {"type": "image", "image_id": p.image.id}
                for p in m.content
            ]
            out.append({"role": m.role, "content": parts})
        return out

    def cache_key(self, provider: str, model: str, options: dict[str, Any] | None = None,
                  base_url: str | tuple[str, ...] | None = None) -> str:
        """Provider, model, its options (e.g. an hf scoring mode), the server it is asked on (two servers may
        serve different models under one name: one person's endpoint never answers for another's), exact messages
        and settings: equal keys, equal deterministic answers."""
        where = list(base_url) if isinstance(base_url, tuple) else base_url
        asked = (provider, model, json.dumps(options, sort_keys=True, default=str) if options else "",
                 json.dumps(where) if where else "")
        known = self.__dict__.setdefault("_cache_keys", {})  # a call asks for its key twice (cache, stored row)
        if asked not in known:
            known[asked] = content_hash(
                {"provider": provider, "model": model, "messages": self.rendered(),
                 "settings": self.settings.to_dict(), "sample": self.sample,
                 **({"options": options} if options else {}), **({"base_url": where} if where else {})},
                length=64,
            )
        return str(known[asked])


@dataclass
class Response:
    text: str = ""
    #: seconds from sending to the whole reply; None where it is not known (an answer collected from a batch API)
    latency_s: float | None = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    error: str | None = None
    finish_reason: str | None = None
    details: dict[str, Any] = field(default_factory=dict)  # e.g. per-option probabilities, resize records


__all__ = ["ANSWER_FORMATS", "TEXT_FORMATS", "GenerationSettings", "ImagePart", "Message", "Part", "Request",
           "Response", "TextPart"]
