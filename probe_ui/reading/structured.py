"""Replies written to a JSON schema (``--answer-format json``, issue 46): read exactly, not by the rules.

Why a module: a model asked for ``{"answer": <one of the item's labels>}`` (an OpenAI ``response_format`` schema,
an Anthropic tool, constrained decoding over the label tokens) writes its answer in a field. That field is read
as it stands (method ``structured``); a reply that is not such an object falls through to the ordinary rules, so
a model that ignores the format is still read.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from types import MappingProxyType
from typing import Any, Mapping

from probe_ui.reading import overlap
from probe_ui.reading.closings import only_absent_or_normal
from probe_ui.reading.item import Item

__all__ = ["ANSWER_FIELD", "ANSWER_KEYS", "answer_schema", "boolean_field_label", "boolean_fields", "carried_text",
           "cut_at_answer_field", "echoed_alternatives", "entry_for_question", "few_shot_layout", "fields_per_option",
           "findings_per_option", "question_and_answer_lines", "report_sections", "stated_answer_text",
           "stated_reasons", "structured_label", "transcript_answers"]

#: the one field a structured reply carries
ANSWER_FIELD = "answer"


def answer_schema(labels: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema a structured reply follows: one required string field whose enum is the item's labels."""
    return {"type": "object", "properties": {ANSWER_FIELD: {"type": "string", "enum": list(labels)}},
            "required": [ANSWER_FIELD], "additionalProperties": False}


def structured_label(text: str, item: Item) -> str | None:
    """The label a reply that is exactly ``{"answer": ...}`` names (as the item spells it), or None when the reply
    is not such an object or its value is not one of the item's labels."""
    value = _json_object(text)
    if value is None or set(value) != {ANSWER_FIELD} or not isinstance(value[ANSWER_FIELD], str):
        return None
    return item.exact(value[ANSWER_FIELD].strip())


#: what :func:`_parsed` gives for a body that is not JSON, and for one nested too deep to parse
NOT_JSON, TOO_DEEP = object(), object()


@functools.lru_cache(maxsize=16)
def _parsed(body: str) -> Any:
    """``body`` parsed as JSON, or :data:`NOT_JSON` / :data:`TOO_DEEP`. Cached: the reader asks of one reply whether
    it is a structured answer, a boolean field, an echo of the format's alternatives and a serving stack's envelope,
    and each asks this, so a reply is parsed once (the asks come one after another: a few replies are kept, not a
    large store of long ones). The value is shared: callers only read it."""
    try:
        return json.loads(body)
    except RecursionError:
        return TOO_DEEP
    except ValueError:
        return NOT_JSON


def _json_object(text: str) -> Mapping[str, Any] | None:
    """The JSON object a reply is (a fenced block too), read-only; None for any other reply."""
    body = text.strip()
    if body.startswith("```"):  # a fenced JSON block
        body = body.strip("`").removeprefix("json").strip()
    if not (body.startswith("{") and body.endswith("}")):
        return None
    value = _parsed(body)
    return MappingProxyType(value) if isinstance(value, dict) else None


def boolean_field_label(text: str, item: Item) -> str | None:
    """Yes/no items: the answer of a reply that is a JSON object written unasked with a boolean field whose name
    says what the question asks (batch 11: ``{"left_kidney_mass": false}`` to "Is a mass present in the left
    kidney?" is no): every word of the field's name is a word of the question (stems compared). None for any other
    reply, when no field names what the question asks (``{"right_kidney_mass": false}``), or when several do."""
    if item.kind != "yesno" or not item.aliases or not item.question or "{" not in text:
        return None
    value = _json_object(text)
    if value is None:
        return None
    words = re.findall(r"[^\W\d_]+", item.question)
    asked = {overlap.stem(w) for w in words}
    # batch 80: '{"consolidation_rll": false}' to "Is there consolidation in the right lower lobe?": a word of the
    # field's name that is the initials of two to four words in a row of the question names them
    asked |= {"".join(w[0] for w in words[i:i + n]).casefold() for n in (2, 3, 4) for i in range(len(words) - n + 1)}
    flags = [flag for key, flag in value.items() if isinstance(flag, bool) and _names_asked(key, asked)]
    if len(flags) != 1:
        return None
    label = item.aliases["yep" if flags[0] else "nope"]
    # (an answer field that says the other: '{"answer": "yes", "pleural_effusion": false}', a review of held-out batch
    # 176's rules)
    stated = {item.exact(v) or item.exact(re.split(r"[\W_]+", v.strip(), maxsplit=1)[0])
              for key, v in value.items() if isinstance(key, str) and key.casefold() in ANSWER_KEYS
              and isinstance(v, str) and v.strip()}
    # (fields that may hold the answer in other names, '{"final answer": "no", "effusion": true}': counted only where
    # their value is a label, since they often hold free text, '"diagnosis": "right pleural effusion"')
    stated |= {item.exact(v.strip()) for key, v in value.items() if isinstance(key, str) and isinstance(v, str)
               and re.sub(r"[\s\-]+", "_", key.strip().casefold()) in _OTHER_ANSWER_KEYS} - {None}
    return None if stated - {label} or _unsure(value) else label


