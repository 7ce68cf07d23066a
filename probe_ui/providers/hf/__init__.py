"""Hugging Face transformers models in-process: ``hf/<hub id or local folder>``.

The package, one concern a module:

- ``loading``: local folders and Hub ids, the model cache (one load per source, dtype, device and
  trust_remote_code, shared by every provider instance), device and dtype (the GPU of ``LOCAL_RANK`` under a
  launcher), one-line load errors (e.g. a processor that needs torchvision);
- ``batching``: one worker thread per loaded model gathers requests into micro-batches (``options.batch_size``,
  default 8; ``options.batch_wait_ms``, default 5) and runs them one batch at a time, off the event loop;
- ``engine``: a micro-batch → left-padded tensors → generation or option scores;
- ``families``: what differs between architectures (the default: the checkpoint's chat template and processor;
  PaliGemma: no template). Adding a family is one file there (``@register_family``);
- ``provider``: ``HFLocalProvider``, the ``hf/`` provider.

Messages go through the model's own chat template (``processor.apply_chat_template``): images as
``{"type": "image", "image": <PIL RGB>}`` parts, text as ``{"type": "text"}`` parts. A system message becomes a
system turn when the template renders one, else it is prepended to the first user text (Gemma-2/Mistral-style
templates reject system turns; some silently drop them; both are detected once per model).

Modes (``options.mode`` in the catalogue entry), all batched:

- ``generate`` (default): greedy decoding at temperature 0, else sampling with ``settings.temperature`` and
  ``settings.top_p`` (the checkpoint's own sampling defaults, e.g. top_k, are not applied, so a setting means the
  same for every model), drawn from a ``torch.Generator`` seeded by ``settings.seed`` and owned by the request (no
  global RNG, and one generator per row of a batch, so a seeded sample is the same alone or batched, even while
  other models run). ``settings.max_tokens`` new tokens at most; ``settings.timeout_s`` caps generation time
  (finish reason ``time_limit``, partial text kept; a batch stops at its smallest).
- ``gd`` (greedy-decoding probe, docs/reference.md §3): one forward pass over the rendered prompt; each answer label's
  probability as the next token, trying the label with and without a leading space (and capitalised, for words:
  "Yes" / "yes"), taking the best variant; a variant that is several tokens long scores the product of its
  token probabilities (an extra row). ``details["option_probs"]`` = these probabilities renormalised over the
  labels, ``details["label_mass"]`` = their sum before renormalising (how much of the model's next-token
  probability lands on a valid answer at all); the answer text is the argmax label.
- ``ps`` (prefix scoring, docs/reference.md §3): the user turn is the request's images and
  ``Question: {q} Answer: `` (no system prompt, no few-shot turns), rendered with the chat template and the
  generation prompt; each option text
  is appended as the assistant's continuation and scored by its length-normalised likelihood, the geometric mean
  of its token probabilities. ``details["option_probs"]`` = the geometric means normalised to sum to 1 (the same
  as a softmax over the mean token log-probabilities), ``details["option_logprob_mean"]`` = the raw means; the
  answer text is the best option's label. Needs ``Request.question`` and ``Request.options`` (yes/no items without
  options score their labels as the texts).

Every response records ``details["batch_size"]`` (requests answered by the same batch) and ``details["wait_s"]``
(time queued before its batch started).

Other options: ``dtype`` (``bfloat16``, ``float16``, ``float32``, ``auto``), ``device`` (``auto`` = device_map
"auto", ``cpu``, ``cuda``, ``cuda:1``, ``mps``), ``trust_remote_code`` (false unless set), ``revision``,
``attn_implementation``, ``batch_size``, ``batch_wait_ms``.
"""

from probe_ui.providers.hf.loading import (
    NOT_INSTALLED,
    LoadedModel,
    cached_models,
    load_model,
    resolve_source,
    runtime,
    unload,
)
from probe_ui.providers.hf.provider import MODES, HFLocalProvider

__all__ = ["HFLocalProvider", "LoadedModel", "MODES", "NOT_INSTALLED", "cached_models", "load_model",
           "resolve_source", "runtime", "unload"]
