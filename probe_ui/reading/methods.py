"""What each ``method`` of a reading means, in plain words (the cell detail, the exports, ``probe-ui score``).

Why: every answer probe-ui reads from a reply names the rule that decided it
(:attr:`probe_ui.reading.answers.Answer.method`), so a researcher can audit a number. The names are short identifiers;
these sentences say what each one means to a clinician reading the answer. One entry per method the readers return;
:func:`describe` falls back to the name.
"""

from __future__ import annotations

__all__ = ["METHODS", "READ", "UNREAD", "describe"]

# methods that read an answer
READ: dict[str, str] = {
    "exact": "the reply is the answer itself (\"B\", \"Yes.\", \"upside down\")",
    "declaration": "the reply declares its answer (\"The answer is B\", \"Final answer: C\"); the last one counts",
    "final_verdict": "the reply's final verdict, after a change of mind or a conclusion (\"No. Wait, it is "
                     "enlarged. Yes.\", \"..., so yes.\")",
    "language": "the answer is written in another language or script (\"Sí\", \"La bonne réponse est A\", "
                "\"是的\")",
    "synonym": "the reply names an option by a synonym or another spelling (\"Shingles\" for herpes zoster, "
               "\"paediatric\")",
    "structured": 'the reply fills the answer field the model was asked for ({"answer": "B"}, a structured answer)',
    "boxed": "the answer written in \\boxed{}",
    "backtick": "the answer written in backticks",
    "option_text": "the reply is exactly one option's text",
    "leading": "the reply opens with its answer and then explains it (\"(B) ... because ...\", \"No, there is ...\")",
    "bare": "the one option letter the reply names (\"..., so B\", \"option C\")",
    "opening_answer": "the reply opens with an option as its answer (its text as a clause of its own, or with its "
                      "letter: \"Left hip (A). ...\") and then names another option; the opening answer is read, as a "
                      "guess",
    "option_text_contained": "the reply names exactly one option by its text",
    "option_keyword": "a short reply that uses a word only one option has (\"Aggravating.\")",
    "option_words": "the reply names one option in its own words: another form of the option's words, an "
                    "abbreviation of them, a lay word or the parts of a compound term (\"Broken kneecap.\" for "
                    "patellar fracture, \"IIH\", \"a stone in the bile duct\" for choledocholithiasis)",
    "option_value": "the options are ranges of a measure and the reply gives a value inside one of them (\"the cyst "
                    "measures about 2 cm\" for \"1 to 3 cm\"), or they are counts and the reply gives the count in "
                    "words (\"four wisdom teeth\", \"Count: II\")",
    "marked": "the reply marks one answer in a table or checklist (a ✓ beside one option and ✗ beside the others, "
              "one box ticked: \"[x] No\")",
    "likelihood": "the reply gives each option a likelihood and one is clearly ahead, at least twice any other "
                  "(\"C. Aortic dissection: 60%\" beside 15 % at most); a guess unless it holds at least half the "
                  "likelihood and three times any other",
    "escape_option": "the reply says in its own words what an escape option says (\"None of these fit\" for "
                     "\"None of the above\")",
    "negated_option": "of two answers, the reply rules one out (\"Not stable.\", \"Not inverted.\")",
    "agrees_with_suggestion": "the reply agrees with the answer the prompt suggested (\"The physician's answer is "
                              "correct.\")",
    "label_word": "the reply names exactly one of the answer words (\"It is upside down.\")",
    "restated": "the reply's yes or no answers its own restatement, which says the opposite of the question's word "
                "(\"No, this scan is not normal\" to \"Does it show any abnormality?\" is yes)",
    "presence": "a reply to \"Is <finding> present?\" that says the finding is absent or present without yes or "
                "no (\"Not present.\", \"None seen.\")",
    "question_subject": "a reply without yes or no, compared with what the question asks (\"This is a CT scan.\" "
                        "to \"Is this an MRI?\" is no)",
    "negated_clause": "a yes/no reply that denies a whole clause, read as the opposite of the clause's answer (\"It "
                      "is not the case that the duct is of normal calibre\" to \"Is the duct dilated?\" is yes)",
    "judge": "the rules found no answer; a judge model mapped the reply to an option (its reply is kept)",
    "point": "the point the reply gives, in the model's coordinate convention, as pixels of the item's image (right "
             "when it falls inside the finding's region)",
    "box": "the box the reply gives, as pixels of the item's image (right when it overlaps the finding's region by "
           "at least half: IoU >= 0.5)",
}
# methods that leave the answer invalid
UNREAD: dict[str, str] = {
    "empty": "the reply is empty",
    "none": "no answer could be read",
    "ambiguous": "the reply names two different answers (\"Yes, ... No, ...\"; a closing answer its own reasoning "
                 "argues against), or hedges between them",
    "out_of_range": "the reply names a letter the item does not have",
    "not_applicable": "the reply answers \"N/A\"",
    "truncated": "the reply stops mid-sentence before it answers (\"... there is no\")",
    "withdrawn": "the reply takes its answer back (\"On second thought, I'm unsure.\")",
    "declined": "the reply declines: it says it cannot answer, lacks the image or the detail the question needs "
                "(\"Sorry, this image does not show enough detail.\"); a decline is never read as an answer",
    "free_text": "a free-text reply (not read as an option)",
    "invalid": "a point item's reply gives no coordinates that can be read in the model's convention (never "
               "guessed)",
    "no_image": "a point item asked without its image: there is nothing to point at, so the reply is not scored",
}
LEGACY: dict[str, str] = {
    "legacy-mediconfusion": "read by MediConfusion's own rule (split on spaces, letter forms)",
    "legacy-probmed": "read by ProbMed's own rule ('Yes' or 'No' anywhere in the reply)",
    "legacy-medvh": "read by MedVH's own rule (the reply's first character)",
    "legacy-blink": "read by BLINK's own rule (one \"(X)\" token)",
    "legacy-blink-nomatch": "BLINK's own rule found no single \"(X)\" token",
    "legacy-blink-outside": "BLINK's own rule read a letter the item does not have",
    "judge-mediconfusion": "a judge model scored the reply against each option (MediConfusion's rule, margin 3)",
    "judge-mediconfusion-margin": "a judge model found no option closer than the others by the margin",
    "judge-mediconfusion-unreadable": "the judge model's scores could not be read",
    "judge-blink": "a judge model picked the matching option (BLINK's rule)",
    "judge-blink-z": "a judge model found that no option matches",
    "judge-none": "the rules found no answer, and the judge model found none either",
    "judge-unreadable": "the rules found no answer, and the judge model's reply could not be read",
}
METHODS: dict[str, str] = {**READ, **UNREAD, **LEGACY}


def describe(method: str | None) -> str:
    """The plain-words meaning of a method ("" for none)."""
    if not method:
        return ""
    return METHODS.get(method, f"read by the rule '{method}'")
