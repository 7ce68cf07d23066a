"""How well the robust reader reads the reply corpus (tests/data/replies/): per kind and in total.

Each reply of the corpus has the reading a careful clinician gives it (a label, or "invalid" when it names no
answer) and its kind (final verdict, MedVH FCJ, yes/no idiom, question subject, language, ...). The reply is read
by ``probe_ui.reading.answers.extract`` the way scoring reads a stored answer (labels from the item's kind, options for
choice items, the question, and the suggested answer of MedVH FCJ items), and counted as:

- definite replies (a label is meant): read as intended, wrong option (another label), invalid (nothing read);
- must-stay-invalid replies: stayed invalid, over-read (a label was read);
- the refusal flag, where the corpus says what it must be: mismatches;
- sure readings (issue 46, :mod:`probe_ui.reading.sureness`): how many definite replies are read sure and right
  (sure coverage), how many sure readings are a wrong option (sure-wrong) and how many come from a reply that must
  stay invalid (sure over-read). Goals: sure-wrong 0, sure over-read 0, sure coverage >= 90 % of definite replies.

Goals (issue 21): >= 98 % of definite replies read as intended, 0 wrong-option reads, <= 1 % of must-stay-invalid
replies read as an option, no refusal-flag mismatch. The corpus is written in batches (tests/data/replies/README.md):
batch 1 was written first and the reader developed against it; batches 2-4 were each written WITHOUT running the
reader on them, then the reader fixed; batches 5 and 6 were written by someone who had not read the reader's code
(their items are in items_extra.json); batches 7 and 8 were written without running the reader, in the shapes issue
46 found read wrong, and each measured held out before the reader was fixed for it; batches 9 to 26, likewise
held out, are written in the proportions models write replies. Every ``batch<N>.jsonl`` of the
corpus folder is read, in the order of N. Each batch is printed on its own, then all of them together.

    python perf/reading.py                 # every batch, per kind, and the goals
    python perf/reading.py --batch 2       # one batch only (repeatable)
    python perf/reading.py --show          # also every reply not read as intended
    python perf/reading.py --json          # the figures as one JSON object
    python perf/reading.py --held-out --batch 191 --batch 192
                                           # held-out batches (tests/data/replies/held_out/), issue 46's measure

Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from probe_ui.items import labels_for  # noqa: E402
from probe_ui.reading.answers import extract  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "replies"
GOAL_INTENDED = 0.98
GOAL_OVER_READ = 0.01
GOAL_SURE = 0.90
# how each batch came to be (tests/data/replies/README.md): printed beside its table
BATCH_NOTES = {
    1: "the reader was developed against it",
    2: "written without running the reader; fixed after",
    3: "written without running the reader; fixed after",
    4: "written without running the reader; fixed after",
    5: "written by someone who had not read the reader's code; the development batch of round 2",
    6: "same writer, other shapes; measured once held out (83.7 % intended), then fixed",
    7: "written without running the reader (issue 46's shapes); measured held out (87.4 % intended, 10 sure "
       "over-reads), then fixed",
    8: "written without running the reader; measured held out (91.4 % intended, 1 sure-wrong, 13 sure over-reads), "
       "then fixed",
    9: "in the proportions models write them; measured held out (97.7 % intended, 91.5 % sure and right, 1 sure-wrong, "
       "4 sure over-reads), then fixed",
    10: "in the proportions models write them, other wordings; measured held out (97.6 % intended, 91.0 % sure and "
        "right, 0 sure-wrong, 2 sure over-reads), then fixed",
    11: "in the proportions models write them, new languages; measured held out (94.8 % intended, 89.1 % sure and "
        "right, 1 sure-wrong, 7 sure over-reads), then fixed",
    12: "in the proportions models write them, Vietnamese and Polish; measured held out (94.8 % intended, 87.3 % sure "
        "and right, 1 sure-wrong, 1 sure over-read), then fixed",
    13: "in the proportions models write them, five new languages; measured held out (97.2 % intended, 86.3 % sure "
        "and right, 0 sure-wrong, 2 sure over-reads), then fixed",
    14: "in the proportions models write them, tables, checklists and five new languages; measured held out (92.9 % "
        "intended, 86.7 % sure and right, 0 sure-wrong, 1 sure over-read), then fixed",
    15: "in the proportions models write them, differentials, double negatives and seven new languages; measured held "
        "out (91.0 % intended, 81.5 % sure and right, 2 sure-wrong, 1 sure over-read), then fixed",
    16: "in the proportions models write them, nine new languages, ✅/❌ lists and addenda; measured held out (91.4 % "
        "intended, 84.3 % sure and right, 1 sure-wrong, 0 sure over-reads), then fixed",
    17: "in the proportions models write them, likelihoods, options named in words, nine new languages; measured held "
        "out (88.6 % intended, 81.0 % sure and right, 1 sure-wrong, 2 sure over-reads), then fixed",
    18: "in the proportions models write them, tables with a yes per row, changes of mind, nine new languages; "
        "measured held out (93.3 % intended, 88.1 % sure and right, 1 sure-wrong, 0 sure over-reads), then fixed",
    19: "in the proportions models write them, withdrawals in doubt, tables with a tick, eight common languages; "
        "measured held out (95.7 % intended, 87.1 % sure and right, 0 sure-wrong, 0 sure over-reads), then fixed",
    20: "in the proportions models write them, revisions after a declared answer, an option table with a tick, eight "
        "common languages; measured held out (96.2 % intended, 88.1 % sure and right, 1 sure-wrong, 0 sure "
        "over-reads), then fixed",
    21: "in the proportions models write them, second looks and answers taken back, reasoning and solution tags, "
        "eight new languages; measured held out (90.0 % intended, 85.7 % sure and right, 1 sure-wrong, 5 sure "
        "over-reads), then fixed",
    22: "in the proportions models write them, harmony traces, vendor templates, declines that say what they cannot "
        "determine, eight new languages; measured held out (95.7 % intended, 86.7 % sure and right, 1 sure-wrong, 1 "
        "sure over-read), then fixed",
    23: "in the proportions models write them, new changes of mind ('Erratum', 'Let me walk that back'), negations "
        "('Far from', 'Hardly', 'not free of'), eight new languages; measured held out (87.1 % intended, 82.4 % sure "
        "and right, 3 sure-wrong, 1 sure over-read), then fixed",
    24: "in the proportions models write them, newest-generation styles (markdown tables, '↳ Edit:', 'Nil'), eight new "
        "languages; measured held out (93.8 % intended, 84.8 % sure and right, 3 sure-wrong, 1 sure over-read, two "
        "declines read as the answer no), then fixed",
    25: "in the proportions models write them, eleven new languages, declines for want of the image, BI-RADS 4 and a "
        "cardiothoracic ratio at 0.50; measured held out (92.9 % intended, 82.4 % sure and right, 0 sure-wrong, 3 sure "
        "over-reads, two declines read as the answer no), then fixed",
    26: "in the proportions models write them, small open models' styles (byte-level spaces, '###Assistant:'), six new "
        "languages; measured held out (92.4 % intended, 85.7 % sure and right, 0 sure-wrong, 1 sure over-read, a "
        "decline read as B), then fixed",
    27: "in the proportions models write them, frontier API models' styles (markdown tables, 'Answer first:', tool "
        "calls, a safety block), eight replies in other languages; measured held out (89.5 % intended, 83.3 % "
        "sure and right, 3 sure-wrong, 3 sure over-reads), then fixed",
    28: "in the proportions models write them, medical-specialist open models' styles (Chinese asides, HF pipeline "
        "echoes, Ollama envelopes), eight replies in other languages; measured held out (91.4 % intended, 82.9 % "
        "sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    29: "in the proportions models write them, reasoning models' styles (think blocks, 'Thinking process:', struck-"
        "through options, Chinese afterthoughts), eight replies in other languages; measured held out (93.3 % "
        "intended, 86.7 % sure and right, 1 sure-wrong, 2 sure over-reads), then fixed",
    30: "in the proportions models write them, replies under perturbations (shuffled options, mirrored and marked "
        "images, lower-case self-corrections) and in clinical use, eight replies in other languages; measured held out "
        "(91.9 % intended, 84.3 % sure and right, 1 sure-wrong, 3 sure over-reads), then fixed",
    31: "in the proportions models write them, everyday styles, eight replies in other languages (Corsican, Occitan, "
        "Sesotho, Twi); measured held out (95.2 % intended, 86.2 % sure and right, 1 sure-wrong, 2 sure over-reads), "
        "then fixed",
    32: "in the proportions models write them, multi-turn pushback replies that hold or revise an answer and state a "
        "confidence, eight replies in other languages; measured held out (89.0 % intended, 74.8 % sure and right, "
        "1 sure-wrong, 5 sure over-reads), then fixed",
    33: "in the proportions models write them, small local models' everyday styles and chat-template leftovers, eight "
        "replies in other languages; measured held out (95.2 % intended, 87.1 % sure and right, 0 sure-wrong, 1 sure "
        "over-read), then fixed",
    34: "hospital-deployment styles: FINDINGS/IMPRESSION reports, caveats and recommendations after the answer, "
        "'letter only' prompts, NOTA and premise items, policy declines, eight replies in other languages; measured "
        "held out (94.8 % intended, 86.2 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    35: "everyday medium-length styles of GPT-4o, Claude and MedGemma: the answer first, last or in the middle with a "
        "reason or two, short reasonings, self-corrections in ordinary words, eight replies in other languages; "
        "measured held out (95.2 % intended, 84.3 % sure and right, 0 sure-wrong, 2 sure over-reads), then fixed",
    36: "markdown-formatted replies (headers, bullets, bold answers, tables) and presence questions answered in "
        "clinical words, eight replies in other languages; measured held out (91.0 % intended, 82.9 % sure and "
        "right, 1 sure-wrong, 1 sure over-read), then fixed",
    37: "a representative mix of the five model families (plain, FCJ, reasonings, self-corrections, declines, idioms, "
        "synonyms, negated options, template debris), eight replies in other languages; measured held out (93.8 % "
        "intended, 86.7 % sure and right, 1 sure-wrong, 0 sure over-reads), then fixed",
    38: "a representative mix of the five model families (plain, FCJ, reasonings, self-corrections, declines, idioms, "
        "synonyms, negated options, template debris), eight replies in other languages; measured held out (91.4 % "
        "intended, 85.2 % sure and right, 0 sure-wrong, 0 sure over-reads), then fixed",
    39: "a representative mix of the five model families (plain, FCJ, reasonings, self-corrections, declines, idioms, "
        "synonyms, answers after pushback), eight replies in other languages; measured held out (91.9 % intended, "
        "84.3 % sure and right, 0 sure-wrong, 0 sure over-reads), then fixed",
    40: "the styles of 2026 API models (verdict-first answers, summary lines, reasoning traces, second turns), eight "
        "replies in other languages; measured held out (91.4 % intended, 82.9 % sure and right, 0 sure-wrong, 2 sure "
        "over-reads), then fixed",
    41: "everyday use of the five model families (short and medium replies, markdown, casual lower case, second "
        "turns), eight replies in other languages; measured held out (91.9 % intended, 85.2 % sure and right, 1 "
        "sure-wrong, 1 sure over-read), then fixed",
    42: "a representative mix of the five model families (short and long, plain and markdown, confident and hedged, "
        "a few answers after pushback), eight replies in other languages; measured held out (95.2 % intended, 87.6 % "
        "sure and right, 1 sure-wrong, 2 sure over-reads), then fixed",
    43: "a representative mix of the five model families (short and long, plain and markdown, confident and hedged, "
        "a few second turns after pushback), eight replies in other languages; measured held out (96.7 % intended, "
        "91.0 % sure and right, 0 sure-wrong, 1 sure over-read), then fixed",
    44: "a hospital-gateway deployment (report register: FINDINGS / IMPRESSION, addenda, gateway banners and "
        "notices), eight replies in other languages; measured held out (93.3 % intended, 85.2 % sure and right, 1 "
        "sure-wrong, 1 sure over-read), then fixed",
    45: "a clinicians' demo room (terse and casual replies, second turns after pushback, emoji), eight replies in "
        "other languages; measured held out (93.3 % intended, 85.2 % sure and right, 0 sure-wrong, 3 sure "
        "over-reads), then fixed",
    46: "2026 reasoning models and research use (verdict first, thinking traces, tables, long explanations), eight "
        "replies in other languages; measured held out (92.9 % intended, 84.3 % sure and right, 1 sure-wrong, 0 sure "
        "over-reads), then fixed",
    47: "a representative mix of the five model families, eight replies in other languages; measured held out (94.8 % "
        "intended, 88.6 % sure and right, 0 sure-wrong, 3 sure over-reads), then fixed",
    48: "small local models on a hospital workstation (LLaVA and MedGemma most; terse or rambling, template tokens, "
        "cut off at a token limit, second turns), eight replies in other languages; measured held out (93.8 % "
        "intended, 85.7 % sure and right, 1 sure-wrong, 0 sure over-reads), then fixed",
    49: "a representative mix of the five model families, eight replies in other languages; measured held out (90.5 % "
        "intended, 82.4 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    50: "a researchers' stress test under perturbations (typos, casing, other languages, template debris, second "
        "turns); measured held out (94.8 % intended, 86.7 % sure and right, 2 sure-wrong, 0 sure over-reads), then "
        "fixed",
    51: "a representative mix; measured held out (95.2 % intended, 89.5 % sure and right, 0 sure-wrong, 4 sure "
        "over-reads), then fixed",
    52: "second turns after a clinician's pushback; measured held out (93.3 % intended, 84.3 % sure and right, 0 "
        "sure-wrong, 1 sure over-read), then fixed",
    53: "a representative mix, eight replies in other languages; measured held out (94.8 % intended, 86.7 % sure and "
        "right, 0 sure-wrong, 1 sure over-read), then fixed",
    54: "a department server behind an OpenAI-compatible gateway (banners, cut-off replies, JSON and tool calls, "
        "report style); measured held out (93.8 % intended, 83.8 % sure and right, 0 sure-wrong, 1 sure over-read), "
        "then fixed",
    55: "a representative mix as a department server collects in a normal week; measured held out (93.3 % intended, "
        "85.7 % sure and right, 1 sure-wrong, 3 sure over-reads), then fixed",
    56: "small open models run locally on a hospital GPU; measured held out (93.8 % intended, 85.7 % sure and right, "
        "1 sure-wrong, 0 sure over-reads), then fixed",
    57: "a normal week on a department server, eight replies in South and Southeast Asian languages; measured held "
        "out (95.7 % intended, 87.6 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    58: "frontier API models in a research batch (long markdown replies), eight one-word replies in Siberian, "
        "East Asian, Pacific and Australian languages; measured held out (94.8 % intended, 86.7 % sure and right, 0 "
        "sure-wrong, 0 sure over-reads), then fixed",
    59: "a radiologist's own DICOM studies, many in report style, eight one-word replies in African languages; "
        "measured held out (91.9 % intended, 83.8 % sure and right, 3 sure-wrong, 0 sure over-reads), then fixed",
    60: "a representative mix, nine one-word replies in Native North American and Arctic languages; measured held "
        "out (91.9 % intended, 84.8 % sure and right, 0 sure-wrong, 0 sure over-reads), then fixed",
    61: "a representative mix, eight one-word replies in Mesoamerican, Amazonian and Andean languages; measured held "
        "out (91.9 % intended, 83.8 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    62: "replies to a clinician's pushback ('Are you sure? I think it is X'); measured held out (93.3 % intended, "
        "72.4 % sure and right, 0 sure-wrong, 3 sure over-reads), then fixed",
    63: "small quantised laptop models: template tokens, loops, cut-offs, half JSON; measured held out (92.9 % "
        "intended, 85.2 % sure and right, 0 sure-wrong, 1 sure over-read), then fixed",
    64: "a teaching hospital's mix with code-switching (Arabic varieties, Malay varieties); measured held out (94.8 % "
        "intended, 88.1 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    65: "replies after a clinician's pushback again, some changing their mind twice, eight one-word replies in "
        "Australian Aboriginal and Melanesian languages; measured held out (88.1 % intended, 76.7 % sure and right, "
        "0 sure-wrong, 0 sure over-reads), then fixed",
    66: "a representative mix, seven one-word replies in Turkic, Uralic and Tungusic languages; measured held out "
        "(93.3 % intended, 85.7 % sure and right, 1 sure-wrong, 2 sure over-reads), then fixed",
    67: "reasoning models: thinking traces, numbered steps, answers after the trace, some cut off inside it; Caucasian "
        "and Iranian languages; measured held out (95.7 % intended, 86.7 % sure and right, 0 sure-wrong, 0 sure "
        "over-reads), then fixed",
    68: "a busy department: terse answers, letter punctuation variants, clinicians' abbreviations; Austronesian "
        "languages and creoles; measured held out (92.4 % intended, 84.8 % sure and right, 2 sure-wrong, 2 sure "
        "over-reads), then fixed",
    69: "answers with a stated confidence (percentages, fractions, probability lists, a confidence against the "
        "words); North American Indigenous languages; measured held out (93.3 % intended, 85.2 % sure and right, 1 "
        "sure-wrong, 3 sure over-reads), then fixed",
    70: "an emergency department at night: short replies, typos, abbreviations, second-language replies with English "
        "terms; mainland Southeast Asian languages; measured held out (93.8 % intended, 85.2 % sure and right, 1 "
        "sure-wrong, 3 sure over-reads), then fixed",
    71: "structured radiology reports (Findings / Impression / Answer, sections that disagree); West African "
        "languages; measured held out (93.8 % intended, 85.2 % sure and right, 1 sure-wrong, 3 sure over-reads), then "
        "fixed",
    72: "a patient-facing service: disclaimers and advice around the answer, policy declines, half-declines; East "
        "African languages; measured held out (90.5 % intended, 74.8 % sure and right, 1 sure-wrong, 1 sure "
        "over-read), then fixed",
    73: "a strict system prompt or few-shot examples: replies that copy the examples' Q:/A: format, echo an example "
        "or end on an empty 'A:'; Micronesian and Polynesian languages; measured held out (91.0 % intended, 82.4 % "
        "sure and right, 1 sure-wrong, 3 sure over-reads), then fixed",
    74: "image-swap and comparison probes: a mismatched image, prior and current studies, which side or which image; "
        "Mediterranean minority languages; measured held out (96.7 % intended, 88.6 % sure and right, no sure error)",
    75: "the second turn after the user pushed back ('Are you sure? I think it is C'): hold, switch, apologise and "
        "restate; Siberian and Central Asian languages; measured held out (91.4 % intended, 77.1 % sure and right, 1 "
        "sure-wrong), then fixed",
    76: "replies that state how sure they are (confidences, probability tables, ranked differentials, even splits); "
        "Caribbean languages; measured held out (95.7 % intended, 82.4 % sure and right, 2 sure-wrong, 1 sure "
        "over-read), then fixed",
    77: "options named by their place or a description ('Option 2', 'the last one', 'the latter', 'Neither of the "
        "first two'); Micronesian and Polynesian languages (bare numerals); measured held out (83.8 % intended, 78.6 % "
        "sure and right, 2 sure-wrong, 1 sure over-read), then fixed",
    78: "replies to perturbed images (rotated, flipped, swapped-in, coloured dots, cropped, noised); Brazilian "
        "languages; measured held out (95.2 % intended, 86.2 % sure and right, no sure error), then fixed",
    79: "small or older open models (LLaVA-Med, MiniGPT-4, BLIP-2, InstructBLIP, early Qwen-VL, 4-bit MedGemma): "
        "rambling, captions, lower case, loops; Ottoman Turkish and Turoyo; measured held out (93.3 % intended, 86.2 % "
        "sure and right, 1 sure-wrong), then fixed",
    80: "structured answers (JSON, XML-like tags, markdown tables, \\boxed{}, 'Answer:'/'Reasoning:' fields, tool "
        "calls), format against content; Caucasian and Central Asian Turkic and Iranian languages; measured held out "
        "(91.9 % intended, 85.7 % sure and right, 1 sure-wrong, 4 sure over-reads), then fixed",
    81: "replies written like radiology reports (Findings/Impression, 'no evidence of', 'cannot be excluded', "
        "'correlate clinically'); languages of Oceania and maritime Southeast Asia; measured held out (91.9 % "
        "intended, 83.3 % sure and right, 1 sure-wrong, 1 sure over-read), then fixed",
    82: "reasoning models (think traces, 'Thought for N seconds', 'Final answer:' lines, answers changed inside a "
        "trace); West and Central African languages; measured held out once, blind (97.1 % intended, 91.4 % sure "
        "and right, no sure error), then fixed",
    83: "an everyday mix (batch 23's shapes in the most used models' default styles); South Asian languages and "
        "Nagamese; measured held out once, blind (95.2 % intended, 87.6 % sure and right, 1 sure over-read), then "
        "fixed",
    84: "small open models at their default settings (lower-case run-ons, a caption before the answer, the options "
        "echoed, cut off at the token limit); Algerian Arabic, Quebec French, Singlish, Literary Chinese; measured "
        "held out once, blind (96.2 % intended, 90.0 % sure and right, 2 sure over-reads), then fixed",
    85: "a stated confidence, and second turns after the user pushes back ('I stand by A', 'on reflection, B'); "
        "Valencian, Bosnian, Aranese, Ido; measured held out once, blind (94.3 % intended, 84.3 % sure and right, 1 "
        "sure-wrong), then fixed",
    86: "an ordinary week on a department server (all five models, every everyday shape); Taglish, Norwegian "
        "Nynorsk, Greeklish, Kansai Japanese; measured held out once, blind (98.1 % intended, 89.5 % sure and right, "
        "no sure error), then fixed",
    87: "replies to text perturbations: a clinically incorrect premise, 'None of the above' in place of an option, "
        "shuffled options; Toki Pona, Attic Greek, Old English, Old Norse; measured held out once, blind (95.2 % "
        "intended, 86.2 % sure and right, 1 sure over-read), then fixed",
    88: "long replies (a systematic review, a differential option by option, caveats, the answer first, in the middle "
        "or last); West Flemish, Gronings, Jeju, Lojban; measured held out once, blind (88.1 % intended, 56.7 % sure "
        "and right, 1 sure-wrong), then fixed",
    89: "clinical hedging ('consistent with', 'cannot be excluded', 'equivocal', 'favour X over Y'); Sichuanese, "
        "Sudanese Arabic, Jejueo, Kajkavian; measured held out once, blind (98.6 % intended, 83.3 % sure and right, "
        "no sure error), then fixed",
    90: "long replies again (a systematic review, a differential option by option, the answer under a closing "
        "heading); Romanesco, Tyrolean German, Hejazi Arabic, Gheg Albanian; measured held out once, blind (90.0 % "
        "intended, 63.8 % sure and right, no sure error), then fixed",
    91: "an ordinary week on a department server, all five models; Palatine German, East Franconian, Doric Scots, "
        "Cajun French; measured held out once, blind (97.6 % intended, 89.0 % sure and right, 2 sure errors), then "
        "fixed",
    92: "long replies a third time (most of them 50-150 words, 63 over 150); Montenegrin, Najdi Arabic, Berlin German, "
        "Chiac; measured held out once, blind (94.8 % intended, 79.5 % sure and right, 2 sure over-reads), then fixed",
    93: "an ordinary week on a department server, all five models; Libyan, Sanaani and Najdi Arabic, Shetland dialect; "
        "measured held out once, blind (96.2 % intended, 88.6 % sure and right, no sure error), then fixed",
    94: "long replies a fourth time (159 of 240 over 150 words); Interslavic, Lingua Franca Nova, Occidental, Middle "
        "English; measured held out once, blind (94.8 % intended, 76.2 % sure and right, 1 sure error), then fixed",
    95: "an ordinary week on a department server, all five models; Old French, Lingua Franca Nova, Middle English, "
        "Chinook Jargon; measured held out once, blind (98.1 % intended, 90.0 % sure and right, 2 sure over-reads), "
        "then fixed",
    96: "long replies a fifth time (155 of 240 of 150 words or more); Chilean Spanish, Gyeongsang Korean, Dongbei "
        "Mandarin, Latino sine flexione; measured held out once, blind (91.4 % intended, 70.0 % sure and right, 2 sure "
        "over-reads), then fixed",
    97: "an ordinary week on a department server, all five models; Rioplatense Spanish, Majorcan Catalan, Viennese "
        "German, Manglish; measured held out once, blind (98.6 % intended, 90.5 % sure and right, 2 sure errors), then "
        "fixed",
    98: "long replies a sixth time (140 of 240 of 150 words or more); Spanglish, Jopara, Hessian German, Hakata "
        "Japanese; measured held out once, blind (91.0 % intended, 75.2 % sure and right, 1 sure error), then fixed",
    99: "an ordinary week on a department server, all five models; Hakata Japanese, Jeolla Korean, rural Palestinian "
        "Arabic, European Portuguese; measured held out once, blind (97.1 % intended, 88.6 % sure and right, 1 sure "
        "over-read), then fixed",
    100: "long replies a seventh time (150 of 240 of 150 words or more); Ulster Scots, Llanito, Upper Saxon, Sheng; "
         "measured held out once, blind (91.4 % intended, 72.9 % sure and right, 1 sure over-read), then fixed",
    101: "an ordinary week on a department server, all five models; Upper Saxon, Classical Japanese, Klingon, "
         "Yorkshire dialect; measured held out once, blind (96.7 % intended, 89.0 % sure and right, 1 sure error), "
         "then fixed",
    102: "long replies an eighth time (158 of 240 of 150 words or more); Suroboyoan Javanese, Kedah Malay, Palembang "
         "Malay, Tohoku Japanese; measured held out once, blind (91.0 % intended, 71.0 % sure and right, no sure "
         "error), then fixed",
    103: "an ordinary week on a department server, all five models; Western Armenian, Bambaiya Hindi, Palembang "
         "Malay, Fante; measured held out once, blind (97.6 % intended, 91.0 % sure and right, 1 sure over-read), "
         "then fixed",
    104: "long replies meant a ninth time (only 23 of 240 of 150 words or more); Surzhyk, Trasianka, Rioplatense "
         "Spanish with Lunfardo, Geordie; measured held out once, blind (92.9 % intended, 81.0 % sure and right, 1 "
         "sure over-read), then fixed",
    105: "an ordinary week on a department server, all five models; Brabantian, Zeelandic, Extremaduran, Kaaps; "
         "measured held out once, blind (99.5 % intended, 92.4 % sure and right, 2 sure over-reads), then fixed",
    106: "long replies, 173 of 240 of 150 words or more; Hiroshima Japanese, Chungcheong Korean, Bernese and Ruhr "
         "German; measured held out once, blind (89.5 % intended, 69.5 % sure and right, 1 sure wrong option), then "
         "fixed",
    107: "an ordinary week on a department server; Kumaoni, Church Slavonic, Gothic, Old Irish; measured held out "
         "once, blind (97.6 % intended, 89.5 % sure and right, 2 sure over-reads), then fixed",
    108: "long replies, 154 of 240 of 150 words or more; Moldovan Cyrillic Romanian, Katharevousa, Jawi Malay, Uzbek "
         "Cyrillic; measured held out once, blind (91.4 % intended, 75.7 % sure and right, 1 sure wrong option), then "
         "fixed",
    109: "an ordinary week on a department server; Mexican Spanish, Beijing and Taiwan Mandarin, Sri Lankan Tamil; "
         "measured held out once, blind (98.1 % intended, 91.4 % sure and right, no sure error), then fixed",
    110: "long replies, 152 of 240 of 150 words or more; Kuwaiti Arabic, Belgian French, Cuban Spanish, Tuscan; "
         "measured held out once, blind (91.9 % intended, 78.6 % sure and right, no sure error), then fixed",
    111: "an ordinary week on a department server; Hiberno-English, Murcian Spanish, Gaúcho Portuguese, Tuscan; "
         "measured held out once, blind (98.6 % intended, 88.6 % sure and right, 1 sure over-read), then fixed",
    113: "an ordinary week on a department server; Emirati and Jordanian Arabic, Tianjin Mandarin, Nagoya Japanese; "
         "measured held out once, blind (97.1 % intended, 88.1 % sure and right, no sure error), then fixed",
    115: "an ordinary week on a department server; Scouse, Cockney, Tosa Japanese, Missingsch; measured held out "
         "once, blind (98.6 % intended, 89.5 % sure and right, no sure error), then fixed",
    117: "an ordinary week on a department server; Kyoto Japanese, Mineiro Portuguese, Marseille French, Wuhan "
         "Mandarin; measured held out once, blind (98.6 % intended, 90.0 % sure and right, 1 sure-wrong, 2 sure "
         "over-reads), then fixed",
    120: "an ordinary week on a department server; German, Portuguese, Japanese, Italian, Spanish, Korean, Turkish, "
         "Vietnamese; measured held out once, blind (99.5 % intended, 91.0 % sure and right, 1 sure over-read), then "
         "fixed",
}


HELD_OUT = CORPUS / "held_out"
# what a held-out batch must meet (issue 46): it is measured once, blind, and its replies are in the proportions
# models write them, so the corpus goals of intended reads do not apply; no sure reading may be wrong
HELD_OUT_GOALS = ("0 sure readings of a wrong option", "0 sure readings of a must-stay-invalid reply")


def _batch_files(folder: Path) -> list[Path]:
    """A folder's ``batch<N>.jsonl`` files in the order of N."""
    return sorted(folder.glob("batch*.jsonl"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))