#: field names that may hold a JSON reply's answer besides :data:`ANSWER_KEYS` (spaces and hyphens as "_")
_OTHER_ANSWER_KEYS = frozenset({"final_answer", "response", "result", "diagnosis", "verdict", "conclusion",
                                "final_response", "reply"})


def _unsure(value: Mapping[str, Any]) -> bool:
    """Whether a JSON reply says its own confidence is low ('"confidence": "low"', '"certain": false',
    '"confidence": 0.3'; a review of held-out batch 176's rules)."""
    for key, v in value.items():
        words = {w.casefold() for w in _key_words(key)} if isinstance(key, str) else set()
        if words & {"uncertain", "unsure", "uncertainty", "doubt", "doubtful", "equivocal"}:
            if v is not False and v not in (0, None, "", "none", "low"):
                return True
        elif not any(re.match(r"confiden|certain|sure\Z|probab|likelihood", w) for w in words):
            continue
        elif v is False or (isinstance(v, str) and re.fullmatch(r"(?i)\s*(?:very\s+)?(?:low|uncertain|unsure|"
                                                               r"unclear|moderate|medium|none|low[\s\-]+moderate|"
                                                               r"\d{1,2}(?:\.\d+)?\s*%)\s*", v)
                                     and not re.fullmatch(r"\s*(?:[6-9]\d)(?:\.\d+)?\s*%\s*", v)):
            return True
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and (v < 0.6 or 1 < v < 60):
            return True
    return False


def _key_words(key: str) -> list[str]:
    """The words of a field's name ("left_kidney_mass", "pleuralEffusion")."""
    return [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key) if w]


def _names_asked(key: str, asked: set[str]) -> bool:
    """Whether every word of a field's name ("left_kidney_mass", "pleuralEffusion") is a word of the question."""
    words = [w for w in _key_words(key) if w.casefold() not in ("is", "has")]
    return bool(words) and all(overlap.stem(w) in asked for w in words)


def boolean_fields(text: str) -> bool:
    """Whether the reply is a JSON object with a boolean field: read by :func:`boolean_field_label` or not at all
    (``{"effusion": false, "pneumothorax": true}`` does not say "pneumothorax" as a sentence would)."""
    if "{" not in text:
        return False
    value = _json_object(text)
    return value is not None and any(isinstance(v, bool) for v in value.values())


#: the fields a JSON reply holds its answer in (declarations reads them in JSON-like text too)
ANSWER_KEYS = ("answer", "final_answer", "choice", "option", "prediction", "selection", "label")


def echoed_alternatives(text: str, item: Item) -> bool:
    """Whether the reply is a JSON object whose answer field echoes the answer format's alternatives instead of
    choosing one (batch 15: ``{"answer": "correct|upside down"}``, ``{"answer": "yes/no"}``): the value splits at
    "|", "/" or " or " into two or more of the item's labels. Such a reply names no answer."""
    if "{" not in text:
        return False
    value = _json_object(text)
    if value is None:
        return False
    for key, v in value.items():
        if key.casefold() not in ANSWER_KEYS or not isinstance(v, str):
            continue
        parts = [p.strip() for p in re.split(r"\s*\|\s*|\s*/\s*|\s+or\s+", v) if p.strip()]
        if len(parts) >= 2 and all(item.exact(p) is not None for p in parts):
            return True
    return False


