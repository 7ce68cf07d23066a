"""The reply's final verdict: what follows its last self-correction, a conclusion that ends in a label,
a closing sentence that is one label.

Why a module: a reply that changes its mind ("No. Wait, it is enlarged. Yes.") or concludes ("..., so yes.") is
read by its last word on the matter, not by what it mentioned on the way.
"""

from __future__ import annotations

import functools
import re

from probe_ui.reading import overlap
from probe_ui.reading.attribution import REPORTED_NEAR
from probe_ui.reading.cleaning import phrase_regex
from probe_ui.reading.item import Item
from probe_ui.reading.words import question_words, word_prefix

#: "correction" as a reply's own cue ("Self-correction: ..."), not a technique's ("the corresponding
#: attenuation-correction CT" of a PET study, "motion correction", "surgical correction": batch 102)
# (held-out batches 157-173: not a correction of the image or a measurement, "No rotation correction is needed", "a
# generous correction for magnification"; "After correction of my first read" still is one, a review)
CORRECTION_WORD = (r"(?<!attenuation[\s\-])(?<!motion[\s\-])(?<!scatter[\s\-])(?<!surgical\s)(?<!rotation[\s\-])"
                   r"(?<!magnification[\s\-])(?<!generous\s)(?<!\bno\s)correction"
                   r"(?!\s+(?:for|of)\s+(?:the\s+|any\s+)?(?:\w+\s+)?(?:magnification|rotation|projection|motion|"
                   r"angulation|tilt)\b)")

# a reply's doubt of its own answer: "I doubt myself", "I'm second-guessing my answer", "I'm having second thoughts"
_SELF_DOUBT = (r"(?:i(?:'m|\s+am)?\s+(?:now\s+)?(?:doubt(?:ing)?|second[\s\-]guess(?:ing)?|question(?:ing)?)\s+"
               r"(?:myself|my\s+(?:own\s+)?(?:answer|reading|call|choice|first\s+(?:answer|reading|call|impression)))|"
               r"i(?:'m|\s+am)\s+(?:now\s+)?having\s+(?:second\s+thoughts|(?:some\s+)?doubts)|"
               r"i\s+have\s+(?:my\s+|some\s+)?doubts\s+(?:about\s+(?:it|this|that|my\s+\w+)|now)|"
               # batch 36: "No, the fracture is not displaced. However, ...; I'm unsure now whether it is displaced.":
               # a doubt that came since the answer (its "now"), not one about another question
               r"i(?:'m|\s+am)\s+(?:unsure|uncertain|not\s+(?:so\s+)?sure)\s+now\b|"
               r"(?:now\s+)?i(?:'m|\s+am)\s+now\s+(?:unsure|uncertain|not\s+(?:so\s+)?sure)\b|"
               r"now\s+i(?:'m|\s+am)\s+(?:unsure|uncertain|not\s+(?:so\s+)?sure)\b|"
               # batch 37: "Yes, the spleen is enlarged. However, ... it could be normal as well. I can't say whether
               # it is enlarged or not.": both answers left open of "it", the answer's own subject (not "whether the
               # ligaments are torn or not", another question, nor "whether it is the cause of the pain or not")
               r"i\s+(?:can(?:not|'t)|(?:am|'m)\s+unable\s+to)\s+(?:really\s+)?(?:say|tell|decide)\s+whether\s+"
               r"(?:it|this|they)(?:'s|\s+(?:is|are|was))\s+(?:\w+\s+)?[^\W\d_]+\s+or\s+not\b)")

