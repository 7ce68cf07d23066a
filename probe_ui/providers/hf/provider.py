"""The ``hf`` provider: requests in, micro-batched answers out (see the package docstring for the modes)."""

from __future__ import annotations

from functools import partial

from probe_ui.messages import Request, Response
from probe_ui.providers import answer_format
from probe_ui.providers.base import ModelConfig, Provider, ProviderError, register_provider
from probe_ui.providers.hf.batching import Job, batch_options
from probe_ui.providers.hf.loading import (
    NOT_INSTALLED,
    LoadedModel,
    cached_models,
    hub_cached,
    hub_offline,
    load_model,
    missing_dependency,
    resolve_source,
    runtime,
)

MODES = ("generate", "gd", "ps")


@register_provider
class HFLocalProvider(Provider):
    """A transformers model in this process (GPU when present): ``hf/<hub id or local folder>``."""

    name = "hf"
    takes_url = False  # runs in this process
    #: requests in flight per model: twice the batch size, so the next micro-batch is queued while one runs
    #: (set per instance from options.batch_size; ``--concurrency 1`` asks one at a time)
    default_concurrency = 16
    #: the runner gives each local model a limit of its own rather than one per provider
    limit_per_model = True
    #: json: ``generate`` mode decodes under the constraint that the reply spell a label
    #: (:mod:`~probe_ui.providers.hf.constrained`); ``gd`` and ``ps`` answer with a label in any case
    answer_formats = ("free", "json")

    def __init__(self, config: ModelConfig) -> None:
        super().__init__(config)
        problem = _options_problem(config)
        if problem:
            raise ProviderError(f"{self.label}: {problem}")
        self.mode = str(config.options.get("mode", "generate"))
        self.batch_size, self.batch_wait_s = batch_options(config.options, self.label)
        self.default_concurrency = 2 * self.batch_size  # type: ignore[misc]
        self._entry: LoadedModel | None = None

    @property
    def label(self) -> str:
        return f"{self.config.provider}/{self.config.model}"

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        if config is None:
            return NOT_INSTALLED if missing_dependency() else None
        problem = _options_problem(config)
        if problem:
            return problem
        try:  # a wrong folder is named first, torch or not: it needs fixing either way, and the look is cheap
            source, is_local = resolve_source(config.model)
        except ProviderError as exc:
            return str(exc).split(": ", 1)[-1]
        if missing_dependency():
            return NOT_INSTALLED
        if not is_local and hub_offline() and not hub_cached(source):
            return (f"'{source}' is not a local folder and not in the Hugging Face cache (HF_HUB_OFFLINE is set); "
                    f"download it first with  hf download {source}")
        return None

    def load(self) -> LoadedModel:
        """Load (or find in the cache) this provider's model now; blocking. Raises ProviderError. A model
        unloaded since is loaded again."""
        if self._entry is None or self._entry.key not in cached_models():
            self._entry = load_model(self.config.model, self.config.options)
        return self._entry

    async def generate(self, request: Request) -> Response:
        import asyncio  # with the engine, not at import: listing the providers needs neither

        from probe_ui.providers.hf.engine import run_jobs

        first_load = not self._is_cached()
        # a model in memory is found at once (requests sent together reach the batcher together); a load blocks
        entry = await asyncio.to_thread(self.load) if first_load else self.load()
        job = Job(request, self.mode, self.label, self.batch_size, self.batch_wait_s)
        response = await asyncio.wrap_future(entry.get_batcher(partial(run_jobs, entry)).submit(job))
        if answer_format.structured(request):  # every mode's answer is then one of the labels
            response.text = answer_format.reply(response.text)
        response.details["mode"] = self.mode
        response.details["wait_s"] = round(job.started - job.submitted, 4)
        if first_load:
            response.details["load_s"] = round(entry.load_s, 3)
        return response

    def _is_cached(self) -> bool:
        if self._entry is not None:
            return self._entry.key in cached_models()
        try:
            source, _ = resolve_source(self.config.model)
            device, dtype = runtime(self.config.options)
        except Exception:  # noqa: BLE001 - the load reports it properly
            return False
        return (source, dtype, device, self.config.options.get("trust_remote_code") is True) in cached_models()


def _options_problem(config: ModelConfig) -> str | None:
    """What is wrong with a catalogue entry's hf options (mode, batch_size, batch_wait_ms), or None."""
    mode = str(config.options.get("mode", "generate"))
    if mode not in MODES:
        return f"options.mode must be one of {', '.join(MODES)}, got {mode!r}"
    try:
        batch_options(config.options)
    except ProviderError as exc:
        return str(exc).split(": ", 1)[-1]
    return None


__all__ = ["HFLocalProvider", "MODES"]