# batch 63: '{\n  "findings": "enlarged cardiac silhouette with blunting of the right costophrenic angle",\n
# "answer": "': a JSON object cut off where its answer field opens; what the findings mention is not the answer
_CUT_AT_ANSWER = re.compile(r'(?i)\A\s*(?:```(?:json)?\s*)?\{[^{}]*"(?:' + "|".join(ANSWER_KEYS)
                            + r')"\s*:\s*"?\s*\Z')


def cut_at_answer_field(text: str) -> bool:
    """Whether the reply is a JSON object cut off where its answer field's value begins (``"answer": "`` and
    nothing after it): it names no answer, whatever its other fields mention."""
    return "{" in text and _CUT_AT_ANSWER.match(text) is not None


def carried_text(text: str) -> str | None:
    """The model's own words when the reply is a serving stack's whole response pasted as it came (batches 27-28):
    an OpenAI chat completion (``choices[0].message.content``, or a tool call's ``arguments``), an Ollama
    ``{"response": ...}`` or ``{"message": {"content": ...}}``, a Hugging Face pipeline's ``[{'generated_text':
    ...}]`` (a Python literal), an Anthropic ``content`` list (text or a tool's ``input``), a Gemini ``candidates``
    list, a Responses API ``output``. None when the reply is no such envelope, or carries no words (a safety block,
    read as it stands). A tool's arguments come back as their JSON object, for the answer field to be read."""
    body = text.strip()
    if not body or body[0] not in "[{" or body[-1] not in "]}" or len(body) > 200_000:
        return None
    value: Any = _parsed(body)
    if value is TOO_DEEP:
        return None  # nested past any envelope
    if value is NOT_JSON:
        try:
            value = ast.literal_eval(body)  # "[{'generated_text': '...'}]": a pipeline's output printed by Python
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None  # not a literal ("{[1]: 2}" is unhashable), or nested past any envelope
    found = _carried(value, 0)
    return found if found is not None and found.strip() and found.strip() != body else None


# the fields an envelope keeps the model's words in, in the order they are looked for
_TEXT_FIELDS = ("generated_text", "response", "output_text", "text", "content", "message", "choices", "candidates",
                "output", "parts", "delta")


def _carried(value: Any, depth: int) -> str | None:
    if depth > 6:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        said = [s for s in (_carried(v, depth + 1) for v in value[:4]) if s is not None and s.strip()]
        return "\n".join(said) if said else None
    if not isinstance(value, dict):
        return None
    if set(value) & set(ANSWER_KEYS):
        return None  # {"answer": "B"}, {"choice": "C", ...}: the answer object itself, read by the rules
    for key in ("tool_calls", "function_call", ""):  # the answer given through a tool: its arguments
        # batch 65: the call object alone, '{"name": "submit_answer", "arguments": "{\\"choice\\": \\"D\\", ...}"}'
        calls = value.get(key) if key else value if isinstance(value.get("name"), str) and "arguments" in value \
            else None
        calls = [calls] if isinstance(calls, dict) else calls
        for call in calls if isinstance(calls, list) else ():
            fn = call.get("function", call) if isinstance(call, dict) else None
            args = fn.get("arguments") if isinstance(fn, dict) else None
            if isinstance(args, str) and args.strip():
                return args.strip()
            if isinstance(args, dict):
                return json.dumps(args, ensure_ascii=False)
    if value.get("type") == "tool_use" and isinstance(value.get("input"), dict):  # Anthropic
        return json.dumps(value["input"], ensure_ascii=False)
    for key in _TEXT_FIELDS:
        if key in value:
            found = _carried(value[key], depth + 1)
            if found is not None and found.strip():
                return found
    return None


# --------------------------------------------------------------------------------------------------------------
# Structured radiology reports (batch 71): "Findings: ... Impression: ... Answer: ..."
# --------------------------------------------------------------------------------------------------------------

# the sections a report's answer may stand in, and the findings it rests on; as headings opening a line ("**Answer:**"
# once cleaned, "IMPRESSION:"), or after a sentence in a one-line report ("findings: ... impression: psoriasis")
_SECTION_NAMES = (r"findings|impression|final\s+impression|conclusion|final\s+answer|answer"
                  r"(?:[ \t]*\([^()\n]{1,30}\))?")
