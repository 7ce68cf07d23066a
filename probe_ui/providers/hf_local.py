"""Hugging Face transformers models in-process: ``hf/<hub id or local folder>``.

A model is loaded once per (source, dtype, device, trust_remote_code) and shared by every provider instance that
names it (a module-level cache guarded by a lock; concurrent first requests load it once). On CUDA it loads in
bfloat16 (float16 where the GPU lacks it) with ``device_map="auto"`` (accelerate) or on one GPU; elsewhere on
the CPU in float32. A Hub id already in the Hugging Face cache loads from it without contacting the Hub; one that
is not fails at once, with a clear message, when HF_HUB_OFFLINE is set or the Hub cannot be reached (instead of
minutes of download retries); a local folder that does not exist is named. Requests to one
loaded model run one at a time (``default_concurrency = 1``; a per-model lock also serialises callers on other
event loops or threads), and the blocking work runs in a worker thread, so other providers keep going.

Messages go through the model's own chat template (``processor.apply_chat_template``): images as
``{"type": "image", "image": <PIL RGB>}`` parts, text as ``{"type": "text"}`` parts. A system message becomes a
system turn when the template renders one, else it is prepended to the first user text (Gemma-2/Mistral-style
templates reject system turns; some silently drop them; both are detected once per model).

Modes (``options.mode`` in the catalogue entry):

- ``generate`` (default): greedy decoding at temperature 0, else sampling with ``settings.temperature`` and
  ``settings.top_p`` (the checkpoint's own sampling defaults, e.g. top_k, are not applied, so a setting means the
  same for every model), drawn from a ``torch.Generator`` seeded by ``settings.seed`` and owned by the request (no
  global RNG, so seeded samples are reproducible even while other models run). ``settings.max_tokens`` new tokens
  at most; ``settings.timeout_s`` caps generation time (finish reason ``time_limit``, partial text kept).
- ``gd`` (greedy-decoding probe, REFERENCE §3): one forward pass over the rendered prompt; each answer label's
  probability as the next token, trying the label with and without a leading space (and capitalised, for words:
  "Yes" / "yes"), taking the best variant; a variant that is several tokens long scores the product of its
  token probabilities (extra forward pass). ``details["option_probs"]`` = these probabilities renormalised over
  the labels, ``details["label_mass"]`` = their sum before renormalising (how much of the model's next-token
  probability lands on a valid answer at all); the answer text is the argmax label.
- ``ps`` (prefix scoring, REFERENCE §3): the user turn is the request's images and ``Question: {q} Answer: `` (no
  system prompt, no few-shot turns), rendered with the chat template and the generation prompt; each option text
  is appended as the assistant's continuation and scored by its length-normalised likelihood, the geometric mean
  of its token probabilities. ``details["option_probs"]`` = the geometric means normalised to sum to 1 (the same
  as a softmax over the mean token log-probabilities), ``details["option_logprob_mean"]`` = the raw means; the
  answer text is the best option's label. Needs ``Request.question`` and ``Request.options`` (yes/no items without
  options score their labels as the texts).

Other options: ``dtype`` (``bfloat16``, ``float16``, ``float32``, ``auto``), ``device`` (``auto`` = device_map
"auto", ``cpu``, ``cuda``, ``cuda:1``, ``mps``), ``trust_remote_code`` (false unless set), ``revision``,
``attn_implementation``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import math
import os
import re
import socket
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from probe_ui.providers.base import (
    ImagePart,
    Message,
    ModelConfig,
    Provider,
    ProviderError,
    Request,
    Response,
    TextPart,
)

NOT_INSTALLED = "needs the local extra: pip install 'probe-ui[local]' (torch, transformers)"
MODES = ("generate", "gd", "ps")
PS_PROMPT = "Question: {q} Answer: "
DTYPES = ("auto", "float32", "float16", "bfloat16")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SYSTEM_PROBE = "probe-ui-system-turn-probe"


# ---- availability ------------------------------------------------------------------------------------------------
def _missing_dependency() -> str | None:
    """The first of torch / transformers that cannot be imported (cheap: no import, honours a ``None`` entry in
    ``sys.modules`` as import machinery does)."""
    for name in ("torch", "transformers"):
        if name in sys.modules:
            if sys.modules[name] is None:
                return name
            continue
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            return name
    return None


def _offline() -> bool:
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
               for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def _looks_like_path(model: str) -> bool:
    """A Hub id is ``name`` or ``owner/name``; anything else that names a file-system location is a path."""
    return (model.startswith(("/", "./", "../", "~", ".\\", "..\\")) or model in (".", "..") or "\\" in model
            or model.count("/") > 1 or bool(re.match(r"^[A-Za-z]:[\\/]", model)))


def resolve_source(model: str) -> tuple[str, bool]:
    """``(what to pass to from_pretrained, is_local)``; raises ProviderError for a local folder that is missing."""
    model = model.strip()
    if not model:
        raise ProviderError("hf/: no model given (use hf/<hub id or local folder>)")
    path = Path(model).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ProviderError(f"hf/{model}: {path} is a file, not a model folder")
        return str(path.resolve()), True
    if _looks_like_path(model):
        raise ProviderError(f"hf/{model}: local model folder not found: {path}")
    return model, False


def _hub_cached(repo_id: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - a dependency of transformers
        return False
    try:
        return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)
    except Exception:  # noqa: BLE001 - a malformed id is simply not cached
        return False


def _hub_reachable(timeout_s: float = 3.0) -> bool:
    """Whether a TCP connection to the Hub endpoint (``HF_ENDPOINT``) opens within ``timeout_s``: without this,
    ``from_pretrained`` of an uncached model on a machine with no network retries for minutes. Behind a proxy the
    direct connection says nothing, so the answer is yes and the download is left to try."""
    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return True
    url = urlsplit(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    if not url.hostname:
        return True
    try:
        socket.create_connection((url.hostname, url.port or (443 if url.scheme == "https" else 80)),
                                 timeout=timeout_s).close()
    except OSError:
        return False
    return True


def _not_cached_message(model: str, why: str) -> str:
    return (f"hf/{model}: '{model}' is not a local folder and is not in the Hugging Face cache, and the Hub is not "
            f"reachable ({why}); download it first (hf download {model}) or give a local folder")


# ---- the shared model cache --------------------------------------------------------------------------------------
@dataclass(eq=False)
class LoadedModel:
    """One model in memory, shared by every provider instance that names it."""

    key: tuple[str, str, str, bool]
    model: Any
    processor: Any
    tokenizer: Any
    input_device: Any
    takes_images: bool
    load_s: float
    #: one request at a time on this model, whatever thread or event loop it comes from
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: how a system message is given to the chat template: "parts", "string", or None (prepend to user text)
    system_style: str | None = None
    system_checked: bool = False
    _loop_locks: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def queue(self) -> asyncio.Lock:
        """The asyncio lock of the running loop: waiting callers queue without taking a worker thread."""
        loop = asyncio.get_running_loop()
        with self._guard:
            lock = self._loop_locks.get(loop)
            if lock is None:
                lock = self._loop_locks[loop] = asyncio.Lock()
            return lock


_CACHE: dict[tuple[str, str, str, bool], LoadedModel] = {}
_CACHE_LOCK = threading.Lock()
_LOADING: dict[tuple[str, str, str, bool], threading.Lock] = {}


def cached_models() -> dict[tuple[str, str, str, bool], LoadedModel]:
    """The models in memory, by (source, dtype, device, trust_remote_code)."""
    with _CACHE_LOCK:
        return dict(_CACHE)


def unload(source: str | None = None) -> int:
    """Drop cached models (all, or those loaded from ``source``) and free GPU memory; returns how many."""
    with _CACHE_LOCK:
        keys = [k for k in _CACHE if source is None or k[0] == source]
        for k in keys:
            del _CACHE[k]
    if keys and "torch" in sys.modules:
        import gc

        gc.collect()
        torch = sys.modules["torch"]
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    return len(keys)


def runtime(options: dict[str, Any]) -> tuple[str, str]:
    """``(device, dtype)`` for these options: CUDA → ("auto", "bfloat16"; float16 on GPUs without bfloat16, e.g.
    V100/T4), MPS → float16, else ("cpu", "float32")."""
    import torch

    device = str(options.get("device") or ("auto" if torch.cuda.is_available() else "cpu"))
    dtype = options.get("dtype")
    if not dtype:
        if device == "cpu":
            dtype = "float32"
        elif device.startswith("mps"):
            dtype = "float16"
        elif torch.cuda.is_available() and not torch.cuda.is_bf16_supported():
            dtype = "float16"
        else:
            dtype = "bfloat16"
    dtype = str(dtype)
    if dtype not in DTYPES:
        raise ProviderError(f"options.dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    return device, dtype


def load_model(model: str, options: dict[str, Any] | None = None) -> LoadedModel:
    """The loaded model for ``model`` (hub id or folder) and these options, from the cache or loaded now."""
    if _missing_dependency():
        raise ProviderError(f"hf/{model}: {NOT_INSTALLED}")
    options = options or {}
    source, is_local = resolve_source(model)
    device, dtype = runtime(options)
    key = (source, dtype, device, options.get("trust_remote_code") is True)
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
        loading = _LOADING.setdefault(key, threading.Lock())
    with loading:  # a second caller waits for the first load instead of loading again
        with _CACHE_LOCK:
            if key in _CACHE:
                return _CACHE[key]
        cached = not is_local and _hub_cached(source)
        if not is_local and not cached:
            if _offline():
                raise ProviderError(_not_cached_message(model, "HF_HUB_OFFLINE is set"))
            if not _hub_reachable():
                raise ProviderError(_not_cached_message(model, "no network connection"))
        try:
            # a model already in the cache loads from it without asking the Hub (fast, and works offline) ...
            entry = _load(model, key, options, local_files_only=cached)
        except ProviderError:
            if not cached or _offline() or not _hub_reachable():
                raise
            entry = _load(model, key, options)  # ... unless the cached copy is incomplete
        with _CACHE_LOCK:
            _CACHE[key] = entry
            _LOADING.pop(key, None)
        return entry


def _load(spec: str, key: tuple[str, str, str, bool], options: dict[str, Any], *,
          local_files_only: bool = False) -> LoadedModel:
    import torch
    import transformers

    source, dtype, device, trust = key
    t0 = time.perf_counter()
    common: dict[str, Any] = {"trust_remote_code": trust}
    if local_files_only:
        common["local_files_only"] = True
    if options.get("revision"):
        common["revision"] = str(options["revision"])
    model_kwargs: dict[str, Any] = dict(common, dtype=dtype if dtype == "auto" else getattr(torch, dtype))
    if options.get("attn_implementation"):
        model_kwargs["attn_implementation"] = str(options["attn_implementation"])
    move_to: str | None = None
    if device == "auto":
        if importlib.util.find_spec("accelerate") is not None:
            model_kwargs["device_map"] = "auto"
        elif torch.cuda.is_available():
            move_to = "cuda"
    elif device != "cpu":
        move_to = device
    try:
        processor = transformers.AutoProcessor.from_pretrained(source, **common)
        takes_images = hasattr(processor, "image_processor")
        try:
            model = transformers.AutoModelForImageTextToText.from_pretrained(source, **model_kwargs)
        except ValueError as exc:  # a text-only checkpoint: still usable for blind (no-image) baselines
            if "Unrecognized configuration class" not in str(exc):
                raise
            model = transformers.AutoModelForCausalLM.from_pretrained(source, **model_kwargs)
            takes_images = False
        if move_to:
            model = model.to(move_to)
    except ProviderError:
        raise
    except Exception as exc:  # noqa: BLE001 - every loading failure becomes one clear line
        raise ProviderError(_load_error(spec, exc)) from None
    model.eval()
    tokenizer = getattr(processor, "tokenizer", processor)
    return LoadedModel(key=key, model=model, processor=processor, tokenizer=tokenizer,
                       input_device=model.device, takes_images=takes_images, load_s=time.perf_counter() - t0)


def _load_error(spec: str, exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and ("offline" in text.lower() or "connect" in text.lower()
                                     or "couldn't" in text.lower() or "not find" in text.lower()):
        where = "the Hub is not reachable and it is not in the Hugging Face cache"
        return f"hf/{spec}: cannot load '{spec}': {where} ({_cut(text)})"
    if isinstance(exc, ImportError):
        return f"hf/{spec}: cannot load '{spec}': a package it needs is missing ({_cut(text)})"
    if "trust_remote_code" in text:
        return (f"hf/{spec}: this model needs its own code from the Hub; set options.trust_remote_code: true in its "
                f"catalogue entry if you trust it ({_cut(text)})")
    return f"hf/{spec}: cannot load '{spec}': {type(exc).__name__}: {_cut(text)}"


def _cut(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- the seeded sampler --------------------------------------------------------------------------------------------
class _SeededSampler:
    """A logits processor that samples the next token with its own ``torch.Generator`` and leaves only that token
    finite, so greedy decoding picks it: seeded, per request, independent of the global RNG and other threads."""

    def __init__(self, temperature: float, top_p: float | None, seed: int | None) -> None:
        self.temperature = temperature
        self.top_p = top_p
        self.seed = seed
        self.generator: Any = None

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch

        if self.generator is None:
            self.generator = torch.Generator(device=scores.device)
            if self.seed is None:
                self.generator.seed()
            else:
                self.generator.manual_seed(int(self.seed))
        logits = scores.float() / max(self.temperature, 1e-6)
        if self.top_p is not None and 0 < self.top_p < 1:
            sorted_logits, order = torch.sort(logits, descending=True, dim=-1)
            probs = torch.softmax(sorted_logits, dim=-1)
            drop = probs.cumsum(dim=-1) - probs > self.top_p  # keep the smallest set reaching top_p (≥ 1 token)
            sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
            logits = torch.full_like(logits, float("-inf")).scatter(-1, order, sorted_logits)
        probs = torch.softmax(logits, dim=-1)
        chosen = torch.multinomial(probs, num_samples=1, generator=self.generator)
        out = torch.full_like(scores, float("-inf"))
        return out.scatter(-1, chosen, 0.0)


# ---- the provider ------------------------------------------------------------------------------------------------
class HFLocalProvider(Provider):
    """A transformers model in this process (GPU when present): ``hf/<hub id or local folder>``."""

    name = "hf"
    default_concurrency = 1

    def __init__(self, config: ModelConfig) -> None:
        super().__init__(config)
        mode = str(config.options.get("mode", "generate"))
        if mode not in MODES:
            raise ProviderError(f"{self.label}: options.mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self._entry: LoadedModel | None = None

    @property
    def label(self) -> str:
        return f"{self.config.provider}/{self.config.model}"

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        if _missing_dependency():
            return NOT_INSTALLED
        if config is None:
            return None
        mode = str(config.options.get("mode", "generate"))
        if mode not in MODES:
            return f"options.mode must be one of {', '.join(MODES)}, got {mode!r}"
        try:
            source, is_local = resolve_source(config.model)
        except ProviderError as exc:
            return str(exc).split(": ", 1)[-1]
        if not is_local and _offline() and not _hub_cached(source):
            return f"'{source}' is not a local folder and not in the Hugging Face cache (HF_HUB_OFFLINE is set)"
        return None

    def load(self) -> LoadedModel:
        """Load (or find in the cache) this provider's model now; blocking. Raises ProviderError."""
        if self._entry is None:
            self._entry = load_model(self.config.model, self.config.options)
        return self._entry

    async def generate(self, request: Request) -> Response:
        t0 = time.perf_counter()
        first_load = self._entry is None and not self._is_cached()
        entry = self._entry or await asyncio.to_thread(self.load)
        async with entry.queue():
            waited = time.perf_counter() - t0
            response = await asyncio.to_thread(self._run, entry, request)
        response.details["mode"] = self.mode
        response.details["wait_s"] = round(waited, 4)
        if first_load:
            response.details["load_s"] = round(entry.load_s, 3)
        return response

    def _is_cached(self) -> bool:
        try:
            source, _ = resolve_source(self.config.model)
            device, dtype = runtime(self.config.options)
        except Exception:  # noqa: BLE001 - the load reports it properly
            return False
        return (source, dtype, device, self.config.options.get("trust_remote_code") is True) in cached_models()

    # ---- blocking work (a worker thread, one at a time per model) ----------------------------------------------
    def _run(self, entry: LoadedModel, request: Request) -> Response:
        import torch

        with entry.lock:
            start = time.perf_counter()
            try:
                with torch.inference_mode():
                    if self.mode == "gd":
                        response = self._gd(entry, request)
                    elif self.mode == "ps":
                        response = self._ps(entry, request)
                    else:
                        response = self._generate(entry, request)
            except ProviderError:
                raise
            except Exception as exc:  # noqa: BLE001 - one clear line per failure
                raise ProviderError(self._run_error(exc)) from None
            response.latency_s = time.perf_counter() - start
            response.cost = 0.0
            return response

    def _run_error(self, exc: Exception) -> str:
        if type(exc).__name__ == "OutOfMemoryError":
            return f"{self.label}: out of GPU memory (try a smaller model, options.dtype, or fewer images)"
        return f"{self.label}: {type(exc).__name__}: {_cut(str(exc))}"

    def _generate(self, entry: LoadedModel, request: Request) -> Response:
        from transformers import LogitsProcessorList

        s = request.settings
        inputs = self._encode(entry, self._conversation(entry, request.messages))
        n_in = int(inputs["input_ids"].shape[1])
        kwargs: dict[str, Any] = {"max_new_tokens": s.max_tokens, "do_sample": False, "num_beams": 1,
                                  "max_time": float(s.timeout_s)}
        if not s.deterministic:
            kwargs["logits_processor"] = LogitsProcessorList([_SeededSampler(s.temperature, s.top_p, s.seed)])
        gc = entry.model.generation_config
        # greedy here whatever the checkpoint's own sampling defaults say (they would only trigger warnings)
        for attr, neutral in (("temperature", 1.0), ("top_p", 1.0), ("top_k", 50)):
            if getattr(gc, attr, None) not in (None, neutral):
                kwargs[attr] = neutral
        if getattr(gc, "pad_token_id", None) is None and entry.tokenizer.pad_token_id is None:
            eos = gc.eos_token_id
            kwargs["pad_token_id"] = eos[0] if isinstance(eos, (list, tuple)) else eos
        out = entry.model.generate(**inputs, **kwargs)
        new = out[0, n_in:].tolist()
        eos = gc.eos_token_id
        eos_ids = set(eos if isinstance(eos, (list, tuple)) else [eos] if eos is not None else [])
        pad = kwargs.get("pad_token_id", getattr(gc, "pad_token_id", None))
        while new and new[-1] == pad and pad not in eos_ids:
            new.pop()
        if new and new[-1] in eos_ids:
            finish = "stop"
        elif len(new) >= s.max_tokens:
            finish = "length"
        else:
            finish = "time_limit"
        text = entry.tokenizer.decode(new, skip_special_tokens=True).strip()
        return Response(text=text, input_tokens=n_in, output_tokens=len(new), finish_reason=finish)

    def _gd(self, entry: LoadedModel, request: Request) -> Response:
        import torch

        labels = list(request.labels)
        if not labels:
            raise ProviderError(f"{self.label}: mode 'gd' needs answer labels (a multiple-choice, yes/no or label "
                                "prompt; not 'free')")
        inputs = self._encode(entry, self._conversation(entry, request.messages))
        n_in = int(inputs["input_ids"].shape[1])
        next_logp = torch.log_softmax(self._logits(entry, inputs, 1)[-1].float(), dim=-1)
        best: dict[str, float] = {}
        chosen: dict[str, str] = {}
        for label in labels:
            for variant in _label_variants(label):
                ids = entry.tokenizer.encode(variant, add_special_tokens=False)
                if not ids:
                    continue
                if len(ids) == 1:
                    lp = float(next_logp[ids[0]])
                else:
                    lp = sum(self._continuation_logprobs(entry, inputs, ids))
                if label not in best or lp > best[label]:
                    best[label], chosen[label] = lp, variant
        if not best:
            raise ProviderError(f"{self.label}: none of the labels {labels} can be tokenized")
        probs = _normalise({k: best.get(k, float("-inf")) for k in labels})
        answer = max(labels, key=lambda k: probs[k])
        return Response(text=answer, input_tokens=n_in, output_tokens=0, finish_reason="stop",
                        details={"option_probs": probs, "label_mass": sum(math.exp(v) for v in best.values()),
                                 "label_tokens": chosen})

    def _ps(self, entry: LoadedModel, request: Request) -> Response:
        question = getattr(request, "question", "") or ""
        options = tuple(getattr(request, "options", ()) or ()) or tuple(request.labels)
        if not question or not options:
            raise ProviderError(f"{self.label}: mode 'ps' needs the question and the option texts "
                                "(Request.question and Request.options)")
        labels = list(request.labels) if len(request.labels) == len(options) else list(LETTERS[: len(options)])
        images = next((m.images() for m in reversed(request.messages) if m.role == "user"), ())
        user = Message("user", tuple(ImagePart(im) for im in images) + (TextPart(PS_PROMPT.format(q=question)),))
        inputs = self._encode(entry, self._conversation(entry, (user,)))
        n_in = int(inputs["input_ids"].shape[1])
        means: dict[str, float] = {}
        lengths: dict[str, int] = {}
        for label, text in zip(labels, options):
            ids = entry.tokenizer.encode(text, add_special_tokens=False)
            if not ids:
                raise ProviderError(f"{self.label}: option {label} ('{text}') has no tokens to score")
            lps = self._continuation_logprobs(entry, inputs, ids)
            means[label] = sum(lps) / len(lps)
            lengths[label] = len(ids)
        probs = _normalise(means)
        answer = max(labels, key=lambda k: means[k])
        return Response(text=answer, input_tokens=n_in, output_tokens=0, finish_reason="stop",
                        details={"option_probs": probs, "option_logprob_mean": means, "option_tokens": lengths,
                                 "ps_prompt": PS_PROMPT.format(q=question)})

    # ---- model plumbing ----------------------------------------------------------------------------------------
    def _logits(self, entry: LoadedModel, inputs: dict[str, Any], keep: int) -> Any:
        """Logits of the last ``keep`` positions, shape (keep, vocab)."""
        try:
            out = entry.model(**inputs, logits_to_keep=keep, use_cache=False)
        except TypeError:  # remote code without logits_to_keep
            out = entry.model(**inputs, use_cache=False)
        return out.logits[0, -keep:]

    def _continuation_logprobs(self, entry: LoadedModel, inputs: dict[str, Any], ids: list[int]) -> list[float]:
        """log P(ids[j] | prompt, ids[:j]) for each j, from one forward pass over prompt + ids."""
        import torch

        extended = _extend(inputs, ids)
        logits = self._logits(entry, extended, len(ids) + 1)[:-1].float()
        logp = torch.log_softmax(logits, dim=-1)
        target = torch.tensor(ids, device=logp.device).unsqueeze(1)
        return logp.gather(1, target).squeeze(1).tolist()

    def _encode(self, entry: LoadedModel, conversation: list[dict[str, Any]]) -> Any:
        try:
            inputs = entry.processor.apply_chat_template(conversation, add_generation_prompt=True, tokenize=True,
                                                         return_dict=True, return_tensors="pt")
        except ValueError as exc:
            if "chat template" in str(exc).lower() or "chat_template" in str(exc):
                raise ProviderError(f"{self.label}: the model has no chat template (probe-ui sends chat "
                                    "messages; use an instruction-tuned checkpoint)") from None
            raise
        try:
            return inputs.to(entry.input_device, dtype=entry.model.dtype)
        except (TypeError, ValueError):  # a tokenizer's BatchEncoding moves, it does not cast
            return inputs.to(entry.input_device)

    def _conversation(self, entry: LoadedModel, messages: tuple[Message, ...]) -> list[dict[str, Any]]:
        """Provider-neutral messages → the chat-template conversation (system turn or folded into user text)."""
        if not entry.system_checked:
            entry.system_style = _system_style(entry)
            entry.system_checked = True
        system = "\n\n".join(m.text() for m in messages if m.role == "system" and m.text())
        turns: list[dict[str, Any]] = []
        if system and entry.system_style == "parts":
            turns.append({"role": "system", "content": [{"type": "text", "text": system}]})
        elif system and entry.system_style == "string":
            turns.append({"role": "system", "content": system})
        fold = system if system and entry.system_style is None else ""
        for m in messages:
            if m.role == "system":
                continue
            parts: list[dict[str, Any]] = []
            for p in m.content:
                if isinstance(p, ImagePart):
                    if not entry.takes_images:
                        raise ProviderError(f"{self.label}: this model takes no images (a text-only checkpoint)")
                    parts.append({"type": "image", "image": p.image.pil().convert("RGB")})
                elif isinstance(p, TextPart):
                    parts.append({"type": "text", "text": p.text})
            if fold and m.role == "user":
                texts = [i for i, p in enumerate(parts) if p["type"] == "text"]
                if texts:
                    parts[texts[0]] = {"type": "text", "text": f"{fold}\n\n{parts[texts[0]]['text']}"}
                else:
                    parts.append({"type": "text", "text": fold})
                fold = ""
            if not entry.takes_images:  # text-only templates often expect a plain string
                turns.append({"role": m.role, "content": "".join(p["text"] for p in parts)})
            else:
                turns.append({"role": m.role, "content": parts})
        return turns