# A self-correction: what follows it is the reply's final verdict ("No. Wait, it is enlarged. Yes.", "A. Actually,
# looking again, B."); it opens a clause.
_SELF_CORRECTION = re.compile(
    # batch 24: an arrow before it ("\u21b3 Edit: ...")
    r"(?i)(?:\A|(?<=[.!?;:\n,(\-]))[ \t\"'*_\u21b3\u2192>]*(?:no[ \t,]+)?"
    # batch 30: "no the spleen is normal. oh wait it goes down below the kidney, yes it is enlarged" (an "oh" before
    # it); "no it is axial. wait no, i can see both kidneys ..., it is coronal, yes" (its "no" takes back what went
    # before, a comma after it)
    # batch 40: "no... oh actually yes, i can see the iliac wings" (an "oh" before "actually")
    # batch 57: "blue. oh no i mean red, red is on the surface" (an "oh no" before "i mean")
    r"(?:(?:oh|ah|uh|um|hmm)[ \t,]+(?=wait\b|actually\b)|(?:oh|ah|uh|um)[ \t,]+no[ \t,]+(?=i\s+mean\b))?"
    # batch 39: "Yes, there's a mass .... Though on reflection the bulge could just be a dromedary hump, and I'm
    # honestly not sure anymore ...": a "Though" or "But" opening a sentence before "on reflection" / "on second
    # thought" (capital: not batch 17's "..., but on reflection that's the specular highlight", read as it was)
    # batch 55: "Non-proliferative, B. Though now that I look at the disc again, ..."
    # batch 70: "Benign — ... Though now I notice the posterior margin is slightly indistinct, ..."
    # batches 57-58: "Although now that I see the fourth ventricle is also somewhat prominent, ...", "Although, now
    # that I look at the posterior margin again, ..." (a comma after it)
    r"(?:(?-i:But|Though|Although)[ \t]*,?[ \t]+(?=on\s+(?:further\s+)?reflection\b|on\s+second\s+thought|now\s+that\s+"
    r"i\s+(?:look|see)\b|now\s+i\s+(?:notice|see)\b))?"
    # batch 41: "Impetigo, I'd say — though looking closer, the vesicles are grouped ...": "though" after a dash
    # before "looking closer" / "looking again"
    r"(?:(?<=-)[ \t]*(?:though|although)[ \t]+(?=looking\s+(?:again|more\s+closely|closer)\b))?"
    r"(?:wait(?:[ \t]*,?[ \t]*no(?=[ \t]*,))?|hold\s+on|" + CORRECTION_WORD + r"|(?:scratch|strike)\s+that|"
    # a hostile review of held-out batch 125's rules: "Adult.\nIf I said adult, it was a slip: child.", "If I answered
    # adult, that was wrong - this is a child" (an answer given, owned as an error)
    r"if\s+i\s+(?:said|answered|went\s+with|called\s+it|put|chose|picked|wrote)\s+[^,.;:!?\n]{1,40},[ \t]*"
    r"(?:that|it)\s+(?:was|is)\s+(?:(?:a|an|too)\s+)?(?:wrong|slip|mistake|error|typo|hasty|overcall|incorrect|misread)\b|"
    # batch 109: "No. Revision: The image includes the liver, spleen and both kidneys. ... Answer: Yes" (a heading, as
    # "Correction:" is)
    # (not "Yes. Revision - no change needed, my answer stays yes.", a review of 6ce9d37)
    r"revision(?=[ \t]*(?::|[\-\u2013\u2014](?![ \t]*(?:no\s+change|unchanged|none\b))))|"
    # batch 70: "No. Disregard that — the skull is dark and the CSF bright, so this is MRI, not CT. Yes." (opening its
    # sentence, "that" after it: not "disregard the artefact")
    r"(?:disregard|ignore)\s+(?:that|this|my\s+(?:last|previous|first)\s+answer)(?=[ \t]*[.,:;!\-\u2013\u2014])|"
    # batch 23: "Let me walk that back: ...", "Erratum: ..."; batch 24: "On re-review: ...", "Re-checking: ...",
    # "Double-checking: ..." (a mark after these, not "re-checking the film shows ..."), "Re-reading the film, ..."
    r"(?:let\s+me\s+|i(?:'ll|\s+will|'d|\s+would|\s+have\s+to|\s+must)\s+)walk\s+(?:that|this|it)\s+back|"
    r"walking\s+(?:that|this|it)\s+back|erratum(?=[ \t]*[:\-\u2013\u2014])|"
    # batches 59-60: "Upon re-measurement: ...", "B. On recount, ..."
    # batches 67-68: "Yes.\nOn re-evaluation, ...", "Yes. Re-measuring: 12.8 cm, ..." (a mark after the bare one, not
    # where it opens the reply)
    r"(?:on|upon|after)\s+(?:a\s+)?re-?(?:review|inspection|examination|reading|measurement|count(?:ing)?|"
    r"evaluation|assessment)(?=[ \t]*[,:\-\u2013\u2014])|(?!\A)re-?(?:measuring|assessing)(?=[ \t]*[:\-\u2013\u2014])|"
    # batch 101: "Yes, dilated.\n\nOn re-measurement the duct is 7 mm, which could be normal ..."
    r"(?:on|upon|after)\s+(?:a\s+)?re-?(?:review|inspection|examination|reading|measurement)|"
    r"(?:re|double)[\s\-]?check(?:ing|ed)?(?=[ \t]*[:\-\u2013\u2014])|"
    r"re-?reading\s+(?:the|this|that|it)\b(?:\s+(?:film|image|scan|study|radiograph|question|case))?(?=[ \t]*,)|"
    r"on\s+second\s+thought|on\s+(?:further\s+)?reflection|"
    # batch 27: "Correcting myself: ...", "Revising: ...", "Update after a second look: ...", "Having looked again,
    # ..."; batch 28: "Retracting that: ...", "更正：..." (a mark after the bare ones: not "revising the protocol")
    # batch 58: "Answer: A. ...\nRe-evaluation: the internal echoes may be debris ..." (a mark after it, as
    # "Revising:"; not a heading that opens the reply: batch 32's "Re-evaluation:\n- ...\nConclusion: C. ...")
    # held-out batch 157: "So I'm revising: **child**." (a conclusion's "so", then a colon: not "I am revising -
    # pneumothorax is not present", nor "I'm revising: no effusion on the left, ...": a hostile review; "I'm revising
    # my answer to A." is read by the pushback rules, batch 62)
    r"correcting\s+(?:myself|that|this)|revising(?=[ \t]*[:\-\u2013\u2014])|"
    r"so\s+i(?:'m|\s+am)\s+(?:now\s+)?revising(?=[ \t]*:)|"
    # batch 60 (and batch 56's b56-0155): "Yes. Revised: the opacity is in the right middle lobe ..." (a mark after
    # it, as "Revising:"; not where it opens the reply, not "the revised protocol")
    r"(?!\A)revised(?=[ \t]*[:\-\u2013\u2014])|"
    # batch 66: "A. Psoriasis. Revised on second look: burrows ... — D. Scabies.", "Yes. Amendment: the heart is seen en
    # face ... Answer: no." (a mark after them, as "Revised:"; not where they open the reply)
    r"(?!\A)revised\s+(?:on|after|upon)\s+(?:a\s+)?(?:second|closer|further|another)\s+look(?=[ \t]*[:\-\u2013\u2014])|"
    r"(?!\A)amendment(?=[ \t]*[:\-\u2013\u2014])|"
    # batch 59: "Yes — brain MRI. Let me correct that: ..."
    r"let\s+me\s+correct\s+(?:that|this|myself)\b|"
    # batch 88: "So I'd correct my initial answer. ... **mildly enlarged, B**."
    r"(?:so\s+|and\s+|but\s+)?i(?:'d|\s+would|'ll|\s+will|\s+must|\s+should)\s+correct\s+my\s+(?:initial|first|earlier|"
    r"original|previous)\s+"
    r"(?:answer|impression|reading|call)\b|"
    r"(?!\A)re-?evaluati(?:on|ng)(?=[ \t]*[:\-\u2013\u2014])|retracting\s+(?:that|this|it)\b|"
    # batches 86-87: "Answer: A. Benign.\nReassessment: ...", "Reconsideration: ..." (headings after the answer)
    r"(?!\A)(?:(?<=\n)|(?<=[.!?][ \t]))(?:re-?assessment|reconsideration)(?=[ \t]*[:\-\u2013\u2014])|"
    r"(?:edit|update)\s+(?:after|on|upon)\s+(?:a\s+)?(?:second|closer|another|further)\s+(?:look|review|glance)"
    r"(?=[ \t]*:)|"
    # batch 58: "**Update after checking the posterior fossa:** ..." (a heading: a colon ends it)
    r"(?:edit|update)\s+after\s+(?:re-?)?(?:checking|reviewing|examining)\s+[^:.;!?\n]{1,40}?(?=[ \t]*:)|"
    r"having\s+(?:looked|checked|gone\s+back)\s+(?:again|more\s+closely|closer)|"
    r"\u66f4\u6b63(?=[ \t]*[:\uff1a])|"
    # batch 29: "不过再想想，..." ("but thinking it over again, ...")
    r"(?:\u4e0d\u8fc7|\u4f46\u662f|\u4f46)?\u518d\u60f3\u60f3(?=[ \t]*[,\uff0c:\uff1a])|"
    r"\u518d\u770b\u4e00\u4e0b(?=[ \t]*[:\uff1a])|"
    # batch 28: "On review, the hypoechoic band ... could equally be perirenal fat." (a comma after it)
    # batch 61: "Answer: A. Free fluid is present.\nOn re-review, the hypoechoic band may represent perinephric fat
    # rather than fluid; ..."
    r"on\s+(?:re-?)?review(?=[ \t]*,)|"
    # batch 26: "No, this is a coronal image. On further review, ... Yes, this is an axial slice."
    r"on\s+(?:further|closer)\s+(?:review|inspection|examination)|(?:on|upon)\s+reconsideration|on\s+(?:closer|(?:a\s+)?second)\s+(?:look|glance|inspection|"
    # batch 63: "No. On second view there may be slight cortical offset ...; displaced versus non-displaced cannot be
    # determined with confidence."
    r"review|examination|view)|"
    # batch 62: "Yes, the liver appears cirrhotic. However, considering your comment, the surface nodularity may be an
    # artifact ...": the user's pushback weighed, a comma after it
    r"(?:however[ \t]*,?[ \t]*)?(?:considering|in\s+light\s+of|given)\s+your\s+(?:comment|point|remark|feedback|"
    r"pushback|concern)(?=[ \t]*,)|"
    # batch 21: "Adult. Second look: ... - elderly.": a second look as a heading (a mark after it), as "on second
    # look" is (not "A second look at the film confirms adult.")
    r"(?:a\s+)?(?:second|closer|another|fresh)\s+look(?=[ \t]*[:,\-\u2013\u2014])|"
    r"looking\s+(?:again|more\s+closely|closer)|looking\s+at\s+(?:it|this|that|the\s+\w+)\s+(?:again|more\s+closely)|"
    # batch 55: "Non-proliferative, B. Though now that I look at the disc again, ... could be new vessels"
    r"now\s+that\s+i\s+look\s+(?:at\s+(?:it|this|that|the(?:\s+\w+){1,3}?)\s+)?(?:again|more\s+closely)|"
    # batch 57: "Although now that I see ..." (only after "Though" or "Although": "Now that I see the film, B." reads
    # as it did)
    r"(?:(?<=ough[ \t])|(?<=ough,[ \t]))now\s+that\s+i\s+see\b|"
    # batch 70: "Benign — it's oval and circumscribed. Though now I notice the posterior margin is slightly
    # indistinct, and honestly I can't say any more whether it's benign or malignant."
    r"(?:(?<=ough[ \t])|(?<=ough,[ \t]))now\s+i\s+(?:notice|see)\b|"
    r"upon\s+(?:further\s+|closer\s+)?(?:review|inspection|reflection)|"
    # batch 78: "Blue is closest. ~~Blue~~ — I had the depth reversed: the blue dot sits in the deep dermis. ..." (a
    # mark after it: not "I had the patient reversed into the scanner")
    r"i\s+had\s+(?:the|it|this|that|them|these)(?:\s+[\w\-]+){0,2}?\s+(?:reversed|backwards|the\s+wrong\s+way\s+round|"
    r"mixed\s+up|flipped|swapped)(?=[ \t]*[:;,.\-\u2013\u2014])|"
    r"let\s+me\s+(?:correct|reconsider|re-?check|re-?evaluate|re-?examine|revise|rethink|amend)"
    r"(?:\s+(?:that|myself|this|my\s+answer))?|"
    # batch 18: "I'll revise that: ...", "I should correct myself"
    r"i(?:'ll|\s+will|'d|\s+would|\s+should|\s+must|\s+need\s+to|\s+have\s+to)\s+(?:like\s+to\s+)?"
    r"(?:correct|reconsider|revise|rethink|amend)\s+(?:that|myself|this|my\s+answer)|"
    # batch 18: "Changing to A.", "Switching to no.": a short change of answer that ends its sentence, opening a
    # sentence of its own (not "the cyst has grown, changing to a solid pattern")
    r"(?<!,)(?<!,[ \t])(?:chang(?:e|ed|ing)|switch(?:ed|ing)?)(?:\s+(?:it|that))?\s+to"
    r"(?=[ \t]+[^.;!?\n]{1,30}(?:[.;!?\n]|\Z))|"
    r"looking\s+once\s+more|"
    # batch 20: a change of mind in words ("Pneumonia (A). Reconsidering: ... so pulmonary edema (C) fits better."),
    # as "on reflection" is; it takes a colon, comma or dash (not "reconsidering the options, B")
    r"reconsidering(?=[ \t]*(?::|,[ \t]*(?:the|it|this|that|i|my)\b|[\-\u2013\u2014]))|"
    r"(?:on|upon|after)\s+(?:further\s+)?reconsideration|having\s+reconsidered|"
    # batch 19: a doubt of its own that opens a sentence ("Now I doubt myself about the side.", "I'm having second
    # thoughts"): what follows, the doubt itself, is the last word (WITHDRAWN reads it)
    r"(?=(?:but\s+|and\s+)?(?:now\s+)?" + _SELF_DOUBT + r")|"
    r"i\s+take\s+(?:that|it)\s+back|"
    # batch 41: "Communicating. Taking that back — ... **Non-communicating (B).**"
    r"taking\s+(?:that|it|this)\s+back|i\s+mean|actually|re-?examining|after\s+re-?consider\w*|"
    r"(?:i(?:'ll|\s+will|'d|\s+would|'m|\s+am)\s+)?(?:chang(?:e|ing)|switch(?:ing)?|revis(?:e|ing))\s+(?:my\s+)?"
    r"(?:answer|choice|selection|mind)(?:\s+to)?|my\s+(?:revised|corrected|updated)\s+answer(?:\s+is)?|"
    # batch 16: a report's addendum that revises it ("Addendum: on review of the prior study ...; revised impression:
    # multifocal pneumonia (A).")
    r"(?:my\s+)?(?:revised|amended|corrected|updated)\s+(?:impression|diagnosis|conclusion|opinion|assessment|"
    r"reading|verdict|report)(?:\s+is)?(?=[ \t]*[:\-]|\s+is\b)|"
    # batch 75: not "I was wrong to call it pneumonia" (what follows is the answer it takes back)
    r"i\s+(?:was|am)\s+wrong(?![ \t]+(?:to|about|in)\b)|"
    r"i\s+misspoke|(?:sorry|apologies|my\s+apologies|my\s+(?:mistake|bad)|(?:wh)?oops)"
    r"(?:[ \t]*[,.!;:\-]*[ \t]*i\s+meant(?:\s+to\s+say)?)?|i\s+meant(?:\s+to\s+say)?|(?:edit|update)(?=[ \t]*:)|"
    r"(?:hmm+|then\s+again|but\s+then\s+again|on\s+the\s+other\s+hand)"
    r"(?:[ \t]*[,.]*[ \t]*(?:although|though|but))?|(?:although|though)(?=[ \t]*(?:-|\.\.\.|\u2026)))\b[ \t]*[,:.!\-]*"
)
# batch 20: words that say what follows revises what came before ("Revision:", "Correction", "Update:", "on
# reflection", "reconsidering", "amended", "I was mistaken", "my mistake"): after a declared answer, what follows them
# is its last word when it names another answer (answers._read), and the declaration is never sure (sureness.doubts)
REVISION = re.compile(r"(?i)\b(?:revis(?:ion|ed|ing|e)|" + CORRECTION_WORD + r"|correcting|"
                      r"correct\s+(?:myself|that|this)|"
                      r"(?:(?<=\n)|(?<=[.!?][ \t]))re-?assessment(?=[ \t]*[:\-\u2013\u2014])|updat(?:e|ed|ing)|"
                      r"amend(?:ment|ed|ing)?|erratum|re-?consider\w*|on\s+(?:further\s+)?"
                      r"reflection|second\s+thoughts?|(?:i\s+was|i'm|i\s+am)\s+(?:mistaken|wrong)|"
                      r"my\s+(?:mistake|bad|error)|i\s+mis(?:read|spoke|judged))\b[ \t]*[:,\-\u2013\u2014]?")
