"""The words that hedge a reading ("probably", "I think", "can't rule out", "either ... or"), in one place.

Why a module: a hedged reading is a guess (issue 46: it is kept, but never sure), and the rules that decline to read a
hedged reply (an answer told by its subject, an opening that denies one of two options) must hear the same words the
sureness check hears. Each vocabulary below grew from replies in the corpus; the batch that showed each word is named
beside it.
"""

from __future__ import annotations

import re

#: the words that make a reading a guess, wherever they stand in the part of the reply that gives the answer
HEDGE = re.compile(
    r"(?i)\b(?:probabl[ey]|likely|possibl[ey]|perhaps|maybe|might|could\s+be|may\s+be|i(?:'d|\s+would)?\s+(?:think|"
    r"believe|suspect|guess)|favou?r(?:s|ing)?|"
    # batch 21: "guessing no" says it is a guess
    r"guessing|"
    # batch 19: not a posture ("pain eased by leaning forward")
    r"lean(?:s|ing)?(?!\s+(?:forwards?|backwards?|back|over|against|on)\b)|not\s+(?:entirely\s+|completely\s+|"
    r"fully\s+|100\s*%\s+)?(?:sure|certain|confident)|unsure|uncertain|unclear|(?:cannot|can't)\s+"
    # batch 10: "can't fully exclude", "cannot be completely excluded"
    r"(?:(?:fully|completely|entirely|totally|confidently|definitely)\s+)?(?:exclude|rule\s+out)|"
    r"(?:cannot|can't)\s+be\s+(?:(?:fully|completely|entirely|totally|confidently|definitely)\s+)?"
    r"(?:excluded|ruled\s+out)|"
    # batch 44: "The type cannot be determined with confidence on this study."
    r"(?:cannot|can't|could\s+not)\s+be\s+(?:determined|decided|told)\s+with\s+(?:any\s+)?(?:confidence|certainty)|"
    r"(?:hard|difficult)\s+to\s+(?:say|tell|be\s+(?:sure|certain))|(?:can(?:not|'t)|could(?:\s*not|n't))\s+"
    r"be\s+(?:\w+\s+)?(?:sure|certain|confident)|"
    # batch 17: not "the cortices on either side line up, and I can't see any angulation or translation"
    r"either(?!\s+(?:side|sides|end|ends|hand)\b)(?=[^.;!?\n]{0,80}?\bor\b))\b")

#: the words that take back an answer when they follow it in its closing clause ("A, or it could equally be C", "...:
#: cannot exclude"). Narrower than ``HEDGE`` in one way: "likely" and "probably" after a label grade it ("Most likely
#: cause: nephrolithiasis (A).") rather than withdraw it. Wider in another: a bare "could" or "may" does withdraw it
#: (b5-0023: "Final answer: A However, on reflection, the milia-like cysts could equally indicate a seborrheic
#: keratosis (C).").
TAIL_HEDGE = re.compile(r"(?i)\b(?:either|could|might|may|not\s+sure|unsure|uncertain|possibl[ey]|perhaps|maybe|"
                        # batch 48: "Left femoral head: cannot exclude" (cut off): nothing stated of the side asked
                        r"(?:cannot|can't)\s+(?:exclude|rule\s+out))\b")