def _system_style(entry: LoadedModel) -> str | None:
    """How this model's chat template takes a system turn: as content parts, as a string, or not at all (it
    raises, or renders the turn without its text)."""
    render = entry.processor.apply_chat_template
    user_parts = [{"type": "text", "text": "hi"}]
    for style, system_content in (("parts", [{"type": "text", "text": _SYSTEM_PROBE}]), ("string", _SYSTEM_PROBE)):
        user = user_parts if entry.takes_images else "hi"
        conversation = [{"role": "system", "content": system_content}, {"role": "user", "content": user}]
        try:
            text = render(conversation, add_generation_prompt=True, tokenize=False)
        except Exception:  # noqa: BLE001 - a template that rejects system turns (raise_exception)
            continue
        if isinstance(text, list):
            text = text[0] if text else ""
        if _SYSTEM_PROBE in str(text):
            return style
    return None


def _label_variants(label: str) -> list[str]:
    """The spellings of a label a model may use as its next token: as is and after a space; words also
    capitalised / lower-cased ("Yes", "yes")."""
    forms = [label]
    if len(label) > 1:
        forms += [label[0].upper() + label[1:], label.lower()]
    out: list[str] = []
    for f in forms:
        for v in (f, " " + f):
            if v not in out:
                out.append(v)
    return out


