"""Rule 1: the reply's last explicit declaration of its answer ("The answer is B", "Answer: (C)",
"<answer>X</answer>", a JSON field, "X is the correct answer", the same in other languages).

Why a module: a declaration outranks everything a reply merely mentions, so it is read first and with care: the
letter is told from the article "A", conditional declarations ("B would be right only if ...") and someone else's
answer are skipped, and a letter followed by another option's text is a conflict.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from probe_ui.reading import lexicon
from probe_ui.reading.attribution import ATTRIBUTED, REPORTED_BEFORE, evaluation, next_verdict
from probe_ui.reading.cleaning import (
    SENTENCE_END,
    first_sentence,
    is_negated,
    norm,
    pattern,
    phrase_regex,
    spelled,
)
from probe_ui.reading.escapes import stated_escape_option
from probe_ui.reading.item import Item
from probe_ui.reading.letters import letter_text_conflict
from probe_ui.reading.options import yes_no_options
from probe_ui.reading.structured import ANSWER_KEYS
from probe_ui.reading.words import word_prefix

_ARTICLE_LETTERS = frozenset("AaIi")


_DECL_PREFIX = re.compile(
    r"(?:"
    # batch 102: "**Short answer:** the hydronephrosis is caused by an obstructing stone — **A. Nephrolithiasis**." (the
    # labelled line's sentence, then a dash and a letter with its option's words)
    r"\b(?:bottom\s+line|short\s+answer|answer\s+first)\W{0,3}:(?:(?!\(?\b(?-i:[A-Z])[.)][ \t])[^\n]){1,200}?"
    r"\s[-\u2013\u2014]"
    r"(?=[ \t*_]*\(?(?-i:[A-Z])[.)][ \t]+[^\W\d_])|"
    # held-out batch 171: a line, or a Markdown heading, whose label names what the question asks for and gives a
    # lettered option ("## Fracture location: **B. Right femur**", "## Heart size: **C. Severely enlarged**" over "###
    # Why not the other options"); not a rank, a first look or someone else's ("Less likely: A. ...", "## First
    # impression: **C. ...**", "## The physician's answer: **C. Metastasis**", a review of 171's rules), nor a
    # revision's label, which the revision rules read ("Revised answer: D. Normal study")
    # (the runs of spaces taken whole, so a line of 10,000 tabs is not scanned again from each of them)
    r"(?:\A|(?<=\n))[ \t]*(?![ \t])(?:\#{1,6}[ \t]+(?![ \t]))?"
    r"(?![^\n:]*\b(?:first|initial|preliminary|provisional|differential|"
    r"excluded|ruled|not|other|alternatives?|physician|doctor|colleague|your|their|suggested|original|earlier|"
    r"previous|less|least|unlikely|second|runner|also|possible|pitfall|mimic|revised|corrected|amended|updated|"
    r"answer)\b)(?=[^\n:]*\b(?:location|site|side|level|grade|type|phase|category|classification|finding|diagnosis|"
    r"size|stage|group|lobe|segment|cause|lesion|pattern|orientation|view|modality|count|sex|age|depth|structure|"
    r"abnormality|organ|region|area)\b)[*_]*[^\W\d_][^\n:]{0,40}:"
    r"(?=[ \t*_]*\(?(?-i:[A-Z])[.)][ \t]+[^\W\d_])|"
    # batch 27: a labelled line that gives the answer: "Bottom line: **D. Tuberculosis.**", "Answer first: A — ...",
    # "**Most likely:** C. Vascular lesion", "Short answer: no", "TL;DR: B" (the colon makes it a label; first, so
    # that "answer" alone does not take "Answer first")
    # batch 30: "Conclusion: C. Pulmonary edema." after numbered steps
    r"\b(?:bottom\s+line|answer\s+first|short\s+answer|tl;\s*dr|most\s+likely|likeliest|conclusion"
    # batch 88: "**Best fit: C. Seborrheic keratosis**", "**Most consistent with: A. Psoriasis**" heading a long reply
    r"|best\s+(?:fit|match)|most\s+(?:consistent|compatible)\s+with"
    # batch 118: "**Main finding: B. Pneumothorax**" over "### Ruling Out the Alternatives\n- **A. Cardiomegaly:** ..."
    r"|(?:main|primary|principal|key)\s+finding|(?:my|final|overall)\s+assessment"
    # held-out batch 147: "Reply to the question: B. Primary lung cancer" in a report's fields, with "Limitations:
    # ..." below it
    r"|(?:reply|answer|response)\s+to\s+(?:the|your)\s+question)\W{0,3}:|"
    # batch 94: "The answer I'd give is **B, none of the above**." (before "answer" alone)
    # batch 102: "That's the radiographic sign of a joint effusion, and it's the answer I'd give — **A**." (a dash,
    # then a capital letter)
    r"\banswer\s+I(?:'d|\s+would)\s+(?:give|pick|choose|go\s+with)(?:\s+is\b|[ \t]*(?:[-:\u2014\u2013])"
    r"(?=[ \t*_]*\(?(?-i:[A-Z])\b))|"
    # batch 119: "**Answer (tentative):** B. Non-communicating hydrocephalus." (how the answer is given, in brackets)
    r"\banswer(?:[ \t]*\((?:tentative|provisional|preliminary|best\s+guess|low\s+confidence)\))?"
    # (held-out batch 171: "The answer here has to be **A — ...**")
    r"(?:[ \t]+here(?=[ \t]+(?:is|has|must|would|should)\b))?"
    # held-out batch 167: "My answer, then, is adult." (a word set off by commas before the verb)
    r"(?:,[ \t]*(?:then|therefore|thus|so|again|finally|in\s+short|in\s+the\s+end)[ \t]*,(?=[ \t]*is\b))?"
    r"\s*(?:is|would\s+be|should\s+be|will\s+be|must\s+be|has\s+to\s+be|appears\s+to\s+be|"
    # batch 22: an arrow for the colon ("Analysis: ... Answer \u2192 C", "Answer -> C")
    r"seems\s+to\s+be|here\s+is|choice\s+is|option\s+is|letter\s+is)?\s*(?:[-=]>|[\u2192\u21d2\u27a1\u2794]|[:=]|"
    r"-(?=\s)|\bis\b)?"
    # batch 56: "so the only defensible option is A."
    r"|\b(?:correct|right|best|final|appropriate|likely|accurate|my|most\s+\w+|only\s+(?:defensible|reasonable|"
    r"possible|valid|tenable))\s+(?:option|choice|letter|response|"
    r"selection)\s*(?:is|would\s+be|should\s+be|will\s+be|must\s+be|:|=)"
    # "My first choice is B", "First choice: B (pneumonia).", "Top pick: B": a rank of preference (positions.py leaves
    # it as written where the sentence names an option), the first of it the answer
    r"|\b(?:(?:my|our)\s+)?(?:first|1st|top|number[\s-]one|preferred)\s+(?:choice|pick)\s*(?:is|would\s+be|:|=)"
    # held-out batch 147: "➡️ **Final pick: E. Silicosis**" under a ranked list and its limitations (not "My pick is
    # A" after a decline, batch 39's near miss, nor someone else's: "The textbook's final pick is A, but ...")
    r"|(?<!'s\s)(?<!s'\s)(?<!common\s)(?<!usual\s)(?<!typical\s)(?<!popular\s)(?<!consensus\s)"
    r"\bfinal\s+pick\s*(?:is|would\s+be|:|=)"
    # (held-out batch 171: "I'd have to choose **C — not a suitable question for the image**.")
    # (not under protest, "I'd have to pick B if forced", "If forced, I'd have to go with B": a review of 171's rules)
    r"|\bI(?:\s+would|\s+will|'d|'ll|\s+must|\s+should)?(?:(?<!forced,\sI'd)(?<!pressed,\sI'd)"
    r"\s+have\s+to(?![^.;!?\n]{0,60}\bif\s+(?:forced|pressed|pushed|I\s+must)\b))?\s+(?:choose|select|pick|go\s+with|"
    r"opt\s+for|say)\b"
    # held-out batch 172: "I can't find a fracture anywhere on this knee film, which leaves D: the question doesn't
    # suit the image." (a capital letter after it)
    r"|\b(?:which|that|this)\s+leaves\b(?:\s+(?:us\s+with|me\s+with|only|just))?"
    # (the letter alone before a mark: not "That leaves A, the left kidney, as the normal one", a hostile review)
    r"(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b[)*_]*[ \t]*(?:[:.;!\u2013\u2014]|\s-\s|\Z))"
    # batch 25: "I'd mark B."
    r"|\bI(?:\s+would|\s+will|'d|'ll)\s+(?:mark|tick|circle)\b(?=[ \t]*(?:option[ \t]+)?\(?[A-Z]\b)"
    # held-out batch 123: "The rash in this photo is best matched by **Psoriasis — option A**." over a review of the
    # other options ("- **Eczema (B):** ..."); "So the best fit is C, seborrheic keratosis." (not "would be best
    # explained by", nor "the closest fit", which owns it fits badly: a hostile review)
    r"|\b(?:is|are)\s+best\s+(?:matched|explained)\s+by\b|\bthe\s+best\s+(?:match|fit)\s+is\b"
    # batch 116: "So I'd read this as B, an aggravating pseudoaneurysm." (a capital letter after it)
    r"|\bI(?:\s+would|'d)\s+read\s+(?:this|it|the\s+(?:image|film|scan|study))\s+as\b"
    r"(?=[ \t]*(?:option[ \t]+)?\(?[A-Z]\b)"
    # held-out batch 171: "I read this as a **stable** pseudoaneurysm — option A." (the option's letter after a dash
    # or a comma that closes the sentence)
    r"|\bI(?:\s+would|'d)?\s+read\s+(?:this|it|the\s+(?:image|film|scan|study))\s+as\b[^.;!?\n]{1,80}?"
    r"(?:[,\u2014\u2013]|\s-)[ \t]*(?=option[ \t]+(?-i:[A-Z])\b[ \t*_]*(?:[.!;]|\Z|\n))"
    # batch 91: "..., so I'm fairly confident in D." (a capital letter after it: not "confident in my reading")
    r"|\bI(?:'m|\s+am)\s+(?:(?:fairly|quite|very|reasonably|pretty)\s+)?confident\s+in\b"
    r"(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b)"
    # batch 94: "Given ... these findings, the diagnosis is **B, proliferative diabetic retinopathy**" (a capital letter
    # after it, then a mark: not "the diagnosis is an abscess")
    r"|\b(?:the|my)\s+diagnosis\s+(?:is|would\s+be)\b(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b[)*_]*[ \t]*"
    r"(?:[,.;:!\u2014\u2013]|\s-\s|\Z))"
    # batch 102: "So, of the options given, the one that fits is **A — none of the above**." (a capital letter after
    # it, then a mark)
    r"|\bthe\s+(?:one|option|answer|choice|explanation|diagnosis)\s+that\s+(?:best\s+)?(?:fits|matches|applies)"
    r"(?:\s+best)?\s+is\b"
    r"(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b[)*_]*[ \t]*(?:[,.;:!\u2014\u2013]|\s-\s|\Z))"
    # batch 91: "I'd record A, mid trachea above the carina." (a capital letter after it: not "I'd record the CTR")
    r"|\bI(?:\s+would|\s+will|'d|'ll)\s+record\b(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b[)*_]*[ \t]*"
    r"(?:[,.;:!\u2014\u2013]|\s-\s|\Z))"
    # batch 66: "Going with **D** — a chest X-ray described as normal cannot contain a tension pneumothorax." (a
    # capital letter after it: not "going with the flow")
    r"|(?:\bI'm\s+|\bI\s+am\s+|(?<![\w\s])\s*|\A\s*)going\s+with\b(?=[ \t*_]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b)"
    # batch 40: "... which is free fluid — so I'd switch to A.": a change of answer to a letter (a capital, not "I'd
    # switch to a lateral view"); batch 39: "..., so I'd correct that to B, right femur."
    r"|\bI(?:\s+would|\s+will|'d|'ll)\s+(?:switch|change|correct)\s+(?:(?:it|that|this|my\s+answer)\s+)?to\b"
    r"(?=[ \t]*(?:option[ \t]+)?\(?(?-i:[A-Z])\b)"
    r"|<answer>"
    # batch 70: a line that opens with an arrow before a capital letter, after findings listed per option ("1. Left
    # femur: cortex intact ...\n2. Right femur: lucent line ...\n→ **B. Right femur**")
    r"|(?:\A|(?<=\n))[ \t]*(?:[\u2192\u21d2]|[-=]>)(?=[ \t*_]*\(?(?-i:[A-Z])\b)"
    r")",
    re.IGNORECASE,
)
# what a "whether" or an "if" opens is supposed, not declared ("I can't say whether it is an actinic keratosis")
_SUPPOSED_BEFORE = re.compile(r"(?i)\b(?:whether|if)[ \t]+\Z")
# "The most likely diagnosis is sarcoidosis" (its own pattern, run only on replies that say "diagnosis")
# (batch 100: "### Most likely cause: **D. Prostatic enlargement**", and "explanation")
# (held-out batch 168: "..., the unifying diagnosis is **A. Idiopathic intracranial hypertension**.")
_DECL_DIAGNOSIS = re.compile(r"\b(?:most\s+likely|likeliest|final|working|leading|unifying)\s+"
                             r"(?:diagnosis|cause|explanation)\s*"
                             r"(?:is|would\s+be|:)", re.IGNORECASE)
# the same declarations in the languages models drift into: "Respuesta: B", "La réponse correcte est B",
# "Die richtige Antwort ist A", "答案是 A", "正确答案：(A)", "选 B" (a pattern of its own: one alternation with the
# English cues would slow every reply down)
_DECL_FOREIGN = re.compile(
    # batch 98: Portuguese "A resposta mais provável é A", and its like
    r"\b(?:la\s+)?(?:respuesta|r[ée]ponse|risposta|resposta)(?:\s+(?:correcta|correcte|corretta|correta|"
    r"mais\s+prov[áa]vel|m[áa]s\s+probable|la\s+plus\s+probable|pi[ùu]\s+probabile))?"
    r"(?:\s*(?:es|est|è|é)\b)?(?:\s+(?:la|el|le|il)\b|\s+a\b(?=\s+[^\W\d_]{2,}))?\s*:?"
    r"|\b(?:die\s+)?(?:richtige\s+)?antwort(?:\s*(?:ist|lautet)\b)?\s*:?"
    # held-out batch 149: "正确答案应为 C" (the correct answer should be C; "should be" only after "correct"), not the
    # answer someone else gave ("医生给出的答案（A，粘连）", the physician's answer), another's view, a condition or an
    # earlier answer ("医生认为答案应为A", "如果..., 答案应为B", "原答案应为A")
    r"|(?<!认为)(?<!说)(?<!如果)(?<!原)(?<![\u201c「])(?:正确答案\s*(?:应该?|应当)?|(?<!给出的)(?<!医生的)(?<!医师的)"
    r"(?<!提出的)答案)\s*(?:是|为)?\s*:?|选择?"
    # batch 11: Dutch "Het antwoord is C", Turkish "Cevap: C" / "Doğru yanıt B", Russian "Ответ: C", Japanese
    # "答え：C" / "正解は B", Korean "정답: C" / "답: C"
    r"|\b(?:het\s+)?(?:juiste\s+)?antwoord(?:\s+is\b)?\s*:?|\b(?:doğru\s+)?(?:cevap|yanıt)(?:ım)?\b\s*:?"
    r"|\b(?:правильный\s+)?ответ\b(?:\s*[-\u2014])?\s*:?|答え\s*(?:は)?\s*:?|正解\s*(?:は)?\s*:?"
    r"|정?답\s*(?:은|는)?\s*:"
    # batch 12: Polish "Odpowiedź: C", Vietnamese "Đáp án: C"
    r"|\b(?:poprawna\s+)?odpowied[źz]\b\s*(?:to\b)?\s*:?|\bđáp\s+án\b(?:\s+(?:là|đúng))?\s*:?"
    # batch 13: Indonesian "Jawabannya adalah C", Swedish "Rätt svar är C", Czech "Správná odpověď je C", Greek
    # "Η σωστή απάντηση είναι η C", Hindi "सही उत्तर: C"
    r"|\bjawaban(?:nya)?(?:\s+yang\s+benar)?(?:\s+adalah)?\b\s*:?|\b(?:rätt\s+)?svar(?:et)?(?:\s+är)?\b\s*:?"
    r"|\b(?:správná\s+)?odpověď(?:\s+je)?\b\s*:?|(?:η\s+)?(?:σωστή\s+)?απάντηση(?:\s+είναι)?(?:\s+η)?\s*:?"
    r"|(?:सही\s+)?उत्तर\s*(?:है)?\s*:?"
    # batch 14: Arabic "الإجابة: C", "الإجابة الصحيحة هي C"
    r"|(?:ال)?(?:إجابة|اجابة|جواب)(?:\s+(?:ال)?صحيح[ةه]?)?(?:\s+(?:هي|هو))?\s*:?"
    # batch 15: Malay "Jawapan: B", "Jawapan yang betul ialah B"; Bengali "উত্তর: A"
    r"|\bjawapan(?:\s+yang\s+betul)?(?:\s+(?:ialah|adalah))?\b\s*:?|(?:সঠিক\s+)?উত্তর\s*(?:হল|হলো)?\s*:?"
    # batch 16: Serbian "Одговор: C" / "Tačan odgovor je C", Croatian "Točan odgovor: C", Tamil "பதில்: C"
    r"|\b(?:(?:тачан|исправан|tačan|točan|ispravan)\s+)?(?:одговор|odgovor)(?:\s+(?:је|je))?\b\s*:?"
    r"|(?:சரியான\s+)?பதில்\s*:?"
    # batches 27-28: Wolof "Tontu:", Guarani "Mbohovái:", Oromo "Deebii:", Kurmanji "Bersiv:", Chichewa "Yankho:",
    # Odia "ଉତ୍ତର:", Dhivehi "ޖަވާބު:", Pashto "ځواب:", Uyghur "جاۋاب:" (with their colon: most are also ordinary words)
    r"|\b(?:tontu|mbohovái|deebii|bersiv|yankho)\s*:|(?:ଉତ୍ତର|ޖަވާބު|ځواب|جاۋاب)\s*:"
    # held-out batch 171: Romanian "**Răspuns: A. Herpes zoster**", "Răspunsul corect este B"; Vietnamese "## Trả lời:
    # **D. ...**" (reply; with its colon)
    r"|\br[ăa]spuns(?:ul)?(?:\s+corect)?(?:\s+este)?\s*:?|\btr[ảa]\s+l[ờo]i\s*:",
    re.IGNORECASE,
)
# what "the most likely" may name that is not the answer: the option another is mistaken for (held-out batch 155: "A
# melanocytic nevus (D) is the most likely confusion", after "so my answer is B")
# (not "B is the best alternative", "the most likely alternative to malignancy", "A is the most likely differential":
# answers, two hostile reviews)
_NOT_THE_ANSWER = (r"(?![ \t]+(?:confusion|mimic|mimics|pitfall|distractor|trap|misread\w*|misdiagnos\w*|"
                   r"misinterpret\w*|look[\s\-]?alike|runner[\s\-]up|competitor|"
                   r"confounder|to\s+be\s+(?:confused|mistaken)|to\s+(?:confuse|mislead|mimic)|"
                   r"source\s+of\s+(?:confusion|error))\b)")
_DECL_POSTFIX = re.compile(
    r"(?:\b(?i:option|choice|letter|answer)\s+)?[(\[]?\b([A-Z])\b[)\]]?\s+"
    r"(?:(?:is|seems\s+to\s+be|appears\s+to\s+be|would\s+be|must\s+be)\s+(?:the\s+)?"
    r"(?:(?:correct|right|best|most\s+(?:likely|appropriate|accurate|plausible))" + _NOT_THE_ANSWER
    + r"|better\s+(?:answer|choice|option|fit))"
    r"|(?:fits|matches|suits)\s+(?:best|"
    r"most\s+closely)"
    # batch 84: "C is the answer.", "B is my final answer." (not "... the answer the physician gave")
    # (held-out batch 166: "D is the honest pick.", "D is my pick.")
    r"|(?:is|would\s+be)\s+(?:the|my)\s+(?:final\s+|honest\s+|safest\s+|safe\s+)?(?:answer|pick|choice)"
    r"(?![ \t]+(?:the|that|which|you|they|he|she|of|for\s+(?:a|an|the|someone|people|patients))\b)(?![ \t]*\?)"
    # batch 57: "..., so there's no hydrocephalus to explain. That makes D the right choice."
    r"|(?<=\b(?i:makes)\s[A-Z]\s)(?i:the\s+(?:right|correct|best)\s+(?:choice|answer|option)))\b"
)
# "X is right" said in doubt ("I don't think adhesions is right", "I'm not convinced A is correct"): rejected
# (not "There's no doubt B is correct", "Without doubt C is right", "I don't doubt that C is the answer")
_DOUBTED_BEFORE = re.compile(r"(?i)\b(?:(?:don't|do\s+not|doesn't|does\s+not|didn't|did\s+not)\s+(?:think|believe|feel)"
                             r"|not\s+(?:sure|convinced|certain)|(?<!\bno\s)(?<!\blittle\s)(?<!\bwithout\s)(?<!\bany\s)"
                             r"(?<!n't\s)(?<!\bnot\s)doubt)(?:\s+(?:that|whether|if))?[ \t]+"
                             # held-out batch 169: "I don't think the physician's answer of **right** is correct"
                             r"(?:the\s+(?:[\w\-]+'s\s+)?(?:answer|choice|pick|call|reading|suggestion)\s+(?:of\s+)?"
                             r"[\"'*_]*)?\Z")
# ... unless the sentence goes on to take it after all ("I'm not sure if C is right, but it fits best.")
_TAKEN_AFTER_ALL = re.compile(r"(?i)[^.!?\n]*?,?[ \t]+but\b")
# choice items only: "it is B", "it's (B)", "I think B" (the target reader rejects "it is a fracture"); these
# count only when they name a valid option
_DECL_CHOICE_ONLY = re.compile(
    r"(?:\b(?:it|this)\s+(?:is|'s|would\s+be|must\s+be|should\s+be)|\bit's|\bI\s+(?:think|believe)(?:\s+(?:it\s+is|"
    r"it's|that\s+it\s+is|that\s+it's))?|\b(?:looks?|seems?|appears?)\s+(?:like|to\s+be))(?=\s)",
    re.IGNORECASE,
)
# batch 49: "It doesn't look like a basal cell carcinoma to me", "this does not seem to be X", "it never appears to
# be X": a "looks like" cue denied just before it declares nothing
_LOOK_DENIED = re.compile(r"(?i)(?:n['\u2019]t|\bnot|\bnever)(?:\s+(?:really|quite|exactly|actually))?\s+$")
# a sentence whose subject is what is to be excluded, closed by "this is X" or "it is X" ("The one diagnosis that must
# always be excluded before settling on this is X"): X is no answer (held-out batch 129). Only where the subject runs
# to "this is" without a break (not "The answer after thinking about it is X", "... the feature you'd use to exclude
# impetigo is a dermatomal band, and that band is plainly here, so this is herpes zoster": two hostile reviews)
_TO_BE_EXCLUDED = re.compile(r"(?i)\b(?:diagnosis|diagnoses|one|thing|condition|entity|cause|possibility)\s+"
                             r"(?:(?:that|which)\s+(?:(?:we|you|I)\s+)?(?:must|should|needs?\s+to|has\s+to|have\s+to)\s+"
                             r"(?:always\s+|first\s+|still\s+|also\s+)?(?:be\s+(?:excluded|ruled\s+out)|exclude|rule\s+out)"
                             r"|to\s+(?:exclude|rule\s+out))\b[^.!?;:,\n\u2013\u2014]*$")
# what such a cue says of the options themselves, not of the image: "The options seem to be in an unusual order"
_OPTIONS_AS_SUBJECT = re.compile(r"(?i)\b(?:the|these|those|its|your)\s+(?:answer\s+)?(?:options|choices|"
                                 r"alternatives|labels|answers|question)\s+(?:all\s+)?$")
# hedged ones, likewise weak: "my best guess is A", "Leaning towards B", and "Probably B." / "Most likely A." when
# they open a sentence
_DECL_HEDGE = re.compile(
    r"(?:most\s+|)(?:probably|likely)(?=\s)|(?:my\s+|best\s+)*guess\s*(?:is|would\s+be|:)(?=\s)"
    r"|lean(?:ing)?\s+(?:towards?|to)(?=\s)"
    r"|\bI(?:'d|\s+would|'ll|\s+will)?\s+guess(?=\s)",  # "..., so I'd guess B."
    re.IGNORECASE,
)
# batches 112-113: what is left once the others are set aside, or what the finding is put down to: "What remains is B,
# pneumothorax, which ...", "..., so I'd put the hydronephrosis down to A, nephrolithiasis."
_WHAT_IS_LEFT = (r"what(?:'s|\s+is)\s+left\s+is|what\s+remains\s+is|"
                 r"put\s+(?:it|this|that|the\s+[\w\-]+(?:\s+[\w\-]+)?)\s+down\s+to")
# "..., so B." / "Therefore (C)." / "hence the answer is A": a conclusion that ends its sentence with a letter
_DECL_CONCLUSION = re.compile(
    r"\b(?i:so|thus|hence|therefore|leaves(?:\s+(?:us\s+with|only))?|leaving(?:\s+only)?|" + _WHAT_IS_LEFT + r")\b"
    r"[ \t]*,?[ \t]*"
    r"(?:(?i:the\s+answer\s+is|it(?:'s|\s+is)|option|choice)[ \t]+)?(?:\*\*|__)?"
    r"([(\[])?([A-Z])[)\]]?(?:\*\*|__)?(?=[ \t]*(?:[.!;\n]|\Z))"
)
# "..., so D, IPMN." / "Therefore B - the sac has grown.": the same conclusion with the letter's option named or
# explained after it (batch 10); read when what follows names no other option or letter
# batch 67: "The exposure history and the single expanding ring point to A, erythema migrans." (what the findings point
# to, the letter with its option named); batch 88: "That leaves **C, 1 to 3 cm**." (what is left once the others are set
# aside, in bold)
_DECL_CONCLUSION_NAMED = re.compile(
    r"\b(?i:so|thus|hence|therefore|points?[ \t]+to|leaves(?:\s+(?:us\s+with|only))?|leaving(?:\s+only)?|"
    # held-out batch 126: "The scale at the edge tips it to B, tinea corporis." (what the findings tip the choice to)
    r"(?:tips|tilts|swings)[ \t]+(?:it|the[ \t]+balance|things)[ \t]+(?:to|towards?)|"
    + _WHAT_IS_LEFT + r")\b"
    r"[ \t]*,?[ \t]*(?:(?i:the\s+answer\s+is|it(?:'s|\s+is)|option|choice)[ \t]+)?(?:\*\*|__)?"
    r"([(\[])?([A-Z])[)\]]?(?=[ \t]*[,:\-\u2013\u2014][ \t]*[^\W_])([^.!;?\n]{1,100})(?=[.!;\n]|\Z)"
)
# a verb after the letter's named option: the letter is the subject of a clause ("So A, the left kidney, is spared",
# "That leaves C, over 3 cm, which doesn't fit either"), not a conclusion, unless the clause affirms it
_CLAUSE_VERB = frozenset("is are was were would will won't does doesn't do don't isn't wasn't can cannot can't could "
                         "may might must should which that fits fit seems seem looks look has had makes make "
                         "remains stays belongs".split())
_AFFIRMED_CLAUSE = re.compile(r"(?i)\A[ \t]*(?:(?:is|remains|would[ \t]+be|seems|looks)[ \t]+(?:the[ \t]+)?(?:correct|"
                              r"right|answer|best|most[ \t]+likely|likeliest|diagnosis|one)\b"
                              # hostile review of 2363cef: "So C, hepatocellular carcinoma, fits best", "That leaves C,
                              # gallstone ileus, which fits the pneumobilia", "So A, surgery, is what I would do"
                              r"|fits[ \t]+best\b|best[ \t]+fits\b|is[ \t]+favou?red\b"
                              r"|(?:which|that)[ \t]+(?:fits|explains|matches|accounts[ \t]+for)\b"
                              r"|is[ \t]+what[ \t]+I(?:'d|[ \t]+would)[ \t]+(?:do|choose|pick|recommend|"
                              r"go[ \t]+with)\b)")


def subject_of_clause(rest: str, lab: str, item: Item) -> bool:
    """Whether a letter and its option's own words are the subject of a clause that follows ("So A, the left kidney,
    is spared", "That leaves C, over 3 cm, which doesn't fit either": hostile review of batch 91's rules): what the
    clause says of the option decides, and only "is correct", "is the answer" and their like affirm it."""
    own = item.option_words(lab) | {"the", "a", "an"}
    for m in re.finditer(r"[^\W_]+(?:'[^\W_]+)?", rest):
        word = m.group(0).casefold()
        if word in own:
            continue
        return word in _CLAUSE_VERB and _AFFIRMED_CLAUSE.match(rest[m.start():]) is None
    return False


def _only_its_text(rest: str, lab: str, item: Item) -> bool:
    """Whether what follows a letter is its option's own words, at most one word more ("A — erythema migrans")."""
    own = item.option_words(lab)
    return len([w for w in re.findall(r"[^\W_]+", norm(rest)) if w not in own]) <= 1


