"""Finding and loading ``hf/`` models: local folders and Hub ids, the shared model cache, device and dtype.

A model is loaded once per (source, dtype, device, trust_remote_code) and shared by every provider instance that
names it (a module-level cache guarded by a lock; concurrent first requests load it once). On CUDA it loads in
bfloat16 (float16 where the GPU lacks it) with ``device_map="auto"`` (accelerate) or on one GPU; under a launcher
that sets ``LOCAL_RANK`` (torchrun) or ``SLURM_LOCALID`` (srun) on the GPU of that local rank instead, so that eight
ranks on one node use eight GPUs rather than all spreading over all of them; elsewhere on the CPU in float32. A
Hub id already in the Hugging Face cache loads from it without contacting the Hub; one that is not fails at once,
with a clear message, when HF_HUB_OFFLINE is set or the Hub cannot be reached (instead of minutes of download
retries); a local folder that does not exist, or holds no model (no config.json), is named.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui.providers.base import ProviderError

NOT_INSTALLED = "needs the local extra: pip install 'probe-ui[local]' (torch, transformers)"
DTYPES = ("auto", "float32", "float16", "bfloat16")


# ---- availability ------------------------------------------------------------------------------------------------
def missing_dependency() -> str | None:
    """The first of torch / transformers that cannot be imported (cheap: no import, and each look at the import
    path, which the app's model list asks for every hf/ entry of every list, is remembered for a few seconds by
    :func:`probe_ui.providers.readiness.remembered`; honours a ``None`` entry in ``sys.modules`` as import machinery
    does)."""
    from probe_ui.providers import readiness

    for name in ("torch", "transformers"):
        if name in sys.modules:
            if sys.modules[name] is None:
                return name
            continue
        if readiness.remembered(f"import:{name}", lambda n=name: None if _importable(n) else n):
            return name
    return None


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def hub_offline() -> bool:
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
               for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def _looks_like_path(model: str) -> bool:
    """A Hub id is ``name`` or ``owner/name``; anything else that names a file-system location is a path."""
    return (model.startswith(("/", "./", "../", "~", ".\\", "..\\")) or model in (".", "..") or "\\" in model
            or model.count("/") > 1 or bool(re.match(r"^[A-Za-z]:[\\/]", model)))


def resolve_source(model: str) -> tuple[str, bool]:
    """``(what to pass to from_pretrained, is_local)``; raises ProviderError for a local folder that is missing or
    holds no model."""
    model = model.strip()
    if not model:
        raise ProviderError("hf/: no model given (use hf/<hub id or local folder>)")
    path = Path(model).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ProviderError(f"hf/{model}: {path} is a file, not a model folder")
        if not (path / "config.json").is_file():
            raise ProviderError(f"hf/{model}: {path} is not a model folder (it has no config.json; give the folder "
                                "that save_pretrained or hf download wrote)")
        return str(path.resolve()), True
    if _looks_like_path(model):
        raise ProviderError(f"hf/{model}: local model folder not found: {path}")
    return model, False


def hub_cached(repo_id: str) -> bool:
    """Whether the Hub model ``repo_id`` is in the local cache (:func:`probe_ui.providers.readiness.hub_cached`)."""
    from probe_ui.providers import readiness

    return readiness.hub_cached(repo_id)


def _hub_reachable(timeout_s: float = 3.0) -> bool:
    """Whether the Hub can be reached (:func:`probe_ui.providers.readiness.hub_unreachable`): without this,
    ``from_pretrained`` of an uncached model on a machine with no network retries for minutes."""
    from probe_ui.providers.readiness import hub_unreachable

    return hub_unreachable(timeout_s) is None


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
    #: how this architecture is prompted (probe_ui.providers.hf.families), chosen by its config's model_type
    family: Any = None
    #: how a system message is given to the chat template: "parts", "string", or None (prepend to user text)
    system_style: str | None = None
    system_checked: bool = False
    #: the one worker thread that runs this model's micro-batches (probe_ui.providers.hf.batching), made lazily
    batcher: Any = None
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def get_batcher(self, run: Any) -> Any:
        """This model's batcher, started on first use; ``run(jobs)`` is what it calls with each micro-batch."""
        from probe_ui.providers.hf.batching import Batcher

        with self._guard:
            if self.batcher is None:
                self.batcher = Batcher(run, name=Path(self.key[0]).name or self.key[0])
            return self.batcher


_CACHE: dict[tuple[str, str, str, bool], LoadedModel] = {}
_CACHE_LOCK = threading.Lock()
# One load at a time in the whole process, whatever the model: transformers' from_pretrained changes process-wide
# state while it builds a model (torch's default dtype, the meta-device context, lazy module attributes), so two
# different models loaded at once in two threads (two users, or a batch asking two hf/ models) came out wrong: on an
# H200, a Qwen2.5-VL loaded beside a LLaVA in bfloat16 kept 107 of 345 weights in float32 and failed every answer
# ("mat1 and mat2 must have the same dtype"); a Gemma 3 failed to load or loaded without its tied lm_head.
_LOAD_LOCK = threading.Lock()