_SECTION = re.compile(r"(?im)(?:^|(?<=[.;!?])[ \t]+)[ \t*_#>]*(" + _SECTION_NAMES + r")[ \t*_]*:[ \t*_]*")
# any other heading opening a line ends a section ("Recommendation:", "Review:", "Differential:")
_OTHER_HEADING = re.compile(r"(?m)^[ \t*_#>]*[A-Z][A-Za-z'\- ]{1,40}[ \t*_]*:")
# an entry of the findings headed by what it describes ("Right kidney: dilated pelvis ...")
_ENTRY_HEAD = re.compile(r"(?m)(?:^|(?<=[.;])[ \t]+|\A)[ \t*_\-\u2022]*([A-Z][A-Za-z ]{1,30}?)[ \t]*:")


def report_sections(text: str) -> dict[str, str] | None:
    """A structured report's sections by name ("findings", "impression", "answer"; "conclusion" and "final answer"
    count as the answer, "final impression" as the impression): None unless the reply has two of them, each once."""
    found = list(_SECTION.finditer(text))
    if len(found) < 2:
        return None
    out: dict[str, str] = {}
    for i, m in enumerate(found):
        name = m.group(1).casefold()
        name = ("answer" if name.startswith(("answer", "final answer", "conclusion")) else
                "impression" if name.endswith("impression") else name)
        if name in out:
            return None  # "Answer: No ... Correction: ... Answer: Yes": a report corrected, not one report
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        other = _OTHER_HEADING.search(text, m.end(), end)
        out[name] = text[m.end():other.start() if other is not None else end].strip()
    return out


# batch 90 (long replies): the heading a systematic review or a differential closes on, a line of its own ("###
# Conclusion", "**Answer**", "**Impression:**", as the reply is cleaned: "Conclusion", "Impression:")
_CONCLUSION_NAMES = (r"(?:final\s+)?(?:answer|conclusion|verdict|impression|diagnosis)|bottom\s+line|"
                     r"most\s+likely\s+diagnosis|summary")
_CONCLUSION_HEADING = re.compile(r"(?im)^[ \t#*_>]*(?:" + _CONCLUSION_NAMES + r")[ \t:*_]*\n")
# batch 102: or its line, the section on it ("**Impression:** Benign fibrous histiocytoma.\n\n**Recommendation:**
# ..."; not a quoted line, "> Impression: ...", from a prior report)
_CONCLUSION_LINE = re.compile(_CONCLUSION_HEADING.pattern + r"|^[ \t#*_]*(?:" + _CONCLUSION_NAMES
                              + r")[ \t*_]*:[ \t*_]*(?=[^\W_])")
# what ends its section: the next heading that opens a line with a word and a colon ("Treatment: permethrin ...",
# "Recommendation:"); a line without a full stop is no heading once cleaned ("Or B, seborrheic keratosis - I can't
# split them" goes on the conclusion; hostile review of batches 90-91)
_NEXT_HEADING = re.compile(r"(?m)^[ \t#*_>]*[A-Z][A-Za-z'\- ]{1,40}[ \t*_]*:"
                           # or a line of at most six plain words before a blank line or a list ("Why not the rest")
                           r"|^[ \t#*_>]*[A-Z][a-z']*(?:[ \t]+[A-Za-z']+){0,5}[ \t]*\n(?=[ \t]*(?:\n|[-*\u2022]))")


def conclusion_section(text: str, inline: bool = False) -> str | None:
    """The section under the last conclusion heading of a long reply ("Conclusion\nThis dermoscopic image is most
    consistent with A. Melanoma. ...", "### Answer\nNo - this is not a brain scan.", its markdown cleaned), up to the
    next heading; None where it has none or nothing follows it. ``inline``: a heading may also open the line the
    section is on ("Impression: Benign fibrous histiocytoma.")."""
    last = None
    for last in (_CONCLUSION_LINE if inline else _CONCLUSION_HEADING).finditer(text):
        pass
    if last is None:
        return None
    body = text[last.end():]
    nxt = _NEXT_HEADING.search(body)
    section = body[:nxt.start() if nxt is not None else len(body)].strip()
    return section or None


_ONE_ENTRY = re.compile(r"[ \t*_\-]*([^\W\d_][^\W\d_ \-]*(?:[ \-][^\W\d_]+){0,3})[ \t*_]*:[ \t*_]*([^\n:]{1,200})")