def _replies(files: list[Path]) -> list[dict[str, Any]]:
    """The replies of these JSONL files, each file in its own order."""
    replies: list[dict[str, Any]] = []
    for path in files:
        with path.open(encoding="utf-8") as f:
            replies += [json.loads(line) for line in f if line.strip()]
    return replies


def load_held_out(folder: Path = HELD_OUT) -> list[dict[str, Any]]:
    """The held-out replies (``held_out/batch*.jsonl``, in batch order): written blind to the reader, each batch
    measured once before any change drawn from it (tests/data/replies/README.md); their items are the corpus's."""
    return _replies(_batch_files(folder))


def load(folder: Path = CORPUS) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The corpus: its items by id (``items.json`` and ``items_extra.json``), and its replies (``replies.jsonl``,
    then ``batch*.jsonl`` in batch order), each file in its own order."""
    items: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("items*.json")):
        more = json.loads(path.read_text(encoding="utf-8"))
        twice = set(items) & set(more)
        if twice:
            raise ValueError(f"{path.name}: item ids already defined: {', '.join(sorted(twice))}")
        items.update(more)
    return items, _replies([folder / "replies.jsonl", *_batch_files(folder)])


def read(rec: dict[str, Any], item: dict[str, Any]) -> tuple[str, str, bool, bool]:
    """(reading, method, refusal flag, sure) of one reply: the label read, or "invalid"."""
    kind = item["kind"]
    options = tuple(item.get("options") or ())
    labels = labels_for(kind, options)
    a = extract(rec["text"], kind, labels, options if kind == "choice" else (), question=item.get("question"),
                suggested=item.get("suggested"))
    return ("invalid" if a.choice is None else a.choice), a.method, a.refusal, a.sure


def outcome(meant: str, got: str) -> str:
    """intended / wrong / invalid (a definite reply) or kept / over_read (a must-stay-invalid one)."""
    if meant == "invalid":
        return "kept" if got == "invalid" else "over_read"
    if got == meant:
        return "intended"
    return "invalid" if got == "invalid" else "wrong"


def evaluate(items: dict[str, dict[str, Any]], replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every reply with its reading, method, refusal flag and outcome."""
    out = []
    for rec in replies:
        got, method, refusal, sure = read(rec, items[rec["item"]])
        out.append({**rec, "got": got, "method": method, "refusal_read": refusal, "sure": sure,
                    "outcome": outcome(rec["meant"], got),
                    "refusal_ok": rec.get("refusal") is None or bool(rec["refusal"]) == refusal})
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per kind and in total, and whether the goals are met."""
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        for key in (r["kind"], "total"):
            per[key][r["outcome"]] += 1
            per[key]["n"] += 1
            per[key]["refusal_mismatch"] += not r["refusal_ok"]
            if r["sure"]:
                per[key]["sure_" + r["outcome"]] += 1
    table = {}
    for key, c in per.items():
        definite = c["intended"] + c["wrong"] + c["invalid"]
        stay = c["kept"] + c["over_read"]
        table[key] = {"n": c["n"], "definite": definite, "intended": c["intended"], "wrong": c["wrong"],
                      "invalid": c["invalid"], "must_stay_invalid": stay, "over_read": c["over_read"],
                      "refusal_mismatch": c["refusal_mismatch"],
                      "sure_right": c["sure_intended"], "sure_wrong": c["sure_wrong"],
                      "sure_over_read": c["sure_over_read"],
                      "sure_pct": round(100 * c["sure_intended"] / definite, 2) if definite else None,
                      "intended_pct": round(100 * c["intended"] / definite, 2) if definite else None,
                      "over_read_pct": round(100 * c["over_read"] / stay, 2) if stay else None}
    t = table.get("total", {"definite": 0, "must_stay_invalid": 0})
    goals = {
        "intended >= 98 %": bool(t["definite"]) and t["intended"] >= GOAL_INTENDED * t["definite"],
        "0 wrong-option reads": t.get("wrong", 0) == 0,
        "over-read <= 1 %": t.get("over_read", 0) <= GOAL_OVER_READ * t["must_stay_invalid"],
        "refusal flag as meant": t.get("refusal_mismatch", 0) == 0,
        "0 sure readings of a wrong option": t.get("sure_wrong", 0) == 0,
        "0 sure readings of a must-stay-invalid reply": t.get("sure_over_read", 0) == 0,
    }
    # reported, not a goal of this corpus: it is one of shapes, a tenth of its definite replies reversals, hedges
    # and refusals that still name an option, which issue 46 says are never sure; the 90 % is the target
    # for held-out replies in the proportions models write them
    targets = {"sure and right >= 90 %": bool(t["definite"]) and t.get("sure_right", 0) >= GOAL_SURE * t["definite"]}
    return {"kinds": {k: v for k, v in sorted(table.items()) if k != "total"}, "total": table.get("total"),
            "goals": goals, "targets": targets}


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f} %"


def print_table(title: str, s: dict[str, Any]) -> None:
    print(f"\n{title}")
    head = f"{'kind':<18}{'n':>5}{'definite':>10}{'intended':>10}{'wrong':>7}{'invalid':>9}{'stay-inv':>10}" \
           f"{'over-read':>11}{'refusal≠':>10}{'intended %':>12}{'sure %':>9}{'sure-wrong':>12}{'sure-over':>11}"
    print(head)
    print("-" * len(head))
    for k, v in [*s["kinds"].items(), ("TOTAL", s["total"])]:
        if v is None:
            continue
        print(f"{k:<18}{v['n']:>5}{v['definite']:>10}{v['intended']:>10}{v['wrong']:>7}{v['invalid']:>9}"
              f"{v['must_stay_invalid']:>10}{v['over_read']:>11}{v['refusal_mismatch']:>10}"
              f"{_pct(v['intended_pct']):>12}{_pct(v['sure_pct']):>9}{v['sure_wrong']:>12}{v['sure_over_read']:>11}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, action="append", default=[], help="only this batch (repeatable)")
    ap.add_argument("--show", action="store_true", help="list every reply not read as intended")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--held-out", action="store_true",
                    help="read the held-out batches (tests/data/replies/held_out/) instead of the corpus; "
                         "exit 1 when a sure reading is wrong")
    args = ap.parse_args(argv)
    items, replies = load()
    if args.held_out:
        replies = load_held_out()
    if args.batch:  # read only the batches asked for: one batch in seconds, not the whole corpus
        replies = [r for r in replies if r["batch"] in args.batch]
    rows = evaluate(items, replies)
    batches = sorted({r["batch"] for r in rows})
    report = {"all": summarise(rows), "batches": {b: summarise([r for r in rows if r["batch"] == b])
                                                  for b in batches}}
    # the goals this run is held to (a blind batch is not asked the corpus's goals for intended reads)
    asked = {g: ok for g, ok in report["all"]["goals"].items() if not args.held_out or g in HELD_OUT_GOALS}
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print(f"{len(rows)} replies, {len(items)} items; batches {', '.join(map(str, batches))}")
        for b in batches:
            print_table(f"batch {b}" + (f" ({BATCH_NOTES[b]})" if b in BATCH_NOTES else ""), report["batches"][b])
        print_table("all batches", report["all"])
        t = report["all"]["total"]
        print(f"\ndefinite replies read as intended: {t['intended']} / {t['definite']} "
              f"({_pct(t['intended_pct'])}); wrong option: {t['wrong']}; must-stay-invalid read as an option: "
              f"{t['over_read']} / {t['must_stay_invalid']} ({_pct(t['over_read_pct'])})")
        print(f"sure and right: {t['sure_right']} / {t['definite']} ({_pct(t['sure_pct'])}); sure readings of a wrong "
              f"option: {t['sure_wrong']}; sure readings of a must-stay-invalid reply: {t['sure_over_read']}")
        for goal, ok in asked.items():
            print(f"  {'ok ' if ok else 'MISSED'} {goal}")
        for target, ok in report["all"]["targets"].items():
            print(f"  {'ok ' if ok else 'below'} {target}" + ("" if args.held_out else
                                                            " (a target for held-out replies, not a goal here)"))
    if args.show:
        for r in rows:
            if r["outcome"] not in ("intended", "kept") or not r["refusal_ok"]:
                flag = "" if r["refusal_ok"] else f" refusal read {r['refusal_read']}, meant {r['refusal']}"
                print(f"[{r['batch']}] {r['kind']}/{r['item']} {r['text']!r}: meant {r['meant']}, read {r['got']} "
                      f"({r['method']}){flag}")
    return 0 if all(asked.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