# what withdraws an answer after a self-correction when it sets two answers against each other in its closing sentence
# (batch 86: "Reassessment: ... Benign versus malignant cannot be determined."; batch 87: "Reconsideration: ... Cannot
# determine whether the nodule is solid or cystic."): the sentence, which must name two of the item's answers (not
# "I cannot determine whether there is a fistula to the duodenum or the colon.")
UNDECIDED_BETWEEN = re.compile(r"(?i)[^.!?\n]*(?:\b(?:versus|vs\.?|or)\s[^.!?\n]{0,60}?(?:cannot|can't|could\s+not)\s+"
                               r"be\s+(?:determined|decided|told)|(?:cannot|can't|could\s+not)\s+determine\s+whether\b"
                               r"[^.!?\n]*\bor\b[^.!?\n]*)[ \t]*[.!]?[ \t]*\Z")
# what withdraws an answer after a self-correction
WITHDRAWN = re.compile(r"(?i)\b(?:not\s+(?:so\s+|entirely\s+|completely\s+)?(?:sure|certain|confident)|"
                        # batch 44: "The type cannot be determined with confidence on this study."
                        # batch 58: "Solid versus cystic cannot be determined confidently; ..."
                        r"(?:cannot|can't|could\s+not)\s+be\s+(?:determined|decided|told)\s+(?:with\s+(?:any\s+)?"
                        r"(?:confidence|certainty)|confidently|with\s+certainty)|"
                        r"unsure|uncertain|(?:not|un)\s*able\s+to\s+(?:say|tell|decide|be\s+sure)|"
                        r"can(?:not|'t)\s+(?:\w+\s+)?(?:tell|say|decide|be\s+sure|exclude|rule\s+out|settle|choose|pick|commit)|"
                        r"(?:don't|do\s+not)\s+know|hard\s+to\s+say|difficult\s+to\s+say|"
                       r"no\s+longer\s+(?:sure|certain|confident)|" + _SELF_DOUBT + "|"
                        # batch 67: "Yes.\nOn re-evaluation, ... I can no longer say either way."
                        r"can\s+no\s+longer\s+(?:say|tell|decide|choose|pick|commit)|"
                        # batch 23: "..., so I'd now call it 50/50": even odds take the answer back
                        r"(?:call\s+it|it's|it\s+is|that's|odds\s+are)\s+(?:about\s+|roughly\s+)?(?:50[ \t]*/[ \t]*50|"
                        r"fifty[\s\-]fifty|a\s+toss[\s\-]up|a\s+coin[\s\-]toss)|"
                        # batch 27: "I'd put it at even odds, so I'll leave this one open."
                        r"(?:at|call\s+it)\s+even\s+odds|leave\s+(?:this|it|that)(?:\s+one)?\s+open|"
                        # batch 61: "I would now rate fluid and fat as equally likely."
                        r"(?:as|are|now)\s+equally\s+(?:likely|probable)|"
                        # batch 28: "两种都有可能，无法确定。" (both are possible, it cannot be determined)
                        r"\u65e0\u6cd5\u786e\u5b9a|\u4e0d\u80fd\u786e\u5b9a|\u4e24\u79cd\u90fd\u6709\u53ef\u80fd|"
                        # batch 21: "correct. although... the fibula looks wrong now. honestly it could be either."
                        r"(?:could|might|may)\s+(?:well\s+|just\s+as\s+well\s+)?(?:be|go)\s+either(?:\s+(?:one|way))?"
                        r"(?=[ \t]*(?:[.!;\n]|\Z))|"
                        r"(?:would|'d)\s+need\s+[^.;!?\n]{0,80}?\bto\s+(?:say|tell|decide|be\s+sure|know))\b"
                        # batch 29: "我现在不确定是不是肝硬化" (I'm now not sure whether it is cirrhosis): Chinese
                        # runs its words together, so no word boundary before it
                        r"|\u4e0d(?:\u592a|\u518d)?(?:\u786e\u5b9a|\u80af\u5b9a)")
