"""Names people read for the registry's code names: perturbations and suites as the page shows them.

Code names (``nota``, ``cot``, ``cyclic_shift``) stay the keys in presets, the CLI and the store; the page shows
these labels and maps a label back to its code name where a person may type one (the steps table). A perturbation
or suite registered without a label here is shown with its code name's words ("probmed_question" → "probmed
question"), so a new one is never hidden.
"""

from __future__ import annotations

PERTURBATIONS: dict[str, str] = {
    "blur": "blur", "brightness": "darken or brighten", "contrast": "lower or raise contrast",
    "cot": "ask for step-by-step reasoning", "crop": "crop (zoom in)", "cyclic_shift": "rotate the options' order",
    "dots": "draw coloured dots", "downscale": "lower the resolution", "escape": "add an escape option",
    "few_shot": "show worked examples first", "flip": "mirror", "jpeg": "JPEG compression",
    "marker": "draw a marker (arrow, box or circle)", "noise": "add noise", "nota": "add 'none of the above'",
    "phrasing": "ask in another phrasing", "premise": "add a false premise",
    "probmed_question": "ask a yes/no question about the image", "remove": "send without the image",
    "replace_distractors": "replace wrong options", "rotate": "rotate", "shuffle": "shuffle the options",
    "suggest": "suggest an answer", "swap": "swap in another image",
}

SUITES: dict[str, str] = {
    "rotations": "rotations (90°, 180°, 270°)", "medblink-orientation": "upright and upside down (MedBLINK)",
    "circular": "every order of the options (CircularEval)", "illusion": "Illusion of Readiness tests (T1-T5)",
    "mediconfusion-pair": "the partner image (MediConfusion)", "medvh": "hallucination tests (MedVH)",
    "probmed-pairs": "true and false yes/no questions (ProbMed)",
    "prompt-variants": "other phrasings and reasoning (MediConfusion)", "dot-colours": "dot colours (MedBLINK)",
    "severity": "every image degradation, severities 1-5",
}


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def perturbation(name: str) -> str:
    """A perturbation's label (its code name in words when it has none)."""
    return PERTURBATIONS.get(name, _words(name))


def suite(name: str) -> str:
    """A suite's label (its code name in words when it has none)."""
    return SUITES.get(name, _words(name))


def perturbation_name(text: str) -> str:
    """The code name of a perturbation typed as its label or its code name (anything else is returned as it is,
    for the registry to refuse with its own message)."""
    text = " ".join(str(text or "").split())
    by_label = {label.lower(): code for code, label in PERTURBATIONS.items()}
    return by_label.get(text.lower(), text)


def choices(names: list[str], *, kind: str = "perturbation") -> list[tuple[str, str]]:
    """(label, code name) pairs for a dropdown: the page shows the label, the callback gets the code name."""
    fn = perturbation if kind == "perturbation" else suite
    return [(fn(n), n) for n in names]
