"""Plain-language names for conditions: "rotated 90°", "options shuffled", "none of the above added", "no image".

A variant's condition name (``rotate(angle=90)``, ``illusion/1R``) is for code; a clinician reads what was done to
the item, built here from its provenance (the chain of perturbations actually applied). Each perturbation may have a
phrase in :data:`PHRASES`; one without a phrase is named by its registered summary, so a new perturbation is never
shown as a blank.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

ORIGINAL = "original"


def _sev(what: str) -> Callable[[dict[str, Any]], str]:
    """``<what>, severity N`` (or the explicit value given instead of a severity)."""
    def phrase(p: dict[str, Any]) -> str:
        for key in ("sigma", "radius", "quality", "factor", "keep"):
            if p.get(key) is not None:
                return f"{what} ({key} {_num(p[key])})"
        return f"{what}, severity {p.get('severity', 3)}"
    return phrase


def _num(x: Any) -> str:
    return f"{x:g}" if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def _rotate(p: dict[str, Any]) -> str:
    return f"rotated {_num(p.get('angle', 90))}°"


def _flip(p: dict[str, Any]) -> str:
    return "mirrored top to bottom" if p.get("axis") == "v" else "mirrored left to right"


def _swap(p: dict[str, Any]) -> str:
    if p.get("source") == "image" and p.get("image"):
        return f"image replaced by {p['image']}"
    return {"same-question": "image swapped for the partner image",
            "distractor": "image swapped for one showing a wrong option",
            "unrelated": "image swapped for an unrelated one"}.get(str(p.get("prefer")), "image swapped for another")


def _dots(p: dict[str, Any]) -> str:
    colours = p.get("colours")
    n = len(colours) if isinstance(colours, (list, tuple)) else p.get("n") or (len(p["points"]) if p.get("points")
                                                                                else None)
    what = f"{n} coloured dots" if n else "coloured dots"
    if p.get("permutation"):
        what += f" (colour order {p['permutation']})"
    return what + " added"


def _marker(p: dict[str, Any]) -> str:
    return f"{p.get('shape', 'arrow')} drawn on the image"


def _brightness(p: dict[str, Any]) -> str:
    f = p.get("factor")
    return _sev("brighter" if f is not None and f > 1 else "darker")(p)


def _contrast(p: dict[str, Any]) -> str:
    f = p.get("factor")
    return _sev("more contrast" if f is not None and f > 1 else "less contrast")(p)


def _distractors(p: dict[str, Any]) -> str:
    if p.get("source") == "unknown":
        return "a wrong option replaced by 'Unknown'"
    k = int(p.get("k", 1) or 1)
    return f"{k} wrong option{'s' if k != 1 else ''} replaced"


def _nota(p: dict[str, Any]) -> str:
    return ("none of the above added, right option removed" if p.get("mode", "hallucination") == "hallucination"
            else "none of the above added")


def _escape(p: dict[str, Any]) -> str:
    return {"unsuitable": "'not a suitable question' option added",
            "unknown": "'I don't know' option added"}.get(str(p.get("kind")), "an escape option added")


def _suggest(p: dict[str, Any]) -> str:
    return f"a {'right' if p.get('answer') == 'right' else 'wrong'} answer suggested"


#: each pressure type in a few words, as a row of the comparison table names it
PRESSURE_WORDS = {"doubt": "\"Are you sure?\"", "expert": "an expert says another option",
                  "authority": "the attending overrules it", "consensus": "colleagues agree on another option",
                  "emotional": "an emotional appeal", "guideline": "a guideline is cited for a wrong option",
                  "self_doubt": "asked to find its own mistake"}


def _pushback(p: dict[str, Any]) -> str:
    pressure = str(p.get("pressure", "doubt"))
    times = " (twice)" if int(p.get("turns", 1)) > 1 else ""
    return f"pushed back{times}: {PRESSURE_WORDS.get(pressure, pressure.replace('_', ' '))}"


PHRASES: dict[str, Callable[[dict[str, Any]], str]] = {
    "rotate": _rotate,
    "flip": _flip,
    "remove": lambda p: "no image",
    "swap": _swap,
    "dots": _dots,
    "marker": _marker,
    "noise": _sev("noise added"),
    "blur": _sev("blurred"),
    "jpeg": _sev("JPEG artefacts"),
    "contrast": _contrast,
    "brightness": _brightness,
    "crop": _sev("cropped"),
    "downscale": _sev("lower resolution"),
    "shuffle": lambda p: "options shuffled",
    "cyclic_shift": lambda p: f"options rotated by {p.get('shift')}",
    "replace_distractors": _distractors,
    "nota": _nota,
    "escape": _escape,
    "suggest": _suggest,
    "phrasing": lambda p: f"question reworded ({p.get('style')})",
    "cot": lambda p: "asked to reason step by step",
    "pushback": _pushback,
    "blank": lambda p: "blank image (one grey level)",
    "noise_image": lambda p: "noise instead of the image",
    "occlude": lambda p: f"finding covered ({p.get('fill') or 'mean'})",
    "occlude_elsewhere": lambda p: f"same area covered elsewhere ({p.get('fill') or 'mean'})",
    "few_shot": lambda p: f"{p.get('k', 2)} worked examples first",
    "premise": lambda p: "question with a false premise",
    "probmed_question": lambda p: f"ProbMed question ({str(p.get('qa_type', '')).replace('_', ' ')})",
}


def step_phrase(op: str, params: dict[str, Any] | None) -> str:
    """One perturbation step in words."""
    fn = PHRASES.get(op)
    if fn is not None:
        try:
            return fn(dict(params or {}))
        except (TypeError, ValueError, KeyError):
            pass
    from probe_ui.perturb import PerturbationError, get

    try:
        summary = get(op).summary
    except PerturbationError:
        return op
    return summary.split(".")[0].split(" (")[0].lower() or op


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