# A conclusion that ends in a label ("..., so yes.", "Therefore, no.", "...: yes." at the end, "In short: red.", "...
# -> normal -> no")
_CONCLUSION_CUE = re.compile(
    r"(?i)(?:\b(?:so|thus|hence|therefore|consequently|overall|in\s+(?:conclusion|summary|short|sum)|"
    r"to\s+(?:conclude|summari[sz]e|sum\s+up)|bottom\s+line|verdict|conclusion)\b[ \t]*[,:\-]?[ \t]*"
    r"(?:(?:the\s+)?answer\s+(?:is\s+)?:?[ \t]*|it(?:'s|\s+is)[ \t]+)?|:[ \t]*"
    # batch 17: the last step of a chain of arrows ("spleen length about 10 cm -> normal -> no")
    r"|(?:->|=>|\u2192)[ \t]*)(?=\S)"
)


def _ends_with_label(text: str, item: Item) -> bool:
    """Whether ``text`` ends in one of the item's labels (marks aside): the step before an arrow is itself an answer."""
    tail = text.rstrip(" \t*_")[-80:]
    return any(m.end() == len(tail) for word, _ in item.words for m in phrase_regex(word).finditer(tail))


def conclusion_label(text: str, item: Item) -> str | None:
    """Yes/no and label items: the label a conclusion ends with (the last one): "..., so yes.", "Therefore, no.",
    "...: yes." at the end; the label must end its clause ("so no further imaging" concludes nothing)."""
    found: str | None = None
    for m in _CONCLUSION_CUE.finditer(text):
        rest = text[m.end():]
        if m.group(0).lstrip().startswith(":") and len(rest.strip()) > 40:
            continue  # "Findings: no effusion ...": a colon concludes only at the very end
        if m.group(0).lstrip()[:1] in "-=\u2192" and _ends_with_label(text[:m.start()], item):
            continue  # batch 121: "**Ranking (near → far):** blue → green → red.": labels in order, not a conclusion
        lab = word_prefix(rest, item)
        this = None
        if lab is None and item.kind == "label" and (this := _THIS_IS.match(rest)) is not None:
            rest = rest[this.end():]  # "So this is a pediatric chest X-ray."
            lab = word_prefix(rest, item)
        if lab is None:
            continue
        w = next(mm for word, lb in item.words if lb == lab and (mm := phrase_regex(
            word, suffix=item.kind == "label").match(rest)))
        ends = re.match(r"[ \t]*(?:[.,;!\n]|\Z)", rest[w.end():])
        if (ends and this is None) or (_only_asked_after(rest[w.end():], item) and _own_last_word(text, m.start())):
            found = lab
    return found


