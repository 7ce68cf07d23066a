"""Plain-language names for conditions: "rotated 90°", "options shuffled", "none of the above added", "no image".

A variant's condition name (``rotate(angle=90)``, ``illusion/1R``) is for code; a clinician reads what was done to
the item, built here from its provenance (the chain of perturbations actually applied). Each perturbation may declare
its phrase where it is registered (``@register(..., phrase=...)``); one without a phrase is named by its registered
summary, so a new perturbation is never shown as a blank.
"""

from __future__ import annotations

from typing import Any, Iterable

ORIGINAL = "original"


def step_phrase(op: str, params: dict[str, Any] | None) -> str:
    """One perturbation step in words: the registered perturbation's ``phrase``
    (:class:`probe_ui.perturb.Perturbation`), else its summary's first words; an unknown one by its name."""
    from probe_ui.perturb import PerturbationError, get

    try:
        pert = get(op)
    except PerturbationError:
        return op
    if pert.phrase is not None:
        try:
            return pert.phrase(dict(params or {}))
        except (TypeError, ValueError, KeyError):
            pass
    return pert.summary.split(".")[0].split(" (")[0].lower() or op


def pressure_words(pressure: str) -> str:
    """A pushback pressure type in a few words, as a row of the comparison table names it (the registered
    :class:`probe_ui.perturb.pressures.Pressure`'s ``words``; its name for one without)."""
    from probe_ui.perturb.pressures import pressure_words as words

    return words(pressure, pressure)


def describe(provenance: Iterable[dict[str, Any]] | None, condition: str | None = None) -> str:
    """A variant in words: its provenance chain joined with " + ", "original" for none."""
    steps = [step_phrase(str(r.get("op", "?")), r.get("params")) for r in provenance or [] if isinstance(r, dict)]
    if steps:
        return " + ".join(dict.fromkeys(steps))
    return ORIGINAL if condition in (None, "", ORIGINAL) else str(condition)


#: a perturbation or suite as a family name in a few words (plots group conditions under these)
FAMILY_WORDS = {
    "blur": "blur", "brightness": "brightness", "contrast": "contrast", "cot": "step-by-step reasoning",
    "crop": "crop and zoom", "cyclic_shift": "options rotated", "dots": "coloured dots",
    "downscale": "lower resolution",
    "escape": "escape option", "few_shot": "examples first", "flip": "mirrored", "jpeg": "JPEG compression",
    "marker": "marker drawn", "noise": "noise", "nota": "none of the above", "phrasing": "question phrasing",
    "premise": "false premise", "probmed_question": "ProbMed question", "remove": "no image",
    "replace_distractors": "options replaced", "rotate": "rotation", "shuffle": "options shuffled",
    "suggest": "suggested answer", "swap": "image swapped", "pushback": "pushback", "blank": "blank image",
    "noise_image": "noise image", "visual-reliance": "visual reliance", "occlude": "finding covered",
    "occlude_elsewhere": "elsewhere covered",
    "rotations": "rotations", "medblink-orientation": "MedBLINK orientation", "circular": "CircularEval",
    "illusion": "Illusion of Readiness", "mediconfusion-pair": "MediConfusion pair", "medvh": "MedVH",
    "probmed-pairs": "ProbMed pairs", "prompt-variants": "prompt variants", "dot-colours": "dot colours",
}


def family(condition: str | None) -> str:
    """The family of a condition name in words: "original"; a suite's condition (``rotations/rot90``) its suite,
    a severity sweep's (``severity/blur-3``) its perturbation, a chain (``rotate(angle=90)+blur(...)``) its first
    perturbation; a name no table knows with its dashes and underscores as spaces."""
    import re

    c = str(condition or "")
    if c in ("", ORIGINAL):
        return ORIGINAL
    if c.startswith("severity/"):
        c = c.removeprefix("severity/").rsplit("-", 1)[0]
    elif "/" in c:
        c = c.split("/", 1)[0]
    m = re.match(r"[A-Za-z0-9_-]+", c)
    key = m.group(0) if m else c
    return FAMILY_WORDS.get(key, key.replace("_", " ").replace("-", " "))