_ANOTHER_LETTER = re.compile(r"(?<![\w'])[(\[]?[A-Z][)\]]?(?![\w'])")
# the answer given is "N/A" (masked to "not applicable" before the rules run) or "NA"
_NA_DECLARED = re.compile(r"(?:\A[\W_]*|\b(?i:answer)\b(?:\s+is)?[\W_]{0,8})(?:(?i:not\s+applicable)|NA)(?![\w/])")
_CONCLUSION_WORDS = ("so", "thus", "hence", "therefore", "leav", "point", "left", "remain", "down", "tips", "tilts",
                     "swings")
# the clause before "point(s) to", denied ("Nothing here points to A", "None of this points to B", "doesn't point to")
_POINTS_DENIED = re.compile(r"(?i)(?:\b(?:no|not|nothing|none|neither|nor|never)\b|n't)[^.;:!?\n]*\Z")
_FOREIGN_WORDS = ("respuesta", "ponse", "risposta", "resposta", "antwort", "答案", "选", "antwoord", "cevap", "yanıt",
                  "ответ", "答え", "正解", "답", "odpowied", "đáp",
                  # batch 13
                  "jawaban", "svar", "odpověď", "απάντηση", "उत्तर",
                  # batch 14
                  "إجابة", "اجابة", "جواب",
                  # batch 15 (its patterns above were never tried without these), batch 16
                  "jawapan", "উত্তর", "одговор", "odgovor", "பதில்",
                  # batches 27-28
                  "tontu", "mbohovái", "deebii", "bersiv", "yankho", "ଉତ୍ତର", "ޖަވާބު", "ځواب", "جاۋاب",
                  # held-out batch 171 (Romanian), a review of its rules (Vietnamese "trả lời")
                  "spuns", "trả lời")