def _own_last_word(text: str, start: int) -> bool:
    """Whether the conclusion at ``start`` is the reply's own last sentence: nothing after its sentence ("So this is a
    pediatric chest X-ray.\nOr adult." is not), and not reported from someone else (a hostile review)."""
    end = re.search(r"[.!?\n]", text[start:])
    after = text[start + end.end():] if end is not None else ""
    return not after.strip(" \t\n*_") and not REPORTED_NEAR.search(text[max(0, start - 60):start])


# batch 121: "So this is a pediatric chest X-ray." (the label a conclusion gives, then the question's own noun)
_THIS_IS = re.compile(r"(?i)(?:this|it)(?:'s|\s+is)[ \t]+(?:an?[ \t]+)?")


def _only_asked_after(rest: str, item: Item) -> bool:
    """Label items: whether what follows the label up to the end of its sentence is only the question's own words
    ("pediatric chest X-ray" to "Is this a pediatric or adult chest x-ray?"), which the label qualifies."""
    if item.kind != "label" or not item.question:
        return False
    m = re.match(r"([ \t]+[^\W\d_][\w\-]*){1,3}[ \t]*(?:[.!\n]|\Z)", rest)
    if m is None:
        return False
    asked = set(question_words(item.question))
    return all(overlap.stem(w) in asked for w in re.findall(r"[^\W\d_][\w\-]*", m.group(0)))


