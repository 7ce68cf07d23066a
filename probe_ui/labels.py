"""Names people read for the registry's code names: perturbations, suites, prompt templates, answer parsers and
the settings an answer was asked with, as the page shows them.

Code names (``nota``, ``cot``, ``cyclic_shift``) stay the keys in presets, the CLI and the store; the page shows
these labels and maps a label back to its code name where a person may type one (the steps table). A perturbation
or suite registered without a label here is shown with its code name's words ("probmed_question" → "probmed
question"), so a new one is never hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    "pushback": "push back after its answer (\"Are you sure?\", ...)",
    "blank": "replace the image by a blank one", "noise_image": "replace the image by noise",
    "occlude": "cover the finding (its region)", "occlude_elsewhere": "cover the same area elsewhere (control)",
}

SUITES: dict[str, str] = {
    "rotations": "rotations (90°, 180°, 270°)", "medblink-orientation": "upright and upside down (MedBLINK)",
    "circular": "every order of the options (CircularEval)", "illusion": "Illusion of Readiness tests (T1-T5)",
    "mediconfusion-pair": "the partner image (MediConfusion)", "medvh": "hallucination tests (MedVH)",
    "probmed-pairs": "true and false yes/no questions (ProbMed)",
    "prompt-variants": "other phrasings and reasoning (MediConfusion)", "dot-colours": "dot colours (MedBLINK)",
    "severity": "every image degradation, severities 1-5",
    "pushback": "push back after its answer, each pressure type once",
    "visual-reliance": "blank, noise and no image: does it need the pixels?",
}


#: prompt templates (:data:`probe_ui.prompts.TEMPLATES`): which paper's wording the question was sent in
TEMPLATES: dict[str, str] = {
    "mediconfusion-mc": "MediConfusion multiple choice", "medvh-mc": "MedVH multiple choice",
    "blink-mc": "BLINK multiple choice", "yesno": "yes or no question", "probmed": "ProbMed yes or no question",
    "label": "MedBLINK answer words", "free": "free answer (no options shown)",
    "choice": "plain multiple choice (a typed question)", "point": "point to the finding (x, y)",
    "medvh-fcj": "MedVH: judge a suggested answer",
    "mediconfusion-mc/original": "MediConfusion prompt 0 (original)",
    "mediconfusion-mc/shorten": "MediConfusion prompt 1 (shorter)",
    "mediconfusion-mc/options-at-end": "MediConfusion prompt 2 (options at the end)",
    "mediconfusion-mc/carefully": "MediConfusion prompt 3 (extra care)",
    "mediconfusion-mc/expert-role": "MediConfusion prompt 4 (expert role)",
    "mediconfusion-mc/a-or-b": "MediConfusion prompt 5 (one letter)",
    "mediconfusion-mc/polite": "MediConfusion prompt 6 (asked nicely)",
    "mediconfusion-mc/no-newlines": "MediConfusion prompt 7 (one line)",
    "mediconfusion-mc/more-explanation": "MediConfusion prompt 8 (more explanation)",
    "mediconfusion-mc/no-instructions": "MediConfusion prompt 9 (no instructions)",
    "mediconfusion-mc/emphasise-importance": "MediConfusion prompt 10 (importance stressed)",
}

#: how replies are read into answers (:data:`probe_ui.scoring.PARSERS`)
PARSERS: dict[str, str] = {
    "robust": "robust (reads the answer however it is written)",
    "legacy": "legacy (each paper's own parser, to quote beside the paper)",
    "settled": "settled (a clinician's reading where one settled the reply, else robust)",
    "legacy-mediconfusion": "MediConfusion's own parser", "legacy-probmed": "ProbMed's own parser",
    "legacy-medvh": "MedVH's own parser", "legacy-blink": "BLINK's own parser",
}

#: the settings an answer was asked with (a response's ``settings``), in the order the detail lists them
SETTINGS: dict[str, str] = {
    "provider": "provider", "model": "model", "base_url": "server address", "max_tokens": "longest reply",
    "temperature": "temperature", "top_p": "top-p sampling", "seed": "seed", "timeout_s": "time limit",
    "stream": "streamed reply",
}
_UNITS = {"max_tokens": " tokens", "timeout_s": " s"}

#: perturbation parameters whose code name does not read as words (the others are shown with spaces for "_")
PARAMETERS: dict[str, str] = {
    "qa_type": "what the question asks about", "image_index": "which image (0 = the first)",
    "radius_fraction": "dot radius (share of the long side)", "n": "number of dots", "k": "how many",
    "sigma": "noise strength (sigma)", "shift": "shift by (options)", "keep": "share of the image kept",
    "resample": "resampling", "relative": "points as fractions of the size", "gap": "least gap between dots (px)",
    "threshold": "mask threshold (grey level)", "labels": "letters beside the dots", "hint": "give a hint",
    "prefer": "prefer", "fill": "fill the corners with", "axis": "mirror axis", "version": "ProbMed version",
    "index": "which question (0 = the first)",
}

#: where a DICOM or NIfTI image's window came from (the loaders' ``window_source``), as the line under the image says
WINDOW_SOURCES: dict[str, str] = {
    "file": "the file's own", "user": "chosen here", "minmax": "the image's full range (the file names none)",
    "percentile": "the image's 0.5–99.5 % range",
}


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def perturbation(name: str) -> str:
    """A perturbation's label (its code name in words when it has none)."""
    return PERTURBATIONS.get(name, _words(name))


def suite(name: str) -> str:
    """A suite's label (its code name in words when it has none)."""
    return SUITES.get(name, _words(name))


def template(name: str) -> str:
    """A prompt template's label (its code name in words when it has none)."""
    return TEMPLATES.get(name, _words(name))


def parameter(name: str) -> str:
    """A perturbation parameter's label."""
    return PARAMETERS.get(name, _words(name))


def window_source(name: str) -> str:
    """Where an image's window came from, in words."""
    return WINDOW_SOURCES.get(name, _words(name))


def parser(name: str) -> str:
    """An answer parser's label."""
    return PARSERS.get(name, _words(name))


def _setting_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value}{_UNITS.get(key, '')}"


def settings_words(settings: Mapping[str, Any] | None) -> list[str]:
    """An answer's settings as short "what: value" lines: the known ones first in :data:`SETTINGS`' order, then
    any other in words; unset values (None, "") are left out, so the list says only what was set."""
    given = {str(k): v for k, v in (settings or {}).items() if v is not None and v != ""}
    keys = [k for k in SETTINGS if k in given] + sorted(k for k in given if k not in SETTINGS)
    out = []
    for k in keys:
        v = given[k]
        shown = ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else (
            "; ".join(f"{_words(str(a))} {b}" for a, b in v.items()) if isinstance(v, Mapping) else
            _setting_value(k, v))
        out.append(f"{SETTINGS.get(k, _words(k))}: {shown}")
    return out


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