def _normalise(logps: dict[str, float]) -> dict[str, float]:
    """exp(logp) normalised to sum to 1 (a softmax over the log-probabilities)."""
    top = max(logps.values())
    if top == float("-inf"):
        return {k: 1.0 / len(logps) for k in logps}
    weights = {k: math.exp(v - top) for k, v in logps.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def _extend(inputs: Any, ids: list[int]) -> dict[str, Any]:
    """The encoded prompt with ``ids`` appended: input_ids grow by them, attention_mask by ones, and any other
    per-token integer tensor (token_type_ids, mm_token_type_ids) by zeros (text)."""
    import torch

    input_ids = inputs["input_ids"]
    n = input_ids.shape[1]
    add = torch.tensor([ids], dtype=input_ids.dtype, device=input_ids.device)
    out = dict(inputs)
    for k, v in inputs.items():
        if not (torch.is_tensor(v) and v.dim() == 2 and v.shape[0] == 1 and v.shape[1] == n
                and not torch.is_floating_point(v)):
            continue
        if k == "input_ids":
            out[k] = torch.cat([v, add], dim=1)
        elif k == "attention_mask":
            out[k] = torch.cat([v, torch.ones_like(add, dtype=v.dtype)], dim=1)
        else:
            out[k] = torch.cat([v, torch.zeros_like(add, dtype=v.dtype)], dim=1)
    return out