def entry_for_question(text: str, question: str) -> str | None:
    """A reply that is one report entry headed by what the question asks about ("Spleen: within normal limits." to "Is
    the spleen enlarged?", batch 81), written as the sentence it stands for ("Spleen within normal limits."); None for
    any other reply (an entry headed otherwise, "Impression: ...", or more than one)."""
    if ":" not in text or len(text) > 250:
        return None
    m = _ONE_ENTRY.fullmatch(text.strip())
    if m is None:
        return None
    asked = {overlap.stem(w) for w in re.findall(r"[^\W\d_]+", question)}
    head = re.findall(r"[^\W\d_]+", m.group(1))
    words = [w for w in head if w.casefold() != "the"]
    if not words or not all(overlap.stem(w) in asked for w in words):
        return None
    return m.group(1) + " " + m.group(2)


def _own_words(item: Item) -> list[set[str]]:
    """Each option's words that no other option has ("left" of "Left kidney" beside "Right kidney"), in option order:
    what a heading must hold to be that option's entry."""
    words = [set(re.findall(r"[a-z]+", opt.casefold())) for opt, _ in item.option_map]
    return [w - set().union(*(o for j, o in enumerate(words) if j != i)) for i, w in enumerate(words)]


def findings_per_option(text: str, item: Item, label: str) -> bool:
    """Whether a report's findings give entries headed by what tells the options apart and the entry of ``label``'s
    option reports only what is absent or normal ("Findings: Right kidney: dilated pelvis ... Left kidney:
    normal.\nImpression: Left hydronephrosis.\nAnswer: The left kidney", batch 71): its findings argue with its
    answer."""
    sections = report_sections(text)
    if sections is None or "findings" not in sections or len(item.option_map) < 2:
        return False
    own = _own_words(item)
    index = [lb for _, lb in item.option_map].index(label) if label in [lb for _, lb in item.option_map] else -1
    if index < 0 or not own[index]:
        return False
    findings = sections["findings"]
    heads = list(_ENTRY_HEAD.finditer(findings))
    named: set[int] = set()
    against = False
    for k, m in enumerate(heads):
        head = set(re.findall(r"[a-z]+", m.group(1).casefold()))
        hit = {i for i, w in enumerate(own) if w and head & w}
        named |= hit
        if index in hit:
            end = heads[k + 1].start() if k + 1 < len(heads) else len(findings)
            against = against or only_absent_or_normal(findings[m.end():end])
    return len(named) >= 2 and against


# a line headed by a term and a colon ("Epidural: biconvex, does not cross sutures.", "- **Subdural:** crescentic")
_LINE_HEAD = re.compile(r"(?m)^[ \t*_\-\u2022>#]*(?:\d{1,2}[.)][ \t]*)?([A-Za-z][A-Za-z \-']{1,40}?)[ \t*_]*:")


# what an entry says when it judges its option rather than defines it (a review of the options, not a glossary)
_ENTRY_VERDICT = re.compile(r"(?i)\b(?:present|absent|yes|the\s+answer|not\s+the\s+case|not\s+seen|seen\s+here|"
                            r"consistent|fits?|excluded|ruled\s+out|unlikely|likely)\b|\bno[.!]|[\u2713\u2714\u2705\u2717\u2718\u274c]")


def described_in_turn(text: str, item: Item, label: str) -> bool:
    """Held-out batch 154: whether the reply gives three or more options (every option, of two) a line of their own,
    headed by the option's own words, and ends on ``label``'s ("Reference answer: A (epidural hematoma).\nEpidural:
    biconvex ...\nSubdural: crescentic ...\n...\nIntraparenchymal: within the brain tissue."): a glossary of the
    options, whose last entry is no verdict (a report's "Impression:" after its entries is one)."""
    own = _own_words(item)
    labels = [lb for _, lb in item.option_map]
    if label not in labels or len(labels) < 2:
        return False
    if _ENTRY_VERDICT.search(text):
        return False  # "Dermatofibroma: central white patch — present. This is the answer.", "Solid: yes.": a review
    headed: list[int] = []
    for m in _LINE_HEAD.finditer(text):
        head = set(re.findall(r"[a-z]+", m.group(1).casefold()))
        hit = [i for i, w in enumerate(own) if w and head & w]
        headed.append(hit[0] if len(hit) == 1 else -1)
    last = text.rstrip().rsplit("\n", 1)[-1]
    return bool(headed) and headed[-1] == labels.index(label) and _LINE_HEAD.match(last) is not None \
        and len(set(headed) - {-1}) >= min(3, len(labels))


