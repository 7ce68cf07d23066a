"""The default family: the checkpoint's chat template renders the conversation, its processor batches the images."""

from __future__ import annotations

from typing import Any, ClassVar

from probe_ui.providers.base import ProviderError

_SYSTEM_PROBE = "probe-ui-system-turn-probe"


class Family:
    """Prompting rules of one architecture family; subclass it in a file of its own with ``@register_family``."""

    #: the config's ``model_type`` this family prompts (what it is registered under); the base family has none
    model_type: ClassVar[str] = ""

    #: the value that per-token integer inputs other than input_ids / attention_mask (token_type_ids,
    #: mm_token_type_ids) take on scored continuation text; 0 (plain text) unless a family says otherwise
    continuation_type_ids: ClassVar[dict[str, int]] = {}

    def system_style(self, entry: Any) -> str | None:
        """How this model's chat template takes a system turn: as content parts, as a string, or not at all (it
        raises, or renders the turn without its text), in which case the system text is folded into the first
        user turn."""
        render = entry.processor.apply_chat_template
        for style, system_content in (("parts", [{"type": "text", "text": _SYSTEM_PROBE}]), ("string", _SYSTEM_PROBE)):
            user: Any = [{"type": "text", "text": "hi"}] if entry.takes_images else "hi"
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

    def check(self, conversation: list[dict[str, Any]], label: str) -> None:
        """Raise ProviderError if this model cannot answer the conversation (checked per request, before it
        joins a batch, so the error lands on that request alone)."""

    def encode(self, entry: Any, conversations: list[list[dict[str, Any]]], label: str) -> Any:
        """Token ids, attention mask and image tensors of a batch of conversations, left-padded (the tokenizer's
        padding side is set at load), each ending in the generation prompt."""
        # a processor takes tokenizer settings in processor_kwargs; a text-only checkpoint's tokenizer directly
        padding: dict[str, Any] = ({"padding": True} if entry.processor is entry.tokenizer
                                   else {"processor_kwargs": {"padding": True}})
        try:
            return entry.processor.apply_chat_template(conversations, add_generation_prompt=True, tokenize=True,
                                                       return_dict=True, return_tensors="pt", **padding)
        except ValueError as exc:
            if "chat template" in str(exc).lower() or "chat_template" in str(exc):
                raise ProviderError(f"{label}: the model has no chat template (probe-ui sends chat messages; use an "
                                    "instruction-tuned checkpoint)") from None
            raise
