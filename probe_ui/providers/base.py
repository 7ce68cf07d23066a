"""The provider protocol: one rendered request in, one response out (the message types: :mod:`probe_ui.messages`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from probe_ui.errors import ProbeUIError
from probe_ui.messages import TEXT_FORMATS, ImagePart, Message, Part, Request, Response
from probe_ui.registry import Registry
from probe_ui.security import redact

if TYPE_CHECKING:  # Pillow is imported when an image is shrunk, not to list providers
    from probe_ui.images import CanonicalImage


class ProviderError(ProbeUIError, RuntimeError):
    """A model call failed; ``retriable`` says whether trying again may help (429, 5xx, timeouts)."""

    def __init__(self, message: str, *, retriable: bool = False) -> None:
        super().__init__(message)
        self.retriable = retriable


class ModelSpecError(ProbeUIError, ValueError):
    """A model spec or catalogue entry is malformed or names an unknown provider."""


@dataclass(frozen=True)
class ModelConfig:
    """A catalogue entry (backends/*.yaml) or a bare ``provider/model`` spec."""

    name: str
    provider: str
    model: str
    base_url: str | tuple[str, ...] | None = None
    api_key_env: str | None = None
    generation: dict[str, Any] = field(default_factory=dict)
    max_image_side: int | None = None
    price_input_per_m: float | None = None  # USD per million input tokens
    price_output_per_m: float | None = None
    concurrency: int | None = None  # a batch's requests in flight to this model's provider
    #: a live probe's calls in flight to this model's provider and server, shared by every probe (probe_ui.live.calls)
    live_concurrency: int | None = None
    needs: str = ""
    description: str = ""
    options: dict[str, Any] = field(default_factory=dict)  # provider-specific extras
    #: a catalogue entry's ``trusted: true``: the site's own host, where the send gate does not apply by default and
    #: nothing is written to the send ledger (never set for an endpoint typed into the app)
    trusted: bool = False
    #: a key typed into the app's Models tab: held in memory only, never in repr, runs, logs or exports
    secret: str | None = field(default=None, repr=False, compare=False)
    #: how messages name this model's server instead of its URL (an endpoint an admin shared: most of its users may
    #: not see where it is, and a failed call's message is stored with the answer everyone reads)
    shown_as: str | None = field(default=None, compare=False)

    def api_key(self, default_env: str) -> str | None:
        """The typed key, else the one in ``api_key_env`` (or ``default_env``): stripped of surrounding whitespace,
        registered for masking. Which key a provider actually sends where: :meth:`SDKProvider.resolve_key`."""
        if self.secret:
            return redact.clean_key(self.secret)
        return redact.env_key(self.api_key_env or default_env)

    def cost(self, input_tokens: int | None, output_tokens: int | None) -> float | None:
        if self.price_input_per_m is None and self.price_output_per_m is None:
            return None
        return ((input_tokens or 0) * (self.price_input_per_m or 0.0)
                + (output_tokens or 0) * (self.price_output_per_m or 0.0)) / 1e6


def fit_images(request: Request, max_side: int | None,
               shrunk: dict[tuple[str, int], CanonicalImage] | None = None) -> tuple[Request, list[dict[str, Any]]]:
    """Shrink images whose long side exceeds a provider's limit (Lanczos, aspect kept); say what was resized.

    Done here, not by the server, so that the exact pixels sent are known, stored and hashed. ``shrunk`` keeps the
    results by (image id, long side) across calls, so an image that many requests share is resized once.
    """
    if not max_side:
        return request, []
    from PIL import Image

    from probe_ui.images import CanonicalImage

    records: list[dict[str, Any]] = []
    cache: dict[str, CanonicalImage] = {}
    shrunk = {} if shrunk is None else shrunk
    messages = []
    for m in request.messages:
        parts: list[Part] = []
        for p in m.content:
            im = p.image if isinstance(p, ImagePart) else None
            if im is not None and max(im.width, im.height) > max_side:
                if im.id not in cache:
                    scale = max_side / max(im.width, im.height)
                    size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
                    if (im.id, max_side) not in shrunk:
                        shrunk[(im.id, max_side)] = CanonicalImage.from_pil(
                            im.pil().resize(size, Image.Resampling.LANCZOS))
                    cache[im.id] = shrunk[(im.id, max_side)]
                    records.append({"from": im.id, "to": cache[im.id].id, "from_size": [im.width, im.height],
                                    "size": list(size), "max_side": max_side})
                p = ImagePart(cache[im.id])
            parts.append(p)
        messages.append(Message(m.role, tuple(parts)))
    if not records:
        return request, []
    from dataclasses import replace

    return replace(request, messages=tuple(messages)), records


class Provider(ABC):
    """One model behind one provider. Subclasses translate :class:`Request` to their wire format."""

    #: the spec prefix, e.g. "openai"
    name: ClassVar[str]
    #: default number of concurrent requests to one model of this provider
    default_concurrency: ClassVar[int] = 8
    #: images are shrunk to this long side before sending, unless the catalogue entry sets its own
    max_image_side: ClassVar[int | None] = None
    #: the SDK module the provider imports on first use (a batch imports it early, on a thread of its own)
    sdk: ClassVar[str | None] = None
    # ---- traits: what the rest of probe-ui asks of a provider (nothing lists providers by name elsewhere) ----
    #: whether its models live on a server a person can point at with a base URL (an endpoint can be added)
    takes_url: ClassVar[bool] = True
    #: whether it speaks the OpenAI wire format under ``/v1`` (a bare ``http://host:port`` gets ``/v1``)
    openai_style: ClassVar[bool] = False
    #: whether its answers cost nothing (a cost estimate counts 0 whatever the catalogue says)
    free: ClassVar[bool] = False
    #: whether a deterministic answer of its may be served from the request cache to any request with the same key
    #: (the words, settings and model sent); not where the answer depends on more than what is sent
    cacheable: ClassVar[bool] = True
    #: model specs usable here without any setting, offered first in every model list (the baselines)
    ready_models: ClassVar[tuple[str, ...]] = ()
    #: the answer formats (:data:`ANSWER_FORMATS`) it honours; a batch asking another is refused before it starts
    answer_formats: ClassVar[tuple[str, ...]] = ("free",)
    #: the provider's batch API (:mod:`probe_ui.providers.batch_api`: "openai", the Files and Batches endpoints;
    #: "anthropic", Message Batches; "gemini", Gemini's batch mode), which ``batch --provider-batch`` sends its cells
    #: through at the provider's batch price; None: it has none, and its cells are asked one call at a time
    batch_api: ClassVar[str | None] = None

    @classmethod
    def same_model(cls, model: str) -> str:
        """The one spelling of a model name that its server reads the same as others (``llava`` for Ollama's
        ``llava:latest``), so that a catalogue entry and a model found on a server are told to be one."""
        return model

    @classmethod
    def image_tokens(cls, width: int, height: int) -> int:
        """Estimated input tokens of one image of this size as sent (OpenAI's tiles: fit 2048, shortest side 768,
        85 + 170 per 512-pixel tile); a provider that counts otherwise overrides it."""
        import math

        w, h = float(width), float(height)
        if max(w, h) > 2048:
            s = 2048 / max(w, h)
            w, h = w * s, h * s
        if min(w, h) > 768:
            s = 768 / min(w, h)
            w, h = w * s, h * s
        return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)

    def __init__(self, config: ModelConfig) -> None:
        self.config = config

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        """Why this provider (or this configured model) cannot be used here, or None when it can."""
        return None

    @classmethod
    def answer_format_problem(cls, config: ModelConfig, answer_format: str) -> str | None:
        """Why this model cannot be asked for answers in ``answer_format``, or None when it can: a format the
        provider does not honour is refused, never quietly replaced by free text (the run would record a condition
        its answers were not asked under)."""
        if answer_format in cls.answer_formats or answer_format in TEXT_FORMATS:
            return None
        return (f"model '{config.name}' cannot be asked for --answer-format {answer_format}: the {cls.name} provider "
                f"honours {', '.join(cls.answer_formats)} only")

    @abstractmethod
    async def generate(self, request: Request) -> Response:
        """Ask the model; raise :class:`ProviderError` on failure."""

    async def aclose(self) -> None:
        """Release clients and connections."""


#: every provider class by its spec prefix (``openai/gpt-4o`` → the class registered as "openai"): the modules of
#: :mod:`probe_ui.providers` (each provider, each hosted service) and plugins. A provider module imports its SDK on
#: first use only (:attr:`Provider.sdk`), so discovering them all stays light.
PROVIDERS: Registry[type[Provider]] = Registry("provider", packages=("probe_ui.providers",), error=ModelSpecError)

P = TypeVar("P", bound=type[Provider])


def register_provider(cls: P) -> P:
    """Class decorator: register a provider under its ``name`` (a module imported again re-registers itself)."""
    return PROVIDERS.put(cls)  # type: ignore[no-any-return]


def all_ready_models() -> list[str]:
    """Every provider's :attr:`~Provider.ready_models`, in provider order (the baselines)."""
    return [m for name in PROVIDERS.names() for m in PROVIDERS.get(name).ready_models]
