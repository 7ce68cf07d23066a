"""The words that hedge a reading ("probably", "I think", "can't rule out", "either ... or"), in one place.

Why a module: a hedged reading is a guess (issue 46: it is kept, but never sure), and the rules that decline to read a
hedged reply (an answer told by its subject, an opening that denies one of two options) must hear the same words the
sureness check hears. Each vocabulary below grew from replies in the corpus; the batch that showed each word is named
beside it.
"""

from __future__ import annotations

import re

# batch 90: what "may be" does in a recommendation ("CBCT may be considered if extraction is planned", "a small
# pneumothorax may be observed with repeat imaging"): a next step, no doubt about the answer
RECOMMENDED = (r"\s+(?:(?:considered|performed|obtained|indicated|warranted|helpful|useful|needed|required|repeated|"
                # batch 116: "early-stage disease may be suitable for core decompression"
                r"suitable|appropriate|"
                # batch 119: "### Why there may be confusion" (a heading over how a mimic misleads)
                r"confusion|"
                r"observed|managed|treated|followed|offered|added|arranged|requested|ordered|scheduled)\b"
                # held-out batch 123: "Early-stage disease on the right may be a candidate for core decompression."
                r"|an?\s+candidate\s+for\s+(?!the\s+(?:answer|diagnosis)\b))")