# the words one of whose presence lets a reply hold a JSON answer field (:data:`_JSON_ANSWER`)
_JSON_WORDS = (*ANSWER_KEYS, "final", "letter")
_ANSWER_TAG = re.compile(r"<answer>\s*([^<]{0,500}?)\s*</answer>", re.IGNORECASE)
# a JSON (or JSON-like) answer field: {"answer": "B"}, {'choice': '(C)'}, "final_answer": "yes"; batch 80: a review's
# '"agree": false, "correct_answer": "A"' (beside "physician_answer": "B", someone else's), '"final": "A"', a tool
# call's '{"letter": "C"}'
_JSON_ANSWER = re.compile(
    r"""["']?\b(?:final[_ ]?answer|answer|choice|option|prediction|selected[_ ]?option|selection|label|"""
    r"""correct(?:ed)?[_ ]answer|final|letter|"""
    # '{"correct_answer": "B", "model_answer": "C"}': the model's own answer field is heard too (the last field decides)
    r"""(?:my|model|own|your)[_ ]answer)["']?"""
    r"""[ \t]*:[ \t]*["']([^"'\n]{1,300})["']""",
    re.IGNORECASE,
)


# a declaration's sentence that ends in a question mark
_ASKED_AFTER = re.compile(r"[^.!;\n]{0,80}\?")


