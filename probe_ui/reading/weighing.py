"""What a reply names without committing to it: answers it only entertains ("it could also be C"),
letters it rejects or weighs ("Not A, but B.", "Between A and B, B."), questions it asks, a reply cut off.

Why a module: a reading from a mere mention must not count what the reply only weighs; these rules find those
mentions so that the rule order can mask them or call the reading ambiguous.
"""

from __future__ import annotations

import functools
import re

from probe_ui.reading import lexicon, synonyms
from probe_ui.reading.cleaning import mask_spans, norm, pattern, phrase_regex, spelled
from probe_ui.reading.hedges import RECOMMENDED
from probe_ui.reading.item import Item, canonical_item
from probe_ui.reading.letters import SET_ASIDE_WORDS, bare_letters
from probe_ui.reading.options import option_mentions, options_in_words, whole_text
from probe_ui.reading.words import label_words

# A clause that only entertains an answer ("I'm not sure it isn't upside down", "it could also be C", "A cannot
# be ruled out"): labels named there are not the reply's answer, and make a reading by mention ambiguous.
_ENTERTAIN = re.compile(
    r"(?i)\b(?:not\s+(?:entirely\s+|completely\s+|100\s*%\s+)?(?:sure|certain|confident)|unsure|uncertain|"
    # (a next step is no alternative: "... on the right may be a candidate for core decompression")
    r"(?:could|might|may)\s+(?:also\s+|equally\s+|well\s+)?be(?!" + RECOMMENDED + r")|either\b[^.;\n]{0,60}?\bor|"
    r"can(?:not|'t)\s+(?:rule\s+out|exclude|be\s+ruled\s+out|be\s+excluded)|can(?:not|'t)\s+tell|"
    r"could\s+(?:also|equally|just\s+as\s+well)\s+be|might\s+(?:also|equally|actually)\s+be|"
    r"may\s+(?:also|equally|actually)\s+be|or\s+(?:possibly|perhaps|maybe)|is\s+also\s+(?:possible|plausible)|"
    r"(?:also|equally)\s+(?:possible|plausible|likely)|remains?\s+(?:possible|a\s+possibility)|hard\s+to\s+say|"
    r"difficult\s+to\s+(?:say|tell)|(?:it|that|this|the\s+answer)\s+depends\s+on|depending\s+on\s+(?:whether|if)|"
    # batch 93: "red. hmm or blue, they look about the same distance"
    r"hmm+[ \t,]+or)\b"
)
# "C could also be ...", "B cannot be excluded": a letter that is the subject of an entertaining verb
_LETTER_ENTERTAINED = re.compile(r"(?<![\w'])[(\[]?([B-HJ-Z])[)\]]?(?![\w'])[ \t]+(?i:could|might|may|cannot|can't|"
                                 r"is\s+also|remains|also)\b")