#: doubt a reply owns, which need name neither an answer nor what is asked: heard wherever it stands in a long reply
#: ("Yes, there is an effusion. ... Honestly, I'm not sure.", "That said, I could be wrong.", a hostile review of
#: 9a5c55c: "I can't fully exclude something more sinister", "... might turn out to be thickened pleura", "a
#: circumscribed carcinoma could look identical", "a pericardial effusion can give an identical silhouette", "as I may
#: have misjudged the meniscus", "this might not be as innocent as it looks", "might be what we're seeing")
SELF_DOUBT = re.compile(
    r"(?i)\bI\s+(?:could|may|might)\s+(?:well\s+|easily\s+)?be\s+(?:wrong|mistaken)\b|"
    # a black-box check of 2026-12-06 (rev33): a radiologist's query, "?" written before what is only queried
    # ("Pneumonia ?atelectasis", "C (?D)", "?Pneumonia", read as the queried option, sure); not a question mark closing
    # a question ("Pneumonia? No."), nor the word "Query", which is also the request's ("CLINICAL INDICATION: ...
    # Query cardiomegaly.", "Query left → right.", read from the corpus)
    r"(?:(?<=\s)|(?<=\A)|(?<=[(\[,;/]))\?[ \t]?(?=[^\W\d_])|"
    r"\bnot\s+(?:entirely\s+|completely\s+|fully\s+|totally\s+|so\s+|that\s+|at\s+all\s+)?(?:sure|certain|"
    r"confident)\b|"
    # (the older near misses of the reviews; not "not quite sure why this was ordered", said of something else)
    r"\bnot\s+(?:really|quite|100\s*%|a\s+hundred\s+percent)\s+(?:sure|certain|confident)\b"
    r"(?!\s+(?:why|what|who|how|where|when|whether|if|of\s+the|about\s+the)\b)|"
    r"\b(?:unsure|guessing|judge?ment\s+call|toss[\s\-]up|on\s+the\s+fence)\b|"
    # (not "choosing Grade 2 here would be a guess", said of the other answers)
    r"\bmy\s+(?:best\s+)?guess\b|\b(?:this|that|it)(?:'s|\s+is)\s+(?:a|my|only\s+a|just\s+a)\s+(?:[\w\-]+\s+)?guess\b|"
    r"\bhard\s+to\s+(?:say|be\s+(?:sure|certain))\b|"
    # (the reply's own: not "a single slice cannot exclude pathology elsewhere", said of the method)
    r"\bI\s+(?:can't|cannot|can\s+not|couldn't)\s+(?:fully\s+|completely\s+|entirely\s+|confidently\s+)?"
    r"(?:exclude|rule\s+out)\b|"
    r"\b(?:might|may|could)\s+(?:well\s+)?(?:turn\s+out|be\s+(?:missed|hidden|masked))\b|"
    # (what could be so here; not what can look the same in general: "Venous sinus thrombosis can look the same on
    # these sequences", a differential named)
    r"\b(?:could|might)\s+(?:look|appear)\s+(?:identical|the\s+same|just\s+like)\b|"
    r"\b(?:could|might)\s+(?:give|produce|cause)\s+an?\s+identical\b|"
    r"\b(?:I|we)\s+(?:may|might|could)\s+have\s+(?:misjudged|missed|misread|overcalled|overlooked)\b|"
    # a review of held-out batches 179-180's rules: "I think B; I could easily be persuaded it's A." (read A)
    r"\bI\s+(?:could|might|can)\s+(?:easily\s+|well\s+|readily\s+)?be\s+(?:persuaded|convinced|talked\s+into)\b|"
    r"\b(?:might|may)\s+not\s+be\s+as\s+[\w\-]+\s+as\s+it\s+(?:looks|seems|appears)\b|"
    r"\b(?:might|may|could)\s+be\s+what\s+(?:we're|we\s+are|I'm|I\s+am)\s+seeing\b|"
    r"\b(?:could|may|might)\s+(?:equally|just\s+as\s+well)\s+(?:represent|reflect|indicate)\b|"
    # held-out batch 125: "some would call that undisplaced, others minimally displaced" (opinion split, the reply
    # takes no side); "too close to call"
    r"\bsome\s+(?:would|might|could|may)\s+(?:call|say|read|class(?:ify)?|grade|describe)\b[^.;!?\n]{0,80}?"
    r"\bothers\b|\btoo\s+close\s+to\s+call\b|"
    # a hostile review of 59cdb8a: "Hmm, tough. B, cytotoxic edema.", "Tough call - B.", "It's a tricky one: B." (a
    # sentence that says only so; not "I don't think it's a close call", nor "Hard, calcified mass"), and "Nothing
    # argues against pneumonia, but nothing argues for it either." (no more said for it than against it)
    r"(?:\A|(?<=[.!?\n])(?<![.!?\n]\n)(?<!\n\r\n))[\s*_]*(?:hmm+[,.]?\s+)?(?:(?:a|that's\s+a|this\s+is\s+a|it's\s+a)\s+)?"
    r"(?:tough|tricky|hard|difficult)(?:\s+(?:call|one))?\s*[.!:\u2013\u2014\-]|"
    r"\bnothing\s+(?:argues|speaks|points)\s+(?:for|to(?:wards?)?)\s+(?:it|that|this|them)\s+either\b|"
    # held-out batch 172: "red is closer. or blue, ..., no idea really" (no idea, a clause of its own: not "no idea why
    # the physician chose A", nor "Why it was flagged, I have no idea.", a review of its rules)
    r"(?:\A|(?<=[.,;!?\n\u2013\u2014]))[ \t]*(?:(?:but|honestly|frankly|really)[ \t,]+)?no[ \t]+(?:real[ \t]+)?idea"
    r"(?:[ \t]+(?:really|honestly|tbh))?(?=[ \t]*(?:[.,;!?)\u2013\u2014]|\Z))|"
    r"(?:\A|(?<=[.!?\n]))[ \t]*(?:honestly,?[ \t]+)?I[ \t]+(?:have|'ve[ \t]+got)[ \t]+no[ \t]+(?:real[ \t]+)?idea[ \t]*"
    r"(?:[.!]|\Z)|"
    # a hostile review of those rules: "My answer is yes, but only as a guess, ...", "..., although I could equally say
    # no, ..."
    r"\b(?:only|just|purely)\s+as\s+a\s+guess\b|\b(?:could|might|may)\s+(?:equally|just\s+as\s+well)\s+(?:say|answer|"
    r"call\s+it|pick|choose)\b|"
    # held-out batch 152: 'Quoting the earlier reply: "the fracture is displaced". I have not re-checked this against
    # the image myself.' (an answer the reply says it has not checked)
    # (checked again, or checked at all with nothing named to check it by: not "I have not checked this with a lateral
    # view, but the fracture is clearly displaced", "I haven't confirmed this with histology, obviously")
    r"\bI\s+(?:have\s+not|haven't|did\s+not|didn't)\s+(?:(?:re-?|double-)(?:checked|verified|examined)\s+"
    r"(?:this|it|that|them)\b|(?:checked|verified|confirmed)\s+(?:this|it|that)(?:\s+(?:against\s+the\s+(?:image|film|"
    r"scan|study)|myself))*(?=\s*(?:[.;!]|\Z)))")