def _field_name(found: str) -> str:
    """The name of a JSON answer field as :data:`_JSON_ANSWER` found it ('"label": "blue dot"' gives "label")."""
    return re.sub(r"[^a-z]+", "_", found.split(":", 1)[0].casefold()).strip("_")


# a declaration whose verb is conditional ("would be", "could be") inside an "if"/"unless" sentence is a
# hypothesis, not an answer: "B would be correct only if the sac had grown", "If it were stable, the answer would
# be A". "If I had to choose, I would say B" is an answer.
_MODAL = re.compile(r"(?i)\b(?:would|could|might)\b")
_IF_EXEMPT = r"(?!\s+(?:I|we|you)\s+(?:had|have|must|were|was)\s+to\b)(?!\s+(?:forced|pressed|asked|required)\b)"
_IF_BEFORE = re.compile(r"(?i)\b(?:if|unless)\b" + _IF_EXEMPT)
_IF_AFTER = re.compile(r"(?i)\A[^.!?;\n]{0,60}?\b(?:(?:only\s+)?if|unless)\b" + _IF_EXEMPT)


@dataclass
class Found:
    label: str | None = None
    out_of_range: bool = False
    kind: str = ""  # the declaration's kind ("read", "tag", "weak", "post", "na", "foreign"), for rule 1's callers
    hypotheses: tuple[tuple[int, int], ...] = ()  # spans of conditional declarations skipped (rule 1)
    conflict: bool = False  # a letter followed by another option's text ("A: Pleural effusion" when A is not)
    rejected: tuple[tuple[int, int], ...] = ()  # spans naming someone else's answer that the reply rejects
    at: int = -1  # where the declaration starts (what precedes it is the reply's body)


_CONNECTIVES = frozenset(
    "because since as which with and for given so due that this while whereas but or showing shows indicating "
    "representing corresponding based".split()
)
_ADVERBS = re.compile(
    r"(?i)^(?:(?:most\s+)?(?:clearly|likely|probably|definitely|certainly|therefore|thus|hence|indeed|simply|"
    r"actually|then|still|now|also)\b[\s,]*)+"
)


# a number that counts or measures something, after an article ("a 3 mm papule", "a 12-lead ECG", "a 12 year old")
_COUNT_OR_SIZE = re.compile(r"[ \t]+\d+(?:[.,]\d+)?(?:[ \t]*(?:mm|cm|m|%|-|x|×)|[ \t]+(?!or\b|and\b|to\b)[A-Za-z]{2,})")


def _letter_ok(ch: str, opened: bool, rest: str) -> bool:
    """Whether a single letter right after a declaration is an option letter and not a word.

    "A"/"I" (any case) followed by an ordinary word on the same line are the article/pronoun ("The answer is a
    fracture"); other lowercase letters followed by an ordinary word are not letters either ("answer is b
    something" is too unusual to trust); uppercase B-Z followed by a word are ("The answer is B showing ...").
    A connective ("because", "since", "as", ...), punctuation or a line break after the letter always leaves it
    a letter ("Answer: A\n\nExplanation: ...").
    """
    if opened:
        return True
    if ch in _ARTICLE_LETTERS and _COUNT_OR_SIZE.match(rest):
        # held-out batch 175 (blind): "it's a 3 mm dome-shaped papule", "It's a 12 year old's lesion" (an article
        # before a number that counts or measures something; not "a 3 or 4")
        return False
    w = re.match(r"[ \t]+([A-Za-z]+)", rest)
    if not w:
        return True
    if w.group(1).lower() in _CONNECTIVES:
        return True
    return ch.isupper() and ch not in _ARTICLE_LETTERS


def foreign_cue(text: str) -> bool:
    """Whether the reply names its answer after another language's word for it ("Respuesta:", "Die Antwort ist",
    "答案是"): it is written in that language."""
    low = text.lower()
    return any(w in low for w in _FOREIGN_WORDS) and _DECL_FOREIGN.search(text) is not None


# a tick or a cross and "agree" or "disagree" before the answer after a cue, up to its dash or colon
_VERDICT_FIRST = re.compile(r"(?i)\A(?:[\u2705\u2714\u2611\u274c\u2716\u2717\u2718\ufe0f][ \t*_]*)?(?:I[ \t]+)?"
                            r"(?:agree|disagree)[ \t*_]*(?:[\u2013\u2014:]|\s-\s)[ \t*_]*(?=\(?[A-Z]\b)")


# a letter the verdict goes on to judge ("B is not supported", "B was my first thought"), not the reply's answer
_LETTER_JUDGED = re.compile(r"\(?[A-Z]\)?[ \t*_]+(?:is|was|isn't|wasn't|would|does|doesn't|seems|can't|cannot|"
                            r"looks|might|may|could)\b")


#: one-word answers that may judge someone else's answer rather than answer the question
_JUDGING_WORDS = frozenset({"correct", "incorrect", "confirmed"})


# a lower-case "a" that closes the reply right after a cue, and the cue words that name an answer ("the answer is a",
# "option a"): held-out batch 162's review, "the plaques over the elbows look like a" read A surely before
_CUT_ARTICLE = re.compile(r"a(?:\s|\.|\u2026)*")
# (and the verbs of choosing: "I'd go with a", "I pick a", a hostile review)
_NAMES_ANSWER = re.compile(r"(?i)\b(?:answers?|options?|choices?|letters?|choose|chose|chosen|pick(?:ed)?|"
                           r"select(?:ed)?|go(?:ing)?\s+with|opt(?:ing)?\s+for|mark|tick|circle)\b")