_LONE_CAPITAL = re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?(?![\w'\-])")
# what follows "A" (or "I") when it is the article or the pronoun: a word ("a cyst"), also an abbreviation in capitals
# (batch 17: "A CT would help", "A PE is ..."; not "A or B", "A, B")
_ARTICLE_BEFORE = re.compile(r"[ \t]+(?:[a-z]|(?!(?:OR|AND|VS)\b)[A-Z]{2,}\b)")
# (batch 118: and before a relative clause of what could be mistaken for the finding: "There's also no prominent
# pericardial fat pad that could be mistaken for heart." entertains nothing of the "no" it follows)
_CLAUSE_SPLIT = re.compile(r"(?i)[.!?;\n]|\b(?:but|however|though|although|yet)\b|\b(?=(?:that|which)\s+(?:could|might|"
                           r"may)\s+(?:also\s+|easily\s+|otherwise\s+)?be\s+(?:mistaken|confused|misread|taken)\b)")
# An alternative weighed, not chosen: "between A and B", "A or B?", "A vs. B"
ALTERNATIVES = re.compile(
    r"(?i)\bbetween\s+(?:(?:options?|choices?|the)\s+)?[(\[]?[A-Z][)\]]?\s+and\s+[(\[]?[A-Z][)\]]?"
    r"|[(\[]?\b[A-Z]\b[)\]]?\s*(?:or|vs\.?|versus)\s*[(\[]?\b[A-Z]\b[)\]]?\s*\?"
)
# A letter rejected: "not A", "A is wrong", "rather than B", "(A) can be excluded"
_LETTER_REJECTED = re.compile(
    r"(?:\b(?i:not|rather\s+than|instead\s+of|other\s+than|excluding|except)[ \t]+(?:(?i:option|choice|letter|"
    r"answer)[ \t]+)?[(\[]?([A-Z])\b[)\]]?(?![\w'\-])"
    r"|[(\[]?\b([A-Z])\b[)\]]?(?:[ \t]*:[^.;\n]{0,120}?)?[ \t]+(?i:is|was|seems|appears|looks)[ \t]+(?i:not\b|"
    r"wrong|incorrect|unlikely|less\s+likely|excluded|ruled\s+out|inaccurate|false|"
    r"impossible(?![ \t]+(?:to|for|that|with|if|unless|without)\b))"
    r"|[(\[]?\b([A-Z])\b[)\]]?[ \t]+(?i:isn't|wasn't|can\s+be\s+(?:excluded|ruled\s+out))"
    # held-out batch 167: "- **Normal (A)** would need a ratio at or below 0.5." (what that answer would take, under
    # "Why not the other two:")
    # "**Severely enlarged (C)** usually means a ratio well above 0.6" (what that answer takes, in general)
    r"|[(\[]\b([A-Z])\b[)\]][ \t*_]*(?i:(?:would|will)[ \t]+(?:need|require|have\s+to\s+(?:show|be|have)|"
    r"mean\s+(?:a|an|the)\b)|(?:usually|typically|generally|normally)[ \t]+(?:means|requires|needs)\b"
    # (what the line then finds absent: "...; none of that is present here", not "..., which is what I measure")
    r"(?=[^\n]*?\b(?:none|not|no|isn't|aren't|absent|lacking)\b))"
    # held-out batch 169: 'Why I'm not choosing "stable" (A): ...', "Cytotoxic oedema (B) looks quite different: ..."
    r"|(?i:not[ \t]+(?:choosing|picking|selecting|going[ \t]+with|calling[ \t]+it|labell?ing[ \t]+it))[ \t]+"
    r"[^.:;\n()]{0,40}?[(\[]([A-Z])[)\]]"
    r"|[(\[]\b([A-Z])\b[)\]][ \t*_]*(?i:(?:looks?|is|are|appears?)[ \t]+(?:(?:quite|very|rather|completely|entirely)"
    r"[ \t]+)?different)\b"
    # a reader check of 2026-12: "Option C would not be correct here.", "C wouldn't fit." (read C surely before); only
    # where what would not be is the answer or a fit; "doesn't fit" is left to the rules that weigh a list of options
    # set aside, where one letter masked alone leaves the next to be read
    r"|[(\[]?\b([A-Z])\b[)\]]?[ \t]+(?i:(?:would|could|should|will|might|must)(?:n't|[ \t]+not|[ \t]+never)"
    r"|won't)[ \t]+(?i:be[ \t]+(?:correct|right|accurate|honest|appropriate|my[ \t]+(?:answer|choice|pick)"
    r"|the[ \t]+(?:right[ \t]+|correct[ \t]+)?answer)|fit|apply|explain|match|account[ \t]+for)\b"
    # (not praise: "(A) couldn't fit better", "C would not be wrong", "(B) would not be a surprise": a review)
    r"(?![ \t]+(?i:better|more|any[ \t]+better|best)\b))"
)
# a paragraph that reviews the options set aside ("The other choices: hypertensive retinopathy (C) could give ...,
# a central retinal vein occlusion (D) would ...", "Why not the others:"): its letters name no answer
_OTHERS_REVIEWED = re.compile(r"(?im)^[ \t>#*_]*(?:(?:the[ \t]+)?other[ \t]+(?:choices|options|answers|candidates)"
                              r"|why[ \t]+not[ \t]+(?:the[ \t]+)?(?:others?|rest|alternatives|other[ \t]+\w+))"
                              r"[ \t*_]*[:\u2013\u2014\-]")
_BRACKETED_LETTER = re.compile(r"[(\[]([A-Z])[)\]]")
# several letters rejected at once: "A and B can be excluded", "A, B and D are wrong" (a chain of letters, found
# once each, then what follows it: linear even on "A or A or A or ...")
_LETTER_CHAIN = re.compile(r"(?<![\w'])(?:(?i:options?|choices?)[ \t]+)?[A-Z](?:[ \t]*(?:,|(?i:and|or)\b|&|/)[ \t]*"
                           r"[A-Z](?![\w']))+")
_CHAIN_REJECTED = re.compile(r"[ \t]+(?i:are|were|can\s+(?:both\s+|all\s+)?be|could\s+be|seem|look)[ \t]+"
                             # (held-out batch 146: "so options A and D are impossible")
                             r"(?i:not\b|wrong|incorrect|unlikely|excluded|ruled\s+out|less\s+likely|inaccurate|false|"
                             r"impossible(?![ \t]+(?:to|for|that|with|if|unless|without)\b))")
# "Excluding A, C and D leaves B.", "Ruling out A and B, ...": a chain of letters after a word that rejects them
_CHAIN_REJECTED_BEFORE = re.compile(r"(?i)\b(?:" + SET_ASIDE_WORDS
                                    + r"|eliminating)[ \t]+(?:(?:options?|choices?)[ \t]+)?$")


# A word of judgement that is not an option's word ("None of the options seem right." must not read "right side");
# "right" before a part of the body (lexicon.SIDED_PARTS) is the side, no judgement (batch 91: "Not the right kidney")
JUDGEMENT = re.compile(r"(?i)\b(?:seems?|looks?|is|are|be|sounds?|feels?|that's|all|quite|not|none)[ \t]+"
                       r"(?:\w+[ \t]+)?(?:right|correct|wrong)\b(?![ \t]+"
                       + lexicon.SIDED_PARTS + r"|-" + lexicon.SIDED_PARTS + r")"
                       r"|\b(?:right|correct|wrong)[ \t]+(?:answer|option|choice)s?\b")


# batch 21: a last function word that ends its phrase: "it" after a preposition ("no kidney on it"; batch 91: "the
# kidney is seen with the liver above it"), and a yes or no
# after a verb of answering ("guessing no", "I'd say yes", "going with no")
_ENDS_WHOLE = re.compile(r"(?i)\b(?:on|in|of|with|about|at|for|from|into|onto|behind|under|over|through|within|"
                         r"without|inside|around|beyond|near|above|below|beside|next[ \t]+to)[ \t]+it\Z"
                         r"|\b(?:guess(?:ing)?|say(?:ing)?|answer(?:ing)?|go(?:ing)?[ \t]+with|call(?:ing)?[ \t]+it|"
                         # batch 93: "image is very small, hard to see, but i think no"
                         r"(?<!n't[ \t])(?<!not[ \t])(?:think|believe)|"
                         r"lean(?:ing)?(?:[ \t]+towards?)?)[ \t,:]+(?:no|yes)\Z"
                         # batch 61: "... the size is normal so not cirrhotic, no": a conclusion after "so", then the
                         # answer word after a comma
                         r"|\bso[ \t]+(?:not[ \t]+|it(?:'s|[ \t]+is)[ \t]+(?:not[ \t]+)?)?[\w\-]+[ \t]*,[ \t]*"
                         r"(?:no|yes)\Z"
                         # held-out batch 168: "fluid looks black and fat looks white, t1 then, no": the conclusion
                         # with "then" after it, the same
                         r"|(?:\A|[,;:.\u2014\u2013])[ \t]*[\w\-]+[ \t]+then[ \t]*,[ \t]*(?:no|yes)\Z"
                         # batch 78: "this is a foot x ray not a hand, no": what it is set against what was asked,
                         # then the answer word after a comma
                         # (held-out batch 170: "duct is thin, around 4 mm, not dilated, no")
                         r"|\bnot[ \t]+(?:(?:a|an|the)[ \t]+)?[\w\-]+[ \t]*,[ \t]*(?:no|yes)\Z"
                         # batch 81: "spleen is 10 cm long which is normal size, so no": the conclusion after a comma
                         r"|,[ \t]*(?:so|hence|therefore|thus)[ \t]+(?:no|yes)\Z")


def is_truncated(text: str) -> bool:
    """A reply that stops mid-sentence: it ends in a function word ("This would"), a comma, a colon or an open
    bracket (what a length limit leaves)."""
    # batch 36: a line break or a space left where a chat template's end token was dropped ("... below it.<|im_end|>
    # \n<|endoftext|>") is no part of the last sentence
    t = text.rstrip(" \t\r\n*_")
    if not t or t[-1] in ".!?)]}\"'`>":
        return False
    if t[-1] in ",:;(-[":
        return True
    if t[-1].isdigit() or re.search(r"(?:->|=>|\u2192)[ \t]*[^\W\d_]+\Z", t):
        return False  # batch 17: "ctr more than 0.5", "... -> normal -> no": a value, or an arrow's last step
    if re.search(r"(?i)(?:\b(?:a|an)[ \t]+(?:[\w\-]+[ \t]+)?|\b[a-z]+-[a-z]+[ \t]+)look\Z", t):
        return False  # batch 20: "..., stuck-on look", "with a waxy look": the noun, a description that ends
    words = re.findall(r"[A-Za-z']+", t[-40:])
    if not words or re.fullmatch(r"[A-Z]", words[-1]):  # "Based on the image, A" ends in its answer
        return False
    if _ENDS_WHOLE.search(t):
        return False  # batch 21: "... with no kidney on it", "... guessing no": the phrase is whole
    if _CUT_CORRELATIVE.search(t):
        return True  # batch 42: "... partly solid, partly": the second half of a pair cut off
    if _CUT_LET_ME.search(t):
        return True  # batch 67: "... also has one. Let me weigh": what it was to weigh is cut off
    if _CUT_WHETHER.search(t):
        return True  # batch 68: "..., but whether it's avascular": a whether-clause the sentence had yet to judge
    if cut_after_modifier(t):
        return True  # batch 35: "... shows clear signs of avascular necrosis ... The left": a new sentence cut off
    if _CUT_DEGREE.search(t):
        return True  # held-out batch 181: "... the line of the bone there seems a little": what it seems is cut off
    if _CUT_PLACE.search(t):
        return True  # held-out batch 186: "The opacity is in the left lower": the place's noun is cut off
    if len(t.split()) <= _CUT_SEEN_WORDS and _CUT_SEEN.search(t):
        return True  # a black-box check of 2026-12-06: "There is a", "I see no": what is seen is cut off
    return words[-1].lower() in lexicon.FUNCTION_WORDS and len(text.split()) > 3

# a black-box check of 2026-12-06 (rev34): what is there or seen, cut off before it is named ("There is a", "I see
# no", "No, there is", "There is some", "There is a small", read yes or no, sure; even in three words, which a
# function word alone does not count as cut off)
#: (only in a short reply: "No, the fracture is not displaced; ..., though there is a small" has answered, the corpus)
_CUT_SEEN_WORDS = 8
_CUT_SEEN = re.compile(r"(?i)(?:\b(?:there[ \t]+(?:is|are)|there's|I[ \t]+(?:can[ \t]+)?see|"
                       r"(?:it|this|image|film|scan)[ \t]+shows?)[ \t]+(?:a|an|the|some|any|no)|"
                       r"\b(?:a|an|some)[ \t]+(?:small|large|tiny|subtle|thin|mild|moderate|big|minimal|little|few|"
                       r"trace))\Z")

# held-out batch 186: "The opacity is in the left lower": a side and a zone after "in the", with nothing after it and
# no mark, where the lobe or zone it names is cut off (not "on the left", "the lower left", "rather than the lower",
# "relative to the proximal", whose phrase is whole: a review)
_CUT_PLACE = re.compile(r"(?i)\b(?:in|at|of|into|within|involving)[ \t]+the[ \t]+(?:left|right)[ \t]+"
                        r"(?:upper|lower|mid|middle)\Z")

# held-out batch 181: a linking verb and a word of degree, with nothing after it and no mark ("the line of the bone
# there seems a little", "the duct is quite"): what it was to be is cut off (not "it hurts a little", said of a verb)
_CUT_DEGREE = re.compile(r"(?i)\b(?:seems?|looks?|appears?|is|are|was|were|feels?)[ \t]+(?:a[ \t]+little|a[ \t]+bit|"
                         r"slightly|somewhat|rather|quite|very|fairly|pretty|more|less|too|so)\Z")

# batch 67: a last sentence, without its mark, that is only "Let me" and a verb ("Let me weigh", "let me check"): the
# reasoning it announces is cut off (not the sign-off "let me know")
_CUT_LET_ME = re.compile(r"(?i)(?:\A|[.!?\n:;]|[,\u2014\u2013])[ \t]*(?:now[ \t,]+|so[ \t,]+|ok(?:ay)?[ \t,]+)?"
                         r"let[ \t]+me[ \t]+(?!know\b)[a-z]+\Z")
# batch 68: a last sentence, without its mark, that ends in a whether-clause standing as its subject, after a comma, a
# conjunction or the sentence's start ("Both femoral heads show early sclerosis, but whether it's avascular"): what
# the sentence was to say of it ("... is unclear", "... needs an MRI") is cut off (not "I can't tell whether it's
# avascular", whose whether-clause is whole)
_CUT_WHETHER = re.compile(r"(?i)(?:\A|[.!?\n]|[,;:\u2014\u2013]|\b(?:but|and|yet|though|although))[ \t]*whether\b"
                          r"(?![ \t]+or[ \t]+not\b)[^,.;:!?\n\u2014\u2013]{0,80}\Z")

# batch 42: a pair's correlative word repeated after a comma, with nothing after it and no mark ("a mixed
# echotexture — partly solid, partly"): the second half is cut off
_CUT_CORRELATIVE = re.compile(r"(?i)\b(partly|partially|part|half|sometimes|some)\b[^.;!?\n]{1,60},[ \t]*"
                              r"(?:and[ \t]+|but[ \t]+)?\1\Z")

# batch 35: a last sentence, after a whole one, that is only an article and a side or position word, without its
# noun or its full stop ("... with a crescent sign and early collapse. The left"): what it was to say is cut off
# (not a whole reply "the left", nor "The left." with its mark)
_CUT_AFTER_MODIFIER = re.compile(r"(?i)[.!?][ \t]+(?:(?:in|on|at|of)[ \t]+)?(?:the|a|an|its|their)[ \t]+"
                                 r"(?:(?:left|right|upper|lower|other|both|anterior|posterior|medial|lateral|"
                                 r"proximal|distal|superior|inferior)[ \t]*){1,2}\Z"
                                 # batch 62: a list of findings whose last item, after a semicolon and without its
                                 # mark, is only a side and the structure it names, nothing said of it ("Re-review:
                                 # cardiothoracic ratio 0.58; right costophrenic angle")
                                 r"|;[ \t]+(?:the[ \t]+)?(?:left|right)[ \t]+[a-z\-]{4,}[ \t]+(?:angle|recess|"
                                 r"sulcus|border|margin|contour|hemithorax|hemidiaphragm|base|apex|lobe|hilum)\Z")


def cut_after_modifier(text: str) -> bool:
    """The reply's last sentence is cut off after an article and a side word ("... early collapse. The left")."""
    return _CUT_AFTER_MODIFIER.search(text.rstrip(" \t*_")) is not None

# batch 35: "whether it has reached the proliferative stage depends on whether the fine vessels ...": what the
# whether-clause names is left open (asked, not answered), to the sentence's end
_OPEN_WHETHER = re.compile(r"(?i)\bwhether\b[^.;!?\n]{0,160}?\b(?:depends|hinges|rests|turns)[ \t]+(?:on|upon)\b"
                           r"[^.;!?\n]*")


def open_whether_spans(text: str) -> list[tuple[int, int]]:
    """Spans of whether-clauses whose answer depends on something else ("whether it is X depends on ...")."""
    return [m.span() for m in _OPEN_WHETHER.finditer(text)]


def rejected_letters(text: str, item: Item) -> list[tuple[int, int]]:
    """Spans of letters the reply rejects or only weighs ("Not A, but B.", "Between A and B, B.", "A or B? B.",
    "A is wrong; C.")."""
    spans = [(m.start(), m.end()) for m in ALTERNATIVES.finditer(text)]
    spans += [m.span() for m in _LETTER_CHAIN.finditer(text) if _CHAIN_REJECTED.match(text, m.end())
              or _CHAIN_REJECTED_BEFORE.search(text[max(0, m.start() - 40):m.start()])]
    for m in _LETTER_REJECTED.finditer(text):
        g = next((i for i in (1, 2, 3, 4, 5, 6, 7) if m.group(i)), None)
        if g is not None and item.letter(m.group(g)) is not None and m.group(g) != "I":
            spans.append((m.start(g), m.end(g)))
    for m in _OTHERS_REVIEWED.finditer(text):
        stop = text.find("\n\n", m.end())
        stop = len(text) if stop < 0 else stop
        spans += [b.span(1) for b in _BRACKETED_LETTER.finditer(text, m.end(), stop) if item.letter(b.group(1))]
    return [_with_own_text(text, item, a, b) for a, b in spans]


def _with_own_text(text: str, item: Item, start: int, end: int) -> tuple[int, int]:
    """A rejected letter's span, and the option's own text after it ("Not D - atelectasis, then.": what is set aside
    is the option, by its letter and its words; a review of held-out batch 171's rules). Not another option's text
    ("Not C — mildly enlarged." names the one meant)."""
    lab = item.letter(text[start:end]) if end - start == 1 else None
    opt = item.option_text(lab)
    if not opt or not re.search(r"[^\W\d_]{2}", opt):
        return start, end
    own = pattern(r"[)\]]?[ \t*_]*[-:,\u2013\u2014][ \t*_]*(?:the[ \t]+)?" + spelled(opt) + r"(?![\w\-])",
                  re.IGNORECASE).match(text, end)
    return (start, own.end()) if own is not None else (start, end)


# "Proliferative? No.", "Is it pneumonia? Yes.": a short question the reply asks itself and answers at once
_SELF_ANSWERED = re.compile(r"(?i)(?:\A|(?<=[.!;:\n]))(?P<lead>[ \t\-*]*)(?P<q>[^.?!;:\n]{1,40})\?[ \t]*"
                            r"(?P<a>yes|yep|yeah|no|nope)\b(?=[ \t]*(?:[.,;:!\-]|\n|\Z))")


_NEGATIVE_QUESTION = re.compile(r"(?i)[ \t]*(?:no|not|neither|none|nor|without|absent|absence)\b")


def answered_questions(text: str) -> str:
    """Choice items: each short question the reply asks itself about an option and answers at once, said as a
    statement ("Proliferative? No." is "not Proliferative.", "Arterial phase? Yes." is "Arterial phase."), so that
    the option rules read it; a longer question is left as it is (what it names is asked, not answered)."""
    if "?" not in text:
        return text

    def said(m: re.Match[str]) -> str:
        q = m.group("q")
        if len(q.split()) > 4 or _NEGATIVE_QUESTION.match(q):
            return m.group(0)  # a longer question; "Neither hip? No - ..." (a double negation) is left as asked
        return m.group("lead") + ("not " + q if m.group("a").lower() in ("no", "nope") else q)

    return _SELF_ANSWERED.sub(said, text)


def question_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of sentences that end in "?" ("Upside down? No, it's correct.", "Is it red?"): what they name is
    asked, not answered."""
    if "?" not in text:
        return []
    out = []
    start = 0
    for m in re.finditer(r"[.!?\n]", text):  # linear: each sentence is scanned once
        if m.group(0) == "?":
            out.append((start, m.end()))
        start = m.end()
    return out


def entertained_labels(text: str, item: Item, canonical: bool = False) -> set[str]:
    """Labels named in clauses that only entertain them ("... but I'm not sure it isn't upside down", "it could
    also be C"), negated or not."""
    if not _ENTERTAIN.search(text):
        return set()
    out: set[str] = set()
    if not canonical:
        citem = canonical_item(item.kind, item.labels, item.options, item.question)
        out |= entertained_labels(synonyms.canonical(lexicon.translate(text), citem.narrow), citem, canonical=True)
    cuts = [0, *(m.end() for m in _CLAUSE_SPLIT.finditer(text)), len(text)]
    for a, b in zip(cuts, cuts[1:]):
        clause = text[a:b]
        if not _ENTERTAIN.search(clause):
            continue
        if item.kind == "choice":
            out.update(bare_letters(clause, item)[0])
            out.update(lb for m in _LETTER_ENTERTAINED.finditer(clause) if (lb := item.letter(m.group(1))))
            for m in _LONE_CAPITAL.finditer(clause):  # "it could be C as well"; not the article in "A cyst may ..."
                if m.group(1) in "AI" and _ARTICLE_BEFORE.match(clause[m.end():]):
                    continue
                if (lb := item.letter(m.group(1))) is not None:
                    out.add(lb)
            low = norm(clause)
            out.update(lb for opt, lb in item.option_map
                       if re.search(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])", low))
            if canonical:  # "either on the right or bilateral": options named in other words, too
                out.update(options_in_words(clause, item).named)
        else:
            for word, lab in item.words:
                if phrase_regex(word, suffix=item.kind == "label").search(clause):
                    out.add(lab)
    return out


def named_in(text: str, item: Item) -> set[str]:
    """The labels a short stretch of reply names at all: lone option letters (not the article "A a ..."), option
    texts, label words."""
    if item.kind != "choice":
        return set(label_words(text, item))
    out = {lb for m in _LONE_CAPITAL.finditer(text) if (lb := item.letter(m.group(1))) is not None
           and not (m.group(1) in "AI" and _ARTICLE_BEFORE.match(text[m.end():]))}
    low = norm(text)
    return out | {lb for opt, lb in item.option_map if whole_text(opt).search(low)}


# batch 17: an answer under a condition ("If the troponin is raised ..., A; if the D-dimer is high ..., B", "if
# febrile B, otherwise A"): a clause that opens with a condition (not "If I had to choose, ...") or an "otherwise"
_CONDITION = re.compile(r"(?i)\A[\W_]*(?:(?:and|but|or|whereas|while)[ \t]+)?(?:if|when|unless|provided|assuming|"
                        r"in[ \t]+case|otherwise|else|or[ \t]+else)\b"
                        r"(?![ \t]+(?:I|we|you)[ \t]+(?:had|have|must|were|was|am|are)[ \t]+(?:forced[ \t]+)?to\b)"
                        r"(?![ \t]+(?:forced|pressed|asked|required)\b)")
_CONDITION_SPLIT = re.compile(r"[.;!?\n]|,[ \t]*(?=(?i:otherwise|else|or[ \t]+else)\b)")


# a clause or sentence under a condition on what the image shows ("if it's bright, ...", "When the CSF is bright,
# ..."), to its sentence's end; not the reply's own hedge ("If I had to choose, ...", "if forced", "if anything")
_CONDITION_SPAN = re.compile(
    r"(?i)(?:\A|(?<=[.!?;:\n]))[ \t*_>\-]*(?:if|when|whenever)\b(?![ \t]+(?:i|i'm|i'd|we|forced|"
    r"pressed|anything|so|not|asked|in\s+doubt|it\s+helps|you\s+(?:ask|want|force|press|look|check|examine|review)\w*|"
    r"measured|viewed|reviewed|compared|considering|considered|assessed|seen|looked|taken|read|windowed|examined|"
    r"evaluated|interpreted|judged|one\s+were\s+to\s+(?:classify|choose|pick|answer|label|categori[sz]e|call)|"
    r"(?:a|an|one|the)\s+(?:single\s+)?(?:label|answer|choice|category|"
    r"classification)\s+(?:were|was|is)\s+(?:required|needed|forced|wanted))\b)"
    r"(?:[^.!?;\n]|\.(?=\d))*"
    # (a choice asked for is no condition either: "If a single label were required, it would be adult"; a decimal point
    # does not end it: "If the CTR exceeds 0.5, ..."; where or how the reader looks is no condition:
    # "If you look at the apices, they are at the top", "When viewed on lung windows, no pneumothorax is seen": two
    # hostile reviews. The full stops of "e.g." and "i.e." still end it: a span past them took a corrected answer's
    # closing advice, "If you have the series name ... (e.g., "T1 MPRAGE +C"), ...", and unread held-out b129-0158)
    # batch 40: "... that can be normal; otherwise it would count as dilated.": what would hold otherwise is a
    # condition too (not "Otherwise the knee shows ...", which says what is)
    r"|(?:\A|(?<=[.!?;:,\n]))[ \t]*(?:(?:and|but)[ \t]+)?otherwise[ \t,]+(?:[\w\-']+[ \t]+){0,3}?"
    r"(?:would|could|might)\b[^.!?;\n]*")


def condition_spans(text: str) -> list[tuple[int, int]]:
    """Where the reply states what holds under a condition on what the image shows ("if it's bright, you're looking at
    a T2-weighted image"): a rule for reading such images, which says nothing of this one."""
    return [m.span() for m in _CONDITION_SPAN.finditer(text)]


def conditional_answers(text: str, item: Item) -> tuple[list[tuple[int, int]], set[str]]:
    """Choice and label items: the clauses that give an answer only under a condition ("If the troponin is raised
    and the ECG shows ST elevation, A; if the D-dimer is high ..., B", "if febrile B, otherwise A", "If ...,
    **tuberculosis (D)**; if ..., **sarcoidosis (A)**"), as their spans and the labels they name (not "If I had to
    choose, B.")."""
    if item.kind == "yesno" or not re.search(r"(?i)\b(?:if|when|unless|provided|assuming|in\s+case|otherwise|else)\b",
                                             text):
        return [], set()
    spans: list[tuple[int, int]] = []
    labels: set[str] = set()
    cuts = list(_CONDITION_SPLIT.finditer(text))
    bounds = [(0, cuts[0].start())] if cuts else [(0, len(text))]
    bounds += [(a.end(), b.start()) for a, b in zip(cuts, cuts[1:])]
    if cuts:
        bounds.append((cuts[-1].end(), len(text)))
    for a, b in bounds:
        clause = text[a:b]
        if not _CONDITION.match(clause):
            continue
        named = named_in(clause, item)
        if named:
            spans.append((a, b))
            labels |= named
    return spans, labels


# batch 17: an alternative left open below the answer ("Scabies (D). Although eczema cannot be excluded, ...", "...,
# although an amelanotic melanoma cannot be excluded without histology")
_UNEXCLUDED = re.compile(r"(?i)\b(?:can(?:not|'t)|could(?:\s*not|n't))\s+(?:be\s+)?(?:(?:fully|completely|entirely|"
                         r"totally|definitely|confidently)\s+)?(?:excluded?|ruled?\s+out)\b"
                         # hostile review of 7a0dcec: "Hemangioma is not excluded.", "Abscess is not impossible.",
                         # "Osteoarthritis is not unlikely." (a possibility left open, no answer)
                         r"|\b(?:is|are)(?:\s+not|n't)\s+(?:excluded|ruled\s+out|impossible|unlikely|improbable|"
                         r"implausible)\b")


def unexcluded_spans(text: str) -> list[tuple[int, int]]:
    """The clauses that only leave something open ("choledocholithiasis cannot be excluded", "Underlying atelectasis
    cannot be excluded."): what they name is not named as the answer (batch 81: "Impression: cholelithiasis;
    choledocholithiasis cannot be excluded." names no option; "Right lower lobe pneumonia. Underlying atelectasis
    cannot be excluded." names pneumonia)."""
    if not _UNEXCLUDED.search(text):
        return []
    cuts = [0, *(m.end() for m in re.finditer(r"[.!?;:\n]|,(?=\s)", text)), len(text)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if _UNEXCLUDED.search(text, a, b)]


# batch 84: how another option looks in general, set beside the answer ("... most consistent with **Tinea corporis**.
# Erythema migrans is usually not scaly."): a sentence whose verb is qualified by "usually", "typically", ...
_TEXTBOOK_REMARK = re.compile(r"(?i)(?:\A|(?<=[.!?\n]))[^.!?\n]{1,80}?\b(?:is|are|tends?\s+to\s+be|would\s+be)\s+"
                              r"(?:usually|typically|classically|generally|commonly|normally)\b[^.!?\n]*")
_OF_THIS_CASE = re.compile(r"(?i)\b(?:this|these|here|patient|image|photo|picture|lesion|rash|plaque)\b")


# batch 88: an option as the subject of what it shows in general ("Melanoma would show a network. Basal cell carcinoma
# shows arborizing vessels." after the answer): the option's text opening the sentence, then such a verb
_SHOWS_IN_GENERAL = (r"[ \t]+(?:would|can|may|should|will|typically|usually|classically|often)?[ \t]*(?:show|shows|"
                     r"have|has|cause|causes|present|presents|produce|produces|demonstrate|demonstrates|lack|lacks|feature|"
                     r"features)\b[^.!?\n]*")
# an option that is a place in this image ("The left kidney shows marked pelvicalyceal dilatation" describes it)
_PLACE_OPTION = re.compile(r"(?i)\A(?:the\b|.*\b(?:left|right|both|bilateral|upper|lower|anterior|posterior)\b)")


@functools.lru_cache(maxsize=1024)
def _sentence_of_option(opt: str, lead: str, tail: str) -> re.Pattern[str]:
    """A sentence that opens with ``lead`` and an option's text, then ``tail``; compiled once per option and form."""
    # (batch 90: also a clause after a colon or a semicolon, "This is not the portal venous phase: in the portal venous
    # phase the portal and hepatic veins would be brightly enhanced, ...")
    return re.compile(r"(?i)(?:\A|(?<=[.!?\n:;])|(?<=[.!?:;][ \t]))[ \t*_\-]*" + lead
                      + r"[ \t]+".join(map(re.escape, opt.split())) + tail)


def _sentences_of_options(text: str, item: Item, lead: str, tail: str) -> list[tuple[int, int]]:
    """Where :func:`_sentence_of_option` finds a sentence about an option that is no place in the image."""
    return [m.span() for opt, _ in item.option_map if len(opt) >= 3 and not _PLACE_OPTION.match(opt)
            for m in _sentence_of_option(opt, lead, tail).finditer(text)]


def option_remarks(text: str, item: Item) -> list[tuple[int, int]]:
    """The sentences that open with an option's text and say what it shows in general (:data:`_SHOWS_IN_GENERAL`),
    nothing of this case."""
    return [(a, b) for a, b in _sentences_of_options(text, item, "", _SHOWS_IN_GENERAL)
            if not _OF_THIS_CASE.search(text, a, b)]


def hypothetical_cases(text: str, item: Item) -> list[tuple[int, int]]:
    """Sentences that say what would hold in a case of an option ("In a communicating hydrocephalus the CSF can pass
    freely ..., so the fourth ventricle would be enlarged", batch 88): a hypothesis set against this image, which
    names that option only to weigh it; only where the rest of the reply says something of its own."""
    spans = _sentences_of_options(text, item, r"in\s+(?:an?\s+|the\s+)?",
                                  r"\b[^.!?\n]*\b(?:would|could|can|typically|usually|tends?\s+to)\b[^.!?\n]*")
    # batch 94: the same said the other way round ("the hepatic veins are filled with contrast as well — they'd still
    # be dark in an arterial phase")
    if "would" in text or "'d" in text:
        # (only an option the reply denies in so many words: not "the bowel would look exactly like this in an
        # incarcerated inguinal hernia, and the groin loop confirms it": hostile review of 328c64d)
        spans += [m.span() for opt, _ in item.option_map if len(opt) >= 3 and not _PLACE_OPTION.match(opt)
                  and re.search(r"(?i)(?:\bnot|n't)\s+(?:an?\s+|the\s+)?"
                                + r"[ \t\-]+".join(map(re.escape, opt.split())), text)
                  for m in re.finditer(r"(?i)(?:\bwould|'d)\s+(?:still\s+|typically\s+|usually\s+)?(?:be|look|appear|"
                                       r"show|have|enhance|remain)\b[^.!?\n;:\u2014]{0,80}?\bin\s+(?:an?\s+|the\s+)?"
                                       + r"[ \t\-]+".join(map(re.escape, opt.split())) + r"\b", text)]
    # batch 96: what such a case would have, in a relative clause ("... internal blood flow, neither of which a
    # fluid-filled cyst would have")
    if "would" in text:
        spans += [m.span() for m in _WOULD_HAVE.finditer(text)]
    return spans if spans and len(re.findall(r"[^\W\d_]+", mask_spans(text, spans))) >= 3 else []


_WOULD_HAVE = re.compile(r"(?i)\b(?:which|that|what)\s+(?:an?|the)\s+(?:[\w\-]+\s+){0,2}?[\w\-]+\s+would\s+"
                         r"(?:have|show|produce|cause|typically\s+\w+)\b")


# what the reply sets out to do, or a task it names, not what it finds ("I'll go through both hips in turn before
# answering.", "distinguishing vasogenic from cytotoxic oedema is a core skill"): up to the end of its clause
# (only a plan that answers nothing yet, "in turn", "before answering": a hostile review of 397d1cb, "I'll start with
# the right hip because it is the abnormal one")
_PLAN_OR_TASK = re.compile(r"(?i)\b(?:i'll|i\s+will|let\s+me|let's|i'm\s+going\s+to|i\s+am\s+going\s+to)\s+"
                           r"(?:go\s+through|look\s+at|check|review|examine|assess|compare|walk\s+through)\s+"
                           r"[^.!?\n;:,]{0,60}?\b(?:in\s+turn|one\s+by\s+one|one\s+at\s+a\s+time|before\s+(?:answering|"
                           r"I\s+answer|deciding|committing))\b[^.!?\n;:]*"
                           # (a task as the subject of its sentence, not an instruction: "To tell communicating from
                           # non-communicating hydrocephalus, look at the fourth ventricle: ...")
                           r"|\b(?:distinguishing|differentiating|telling)\s+(?:[\w\-]+\s+){1,5}?(?:from|apart)\s+"
                           r"(?:[\w\-]+\s+){0,4}?(?:is|are|requires?|can|remains?)\b[^.!?\n;,]*")


def plans_and_tasks(text: str) -> list[tuple[int, int]]:
    """The spans of what the reply sets out to do or names as a task (:data:`_PLAN_OR_TASK`), for the caller to
    mask: no finding of the image."""
    return [m.span() for m in _PLAN_OR_TASK.finditer(text)]


def textbook_remarks(text: str, item: Item) -> list[tuple[int, int]]:
    """The sentences that only say how an option looks in general, when the rest of the reply still names an option
    (otherwise such a sentence may be the whole answer: "Tinea corporis is typically scaly."): what they name is not
    named as the answer."""
    spans = [m.span() for m in _TEXTBOOK_REMARK.finditer(text) if not _OF_THIS_CASE.search(m.group(0))]
    remarks = option_remarks(text, item) if item.kind == "choice" else []
    if remarks:
        # batch 88: "**Impression: Seborrheic keratosis**\n\nMelanoma would show a network. Basal cell carcinoma shows
        # arborizing vessels.": only where the rest still names an option by its text, undenied (not batch 67's
        # "Tinea corporis usually has a scaly border. Nothing here points to A, really.")
        said = option_mentions(mask_spans(text, [*spans, *remarks]), item)
        spans += remarks if said is not None and said[0] else []
    if not spans:
        return []
    return spans if named_in(mask_spans(text, spans), item) else []


def closing_left_open(text: str) -> str | None:
    """The reply's closing sentence when it only leaves something open ("... Right lower lobe pneumonia. Underlying
    atelectasis cannot be excluded.", batch 81): a whole sentence, ended by its full stop, after sentences that leave
    nothing open. None otherwise."""
    body = text.rstrip()
    if not body.endswith(".") or not _UNEXCLUDED.search(body, max(0, len(body) - 300)):
        return None
    start = max((m.end() for m in re.finditer(r"[.!?\n]", body[:-1])), default=0)
    last = body[start:]
    if start == 0 or not _UNEXCLUDED.search(last) or _UNEXCLUDED.search(body, 0, start) or ":" in last:
        return None
    return last


def unexcluded_labels(text: str, item: Item) -> set[str]:
    """Choice items: the options the reply names only in a clause that leaves them open below its answer ("Although
    eczema cannot be excluded, ...", "An IPMN can't be completely ruled out"), by their text or in other words."""
    if item.kind != "choice" or not _UNEXCLUDED.search(text):
        return set()
    citem = canonical_item(item.kind, item.labels, item.options, item.question)
    out: set[str] = set()
    cuts = [0, *(m.end() for m in re.finditer(r"[.!?;\n]|,(?=\s)", text)), len(text)]
    for a, b in zip(cuts, cuts[1:]):
        clause = text[a:b]
        if not _UNEXCLUDED.search(clause):
            continue
        out |= named_in(clause, item)
        canon = synonyms.canonical(lexicon.translate(clause), citem.narrow)
        out |= named_in(canon, citem) | set(options_in_words(canon, citem).named)
    return out


# batch 72: "The lesion has some benign features (oval shape) and some suspicious features (indistinct margin). BI-RADS
# 4 — biopsy recommended.": features of two kinds weighed, neither taken; an option's word as the kind of a feature
# ("benign features") names no answer
_FEATURES = r"(?:features?|signs?|characteristics|elements|findings)"
_FEATURES_OF_BOTH = re.compile(
    r"(?i)\b(?:some|several|a[ \t]+few|certain|mixed)[ \t]+[^\W\d_][\w\-]*[ \t]+" + _FEATURES + r"\b[^.;!?\n]{0,80}?"
    r"\b(?:and|but|with|as[ \t]+well[ \t]+as|yet|while|whereas)[ \t]+(?:also[ \t]+)?(?:some|several|a[ \t]+few|"
    r"certain|other)[ \t]+[^\W\d_][\w\-]*[ \t]+" + _FEATURES + r"\b"
    r"|\bboth[ \t]+[^\W\d_][\w\-]*[ \t]+and[ \t]+[^\W\d_][\w\-]*[ \t]+" + _FEATURES + r"\b")


def features_of_both(text: str) -> bool:
    """Whether the reply weighs features of two kinds ("some benign features ... and some suspicious features")."""
    return _FEATURES_OF_BOTH.search(text) is not None


# "First choice: B (pneumonia). Second choice: C.", "Most likely: B. Second most likely: C.", "Runner-up: C": an option
# ranked below the answer is a runner-up, not the answer (masked before the rest is read, up to the end of its clause).
# Not "the second option", which is a place in the list (positions.py), nor "my second answer", which may revise
_RUNNER_UP = re.compile(r"(?i)(?<![\w-])(?:(?:my|the|a|your)\s+)?"
                        r"(?:(?:second|2nd|third|3rd|next)[\s-]+(?:choice|pick|best|most\s+(?:likely|probable)|likeliest)"
                        r"(?:\s+(?:answer|option|diagnosis|choice|candidate))?"
                        r"|runners?[\s-]+up)"
                        r"[ \t]*(?:[:=\u2013\u2014-]|\s(?:would\s+be|is|:))?[ \t]*[^.;!?\n,]{1,80}[.;!?]?")


def runner_up_spans(text: str) -> list[tuple[int, int]]:
    """Where the reply ranks an option below its answer ("Second choice: C.", "Runner-up would be C"): the option
    there is weighed, not chosen, so the rules mask it and the sureness check does not hear it as a closing answer."""
    if not re.search(r"(?i)second|2nd|third|3rd|next|runner", text):
        return []
    return [m.span() for m in _RUNNER_UP.finditer(text)]


@functools.lru_cache(maxsize=1024)
def _entry_of_option(opt: str) -> re.Pattern[str]:
    """A line that opens with an option's text as its entry: after a bullet, a number or a table's bar, or followed
    by a colon or a dash; the rest of the line is the group ``said``."""
    body = r"[ \t]+".join(map(re.escape, opt.split()))
    return re.compile(r"(?im)^[ \t]*(?:(?:[-*\u2022+]|\d{1,2}[.)])[ \t]+|\|[ \t]*)(?:\*\*|__)?" + body
                      + r"(?:\*\*|__)?(?![\w\-])(?P<said>[^\n]*)"
                      r"|^[ \t]*(?:\*\*|__)?" + body + r"(?:\*\*|__)?[ \t]*(?=[:\u2014\u2013])(?P<said2>[^\n]*)")


def dismissed_entries(text: str, item: Item) -> list[tuple[int, int]]:
    """The lines of a differential that each open with an option and set it aside (batch 88: "- **Pseudocyst:** Fluid
    attenuation ... — this is solid and enhancing, so no.", "- **Transverse:** ... — not this.", "- Glioblastoma:
    intra-axial ... Not consistent."; :func:`lexicon.dismissed`): what such an entry names is weighed and set aside,
    not the answer."""
    if item.kind != "choice" or "\n" not in text:
        return []
    spans = []
    for opt, _ in item.option_map:
        if len(opt) < 3 or lexicon.escape_kind_of_option(opt):
            continue
        for m in _entry_of_option(opt).finditer(text):
            said = m.group("said") if m.group("said") is not None else m.group("said2")
            if lexicon.dismissed(said):
                spans.append(m.span())
    return spans


# a line labelled as what the answer is not ("**Common pitfall:** A. Left femur - the marker is easy to misread.",
# "Less likely: C. Pneumonia", "Distractor: ...": a review of held-out batch 171's rules)
_SET_ASIDE_LINE = re.compile(r"(?im)^[ \t>*_#\-]*(?:(?:common|main|key|classic)[ \t]+)?(?:pitfalls?|traps?|mimics?|"
                             r"distractors?|look-?alikes?|less[ \t]+likely|least[ \t]+likely|unlikely|excluded|"
                             r"ruled[ \t]+out|not[ \t]+(?:this|likely|supported))[ \t*_]*:[^\n]*")


def set_aside_lines(text: str) -> list[tuple[int, int]]:
    """The spans of :data:`_SET_ASIDE_LINE`: what such a line names is not the reply's answer."""
    return [m.span() for m in _SET_ASIDE_LINE.finditer(text)] if ":" in text else []


# batch 94: what the findings "don't fit", listed ("That distribution and appearance don't fit impetigo (honey-coloured
# crusts), contact dermatitis (...), cellulitis (...) or tinea corporis (a scaly ring)."): each entry of the list is set
# aside, to the end of its sentence, where the list closes with "or", "nor" or "and" and no clause of the reply's own
# breaks in ("... don't fit impetigo, it's herpes zoster")
_DENIED_LIST = re.compile(r"(?i)\b(?:don't|doesn't|do\s+not|does\s+not|wouldn't|would\s+not|can't|cannot|isn't|"
                          r"is\s+not|aren't|are\s+not)\s+(?:fit|suit|match|explain|support|look\s+like|consistent\s+with|"
                          r"typical\s+(?:of|for))\s+([^.;!?\n]{1,400}?\b(?:or|nor|and)\b[^.;!?\n]{1,200})")
# words that make a list's tail a clause of its own ("... and are classic for herpes zoster", "..., more like herpes
# zoster", "whereas hepatocellular carcinoma does": hostile review of 328c64d), outside the entries' brackets
_LIST_VERB = re.compile(r"(?i)\b(?:is|are|was|were|fits?|looks?|shows?|explains?|does|do|did|more|less|like|whereas|"
                        r"so|rather|classic|typical|favou?r\w*|suggests?|consistent)\b")
_OWN_CLAUSE = re.compile(r"(?i)\b(?:it's|it\s+is|this\s+is|that's|but|rather|instead|i\s+(?:think|favou?r|would))\b")


def denied_lists(text: str) -> list[tuple[int, int]]:
    """The spans of a list of what the findings are said not to fit (:data:`_DENIED_LIST`)."""
    if "n't" not in text and " not " not in text:
        return []
    return [m.span(1) for m in _DENIED_LIST.finditer(text) if not _OWN_CLAUSE.search(m.group(1))
            and not _LIST_VERB.search(re.sub(r"\([^()]*\)", " ", m.group(1)))]


# batch 92: a test recommended for a place the options name ("MRI of both hips is recommended for further evaluation.",
# "An MRI of both hips would be the right way to look for occult disease"): the place is where to look next, not the
# answer; only the test's object is set aside, in a sentence that recommends it (hostile review: not "Consider
# ultrasound first.", whose sentence may be the answer)
# batch 106: "If a hypervascular lesion is being sought, a dedicated late arterial phase would be required." (a further
# acquisition named by what it is, after a reply that said "Not arterial.")
_RECOMMENDS = re.compile(r"(?i)\b(?:(?:is|are)\s+recommended|recommend(?:ed|s)?|advis(?:ed|able)|would\s+be\s+the\s+"
                         r"(?:right|best)\s+way\s+to|should\s+be\s+(?:obtained|performed)|would\s+be\s+(?:required|"
                         r"needed|necessary))\b")
_TEST_OF = re.compile(r"(?i)(?:\b(?:MRI|MR|CT|ultrasound|radiographs?|x-?rays?|views?|imaging|scans?)\s+of\s+|"
                      r"\bdedicated\s+)((?:the\s+)?(?:[\w\-]+\s+){0,2}[\w\-]+)")


# batch 106: what an option would show, then said absent ("In the arterial phase ..., the aorta and its branches are
# the brightest structures, ... Each of these features is absent here."): the option described is not the answer
_FEATURES_ABSENT = re.compile(r"(?i)\b(?:each|all|none|any)\s+of\s+(?:these|those|the\s+above|them)\s+(?:[\w\-]+\s+)?"
                              r"(?:(?:is|are)\s+(?:absent|missing|lacking|not\s+(?:seen|present|met)))\b")


def disowned_descriptions(text: str) -> list[tuple[int, int]]:
    """The sentence before "Each of these features is absent here" (:data:`_FEATURES_ABSENT`): a description of what
    one answer would show, which the reply then says this image does not."""
    spans = []
    for m in _FEATURES_ABSENT.finditer(text):
        before = text[:m.start()].rstrip()
        start = max(before.rfind(c, 0, len(before) - 1) for c in ".!?\n") + 1
        spans.append((start, m.start()))
    return spans


def recommended_tests(text: str) -> list[tuple[int, int]]:
    """The object of a test recommended in its sentence ("MRI of [both hips] is recommended")."""
    spans = []
    for sentence in re.finditer(r"[^.!?;\n]+", text):
        if _RECOMMENDS.search(sentence.group(0)):
            spans += [(sentence.start() + m.start(1), sentence.start() + m.end(1))
                      for m in _TEST_OF.finditer(sentence.group(0))]
    return spans