def cached_models() -> dict[tuple[str, str, str, bool], LoadedModel]:
    """The models in memory, by (source, dtype, device, trust_remote_code)."""
    with _CACHE_LOCK:
        return dict(_CACHE)


def unload(source: str | None = None) -> int:
    """Drop cached models (all, or those loaded from ``source``) and free GPU memory; returns how many."""
    with _CACHE_LOCK:
        keys = [k for k in _CACHE if source is None or k[0] == source]
        for k in keys:
            entry = _CACHE.pop(k)
            if entry.batcher is not None:
                entry.batcher.close()
    if keys and "torch" in sys.modules:
        import gc

        gc.collect()
        torch = sys.modules["torch"]
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    return len(keys)


def runtime(options: dict[str, Any]) -> tuple[str, str]:
    """``(device, dtype)`` for these options: CUDA → ("auto", "bfloat16"; float16 on GPUs without bfloat16, e.g.
    V100/T4) or, under a launcher's LOCAL_RANK / SLURM_LOCALID, ("cuda:<local rank>", ...); MPS → float16; else
    ("cpu", "float32")."""
    import torch

    from probe_ui.cluster import local_rank

    device = options.get("device")
    if not device:
        rank = local_rank()
        if not torch.cuda.is_available():
            device = "cpu"
        elif rank is not None:
            device = f"cuda:{rank % torch.cuda.device_count()}"  # one GPU per rank on its node
        else:
            device = "auto"
    device = str(device)
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
    if missing_dependency():
        raise ProviderError(f"hf/{model}: {NOT_INSTALLED}")
    options = options or {}
    source, is_local = resolve_source(model)
    device, dtype = runtime(options)
    key = (source, dtype, device, options.get("trust_remote_code") is True)
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
    # checked before taking the load lock: a look for the Hub (up to 3 s) holds up no one else's load
    cached = not is_local and hub_cached(source)
    if not is_local and not cached:
        if hub_offline():
            raise ProviderError(_not_cached_message(model, "HF_HUB_OFFLINE is set"))
        if not _hub_reachable():
            raise ProviderError(_not_cached_message(model, "no network connection"))
    with _LOAD_LOCK:  # a second caller of the same model waits for the first load instead of loading again
        with _CACHE_LOCK:
            if key in _CACHE:
                return _CACHE[key]
        try:
            # a model already in the cache loads from it without asking the Hub (fast, and works offline) ...
            entry = _load(model, key, options, local_files_only=cached)
        except ProviderError:
            if not cached or hub_offline() or not _hub_reachable():
                raise
            entry = _load(model, key, options)  # ... unless the cached copy is incomplete
        with _CACHE_LOCK:
            _CACHE[key] = entry
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
            # transformers wraps .to with functools.wraps(torch.nn.Module.to): its stub reads as unbound
            model = model.to(move_to)  # type: ignore[arg-type]
    except ProviderError:
        raise
    except Exception as exc:  # noqa: BLE001 - every loading failure becomes one clear line
        raise ProviderError(_load_error(spec, exc)) from None
    model.eval()
    tokenizer = getattr(processor, "tokenizer", processor)
    # micro-batches are left-padded (generation continues every row at the right end); a tokenizer without a pad
    # token pads with its end-of-sequence token, which the attention mask hides
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None and tokenizer.eos_token is not None:
        tokenizer.pad_token = tokenizer.eos_token
    from probe_ui.providers.hf.families import family_for

    return LoadedModel(key=key, model=model, processor=processor, tokenizer=tokenizer,
                       input_device=model.device, takes_images=takes_images, load_s=time.perf_counter() - t0,
                       family=family_for(getattr(model.config, "model_type", "")))


def _load_error(spec: str, exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and ("offline" in text.lower() or "connect" in text.lower()
                                     or "couldn't" in text.lower() or "not find" in text.lower()):
        where = "the Hub is not reachable and it is not in the Hugging Face cache"
        return f"hf/{spec}: cannot load '{spec}': {where} ({cut_text(text)})"
    if isinstance(exc, ImportError) or "VIDEO_PROCESSOR_MAPPING" in text:
        if "torchvision" in text.lower() or "VIDEO_PROCESSOR_MAPPING" in text:
            # transformers' video processors (Qwen2-VL, Qwen2.5-VL, SmolVLM2, LLaVA-OneVision ...) need torchvision
            first = text.split(". ")[0].rstrip(".")  # transformers goes on with install instructions
            return (f"hf/{spec}: cannot load '{spec}': its processor needs torchvision, which is not installed here "
                    f"({type(exc).__name__}: {cut_text(first, 200)})")
        return f"hf/{spec}: cannot load '{spec}': a package it needs is missing ({cut_text(text)})"
    if "trust_remote_code" in text:
        return (f"hf/{spec}: this model needs its own code from the Hub; set options.trust_remote_code: true in its "
                f"catalogue entry if you trust it ({cut_text(text)})")
    return f"hf/{spec}: cannot load '{spec}': {type(exc).__name__}: {cut_text(text)}"


def cut_text(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