def _cut_article(text: str, pos: int, end: int) -> bool:
    """Whether the cue at ``pos:end`` is followed only by a lower-case "a" (after adverbs: "most likely a") that
    closes the reply, and names no answer itself."""
    return _CUT_ARTICLE.fullmatch(_ADVERBS.sub("", text[end:].lstrip(" \t*_"))) is not None \
        and not _NAMES_ANSWER.search(text, pos, end)


def _read_target(t: str, item: Item, foreign: bool = False) -> Found:
    """Read the answer named at the start of ``t`` (the text after a declaration keyword). After another language's
    cue (``foreign``: "Respuesta:", "Die Antwort ist") a yes or no is that language's: read in English."""
    t = t.lstrip(" \t\n\"'`*_:=-")
    # batch 118: "**My assessment:** ✅ **Agree — B. Pleural effusion**", "**My answer:** ❌ **Disagree — A. Mid
    # trachea**": a verdict on the suggested answer, then the reply's own
    verdict = _VERDICT_FIRST.match(t)
    if verdict is not None:
        t = t[verdict.end():]
        if _LETTER_JUDGED.match(t):
            return Found()  # a hostile review of 9a5c55c: "❌ Disagree — B is not supported. ..." (B rejected)
    if foreign and (item.kind == "yesno" or yes_no_options(item) is not None):
        # "Respuesta: sí.", "La réponse est oui.", "Ответ: да.", "答案：是。"; "Respuesta: sí y no." is both. A yes or
        # no run on into the words after it is not the answer but a negation of them, in a language the rules do not
        # read: "Respuesta: no se puede determinar." (it cannot be determined), "Risposta: non è possibile dirlo."
        t = lexicon.translate(t, yesno=True)
        if re.match(r"(?i)(?:yes|no)[ \t]+(?!(?:and|or|y|o|e|et|ou|und|oder|и|или)\b)[^\W\d_]", t):
            return Found()
    if item.kind == "yesno" and item.openers:
        # batch 80: an idiom declared ("Answer: Not at all. The cortices are intact.", "<answer>Not in the
        # slightest</answer>") is read as it is at the reply's opening, where it stands alone up to a mark
        low = t.casefold()
        for idiom, said in item.openers:
            if " " in idiom and low.startswith(idiom) and re.match(r"[ \t]*(?:[.!,;:\u2013\u2014\-]|\Z)",
                                                                   t[len(idiom):]):
                return Found(said)
            # held-out batch 149: "**Answer:** Indeed.\n\n**Image Analysis:** ...": a one-word idiom alone on its
            # line (not "correct" or "incorrect", which may judge someone else's answer)
            if " " not in idiom and idiom not in _JUDGING_WORDS and low.startswith(idiom) \
                    and re.match(r"[ \t*_]*[.!]?[ \t*_]*(?:\n|\Z)", t[len(idiom):]):
                return Found(said)
    if re.match(r"(?i)not\b|n't\b", t):
        return Found()
    t = _ADVERBS.sub("", t)
    ordinal = _ORDINAL.match(t)
    if item.kind == "choice" and ordinal is not None:  # "the second option", "the last one"
        labels = [lb for _, lb in item.option_map] or list(item.letters.values())
        word = (ordinal.group(1) or ordinal.group(2)).lower()
        if word in ("former", "latter"):  # only of two
            i = (0 if word == "former" else 1) if len(labels) == 2 else -1
        else:
            i = len(labels) - 1 if word == "last" else _ORDINALS.index(word)
        return Found(labels[i] if 0 <= i < len(labels) else None)
    t = re.sub(r"(?i)^(?:the\s+)?(?:option|choice|letter)\s*:?\s*", "", t).lstrip(" \t\"'`*_")
    if item.kind == "choice":
        m = re.match(r"([(\[])?([A-Za-z])([)\]])?(?![A-Za-z0-9'\-])(?!\.[A-Za-z])", t)
        if m:
            ch, opened = m.group(2), bool(m.group(1) or m.group(3))
            rest = t[m.end():]
            if _letter_ok(ch, opened, rest):
                lab = item.letter(ch)
                if lab is not None and re.match(r"[ \t]*(?:\?|\([ \t]*\?[ \t]*\))", rest):
                    return Found(None)  # '{"final": "B?"}', "Answer: C? or D", "Answer: C (?)": asked, not declared
                if lab is not None:
                    if letter_text_conflict(lab, rest, item) or _other_follows(rest, lab, item) or _other_follows(
                            _past_own_text(rest, lab, item), lab, item):
                        return Found(None, conflict=True)  # "A: <B's text>", "A/B", "A or C", "C. <C's text> or A"
                    return Found(lab)
                if ch.isupper() or opened:
                    opt = _option_prefix(rest.lstrip(" .:)"), item)
                    return Found(opt, out_of_range=opt is None)
        lab = _option_prefix(t, item)
        if lab is None and _ARTICLE.match(t):  # "it's the arterial phase": the option's text after an article
            t = t[_ARTICLE.match(t).end():]  # type: ignore[union-attr]
            lab = _option_prefix(t, item)
        if lab is not None:
            opt = next(o for o, lb in item.option_map if lb == lab)
            end = re.match(spelled(opt), t, re.IGNORECASE)
            if end is not None and _other_follows(t[end.end():], lab, item):
                return Found(None, conflict=True)  # "3 or 4", "Yes (A)" when A is "No"
            return Found(lab)
        return Found(stated_escape_option(first_sentence(t), item))
    if item.kind == "label" and t[:4].casefold() == "the ":
        # batch 80: "<answer>the blue one</answer>": the label after its article, "one" or what it marks after it
        t = re.sub(r"(?i)\bthe[ \t]+([^\W\d_]+)[ \t]+(?:one|dot|marker|circle|point)\b", r"\1", t[:300])
    lab = word_prefix(t, item)
    if lab is not None and re.match(r"[^.;!\n]{0,40}?\?", t):
        return Found(None)  # "<answer>blue?</answer>", "Answer: the blue one? No, the red one.": asked, not declared
    if lab is not None and _other_word_follows(t, lab, item):
        return Found(None, conflict=True)  # batch 17: "The answer is red or green.", "Answer: yes/no"
    return Found(lab)


def _other_word_follows(t: str, lab: str, item: Item) -> bool:
    """Yes/no and label items: whether the declared word is joined to another label's word ("red or green", "yes /
    no"; after a comma or "and" only a word that ends the clause: "red, green.", not "yes, and no fracture is
    seen")."""
    suffix = item.kind == "label"
    for word, own in item.words:
        m = phrase_regex(word, suffix=suffix).match(t) if own == lab else None
        if m is None:
            continue
        alt = _ALTERNATIVE.match(t, m.end())
        if alt is None:
            continue
        rest = t[alt.end():]
        loose = re.match(r"[ \t]*(?:,|and\b)", t[m.end():]) is not None
        for other_word, other in item.words:
            n = phrase_regex(other_word, suffix=suffix).match(rest) if other != lab else None
            if n is not None and (not loose or re.match(r"[ \t]*(?:[.;!?,)\n]|\Z|or\b)", rest[n.end():])):
                return True
    return False


_ARTICLE = re.compile(r"(?i)(?:the|an?)[ \t]+(?=[^\W\d_])")
# "the second option", "the last one", "the former": an option named by its place in the list
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_ORDINAL = re.compile(r"(?i)(?:the\s+)?(first|second|third|fourth|fifth|sixth|last|former|latter)\s+"
                      r"(?:option|choice|one|"
                      r"answer|alternative)\b|(?:the\s+)?(former|latter)\b")
# what may join two answers: "A/B", "3 or 4", "A vs. C", "A, B", "A and B"
# batch 28: another language's "or" as well ("答案：C. Pulmonary edema 或 A. Pneumonia", "C o A", "C ou A", "C oder A")
_ALTERNATIVE = re.compile(r"(?i)[ \t]*(?:/|,|\bor\b|\band\b|\bvs\.?|\bversus\b|&|\b(?:o|ou|oder|или|atau|hoặc|veya)\b|"
                          r"或者|或|还是|還是|または|أو)[ \t]*(?:(?:option|choice)[ \t]+)?")


def _past_own_text(rest: str, lab: str, item: Item) -> str:
    """What follows a declared letter's own option text ("C. Pulmonary edema or A. Pneumonia": " or A. Pneumonia"),
    or "" when its text does not follow it."""
    opt = next((o for o, lb in item.option_map if lb == lab), None)
    if not opt:
        return ""
    m = pattern(r"[ \t.:)\-\u2013\u2014]*" + spelled(opt) + r"(?![\w\-])",
                re.IGNORECASE).match(rest)
    return rest[m.end():] if m is not None else ""


