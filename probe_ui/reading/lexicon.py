"""Word lists for reading replies: other languages, escape options, idioms, chat-template debris (synonyms of option
texts are :mod:`probe_ui.reading.synonyms`).

Why lists: what a careful clinician reads in a reply ("Sí, se observa ...", "None of these fit" for the option
"None of the above", "rotated 180 degrees" for upside down) is vocabulary, not rules.
The rules in :mod:`probe_ui.reading.answers` stay the same whatever the language; these lists say which words mean which
answer. Each list is plain data: extend it with the word and one test reply.

Language coverage: English, Spanish, French, German, Chinese for the common answer words (yes/no, colours,
orientation, age, side, sex, normal/abnormal, benign/malignant, modalities), some Italian and Portuguese where the
words are the same kind.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = [
    "ABOUT_CASE", "GENERIC", "ESCAPE_KINDS", "dismissed", "escape_kind_of_option", "escape_kind_of_reply",
    "fold_quotes", "placeholder_named", "strip_debris",
    "translate", "mask_idioms", "foreign_yes_no",
]

# --------------------------------------------------------------------------------------------------------------
# Typography
# --------------------------------------------------------------------------------------------------------------

#: a run of letters (no digits, no underscore): a word as the word lists split text
TOKEN = re.compile(r"[^\W\d_]+")

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                         "\u00a0": " ", "\uff1a": ":", "\uff08": "(", "\uff09": ")", "\u3002": ".", "\u3001": ",",
                         "\u300c": '"', "\u300d": '"',
                         # batch 14: Arabic comma, semicolon and question mark
                         "\u060c": ",", "\u061b": ";", "\u061f": "?",
                         # batch 21: Ethiopic full stop, comma, semicolon, colon and question mark (Amharic)
                         "\u1362": ".", "\u1363": ",", "\u1364": ";", "\u1365": ":", "\u1366": ":", "\u1367": "?",
                         # batch 41: Myanmar-script comma and full stop (Shan, Burmese), Ol Chiki full stops (Santali)
                         "\u104a": ",", "\u104b": ".", "\u1c7e": ".", "\u1c7f": ".",
                         # batch 42: the Tibetan-script shad (Dzongkha)
                         "\u0f0d": "."})


def fold_quotes(text: str) -> str:
    """Typographic quotes and dashes to ASCII, and NFKC (full-width "\uff21" and "\uff08B\uff09" read as "A",
    "(B)"; Chinese punctuation "\uff0c" "\u3002" as "," "."); a negative contraction written without its apostrophe
    ("i dont see any", "it isnt") with it."""
    t = text.translate(_QUOTES)
    t = unicodedata.normalize("NFKC", t) if not t.isascii() else t
    t = _BARE_CONTRACTION.sub(r"\1n't", t) if "nt" in t else t
    return _AIN_ELIDED.sub("ain't", t) if "n'" in t else t


# batch 14: a negative contraction written without its apostrophe ("dont", "isnt", "doesnt"; not "cant" or "wont",
# which are words of their own)
_BARE_CONTRACTION = re.compile(r"(?i)\b(do|does|did|is|are|was|were|has|have|had|could|would|should)nt\b")
# batch 68: Gullah and other English creoles write "ain't" without its "t" ("E heart ain' big, e look regula.")
_AIN_ELIDED = re.compile(r"(?i)\bain'(?![\w'])")


#: the words a reply cut off mid-sentence ends on ("... Option C: Pulmonary edema. This would", "... there is a"):
#: weighing.is_truncated's last words, and what a closing lower-case letter may not follow (letters.py)
FUNCTION_WORDS = frozenset("""the a an this that these those would could should will is are was were be been of to
in on at for with and or but which as by from its it their than then because since so if while whereas also may
might can must has have had not no very more most less such into onto upon about between among option choice
appears appear seems seem shows show reveals reveal suggests suggest indicates indicate demonstrates looks look
contains measures represents includes including like whether what where when how who typically usually they we he
she our your""".split())


# --------------------------------------------------------------------------------------------------------------
# Chat-template debris: what a serving stack leaves around the answer ("A</s>", "C<|im_end|>", "<end_of_turn>")
# --------------------------------------------------------------------------------------------------------------

_DEBRIS = re.compile(
    r"<\|[^|<>\n]{1,40}\|>"  # <|im_end|> <|eot_id|> <|endoftext|> <|end|> <|assistant|> <|end▁of▁sentence|>
    r"|</?s>|<(?:eos|bos|pad|unk|sep|cls|eot)>|</?(?:end|start)_of_turn>|\[/?INST\]|<</?SYS>>"
    r"|<(?:start|end)_of_(?:text|image)>|<image>|</?(?:im_start|im_end)>|<unused\d{1,3}>"
    # batch 28: Idefics2 / SmolVLM's end of a turn and its image placeholder
    r"|<end_of_utterance>|<fake_token_around_image>",
    re.IGNORECASE,
)
# an image placeholder where the reply means "the image" after a word of absence ("there is no <image>")
# (after a verb, not a reply's own "No <image>", whose placeholder is debris after its answer; and only where nothing
# but a mark follows: not "There is no <image> evidence of pneumothorax.", a review)
_PLACEHOLDER_ABSENT = re.compile(r"(?i)\b((?:is|are|was|were|there's|have|has|had|see|saw|got|received|find|found)"
                                 r"[ \t]+(?:no|any)|without|missing)[ \t]*<(?:image|start_of_image)>"
                                 r"(?=[ \t]*(?:[.,;:!?\u2013\u2014]|\Z))")
# the role a template prints before the reply: "<start_of_turn>model\n", "<|im_start|>assistant\n", "ASSISTANT:"
# (batch 26: "###Assistant: ...", the role in a markdown heading's hashes)
_ROLE = re.compile(r"\A\s*(?:(?:assistant|model)[ \t]*\n|(?:(?:#{1,3}[ \t]*)?(?:ASSISTANT|Assistant)|GPT|### Response)"
                   r"[ \t]*:)")
# the user's turn a template echoes before the assistant's: "[INST] ... [/INST]", "USER: ... ASSISTANT:"
# (batch 25: Gemma's roles with their turn markers dropped: "user\nIs this a sagittal image? ...\nmodel\nNo. ...")
# (batch 28: Idefics2 / SmolVLM's "User:<image>...<end_of_utterance>\nAssistant: ..."; held-out batch 173: "Human:")
_ECHO = re.compile(r"\A\s*(?:<s>\s*)?(?:\[INST\][^\[]{0,2000}?\[/INST\]|USER:[^\n]*(?:\n(?!ASSISTANT:)[^\n]*){0,40}?"
                   r"\s*ASSISTANT:|(?:User|Human|HUMAN):[^\n]*(?:\n(?!Assistant:)[^\n]*){0,40}?\s*Assistant:"
                   r"|user[ \t]*\n[^\n]*(?:\n(?![ \t]*model[ \t]*\n)[^\n]*){0,40}?\n[ \t]*model[ \t]*\n)")
# batch 23: the next turn's role the model ran on into, alone on the reply's last line ("...\n\nHuman:", "\nUser:"):
# not a cut in the reply (a role with words after it is left as it is)
# (batch 26: "... a hemangioma. ###Human:", the hashes on the reply's own line)
_NEXT_TURN = re.compile(r"(?:\n[ \t]*(?:###[ \t]*)?|(?<![ \t])[ \t]*###[ \t]*)(?:Human|User|USER|HUMAN)[ \t]*:[ \t]*\Z")
# batch 61: Claude's own next turn opened after the answer ("Pneumonia, C — ...\n\nAssistant:"), on a line of its own,
# where no user turn came before it (a reply that goes on into the user's turn is read as before)
_OWN_NEXT_TURN = re.compile(r"\n[ \t]*\n[ \t]*Assistant[ \t]*:[ \t]*\Z")
_USER_TURN = re.compile(r"(?:Human|User|USER|HUMAN)[ \t]*:")
# batch 73: a whole exchange the model invented after its answer ("Yes\n\nHuman: Is this a CT scan?\n\nAssistant: No"):
# a user's turn after a blank line, then an assistant's turn; what the invented assistant says answers the invented
# question, not the one asked, so the reply ends where the invented turn begins
_INVENTED_EXCHANGE = re.compile(r"\n[ \t]*\n[ \t]*(?:###[ \t]*)?(?:Human|User|USER|HUMAN)[ \t]*:[^\n]*"
                                r"(?:\n[^\n]*){0,20}?\n[ \t]*(?:###[ \t]*)?(?:Assistant|ASSISTANT)[ \t]*:")
# batch 26: a byte-level tokenizer's space and newline left undecoded ("TheĠmostĠlikelyĠdiagnosisĠisĠA.")
_BYTE_SPACE = "\u0120"
# a closed reasoning block: <think>...</think>, and MedGemma's <unused94>thought ... <unused95>
_THINK_END = re.compile(r"</think(?:ing)?>|<unused95>", re.IGNORECASE)
_THINK_TAG = re.compile(r"</?think(?:ing)?>|<unused9[45]>(?:thought\b)?", re.IGNORECASE)


# batch 82: a chat interface's note of how long the model reasoned, opening the reply on a line of its own ("Thought for
# 6 seconds\n\n...", Vietnamese "Đã suy nghĩ trong 6 giây\n\nKhông. ..."): the interface's words, not the reply's
_THOUGHT_FOR = re.compile(r"(?i)\A[ \t]*(?:thought[ \t]+for|đã[ \t]+suy[ \t]+nghĩ[ \t]+trong)[ \t]+\d{1,4}[ \t]+"
                          r"(?:seconds?|giây)[ \t]*\n")


def placeholder_named(text: str) -> str:
    """``text`` with an image placeholder after a word of absence written as the word "image" ("there is no
    <image>" reads "there is no image"): the decline it is, not a bare "no" once the placeholder is dropped."""
    return _PLACEHOLDER_ABSENT.sub(r"\1 image", text) if "<" in text else text


def strip_debris(text: str) -> str:
    """The reply without chat-template tokens and role prefixes; after a closed ``<think>`` block, only what
    follows it (the reasoning before is not the answer)."""
    if text.count(_BYTE_SPACE) >= 2 and text.count(" ") < text.count(_BYTE_SPACE):
        text = text.replace(_BYTE_SPACE, " ").replace("\u010a", "\n")  # not Maltese "Ġ", which sits among spaces
    # (held-out batch 173: the Anthropic text-completion roles, "Human: <image>\n...\n\nAssistant: No. ...")
    if "[/INST]" in text or "ASSISTANT:" in text or text.lstrip()[:4] in ("user", "User") \
            or text.lstrip()[:6] in ("Human:", "HUMAN:"):
        # batch 11: the user's turn echoed before the answer ("[INST] <image>\nIs this a lateral view? [/INST] No, it
        # is a PA view.", "USER: <image>\n... ASSISTANT: adult"): only the assistant's turn is the reply
        echo = _ECHO.match(text)
        if echo is not None and text[echo.end():].strip():
            text = text[echo.end():]
    if "<" in text or "[" in text:
        if _THINK_END.search(text):
            after = _THINK_END.split(text)[-1]
            text = after if after.strip() else _THINK_TAG.sub(" ", text)
        # a reader check of 2026-12: "there is no <image>": the placeholder stands for the word after a word of absence,
        # so the decline reads as one (not as "there is no", a bare "no")
        text = placeholder_named(text)
        text = _DEBRIS.sub(" ", text)
        if text.lstrip()[:4] in ("user", "User"):
            # held-out batch 133: Gemma's whole template kept ("<bos><start_of_turn>user\n...<end_of_turn>\n
            # <start_of_turn>model\n**Yes.** ..."): its roles once the turn markers are gone
            echo = _ECHO.match(text)
            if echo is not None and text[echo.end():].strip():
                text = text[echo.end():]
    if text[:30].lstrip()[:1] in "aAmMG#":
        text = _ROLE.sub("", text, count=1)
    if text[:30].lstrip()[:1] in "tTđĐ":
        text = _THOUGHT_FOR.sub("", text, count=1)
    if "Assistant" in text or "ASSISTANT" in text:
        invented = _INVENTED_EXCHANGE.search(text)
        if invented is not None and text[:invented.start()].strip():
            text = text[:invented.start()]
    if ":" in text[-16:]:
        text = _NEXT_TURN.sub("", text)
        if not _USER_TURN.search(text):
            text = _OWN_NEXT_TURN.sub("", text)
    return text


# --------------------------------------------------------------------------------------------------------------
# Idioms that contain "no" but do not answer no ("No doubt, there is an effusion.")
# --------------------------------------------------------------------------------------------------------------

_IDIOMS = re.compile(
    r"(?i)\b(?:there(?:'s|\s+is)\s+)?no\s+(?:doubt|question|wonder|denying(?:\s+it)?)(?:\s+(?:about\s+it|that))?"
    r"|\bwithout\s+(?:a|any)\s+doubt\b|\bnot\s+only\b|\bno\s+two\s+ways\s+about\s+it\b|\bno\s+matter\b"
    r"|\bno\s+longer\s+in\s+doubt\b|\bno\s+idea\b"
    # a hostile review of 9a5c55c: "There are no signs against a fracture here" (a double negative, no denial)
    r"|\bno\s+(?:signs?|evidence|features?|findings?)\s+(?:to\s+argue\s+|arguing\s+|that\s+argues?\s+)?against\b"
    # hostile review of 2363cef: "There is no mistaking the fracture line", "I see no way this is anything but free
    # fluid" (each says the finding is there)
    r"|\bno\s+mistaking\b|\bno\s+way\s+(?:this|that|it)(?:'s|\s+is|\s+could\s+be)\s+anything\s+(?:but|other\s+than)\b"
    # "There is nothing subtle about the fracture", "I see nothing but fluid in the pelvis" (the finding is there)
    r"|\bnothing\s+(?:subtle|ambiguous|equivocal|uncertain|doubtful)\s+about\b|\bnothing\s+but\b"
)
_NOT_ONLY = re.compile(r"(?i)\bnot\s+only\s+(is|are)\s+there\b")
# idioms that say a finding is plainly there ("Can't miss it - a large effusion", "No mistaking it"): read as
# "present"
_PLAINLY_THERE = re.compile(
    r"(?i)\b(?:(?:you\s+)?can(?:'t|not)\s+miss\s+(?:it|them|that)|(?:hard|impossible)\s+to\s+miss|"
    r"no\s+mistaking\s+(?:it|them|that)|unmistakabl[ey](?:\s+(?:there|present))?)\b"
)


def mask_idioms(text: str) -> str:
    """The reply without idioms that hold "no"/"not" but do not answer no ("No doubt", "There is no question that",
    "not only", "no idea") (yes/no items: they are not the answer no); idioms that say a finding is plainly there
    ("Can't miss it", "hard to miss") become "present"."""
    low = text.lower()
    if "miss" in low or "mistak" in low:
        text = _PLAINLY_THERE.sub("present", text)
        low = text.lower()
    if "no" not in low and "doubt" not in low:
        return text
    if low.lstrip(" \t\n\"'*_>").startswith("there"):
        # batch 39: "There's no doubt about it: a clear transverse break ...": the whole clause opening the reply, a
        # mark after it, is the answer yes (as "No doubt about it - there is a ... fracture" is read from its rest)
        text = _NO_DOUBT_CLAUSE.sub(r"\1yes", text, count=1)
    elif low.lstrip(" \t\n\"'*_>").startswith("without"):
        # batches 65-66: "Without a shadow of a doubt. Five metacarpals ...", "Without a doubt — it spans well over
        # 15 cm.": the same, opening the reply
        text = _WITHOUT_DOUBT_CLAUSE.sub(r"\1yes", text, count=1)
    return _IDIOMS.sub(" ", _NOT_ONLY.sub(r"there \1", text))


_WITHOUT_DOUBT_CLAUSE = re.compile(r"(?i)\A([\s\"'*_>]*)without\s+(?:a|any)\s+(?:shadow\s+of\s+a\s+)?doubt"
                                   r"(?=[ \t]*(?:[:.!,;\-\u2013\u2014]|\Z))"
                                   r"(?![ \t]*[:.!,;\-\u2013\u2014]+[ \t]*(?:there(?:'s|\s+is|\s+are)\s+)?"
                                   r"(?:no|not|none|nothing|neither)\b)")
_NO_DOUBT_CLAUSE = re.compile(r"(?i)\A([\s\"'*_>]*)there(?:'s|\s+is)\s+no\s+doubt\s+about\s+it"
                              r"(?=[ \t]*(?:[:.!,;\-\u2013\u2014]|\Z))"
                              # not where a denial follows ("There's no doubt about it: no fracture.")
                              r"(?![ \t]*[:.!,;\-\u2013\u2014]+[ \t]*(?:there(?:'s|\s+is|\s+are)\s+)?"
                              r"(?:no|not|none|nothing|neither)\b)")


# --------------------------------------------------------------------------------------------------------------
# A statement about the topic in general, not about this image ("Melanoma is the most dangerous skin cancer.",
# "Magnetic resonance imaging uses strong magnets."): what it names is not an answer
# --------------------------------------------------------------------------------------------------------------

#: the paired parts of the body a side names ("the right lower lobe", "left-sided", "right hips", "the right
#: hemidiaphragm"): after "right" or "left" these make it a side, never a judgement ("that's right") or a verb ("left
#: the room"), and the other side may show the same finding (sureness's "other side" doubt)
PAIRED_PARTS = (r"(?:side|sided|upper|middle|lower|lobe|lung|apex|apical|base|basal|hilum|hilar|costophrenic|pleural|"
                r"hemithorax|hemidiaphragm|hemisphere|hemispheric|kidney|renal|adrenal|ureter|ovary|iliac|inguinal|"
                r"breast|hip|femur|femoral|knee|shoulder|elbow|wrist|ankle|arm|leg|hand|foot|eye|orbit|ear|maxillary|"
                r"sinus|cerebral|parietal|frontal|temporal|occipital)s?\b")
#: every part a side names, the paired ones and those of one side of an unpaired organ ("the right heart border",
#: "the right main bronchus", "the right paratracheal stripe"); not the words a judgement "right" may run into in an
#: unpunctuated reply ("lungs look right chest wall intact", "looks right lateral view"), which the rules that need
#: them add (a hostile review of the merged list)
SIDED_PARTS = (r"(?:" + PAIRED_PARTS + r"|(?:main|mainstem|lobar|pulmonary|heart|atrium|ventricle|bronchus|"
               r"paratracheal|colon|thalamus|cerebellar)s?\b)")

#: the words that grade or place a finding rather than name another ("a small effusion", "left-sided pneumothorax",
#: "small vs moderate"): one list for the rules that look past them
GRADE_WORDS = ("small", "moderate", "large", "mild", "severe", "minimal", "trace", "tiny", "big", "massive", "left",
               "right", "left-sided", "right-sided", "bilateral", "unilateral", "acute", "chronic", "early", "late",
               "simple", "complex")

# a kind of study, said of studies in general after "a" ("on a chest radiograph", "on an expiratory film")
_ANY_STUDY = r"(?:radiographs?|films?|x-?rays?|ct|mri|scans?|images?|ultrasounds?|studies|study|views?|projections?)"
GENERIC = re.compile(
    r"(?i)\b(?:uses?|used\s+(?:to|for)|typically|usually|generally|commonly|often|in\s+general|"
    # (batch 36: not "the density the question refers to is ...", which speaks of this case)
    r"can\s+(?:show|appear|present|cause|be\s+seen)|is\s+a\s+type\s+of|(?<!question\s)refers\s+to|is\s+defined|"
    r"works?\s+by|relies\s+on|involves?|requires?|depends\s+on|is\s+needed|is\s+required|needs?\s+to|"
    r"must\s+be\s+(?:excluded|considered)|are\s+common|is\s+common|"
    r"is\s+the\s+most\s+(?:common|dangerous|frequent|serious)|are\s+(?:assessed|measured|diagnosed)|"
    # batch 34: "Adhesions are the leading cause of small-bowel obstruction after abdominal surgery."
    r"(?:is|are)\s+the\s+(?:leading|commonest|most\s+(?:common|frequent))\s+causes?\s+of|"
    # (batch 21: not "so proliferative disease can be ruled out", a conclusion about this case)
    r"can\s+be\b(?!\s+(?:(?:safely|confidently|definitely|reliably|fully|firmly)\s+)?(?:ruled\s+out|excluded))|"
    r"(?:is|are)\s+(?:measured|defined|assessed|graded|classified|important|essential|crucial|key)|"
    # batch 95: "On a PA chest radiograph, the heart is considered enlarged when the cardiothoracic ratio exceeds 0.5."
    # (a criterion, not a finding)
    r"(?:is|are)\s+(?:considered|deemed|regarded\s+as|called)\s+[^.;!?\n]{0,40}?\b(?:when|if|once|whenever)\b|"
    r"matters|helps?\s+(?:to\s+)?(?:localize|localise|diagnose|identify)|"
    r"(?:scans|x-?rays|radiographs|mris|cts|ultrasounds|studies|images)\s+(?:measure|show|detect|use|are|can|do|"
    r"help|provide|depict|rely|require|involve|work|divide)|has\s+(?:many|several|various|multiple)\s+causes|"
    # batch 31: "The pelvis is a ring-shaped structure formed by the sacrum and the two hip bones.", "Sagittal
    # images divide the body into left and right parts, ...": anatomy and planes as a textbook states them
    r"is\s+an?\s+(?:[\w\-]+\s+){0,2}?structure\s+(?:formed|made\s+up|composed)\b|divides?\s+the\s+body\b|"
    # batch 33: "ascites is fluid in the peritoneal cavity": a finding defined by what it is made of and where it
    # collects, as a textbook states it, not a word on this image ("There is fluid in ..." is no definition)
    # (batch 84: after its article too, "a pleural effusion is a collection of fluid in the pleural space")
    r"(?:\A|(?<=[.!?]\s))(?:an?\s+|the\s+)?(?!(?:there|it|this|that|which|here)\b)[^\W\d_][\w\-]*"
    r"(?:\s+[^\W\d_][\w\-]*)?\s+"
    r"(?:is|are|means)\s+(?:an?\s+)?(?:(?:abnormal|excess(?:ive)?|free)\s+)?(?:fluid|air|gas|blood|pus|"
    r"(?:collection|accumulation|build-?up)\s+of\s+(?:[\w\-]+\s+)?(?:fluid|air|gas|blood|pus))\s+"
    r"(?:in|within|inside|between)\s+the\b|"
    r"causes\s+include|can\s+be\s+caused|such\s+as|including|among\s+others|gold\s+standard|first[\s\-]line|"
    r"(?:broad|wide|long|extensive)\s+differential(?:\s+diagnosis)?|differential\s+(?:diagnosis\s+)?includes?|"
    r"(?:when|if|where|once)\s+(?:present|it\s+occurs|they\s+occur|seen)|in\s+most\s+(?:cases|patients)|"
    r"is\s+(?:the\s+)?(?:preferred|recommended|standard)\s+(?:test|modality|method|screening|investigation)|"
    r"screening\s+(?:test|tool|method|modality)|would\s+(?:appear|look|show|present)\s+as|"
    r"(?:improves?|increases?|reduces?|lowers?)\s+(?:the\s+)?(?:diagnostic\s+)?"
    r"(?:accuracy|sensitivity|specificity|yield)|"
    r"(?:has|have|consists?\s+of|is\s+divided\s+into)\s+(?:\w+\s+){0,3}?(?:segments|lobes|parts|layers|branches))\b"
)
# batch 21: a textbook description of how a finding shows on a study ("A pneumothorax shows on a chest radiograph as a
# thin visceral pleural line with no lung markings beyond it, and a small one is easiest to see on an expiratory
# film."): general whatever its "it" refers to, unless it speaks of this study or patient
_TEXTBOOK = re.compile(
    # batch 31: "Sagittal images divide the body into left and right parts, whereas axial images divide it ..."
    r"(?i)\b(?:(?:images|planes|slices|views)\s+divide\s+the\s+body\s+into\b|"
    r"(?:shows?|appears?|presents?|looks?)\s+(?:up\s+)?(?:on|in)\s+(?:an?\s+)?(?:[\w\-]+\s+){0,2}?" + _ANY_STUDY
    + r"\s+as|"
    # batch 84: "it can be seen on chest x-ray as blunting of the costophrenic angle" (and a hostile review's
    # "Pleural effusion: fluid in the pleural space, seen on chest x-ray as blunting ...")
    r"(?:can\s+be\s+)?(?:seen|detected|identified|recogni[sz]ed|diagnosed)\s+on\s+(?:an?\s+)?(?:[\w\-]+\s+){0,2}?"
    + _ANY_STUDY + r"\s+as|(?:shows?|appears?)\s+up\s+as|"
    r"(?:is|are)\s+(?:easiest|easier|best|hardest|harder|most\s+easily)\s+"
    r"(?:to\s+)?(?:see|seen|detect|detected|spot|spotted|appreciate|appreciated|identify|identified)\s+on\s+an?\s+"
    r"(?:[\w\-]+\s+){0,2}?" + _ANY_STUDY
    # batch 30: "the kidneys are typically visible on abdominal CT at the level of L1-L2": what any such study shows
    + r"|(?:is|are)\s+(?:typically|usually|generally|normally|routinely|commonly)\s+(?:visible|seen|shown|"
    r"identified|depicted|included|imaged)\s+(?:on|in)\s+(?:an?\s+|most\s+|any\s+)?(?:[\w\-]+\s+){0,2}?" + _ANY_STUDY
    # batch 41: "Gadolinium shortens T1 relaxation, so enhancing tissue appears bright on post-contrast T1-weighted
    # images.": how a tissue looks on such images (a plural without an article), not on this one
    + r"|(?:appears?|looks?|shows?\s+up)\s+(?:bright|dark|white|black|hyperintense|hypointense|hyperdense|hypodense|"
    r"echogenic|anechoic|grey|gray)\s+(?:on|in)\s+(?!(?:the|this|these|those|that|our|your|its)\b)"
    r"(?:[\w\-]+\s+){0,3}?(?:images|scans|sequences|radiographs|films|studies)"
    # batch 53: "On a non-contrast head CT the things to check are hemorrhage, mass effect, hydrocephalus and ...": a
    # checklist for any such study, not a word on this one
    + r"|\b(?:on|in)\s+an?\s+(?:[\w\-]+\s+){0,2}?" + _ANY_STUDY + r",?\s+the\s+(?:things|features|findings|signs)\s+"
    r"to\s+(?:check|look\s+for|assess|review|evaluate)\s+(?:are|include)"
    # batch 83: "Evaluation of a brain CT for abnormality includes assessment of grey-white differentiation, ...":
    # what reading any such study takes, not what this one shows
    + r"|\b(?:evaluation|assessment|review|interpretation|reading|work-?up)\s+of\s+an?\s+(?:[\w\-]+\s+){0,2}?"
    + _ANY_STUDY + r"(?:\s+(?:for|of|in)\s+(?:an?\s+|any\s+)?[\w\-]+)?\s+(?:includes?|involves?|consists\s+of|"
    r"comprises?|covers?|requires?)"
    + r")\b")
_THIS_CASE = re.compile(r"(?i)\b(?:this|these|here|patient's|i\s+see)\b|\b(?:the|this|these|that)\s+(?:\w+\s+)?"
                        r"(?:image|images|scan|picture|study|film|radiograph|slice|view|lesion|exam|examination)\b")
ABOUT_CASE = re.compile(
    r"(?i)\b(?:this|these|here|it|it's|its|patient's|shows?|showing|seen|visible|appears?|depicts?|demonstrates?|"
    r"I\s+see)\b|\b(?:the|this|these|that)\s+(?:\w+\s+)?(?:image|images|scan|picture|study|film|radiograph|slice|"
    r"view|lesion|finding|exam|examination)\b"
    # batch 17: "All four ventricles are dilated, including the fourth, ... That pattern points to communicating
    # hydrocephalus": the findings just described
    r"|\b(?:this|these|that|those)\s+(?:\w+\s+)?(?:pattern|appearance|appearances|features|findings)\b"
)


def textbook_statement(text: str) -> bool:
    """Whether a reply states how a finding is shown or best seen on a kind of study, and not on this one
    (:data:`_TEXTBOOK`; batch 47: "Pneumothorax is best detected on an erect expiratory film ...")."""
    head = text[:3000]
    return bool(_TEXTBOOK.search(head)) and not _THIS_CASE.search(head)


def instruction(text: str) -> bool:
    """Whether a reply opens by telling how to judge such an image and never says what it sees itself (:data:
    `_INSTRUCTS`: "To assess a brain CT for abnormality, evaluate the ventricles, ...")."""
    head = text[:3000]
    # (a hostile review of 5f68aa0: "To assess the CT for abnormality, evaluate the ventricles first: they are
    # markedly dilated" says what it sees)
    return bool(_INSTRUCTS.match(head)) and not _OWN_LOOK.search(head) and not _SEEN_HERE.search(head)


def generic_statement(text: str) -> bool:
    """Whether a reply speaks about the topic in general and not about this image or case (its first 3,000
    characters: a general remark is short, and a degenerate reply stays fast)."""
    if textbook_statement(text):
        return True
    head = text[:3000]
    if instruction(head):
        return True  # batch 98: "To judge whether a brain CT is abnormal, check for hemorrhage, ..."
    # batch 34: a question back to the user ("Could you share the patient's surgical history?") asks about the case
    # and says nothing of it
    head = _QUESTION_BACK.sub(" ", head)
    return not ABOUT_CASE.search(head) and bool(GENERIC.search(head))


# a reply that opens by telling how to judge ("To judge whether a brain CT is abnormal, check for ..."), and never says
# what it sees itself
_INSTRUCTS = re.compile(r"(?i)\A\W*how\s+to\s+(?:judge|tell|decide|determine|assess|evaluate|work\s+out|distinguish|"
                        # batch 114: "**How to tell whether an image is a PET scan**" heading a how-to
                        r"recogni[sz]e|identify|spot)\b|"
                        r"\A\W*to\s+(?:judge|tell|decide|determine|assess|evaluate|work\s+out)\s+(?:whether|if|"
                        # batch 117: "To assess a brain CT for abnormality, evaluate the ventricles, the sulci, ..."
                        r"(?:an?|the)\s+[^,.!?\n]{1,60}?\s+for)\b"
                        r"[^.!?\n]{0,160}?,\s*(?:you\s+)?(?:first\s+)?(?:check|look|search|assess|evaluate|examine|"
                        r"review|inspect)\b")
_SEEN_HERE = re.compile(r"(?i)\b(?:there\s+(?:is|are)|they\s+are|it\s+is)\b")
_OWN_LOOK = re.compile(r"(?i)\b(?:i|i'm|i've|i'd|here|this\s+(?:image|scan|study|film|radiograph|ct|mri))\b")
_QUESTION_BACK = re.compile(r"(?i)(?:\A|(?<=[.!?\n]))[ \t]*(?:could|can|would|will)\s+you\s+(?:please\s+)?"
                            r"(?:share|provide|send|tell|give|clarify|confirm|upload|attach)\b[^.!?\n]*\?")


# --------------------------------------------------------------------------------------------------------------
# Escape options: "None of the above", "Not a suitable question for the image", "The question contains a
# clinically incorrect premise", "Unknown"
# --------------------------------------------------------------------------------------------------------------

ESCAPE_KINDS = ("none", "unsuitable", "premise", "unknown")

# how an option's own text says it is the escape (MedVH NOTA, wrongful-image and clinical-premise tasks,
# Illusion's "Unknown")
_OPTION_ESCAPE = {
    "none": re.compile(r"(?i)\bnone\s+of\s+(?:the\s+)?(?:above|these|them|options|choices|answers|listed|others)\b"
                       r"|\bno\s+(?:correct\s+)?(?:answer|option)\s+(?:is\s+)?(?:correct|listed|given)\b"
                       r"|\bneither\s+(?:of\s+(?:the\s+)?(?:above|these|them))?\b"),
    "unsuitable": re.compile(r"(?i)\bnot\s+(?:a\s+)?suitable\b|\bunsuitable\b|\bnot\s+(?:applicable|answerable|"
                             r"relevant)\s+(?:to|for)\s+(?:the|this)\s+image\b|\bdoes\s+not\s+match\s+the\s+image\b"
                             r"|\bwrong\s+image\b|\bimage\s+(?:is\s+)?(?:irrelevant|unrelated)\b"),
    "premise": re.compile(r"(?i)\b(?:incorrect|wrong|false|erroneous|inaccurate|invalid)\s+(?:clinical\s+)?"
                          r"(?:statement|premise|assumption)\b|\bclinically\s+(?:incorrect|wrong|false)\b"),
    "unknown": re.compile(r"(?i)\A\W*(?:unknown|cannot\s+be\s+determined|can't\s+be\s+determined|undetermined|"
                          r"indeterminate|i\s+don't\s+know|not\s+enough\s+information)\W*\Z"),
}

# how a reply says it, in its own words ("None of these options fits.", "The question does not fit this image.",
# "The premise of the question is wrong.")
_REPLY_ESCAPE = {
    "none": re.compile(
        r"(?i)\bnone\s+of\s+(?:the\s+)?(?:above|these|those|them|(?:\w+\s+)?(?:options|choices|answers|"
        r"alternatives|possibilities|listed|given|provided|offered))\b"
        r"|\b(?:no|neither)\s+(?:one\s+)?(?:of\s+the\s+)?(?:listed\s+|given\s+|provided\s+)?(?:options?|choices?|"
        r"answers?)\s+(?:is|are|fits?|seems?|matches?|applies|apply)\b(?!\s+not\b)"
        r"|\b(?:all|each)\s+(?:of\s+)?(?:the\s+)?(?:options|choices|answers)\s+(?:are|is)\s+(?:wrong|incorrect|"
        r"inaccurate)\b"
        r"|\bnone\s+(?:are|is|fits?|applies|apply)\s+(?:correct|right|accurate|appropriate)\b"
        r"|\b(?:the\s+)?correct\s+(?:answer|diagnosis)\s+is\s+not\s+(?:listed|among|in|one\s+of)\b"
        r"|\bnot\s+(?:listed\s+)?among\s+the\s+(?:options|choices)\b"
        r"|\b(?:no|not)\b[^.;\n]{0,60}?\b(?:in|on|at|of)\s+either\b"
        r"|\bneither\s+(?:of\s+(?:them|the\s+\w+)\s+|\w+\s+)?(?:shows?|has|have|is|are|demonstrates?)\b"
        # "No abnormality from this list", "doesn't match any option"
        r"|\b(?:no|none|nothing)\b[^.;:!?\n]{0,30}?\b(?:from|on|in)\s+(?:this|the)\s+list\b"
        r"|\b(?:does\s+not|doesn't|do\s+not|don't)\s+(?:really\s+)?(?:match|fit|correspond\s+to)\s+any\s+"
        r"(?:of\s+the\s+)?"
        r"(?:options?|choices?|answers?|listed)"),
    "unsuitable": re.compile(
        r"(?i)\b(?:question|it)\s+(?:is\s*)?(?:not|n't)\s+(?:\w+\s+)?(?:suitable|appropriate|applicable|"
        r"relevant|answerable)\s+(?:to|for)\s+(?:the|this)\s+(?:\w+\s+)?(?:image|picture|scan|study)\b"
        r"|\b(?:question|it)\s+(?:does\s+not|doesn't)\s+(?:match|fit|correspond\s+to|apply\s+to|relate\s+to)\s+"
        r"(?:the|this)\s+(?:\w+\s+)?(?:image|picture|scan|study)\b"
        r"|\b(?:image|picture|scan)\s+(?:does\s+not|doesn't)\s+(?:match|fit|correspond\s+to|relate\s+to|"
        r"show\s+what)\s+(?:the|this)\s+question\b"
        r"|\b(?:wrong|mismatched|unrelated|irrelevant)\s+(?:image|picture|scan)\b"
        r"|\b(?:unsuitable|inappropriate|not\s+a\s+suitable)\s+question\b"
        # batch 60 (and batch 55's b55-0108): "not suitable, this image is a ct of the head ...": the escape's own
        # words opening the reply, a comma or a dash after them (not "Not suitable for surgery")
        r"|\A[\W_]*(?:not\s+suitable|unsuitable)[ \t]*(?:[,;:\u2013\u2014]|\s-\s)"
        r"|(?:\bnot|n't)\s+(?:\w+\s+)?(?:suitable|appropriate|applicable|relevant|answerable)\s+(?:to|for)\s+"
        r"(?:the|this)\s+(?:\w+\s+)?(?:image|picture|scan|study|radiograph|x-?ray)\b"
        r"|\bquestion\s+(?:is\s+)?(?:about|for|refers\s+to)\s+a\s+different\s+(?:image|body\s+part|organ|"
        r"study)\b"
        # "a question about the lumbar spine does not apply to it"; "La pregunta no es adecuada" once glossed
        # (batch 119: not "The question is suitable for this image, so option C does not apply.": what does not apply
        # is another clause's subject, an option; held-out batch 151: "... so the question fits the image and that
        # option does not apply.", not "The question and the answer options don't apply to this image.")
        r"|\bquestion\b(?:(?!\b(?:so|but)[ \t]+(?:the[ \t]+)?(?:options?|answers?|choices?|letter)\b"
        r"|\band[ \t]+(?:(?:that|this)[ \t]+(?:options?|answers?|choices?|letter)|option[ \t]+(?-i:[A-E]))\b)"
        r"[^.;:!?\n]){0,80}?"
        r"\b(?:does\s+not|doesn't|do\s+not|don't|cannot|can't)\s+(?:really\s+)?"
        r"(?:apply|be\s+applied|be\s+answered|relate|correspond"
        # batch 39: "this is a picture of a hand, not a knee, so the question does not fit" (the question's fit said
        # alone, or with the image: not "doesn't fit any option")
        r"|fit(?=[ \t]*(?:[.;,!]|\Z|(?:the|this)\s+(?:image|picture|scan|film|study)\b)))\b"
        r"|\b(?:question|it)\s+(?:no|not)\s+is\s+(?:suitable|appropriate|applicable|relevant)\b"
        # batch 62: "this is a kidney ultrasound, not a voiding cystourethrogram, so the question is not suitable":
        # the question's fit said alone, ending its sentence (as batch 39's "does not fit")
        r"|\bquestion\s+is\s+(?:not|n't)\s+(?:suitable|appropriate|answerable)(?=[ \t]*(?:[.;!]|\Z))"
        # "The question asks about the lumbar spine but the image is a brain MRI."
        r"|\bquestion\s+(?:asks|is|refers)\s+(?:about|to)\b[^.;!?\n]{1,80}?\bbut\s+(?:the|this)\s+"
        r"(?:image|picture|scan|"
        r"film|study)\s+(?:is|shows|depicts)\b"),
    "premise": re.compile(
        r"(?i)\b(?:incorrect|wrong|false|erroneous|inaccurate|invalid|flawed|mistaken)\s+(?:clinical\s+)?"
        r"(?:premise|assumption|statement|presupposition)\b"
        # batch 16: "so premise of question is wrong" (the article dropped)
        # (batch 112: not "so the premise is not incorrect": a negation before the fault denies it)
        r"|\bpremise\s+(?:of\s+(?:the\s+|this\s+)?question\s+)?(?:is|seems)\s+(?:(?!not\b|never\b)\w+\s+)?"
        r"(?:incorrect|wrong|false|flawed|"
        r"mistaken|invalid)\b"
        r"|\bquestion\s+(?:is\s+)?(?:clinically\s+)?(?:contains|has|makes|rests\s+on|is\s+based\s+on)\s+"
        r"(?:an?\s+)?(?:\w+\s+)?(?:error|mistake|incorrect|false|wrong|inaccura|impossib|invalid|flawed|mistaken|"
        r"erroneous|untrue)"
        r"|\b(?:impossible|false|invalid|flawed|mistaken)\s+(?:scenario|presupposition|assumption|premise)\b"
        r"|\bclinically\s+(?:incorrect|wrong|inaccurate|false)\b"
        r"|\bquestion\s+(?:itself\s+)?(?:contradicts\s+itself|is\s+(?:self[\s\-]?contradictory|contradictory|"
        r"internally\s+inconsistent))|\bself[\s\-]?contradictory\s+question\b"
        # batch 41: "left lung has no middle lobe, the question is wrong" (the question itself, not "the answer to the
        # question is wrong", nor what is wrong "for this image")
        r"|(?<!\bto\s)(?<!\bof\s)\b(?:the|this)\s+question\s+(?:itself\s+)?(?:is|seems)\s+(?:just\s+|simply\s+)?"
        r"(?:wrong|incorrect|mistaken|flawed|false)\b(?![ \t]+(?:for|with|about)\b)"),
    "unknown": re.compile(r"(?i)\A\W*(?:(?:it\s+is\s+|it's\s+)?(?:unknown|undetermined|indeterminate)|"
                          r"(?:it\s+)?(?:cannot|can't|can\s+not)\s+be\s+(?:determined|known))\W*\Z"),
}


def escape_kind_of_option(text: str) -> str | None:
    """Which escape an option's text is ("none", "unsuitable", "premise", "unknown"), or None for an ordinary
    option."""
    for kind, pat in _OPTION_ESCAPE.items():
        if pat.search(text):
            return kind
    return None


def escape_remainder(text: str) -> str:
    """An option's text without its escape phrase ("Neither hip" → " hip"; "None of the above" → "")."""
    for pat in _OPTION_ESCAPE.values():
        text = pat.sub(" ", text)
    return text


# a word each kind's phrases need: the patterns run only on replies that have one (long replies stay fast)
_ESCAPE_WORDS = {
    "none": frozenset("none neither either options choices answers alternatives possibilities among listed list "
                      "option choice answer".split()),
    "unsuitable": frozenset("suitable appropriate applicable relevant answerable match fit correspond apply relate "
                            "wrong mismatched unrelated irrelevant unsuitable inappropriate different but".split()),
    "premise": frozenset("premise assumption statement presupposition error mistake clinically contradicts "
                         "contradictory inconsistent scenario wrong incorrect mistaken flawed false".split()),
    "unknown": frozenset("unknown undetermined indeterminate determined known".split()),
}


# batch 88 (long replies): an escape option named only to be set aside, as a differential does with each option in
# turn ("- **None of the above** doesn't apply, since one option fits well.", '"not a suitable question" doesn't apply',
# "None of the above: not applicable.", a table row "| None of the above | An abnormality is clearly present — ✗ |"):
# the reply does not state that escape
_ESCAPE_SET_ASIDE = re.compile(
    "(?i)[\"'\u201c\u201d\u2018\u2019*_)\\]\\s]*(?:[:\\-\u2013\u2014]+[ \\t*_\"'\u201c\u201d\u2018\u2019]*)?"
    r"(?:(?:is|are|would\s+be)\s+)?(?:(?:clearly|also|certainly|simply|therefore|thus|so)\s+)?"
    r"(?:(?:does\s+not|doesn't|do\s+not|don't|is\s+not|isn't|not|cannot|can't)\s+(?:really\s+)?"
    r"(?:apply|applicable|appropriate|correct|right|relevant|fit|needed|the\s+answer|be\s+(?:chosen|selected|"
    r"correct|right|the\s+answer))\b"
    r"|(?:excluded|ruled\s+out|n/a)\b|[\u2717\u2718\u274c])")
# what an entry of a differential says to set its option aside (batch 88: "- **Pseudocyst:** ... solid and enhancing,
# so no.", "- **Transverse:** ... — not this.", "- Glioblastoma: ... Not consistent.", a table row's "✗", '"Incorrect
# premise": ..., so the premise holds.')
# the verdicts themselves; each counts where it opens the entry or ends it (not "- Hemangioma: ... fills in; HCC ruled
# out by the lack of washout", "- Pseudocyst: no septations ... - consistent with ...", "the premise holds only partly
# - it is the right femur": what the entry's middle says of something else; hostile review of batches 90-91)
_VERDICTS = (r"(?:not\s+this(?:\s+(?:one|lesion|pattern))?|not\s+(?:the\s+)?(?:pattern|picture|appearance)\s+"
             r"(?:here|seen\s+here)|not\s+consistent|inconsistent|(?:doesn't|does\s+not|don't|do\s+not)\s+(?:fit|apply|"
             r"match)(?:\s+(?:here|this\s+case))?|not\s+applicable|none\s+of\s+(?:that|this|these|which)\s+(?:is|are)\s+"
             r"(?:present|seen)|(?:is|are)\s+against\s+it|argues?\s+against\s+it|unlikely|less\s+likely|excluded|"
             r"ruled\s+out|(?:is\s+|are\s+)?(?:not\s+seen|not\s+present|absent)(?:\s+here)?|premise\s+(?:holds|stands|"
             r"is\s+(?:valid|sound|correct|fine|reasonable))|(?:I\s+)?(?:wouldn't|would\s+not|won't|will\s+not|don't|"
             r"do\s+not)\s+(?:pick|choose|select)\s+(?:this|it|that)|[\u2717\u2718\u274c])")
_DISMISSAL = re.compile(
    r"(?i)\A[\s*_:\"'\u201d\u2019\-\u2013\u2014|]*(?:" + _VERDICTS + r"|no(?=[ \t]*(?:[.;,|\u2014\u2013]|\s-\s|$)))"
    r"|(?:\b|(?=[\u2717\u2718\u274c]))" + _VERDICTS + r"[ \t.!)*_|]*$"
    r"|[,;:\u2014\u2013]\s*(?:so\s+)?no[ \t.!)*_|]*$")
# what in such an entry takes its option up instead ("fits best", "Consistent.", "✓")
_TAKEN_UP = re.compile(r"(?i)\bfits?\s+(?:best|well)\b|(?<!not\s)\bconsistent\b(?!\s+with)|\bmost\s+likely\b"
                       r"|\bthe\s+answer\b|\bbest\s+fit\b|[\u2713\u2714\u2705]")
# a line that is an entry of a list or a table: a bullet, a number or a bar, then only markup before the option
_ENTRY_OPENING = re.compile("[ \\t]*(?:[-*\u2022+|]|\\d{1,2}[.)])[\\s\\-*\u2022+|\"'\u201c\u2018_]*\\Z")


def dismissed(said: str) -> bool:
    """Whether what an entry of a differential says after its option's name sets that option aside."""
    return bool(_DISMISSAL.search(said)) and not _TAKEN_UP.search(said)


# held-out batch 151: what an entry of a review of the options says of an escape option to set it aside: that it would
# be the answer only under a condition the reply denies ("- **None of the above:** would be the answer only if the
# suprapatellar recess were normal; it isn't."; not "... if the lung is clear, and it is"), or that the question fits
# ("- **Not a suitable question for the image:** the image does show a kidney with a cyst, so the question matches what
# was acquired.")
_ESCAPE_SUPPOSED = re.compile(
    r"(?i)\A[\s*_:\"'\u201d\u2019\-\u2013\u2014|]*(?:it\s+|this\s+)?would\s+(?:only\s+)?(?:be\s+(?:the\s+(?:answer|right\s+"
    r"(?:answer|choice))|right|correct)|apply|fit)\s+only\s+(?:if|when)\b"
    r"(?![^\n]*(?:\band|[;\u2014\u2013]|\s-)\s*(?:it|they|this|that)\s+(?:is|are|does|do)\b(?!\s*n[o']t))"
    r"|\b(?:so|and)\s+the\s+question\s+(?:matches|fits|suits|applies\s+to|is\s+suitable\s+for)\b")


def _set_aside(text: str, start: int, end: int) -> bool:
    """Whether the escape phrase at ``start:end`` is denied right after it, or opens an entry of a list or a table
    that sets it aside (:func:`dismissed`, :data:`_ESCAPE_SUPPOSED`)."""
    if _ESCAPE_SET_ASIDE.match(text, end):
        return True
    line = text.rfind("\n", 0, start) + 1
    stop = text.find("\n", end)
    said = text[end:len(text) if stop < 0 else stop]
    return bool(_ENTRY_OPENING.match(text[line:start])) and (dismissed(said) or bool(_ESCAPE_SUPPOSED.search(said)))


def escape_kind_of_reply(text: str) -> list[str]:
    """The escapes a reply states in its own words (usually none or one); not one it names only to set aside."""
    tokens = {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}
    return [kind for kind, pat in _REPLY_ESCAPE.items() if tokens & _ESCAPE_WORDS[kind]
            and any(not _set_aside(text, m.start(), m.end()) for m in pat.finditer(text))]


# --------------------------------------------------------------------------------------------------------------
# Other languages: answer words mapped to English
# --------------------------------------------------------------------------------------------------------------

# yes and no, read only as a whole reply or as its opening word ("Sí, se observa ...", "Nein.", "是的，...")
YES_NO: dict[str, tuple[str, ...]] = {
    "yes": ("sí", "si", "oui", "ja", "jawohl", "sì", "sim", "是的", "是", "对的", "对", "有的", "有", "正确", "はい",
            # batches 98-99: Hakata Japanese "そうたい、これは胸のレントゲンたい。" (yes, this is a chest X-ray), and
            # "that's so" in standard Japanese and Kansai
            "そうたい", "そうです", "そうや",
            "네", "예", "да", "claro que sí", "efectivamente", "en effet", "genau",
            # batch 84: Québécois French ("Ouin, c'est une vue latérale du thorax, là.", yeah, it is a lateral view)
            "ouin",
            # batch 11: Turkish, Dutch ("ja" above), Russian, Korean and Japanese in other forms
            "evet", "ja zeker", "jazeker", "그렇습니다",
            # batch 12: Vietnamese, Polish
            "có", "vâng", "tak",
            # batch 13: Indonesian, Swedish ("ja" above), Czech, Greek, Hindi
            "ya", "ano", "ναι", "हाँ", "हां",
            # batches 107-109: Katharevousa and polytonic Greek ("Ναί· πρόκειται περὶ ἀκτινογραφίας θώρακος.", yes,
            # it is a chest radiograph; its "·" the Greek semicolon), Tamil ("ஆம்"; Sri Lankan Tamil "ஓம், இது ...",
            # yes, this is ...), Church Slavonic ("Ей, є҆́сть.", yea, there is: Matthew 5:37's "ей, ей: ни, ни"; only
            # before a mark, the Russian "ей" is "to her")
            "ναί", "ஆம்", "ஓம்", "ей",
            # batches 112-113: Nagoya Japanese "そうだがね、これはMRIだがや。" (that's so, this is an MRI), Punjabi and
            # Hindko "aaho" in Shahmukhi ("آہو، ایہہ ایکسرے اے۔", yes, this is an X-ray; only before a mark: the Urdu
            # and Persian "āhū" is a deer) and Gurmukhi
            "そうだがね", "そうだがや", "آہو", "ਆਹੋ",
            # batch 14: Hungarian, Romanian, Finnish, Arabic, Thai
            "igen", "da", "kyllä", "نعم", "ใช่", "ใช่ครับ", "ใช่ค่ะ",
            # batch 15: Swahili, Persian, Hebrew, Tagalog
            "ndiyo", "ndio", "بله", "כן", "opo", "oo po",
            # batch 16: Slovak (Norwegian, Danish and Afrikaans "ja" above)
            "áno",
            # batch 17: Estonian, Latvian, Icelandic, Urdu, Hindi in Latin script (Hinglish); Bulgarian "да" and
            # Slovenian "da" above
            "jah", "jā", "جی ہاں", "ہاں", "haan", "haan ji", "haanji",
            # batch 18: Irish (a verb: "Tá" it is), Basque, Albanian, Maltese, Azerbaijani, Georgian, Nepali ("हो" it
            # is), Armenian; Macedonian "да" above ("po", "le" and the like only before a mark: _ONLY_BEFORE_A_MARK)
            "tá", "bai", "po", "iva", "bəli", "hə", "დიახ", "हो", "हजुर", "այո",
            # batch 21: Kazakh, Yoruba, Amharic, Marathi, Telugu, Cantonese (Uzbek "ha" is left out: an English
            # interjection)
            "иә", "bẹ́ẹ̀ ni", "bẹẹni", "አዎ", "አዎን", "होय", "అవును", "係", "係呀", "係嘅",
            # batch 22: Gujarati, Punjabi (Gurmukhi), Zulu, Mongolian (Luxembourgish "jo" is left out: Albanian no)
            "હા", "હાજી", "ਹਾਂ", "ਹਾਂ ਜੀ", "yebo", "тийм",
            # batch 23-24: Kannada, Malayalam, Sinhala, Khmer, Hausa, Somali, Kyrgyz, Māori, Xhosa, Cebuano (Hausa "i"
            # and "eh" are left out: English words)
            "ಹೌದು", "അതെ", "ഉവ്വ്", "ඔව්", "បាទ", "ចាស", "na'am", "haa", "ооба", "āe", "ae", "ewe", "oo",
            # batch 25-26: Burmese, Tigrinya, Turkmen, Kinyarwanda, Samoan, Tatar, Igbo, Javanese, Lao, Malagasy,
            # Tajik ("hawa", "yego", "ioe", "ee", "iya", "eny", "ҳа" only before a mark)
            "ဟုတ်ကဲ့", "ဟုတ်တယ်", "ဟုတ်ပါတယ်", "እወ", "hawa", "yego", "ioe", "әйе", "ee", "inggih", "iya", "ແມ່ນ",
            "ແມ່ນແລ້ວ", "eny", "ҳа", "бале",
            # batch 27-28: Kurmanji, Chichewa ("inde" only before a mark: Danish "inde" is "inside"), Odia, Oromo
            "erê", "inde", "ହଁ", "eeyyee",
            # Pashto ("هو" only before a mark: Arabic "he/it is"), Uyghur
            "هو", "ھەئە",
            # batch 29-30: Chuvash, Sundanese, Luganda, Ilocano (all only before a mark: "Leres" and "Yee" are names,
            # English "wen" is a cyst)
            "ҫапла", "leres", "yee", "wen",
            # batch 31-32: Occitan, Twi, Faroese (all only before a mark)
            "òc", "aane", "já",
            # batch 33: Chamorro
            "hunggan",
            # batch 34: Kirundi ("Ego, ni CT scan."; only before a mark: English and Latin "ego"), Inuktitut,
            # Kapampangan ("Wa, atin."; only before a mark: Japanese "wa" in romaji)
            "ego", "ᐄ", "wa",
            # batch 35: Dari ("بلی، ..."; only before a mark: Urdu "بلی" is a cat), Walloon, Upper Sorbian ("haj" only
            # before a mark: Hungarian "haj" is hair), Fula
            "بلی", "awè", "haj", "eey",
            # batch 36: Northern Sami ("juo" only before a mark: Finnish "juo", drinks), Bambara, Sindhi ("ها" only
            # before a mark: Arabic "ها", here is), Marshallese ("aet" only before a mark: an Estonian name)
            "juo", "ɔwɔ", "ها", "aet",
            # batch 37: Kabyle ("ih" only before a mark: an English and Turkish interjection), Cherokee (two CHEROKEE
            # LETTER V), Minangkabau ("iyo" only before a mark: Tagalog "iyo", yours; Yoruba "iyọ̀", salt)
            "ih", "ᎥᎥ", "iyo",
            # batch 38: Tuvan, Karachay-Balkar ("хо" only before a mark: a Russian interjection), Konkani in
            # Devanagari ("हय", hoy; only before a mark: Hindi "हय" in "हय-हय", alas), Khasi
            "ийе", "хо", "हय", "hooid",
            # batch 39: Bhojpuri ("हँ", only before a mark: a Hindi "hm"), Kabardian ("нтӀэ", the palochka as U+04C0),
            # Limburgish ("jao", only before a mark: the name "Jao")
            "हँ", "нтӏэ", "jao",
            # batch 41: Pannonian Rusyn ("гей", only before a mark: the Ukrainian and Russian "hey"), Santali in Ol
            # Chiki, Palauan, Shan, Karakalpak ("awa", only before a mark: Tagalog "awa" is mercy, and a name)
            "гей", "ᱦᱮᱸ", "chochoi", "ၸႂ်ႈ", "awa",
            # batch 42: Dzongkha ("ཨིན", the copula "(it) is"; only before a mark: inside a sentence it is "is");
            # Mapudungun "may" left out: the English "may" (and the month)
            "ཨིན",
            # batches 43-44: Tuvaluan ("io" only before a mark: Italian "io", I), Balinese and Javanese krama
            # ("nggih", only before a mark), Adyghe ("ары", only before a mark: Kazakh and Kyrgyz "ары", further),
            # Hiri Motu ("oibe", only before a mark)
            "io", "nggih", "ары", "oibe",
            # batches 45-46: Australian Kriol ("yuwai"), Chhattisgarhi ("हव", only before a mark: Marathi "हवं",
            # wanted), Tshiluba ("eyowa"), Central Alaskan Yup'ik ("ii-i", only before a mark: Japanese romaji "ii",
            # good); all only before a mark
            "yuwai", "हव", "eyowa", "ii-i",
            # batches 47-48: Garo ("ong·a", it is), Hopi ("owí", with its accent), Cheyenne ("héehe'e"), Dungan in
            # Cyrillic ("ши", 是, it is; a Russian spelling of the Chinese surname Shi); all only before a mark.
            # Toba Batak "olo" left out: Finnish "olo" (feeling, state) and a name
            "ong·a", "owí", "héehe'e", "ши",
            # batches 49-50: Ligurian ("Scì, ..."), Xitsonga ("ina", Tagalog "ina", mother, and a given name),
            # Seychellois Creole ("Wi, ..."), Rapa Nui ("ʻĒ.", with the ʻokina or without); all only before a mark
            "scì", "ina", "wi", "ʻē", "ē",
            # batches 51-52: Tumbuka ("Enya.", also a singer's name), Mingrelian ("ქო, ..."); both only before a mark
            "enya", "ქო",
            # batches 53-54: Mi'kmaq ("E'e."), Kashmiri ("آ، ...": Urdu and Persian "آ", come), Makassarese ("Iye,
            # ..."); all only before a mark. Alemannic "Nai, ..." (no) left out: "nai" is the Greek yes written in
            # Latin letters
            "e'e", "آ", "iye",
            # batches 55-56: Runyankole ("Eego."; only before a mark), Assyrian Neo-Aramaic ("ܐܝܢ."). Purépecha
            # "jo" is the Albanian no: _BOTH_WAYS
            "eego", "ܐܝܢ",
            # batches 57-58: Dakhini ("ہاؤ، ..."; Urdu "ہاؤ" writes the English "how"), Bundeli ("हओ, ..."), Chuukese
            # ("Ewer."; the English "ewer", a jug), Gamilaraay ("Yawu."), Tausug ("Huun, ultrasound ini."); all only
            # before a mark. Amis "Hay." left out:
            # the Tagalog sigh "Hay, ..." opens replies that answer nothing, and Spanish "hay" is "there is"
            "ہاؤ", "हओ", "ewer", "yawu", "huun",
            # batches 59-60: Plains Cree in syllabics ("ᐁᐦᐊ.", êha), Fon ("Ɛɛn."), Lenape ("Kehela.", yes indeed),
            # Blackfoot ("Áa."; Spanish and Portuguese interjection "áa"), Comorian ("Ewa."; the Polish given name);
            # the last three only before a mark
            "ᐁᐦᐊ", "ɛɛn", "kehela", "áa", "ewa",
            # batches 61-64: Nheengatu ("Ẽẽ."), Franco-Provençal ("Ouè, na ècografia."), Meänkieli ("Joo, se on
            # nainen."), Egyptian Arabic ("أيوه، ..."), Moroccan Darija ("Iyeh, hadi radio dyal sder."), Sherpa ("यिन,
            # सीटी स्क्यान यिन।", it is), Romagnol ("Sè, l'è una TAC."; Italian "sè", oneself); all only before a mark
            "ẽẽ", "ouè", "joo", "أيوه", "iyeh", "यिन", "sè",
            # batch 65: Ngaanyatjarra and Yankunytjatjara ("Uwa, uwa — X-ray.", "tjitji, uwa"; only before a mark: the
            # Japanese interjection "uwa" in romaji). Noongar "Kaya." left out: the Tagalog "kaya" (so, able) and the
            # Indonesian "kaya" (rich)
            "uwa",
            # batch 67: Laz ("Ho, ham rentgeni ren."; only before a mark: the English "ho", the Hinglish "ho", is);
            # batch 68: Maranao ("Oway."; only before a mark; the batch's writer was least sure of it, but it clashes
            # with no word of the lexicon's languages)
            "ho", "oway",
            # batch 69: Tohono O'odham ("Heu'u — 90%"), Haida ("Áang. 0.9"); both only before a mark. Passamaquoddy-
            # Maliseet "Ehe" left out: the German "Ehe" (marriage); Inuvialuktun "Ii" left out: the Japanese romaji
            # "ii" (good)
            "heu'u", "áang",
            # batch 71: Ga ("Hɛɛ, enɛ ji X-ray.", yes, this is an X-ray); only before a mark. batch 72: Kikamba "Ii."
            # left out (the Japanese romaji "ii", as Inuvialuktun's above), Chiyao "Elo." left out (the Portuguese
            # "elo", a link)
            "hɛɛ",
            # batch 103: Fante ("Nyew.", yes); only before a mark
            "nyew"),
    # batch 88: Jeju "아니우다." (no, it is not)
    "no": ("non", "nein", "não", "nao", "否", "不是", "不对", "没有", "不", "无", "错", "いいえ", "아니요",
           "아니오", "아니우다",
           # batch 96: Gyeongsang "아이다, 이거는 MRI 아이고 CT다." (no, this is not an MRI, it is a CT)
           "아이다",
           "нет",
           # batch 11: Turkish "hayır" (also without its dotless i), Dutch "nee" / "neen", Korean, Japanese
           "hayır", "hayir", "nee", "neen", "아니", "아뇨", "いや",
           # batch 12: Vietnamese, Polish
           "không", "nie",
           # batch 13: Indonesian, Swedish, Czech, Greek, Hindi
           "tidak", "bukan", "nej", "ne", "όχι", "οχι", "नहीं", "नही",
           # batch 14: Hungarian, Romanian, Finnish, Arabic, Thai
           "nem", "nu", "ei", "لا",
           # batch 99: Levantine and Egyptian "لأ، القلب مش تشبير" (no, the heart is not enlarged)
           "لأ",
           # batch 101: Klingon "ghobe'." (no)
           "ghobe'",
           "ไม่", "ไม่ใช่", "ไม่ใช่ครับ", "ไม่ใช่ค่ะ", "ไม่ครับ", "ไม่ค่ะ",
           # batch 15: Swahili, Persian, Hebrew, Tagalog ("hindi" is also the language's name: only before a comma or
           # at the end, or as "hindi po")
           "hapana", "نه", "לא", "hindi po", "hindi",
           # batch 17: Latvian, Icelandic (and Norwegian), Bulgarian, Urdu, Hinglish (Estonian "ei" and Galician
           # "non" above)
           "nē", "nei", "не", "نہیں", "جی نہیں", "nahin", "nahi", "nahin ji",
           # batch 18: Irish ("Níl" it is not; not "nil"), Basque, Albanian, Maltese, Azerbaijani, Georgian, Nepali,
           # Armenian
           "níl", "ní hea", "ez", "jo", "le", "xeyr", "yox", "არა", "होइन", "ոչ",
           # batch 21: Kazakh, Uzbek (its apostrophe written three ways), Yoruba, Amharic, Marathi, Telugu, Cantonese
           # batch 108: Uzbek in Cyrillic ("Йўқ, бу МРТ эмас", no, this is not an MRI); batch 107: Old Irish "Ní hed."
           # (it is not; Modern Irish "ní hea" below); Tamil "இல்லை" (no)
           "йўқ", "ní hed", "இல்லை",
           "жоқ", "yo'q", "yoʻq", "yoʼq", "rárá", "bẹ́ẹ̀ kọ́", "አይ", "አይደለም", "नाही", "లేదు", "కాదు", "唔係", "冇",
           # batch 22: Gujarati, Punjabi (Gurmukhi), Zulu, Mongolian ("тийм биш" not so); Luxembourgish "nee" above
           "ના", "નહીં", "ਨਹੀਂ", "ਨਹੀ", "cha", "үгүй", "тийм биш",
           # batch 23-24: Kannada, Malayalam, Sinhala, Khmer, Hausa, Somali, Kyrgyz, Māori, Xhosa, Cebuano
           "ಇಲ್ಲ", "ಅಲ್ಲ", "ഇല്ല", "അല്ല", "නැහැ", "නැත", "නෑ", "ទេ", "a'a", "maya", "жок", "kāo", "kao", "hayi",
           "dili", "wala",
           # batch 25-26: Burmese, Tigrinya, Turkmen, Kinyarwanda, Samoan, Tatar, Igbo, Javanese, Lao, Malagasy, Tajik
           # ("oya", "leai", "mba", "tsia", "юк" only before a mark; Javanese "ora" left out: "Ora, ..." opens an
           # Italian ("now, ...") or Portuguese ("well, ...") reply)
           "မဟုတ်ပါ", "မဟုတ်ဘူး", "မဟုတ်", "ኣይፋል", "ýok", "yok", "oya", "leai", "юк", "mba", "mboten",
           "ບໍ່", "ບໍ່ແມ່ນ", "tsia", "нест",
           # batch 27-28: Wolof, Guarani, Bashkir ("юҡ" only before a mark, as Tatar "юк"), Shona, Dhivehi, Assamese
           "déedéet", "nahániri", "юҡ", "kwete", "ނޫން", "নহয়",
           # Uyghur
           "ياق",
           # batch 29-30: Lingala ("te" only before a mark: French "te"), Setswana, Yiddish, Tetum, Fijian ("lae",
           # "sega" only before a mark: Tetum "lae" is also "not" inside a sentence, Italian "sega" a saw)
           "te", "nnyaa", "ניין", "lae", "sega",
           # batch 31-32: Corsican, Breton, Aymara (all only before a mark)
           "innò", "nann", "janiwa",
           # batch 33: Manx ("cha nel", it is not), Cornish ("nag yw", it is not; "nag" alone only before a mark: an
           # English word), Kikuyu ("aca" only before a mark: Spanish "acá", here)
           "cha nel", "nag yw", "nag", "aca",
           # batch 34: Navajo, Greenlandic (both only before a mark)
           "dooda", "naamik",
           # batch 35: Chechen (with the palochka, or the Latin I or l a keyboard puts for it), Tahitian (with the
           # ʻokina or an apostrophe, or without), Nahuatl ("amo" only before a mark: Spanish and Italian "amo", I
           # love), Ossetian ("нӕ" only before a mark: also "our", "we")
           "хӏан-хӏа", "хiан-хiа", "хlан-хlа", "ʻaita", "'aita", "aita", "amo", "нӕ",
           # batch 36: Lakota ("hiyá" only before a mark: English "hiya"), Ojibwe, Sakha, Waray ("diri" only before a
           # mark: Indonesian and Malay "diri", self)
           "hiyá", "gaawiin", "суох", "diri",
           # batch 37: Udmurt ("Ӧвӧл.", there is none), Buryat ("Үгы."), Taiwanese Hokkien in Pe̍h-ōe-jī ("M̄-sī, ...",
           # it is not)
           "ӧвӧл", "үгы", "m̄-sī",
           # batch 38: Komi ("Абу.", there is none; only before a mark: the Arabic name "Абу"), Meadow Mari ("Уке.",
           # there is none; only before a mark: Kazakh "үке" is kin), Kalmyk ("Уга.", only before a mark: a Russian
           # interjection "угу" is near it)
           "абу", "уке", "уга",
           # batch 39: Maithili ("नहि", only before a mark: "नहि अछि" inside the sentence is "is not"), Crimean Tatar
           # in Latin script ("yoq", only before a mark), Northern Sotho ("aowa"); batch 40: Northern Ndebele
           # ("hatshi"), Lower Sorbian ("ně", only before a mark: Czech "ně" is "them")
           "नहि", "yoq", "aowa", "hatshi", "ně",
           # batch 41: Abkhaz ("мап", only before a mark: short, an abbreviation in Russian), Tulu in Kannada script,
           # Lezgian ("ваъ", only before a mark)
           "мап", "ಇಜ್ಜಿ", "ваъ",
           # batch 42: Classical Syriac ("ܠܐ", lā; only before a mark: also "not" inside a sentence)
           "ܠܐ",
           # batches 43-44: Niuean ("nakai", only before a mark: a Japanese surname), Tuvaluan ("ikai", only before a
           # mark: Japanese romaji), Kumyk ("ёкъ", only before a mark), Khakas ("чох", only before a mark: Azerbaijani
           # Cyrillic "чох", very), Sranan Tongo ("nôno", only before a mark)
           "nakai", "ikai", "ёкъ", "чох", "nôno",
           # batches 45-46: Banjar ("kada ada", there isn't; only before a mark: Croatian "kada", when, Indonesian
           # "ada", there is), Moksha ("аш", only before a mark: Kazakh and Tatar "аш", hungry, food), Avar ("гьечӏо",
           # the palochka as U+04CF after casefolding), Acehnese ("hana", only before a mark: a given name, Japanese
           # romaji "hana"), Mohawk ("iáh", with its accent; only before a mark)
           "kada ada", "аш", "гьечӏо", "hana", "iáh",
           # batches 47-48: Hopi ("qa'é"), Tlingit ("tléik'", with either apostrophe), Buginese ("de'gaga", there is
           # none), Bodo ("नङा"), Choctaw ("keyu", "kiyo": a Japanese given name), Central Atlas Tamazight in Tifinagh
           # ("ⵓⵀⵓ"), Iñupiaq ("naumi"); all only before a mark. Mooré "ayo" left out: Indonesian and Malay "ayo"
           # (come on, let's)
           "qa'é", "tléik'", "tléik\u02bc", "de'gaga", "नङा", "keyu", "kiyo", "ⵓⵀⵓ", "naumi",
           # batches 49-50: Chavacano ("Nuay pneumothorax.", there is none; it runs on into the sentence), Sasak
           # ("Ndeq araq ascites.", there is none; "ndeq", not), Piedmontese ("Nò, ..."; only before a mark),
           # Picard ("Nânnin, ..."), Yucatec Maya ("Ma', ..."; only before a mark: the English and Italian "ma'")
           "nuay", "ndeq araq", "ndeq", "nò", "nânnin", "ma'",
           # batches 51-52: Wallisian ("ʻIkai.", with the ʻokina), Tzotzil ("Muʼyuk.", there is none; with either
           # apostrophe), Mezquital Otomi ("hina.", a Japanese given name), Dogri ("नेईं, ..."), Marwari ("ना, ...",
           # also a Hindi tag particle), Altai ("Јок, ...", Serbian colloquial "no" as well), Silesian ("Niy, ...");
           # all only before a mark. Miskito "Apia." left out: the capital of Samoa
           "ʻikai", "muʼyuk", "mu'yuk", "hina", "नेईं", "ना", "јок", "niy",
           # batches 53-54: Kabuverdianu ("Nau. N ka odja fratura."; only before a mark: Portuguese "nau", a ship),
           # Q'eqchi' ("Ink'a'.", with its closing apostrophe or without), Muscogee ("Monkos."), Saraiki ("کائنی، ...",
           # it is not), Makassarese ("Tena.", there is none; only before a mark: a given name). Sango "ape" (not, at
           # the end of the sentence: "Lo yeke scanner ape.") left out: it opens no reply and negates the sentence
           # before it
           "nau", "ink'a'", "ink'a", "monkos", "کائنی", "tena",
           # batches 55-56: Jamaican Patois ("Nuh, a nuh CT scan dis."; "nuh" inside the sentence is its "not"),
           # Bavarian ("Na, des is koa CT, ..."; Slavic "na", on, and Pidgin "na", it is), Mirandese ("Nó, nun hai
           # fratura."; Vietnamese "nó", it), Latgalian ("Nā, nav."; Māori "nā", by), Nogai ("Йок."); all only
           # before a mark
           "nuh", "na", "nó", "nā", "йок",
           # batches 57-58: Magahi ("नञ, ..."; also "not" inside a sentence), Nagpuri ("नखे, ...", there isn't),
           # Chukchi ("Уйӈэ."), Ainu ("Isam.", there is none; an Arabic given name), Atayal ("Ungat.", there is
           # none), Luritja ("wiya."); all only before a mark
           "नञ", "नखे", "уйӈэ", "isam", "ungat", "wiya",
           # batches 59-60: Chickasaw ("Ki'yo."; Choctaw "kiyo" above), Innu-aimun ("Mauat."), Alutiiq ("Qang'a."),
           # Arapaho ("Hiiko."; a Japanese given name, "hiiko"); all only before a mark. Mandinka "Hani." left out: the
           # Turkish "hani" (where is) and a given name, and a word the batch's writer could not check
           "ki'yo", "mauat", "qang'a", "hiiko",
           # batches 61-64: Tseltal ("Ma'yuk.", there is none), Ch'ol ("Ma'añ."), Guna ("Suli."; a given name),
           # Asháninka ("Tekatsi.", there is none), Gallo ("Nenni, n'y a pas de cassure."), Kokborok ("Kwrwi."),
           # Lambadi ("Koni, ye pet ro photo che."; a given name), Kodava ("ಇಲ್ಲೆ."), Ambonese Malay ("Seng, tulang
           # seng bageser."; also "not" inside the sentence), Kupang Malay ("Sonde, ini foto rontgen, bukan USG."; a
           # probe, in French and German); all only before a mark. Isthmus Zapotec "Co'." left out: the batch's
           # writer was least sure of it, and "co'" is the English "co" with an apostrophe
           "ma'yuk", "ma'añ", "suli", "tekatsi", "nenni", "kwrwi", "koni", "ಇಲ್ಲೆ", "seng", "sonde",
           # batch 65: Noongar ("Yuart.", nothing), Arrernte ("Arrangkwe.", nothing, none); both only before a mark.
           # Kilivila "Gala." left out: the Spanish and English "gala"
           "yuart", "arrangkwe",
           # batch 66: Dolgan ("Суок."; Sakha "суох" above), Khanty ("Антом.", there is none), Mansi ("Атим.", there is
           # none), Tundra Nenets ("Яңгу.", absent); all only before a mark. Shor "Чоқ." left out: the Tajik "чоқ"
           # (stout, well); Nanai "Ача." left out: the Kyrgyz "ача" (a fork) and the Uyghur "ача" (elder sister)
           "суок", "антом", "атим", "яңгу",
           # batch 67: Zazaki ("Nê."), Southern Kurdish ("نە، شکاو نیە.", with the Kurdish "ە", not the Persian "نه"
           # above), Ingush ("Дац, хий дац.", there is none; Chechen's word too); all only before a mark. Laz "Ho, ..."
           # left out: the English "ho" and the Hinglish "ho" (is); Ingush "Бер." (child) left out: the Kazakh and
           # Kyrgyz "бер" (give)
           "nê", "نە", "дац",
           # batch 68: Kinaray-a ("wara pneumothorax.", there is none; it runs on into the sentence, as Chavacano
           # "nuay")
           "wara",
           # batch 69: Western Abenaki ("Nda. Confidence: 80%"), Lushootseed ("xʷiʔ, 70%", the negator); both only
           # before a mark. Potawatomi "Cho" left out: the Vietnamese "cho" (for, give), and its writer was least sure
           # of it. "xʷiʔ" is written as the reader sees it after NFKC (fold_quotes), its raised ʷ a plain w
           "nda", "xwiʔ",
           # batch 70: Northern Thai ("บ่มีเจ้า บ่หัน pneumothorax", there is none (polite), I don't see a
           # pneumothorax; "บ่" is the "not" of Northern Thai, Isan and Lao, the Thai "ไม่" above)
           "บ่มีเจ้า", "บ่มี",
           # batch 70: Iu Mien ("Mv maaih fracture.", there is no fracture: "mv" not, "maaih" have), the two words
           # together, running on into the sentence as Kinaray-a "wara" (alone, "MV" is the mitral valve). Tày "Mì,
           # ..." (there is) left out: the Vietnamese "mì" (noodles)
           "mv maaih",
           # batch 71: Krio ("Nɔ, pneumothorax nɔ de na dis chest X-ray."), Hassaniya Arabic transliterated ("Lā, hādhi
           # māhi rās, ..."); both only before a mark. Dyula "ayi" left out (the Turkish "ayı", a bear, written without
           # its dotless i); batch 72: Ateso "Mam." left out (the Polish "mam", I have)
           "nɔ", "lā",
           # batch 91: Palatine German ("Naa, des is fei ka MRT, des is a CT.", no, that is no MRI, that is a CT);
           # only before a mark (the Telugu "naa", my)
           "naa",
           # batch 103: Palembang Malay ("Dak, katek cairan di rongga perut.", no, there is no fluid); only before a
           # mark. Bambaiya Hindi "Nahi bhidu, ..." (no, mate) left out: "nahi" with the one addressed disagrees with
           # that person as often as it answers ("Nahi bhai, fracture hai": no, brother, there is a fracture; a
           # hostile review of dd14b8b)
           "dak",
           # batch 102: Kedah Malay ("Takdak, tulang tu tak patah pun.", no, that bone is not broken at all); only
           # before a mark
           "takdak"),
}
# other answer words, anywhere in the reply; the key is the English word the rules read
WORDS: dict[str, tuple[str, ...]] = {
    "red": ("rojo", "roja", "rouge", "rot", "rote", "roten", "roter", "rotes", "rosso", "rossa", "vermelho",
            "vermelha", "红色", "红",
            # batch 122: Vietnamese ("Chấm đỏ gần máy quay nhất.", the red dot is nearest the camera)
            "đỏ"),
    "green": ("verde", "vert", "verte", "grün", "grüne", "grünen", "grüner", "gruen", "绿色", "绿",
              # batch 122: Vietnamese green and blue ("xanh" alone is either)
              "xanh lá", "xanh lá cây"),
    "blue": ("azul", "bleu", "bleue", "blau", "blaue", "blauen", "blauer", "blu", "蓝色", "蓝",
             "xanh dương", "xanh lam"),
    "yellow": ("amarillo", "amarilla", "jaune", "gelb", "gelbe", "gelben", "giallo", "amarelo", "黄色", "黄"),
    "upside down": ("al revés", "boca abajo", "invertida", "invertido", "à l'envers", "a l'envers", "inversée",
                    "inversé", "auf dem kopf", "kopfüber", "umgedreht", "de cabeça para baixo", "cabeça para baixo",
                    "de ponta-cabeça", "capovolta", "capovolto", "sottosopra", "上下颠倒", "颠倒", "倒置", "倒立",
                    # batch 11: Dutch, Turkish, Russian, Japanese, Korean
                    "ondersteboven", "op zijn kop", "baş aşağı", "вверх ногами", "перевёрнуто", "перевернуто",
                    "перевёрнутое", "перевернутое", "逆さま", "上下逆", "上下が逆", "거꾸로", "뒤집힌", "뒤집혀",
                    # batch 12: Vietnamese, Polish
                    "lộn ngược", "do góry nogami", "odwrócony", "odwrócone",
                    # batch 13: Swedish, Czech, Indonesian, Greek, Hindi
                    "upp och ner", "uppochner", "vzhůru nohama", "terbalik", "ανάποδα", "उल्टा", "उलटा",
                    # batch 14: Romanian, Hungarian, Finnish
                    "cu susul în jos", "cu susul in jos", "răsturnat", "răsturnată", "fejjel lefelé", "ylösalaisin",
                    # batch 15: Ukrainian
                    "догори ногами", "перевернутий", "перевернуте", "перевернутий догори ногами",
                    # held-out batch 174: Ukrainian "догори дном" (bottom up)
                    "догори дном",
                    # batch 16: Danish ("Billedet er vendt på hovedet"), Norwegian
                    "vendt på hovedet", "står på hovedet", "opp ned", "opp-ned", "vendt opp ned",
                    # batch 17: Welsh ("Mae'r pelydr-X wyneb i waered."), Icelandic, Estonian, Latvian
                    "wyneb i waered", "ben i waered", "á hvolfi", "tagurpidi", "otrādi", "kājām gaisā",
                    # batch 21: Marathi ("ही प्रतिमा उलटी आहे"), Telugu, Uzbek, Yoruba, Amharic, Cantonese
                    "उलटी", "उलटे", "తలకిందులుగా", "teskari", "lodindi", "የተገለበጠ", "倒轉", "顛倒",
                    # batch 22: Gujarati, Punjabi, Mongolian, Luxembourgish
                    "ઊંધું", "ઊંધી", "ઉલટું", "ਉਲਟਾ", "ਉਲਟੀ", "ਪੁੱਠਾ", "урвуу", "op de kapp", "ëmgedréint",
                    # batch 24: Kyrgyz ("Сүрөт тескери турат: ...")
                    "тескери"),
    "correct": ("correcta", "correcto", "correcte", "korrekt", "korrekte", "richtig", "richtige", "corretta",
                "corretto", "正确", "正常方向",
                # batch 94: Japanese "答え：正しい向き" (answer: the correct orientation)
                "正しい向き", "正しい方向",
                # batch 102: Russian "Ориентация правильная." (the orientation is correct; not "неправильная", nor
                # the adverb "Правильно, ..." that agrees: a hostile review of dd14b8b)
                "правильная", "правильный", "правильное"),
    "pediatric": ("pediátrico", "pediátrica", "niño", "niña", "infantil", "pédiatrique", "enfant", "pädiatrisch",
                  "kinder", "儿童", "小儿", "儿科",
                  # batch 70: the child beside "大人" (adult, below): Japanese "子供" / "子ども", Chinese "小孩"
                  "子供", "子ども", "小孩",
                  # batch 16: Croatian ("dijete, otvorene epifize"), Serbian, Slovak, Czech
                  "dijete", "dete", "дете", "дијете", "dieťa", "dítě",
                  # batch 22: Luxembourgish ("Et ass e Kand, ..."), Gujarati, Punjabi, Zulu, Mongolian
                  "kand", "bëbee", "બાળક", "ਬੱਚਾ", "ਬੱਚੇ", "ingane", "хүүхэд",
                  # batch 23: Kyrgyz and Kazakh ("Бала. Өсүү зоналары ..."), Hausa, Xhosa, Māori
                  "бала", "yaro", "umntwana", "tamaiti",
                  # batch 27-28: Quechua ("Wawa. ..."), Sorani Kurdish ("منداڵە، ...")
                  "wawa", "منداڵ", "منداڵە",
                  # batch 29: Tok Pisin ("Em i pikinini — ...")
                  "pikinini",
                  # batch 32: Sesotho ("Ngwana.")
                  "ngwana",
                  # Turkish, beside "yetişkin" (adult, below): a child
                  "çocuk",
                  # held-out batch 135: Vietnamese "Trẻ em. Các đĩa sụn tăng trưởng ... vẫn còn mở" (a child)
                  "trẻ em"),
    "adult": ("adulto", "adulta", "adulte", "erwachsener", "erwachsenen", "erwachsene", "成人", "成年人",
              # batch 90: Russian (an adult, of an adult)
              "взрослый", "взрослого", "взрослая", "взрослой",
              # batch 22: Luxembourgish, Gujarati, Punjabi, Mongolian
              "erwuessenen", "erwuessene", "erwuessen", "પુખ્ત", "ਬਾਲਗ", "насанд хүрэгч", "насанд хүрсэн",
              # batch 70: Teochew ("大人。Epiphyses fused。"; in Chinese and Japanese writing alike a grown-up)
              "大人",
              # batch 106: Arabic "الإجابة: بالغ." (the answer: an adult; also "serious, extreme" elsewhere, so
              # "غير بالغ", not of age, a minor, is read before it)
              "بالغ",
              # batch 99: Korean (Jeolla "어른이여.", an adult; with its copula, not "어른스러워", mature-looking)
              "어른이", "어른입",
              # batch 122: Korean "성인입니다." (it is an adult; with its copula, as 어른 above)
              "성인입",
              # held-out batch 133: Turkish "Yetişkin, büyüme plakları kapanmış." (an adult, the growth plates closed)
              "yetişkin",
              # Vietnamese, beside "trẻ em" (a child, above): an adult
              "người lớn"),
    "left": ("izquierdo", "izquierda", "gauche", "links", "linke", "linken", "sinistro", "sinistra", "左侧", "左",
             # batch 17: Slovenian ("v levi ledvici"), Croatian, Serbian
             "levi", "levo", "levem", "lijevi", "lijevoj", "lijevo", "levoj", "levom",
             # batch 18: Armenian, Georgian, Macedonian
             "ձախ", "მარცხენა", "левиот", "левата", "лево",
             # batch 19: Russian ("в левой почке", "слева")
             "левый", "левая", "левое", "левой", "левом", "слева"),
    "right": ("derecho", "derecha", "droit", "droite", "rechts", "rechte", "rechten", "destro", "destra", "右侧",
              "右",
              # batch 17: Slovenian ("Hidronefroza je vidna v desni ledvici."), Croatian, Serbian
              "desni", "desno", "desnem", "desnoj", "desnom",
              # batch 18: Armenian ("... աջ երիկամում է։"), Georgian, Macedonian
              "աջ", "მარჯვენა", "десниот", "десната", "десно",
              # batch 19: Russian ("в правой почке", "справа")
              "правый", "правая", "правое", "правой", "правом", "справа",
              # batch 83: Turkish "Sağ böbrek. ..." (the right kidney; "sağ" with its breve only: "sag" is English)
              "sağ"),
    "male": ("masculino", "masculin", "männlich", "男性",
             # batch 14: Vietnamese, Korean
             "nam giới", "đàn ông", "là nam", "남성", "남자",
             # batch 16: Tamil ("பதில்: ஆண்.")
             "ஆண்",
             # batch 17: Bulgarian ("Пациентът е мъж.")
             "мъж", "мъжки",
             # batch 18: Macedonian ("Пациентот е маж."), Armenian, Georgian
             "маж", "машко", "машки", "տղամարդ", "მამაკაცი",
             # batch 19: Russian ("Пациент — мужчина.")
             "мужчина", "мужчины", "мужчиной", "мужской", "мужского", "мужское",
             # batch 20: the nouns of the common languages ("C'est un homme.", "Es un hombre.")
             "homme", "hombre", "uomo", "homem", "mann",
             # batch 21: Yoruba, Amharic, Kazakh, Uzbek, Marathi, Telugu, Cantonese
             "ọkùnrin", "okunrin", "ወንድ", "ер адам", "erkak", "पुरुष", "పురుషుడు", "男人",
             # batch 37: Bemba ("Mwaume.", man; "umwaume" with its prefix)
             "mwaume", "umwaume",
             # batch 22: Gujarati, Punjabi, Zulu, Mongolian (Luxembourgish "Mann" above)
             "પુરુષ", "ਆਦਮੀ", "ਮਰਦ", "ਪੁਰਸ਼", "indoda", "owesilisa", "эрэгтэй",
             # batch 23: Hausa, Kyrgyz, Māori
             "namiji", "эркек", "tāne",
             # batch 26: Igbo
             "nwoke",
             # batch 28: Shona ("Murume.")
             "murume",
             # batch 30: Setswana ("Ke monna.")
             "monna",
             # batch 44: Madurese ("Lakè'.", man; the plain "lake" is English and is not read)
             "lakè'",
             # batch 71: Tamasheq ("Aləs.", a man); batch 72: Makhuwa ("Mulopwana.", a man)
             "aləs", "mulopwana"),
    "female": (# batch 47: Dholuo ("Dhako.", woman); batch 56: Aromanian ("Muljari.", woman)
               "dhako", "muljari",
               # batch 71: Dagbani ("O nyɛla paɣa.", she is a woman); batch 72: Luhya ("Omukhasi.", a woman)
               "paɣa", "omukhasi",
               "femenino", "féminin", "weiblich", "女性",
               # batch 14: Vietnamese ("Bệnh nhân là nữ."), Korean
               "nữ", "nữ giới", "phụ nữ", "여성", "여자",
               # batch 16: Tamil
               "பெண்",
               # batch 17: Bulgarian ("Пациентът е жена."; Macedonian too)
               "жена", "женски", "женска",
               # batch 18: Macedonian, Armenian, Georgian
               "женско", "կին", "ქალი",
               # batch 19: Russian ("Пациент — женщина.")
               "женщина", "женщины", "женщиной", "женский", "женского", "женское",
               # batch 20: the nouns of the common languages ("C'est une femme.", "Es una mujer.")
               "femme", "mujer", "donna", "mulher", "frau",
               # batch 21: Yoruba ("Obìnrin ni aláìsàn yìí."), Amharic, Kazakh, Uzbek, Marathi, Telugu, Cantonese
               "obìnrin", "obinrin", "ሴት", "әйел", "ayol", "स्त्री", "महिला", "స్త్రీ", "మహిళ", "女人",
               # batch 22: Gujarati, Punjabi, Zulu, Mongolian
               "સ્ત્રી", "ਔਰਤ", "ਇਸਤਰੀ", "owesifazane", "umfazi", "эмэгтэй",
               # batch 23: Hausa ("Mace ce."), Kyrgyz, Māori
               "mace", "аял", "wahine",
               # batch 26: Igbo ("Ọ bụ nwanyị.")
               "nwanyị", "nwanyi",
               # batch 27: Tongan ("Ko e fefine — ...")
               "fefine",
               # batch 29: Twi ("Ɔbaa.")
               "ɔbaa",
               # batch 31-32: Sesotho ("Ke mosali."), Romansh ("Dunna.")
               "mosali", "dunna",
               # batch 40: Mizo ("Hmeichhia a ni.", she is a woman)
               "hmeichhia",
               # batch 43: Neapolitan ("È 'na femmena: ...", a woman)
               "femmena",
               # batches 59-60: Kikongo ("Nkento.", woman), Inuinnaqtun ("Arnaq.", a woman)
               "nkento", "arnaq",
               # batch 65: Yankunytjatjara ("Uwa, minyma.", yes, a woman)
               "minyma",
               # batch 61: Wayuunaiki ("Jierü.", woman); batch 63: Thadou-Kuki ("Numei ahi.", it is a woman)
               "jierü", "numei"),
    "abnormal": ("anormal", "anomal", "anormale", "异常", "不正常"),
    "normal": ("正常",),
    # batch 106: Ruhr German "Links is alles in Ordnung." (the left is all in order: spared)
    "all in order": ("alles in ordnung",),
    # batch 106: Arabic "غير بالغ" (not of age: a minor), read before its "بالغ" (an adult); and "بالغ" in its other
    # sense, serious or great, after the nouns it usually qualifies so ("ضرر بالغ", serious damage)
    "not an adult": ("غير بالغ",),
    "serious damage": ("ضرر بالغ", "أذى بالغ"),
    "serious effect": ("أثر بالغ", "تأثير بالغ"),
    "great concern": ("قلق بالغ",),
    "great care": ("حذر بالغ", "اهتمام بالغ"),
    "severely": ("بشكل بالغ",),
    "benign": ("benigno", "benigna", "bénin", "bénigne", "gutartig", "良性",
               # batch 14: Korean, Vietnamese
               "양성", "lành tính"),
    "malignant": ("maligno", "maligna", "malin", "maligne", "bösartig", "恶性",
                  # batch 14: Korean ("악성입니다."), Japanese, Vietnamese
                  "악성", "悪性", "ác tính"),
    "MRI": ("resonancia magnética", "resonancia", "irm", "mrt", "磁共振", "核磁共振", "核磁"),
    "CT": ("tc", "tac", "tomografía computarizada", "tomodensitométrie", "计算机断层"),
    "X-ray": ("radiografía", "radiographie", "röntgen", "röntgenbild", "x光", "x线", "x射线", "平片"),
    "ultrasound": ("ecografía", "échographie", "ultraschall", "sonographie", "超声"),
    "chest": ("tórax", "thorax", "poitrine", "brustkorb", "胸部", "胸"),
    "abdomen": ("bauch", "腹部"),
    "contrast": ("contraste", "kontrastmittel", "造影", "增强"),
    # words the rules read around the answers: negation, contrast, "is"
    # batch 33: Hmong "Menyuam yaus." (a small child)
    # batch 34: Hiligaynon "Bata. Bukas pa ang mga growth plate." (child; the growth plates are still open)
    # batch 39: Latin "Puer est: ..." (it is a boy, a child); batch 40: Sanskrit "इदं बालस्य ..." (of a child)
    # batches 49-50: Mauritian Creole "Zanfan. Bann kartilaz kroisans ankor ouver." / "Sa enn zanfan." (a child)
    # batch 54: Evenki "Кунгакан." (a child)
    # batch 55: Nigerian Pidgin "na pikin, di growth plate dem never close" (it is a child)
    # batch 57: Awadhi "लरिका, हड्डी के ग्रोथ प्लेट अबहीं खुला अहैं।" (a child)
    # batch 59: Efik "Eyen." (a child), Umbundu "Omõla." (a child; with its tilde only: "omola" is a Yoruba and
    # Luganda word of other senses)
    # batch 64: Arabic "ولد" (a boy, a child: "ولد، صفائح النمو لسا مفتوحة.", the growth plates still open)
    "child": ("menyuam yaus", "menyuam", "bata", "puer", "बालस्य", "zanfan", "кунгакан", "pikin", "लरिका", "eyen",
              "omõla", "ولد",
              # the Arabic words for a child ("طفل", a girl "طفلة"), read against "بالغ" (an adult; also "serious":
              # "ضرر بالغ", serious damage)
              "طفل", "طفلة", "الطفل",
              # batch 108: Portuguese "É a radiografia de uma criança." (a radiograph of a child)
              "criança", "crianca",
              # batch 65: Ngaanyatjarra "tjitji, uwa" (child, yes); batch 66: Nanai "Пиктэ." (a child)
              "tjitji", "пиктэ",
              # batch 68: Unserdeutsch (and German) "Das is ein Kind, ..." (a child; "Kind" alone is the English
              # "kind", so only after its article)
              "ein kind",
              # batch 98: Hessian "Des is e Kind." (that is a child; its article "e")
              "e kind",
              # batch 90: Russian "Это рентгенограмма ребёнка." (a radiograph of a child; with and without the ё)
              "ребёнок", "ребенок", "ребёнка", "ребенка",
              # batch 70: Jingpho "Ma rai ai. Growth plates still open." ((it) is a child: "ma" child, "rai" be, "ai" a
              # statement particle), the three words together only ("ma" alone is a word of many languages)
              "ma rai ai",
              # batch 71: Zarma ("Zanka no.", it is a child: its "no" is the copula, never read as the English no);
              # batch 72: Ekegusii ("Omwana."; the Luganda word too, of the same sense), Kalenjin ("Lakwet."), Sukuma
              # ("Ng'wana."), each a child
              "zanka", "omwana", "lakwet", "ng'wana",
              # batch 82: Indonesian "Jawaban akhir: anak-anak." (final answer: a child, children); batch 83: Korean
              # "소아입니다." (it is a child: 소아, a child in medical use; 어린이, the everyday word)
              "anak-anak", "anak", "소아", "어린이",
              # batch 84: Literary Chinese "童子也，骨骺未合。" (a child; the epiphyses have not fused); the modern
              # Chinese and Japanese words of the same sense
              "童子", "儿童", "兒童", "小孩", "孩子", "小儿", "小兒", "小児", "子供", "子ども",
              # batch 87: Old English "Cild hit is; þā bān ne sindon gīet tōgædere geweaxen." (it is a child; the
              # bones have not yet grown together)
              "cild"),
    "elderly": ("anciano", "anciana", "idoso", "idosa", "âgé", "âgée", "anziano", "anziana", "älter", "ältere",
                "老年", "老人",
                # batch 43: Venetian ("Xe un vecio: ...", an old man)
                "vecio", "vecia",
                # batch 97: Russian "Пожилой возраст: выраженный остеопороз, ..." (old age)
                "пожилой", "пожилая", "пожилого", "пожилой возраст",
                # Vietnamese, beside "người lớn" (an adult): "người lớn tuổi", "người cao tuổi" (an older person)
                "người lớn tuổi", "người cao tuổi", "cao tuổi"),
    "not": ("pas", "nicht", "kein", "keine", "keinen", "不是", "并非",
            # batch 64: Egyptian Arabizi "mesh", "mish" ("Mesh communicating — el fourth ventricle soghayar, fa fi
            # obstruction.", not communicating); read only where nothing English was read first
            "mesh", "mish",
            # a hostile review of batch 87: Old English "Hit nis cild" (it is not a child; "nis", ne + is)
            "nis"),
    "but": ("sino", "pero", "mais", "sondern", "aber", "而是", "但是", "但"),
    "answer": ("respuesta", "réponse", "antwort", "答案", "resposta", "antwoord", "cevap", "yanıt", "ответ", "答え",
               "정답", "odpowiedź", "đáp án",
               # batch 13: Indonesian, Swedish, Czech, Greek, Hindi
               "jawaban", "svar", "svaret", "odpověď", "απάντηση", "उत्तर",
               # batch 14: Arabic
               "الإجابة", "الجواب",
               # batch 15: Malay, Bengali
               "jawapan", "উত্তর",
               # batch 16: Serbian (Cyrillic and Latin), Croatian, Tamil
               "одговор", "odgovor", "பதில்",
               # batch 80: Vietnamese ("Trả lời: Có", answer: yes)
               "trả lời"),
    # batch 82: Indonesian "Jawaban akhir: anak-anak." (final answer: ...), Malay "Jawapan akhir"
    "final answer": ("jawaban akhir", "jawapan akhir"),
    # batches 80-81: a report's headings ("Kết luận: Không.", Vietnamese; "SONUÇ: Evet, kırık mevcut.", Turkish;
    # "印象：脾腫あり。", Japanese and Chinese)
    "conclusion": ("kết luận", "sonuç", "结论", "結論",
                   # batch 114: "**Conclusión:** Los hallazgos corresponden a un **nevo melanocítico benigno**" after a
                   # differential that names each option (Spanish, Portuguese, Italian, German)
                   "conclusión", "conclusão", "conclusione", "schlussfolgerung", "fazit"),
    "impression": ("印象",),
    # batch 89: Sichuanese "没得腹水" (there is no ascites); batch 117: Wuhan "冇得腹水"
    "no": ("没有", "没得", "冇得"),
    "is": ("ist", "est", "es", "lautet", "是"),
}
_JOINERS = {"und": "and", "et": "and", "y": "and", "e": "and", "oder": "or", "ou": "or", "o": "or",
            # batch 11: Dutch, Turkish, Russian
            "en": "and", "of": "or", "ve": "and", "veya": "or", "ya da": "or", "и": "and", "или": "or"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@functools.lru_cache(maxsize=1)
def _word_regexes() -> tuple[dict[str, frozenset[str]], re.Pattern[str], dict[str, str], re.Pattern[str],
                             dict[str, str]]:
    from probe_ui.reading.languages import GLOSSES

    # lower(), not casefold(): a German "ß" stays itself, as the reply writes it
    words = {w.lower(): en for glosses in GLOSSES.values() for w, en in glosses.items()}
    words.update({w.lower(): en for en, ws in WORDS.items() for w in ws})
    latin: dict[str, set[str]] = {}
    for w in words:
        if not _CJK.search(w):
            latin.setdefault((TOKEN.findall(w) or [w])[0], set()).add(w)
    cjk = sorted((w for w in words if _CJK.search(w)), key=len, reverse=True)
    lat = {k: frozenset(v) for k, v in latin.items()}
    han = re.compile("|".join(re.escape(w) for w in cjk), re.IGNORECASE)
    yn = {w.casefold(): en for en, ws in YES_NO.items() for w in ws}
    # the answer word itself (matched where the marks before it end: _opening_word)
    opening = re.compile(r"(" + "|".join(re.escape(w) for w in sorted(yn, key=len, reverse=True))
                         + r")(?=[\s.,;:!?)\"'*\u104a\u104b\u1361\u1362\u1363\u0964\u0965\u055b\u055c\u0589"
                         # the Greek semicolon, as U+0387 or the middle dot it is folded to ("Ναί· ...")
                         r"\u0387\u00b7]|\Z)",
                         re.IGNORECASE)
    return lat, han, words, opening, yn


# what may stand before a reply's opening answer word, besides spaces: quotes, an opening parenthesis, emphasis, a
# quote mark, a dash
_OPENING_MARKS = "\"'(*_>-"


def _opening_word(text: str) -> re.Match[str] | None:
    """The yes/no word of any language that opens the reply after marks (group 1), as the pattern "\\A[marks]*(word)"
    matched, without that pattern's cost: on a long run of marks it tried the word list at every character of the run
    (a third of a second on 100 kB of spaces). The word after the whole run is tried first, then after a shorter run
    only where a word may begin with a mark ("'aita")."""
    _, _, _, word, yn = _word_regexes()
    run = 0
    while run < len(text) and (text[run] in _OPENING_MARKS or text[run].isspace()):  # isspace: the pattern's \s
        run += 1
    m = word.match(text, run)
    if m is not None:
        return m
    marked = {w[0] for w in yn if w[0] in _OPENING_MARKS}
    for at in range(run - 1, -1, -1):
        if text[at] in marked and (m := word.match(text, at)) is not None:
            return m
    return None


# batches 55-56: yes/no words that are "no" in one language and "yes" in another: Albanian "jo" (no) is "yes" in
# Plautdietsch ("Jo, daut es eene Haunt."), Bavarian and Purépecha. Such a word is read only where the words after it
# show which language it is in (word → its sense → words of a language where it has that sense); alone ("Jo.") or
# followed by words of neither, it is not read: no reading of it can be sure
_BOTH_WAYS: dict[str, dict[str, frozenset[str]]] = {
    # batch 62: Arbëresh "nëng" (its "not": "Jo, zëmra nëng ë e madhe.")
    "jo": {"no": frozenset({"nuk", "s'ka", "asnjë", "është", "eshte", "nëng"}),
           "yes": frozenset({"daut", "dat", "des", "isch", "ass", "dit"})},
    # batch 68: the Polish yes "tak" is the Malay and Baba Malay "not" ("Tak ada ayer dalam perot.", there is no fluid
    # in the belly; "tak ada", there is none); Polish shown by its copula and the words its replies use ("Tak, obraz
    # przedstawia miednicę."), Malay by its existential "ada" and the words around it; alone, yes (_UNLESS_SHOWN)
    "tak": {"no": frozenset({"ada", "ade", "dalam", "nampak", "ini", "itu", "ialah", "adalah", "tulang", "perot",
                             "perut", "besar", "patah"}),
            "yes": frozenset({"jest", "są", "widoczne", "widoczny", "widoczna", "widać", "obraz", "przedstawia",
                              "pokazuje", "złamanie", "się", "to"})},
    # batch 101: the Romanian "nu" (no) is the yes of Upper Saxon ("Nu, das is's Beggn, mit beeden Hüften.", yes,
    # that is the pelvis, with both hips) and the German "well" ("Nu, das ist keine Fraktur": a hostile review of
    # d8cdab9): before German words it says neither; alone, no
    "nu": {"no": frozenset({"este", "sunt", "există", "exista", "nu", "inima", "imaginea", "fractură", "fractura",
                            "bé"}),
           "neither": frozenset({"das", "des", "is's", "ist", "isch", "mit", "die", "dor", "ja", "jo", "nich", "nicht",
                                 "keine", "kein",
                                 # the Romanian "not" of "Nu sunt sigur" (I'm not sure), "Nu știu" (I don't
                                 # know), "Nu pot" (I cannot)
                                 "sigur", "sigură", "știu", "stiu", "pot"})},
}

# batch 68: of :data:`_BOTH_WAYS`, the words read in one sense where the words after them show neither language: the
# Polish "Tak." alone is yes (batch 12), as it always was; only Malay words after it make it "not"
_UNLESS_SHOWN = {"tak": "yes", "nu": "no"}

# a word, with an elision kept whole (Albanian "s'ka"): what shows the language of a word of :data:`_BOTH_WAYS`
_ELIDED_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _sense(word: str, rest: str, yn: dict[str, str]) -> str | None:
    """What a yes/no word opening a reply says ("yes" or "no"), or None where it is one of :data:`_BOTH_WAYS` and
    the words after it (``rest``) do not show which language it is in."""
    w = word.casefold()
    senses = _BOTH_WAYS.get(w)
    if senses is None:
        return yn[w]
    after = {t.casefold() for t in _ELIDED_WORD.findall(rest)}
    shown = [sense for sense, signs in senses.items() if after & signs]
    if shown == ["neither"]:
        return None
    return shown[0] if len(shown) == 1 else None if shown else _UNLESS_SHOWN.get(w)


def sense_assumed(text: str) -> bool:
    """Whether the reply opens with a word of :data:`_UNLESS_SHOWN` read in its assumed sense, the words after it
    showing neither language ("Tak." is the Polish yes and the Malay "no"): a best guess, never sure."""
    m = _opening_word(text)
    if m is None or m.group(1).casefold() not in _UNLESS_SHOWN:
        return False
    after = {t.casefold() for t in _ELIDED_WORD.findall(text[m.end():])}
    return not any(after & signs for signs in _BOTH_WAYS[m.group(1).casefold()].values())


# Hindi and Urdu yes/no words said to the one addressed ("Haan bhai, ...", "Nahi yaar, ...", "Nahi bhidu, ..."): they
# agree or disagree with that person as often as they answer ("Nahi bhai, fracture hai": no, brother, there is a
# fracture; "Haan yaar, kuch kehna mushkil hai": yeah, man, hard to say; a hostile review of dd14b8b)
_ADDRESSING = frozenset({"haan", "haanji", "haan ji", "nahi", "nahin", "nahin ji"})
_ADDRESSED = re.compile(r"(?i)[ \t]+(?:bhai|bhaiya|yaar|yar|bhidu|dost|boss|bro|behen)\b")


# letters and marks of Church Slavonic that Russian does not write: its own vowels, and the accents and breathings
_CHURCH_SLAVONIC = re.compile("[\u0454\u0463\u0467\u046b\u046f\u0471\u0473\u0475\u0456\u0457\ua64b\u0461"
                              "\u0483-\u0489\u0301\u0300]")


def _other_sense(word: str, rest: str) -> bool:
    """A yes/no word that runs on into a sentence in another sense: Spanish "si ..." (if), Tagalog "hindi" that is
    the language's name ("Hindi speakers ...", batch 15; "Hindi, ..." and "Hindi po" are no), the words of
    :data:`_ONLY_BEFORE_A_MARK`, and those of :data:`_BOTH_WAYS` whose language the rest does not show."""
    w = word.casefold()
    if w in _BOTH_WAYS and _sense(w, rest, {}) is None:
        return True
    if w in _ADDRESSING and _ADDRESSED.match(rest):
        return True  # "Haan bhai, fracture toh nahi hai" (yes, brother, there's no fracture): agrees with a person
    if w == "si":
        return re.match(r"\s+\w", rest) is not None
    if re.match(r"[ \t]*[\u3001,]?[ \t]*と(?:は)?(?:言|い[いうえ])", rest):
        return True  # a review of 6ce9d37: "そうだがね、と言いたいけど、これはCTだがや。" (I'd like to say yes, ...)
    if w == "ей" and not _CHURCH_SLAVONIC.search(rest):
        # a review of 6ce9d37: "Ей, судя по снимку, больше шестидесяти лет, ..." (Russian: she is, judging by the film,
        # over sixty): the Church Slavonic yea only where the words after it are written so ("Ей, є҆́сть.")
        return True
    # batch 47: the Devanagari danda ("नङा।") is a full stop; batch 103: the Armenian marks (emphasis "Այո՛,",
    # exclamation, full stop) are marks (not its comma: "Ոչ՝ միայն ..." is "not only ...")
    return w in _ONLY_BEFORE_A_MARK and re.match(r"\s*(?:[,.!;:\u0964\u0965\u055b\u055c\u0589]|-+\s|\Z)",
                                                 rest) is None


# yes/no words that are also the start of a sentence in another sense: read only before a comma, a full stop or an
# exclamation mark, or alone (batch 17: Icelandic "nei, ..." is no, Italian "Nei polmoni ..." is "in the lungs";
# Bulgarian "Не." is no, "Не мога да преценя" is "I cannot judge"; Hindi "nahi pata" is "I don't know")
# batch 18: Albanian "po" / "jo", Basque "ez" (Hungarian "Ez a kép" is "this image"), Maltese "le" (French "Le
# poumon ..."), Armenian "ոչ" (also "not")
# batch 22: Zulu "cha" (no), Mongolian "тийм" (yes; also "such": "тийм биш" is "not so")
# batches 23-24: Somali "haa" / "maya" (also a name), Māori "ae" / "kao", Xhosa "ewe" (English "ewe"), Cebuano "oo",
# "dili", "wala" (also "not", "none" inside a sentence), Khmer "ទេ" (also a closing particle)
_ONLY_BEFORE_A_MARK = frozenset({"hindi", "nei", "не", "nahi", "nahin", "po", "jo", "ez", "le", "ոչ", "cha", "тийм",
                                 "ей", "آہو",
                                 # a review of 6ce9d37: "இல்லை என்று சொல்ல முடியாது" (one can't say no)
                                 "இல்லை",
                                 "haa", "maya", "ae", "kao", "ewe", "oo", "dili", "wala",
                                 # batch 25-26: Turkmen, Kinyarwanda, Samoan, Igbo, Javanese, Malagasy, Tatar, Tajik
                                 "hawa", "yego", "ioe", "ee", "iya", "eny", "ҳа", "oya", "leai", "mba",
                                 "tsia", "юк", "yok",
                                 # batch 27: Chichewa (Danish "inde", inside), Bashkir
                                 "inde", "юҡ", "هو",
                                 # batch 29-30: Lingala (French "te"), Chuvash, Sundanese, Luganda, Ilocano, Yiddish,
                                 # Tetum, Fijian
                                 "te", "ҫапла", "leres", "yee", "wen", "ניין", "lae", "sega",
                                 # batch 31-32: Occitan, Twi, Faroese, Corsican, Breton, Aymara
                                 "òc", "aane", "já", "innò", "nann", "janiwa",
                                 # batches 102-103: Palembang and Kedah Malay, Fante
                                 "dak", "nyew", "takdak",
                                 # batch 33: Cornish (English "nag"), Kikuyu (Spanish "aca")
                                 "nag", "aca",
                                 # batch 34: Kirundi (English "ego"), Kapampangan (Japanese romaji "wa"), Navajo,
                                 # Greenlandic
                                 "ego", "wa", "dooda", "naamik",
                                 # batch 91: Palatine German (the Telugu "naa", my)
                                 "naa",
                                 # batch 35: Dari (Urdu "بلی", cat), Upper Sorbian (Hungarian "haj", hair), Nahuatl
                                 # (Spanish "amo"), Ossetian ("нӕ", also our)
                                 "بلی", "haj", "amo", "нӕ",
                                 # batch 36: Northern Sami (Finnish "juo", drinks), Sindhi (Arabic "ها"), Marshallese
                                 # (Estonian name "Aet"), Lakota (English "hiya"), Waray (Indonesian "diri", self)
                                 "juo", "ها", "aet", "hiyá", "diri",
                                 # batch 37: Kabyle (English "ih"), Minangkabau (Tagalog "iyo", yours)
                                 "ih", "iyo",
                                 # batch 38: Karachay-Balkar (Russian interjection "хо"), Konkani (Hindi "हय"), Komi
                                 # (the name "Абу"), Meadow Mari, Kalmyk
                                 "хо", "हय", "абу", "уке", "уга",
                                 # batches 39-40: Bhojpuri (Hindi "हँ", hm), Limburgish (the name "Jao"), Maithili
                                 # ("नहि अछि", is not), Crimean Tatar, Lower Sorbian (Czech "ně", them)
                                 "हँ", "jao", "नहि", "yoq", "ně",
                                 # batch 41: Rusyn (Ukrainian "гей", hey), Karakalpak (Tagalog "awa", mercy), Abkhaz,
                                 # Lezgian (short words)
                                 "гей", "awa", "мап", "ваъ",
                                 # batch 42: Dzongkha (the copula "is"), Syriac ("not" inside a sentence)
                                 "ཨིན", "ܠܐ",
                                 # batches 43-44: Tuvaluan (Italian "io", Japanese "ikai"), Balinese, Adyghe
                                 # (Kazakh "ары"), Hiri Motu, Niuean (a Japanese surname), Kumyk, Khakas
                                 # (Azerbaijani "чох"), Sranan Tongo
                                 "io", "ikai", "nggih", "ары", "oibe", "nakai", "ёкъ", "чох", "nôno",
                                 # batches 45-46: Kriol, Chhattisgarhi (Marathi "हवं"), Tshiluba, Yup'ik (romaji
                                 # "ii"), Banjar (Croatian "kada", Indonesian "ada"), Moksha (Kazakh "аш"), Acehnese
                                 # (a given name), Mohawk
                                 "yuwai", "हव", "eyowa", "ii-i", "kada ada", "аш", "hana", "iáh",
                                 # batches 47-48: Garo, Hopi, Cheyenne, Dungan (the Russian spelling of a Chinese
                                 # surname), Tlingit, Buginese, Bodo, Choctaw (a Japanese given name), Tamazight,
                                 # Iñupiaq
                                 "ong·a", "owí", "héehe'e", "ши", "qa'é", "tléik'", "tléik\u02bc", "de'gaga", "नङा",
                                 "keyu", "kiyo", "ⵓⵀⵓ", "naumi",
                                 # batches 49-50: Ligurian, Xitsonga (Tagalog "ina", mother), Seychellois Creole,
                                 # Rapa Nui (pinyin "ē"), Piedmontese, Yucatec Maya (English and Italian "ma'")
                                 "scì", "ina", "wi", "ʻē", "ē", "nò", "ma'",
                                 # batches 51-52: Tumbuka (a singer's name), Mingrelian, Wallisian, Tzotzil, Otomi
                                 # (a Japanese given name), Dogri, Marwari (a Hindi tag particle), Altai (Serbian
                                 # "јок"), Silesian
                                 "enya", "ქო", "ʻikai", "muʼyuk", "mu'yuk", "hina", "नेईं", "ना", "јок", "niy",
                                 # batches 53-54: Kabuverdianu (Portuguese "nau", a ship), Mi'kmaq, Kashmiri (Urdu
                                 # and Persian "آ", come), Makassarese ("iye"; "tena", a given name)
                                 "nau", "e'e", "آ", "iye", "tena",
                                 # batches 55-56: Runyankole, Jamaican Patois ("nuh", not), Bavarian (Slavic "na",
                                 # on), Mirandese (Vietnamese "nó", it), Latgalian (Māori "nā", by), Nogai
                                 "eego", "nuh", "na", "nó", "nā", "йок",
                                 # batches 57-58: Dakhini (Urdu "ہاؤ", how), Bundeli, Chuukese (English "ewer"),
                                 # Gamilaraay, Tausug, Magahi ("नञ", not), Nagpuri, Chukchi, Ainu (a given name),
                                 # Atayal, Luritja
                                 "ہاؤ", "हओ", "ewer", "yawu", "huun", "नञ", "नखे", "уйӈэ", "isam", "ungat", "wiya",
                                 # batches 59-60: Lenape, Blackfoot (Spanish "áa"), Comorian (the Polish name
                                 # "Ewa"), Chickasaw, Innu-aimun, Alutiiq, Arapaho (a Japanese given name)
                                 "kehela", "áa", "ewa", "ki'yo", "mauat", "qang'a", "hiiko",
                                 # batches 61-64 (see YES_NO)
                                 "ẽẽ", "ouè", "joo", "أيوه", "iyeh", "यिन", "ma'yuk", "ma'añ", "suli", "tekatsi",
                                 "nenni", "kwrwi", "koni", "ಇಲ್ಲೆ", "seng", "sonde", "sè",
                                 # batches 65-66 (see YES_NO): Japanese romaji "uwa", and the rest short words
                                 "uwa", "yuart", "arrangkwe", "суок", "антом", "атим", "яңгу",
                                 # batch 71 (see YES_NO): Ga, Krio, Hassaniya
                                 "hɛɛ", "nɔ", "lā",
                                 # batch 67 (see YES_NO)
                                 "nê", "نە", "дац",
                                 # batches 67-68 (see YES_NO): Laz "ho" (the English "ho", the Hinglish "ho", is),
                                 # Maranao "oway"
                                 "ho", "oway",
                                 # batch 69 (see YES_NO)
                                 "heu'u", "áang", "nda", "xwiʔ"})


# English words a reply read in gloss may keep around the glossed ones ("This is a resonancia magnética.")
PLAIN_ENGLISH = frozenset("""the a an this that these those it its is are was were be been of to in on at for with
and or but not no yes there here image picture scan study film view shows show showing seen visible present""".split())
# of them, the words that show a sentence is English: no other language the corpus holds writes them as words (not
# "a", "to", "in", "at", "no", and not the nouns a reply in another language borrows, "scan", "film")
ENGLISH_SIGNS = frozenset("the this that these those its are was were been for with and but not there here".split())

def foreign_yes_no(text: str) -> str | None:
    """"yes" or "no" when the reply opens with that answer word of another language ("Hayır, bu görüntü pelvisi
    göstermiyor.", "Nee, ..."), else None. What follows it is in that language, which the rules do not read: a word
    of the question met there ("pelvisi") says nothing of whether it is denied."""
    yn = _word_regexes()[4]
    m = _opening_word(text)
    if m is None or _other_sense(m.group(1), text[m.end():]):
        return None
    after = re.match(r"[\s,/]*(?:and|or|und|oder|et|ou|y|o|e|en|of|ve|veya|и|или|/)?[\s,/]*([^\W\d_]+)",
                     text[m.end():], re.IGNORECASE)
    if after is not None and (after.group(1).casefold() in yn or after.group(1).casefold() in ("yes", "no")):
        return None  # "Sí y no: ...", "Evet ve hayır": both
    return _sense(m.group(1), text[m.end():], yn)


_YES_NO_ALONE = re.compile(r"(?:(?<=[.!?;\n,>])|\A)([ \t]*)([^\s.!?;\n,<>:]{1,12})(?=[ \t]*(?:[.!?;\n<]|\Z))")
_YES_NO_AFTER_HEADING = re.compile(r"(?<=:)([ \t]*)([^\s.!?;\n,<>:]{1,12})(?=[ \t]*(?:[.!?;,\n<]|\Z))")


def _one_word(word: str, yn: dict[str, str]) -> str:
    """A yes/no word of another language standing alone, in English (a word that is one in two senses as written)."""
    w = word.casefold()
    return word if w in _BOTH_WAYS and w not in _UNLESS_SHOWN else yn.get(w, word)


def translate(text: str, yesno: bool = False) -> str:
    """The reply with the answer words of other languages in English ("No es rojo, es azul." → "No es red, es
    blue."; "是的，..." → "yes , ..."), for the rules to read; for yes/no items also a leading yes/no word. Words
    of other languages that are not answer words are left as they are."""
    lat, han, words, _, yn = _word_regexes()
    t = text
    if yesno:
        m = _opening_word(t)
        if m and not _other_sense(m.group(1), t[m.end():]):  # Spanish "si ..." = if
            t = t[:m.start(1)] + (_sense(m.group(1), t[m.end():], yn) or "") + " " + t[m.end(1):]
            # "Ja und nein", "Oui et non", "Sí o no": the second word too
            t = re.sub(r"(?i)\A(\W*(?:yes|no)\s*)(and|or|und|oder|et|ou|veya|ve|ya\s+da|y|of|o|en|e|или|и|/|,)(\s*)"
                       r"([^\W\d_]+)",
                       lambda x: x.group(1) + _JOINERS.get(x.group(2).casefold(), x.group(2)) + x.group(3)
                       + yn.get(x.group(4).casefold(), x.group(4)), t)
    if yesno:  # a sentence that is only a yes/no word of another language, anywhere: "胆总管扩张. 是."
        # batches 80-81: also in a tag ("<answer>いいえ</answer>"), and after a heading's colon, before a comma too
        # ("Trả lời: Có", "Kết luận: Không.", "SONUÇ: Evet, kırık mevcut.")
        t = _YES_NO_ALONE.sub(lambda m: m.group(1) + _one_word(m.group(2), yn), t)
        if ":" in t:
            t = _YES_NO_AFTER_HEADING.sub(lambda m: m.group(1) + _one_word(m.group(2), yn), t)
    if _CJK.search(t):
        t = han.sub(lambda m: " " + words[m.group(0).lower()] + " ", t)
    present = frozenset().union(*(lat.get(w, frozenset()) for w in {x.lower() for x in TOKEN.findall(t)}))
    if not present:
        return t
    pat = re.compile(r"(?<![\w\-'])(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+")
                                                    for w in sorted(present, key=len, reverse=True))
                     + r")(?![\w\-])", re.IGNORECASE)
    return pat.sub(lambda m: words[re.sub(r"\s+", " ", m.group(0).lower())], t)