#: a choice the reply says it is still torn over, in the present ("Honestly, I keep going back and forth between two
#: of these. So my answer is herpes zoster (A).", "I'm torn between two options, admittedly. The answer is aortic
#: dissection (C).": a hostile review of held-out batch 129's rules): whatever answer it then gives is a guess, wherever
#: the words stand (not "I was torn at first, but the dermatome settles it", a doubt resolved); and both answers given
#: as one, opening a sentence (held-out batch 135: "Yes and no - and I mean that literally rather than as a dodge.
#: ... by that definition the answer would be yes.")
TORN = re.compile(r"(?i)\bI(?:'m|\s+am)\s+(?:still\s+|honestly\s+|really\s+|a\s+bit\s+|somewhat\s+|genuinely\s+)?"
                  r"torn\b|"
                  r"(?:\A|[.!?:]|(?<![.!?:\n])(?<!\n\r)\n)[\s*_#>\-]*(?:the\s+answer\s+is\s+|it's\s+|it\s+is\s+)?(?:both\s+)?"
                  r"(?:yes[ \t]+and[ \t]+no|no[ \t]+and[ \t]+yes)\b(?![ \t]+(?:questions?|answers?|format)\b)|"
                  r"\bI\s+keep\s+(?:going|flipping|switching|coming)\s+back\s+and\s+forth\b|"
                  r"\bI(?:'m|\s+am)\s+(?:still\s+)?(?:going|flipping|switching)\s+back\s+and\s+forth\b|"
                  # held-out batch 186: "... which would fit a late arterial or an early portal phase — I can't settle
                  # between the two from this slice." (an answer given first, then two weighed and none chosen)
                  r"\bI\s+(?:can't|cannot|can\s+not|cant)\s+(?:honestly\s+|really\s+|quite\s+)?"
                  r"(?:settle|decide|choose|pick)\s+(?:between|on\s+one\s+of)\s+(?:the\s+two|them|these|those|both)\b"
                  # (not a doubt the sentence then settles: "I can't choose between both on a CT, but on this DWI ...")
                  r"(?![^.;!?\n]*\b(?:but|until|though|although|yet)\b)")