# --------------------------------------------------------------------------------------------------------------
# An answer beside its own reasons (batch 80): '{"answer": "yes", "reasoning": "The CBD measures 3 mm, within normal
# limits; ..."}', '{"answer": "A", "answer_text": "Pleural effusion"}' (A: cardiomegaly), "Answer: yes\nReasoning: The
# liver surface is smooth, ..."
# --------------------------------------------------------------------------------------------------------------

# the fields of an answer object that say why it is the answer, and those that write the answer's text out
_REASON_KEYS = frozenset({"reasoning", "reason", "reasons", "rationale", "explanation", "justification", "why"})
_TEXT_KEYS = frozenset({"answer_text", "option_text", "choice_text"})
# "Reasoning:" / "**Rationale:**" heading a line after the answer's own line
_REASON_HEADING = re.compile(r"(?im)^[ \t*_#>]*(?:reasoning|reasons?|rationale|explanation|justification|why)"
                             r"[ \t*_]*:[ \t*_]*")


def _answer_object(text: str) -> Mapping[str, Any] | None:
    """The JSON object a reply is, where it has an answer field with a string value; None otherwise."""
    value = _json_object(text) if "{" in text else None
    if value is None or not any(k.casefold() in ANSWER_KEYS and isinstance(v, str) for k, v in value.items()):
        return None
    return value


def stated_reasons(text: str, at: int) -> str | None:
    """The reasons a reply states beside its declared answer (which starts at ``at``): the reason fields of a reply
    that is one JSON object with an answer field ('{"answer": "yes", "reasoning": "..."}'), or the section under a
    "Reasoning:" / "Rationale:" heading on a line after the answer ("Answer: yes\nReasoning: ..."). None when it
    states none. A careful reader reads them as the reply's own account of its answer."""
    value = _answer_object(text)
    if value is not None:
        said = [v.strip() for k, v in value.items() if k.casefold() in _REASON_KEYS and isinstance(v, str)
                and v.strip()]
        return "\n".join(said) if said else None
    if ":" not in text:
        return None
    m = _REASON_HEADING.search(text, max(0, at))
    if m is None or "\n" not in text[max(0, at):m.start() + 1]:
        return None
    other = _OTHER_HEADING.search(text, m.end())
    section = text[m.end():other.start() if other is not None else len(text)].strip()
    return section or None


def stated_answer_text(text: str) -> str | None:
    """The answer's text written out in a field of its own beside the answer field ('{"answer": "A", "answer_text":
    "Pleural effusion"}'), or None."""
    value = _answer_object(text)
    if value is None:
        return None
    said = [v.strip() for k, v in value.items() if k.casefold() in _TEXT_KEYS and isinstance(v, str) and v.strip()]
    return said[0] if len(said) == 1 else None


def fields_per_option(text: str, item: Item, label: str) -> bool:
    """Whether a reply that is one JSON object gives a field for each of two or more options, named by the option's
    text ('{"left_hip": "avascular necrosis", "right_hip": "unremarkable", "answer": "B"}', batch 80), and the field of
    ``label``'s option reports only what is absent or normal while another's reports a finding: its fields argue with
    its answer (as :func:`findings_per_option` for a report's findings)."""
    if item.kind != "choice" or "{" not in text:
        return False
    value = _json_object(text)
    if value is None:
        return False
    said: dict[str, bool] = {}
    for key, v in value.items():
        if not isinstance(v, str) or key.casefold() in ANSWER_KEYS or not v.strip():
            continue
        words = " ".join(w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key) if w).casefold()
        named = next((lb for opt, lb in item.option_map if opt.strip(" .").casefold() == words), None)
        if named is not None:
            said[named] = only_absent_or_normal(v)
    return len(said) >= 2 and said.get(label) is True and False in said.values()