def _other_follows(rest: str, lab: str, item: Item) -> bool:
    """Whether what follows a declared answer names another one: an alternative ("A/B", "3 or 4") or a
    bracketed letter of another option ("Yes (A)" when A is "No"), or after the answer's own bracketed letter, "and"
    or "or" and another option with its bracketed letter (held-out batch 163: "**Answer:** Cardiomegaly (A) and
    pleural effusion (C) are both present"; not one set aside: "..., pleural effusion (C) is not seen")."""
    own = re.match(r"[ \t]*[(\[]" + re.escape(lab) + r"[)\]]", rest)
    if own is not None:
        return _other_bracketed(rest[own.end():], lab, item)
    m = _ALTERNATIVE.match(rest)
    if m is None:
        bracket = re.match(r"[ \t]*[(\[]([A-Z])[)\]]", rest)
        return bracket is not None and item.letter(bracket.group(1)) not in (None, lab)
    other = rest[m.end():]
    letter = re.match(r"[(\[]?([A-Z])[)\]]?(?![\w'])", other)
    if letter is not None and item.letter(letter.group(1)) not in (None, lab):
        return True
    found = _option_prefix(other, item)
    if found is None and re.search(r"(?i)\b(?:vs|versus|or)\b", m.group(0)):
        # held-out batch 155: "**Answer:** Dermatofibroma versus a hypopigmented melanocytic nevus; ...": another
        # option's whole text further on in the clause that weighs the two
        # (up to where it sets an option aside: "Adhesions or scarring rather than gallstone ileus", "Adhesions or
        # bands - gallstone ileus is unlikely": a hostile review)
        clause = norm(re.split(r"(?i)[.;:,!?()\n]|\s[\-\u2013\u2014]\s|[\u2013\u2014]|\b(?:rather\s+than|"
                               r"instead\s+of|not|over|unlikely|less\s+likely|excluded|ruled\s+out)\b", other,
                               maxsplit=1)[0])
        found = next((lb for opt, lb in item.option_map if lb != lab and re.search(
            r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])", clause)), None)
    return found is not None and found != lab


# (after a comma too: "Answer: 4 (D), and 3 (C) if the upper left is a second molar.", a hostile review of held-out
# batches 163-166)
_JOINED = re.compile(r"(?i)[ \t]*,?[ \t]*(?:\band\b|\bor\b|&|/)[ \t]*(?:(?:option|choice)[ \t]+)?")
_OTHER_BRACKETED = re.compile(r"[^.;:,!?()\[\]\n]{0,60}?[(\[]([A-Z])[)\]]([^.;!?\n]{0,80})")
_SET_ASIDE_AFTER = re.compile(r"(?i)\b(?:not|no|unlikely|less\s+likely|excluded|ruled\s+out|absent)\b")


# an article and a size or side before an option's text ("a small pleural effusion", "right pleural effusion")
_GRADED = re.compile(r"(?i)\A[ \t]*(?:an?[ \t]+)?(?:" + "|".join(lexicon.GRADE_WORDS) + r")[ \t]+")


def _other_bracketed(rest: str, lab: str, item: Item) -> bool:
    """Whether ``rest`` (after a declared answer's own bracketed letter) joins another option, by its bracketed letter
    or its text, with "and"/"or" ("... (A) and pleural effusion (C) are both present", "... (A) and pleural
    effusion."), not one it sets aside ("... (A) and pleural effusion (C) is not seen", "... (A) and pleural effusion
    is excluded")."""
    joined = _JOINED.match(rest)
    if joined is None:
        return False
    after = rest[joined.end():]
    bracketed = _OTHER_BRACKETED.match(after)
    if bracketed is not None:
        other, tail = item.letter(bracketed.group(1)), bracketed.group(2)
    elif re.match(r"[ \t]*\d", after):
        return False  # "Answer: 4 (D) and 2 are impacted.": a count of something else
    else:  # "Answer: Cardiomegaly (A) and pleural effusion.": the other option's text (a size or side before it: "...
        # (B) and small pleural effusion.", a hostile review of held-out batches 163-166)
        other = _option_prefix(after, item) or _option_prefix(_GRADED.sub("", after, count=1), item)
        tail = re.split(r"[.;!?\n]", after, maxsplit=1)[0]
    return other not in (None, lab) and not _SET_ASIDE_AFTER.search(tail)


def _option_prefix(t: str, item: Item) -> str | None:
    """The option whose text the string starts with (longest wins), as its label."""
    n = norm(t.split("\n", 1)[0])
    best: tuple[int, str] | None = None
    for opt, lab in item.option_map:
        if n == opt or (n.startswith(opt) and not (n[len(opt):len(opt) + 1].isalnum())):
            if best is None or len(opt) > best[0]:
                best = (len(opt), lab)
    return best[1] if best else None


_MAX_DECLARATIONS = 200  # the last ones read: bounds the work on a degenerate reply that repeats a cue
_OPTION_POSTFIX = (r"(?![\w\-])[ \t]+(?:is|seems\s+to\s+be|appears\s+to\s+be|would\s+be|remains)[ \t]+(?:the\s+)?"
                   r"(?:(?:most\s+likely|likeliest|most\s+probable|correct|right|best)" + _NOT_THE_ANSWER
                   # batch 31: "... **B. Primary lung cancer** is the better answer."
                   + r"|better\s+(?:answer|choice|option|fit))\b"
                   # batch 92: not how to look next ("An MRI of both hips would be the right way to look for occult
                   # disease"; "Surgery would be the right approach" still declares)
                   r"(?![ \t]+way[ \t]+to\b)")


_SUPERLATIVES = ("closest deepest nearest furthest farthest shallowest largest smallest brightest darkest highest "
                 "lowest").split()
# superlatives that mean the same thing: a question about the greatest depth is answered by "deepest", never by
# "shallowest" ("The green one is the deepest, red is the shallowest." is green)
_SUPERLATIVE_SENSES = (
    frozenset("deepest greatest furthest farthest".split()), frozenset("closest nearest shallowest".split()),
    frozenset("largest biggest greatest".split()), frozenset(["smallest"]), frozenset(["brightest"]),
    frozenset(["darkest"]), frozenset(["highest"]), frozenset(["lowest"]),
)


_COMPARATIVES = {"closer": "closest", "nearer": "nearest", "deeper": "deepest", "further": "furthest",
                 "farther": "farthest", "shallower": "shallowest", "larger": "largest", "bigger": "biggest",
                 "smaller": "smallest", "brighter": "brightest", "darker": "darkest", "higher": "highest",
                 "lower": "lowest"}


@functools.lru_cache(maxsize=1024)
def _label_postfix(item: Item) -> re.Pattern[str]:
    """Label items: "<label> [dot] is the <superlative>" ("Green is the closest; red and blue are deeper"),
    with the question's own superlatives when it has any, and "is correct" / "is the answer"."""
    q = item.question.casefold()
    asked = [w for w in re.findall(r"[a-z]+est\b", q) if w not in ("least", "interest", "test")]
    # batch 11: a question that asks with a comparative ("Which dot is closer to the camera?") is answered by it
    # ("Blue is closer."), and by the superlative of the same sense
    asked += [_COMPARATIVES[w] for w in re.findall(r"[a-z]+er\b", q) if w in _COMPARATIVES]
    sup = sorted({s for w in asked for sense in _SUPERLATIVE_SENSES if w in sense for s in sense} | set(asked)) \
        if asked else _SUPERLATIVES
    # batch 17: the comparatives of the question's sense, whichever the reply uses, between two labels ("blue nearer,
    # red farther away" to "Which dot is closer ...?"; not of three: "The red dot is deeper than the blue dot." leaves
    # the third open)
    pair = asked and len({lb for _, lb in item.words}) == 2
    more = [c for c, x in _COMPARATIVES.items() if x in sup and (pair or re.search(r"\b" + c + r"\b", q))]
    words = "|".join(r"[\s\-]+".join(re.escape(x) for x in w.split()) for w, _ in item.words)
    return re.compile(
        r"(?<![\w\-])(" + words + r")(?:[ \t]+(?:dot|one|circle|point|marker))?"
        r"(?:[ \t]+(?:is|was|(?:seems|appears|looks)(?:\s+to\s+be)?|lies|sits|is\s+located)[ \t]+(?:the[ \t]+)?(?:"
        + "|".join([*sup, *more])
        # batch 101: "so blue is at the greatest depth" to "Which of the dots is at the greatest depth?" (the question's
        # own words, closing its clause; not "at the deepest point of the sulcus", "at the greatest risk", "at the
        # greatest depth of the sulcus" nor "Red is at the greatest depth? No, blue is.": hostile reviews)
        + (r"|at[ \t]+the[ \t]+greatest[ \t]+depth(?=[ \t]*(?:[.,;!\n]|\Z))" if "at the greatest depth" in q else "")
        + r"|correct|right|answer)\b"
        # batch 17: the label and the question's own superlative or comparative with no verb between, as a clause of
        # its own ("-> green closest to surface", "blue nearer, red farther away")
        + (r"|[ \t]+(?:" + "|".join([*sup, *more]) + r")\b(?=[ \t]*(?:[.,;!\n]|\Z|to\b|than\b|from\b|of\b))"
           if asked else "") + r")",
        re.IGNORECASE)


# the comparative of the other sense: "the red one is further down the lumen" to "Which dot is closer ...?"
_OPPOSITE_COMPARATIVES = {"closer": "deeper further farther", "nearer": "deeper further farther",
                          "shallower": "deeper further farther", "deeper": "closer nearer shallower",
                          "further": "closer nearer shallower", "farther": "closer nearer shallower",
                          "larger": "smaller", "bigger": "smaller", "smaller": "larger bigger",
                          "brighter": "darker", "darker": "brighter", "higher": "lower", "lower": "higher"}


def _asked_comparatives(item: Item) -> list[str]:
    """The comparatives of :data:`_OPPOSITE_COMPARATIVES` the question asks with ("closer", "Which dot is closer?")."""
    return [w for w in re.findall(r"[a-z]+er\b", item.question.casefold()) if w in _OPPOSITE_COMPARATIVES]


def _same_sense(sentence: str, item: Item) -> bool:
    """Whether ``sentence`` also says the question's own comparative or its like ("... but closer to the camera")."""
    asked = _asked_comparatives(item)
    if not asked:
        return False
    others = set(_OPPOSITE_COMPARATIVES[asked[0]].split())
    same = {w for w, ops in _OPPOSITE_COMPARATIVES.items() if set(ops.split()) == others}
    return any(re.search(r"(?i)\b" + w + r"\b", sentence) for w in same)


@functools.lru_cache(maxsize=1024)
def _label_opposite(item: Item) -> re.Pattern[str] | None:
    """Label items of two labels asked with a comparative (batch 99): "<label> [dot] [is] <the other sense's
    comparative>" ("..., while the red one is further down the lumen." to "Which dot is closer to the camera?") says
    the other label is the answer; not before "to" or a direction ("further to the left", "closer to the bottom",
    "further forward"), where the sense rests on what follows. None for other items."""
    if len({lb for _, lb in item.words}) != 2:
        return None
    asked = _asked_comparatives(item)
    if len(asked) != 1:
        return None
    words = "|".join(r"[\s\-]+".join(re.escape(x) for x in w.split()) for w, _ in item.words)
    return re.compile(
        r"(?i)(?<![\w\-])(" + words + r")(?:[ \t]+(?:dot|one|circle|point|marker))?"
        r"(?:[ \t]+(?:is|was|lies|sits|seems|appears|looks))?"
        # batch 114: "the red dot is the one further from the camera"
        r"(?:[ \t]+the[ \t]+one)?[ \t]+(?:much[ \t]+|slightly[ \t]+|a[ \t]+bit[ \t]+)?"
        r"(?:" + "|".join(_OPPOSITE_COMPARATIVES[asked[0]].split()) + r")\b"
        r"(?![ \t]+(?:to|forward|up|upward|in[ \t]+front|than|along|in[ \t]+the[ \t]+frame|right|left|laterally|"
        r"medially|over|across)\b)"
        # (not in a question the reply then answers: "Is the red dot the one further from the camera? No - ...", a
        # review of efc4f03)
        r"(?![^.!\n]*\?)")


@functools.lru_cache(maxsize=1024)
def _label_prefix(item: Item) -> re.Pattern[str] | None:
    """Label items asked with a superlative (batch 22): "the <superlative> [dot] is <label>" closing its clause ("...
    blue sits at the vanishing point of the lumen. The deepest is blue." to "Which of the dots is at the greatest
    depth ...?"), with the question's own superlatives and those of the same sense (not "the shallowest is red" to
    it); None when the question asks with none."""
    q = item.question.casefold()
    asked = [w for w in re.findall(r"[a-z]+est\b", q) if w not in ("least", "interest", "test")]
    asked += [_COMPARATIVES[w] for w in re.findall(r"[a-z]+er\b", q) if w in _COMPARATIVES]
    if not asked:
        return None
    sup = sorted({s for w in asked for sense in _SUPERLATIVE_SENSES if w in sense for s in sense} | set(asked))
    words = "|".join(r"[\s\-]+".join(re.escape(x) for x in w.split()) for w, _ in item.words)
    return re.compile(
        r"(?i)\bthe[ \t]+(?:" + "|".join(sup) + r")(?:[ \t]+(?:dot|one|circle|point|marker))?[ \t]+(?:is|would[ \t]+be|"
        r"(?:seems|appears)[ \t]+to[ \t]+be)[ \t]+(?:the[ \t]+)?(" + words + r")(?![\w\-])"
        r"(?:[ \t]+(?:dot|one|circle|point|marker))?(?=[ \t]*(?:[.,;!\n]|\Z))")


# an indirect question that runs on to a cue ("I can't evaluate whether the physician's answer is right", "not sure
# whether the answer is A"): what follows the cue is asked, not declared; not "Whether or not ..., the answer is B"
_WHETHER_BEFORE = re.compile(r"(?i)\bwhether\b[^,;:.!?\n\u2013\u2014]*\Z")


# "if" (or "unless", "whether", "suppose") right before the cue: "If I say no, ...", "Suppose I pick B: ..."
# (held-out batch 133: nor a saying denied, "I'm not going to stand by the initial 'yes' - nor can I say 'no'.")
_SUPPOSED_SAYING = re.compile(r"(?i)\b(?:if|unless|whether|suppose|supposing|were)[ \t]+\Z"
                              r"|\b(?:nor|neither)[ \t]+(?:can|could|would|will|do|did|shall|should)[ \t]+\Z")
_BOUND = re.compile(r"(?i)\b(?:must|should|have\s+to|had\s+to|need\s+to)\b")


def _hypothetical(text: str, cue_start: int, cue: str, end: int) -> bool:
    """A conditional declaration inside an if/unless sentence (see :data:`_MODAL`), or one the condition itself
    supposes (held-out batch 125: "- If I say **no**, it implies there's no fluid on the left ...")."""
    before = text[max(0, cue_start - 300):cue_start]
    if cue.lstrip()[:1] == "I" and _SUPPOSED_SAYING.search(before) and not _BOUND.search(cue):
        return True  # (not "If I must choose: A.", an answer given under protest)
    if not _MODAL.search(cue):
        return False
    cut = max((m.end() for m in SENTENCE_END.finditer(before)), default=0)
    return bool(_IF_BEFORE.search(before[cut:]) or _IF_AFTER.search(text[end:end + 80]))


@functools.lru_cache(maxsize=4096)
def _option_postfix(opt: str) -> re.Pattern[str]:
    """"<option text> is the most likely diagnosis": the option's words, then :data:`_OPTION_POSTFIX`; compiled
    once per option text."""
    body = spelled(opt, r"[\s\-]+")
    return re.compile(r"(?<![\w\-])" + body + _OPTION_POSTFIX, re.IGNORECASE)


@functools.lru_cache(maxsize=64)  # the reader asks again for the reply it just read (its sureness)
def last_declaration(text: str, item: Item) -> Found:
    """Rule 1: the last explicit declaration that names a valid label (``kind`` says which cue found it).

    The cues are found first; what follows them is read lazily, from the last cue back, and at most
    :data:`_MAX_DECLARATIONS` of them, so a reply that repeats a cue thousands of times stays fast.
    """
    # (position, kind, start, end, cue): "read" reads what follows a keyword ending at ``end``, "tag" reads
    # text[start:end], "weak" counts only when it names a valid label, "post" is the letter text[start:end],
    # "postopt" names the option whose label is ``cue``
    cands: list[tuple[int, str, int, int, str]] = []
    lab: str | None  # an option's label, or the label a letter or a label word names (None: out of range)
    low = text.lower()  # the rarer cues' patterns run only when a word of theirs occurs (long replies stay fast)
    for m in _DECL_PREFIX.finditer(text):
        if m.end() == m.start():
            continue
        kw = m.group(0)
        if item.kind != "choice" and kw[:10].lower() == "conclusion":
            continue  # a labelled conclusion declares an option (yes/no and label replies: conclusion_label)
        if re.fullmatch(r"(?i)answer\s*", kw):
            # a bare "answer" with no verb/colon ("Answer with the letter") declares nothing, except when an
            # uppercase or bracketed option letter follows at once ("Answer B", "answer (C)")
            rest = text[m.end():m.end() + 8]
            # batch 29: "this is a chest x-ray not a knee, answer d": a lower-case letter that ends the reply
            if item.kind != "choice" or not (re.match(r"[ \t]*(?:[(\[][A-Za-z][)\]]|[A-Z](?![\w'\-]))", rest)
                                             or re.fullmatch(r"[ \t]*[a-z][ \t]*[.!]?[ \t]*", text[m.end():])):
                continue
        cands.append((m.start(), "read", m.start(), m.end(), kw))
    for pat, words, how in ((_DECL_DIAGNOSIS, ("diagnosis", "cause", "explanation"), "read"),
                            (_DECL_FOREIGN, _FOREIGN_WORDS, "foreign")):
        if any(w in low for w in words):
            # (not one asked: "Working explanation is adhesions? Or a hernia?", a hostile review of 7d438ea)
            cands += [(m.start(), how, m.start(), m.end(), m.group(0)) for m in pat.finditer(text)
                      if pat is not _DECL_DIAGNOSIS or not _ASKED_AFTER.match(text, m.end())]
    for m in _ANSWER_TAG.finditer(text):
        cands.append((m.start() + 1, "tag", m.start(1), m.end(1), ""))
    if "not applicable" in low or "NA" in text:
        cands += [(m.start(), "na", m.start(), m.end(), "") for m in _NA_DECLARED.finditer(text)]
    if ":" in text and any(w in low for w in _JSON_WORDS):
        fields = [(m, _field_name(m.group(0))) for m in _JSON_ANSWER.finditer(text)]
        # batch 98: '[{"bbox_2d": [...], "label": "green dot"}, {..., "label": "red dot"}, ...]': one field given
        # several values is a list of records (what each box is), not an answer
        values: dict[str, set[str]] = {}
        for m, k in fields if text.lstrip()[:1] == "[" else ():
            values.setdefault(k, set()).add(m.group(1).strip().casefold())
        listed = {k for k, said in values.items() if len(said) > 1}
        for m, k in fields:
            if k not in listed:
                cands.append((m.start() + 1, "tag", m.start(1), m.end(1), ""))
    if item.kind == "choice":
        for m in _DECL_CHOICE_ONLY.finditer(text):
            if _OPTIONS_AS_SUBJECT.search(text, max(0, m.start() - 40), m.start()):
                continue  # batch 30: "The options seem to be in an unusual order — 'None of the above' comes first."
            if m.group(0)[0] in "lLsSaA" and _LOOK_DENIED.search(text, max(0, m.start() - 30), m.start()):
                continue  # batch 49: "It doesn't look like a basal cell carcinoma to me — ...": a denial
            if re.match(r"(?i)(?:this|it)\b", m.group(0)) \
                    and _TO_BE_EXCLUDED.search(text, max(0, m.start() - 120), m.start()):
                continue  # held-out batch 129 (:data:`_TO_BE_EXCLUDED`)
            if _SUPPOSED_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue  # held-out batch 153: "I can't say whether it is an actinic keratosis, a dermatofibroma, ..."
            cands.append((m.start(), "weak", m.start(), m.end(), m.group(0)))
        for m in _DECL_HEDGE.finditer(text) if any(w in low for w in ("probabl", "likely", "guess", "lean")) else ():
            if m.start() and text[m.start() - 1].isalnum():
                continue
            if m.group(0)[0] in "mMpPlL" and not m.group(0).lower().startswith(("my", "lean")):
                before = text[max(0, m.start() - 40):m.start()].rstrip(" \t")
                if before and before[-1] not in ".!?;:\n":
                    continue  # "Probably"/"likely" only at the start of a sentence ("It is likely a cyst")
            cands.append((m.start(), "weak", m.start(), m.end(), m.group(0)))
        for m in _DECL_POSTFIX.finditer(text):
            ch = m.group(1)
            if ch == "I" and not m.group(0).lstrip().startswith(("(", "[")) and not re.match(
                    r"(?i)(?:option|choice|letter|answer)", m.group(0)):
                continue  # "I is ..." never occurs; keeps the pronoun out
            # "A is the correct answer" is a letter: an article would need a noun between "A" and the verb.
            cands.append((m.start(), "post", m.start(1), m.end(1), m.group(0)))
        for m in _DECL_CONCLUSION.finditer(text) if any(w in low for w in _CONCLUSION_WORDS) else ():
            if m.group(2) == "I" and not m.group(1):
                continue
            cands.append((m.start(), "post", m.start(2), m.end(2), ""))
        for m in _DECL_CONCLUSION_NAMED.finditer(text) if any(w in low for w in _CONCLUSION_WORDS) else ():
            lab, rest = item.letter(m.group(2)), m.group(3)
            if lab is None or (m.group(2) == "I" and not m.group(1)) or _ANOTHER_LETTER.search(rest):
                continue  # "so A, C and D are unlikely": a list, not an answer
            if m.group(0)[:1] in "pPtTsS" and m.group(0)[:2].casefold() != "so" \
                    and _POINTS_DENIED.search(text[:m.start()]):
                continue  # batch 67: "Nothing here points to A, really.": what nothing points to (or tips it to) is no
                # answer
            if subject_of_clause(rest, lab, item):
                continue
            if m.group(0)[:1] in "lL" and not _only_its_text(rest, lab, item):
                continue  # what is left, with its option's own words and hardly more (not "That leaves A, the left
                # kidney, as the normal one": hostile review of batches 90-91)
            # "so C, pneumothorax" when pneumothorax is B, "so C, or perhaps B": the conclusion contradicts itself
            conflict = letter_text_conflict(lab, rest, item) or _other_follows(rest, lab, item)
            cands.append((m.start(), "conflict" if conflict else "post", m.start(2), m.end(2), ""))
        if re.search(r"(?i)likel|correct|right|best|probable|better", text):
            for opt, lab in item.option_map:
                if len(opt) > 200:
                    continue
                for m in _option_postfix(opt).finditer(text):
                    cands.append((m.start(), "postopt", m.start(), m.end(), lab))
    if item.kind == "label" and item.words:
        for m in _label_postfix(item).finditer(text):
            lab = next((lb for w, lb in item.words if phrase_regex(w).fullmatch(m.group(1))), None)
            if lab is not None and not is_negated(text[max(0, m.start() - 200):m.start()]):
                cands.append((m.start(), "postopt", m.start(), m.end(), lab))
        opposite = _label_opposite(item)
        placings = list(opposite.finditer(text)) if opposite is not None else []
        if len({m.group(1).casefold() for m in placings}) > 1:
            placings = []  # "Blue is farther down the lumen, and so is red": both placed, neither the answer
        for m in placings:
            placed = next((lb for w, lb in item.words if phrase_regex(w).fullmatch(m.group(1))), None)
            lab = next((lb for _, lb in item.words if lb != placed), None)
            start = max((x.end() for x in SENTENCE_END.finditer(text, max(0, m.start() - 300), m.start())),
                        default=max(0, m.start() - 300))
            stop = SENTENCE_END.search(text, m.end())
            if _same_sense(text[start:stop.start() if stop else len(text)], item):
                continue  # "The red dot is further along the vessel but closer to the camera": both senses said
            if placed is not None and lab is not None and not is_negated(text[max(0, m.start() - 200):m.start()]):
                cands.append((m.start(), "postopt", m.start(), m.end(), lab))
        prefix = _label_prefix(item)
        for m in prefix.finditer(text) if prefix is not None else ():
            lab = next((lb for w, lb in item.words if phrase_regex(w).fullmatch(m.group(1))), None)
            if lab is not None:
                cands.append((m.start(), "postopt", m.start(), m.end(), lab))
    cands.sort(key=lambda c: c[0])
    out_of_range = False
    hypotheses: list[tuple[int, int]] = []
    rejected: list[tuple[int, int]] = []
    refused: set[str] = set()  # answers the reply rejects as someone else's ("The physician's answer A is incorrect")
    recent = cands[-_MAX_DECLARATIONS:]
    # someone else's answer ("The physician's answer B: ... is wrong", "your answer"): not a declaration unless the
    # reply endorses it ("The physician's answer B is correct", "I agree with the physician's answer B"); judged
    # before any declaration is read, so that the reply's final answer can be checked against what it rejected
    skip: set[int] = set()
    for pos, kind, _start, end, _cue in recent:
        reported = kind in ("read", "weak") and REPORTED_BEFORE.search(text[max(0, pos - 60):pos]) is not None
        if not reported and (kind != "read" or not ATTRIBUTED.search(text[max(0, pos - 40):pos])):
            continue
        stop = SENTENCE_END.search(text, end + 1, end + item.span)
        begin = max((mm.end() for mm in SENTENCE_END.finditer(text, max(0, pos - 120), pos)), default=0)
        clause = text[end:stop.start() if stop else end + item.span]
        for opt, _ in item.option_map:
            # batch 114: "Physician's answer: B (Right).": the option's own text in brackets says nothing of it
            clause = re.sub(r"(?i)[(\[][ \t]*" + re.escape(opt) + r"[ \t]*[)\]]", " ", clause)
        verdict = evaluation(clause) or evaluation(text[begin:pos]) or \
            next_verdict(text, stop.start() if stop else len(text))
        if verdict != "endorse" or (_MODAL.search(clause) and _IF_BEFORE.search(clause)):
            skip.add(pos)
            rejected.append((pos, stop.start() if stop else min(len(text), end + item.span)))
            said = re.match(r"[ \t:]*[(\[]?([A-Z])(?![\w'])", text[end:end + 12])
            if verdict == "reject" and said is not None and item.letter(said.group(1)) is not None:
                refused.add(item.letter(said.group(1)))  # type: ignore[arg-type]
    for pos, kind, start, end, cue in reversed(recent):
        if kind == "na":
            return Found(None, out_of_range, kind="na")
        if pos in skip:
            continue
        if kind == "read" and _WHETHER_BEFORE.search(text, max(0, pos - 120), pos):
            continue  # batch 26: "I can't evaluate whether the physician's answer is right": asked, not declared
        if kind == "conflict":
            return Found(None, out_of_range, kind="conflict", rejected=tuple(rejected))
        if kind in ("post", "postopt") and _DOUBTED_BEFORE.search(text, max(0, pos - 80), pos) \
                and not _TAKEN_AFTER_ALL.match(text, end):
            rejected.append((pos, end))  # batch 87: "I don't think adhesions is right. ... Gallstone ileus, C."
            continue
        if kind == "postopt":
            found = Found(cue)
        elif kind == "post":
            lab = item.letter(text[start:end])
            found = Found(lab, out_of_range=lab is None)
        elif kind == "tag":
            found = _read_target(text[start:end], item)
        else:
            found = _read_target(text[end:end + item.span], item, foreign=kind == "foreign")
            if found.label is not None and _cut_article(text, pos, end):
                continue  # "it looks like a", "this is most likely a": the article a cut leaves, not option A
            if kind == "weak" and found.label is None:
                continue  # weak cue: only a letter/option read here counts, never out-of-range
            if found.conflict:
                return Found(None, out_of_range, kind="conflict", rejected=tuple(rejected))
        if found.label is not None and _hypothetical(text, pos, cue, end):
            stop = SENTENCE_END.search(text, end + 1, end + 200)
            hypotheses.append((pos, stop.start() if stop else min(len(text), end + 200)))
            continue
        if found.label is not None:
            if found.label in refused:  # "The physician's answer A is incorrect. The correct answer is: A"
                return Found(None, out_of_range, kind="conflict", rejected=tuple(rejected))
            return Found(found.label, out_of_range, kind="post" if kind == "postopt" else kind,
                         hypotheses=tuple(hypotheses), rejected=tuple(rejected), at=pos)
        out_of_range = out_of_range or found.out_of_range
    return Found(None, out_of_range, hypotheses=tuple(hypotheses), rejected=tuple(rejected))