#: the words that make a reading a guess, wherever they stand in the part of the reply that gives the answer
HEDGE = re.compile(
    # (not what will "likely follow": batch 116's "staging and tissue sampling will likely follow")
    # (batch 119: not the reason for someone's view, "which is probably why the physician focused on it", nor the
    # BI-RADS category "probably benign")
    # (held-out batch 133: "BI-RADS 3 - probably benign", the category's own name)
    r"(?i)\b(?:(?<!rads\s3\s-\s)(?<!rads\s3:\s)(?<!rads\s3,\s)(?<!rads\s3\s\()"
    r"probabl[ey](?!\s+why\b)(?!\s+benign\s*(?:\)|category\b|\(bi-?rads))|"
    r"likely(?!\s+(?:follow|be\s+(?:needed|required|necessary)|need|require|why)\b)|possibl[ey]|perhaps|"
    # ("This could also be a raised hemidiaphragm.": another reading of the finding; not "may also be considered")
    r"maybe|might|(?:could|may)\s+be(?!" + RECOMMENDED + r")|"
    r"(?:could|may)\s+(?:also|equally|instead|just|simply)\s+be(?!" + RECOMMENDED + r")(?!\s+[a-z]+ing\b)|"
    # batch 103: "a thin anechoic stripe, which may represent a small amount of free fluid": what the finding seen may
    # stand for (not "a mismatch between the request and the image may indicate a labelling error", said of any case)
    # (a black-box check of 2026-12-06: "Yes, there is a thin pleural line at the apex, although this could also
    # represent a skin fold.", "... though this may simply be pleural thickening.", read yes, sure)
    r"(?:which|this|that|it|these|they)\s+(?:could|may|might)\s+(?:well\s+|also\s+|simply\s+|just\s+|equally\s+)?"
    r"(?:represent|reflect|indicate|signify|"
    r"correspond\s+to)\b|"
    r"i(?:'d|\s+would)?\s+(?:think|"
    r"believe|suspect|guess)|favou?r(?:s|ing)?|"
    # (a hostile review of f97bc9e: "Yes, I suppose."; not an aside, "I suppose this was a fall on an outstretched
    # hand", a hostile review of 6c89057)
    r"i\s+suppose(?=\s*(?:[.!,;\u2014\u2013]|\Z|so\b))|"
    # batch 119: "**Answer (tentative):** B.", "my best guess" (batch 21's "guessing no" is in SELF_DOUBT)
    r"tentative(?:ly)?|best\s+guess|"
    # the older near misses of the hostile reviews: an answer given as a guess ("If I were to guess, it would be
    # adult.", "If I had to guess, adult.", "At a guess, B."); not a choice made under protest, which is an answer
    # ("If I had to choose, I'd say no.", "If forced to choose, B.")
    # (not a guess at something else: "If I had to guess the age", "If we had to guess from the AP alone, we'd say A;
    # the lateral settles it: B", "At a guess the patient is in their 60s": the review of that rule)
    r"(?:if\s+(?:I|we|one)\s+(?:had|have|were|was|am|are)|were\s+(?:I|we)|if\s+(?:pressed|pushed|forced))\s+to\s+guess"
    r"(?![ \t]+(?:the|what|why|who|how|from|at|which|whether|about|his|her|their|based|on|in|before)\b)|"
    r"at\s+a\s+guess(?=[ \t]*[,:\u2013\u2014\-]|[ \t]+(?:it|this|I|I'd)\b)|"
    r"(?<!than\s)(?<!not\s)(?<!even\s)(?:purely|just|only)\s+a\s+guess\b|"
    # a hostile review of 9a5c55c: "Agree — B, although I'd want a decubitus film to be sure it isn't consolidation."
    r"I(?:'d|\s+would)\s+(?:want|like|need)\b[^.;!?\n]{0,60}?\bto\s+be\s+(?:sure|certain|confident)|"
    # batch 91: "Yes, borderline cardiomegaly." (a size or calibre at the edge of normal: the corpus labels every
    # reply that leaves it there open, batches 5-89)
    # (not "borderline resectable", a stage of pancreatic cancer: batch 102)
    r"borderline(?![\s\-]+(?:un)?resectab)|"
    # batch 90: "It's a judgment call.", "Honestly, it's on the fence." (the corpus labels every such reply open; those
    # two and "toss-up" are in SELF_DOUBT)
    # (held-out batch 189: "Coin-flip territory — a CTR of 0.51 on a slightly rotated film.", read yes, sure; and
    # "whether it's on the right side doesn't have a clean answer")
    r"coin[\s\-]+(?:toss|flip)|(?:go|goes|going)\s+either\s+way|"
    r"(?:no|(?:doesn't|does\s+not|don't|do\s+not)\s+have\s+an?)\s+(?:clean|clear|simple|straight(?:forward)?|"
    r"single|definite|tidy)\s+answer|"
    # a black-box check of 2026-12-06 (rev33): an answer given grudgingly or as even odds ("Atelectasis, if
    # anything.", "If anything, atelectasis.", "Atelectasis at most.", "..., at a push.", "Pneumonia, for lack of a
    # better option.", "C, but that's a shot in the dark.", "Pneumonia, allegedly.", "50:50 — yes."; not "at most
    # 2 mm")
    # ("if anything" closing its clause, or opening the reply; not "Far from it — if anything, the spleen is on the
    # small side.", which only strengthens a no: read from the corpus)
    r"if\s+anything(?=\s*(?:[.;!)]|\Z))|(?<=\A)if\s+anything(?=\s*,)|at\s+most(?=\s*(?:[.;!)]|\Z))|at\s+a\s+(?:push|stretch|pinch)|"
    r"for\s+(?:lack|want)\s+of\s+(?:a\s+|any(?:thing)?\s+)?better|shot\s+in\s+the\s+dark|allegedly|"
    r"50[ \t]*[:/][ \t]*50(?![\d.])|"
    # (what only seems so at first, closing the reply: "Looks like a CT at first glance.", "It looks like yes at first
    # glance."; not "At first glance A, but the margins say B.")
    r"at\s+first\s+(?:glance|sight)(?=[ \t]*[.!]?[ \t*_]*\Z)|"
    # (and a low probability given to the answer itself: "Answer: yes\nProbability: 0.2", "Yes (p=0.3)", "Yes, ~20%
    # probability."; the odds of a finding named are confidence.finding_odds)
    r"(?:probability|likelihood)\s*[:=]\s*0?\.(?:[0-4]\d*|50*)(?![\d.])|p\s*=\s*0?\.(?:[0-4]\d*|50*)(?![\d.])|"
    r"(?<![\d.])(?:[1-4]?\d|50)\s*%\s+(?:probability|likelihood|chance)(?!\s+(?:of|that)\b)|"
    # (the same check: what is left open is said not to be excluded or absent: "Not excluded.", "Not ruled out on this
    # view.", "Not able to exclude.", "Not clearly absent.", "Not negative." to "Is there a pneumothorax?", read no,
    # sure)
    r"not\s+(?:(?:\w+ly|yet|been|be)\s+){0,2}(?:excluded|ruled\s+out)|not\s+(?:able|possible)\s+to\s+(?:exclude|rule\s+out)|"
    r"not\s+(?:something|one)\s+(?:I|we)\s+can\s+(?:exclude|rule\s+out)|"
    r"not\s+(?:(?:clearly|definitely|convincingly|obviously|entirely|certainly)\s+)?(?:absent|negative)(?=\s*(?:[.;!]|\Z))|"
    # a hostile review of held-out batch 168's rules: "Either could fit. B, cytotoxic edema."
    r"(?:either|both)(?:\s+(?:one|of\s+them))?\s+(?:could|might|may|would)\s+(?:fit|work|apply|be\s+right)|"
    # hostile review of batches 80-83: '{"final": "A", "note": "B is equally plausible"}', '{"confidence": "low"}'
    r"equally\s+(?:likely|plausible|possible|probable)|low\s+(?:confidence|certainty)|"
    # "I stand by D. That said, A is also reasonable.", "However, A could also be argued.", "just as plausible"
    r"(?:could|can)\s+(?:also|equally)\s+be\s+(?:argued|defended|justified)|(?:is|are)\s+also\s+(?:reasonable|"
    r"plausible|possible|defensible)|just\s+as\s+(?:plausible|likely|possible|probable)|"
    r"(?:confidence|certainty)(?:\s+level)?(?:\s+here)?[\"']?\s*[:=\u2013\u2014\-]?\s*[\"']?(?:is\s+)?(?:low|very\s+low|poor|"
    r"(?:moderate|medium)[\s\-]*(?:to[\s\-]*)?low)\b|low[\s\-]+(?:to[\s\-]+)?(?:moderate[\s\-]+)?(?:confidence|certainty)|"
    r"confidence\"\s*:\s*0?\.[0-4]\d*(?![\d.])|"
    # batch 19: not a posture ("pain eased by leaning forward"); a table's column "Leaning" still hedges (a hostile
    # review of a rule that set it aside: its rows may lean to another answer than the one declared)
    r"lean(?:s|ing)?(?!\s+(?:forwards?|backwards?|back|over|against|on)\b)|not\s+(?:entirely\s+|completely\s+|"
    # batch 116: "Having looked at the lateral view, though, I'm not so sure."
    r"fully\s+|100\s*%\s+|at\s+all\s+|so\s+|that\s+|too\s+)?(?:sure|certain|confident)|"
    r"\bI\s+(?:cannot|can't|couldn't|could\s+not)\s+tell\s+which\b|uncertain|unclear|"
    # a review of 6ce9d37: "I'm not at all sure about any of this: the blunting could just as well be pleural
    # thickening", "the findings are equivocal and I can't commit to yes or no", "so treat my answer as a guess"
    # (the findings called equivocal, not a recommendation's "CT or MRI if the fracture line is equivocal")
    r"(?:could|may|might)\s+(?:just\s+)?as\s+well\s+be|(?:findings|appearances?|features)\s+(?:are|is|remain)\s+"
    r"equivocal|(?:cannot|can't)\s+commit|"
    r"(?:answer|reading|call)\s+as\s+a\s+guess|"
    # "Or B, seborrheic keratosis - I can't split them", "I cannot distinguish T2 from PD here"
    # (the reader's own doubt: not "the radiograph can't distinguish infective consolidation from haemorrhage")
    r"\bI\s+(?:cannot|can't|couldn't|could\s+not)\s+(?:really\s+|reliably\s+|confidently\s+)?(?:split|separate|"
    r"distinguish|differentiate|tell)\s+(?:them|these|the\s+two|between|(?:[\w\-]+\s+){1,3}(?:from|apart))\b|"
    r"(?:cannot|can't)\s+"
    # batch 10: "can't fully exclude", "cannot be completely excluded"
    r"(?:(?:fully|completely|entirely|totally|confidently|definitely)\s+)?(?:exclude|rule\s+out)|"
    r"(?:cannot|can't)\s+be\s+(?:(?:fully|completely|entirely|totally|confidently|definitely)\s+)?"
    r"(?:excluded|ruled\s+out)|"
    # batch 44: "The type cannot be determined with confidence on this study."
    r"(?:cannot|can't|could\s+not)\s+be\s+(?:determined|decided|told)\s+with\s+(?:any\s+)?(?:confidence|certainty)|"
    r"(?:hard|difficult|tough|tricky)\s+to\s+(?:say|tell|be\s+(?:sure|certain))|(?:can(?:not|'t)|could(?:\s*not|n't))\s+"
    r"be\s+(?:\w+\s+)?(?:sure|certain|confident)|"
    # batch 17: not "the cortices on either side line up, and I can't see any angulation or translation"
    # (batch 119: not "is not consistent with either anatomy or this film", which denies both)
    r"(?<!not\s)(?<!n't\s)(?<!not\sconsistent\swith\s)(?<!not\scompatible\swith\s)(?<!n't\sfit\s)"
    # (held-out batch 133: nor "none visible at either apex or along the lateral chest walls": each of two parts)
    r"either(?!\s+(?:side|sides|end|ends|hand|apex|base|lung|kidney|breast|hip|knee|eye|orbit|lobe|hemithorax|"
    r"hemisphere|margin|edge|wall)\b)(?=[^.;!?\n]{0,80}?\bor\b))\b|"
    + SELF_DOUBT.pattern.removeprefix("(?i)"))

