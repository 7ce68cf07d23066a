"""ProbMed's prompt template: yes/no with its GPT system prompt (``probmed``)."""

from __future__ import annotations

from probe_ui.items import Variant
from probe_ui.prompts import Template, register_template, yesno

PROBMED_SYSTEM = (
    "You are a student in medical school. You are preparing for your final exam. Answer the following question in "
    "your practice exam as directed to earn higher scores. You answer will only be for academic purpose."
)


def probmed(v: Variant) -> tuple[str | None, str]:
    return PROBMED_SYSTEM, yesno(v)[1]


register_template(Template("probmed", ("yesno",), probmed, 32, "ProbMed: yes/no with its GPT system prompt",
                           label="ProbMed yes or no question"))