# batch 73: a reply in a few-shot transcript's layout, models run with examples of "Q: ...\nA: ..." turns. A turn is
# a "Q:" or "A:" at the start of a line (or after a space, where a chat-template token was cut out: "Answer: B Q:
# Where is the fracture?\nA:")
# (cleaning writes "A:" out as "Answer:")
_TURN = re.compile(r"(?m)(?:^|(?<=\s))(Q|A(?=[ \t]*:)|Answer)[ \t]*:[ \t]*")
# an example's line ("Example answer: B", "Example 2: ...") echoed: the example's, not the reply's own
_EXAMPLE_LINE = re.compile(r"(?im)^[ \t*_]*(?:example|sample)\b[^:\n]{0,30}:.*$")
# an empty slot the reply ends on ("A:", "Your question:", "Your answer:"): the transcript run on, not answered
_EMPTY_SLOT = re.compile(r"(?i)(?:^|\n)[ \t*_]*(?:A|answer|your\s+(?:question|answer))[ \t*_]*:[ \t*_]*\Z")
# the instruction a question carries ("(please answer yes/no)"), no part of what it asks
_INSTRUCTION = re.compile(r"\s*\([^()]*\banswer\b[^()]*\)\s*\Z", re.I)


def _asked(question: str) -> str:
    """A question's words, for comparing one with another."""
    return " ".join(re.sub(r"[^\w\s]", " ", _INSTRUCTION.sub("", question).casefold()).split())


def few_shot_layout(text: str) -> bool:
    """Whether a reply is laid out as a few-shot transcript: two or more "Q:" turns, an example's line ("Example
    answer: B"), or an empty answer slot it ends on ("...\nA:", "Your question:"). Such a reply is never sure: which
    answer is its own rests on the layout, not on what it states."""
    asked = sum(m.group(1) == "Q" for m in _TURN.finditer(text))
    return asked >= 2 or _EXAMPLE_LINE.search(text) is not None or (asked >= 1 and _EMPTY_SLOT.search(text) is not None)


# a question line and an answer line after it ("Q: segment of the left middle lobe with consolidation?\nA: On the
# frontal and lateral views together, ..."): the "A:" is the layout's, or the letter A (held-out batch 178, blind)
_QA_PAIR = re.compile(r"(?m)^[ \t*_]*Q[ \t]*:[^\n]*\n(?:[^\n]*\n)*?[ \t*_]*A[ \t]*:")


def question_and_answer_lines(text: str, item: Item) -> bool:
    """Choice items: whether the reply is laid out as a "Q:" line and an "A:" line, where "A:" may be option A."""
    return item.kind == "choice" and "Q" in text and _QA_PAIR.search(text) is not None


def transcript_answers(text: str, item: Item) -> list[str] | None:
    """The reply's own answers in a few-shot transcript (:func:`few_shot_layout`), to be read as replies; None when
    the reply is no such transcript, or its own answer cannot be told apart from the others (then it is read as it
    stands, never sure).

    The examples' lines are dropped ("Example answer: B"), and a question left with an empty answer slot at the end
    ("Q: The physician's answer is C. Is this correct?\nA:"); where two or more "Q:" turns remain, the answers paired
    with the item's own question are the reply's ("Q: Is a mass present in the left kidney?\nA: no\n\nQ: Is a mass
    present in the right kidney?\nA: yes" to the left kidney: no). An empty list: the reply answers nothing of its
    own."""
    if not few_shot_layout(text):
        return None
    rest = _EXAMPLE_LINE.sub("", text)
    while True:  # the slots the transcript ran on into: a closing empty "A:" and the question before it
        slot = _EMPTY_SLOT.search(rest)
        if slot is None:
            break
        rest = rest[:slot.start()]
        turns = list(_TURN.finditer(rest))
        if turns and turns[-1].group(1) == "Q":
            rest = rest[:turns[-1].start()]
    turns = list(_TURN.finditer(rest))
    pairs: list[tuple[str, str]] = []
    for i, turn in enumerate(turns):
        body = rest[turn.end():turns[i + 1].start() if i + 1 < len(turns) else len(rest)].strip()
        if turn.group(1) == "Q":  # an answer turn is "A" or "Answer"
            pairs.append((body, ""))
        elif pairs and not pairs[-1][1]:
            pairs[-1] = (pairs[-1][0], body)
    if len(pairs) < 2:
        return [] if not rest.strip() else None
    if not item.question:
        return None
    own = [a for q, a in pairs if _asked(q) == _asked(item.question)]
    return own or None