#: the same hedges in widely spoken languages (a reply in another language may keep its answer word, which the glosses
#: read, and hedge it in words they do not: "SONUÇ: Hayır, ama emin değilim." (Turkish: no, but I am not sure), "Trả
#: lời: Có, có thể." (Vietnamese: yes, maybe)). Heard only by the sureness check, so a reading can only lose sureness
#: (not "最可能" / "可能性が高い", most likely, which ranks)
FOREIGN_HEDGE = re.compile(
    r"(?i)(?<!\w)(?:quiz[aá]s?|tal\s+vez|probablemente|posiblemente|no\s+estoy\s+segur[oa]|talvez|provavelmente|"
    r"n[aã]o\s+tenho\s+certeza|peut-[eê]tre|probablement|pas\s+s[uû]re?|forse|probabilmente|non\s+sono\s+sicur[oa]|"
    r"vielleicht|wahrscheinlich|nicht\s+sicher|olabilir|muhtemelen|belki|emin\s+de[gğ]il\w*|c[oó]\s+th[eể]|c[oó]\s+l[eẽ]|"
    r"kh[oô]ng\s+ch[aắ]c|mungkin|tidak\s+yakin|kurang\s+yakin|возможно|вероятно|не\s+уверен\w*|misschien|"
    r"waarschijnlijk|niet\s+zeker|mo[zż]e|prawdopodobnie|nie\s+jestem\s+pew\w+|"
    # (a review of held-out batch 174's Ukrainian: "Важко сказати, чи знімок догори дном.", hard to say whether ...;
    # "Якщо знімок догори дном, ...", if ...; and the same in Russian)
    r"важко\s+сказати|неможливо\s+визначити|не\s+можу\s+(?:визначити|сказати)|чи|якщо|якби|трудно\s+сказать|"
    r"сложно\s+сказать|невозможно\s+определить|не\s+могу\s+(?:определить|сказать)|если)(?!\w)"
    r"|\uc544\ub9c8|\ud655\uc2e4\ud558\uc9c0|\ubaa8\ub974\uaca0|\u304b\u3082\u3057\u308c|\u305f\u3076\u3093|\u591a\u5206|"
    r"(?<!\u6700)\u53ef\u80fd(?!\u6027)|\u4e0d\u786e\u5b9a|\u4e0d\u78ba\u5b9a|\u4e5f\u8bb8|\u6216\u8bb8")

#: the words that take back an answer when they follow it in its closing clause ("A, or it could equally be C", "...:
#: cannot exclude"). Narrower than ``HEDGE`` in one way: "likely" and "probably" after a label grade it ("Most likely
#: cause: nephrolithiasis (A).") rather than withdraw it. Wider in another: a bare "could" or "may" does withdraw it
#: (b5-0023: "Final answer: A However, on reflection, the milia-like cysts could equally indicate a seborrheic
#: keratosis (C).").
TAIL_HEDGE = re.compile(r"(?i)\b(?:(?<!\bon\s)either|could|might|may|not\s+sure|unsure|uncertain|possibl[ey]|"
                        # (batch 105: not "a kidney on either side": each side, no other answer; but "I'd say
                        # either side" is one, hostile review of 9e8e215)
                        r"perhaps|maybe|"
                        # batch 48: "Left femoral head: cannot exclude" (cut off): nothing stated of the side asked
                        r"(?:cannot|can't)\s+(?:exclude|rule\s+out))\b")