# batch 42: a yes, no or letter the reply reports as its first answer, then "but" ("I said yes at first, but the
# irregularity may just be ...", "My first answer was A, but ..."): what follows the "but" revises it (not "I said
# aggravating, but ...", "I said CT before, but ...", batches 38 and 41, read as they were)
_REPORTED_EARLIER = re.compile(
    r"(?i)\bi\s+(?:(?:first|initially|originally)\s+(?:said|answered)\s+['\"]?(?:yes|no|[A-E])\b['\"]?"
    r"|(?:said|answered)\s+['\"]?(?:yes|no|[A-E])\b['\"]?\s+(?:at\s+first|initially|originally))[ \t]*,?[ \t]*but\b"
    r"|\bmy\s+(?:first|initial|original)\s+answer\s+was\s+['\"]?(?:yes|no|[A-E])\b['\"]?[ \t]*,?[ \t]*but\b"
    # batch 54: "I initially agreed with the physician's left side, but on a second look ... I'd revise to B.": an
    # answer first agreed with, then taken back
    r"|\bi\s+(?:first|initially|originally)\s+(?:agreed|went\s+along)\s+with\s+[^.;!?\n]{1,60}?[ \t]*,?[ \t]*but\b")


@functools.lru_cache(maxsize=256)
def _corrections(text: str) -> tuple[re.Match[str], ...]:
    """Every self-correction cue of the reply: "Wait", "Actually", an afterthought, "B - no, C". (Cached: the rules and
    the sureness check ask of the same text, and on 100 kB of marks one scan takes a third of a second.)"""
    found = list(_SELF_CORRECTION.finditer(text))
    found += _REPORTED_EARLIER.finditer(text) if "but" in text.lower() else []
    found += _AFTERTHOUGHT.finditer(text) if "." in text or "\u2026" in text else []
    found += _INLINE_REVERSAL.finditer(text) if "no" in text.lower() or "rather" in text else []
    return tuple(found)


def correction_spans(text: str) -> list[tuple[int, int]]:
    """Where each of the reply's self-correction cues starts and ends."""
    return [m.span() for m in _corrections(text)]


def retracted_by_no(text: str) -> int:
    """batch 43: where the text before the reply's last self-correction cue ends, when that cue opens with the answer
    word "no" ("yes lateral. no sorry it is pa", "yes. no wait, it's the PA view"): the "no" is the new answer
    where what follows says no other; -1 when the last cue does not open so."""
    found = _corrections(text)
    if not found:
        return -1
    last = max(found, key=lambda m: m.start())
    return last.start() if re.match(r"[ \t\"'*_]*no[ \t,]+\S", last.group(0)) else -1


def self_corrected(text: str) -> str | None:
    """What follows the reply's last self-correction ("Wait", "Actually", "On second thought", ...), when
    something does."""
    ends = [m.end() for m in _corrections(text)]
    for end in sorted(ends, reverse=True):  # the last one that something follows ("..., it could be C. Hmm.")
        tail = text[end:]
        if tail.strip(" \t\n.,;:!-"):
            return tail
    return None


# a reversal inside one sentence (batch 9): "adult... no, elderly.", "B - no, C.", "bilateral, or rather left-sided":
# a "no," after a trailing-off ellipsis or a dash that follows a word, or "or rather"
_INLINE_REVERSAL = re.compile(r"(?i)(?<=[\w)])(?:(?:\.\.\.|\u2026|[ \t]+[\-\u2013\u2014]{1,2}|[\u2013\u2014])"
                              # batch 21: "migraine (D)... er no, ... IIH, A": a hesitation before the "no"
                              r"[ \t]*(?:(?:er|erm|uh|um|hmm)[ \t,]+)?no[ \t]*,"
                              r"|[ \t]*,[ \t]*or[ \t]+rather\b[ \t]*[,:]?"
                              # batch 31: "red. no, the blue dot is deeper, blue": a lower-case "no," opening the
                              # sentence after the answer
                              # batch 79: "red. no the blue one is deeper it is far away down the tube": no
                              # comma, what the "no" is about after it; "yes it is sagittal no wait it is axial": a
                              # lower-case "no wait" inside the sentence
                              r"|\.[ \t]+(?-i:no)(?:[ \t]*,|(?=[ \t]+(?:the|it|it's|its|that|this)[ \t]))"
                              r"|[ \t]+(?-i:no[ \t]+wait)\b[ \t]*,?)[ \t]*(?=\S)")
# an afterthought after a trailing-off ellipsis: "Yes, there's some displacement... although it may just be ..."
_AFTERTHOUGHT = re.compile(r"(?i)(?:\.\.\.|\u2026)[ \t]*(?:although|though|but|then\s+again)\b[ \t,]*")


def last_sentence(text: str) -> str | None:
    """The reply's last sentence (or line) that holds more than marks, with its closing mark; None for none."""
    sentences = [x for x in re.split(r"(?<=[.!?\n])", text) if x.strip(" \t\n.!")]
    return sentences[-1] if sentences else None


def closing_label(text: str, item: Item) -> str | None:
    """The reply's last sentence when it is exactly one label ("... under the stratum corneum. Green.")."""
    last = last_sentence(text[-400:])
    return item.exact(last) if last is not None else None


def closing_answer(text: str, item: Item) -> str | None:
    """Yes/no and label items: the label the reply's last sentence opens with as its answer, a mark after it
    ("... no lung markings beyond it. Yes, there is a pneumothorax."); read after a self-correction, where the last
    word on the matter decides."""
    if item.kind == "choice":
        return None
    sentence = last_sentence(text[-400:])
    if sentence is None or sentence.rstrip().endswith("?"):
        return None
    last = sentence.lstrip(" \t\n-*>\"'`_")
    lab = word_prefix(last, item)
    if lab is None:
        return None
    m = max((mm for word, lb in item.words if lb == lab
             and (mm := phrase_regex(word, suffix=item.kind == "label").match(last))), key=lambda mm: mm.end())
    return lab if re.match(r"[ \t]*[,;:!\-\u2014]", last[m.end():]) else None
