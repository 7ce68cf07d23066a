"""The phrases that flag a reply as declining to answer: one list, easy to extend.

Why a list of its own: the refusal flag is a result of its own (docs/reference.md §3 and §4), independent of the
option a reply names. The Illusion of Readiness metric counts a reply wrong whenever the flag is set, even when it names
the right option ("I can't be sure without the image, but the answer is B" abstains), so a missed phrase moves a
published figure. Each entry is ``(name, pattern, example)``: the pattern (case-insensitive, after typographic
quotes are folded) and one reply it must flag; ``tests/test_reading_rules.py`` checks every example against its
pattern and a list of ordinary answers against all of them. To add a phrase, add an entry with its example.
"""

from __future__ import annotations

import re

from probe_ui.reading.cleaning import blank_matches, sentence_lead, unmarked
from probe_ui.reading.lexicon import fold_quotes, placeholder_named
from probe_ui.reading.pushback import OWN_WITHDRAWAL

__all__ = ["REFUSAL_PHRASES", "closing_advice", "declining_opening", "is_refusal", "only_disclaims", "refusal_names",
           "refusal_spans"]

# "cannot", "can't", "I'm unable to", "won't be able to", ...
# batch 55: Caribbean English Creole "cyaan" ("Mi cyaan see no pikcha")
_CANT = (r"(?:can\s*not|can't|\bcant\b|cannot|could\s*not|couldn't|\bc(?:y|i)aan\b|am\s+unable\s+to|'m\s+unable\s+to|"
         r"am\s+not\s+able\s+to|'m\s+not\s+able\s+to|unable\s+to|not\s+able\s+to|won't\s+be\s+able\s+to)")
# no "but" (nor a semicolon turning to an answer) in the rest of the sentence: a decline said alone, not a limit said
# before the answer ("I'm not going to stage it without an MRI, but the periosteal reaction is osteosarcoma (A).")
def _no_but(words: str = "but|however", semicolon: bool = True) -> str:
    """A lookahead: no "but" (in the reply's language: ``words``) in the rest of the sentence, nor a semicolon."""
    return (r"(?![^.!?\n]*(?:" + "|".join(r"\b" + w + r"\b" for w in words.split("|")) + (r"|;" if semicolon else "")
            + r"))")


_NO_BUT = _no_but()
# what a reply says it lacks or cannot see: the image, or the markers drawn on it
# (batch 122: "The upload is very low resolution, so treat this cautiously")
_IMAGE = (r"(?:image|images|picture|scan|photo|photograph|radiograph|x-?ray|attachment|file|figure|screenshot|"
          r"thumbnail|pic|pikcha|pitcha|upload)")
# the image as such, not a kind of study that may be the one asked about ("I see no radiograph; it is a CT")
_IMAGE_ITSELF = r"(?:image|images|picture|pictures|photo|photos|attachment|file|upload)"
# the image named by what it is ("I can't view the MRI itself", "the ultrasound you've attached")
_STUDY = r"(?:mri|ct|ultrasound|sonogram|mammogram|film|slide|dermoscopy|fundus\s+photo|study)"
# what the image is said to be before its fault ("the image you've shared is too small", "The image provided is very low
# resolution": batch 100)
_GIVEN = (r"(?:\s+(?:you(?:'ve|\s+have)?\s+|i(?:'ve|\s+have)?\s+)?"
          r"(?:provided|shared|sent|uploaded|attached|received|got))?")
_MARKERS = r"(?:dots?|circles?|markers?|points?|arrows?|boxes|annotations?)"
# what a reply says the image does not let it do: "too blurry to assess", "insufficient to grade"
_JUDGE = (r"(?:assess|tell|see|judge|evaluate|determine|say|read|interpret|identify|measure|grade|answer|classify|"
          r"stage|decide|confirm|exclude|rule\s+out|comment|characteri[sz]e|distinguish|diagnose|be\s+sure|compare|"
          # batch 35: "The image quality is too poor for me to be confident, but my best guess ..."
          r"be\s+(?:confident|certain)|"
          r"make\s+out|count)")
# batch 16: "too blurry to really see": an adverb between "to" and the verb
_TO_JUDGE = r"to\s+(?:(?:really|properly|clearly|reliably|confidently|accurately|safely|fully)\s+)?" + _JUDGE
# batch 18: what is wrong with an image a reply blames before it guesses ("heavily cropped", "undersized and somewhat
# washed out", "blurry pic")
_FAULT = (r"(?:cropped|blurr(?:y|ed)|fuzzy|washed[\s\-]out|undersized|tiny|pixelated|grainy|noisy|dark|underexposed|"
          r"overexposed|out\s+of\s+focus|low[\s\-]res(?:olution)?|degraded|"
          # batch 19: "tiny and low in contrast"
          r"low[\s\-]contrast|low\s+in\s+contrast|faint|"
          # batch 20: "The endoscopic frame is smeared by motion"
          r"smeared|smudged|streaked|"
          # batch 21: "the image is partly cut off"
          r"cut\s+off|"
          # batch 22: "The dermoscopy image is heavily compressed"
          r"compressed)")
# what the image's fault does to the answer: "so take this as low confidence", "which makes me hesitant"
_QUALIFIES = (r"(?:(?:take|treat|read|consider)\s+(?:this|that|it|my\s+(?:answer|reading))\s+(?:as\s+(?:an?\s+)?"
              r"(?:low|limited|little)[\s\-]confidence(?:\s+(?:answer|guess|reading))?|with\s+(?:caution|a\s+grain\s+of"
              r"\s+salt|(?:some\s+)?reservations?))|makes?\s+me\s+(?:hesitant|unsure|uncertain|cautious|wary|"
              r"less\s+(?:sure|certain|confident))"
              # batch 19: "so this is tentative", "low confidence: red"
              r"|(?:so\s+)?(?:this|that|it|my\s+(?:answer|reading|call|impression))\s+(?:is|will\s+be|must\s+be)\s+"
              r"(?:only\s+|just\s+|somewhat\s+|rather\s+|very\s+)?(?:tentative|provisional)"
              # batch 94: "... so this assessment is tentative"; batch 95: "..., so I'm not fully confident, but"
              r"|(?:so\s+)?this\s+(?:assessment|answer|reading)\s+is\s+(?:only\s+|somewhat\s+)?(?:tentative|provisional)"
              # batch 101: "The image is quite blurry, so this is uncertain, but ..."
              r"|so\s+(?:this|that|it|my\s+(?:answer|reading))\s+is\s+(?:somewhat\s+|rather\s+|very\s+)?uncertain"
              r"|(?:i'm|i\s+am)\s+not\s+(?:fully|entirely|completely|totally)\s+(?:confident|sure|certain)"
              r"|(?:very\s+|rather\s+|quite\s+)?(?:low|limited)[\s\-]confidence"
              # batch 20: "so treat this cautiously", "which limits my confidence"
              r"|(?:take|treat|read|consider)\s+(?:this|that|it|my\s+(?:answer|reading))\s+(?:cautiously|guardedly|"
              r"with\s+care|carefully)"
              r"|(?:limits?|lowers?|reduces?|undermines?)\s+(?:my|any|the)\s+confidence"
              # held-out batch 154: "The file is heavily compressed ..., so I'd hold this loosely"
              r"|(?:i'd|i\s+would)\s+hold\s+(?:this|it|that|my\s+(?:answer|reading))\s+loosely"
              # batch 21: "so please treat this as a rough call"
              r"|(?:take|treat|read|consider)\s+(?:this|that|it|my\s+(?:answer|reading))\s+as\s+(?:an?\s+|only\s+an?\s+)?"
              r"(?:rough|tentative|provisional|preliminary)\s+(?:call|guess|estimate|answer|reading|impression)"
              # batch 81: "The image is heavily cropped — I can only see the left hemithorax below the hilum, so this
              # is a limited read."
              r"|(?:this|that|it)\s+is\s+(?:a|an|only\s+a)\s+limited\s+(?:read|reading|assessment|interpretation)"
              # batch 85: "Image heavily cropped; interpretation limited."
              r"|(?:interpretation|assessment|evaluation|reading)\s+(?:is\s+)?(?:very\s+|severely\s+)?limited)")
# batch 19: a choice the reply says it is pushed to, after blaming the image ("If forced to choose, malignant (B).")
_FORCED = (r"(?:if\s+(?:i'm\s+|i\s+am\s+|i\s+were\s+|i\s+was\s+)?(?:forced|pressed|made)\s+to\s+(?:choose|pick|answer|"
           r"commit|guess|decide)|if\s+i\s+(?:had|have)\s+to\s+(?:choose|pick|guess|commit|decide|answer)"
           # batch 58: "The film is rotated and cut off ..., so a reliable assessment is hard. If I must choose: B. No."
           r"|if\s+i\s+must\s+(?:choose|pick|guess|commit|decide|answer)"
           # batch 85: "The image is quite blurry and I'd normally be cautious here, but if you need an answer: adult"
           r"|if\s+you\s+(?:really\s+)?(?:need|want|insist\s+on|require)\s+an?\s+(?:answer|guess|choice))")
# batch 19: an image or a video frame, named where its fault is blamed ("frame blurred by smoke")
_FRAME = r"(?:" + _IMAGE + "|" + _STUDY + r"|frame|still|video|view)"

REFUSAL_PHRASES: tuple[tuple[str, str, str], ...] = (
    ("cannot-decide",
     _CANT + r"\s+(?:\w+\s+){0,3}?(?:determine|tell|answer|assist|help|identify|diagnose|make\s+a\s+diagnos\w*|"
     r"provide|offer|give|interpret|assess|evaluate|analy[sz]e|confirm|verify|comment|"
     # batch 15: "I can't say there isn't a fracture - ... could be one" doubts a negative: a hedge, not a decline
     r"say(?!\s+(?:that\s+)?(?:there\s+(?:isn't|is\s+not|is\s+no|aren't|are\s+not|are\s+no)|it\s+(?:isn't|"
     r"is\s+not))\b)|judge|process|access|comply|"
     r"fulfil+|decide|compare|definitively|accurately|reliably|do\s+(?:that|this|so)"
     # batch 68: "I'm not able to grade this — the upload stopped partway ..."
     r"|grade|stage|classify"
     # batch 77: "I'm not able to infer a patient's sex from medical imaging."
     r"|infer"
     # held-out batch 128: "What you've shared is only the scout topogram, so I can't characterise any haemorrhage
     # from it."
     r"|characteri[sz]e"
     # batch 82: "I'm not able to estimate a patient's age group from a radiograph in a way you should rely on — ..."
     r"|estimate"
     # batch 75: "Sorry, I cannot re-evaluate the image because it is no longer available." (a second look declined)
     r"|re-?(?:evaluate|assess|examine|review|interpret)"
     # batch 40: "I can't agree or disagree with the physician here: ..."
     r"|agree\s+or\s+disagree"
     # batch 69: "The image is cropped so that the liver is almost entirely out of frame. I can't pick an option or
     # put a confidence on it."
     r"|(?:pick|choose|select)\s+(?:an|any|one)\s+(?:option|answer))\b",
     "I cannot determine this from the image."),
    ("cannot-see-image",
     _CANT + r"\s+(?:actually\s+|really\s+|directly\s+)?(?:see|view|open|look\s+at|access|load|display|read)\s+"
     r"(?:the\s+|any\s+|an\s+|this\s+|your\s+)?(?:\w+\s+)?(?:" + _IMAGE + "|" + _STUDY + r"\b"
     # batch 15: "i cant really see the dots well, but red maybe": the markers the question asks about
     r"|(?<=the\s)" + _MARKERS + r"\s+(?:well|clearly|properly)\b)"
     # batch 40: "The attachment came through as a .zip archive, which I can't open.": the image (or what came for it)
     # named before, then "which I can't open"
     r"|\b(?:" + _IMAGE + r"|archive|zip)\b[^.;!?\n]{0,60}?,[ \t]*which\s+(?:i|we)\s+" + _CANT
     + r"\s+(?:open|view|load|display|read)\b"
     # batch 92: "it's a DICOM file, and I'm not able to open that format directly"
     r"|\b(?:DICOM|dcm|NIfTI|archive|zip)\b[^.;!?\n]{0,60}?\b(?:I(?:'m|\s+am)\s+(?:not\s+able|unable)\s+to|" + _CANT
     + r")\s+(?:open|view|load|display|read)\s+(?:that|this|the|it)\b",
     "I'm unable to view the attached image."),
    # held-out batch 152: "I don't have a way to see images in this chat", "I don't feel able to characterise an
    # enhancing brain lesion from one slice." (not "I don't feel able to say definitively whether the fibula is
    # displaced or not", batch 139: two answers weighed; nor a limit said before the answer: "I don't feel able to
    # give an exact age, but ...", a hostile review)
    ("no-way-to-see",
     r"\bi\s+(?:don't|dont|do\s+not)\s+have\s+(?:a|any)\s+way\s+to\s+(?:see|view|open|look\s+at)\s+(?:the\s+|any\s+|your\s+)?"
     + _IMAGE + r"s?\b"
     r"|\bi\s+(?:don't|dont|do\s+not)\s+feel\s+able\s+to\s+(?:characteri[sz]e|diagnose|determine|classify|assess|"
     r"interpret|grade|stage|answer|identify|read)\b" + _NO_BUT,
     "I don't have a way to see images in this chat."),
    # batch 67: "sorry i cannot see the bones well enough in this picture to answer": what the question asks about not
    # seen well enough
    ("cannot-see-well-enough",
     _CANT + r"\s+(?:really\s+)?(?:see|make\s+out|visuali[sz]e)\s+(?:the\s+|any\s+|this\s+)?(?:[\w\-]+\s+){1,3}?"
     r"(?:well|clearly)\s+enough\b"
     # batch 106: "The image I have is cropped quite tightly ... I can't see the fingertips, the phalanges, or the
     # carpal bones properly" (the image blamed in the sentences before)
     # (the fault said of the image itself: not "The CT shows a dark, water-density lesion ... I can't see the
     # enhancement pattern properly without a delayed phase", hostile review of fd68bdc)
     r"|\b" + _FRAME + r"(?:\s+i\s+have)?\s+(?:is|was|looks|seems|appears|has\s+been)\s+(?:[\w\-]+\s+){0,2}?" + _FAULT
     + r"\b(?:(?!\n[ \t]*\n)[^?!]){0,300}?" + _CANT + r"\s+(?:really\s+)?see\s+(?:the\s+)?[^.;!?\n]{1,80}?\s+"
     r"properly\b",
     "I cannot see the bones well enough in this picture to answer."),
    # batch 11: "the image is completely white, i cannot see anything"
    # (batch 106: not "I can't see anything else on the film that would tip the balance", a finding weighed)
    ("cannot-see-anything", _CANT + r"\s+(?:really\s+)?(?:see|make\s+out)\s+anything\b(?!\s+else\b)",
     "I can't see anything at all in this picture."),
    # batch 10: what the reply runs in does not let it see the image ("This chat doesn't let me view images")
    ("not-allowed-to-see-image",
     r"\b(?:does|do|did|will|would)\s*(?:not|n't)\s+(?:let|allow|permit|enable)\s+me\s+(?:to\s+)?(?:see|view|open|"
     r"look\s+at|access|load|read)\s+(?:the\s+|any\s+|an\s+|this\s+|your\s+)?(?:\w+\s+)?(?:" + _IMAGE + "|" + _STUDY
     + r")s?\b",
     "This interface does not let me open attached pictures."),
    ("cannot-be-determined",
     r"\b(?:can(?:\s*not|'t)|could(?:\s*not|n't))\s+be\s+(?:determined|assessed|answered|evaluated|established|"
     r"ascertained|identified|confirmed|interpreted|read|analy[sz]ed|displayed|opened|loaded|judged|estimated|"
     r"gauged|graded|decided|characteri[sz]ed|told|said)\b",
     "This cannot be determined without the prior study."),
    ("impossible-to-tell",
     # batch 14: "... make it impossible for me to judge the contrast phase"
     r"\b(?:not\s+|im)possible\s+(?:for\s+(?:me|us|anyone)\s+)?to\s+(?:\w+\s+){0,2}?(?:tell|determine|say|answer|"
     r"assess|know|identify|judge|measure|evaluate|estimate|see|diagnose|confirm|exclude|rule\s+out|comment)\b",
     "It is not possible to tell from the image."),
    ("not-enough-information",
     r"\b(?:not\s+enough|insufficient|inadequate)\s+(?:\w+\s+)?(?:information|detail|context|data|evidence|"
     r"quality|resolution)\b",
     "There is not enough information to answer."),
    ("as-an-ai", r"\bas\s+an\s+ai\b"
                 # batch 9: "I am a language model and do not have the ability to see the dots."
                 r"|\b(?:i'm|i\s+am)\s+(?:just\s+|only\s+|merely\s+|simply\s+)?an?\s+(?:(?:large\s+)?language\s+model|"
                 r"text[\s\-]based\s+(?:ai|model|assistant))\b",
     "As an AI, I can't interpret medical images."),
    ("sorry-cannot",
     r"\b(?:i'm|i\s+am)\s+(?:sorry|afraid)\b[^.]{0,40}?\b(?:can't|cannot|can\s+not|unable|not\s+able)\b",
     "I'm sorry, but I can't help with that."),
    ("no-ability", r"\b(?:i|and)\s+(?:don't|do\s+not)\s+have\s+(?:the\s+)?(?:ability|access|capability)\b"
                   # held-out batch 154: "reading radiographs isn't something I'm able to do"
                   r"|\b(?:isn't|is\s+not)\s+something\s+(?:I'm\s+able\s+to|I\s+am\s+able\s+to|I\s+can)\s+"
                   r"(?:do|help\s+with|offer)\b"
                   # held-out batch 179: "Sex isn't something I'll read off this film."
                   r"|\b(?:isn't|is\s+not)\s+something\s+I(?:'ll|\s+will|\s+can)\s+(?:read|infer|judge|determine|tell|"
                   r"guess|say)\b" + _NO_BUT,
     "I don't have the ability to view images."),
    ("no-image-provided",
     r"\bno\s+" + _IMAGE + r"\s+(?:was\s+|is\s+|has\s+been\s+)?(?:provided|attached|uploaded|shared|included|"
     r"visible|available|shown|present|received|loaded)\b"
     # batch 9: "No image came through on my end."
     r"|\bno\s+" + _IMAGE + r"\s+(?:came|has\s+come|come)\s+through\b"
     # batch 67: the study named for the image ("no MRI came through in this conversation, so I can't tell ..."), and
     # an upload "with no image content"
     r"|\bno\s+" + _STUDY + r"\s+(?:came|has\s+come|come)\s+through\b"
     r"|\bno\s+" + _IMAGE + r"\s+content\b"
     # batch 66: "no picture came with your message": what came without the image
     r"|\bno\s+" + _IMAGE + r"\s+(?:came|has\s+come|was\s+sent|arrived)\s+with\s+(?:your|the|this)\s+"
     r"(?:message|question|request|prompt)\b"
     r"|\bno\s+" + _IMAGE + r"\s+(?:arrived|has\s+arrived|appeared|has\s+appeared)\b"
     # held-out batch 164: "sorry, no picture showed up on my end" (where the message went: not "no scan turned up
     # anything", "no image showed up on the old CD", a hostile review)
     r"|\bno\s+" + _IMAGE + r"\s+(?:showed|has\s+shown|shows|turned|has\s+turned)\s+up"
     r"(?=[ \t]*(?:[.,;:!\-\u2013\u2014]|\Z|(?:on|at)\s+(?:my|our|this)\s+(?:end|side)\b|here\b|for\s+me\b|"
     r"in\s+(?:this|the|your|our)\s+(?:message|chat|conversation|thread|upload)\b))"
     # batch 21: "Nope, nothing came through on my end - just the question text."
     r"|\bnothing\s+(?:came|has\s+come|come|got)\s+through\b"
     r"(?=[ \t]*(?:[.,;:!\-\u2013\u2014]|\Z|(?:on|at)\s+(?:my|this|our)\s+(?:end|side)|here\b|to\s+me\b))"
     r"|\bnothing\s+(?:was\s+|has\s+been\s+)?(?:attached|uploaded)\b"
     r"|\b(?:just|only)\s+(?:the\s+|your\s+)?(?:question|prompt)\s+text\b"
     r"|\b(?:just|only)\s+(?:the\s+|your\s+)?text\s+of\s+(?:the|your)\s+question\b"
     # held-out batch 180: "only the question and the options came through", "sorry, no image here to look at"
     r"|\b(?:just|only)\s+(?:the\s+|your\s+)?(?:question|prompt)(?:\s+text)?(?:\s+and\s+(?:the\s+)?(?:options|choices|"
     r"answer\s+options))?\s+(?:came|come|has\s+come|have\s+come|got)\s+through\b(?![^.!?\n]*\bbut\b)"
     r"|\bno\s+" + _IMAGE + r"\s+here\b(?=\s+to\s+(?:look\s+at|see|review|read|assess)\b|"
     r"[ \t]*(?:[.,;:!\u2013\u2014]|\Z))"
     # a reader check of 2026-12: "I see no image.", "I have no picture to look at", and a reply that is only "No
     # image." (not "I see no fracture on this image", "no image evidence of ...", nor a study named for the one asked
     # about, "No. I see no radiograph; it is an axial CT slice.", "I see no scan here of the lateral film": a review)
     r"|\bi\s+(?:can\s+|do\s+)?(?:see|have|got|received)\s+no\s+" + _IMAGE_ITSELF
     + r"(?=[ \t]*(?:[.!]?[ \t]*\Z|[.!,;][ \t]*(?:please|kindly|could\s+you|can\s+you|would\s+you|so\s+I|but)\b)"
     r"|\s+(?:to\s+(?:look\s+at|review|see|read|assess|evaluate)|here(?=[ \t]*(?:[.!,;:]|\Z))|attached"
     r"|in\s+(?:this|the|your|our)\s+(?:message|chat|conversation|thread|upload|post))\b)"
     r"|\A[\W_]*no\s+(?:attached\s+)?" + _IMAGE_ITSELF + r"[ \t]*[.!]?[\s*_]*\Z"
     # batch 24: "The message contains no image. Kindly attach ...": what the message holds, without the image
     r"|\b(?:message|request|prompt|question|conversation|chat|upload|post)\s+(?:contains|contained|has|had|holds|"
     r"includes|included|carries|came\s+with)\s+no\s+(?:attached\s+)?" + _IMAGE
     + r"s?(?=[ \t]*(?:[.,;:!\-\u2013\u2014]|\Z|attached\b))"
     # batch 25: what came is no image of the patient ("contains only text ... and no medical image", "no slice has
     # loaded", "the image viewport itself is blank")
     r"|\bno\s+(?:medical|actual|clinical|diagnostic|radiological|radiographic)\s+" + _IMAGE + r"s?\b"
     r"|\bno\s+(?:" + _IMAGE + r"|slice|series|frame)\s+(?:has\s+|had\s+|was\s+|is\s+)?(?:loaded|displayed)\b"
     r"|\b(?:contains?|contained|holds?|has)\s+only\s+text\b|\b(?:is|was)\s+(?:only|just)\s+text\b"
     r"|\b(?:viewport|viewer|image\s+(?:area|pane|panel|window))\s+(?:itself\s+)?(?:is|was|appears|seems)\s+"
     r"(?:to\s+be\s+)?(?:completely\s+|entirely\s+)?(?:blank|empty)\b"
     # batch 40: "The image provided is a single blank slice; no anatomy is visible for evaluation.": the image called a
     # blank slice or frame (not "a blank area in the lung"), and no anatomy said to be visible at all
     r"|\b" + _IMAGE + r"\s+(?:(?:you\s+)?(?:provided|supplied|sent|attached|uploaded|shared)\s+)?(?:is|was|"
     r"appears\s+to\s+be|seems\s+to\s+be)\s+(?:just\s+|only\s+)?(?:an?\s+)?(?:single\s+)?(?:completely\s+|"
     r"entirely\s+)?(?:blank|empty)(?:\s+(?:black|white|grey|gray))?\s+(?:slice|frame|image|screen|page)\b"
     r"|\bno\s+(?:recogni[sz]able\s+|identifiable\s+)?anatomy\s+(?:is\s+|was\s+)?(?:visible|seen|shown|"
     r"depicted|displayed)\b",
     "No image was provided, so I cannot answer."),
    # held-out batch 156: "Only a scout topogram was provided; no axial brain slices available for review.": a reply
    # that says only that the planning image came (and the slices did not), and nothing else (not "Only a scout was
    # provided. It covers the abdomen, so yes.", nor "..., which is a projection, not an axial slice", nor a report's
    # limitations line, "No sagittal images are available.": a hostile review of its first draft)
    ("only-a-scout",
     r"\A[\W_]*only\s+(?:an?\s+|the\s+|one\s+|a\s+single\s+)?(?:(?:ct|lateral|frontal|ap|pa)\s+)?(?:scout|"
     r"locali[sz]er|topogram|surview|scanogram)\b(?:[ \t]*\([^)\n]{0,30}\))?(?:\s+(?:image|view|film|topogram|"
     r"projection))?\s+(?:was|is|has\s+been|were|came)\s+(?:provided|received|uploaded|attached|sent|shared|"
     r"included|supplied|available|through)(?:[ \t]*[;,\u2013\u2014\-][ \t]*(?:and\s+)?no\s+(?:[\w\-]+\s+){0,3}?"
     r"(?:slices|sections|images|series)\b[^.!?\n]*)?[ \t]*[.!]?[ \t]*\Z",
     "Only a scout topogram was provided; no axial brain slices available for review."),
    # batch 25-26: the image asked for again ("Could you export the image itself and send it again?", "Could you try
    # attaching it again?"): no answer is given until it comes
    ("asks-for-image",
     r"\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:try\s+)?(?:re-?send|re-?upload|re-?attach|re-?share)\w*\b"
     r"|\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:try\s+)?(?:send|upload|attach|share|export|post)(?:ing)?\s+"
     r"(?:[\w\-]+\s+){0,5}?again\b"
     # held-out batch 179: "I need to stop short of choosing an answer here, ... If you can re-upload the full image"
     r"|\bif\s+you\s+(?:can|could)\s+(?:please\s+)?re-?(?:upload|send|attach|share)\b"
     r"|\bstop\s+short\s+of\s+(?:choosing|picking|giving|committing\s+to)\s+(?:an?\s+|any\s+)?(?:answer|option|"
     r"diagnosis)\b"
     # held-out batch 180: "Could you export the image directly instead?" (the image itself, in place of what came)
     r"|\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:try\s+)?(?:send|upload|attach|share|export|post)(?:ing)?\s+"
     r"(?:the|your|this|that)\s+(?:original\s+|actual\s+|full\s+)?" + _IMAGE + r"\s+(?:itself\s+|directly\s+)+"
     r"(?:instead\b)?",
     "Could you try attaching the image again?"),
    # the question needs what an image cannot give: "requires in-person examination and possibly a biopsy"
    ("needs-examination",
     r"\b(?:requires?|needs?)\s+(?:an?\s+)?(?:(?:in[\s\-]person|physical|hands[\s\-]on|face[\s\-]to[\s\-]face)\s+"
     # batch 23: "This needs an in-person neuro-ophthalmology assessment": the specialty between
     r"(?:[\w\-]+\s+){0,2}?(?:exam|examination|evaluation|assessment|consultation|review)|clinical\s+exam(?:ination)?)\b",
     "A diagnosis of a pigmented lesion requires in-person examination and possibly a biopsy."),
    ("not-a-doctor", r"\b(?:i'm|i\s+am)\s+not\s+(?:a\s+(?:doctor|medical\s+professional|radiologist)|qualified)\b",
     "I'm not a doctor, so I can't say."),
    # the answer given is "N/A" / "NA" / "not applicable" (at the start, or right after "answer")
    ("not-applicable",
     r"(?:\A[\W_]*|\banswer\b(?:\s+is)?[\W_]{0,8})(?:n[ \t]?/[ \t]?a|n\.[ \t]?a\.?|not\s+applicable|(?-i:NA))"
     r"(?![\w/])",
     "N/A"),
    # issue 21: replies that name an option while saying they cannot be sure, or that they lack the image
    ("cannot-be-sure",
     r"\b(?:can(?:\s*not|'t)|could(?:\s*not|n't)|am\s+unable\s+to|'m\s+unable\s+to|unable\s+to)\s+"
     r"(?:\w+\s+)?(?:be\s+(?:sure|certain|confident)|say\s+for\s+(?:sure|certain)"
     # batch 82: "The rib edges are blurred by motion, so I can't be fully confident. Tentatively, ..."
     r"|be\s+(?:fully|entirely|completely|totally|absolutely)\s+(?:sure|certain|confident))\b"
     # "I can't be certain from this slice, but ...": the image was read, and the reading is hedged (batch 6 and 8)
     r"(?!\s+(?:from|on|based\s+on)\s+(?:this|the|that|one|a(?:\s+single)?)\s+(?:[\w\-]+\s+)?(?:" + _IMAGE + "|"
     + _STUDY + r"|view|slice|projection|image)\b)",
     "I can't be sure without the image, but the answer is B."),
    ("without-the-image",
     r"\bwithout\s+(?:(?:seeing|viewing|access\s+to|being\s+able\s+to\s+(?:see|view))\s+)?(?:the|an|this|any|"
     # batch 117: "... without the CT images — only the request text was attached."
     r"your)\s+(?:actual\s+|attached\s+|provided\s+)?(?:(?:ct|mri?|pet|x-?ray|ultrasound|radiology)\s+)?" + _IMAGE
     # (a hostile review of 5f68aa0: "without the CT images from last year for comparison" lacks a prior, not the image)
     + r"(?!\s+(?:artifacts?|artefacts?|degradation|noise|quality|distortion)"
     r"|\s+from\s+(?:last|the\s+(?:previous|prior|earlier))|[^.;!?\n]{0,40}\bfor\s+comparison)"
     r"|\bwithout\s+(?:seeing|viewing|access\s+to)\s+(?:the|an|this|any|your)\s+(?:actual\s+)?" + _STUDY + r"\b"
     # held-out batches 180 and 182: "I can't weigh in on whether the physician is right without the film itself, and
     # none came through with the question." (the study itself, which did not come)
     r"|\bwithout\s+(?:the|your)\s+(?:actual\s+)?(?:" + _IMAGE + "|" + _STUDY + r")s?\s+(?:itself|themselves)\b",
     "Without the image I can't be certain."),
    ("cannot-see-markers",
     r"\b(?:can(?:\s*not|'t)|could(?:\s*not|n't)|(?:do|does)\s*(?:not|n't)|unable\s+to|not\s+able\s+to)\s+"
     r"(?:see|find|locate|identify|make\s+out|detect)\s+(?:any\s+|the\s+)?(?:colou?red\s+|red,?\s+green,?\s+"
     r"(?:and|or)\s+blue\s+"
     # batch 45: "I can't see any red or blue markers": the labels named as a pair
     r"|(?:red|green|blue|yellow)\s+(?:and|or)\s+(?:red|green|blue|yellow)\s+)?" + _MARKERS + r"\b",
     "I cannot see any coloured dots."),
    ("image-missing",
     r"\b" + _IMAGE + r"\s+(?:is|was|has)\s+(?:not|n't|never)\s+(?:been\s+)?(?:attached|provided|"
     r"included|uploaded|shared|shown|visible|available|loaded|displayed)\b"
     r"|\A\W*(?:the\s+)?" + _IMAGE + r"\s+(?:is\s+|was\s+)?(?:not|un)\s*(?:available|attached|provided|"
     r"loaded|visible)\b"
     # batch 17: "Fundus image not provided. Unable to grade retinopathy.": what the image is of, before it
     r"|" + sentence_lead() + r"(?:the\s+)?[\w\-]+\s+" + _IMAGE + r"\s+(?:is\s+|was\s+)?(?:not|un)\s*(?:available|"
     r"attached|provided|loaded|received|included)\b"
     r"|\b" + _IMAGE + r"\s+(?:did\s+not|didn't|failed\s+to)\s+(?:load|come\s+through|upload|attach|display)\b"
     # held-out batch 192: "sorry, picture is missing" (missing itself, or from the message; not "the image is missing
     # the lung bases", a part cut off)
     r"|\b" + _IMAGE + r"\s+(?:is\s+|was\s+|seems\s+to\s+be\s+|appears\s+to\s+be\s+)?missing"
     r"(?=[ \t]*(?:[.,;:!\u2013\u2014]|\Z)|\s+(?:from|in)\s+(?:the|your|this|my)\s+(?:message|chat|conversation|"
     r"thread|post|request|upload)\b)"
     # batch 18: "image not loading", "the picture won't open"
     # batch 41: "sorry, the picture wont load on my side" (no apostrophe)
     r"|\b" + _IMAGE + r"\s+(?:is\s+|was\s+)?(?:not|n't|won't|wont|will\s+not)\s+(?:loading|load|opening|open|"
     r"displaying|showing\s+up|coming\s+through)\b"
     # batch 21: "The link to the image appears to have expired, so I can't view it."
     r"|\b(?:link|url)\s+(?:to\s+(?:the|your|this)\s+" + _IMAGE + r"\s+)?(?:(?:is|was|has|seems\s+to\s+(?:have|be)|"
     r"appears\s+to\s+(?:have|be))\s+)?(?:\w+\s+)?(?:expired|broken|dead|invalid|inaccessible)\b"
     r"|\bthere\s+(?:is|seems\s+to\s+be|appears\s+to\s+be)\s+no\s+(?:attached\s+)?" + _IMAGE
     + r"\b(?!\s+(?:artifacts?|artefacts?|quality|noise|degradation|distortion|blur))"
     # held-out batch 180: "There's no picture in this conversation yet" (where the message went, or nothing after: not
     # "There's no scan evidence of a fracture", "There's no image here that shows a fracture line", a review)
     r"|\bthere's\s+no\s+(?:attached\s+)?" + _IMAGE + r"(?=[ \t]*(?:[.,;:!\u2013\u2014]|\Z)|\s+(?:attached|"
     r"in\s+(?:this|the|your|our)\s+(?:message|chat|conversation|thread|upload|post)|here(?![ \t]+that\b)|"
     r"with\s+(?:your|the|this)\s+(?:message|question)|to\s+(?:look\s+at|review|see|read|assess))\b)"
     # batch 41: "The upload seems to have failed — I only received an empty file."
     r"|\b(?:upload|" + _IMAGE + r")\s+(?:seems\s+to\s+have\s+|appears\s+to\s+have\s+|has\s+)?failed\b"
     r"|\b(?:only\s+)?(?:received|got)\s+(?:only\s+)?an?\s+(?:empty|blank|zero[\s\-]byte)\s+(?:" + _IMAGE
     + r"|upload)\b",
     "The image was not attached, so I can only guess."),
    # batch 22: "Error: the image could not be decoded (unsupported format). Please re-upload it as PNG or JPEG."
    ("image-undecodable",
     r"\b" + _IMAGE + r"\s+(?:could\s*not|couldn't|can\s*not|can't|cannot)\s+be\s+(?:decoded|parsed|processed|"
     r"rendered)\b|\b(?:failed|unable)\s+to\s+(?:decode|parse|process|render)\s+(?:the\s+|this\s+|your\s+)?(?:\w+\s+)?"
     + _IMAGE + r"\b|\bunsupported\s+(?:(?:image|file)\s+)?format\b",
     "Error: the image could not be decoded (unsupported format)."),
    ("need-the-image",
     r"\b(?:i(?:\s+would|'d)\s+need|i\s+need|i\s+would\s+have)\s+to\s+(?:see|view|have|examine)\s+(?:the|an|"
     r"this)\s+(?:actual\s+)?" + _IMAGE
     + r"|\bi(?:'d|\s+would)\s+(?:like|need|want|prefer)\s+to\s+(?:see|review|check|have)\b[^.;!?\n]{0,80}?"
     r"\bbefore\s+(?:answering|deciding|committing|i\s+(?:answer|decide|commit))\b"
     + r"|\bplease\s+(?:provide|upload|share|attach|send)\s+(?:the|an|this)\s+" + _IMAGE,
     "I would need to see the image to answer."),
    ("do-not-have-image",
     r"\bi\s+(?:don't|do\s+not|cannot|can't)\s+(?:have|access)\s+(?:access\s+to\s+)?(?:the|an|any|this)\s+"
     + _IMAGE + r"|\bi\s+have\s+no\s+(?:access\s+to\s+(?:the|an|any)\s+)?" + _IMAGE,
     "I don't have the image, so this is a guess."),
    ("do-not-know", r"\bi\s+(?:really\s+|honestly\s+)?(?:don't|do\s+not)\s+know\b(?!\s+(?:of|if|whether))"
                    r"|\A\W*(?:i\s+have\s+)?no\s+idea\b"
                    # "Answer: No idea", "### Answer\nNo clue, the image is too dark.", "No way to tell", "No comment":
                    # under an answer heading too (a 'no' that opens no answer)
                    r"|\A\W*(?:(?:final\s+)?answer\W{0,4})?(?:i\s+have\s+)?no\s+(?:idea|clue)\b"
                    r"|\A\W*(?:(?:final\s+)?answer\W{0,4})?no\s+(?:way\s+to\s+(?:tell|know|say)|comment)\b",
     "I don't know."),
    ("only-guess", r"\b(?:can|could)\s+only\s+guess\b|\bwould\s+(?:only\s+|just\s+)?be\s+guessing\b"
                   # batch 16: "..., so this is a guess: no, the kidneys don't appear to be included."
                   r"|\b(?:this|that|it)(?:\s+is|'s|\s+would\s+be)\s+(?:only\s+|just\s+|merely\s+|purely\s+|really\s+)?"
                   r"(?:a\s+(?:(?:wild|rough|blind|pure)\s+)?guess|guesswork)\b"
                   r"|\bwithout\s+(?:seeing|viewing|being\s+able\s+to\s+see)\s+(?:the|this|an?|any)\s+\w+",
     "Without seeing the lesion I can only guess: D."),
    # batch 65: "..., so I'll decline to choose between vasogenic and cytotoxic."
    ("decline", r"\bi\s+(?:must|have\s+to|will|would)\s+(?:respectfully\s+)?(?:decline|refrain|abstain)\b"
                # held-out batch 131: "I'm sorry, but I don't think I can responsibly pick a diagnosis from this
                # picture." (not "..., but the margins favour B")
                r"|\bi\s+(?:can't|cannot|can\s+not|(?:don't|do\s+not)\s+think\s+i\s+can)\s+(?:responsibly\s+|reliably\s+|"
                r"safely\s+|in\s+good\s+conscience\s+)?(?:pick|choose|select|give|offer|provide|make|name|venture|render)"
                r"\s+(?:you\s+)?(?:a|an|any)\s+(?:diagnosis|answer|verdict|option)\b(?![^.!?\n]*\bbut\b)"
                # a hostile review of held-out batch 125's rules: "Yes.\nThe radiograph can't be trusted for heart
                # size when rotated like that, so I'm not answering." (its own answer withheld, at the reply's close)
                r"|\bi(?:'m|\s+am)\s+not\s+answering(?:\s+(?:this|that|it))?[ \t]*[.!]?[ \t]*\Z"
                r"|\bi(?:'ll|'d)\s+(?:respectfully\s+)?(?:decline\s+to|refrain|abstain)\b"
                # batch 102: "I'm going to decline to label this person's sex from the image."
                r"|\bi(?:'m|\s+am)\s+going\s+to\s+(?:respectfully\s+)?decline\b|\bi\s+(?:respectfully\s+)?decline\s+to\b"
                # held-out batch 151: "I'm not going to label the patient's sex from this image, and I'd like to
                # explain why rather than just decline."
                # (not "I'm not going to classify this as pediatric just because it's small — ...: adult", a review)
                r"|\bi(?:'m|\s+am)\s+not\s+going\s+to\s+(?:label|guess|assign|answer|pick|choose|diagnose|infer|"
                r"estimate|grade|stage|classify)\b(?![^.!?\n]{0,40}?\bas\b)" + _NO_BUT +
                # batch 112: "I'd rather not try to answer whether this patient is female from the image."; batch
                # 110: "I'd rather not name a diagnosis from this image alone."
                r"|\bi(?:'d|\s+would)\s+rather\s+not\s+(?:try\s+to\s+)?"
                # (not "I'd rather not try to answer with just one word: it's female - ...", a review of 6ce9d37)
                r"(?!answer\s+(?:with|in)\s+(?:just\s+)?(?:one|a\s+single)\s+word)"
                r"(?:commit|answer|say|guess|speculate|choose|pick|decide|name(?![^.!?\n]*\bbut\b)|"
                # batch 47: "I'd rather not confirm or contest the physician's answer here: ..."
                r"confirm|contest|"
                # batch 16: "I'd rather not offer a diagnosis for a rash from a single photograph"
                r"weigh\s+in|comment|judge|opine|offer|give|provide|make|venture|hazard|render|"
                # batch 41: "I'd rather not infer the patient's sex from this radiograph — ..."
                r"infer|estimate|determine|assign)\b"
                # batch 94: "I'm going to hold back from labelling this patient as male or female, ..."
                r"|\bi(?:'m|\s+am)\s+going\s+to\s+hold\s+back\s+from\s+(?:labell?ing|answering|guessing|saying|"
                r"choosing|picking|calling|naming|assigning|inferring)\b"
                # batch 16: "I'm not going to guess whether this is a man or a woman from a radiograph"
                r"|\b(?:i'm|i\s+am)\s+not\s+going\s+to\s+(?:guess|speculate|answer|venture|commit|offer|give|"
                r"provide|make|hazard|diagnose|judge|pick|choose"
                # batch 70: "I'm not going to infer the patient's sex from this image." (what is inferred named; not
                # "I'm not going to infer much from the pelvis alone, but ...")
                r"|(?:infer|estimate|determine|assign)\s+(?:the|a|an|any|this|his|her|their)\b)\b"
                r"|\bi\s+(?:won't|will\s+not|wouldn't|would\s+not)\s+(?:even\s+)?(?:guess|speculate|venture)\b"
                # batch 59: "I'll hold off rather than guess."
                r"|\bi(?:'ll|\s+will|'d|\s+would)\s+hold\s+off\s+(?:rather\s+than\s+(?:guess|speculat)\w*|on\s+"
                r"(?:answering|an\s+answer|a\s+call|guessing))\b"
                # batch 114: "I'm going to hold off on answering this one", "I'd normally decline to give a yes/no
                # answer and ask for a PA film ... If you need an answer from this image regardless: ..."
                # (not "... until I've explained the findings", "..., but here ... female": a review of efc4f03)
                r"|\bi(?:'m|\s+am)\s+going\s+to\s+hold\s+off\s+on\s+(?:answering|an\s+answer|giving|guessing)\b"
                r"(?![^.!?\n]*\b(?:until|but)\b)"
                r"|\bi(?:'d|\s+would)\s+(?:normally|usually|ordinarily)\s+decline\s+to\b(?![^.!?\n]*\bbut\b)"
                # batch 13: "so I won't answer this one"; batch 14: "so I'll leave this one unanswered"
                r"|\bi(?:'ll|\s+will|'d|\s+would|\s+must|\s+have\s+to)\s+(?:have\s+to\s+)?leave\s+(?:this|that|it|"
                r"the\s+question)(?:\s+one)?\s+(?:unanswered|open|blank)\b"
                r"|\bi\s+(?:won't|will\s+not)\s+answer\s+(?:this|that|it)\b"
                # held-out batch 180: "the retinal vessels can't be resolved, so I won't grade this." (what is graded
                # said not to be seen: not "This is not a spondylolisthesis, so I won't grade it.", "It's
                # proliferative. I won't grade this.", where not grading is the answer or follows it, a review)
                r"|\b(?:can't|cannot|can\s+not|couldn't|could\s+not)\s+be\s+(?:resolved|seen|made\s+out|"
                r"visuali[sz]ed|assessed|evaluated)\b[^.;!?\n]{0,20}?\bso\s+i\s+(?:won't|will\s+not)\s+(?:grade|"
                r"stage|classify|score|assess)\b"
                # batch 17: "so I won't give a yes or no here"; "I'd prefer to leave the patient's sex to the clinical
                # record rather than infer it ..."
                r"|\bi\s+(?:won't|will\s+not)\s+(?:give|offer|provide|commit\s+to|"
                # batch 18: "I won't pick a diagnosis from a picture alone."
                r"pick|choose|make|venture|hazard|render)\s+(?:you\s+)?(?:a|an|any|my)\s+"
                r"(?:yes[\s/]+or[\s/]+no|yes/no|answer|verdict|diagnosis|call|guess)\b"
                r"|\bi(?:'d|\s+would)\s+(?:prefer|rather)\s+(?:to\s+)?leave\s+(?:[\w'\-]+\s+){1,5}?to\s+(?:the\s+|a\s+|your\s+)?"
                r"(?:clinical\s+(?:record|team|notes|history)|clinicians?|treating\s+\w+|radiologists?|physicians?|"
                r"doctors?|dermatologists?|specialists?|experts?)\b"
                # batch 18: "so I'll skip this question"
                r"|\bi(?:'ll|\s+will|'d|\s+would|\s+must|\s+have\s+to)\s+(?:have\s+to\s+)?skip\s+(?:this|that|it|"
                r"the)(?:\s+(?:one|question|item))?\b"
                # batch 15: "so I'll pass on this one"
                r"|\bi(?:'ll|\s+will|'d|\s+would|\s+must|\s+have\s+to)\s+(?:have\s+to\s+)?pass\s+on\s+(?:this|that|"
                r"it|the\s+question)(?:\s+one)?\b"
                r"|\b(?:i'm|i\s+am)\s+not\s+in\s+a\s+position\s+to\b"
                # batch 20: "..., so I'm not answering this one."
                r"|\b(?:i'm|i\s+am)\s+not\s+answering\s+(?:this|that|it|the\s+question)\b"
                # batch 41: "I'm not choosing a diagnosis here: the photo shows a shirt sleeve, ..."
                r"|\b(?:i'm|i\s+am)\s+not\s+(?:choosing|picking|selecting|making|giving|offering)\s+(?:a|an|any)\s+"
                r"(?:diagnosis|answer|verdict|grade)\b"
                r"|\bi\s+(?:don't|do\s+not)\s+want\s+to\s+(?:guess|speculate|commit)\b"
                # batch 120: "I'd be uncomfortable offering a diagnosis for what may be a real patient's photo."
                r"|\b(?:(?:i'm|i\s+am)\s+not\s+comfortable|(?:i'm|i\s+am|i'd\s+be|i\s+would\s+be|i(?:'d|\s+would)?\s+feel)\s+"
                r"uncomfortable)\s+(?:interpreting|answering|making|giving|commenting|"
                r"diagnosing|reading|guessing|offering|providing|rendering|venturing|assigning|"
                # batch 35: "I'm not comfortable choosing a diagnosis here."
                r"choosing|picking|selecting|naming|committing|"
                # batch 76: "I'm not comfortable estimating someone's sex from a radiograph ..."
                r"estimating|inferring|determining|judging|"
                # held-out batches 143-144: "I'm not comfortable putting a (specific) diagnosis on this"
                r"putting|placing|attaching)\b"
                # (a hostile review: "Putting a diagnosis on this isn't something I'm comfortable with.")
                r"|\b(?:putting|giving|making|offering)\s+a\s+(?:\w+\s+)?diagnosis\b[^.;!?\n]{0,40}?\b(?:isn't|is\s+not)\s+"
                r"something\s+i(?:'m|\s+am)\s+comfortable\b"
                # batch 21: "estimating someone's sex from an image is outside what I'm able to help with"
                r"|\boutside\s+(?:of\s+)?(?:(?:what\s+i(?:'m|\s+am)\s+able\s+to|what\s+i\s+can)\s+(?:help|do|assess|"
                r"answer|offer|provide|comment)|my\s+(?:scope|remit|capabilit\w*|abilit\w*|competence|role)\b)"
                # batch 11: "I'd prefer not to guess."
                r"|\bi(?:'d|\s+would)\s+prefer\s+not\s+to\s+(?:commit|answer|say|guess|speculate|choose|pick|decide|"
                r"comment|judge|opine"
                # batch 81: "I'd prefer not to assign biological sex from a radiograph alone — ..."
                r"|assign|state"
                # batch 66: "I'd prefer not to suggest a diagnosis for acute chest pain from an image — ..."
                r"|(?:suggest|offer|give|provide|venture|name)\s+(?:a|an|any)\s+(?:diagnosis|answer|guess|grade)"
                # batch 70: "I'd prefer not to call a brain abnormality from a phone photo of the monitor; ..."
                r"|call\s+(?:a|an|any)\s+[\w\-]+)\b"
                # batch 51: "I'd prefer not to make a call on cirrhosis from a single slice — ..."
                r"|\bi(?:'d|\s+would)\s+(?:prefer|rather)\s+not\s+(?:to\s+)?make\s+(?:a|the|any)\s+(?:call|judge?ment|"
                r"decision|diagnosis)\b",
     "I must decline to answer this question."),
    # the image is there but cannot be read: "the image is too blurry for me to assess the hips"
    ("image-unreadable",
     r"\b(?:" + _IMAGE + "|" + _STUDY + "|" + _MARKERS + r"|resolution|quality|view)" + _GIVEN
     + r"\s+(?:(?:is|are|was|were|seems?|"
     # batch 10: "is cropped and too blurred ... to count": another fault of the image before it
     r"appears?)\s+)?(?:\w+\s+)?(?:[\w\-]+[ \t]*(?:,|and|,[ \t]*and)[ \t]+)?(?:too|far\s+too)\s+(?:blurry|blurred|"
     r"dark|bright|small|grainy|noisy|low|poor|faint|"
     r"pixelated|cropped|overexposed|underexposed|compressed)\b"
     # batch 13: "The dots are too small and blurred at this resolution for me to judge their relative depth."
     r"(?:[^.;]{0,50}?\b" + _TO_JUDGE + r"\b"
     # batch 11: "The image is too small for a confident assessment"
     r"|[ \t]+for\s+(?:me\s+to\s+make\s+)?(?:an?\s+)?(?:[\w\-]+\s+)?(?:assessment|evaluation|interpretation|"
     r"diagnosis|answer|reading|judge?ment|call|comparison"
     # batch 39: "The resolution is too low for a confident read, but ..."
     r"|read)\b)"
     # batch 20: "the file you sent appears to be corrupted"
     # batch 53: "The image I received is almost completely black, ..." (what the reply received)
     r"|\b" + _IMAGE + r"\s+(?:(?:that\s+|which\s+)?you(?:'ve)?\s+(?:sent|attached|uploaded|shared|provided)\s+"
     r"|(?:that\s+|which\s+)?i(?:'ve)?\s+(?:received|got)\s+)?"
     r"(?:is|was|seems|appears)\s+(?:to\s+be\s+)?(?:(?:mostly|largely|almost\s+(?:entirely|"
     r"completely|all)|nearly\s+all|entirely|completely|totally|all|just)\s+)?(?:corrupted|corrupt|damaged|"
     r"unreadable|blank|empty|black|white|washed[\s\-]out)\b"
     # batch 9: "the panoramic image has too little contrast for me to count the third molars"
     r"|\b(?:" + _IMAGE + "|" + _STUDY + r"|view)\s+(?:has|had|shows?|gives?)\s+(?:far\s+|much\s+)?too\s+(?:little|"
     r"much)\s+(?:contrast|detail|resolution|noise|blur|artifact|artefact|signal|exposure|penetration)\b"
     r"[^.;]{0,30}?\bto\s+" + _JUDGE + r"\b",
     "The image is too blurry for me to assess the hips."),
    # issue 46: the image is said to lack what the question needs: "this image does not show enough detail"
    ("image-lacks-detail",
     r"\b(?:does|do|did)\s*(?:not|n't)\s+(?:show|have|contain|provide|give|offer|display)\s+(?:enough|sufficient|"
     r"adequate)\s+(?:\w+\s+)?(?:detail|details|information|resolution|clarity|quality|contrast|coverage)\b"
     r"|\b(?:lacks?|lacking)\s+(?:the\s+)?(?:\w+\s+)?(?:detail|resolution|clarity|quality|contrast)\s+"
     r"(?:needed|required|necessary)\b"
     r"|\b(?:not|isn't|is\s+not)\s+(?:clear|detailed|sharp)\s+enough\s+(?:for\s+me\s+)?to\b",
     "Sorry, this image does not show enough detail."),
    # batch 10: no reliable answer said to be possible ("No reliable answer is possible: only a thin slice of liver is
    # included")
    ("no-answer-possible",
     r"\bno\s+(?:(?:reliable|definite|definitive|confident|certain|meaningful|firm|accurate|safe|useful)\s+)?"
     r"(?:answer|assessment|reading|judge?ment|conclusion|call|determination)\s+(?:is|would\s+be|seems)\s+"
     r"(?:possible|feasible)\b"
     # batch 36: "so a reliable assessment isn't possible": the same, said of a reliable one
     r"|\ban?\s+(?:reliable|definite|definitive|confident|meaningful|accurate)\s+(?:answer|assessment|reading|"
     r"judge?ment|conclusion|call|determination)\s+(?:isn't|is\s+not|wouldn't\s+be|would\s+not\s+be)\s+"
     r"(?:possible|feasible)\b"
     # batch 60: "Image resolution is insufficient to localise the dots. No answer can be given."
     r"|\bno\s+(?:(?:reliable|definite|definitive|confident|certain|meaningful|firm|accurate)\s+)?"
     r"(?:answer|assessment|reading|judge?ment|conclusion|determination)\s+can\s+be\s+(?:given|made|offered|provided)\b",
     "No definite answer is possible from a single slice."),
    # batch 10: a task the reply does not do from images ("I don't determine a person's sex from medical images.")
    ("not-from-images",
     r"\bi\s+(?:don't|do\s+not|won't|will\s+not|never|can't|cannot|can\s+not)\s+(?:determine|infer|guess|judge|"
     # (batch 83: not "I can't tell which from this photo", two answers weighed)
     r"estimate|predict|assign|tell(?!\s+which\b))\s+"
     # batch 68: "I don't determine a patient's sex from imaging alone"
     r"[^.;!?\n]{1,60}?\bfrom\s+(?:\w+\s+)?(?:" + _IMAGE + "|" + _STUDY + r"|imaging)s?\b"
     # batch 14: "Sex isn't something I should infer from a radiograph"
     r"|\b(?:isn't|is\s+not|is\s+never)\s+something\s+i\s+(?:should|can|could|would|will|am\s+able\s+to)\s+"
     r"(?:determine|infer|guess|judge|estimate|predict|assign|tell|say)\b[^.;!?\n]{0,40}?\bfrom\s+(?:\w+\s+)?(?:"
     + _IMAGE + "|" + _STUDY + r")s?\b"
     # batch 18: "Inferring sex from an imaging study isn't something I do"
     # batch 19: "Diagnosing skin conditions from a photo isn't something I can do reliably"
     r"|\b(?:determining|inferring|guessing|judging|estimating|predicting|assigning|telling|diagnosing|grading|"
     r"staging|classifying|interpreting|assessing)\s+[^.;!?\n]{1,40}?"
     r"\bfrom\s+(?:\w+\s+){0,2}?(?:" + _IMAGE + "|" + _STUDY + r"|imaging)s?\b[^.;!?\n]{0,30}?"
     r"\b(?:isn't|is\s+not)\s+something\s+i(?:'ll|\s+will)?\s+(?:do|can\s+do|will\s+do|offer)\b",
     "I do not infer a patient's age from radiographs."),
    # batch 10: the image blamed for its low resolution or quality, before a guess ("The image is very low resolution,
    # but the bone proportions suggest a child.")
    ("image-low-quality",
     r"\b(?:" + _IMAGE + "|" + _STUDY + r")" + _GIVEN + r"\s+(?:is|was|seems|appears)\s+(?:(?:to\s+be|of)\s+)?"
     r"(?:(?:very|quite|rather|"
     r"extremely|fairly|too|so)\s+)?(?:low|poor)[\s\-](?:resolution|quality|res)\b"
     # batch 16: "Limited study: the image is small and poorly resolved."
     r"|\b(?:" + _IMAGE + "|" + _STUDY + r")\s+(?:is|was|seems|appears)\s+(?:to\s+be\s+)?"
     r"(?:[\w\-]+[ \t]*(?:,|and|,[ \t]*and)[ \t]+)?(?:(?:very|quite|rather|extremely|fairly|too|so)\s+)?"
     r"poorly[\s\-](?:resolved|exposed|focused|focussed|visuali[sz]ed|penetrated|defined)\b"
     # batch 120: "Limited study: low resolution. Coronal plane. Answer: Yes." (the fault after the study's heading)
     r"|\blimited\s+(?:study|exam|examination|image|film)[ \t]*[:;,\u2013\u2014\-][ \t]*(?:(?:very|quite|rather)\s+)?"
     r"(?:low|poor)[\s\-](?:resolution|quality|res)\b",
     "The photo is of rather poor quality, but it looks like eczema."),
    # batch 11: the image blamed for being out of focus ("The photo is out of focus, which limits me; if forced to
    # choose, ... (A)"), and a fault of the film that makes what is asked hard to assess ("The film is rotated and
    # underpenetrated, which makes the bases hard to assess; with that caveat, I would say no effusion.")
    ("image-out-of-focus",
     r"\b(?:" + _IMAGE + "|" + _STUDY + r")\s+(?:(?:is|was|seems|appears)\s+(?:to\s+be\s+)?)?(?:(?:very|quite|rather|"
     r"badly|completely|somewhat|too)\s+)?(?:out\s+of\s+focus|unfocused|motion[\s\-]degraded)\b",
     "The photograph is badly out of focus, but it looks benign."),
    ("image-fault-makes-hard",
     r"\b(?:rotated|underpenetrated|under-penetrated|overpenetrated|over-penetrated|underexposed|overexposed|"
     r"under-exposed|over-exposed|out\s+of\s+focus|blurr(?:y|ed)|grainy|noisy|pixelated|cropped|motion\s+artefact|"
     r"motion\s+artifact)\b[^.;!?\n]{0,40}?\b(?:which|that|this|it)\s+(?:makes?\s+(?:it\s+|the\s+|them\s+)?"
     r"(?:[\w\-']+\s+){0,3}?(?:hard|difficult|impossible)\s+to\s+" + _JUDGE + r"\b"
     # batch 13: "The image is rotated and underexposed, which limits assessment of the cardiac silhouette."
     r"|limits?\s+(?:the\s+|my\s+|any\s+)?(?:assessment|evaluation|interpretation|reading)\b)",
     "The radiograph is underexposed, which makes the lung bases difficult to judge."),
    # batch 7: the image said to be insufficient for the question, in other words than "detail"
    ("image-insufficient",
     # batch 18: without its verb ("Retinal image quality inadequate for grading")
     r"\b(?:" + _IMAGE + "|" + _STUDY + r"|quality|resolution)\s+(?:(?:is|was|seems|appears)\s+)?(?:(?:to\s+be|simply|"
     r"frankly)\s+)?(?:insufficient|inadequate|not\s+(?:sufficient|adequate|good\s+enough))\s+(?:for\s+(?:me\s+)?)?"
     r"(?:to\s+" + _JUDGE + r"|for\s+(?:an?\s+)?(?:assessment|evaluation|interpretation|diagnosis|answer|grading|"
     r"staging|reading|classification))\b",
     "The image quality is insufficient to assess this."),
    # batch 13: "not sure, the picture is not clear"
    ("image-unclear",
     r"\b" + _IMAGE + r"\s+(?:is\s+not|was\s+not|isn't|wasn't)\s+(?:very\s+|really\s+|quite\s+|entirely\s+)?"
     r"(?:clear|sharp|legible|readable)\b(?!-)",
     "Not sure, the picture is not clear."),
    ("image-lacks-coverage",
     r"\b(?:does|do|did)\s*(?:not|n't)\s+(?:show|include|cover|capture|depict)\s+enough\s+of\s+"
     r"(?:the|this|these|that)\s+[\w\-]+"
     r"|\b(?:does|do|did)\s*(?:not|n't)\s+(?:show|depict|display|demonstrate|capture)\s+(?:[\w\-]+\s+){0,4}?"
     r"(?:clearly|well|sharply|fully)\s+enough\s+(?:for\s+(?:me|us)\s+)?to\s+" + _JUDGE + r"\b"
     # batch 53: "What came through is only the scout (localizer) image; the kidneys aren't resolved well enough to
     # say anything about a mass."
     r"|\b(?:isn't|is\s+not|aren't|are\s+not)\s+(?:resolved|shown|depicted|visuali[sz]ed)\s+(?:well|clearly)\s+"
     r"enough\s+(?:for\s+(?:me|us)\s+)?to\s+" + _JUDGE + r"\b",
     "This image does not show enough of the abdomen for me to say."),
    # batch 8: what the image does not let the reader do ("this view does not allow a reliable assessment")
    # a hostile review of held-out batch 125's rules: "... and I can't measure it. No answer.", "No answer: the film is
    # rotated." (the reply says it gives none; its "No" answers nothing)
    ("no-answer-given",
     r"(?:\A|(?<=[.!?\n]))[ \t*_#>]*no\s+(?:answer|verdict|reading|call)(?:\s+(?:given|possible|provided|offered|"
     r"from\s+me))?[ \t*_]*(?:[.!:;\u2013\u2014]|\s-\s|\Z)",
     "No answer: the film is rotated."),
    ("image-does-not-allow",
     r"\b(?:" + _IMAGE + "|" + _STUDY + r"|resolution|quality|view)\s+(?:does|do|did|will|wo|would)\s*(?:not|n't)\s+"
     r"(?:allow|permit|let|enable)\b"
     # (what the study supports as a reading, not a finding it does not support: "A cardiothoracic ratio of 0.47 on a
     # well-inspired PA film does not support cardiomegaly of any degree.", held-out batch 125)
     r"|\b(?:" + _IMAGE + "|" + _STUDY + r"|resolution|quality|view)\s+(?:does|do|did|will|wo|would)\s*(?:not|n't)\s+"
     r"support\s+(?:a|an|any|the|such\s+an?)\s+(?:[\w\-]+\s+){0,2}?(?:assessment|diagnosis|reading|interpretation|"
     r"conclusion|answer|evaluation|call|judge?ment|determination|estimate|comment|statement|grading|staging)\b",
     "This view does not allow a reliable assessment of the joint."),
    ("need-a-better-image",
     r"\b(?:i(?:'d|\s+would)?\s+(?:need|require)|please\s+(?:provide|upload|share|send|attach))\s+(?:a|an|the)\s+"
     r"(?:higher|better|clearer|sharper|larger|bigger|less\s+blurry|high|full|original|whole|complete|uncompressed)(?:[\s\-]+(?:resolution|"
     r"quality|res|size))?[\s\-]+(?:version\s+of\s+the\s+)?(?:" + _IMAGE + "|" + _STUDY + r"\b|view)",
     "I'd need a higher-resolution image."),
    # MedBLINK's markers are not there: "There are no dots visible in this image."
    ("no-markers-visible",
     r"\b(?:there\s+are\s+|i\s+see\s+)?no\s+(?:colou?red\s+)?" + _MARKERS + r"\s+(?:are\s+|is\s+)?(?:visible|"
     r"shown|seen|present|marked|drawn)\b"
     r"|\b(?:the\s+)?(?:colou?red\s+)?" + _MARKERS + r"\s+(?:are|is)\s+(?:not|n't)\s+(?:\w+\s+)?(?:discernible|"
     r"visible|seen|identifiable|distinguishable|shown|present)\b",
     "There are no dots visible in this image."),
    # other languages: "no puedo determinar", "je ne peux pas voir l'image", "ich kann ... nicht beurteilen",
    # "无法确定", "我看不到图像"
    ("cannot-es", r"\bno\s+(?:puedo|es\s+posible)\s+(?:\w+\s+){0,2}?(?:determinar|ver|saber|decir|responder|"
                  r"evaluar|identificar|abrir|visualizar|cargar)\b"
                  # (held-out batch 149: "no puedo ver ninguna imagen en tu mensaje": what it cannot see, too, so that
                  # its "ninguna" is no answer word)
                  r"(?:\s+(?:ninguna|ningún|ning[úu]n|la|una|el|esta|esa)\s+(?:imagen|foto(?:graf[íi]a)?|"
                  r"radiograf[íi]a|archivo|adjunto)\b)?",
     "No puedo determinar esto sin la imagen."),
    ("cannot-fr", r"\bje\s+ne\s+(?:peux|suis)\s+pas\s+(?:\w+\s+){0,2}?(?:d[ée]terminer|voir|dire|r[ée]pondre|"
                  r"[ée]valuer|identifier|certain|s[ûu]r|ouvrir|visualiser|charger)"
                  # held-out batch 150: "Désolé, je ne peux pas analyser cette image." (the image its object: not "Je
                  # ne peux pas interpréter ceci comme une fracture", a no)
                  r"|\bje\s+ne\s+peux\s+pas\s+(?:\w+\s+)?(?:analyser|interpr[ée]ter|lire)\s+(?:cette|cet|ce|l'|l\u2019|"
                  r"la|le|les|votre|vos)\s*(?:image|clich[ée]|radiographie|photo|fichier|document|examen|[ée]chographie)"
                  r"(?!\s+(?:autrement|comme|sans)\b)"
                  # (a hostile review: "Je n'arrive pas à ouvrir l'image.")
                  r"|\bje\s+n'arrive\s+pas\s+[àa]\s+(?:\w+\s+)?(?:ouvrir|voir|visualiser|charger|lire)\b",
     "Je ne peux pas voir l'image."),
    # batch 56: Swabian and Bavarian "i ka nix dazu saga" (ich kann nichts dazu sagen), "Des Bild isch ned
    # akomma" (das Bild ist nicht angekommen: the image has not arrived)
    ("cannot-de", r"\b(?:ich|i)\s+(?:kann|ka)\s+(?:\w+\s+){0,4}?(?:nicht|kein\w*|nix|ned|net)\s+(?:\w+\s+){0,2}?"
                  r"(?:beurteilen|bestimmen|erkennen|sehen|sagen|saga|beantworten)\b"
                  r"|\b(?:bild|aufnahme|foto)\s+(?:ist|isch|is)\s+(?:nicht|ned|net|nit)\s+(?:an)?(?:gekommen|akomma|"
                  r"okumma|akumma)\b",
     "Ich kann das Bild nicht beurteilen."),
    ("cannot-zh", r"无法(?:确定|判断|查看|看到|回答|识别|评估|仅凭)|看不到|不能确定|没有(?:提供)?(?:图像|图片)|不知道",
     "我无法确定，因为看不到图像。"),
    # batch 14: Japanese "申し訳ありませんが、画像が表示されません。" (the image is not displayed), and Korean alike
    ("cannot-ja-ko",
     r"(?:画像|写真|イメージ|図)(?:が|は|を)?(?:表示され|見え|確認でき|読み込め|開け|見ることができ)(?:ません|ない)"
     r"|(?:判断|判定|確認|回答|お答え|診断)(?:することが)?でき(?:ません|ない)|(?:分かり|わかり)ません"
     r"|(?:이미지|사진|영상)(?:이|가|를|을)?\s*(?:볼|확인할|열)\s*수\s*없"
     r"|(?:판단|판독|확인|진단|답변)(?:할|하기)?\s*수\s*없|모르겠습니다",
     "申し訳ありませんが、画像が表示されません。"),
    # (held-out batches 143-144: "non riesco a visualizzare l'immagine", "não consigo abrir a imagem")
    ("cannot-it", r"\bnon\s+(?:lo\s+)?so\b|\bnon\s+(?:posso|riesco\s+(?:\w+\s+)?a|sono\s+in\s+grado\s+di)\s+"
                  r"(?:\w+\s+){0,2}?(?:determinare|vedere|dire|"
                  r"rispondere|valutare|identificare|visualizzare|aprire|caricare|leggere)\b"
                  # (held-out batch 146: "non riesco a vedere nessuna immagine allegata", "non vedo alcuna immagine")
                  # (not "non vedo alcuna immagine di frattura", "nessuna immagine nodulare": an "immagine" is a finding
                  # too, a hostile review)
                  r"|\bnon\s+vedo\s+(?:nessuna|alcuna|l')\s*immagine(?:\s+(?:allegata|caricata|inviata|ricevuta|"
                  r"fornita))?(?:\s+(?:nel|in|della)\s+(?:messaggio|chat|conversazione|allegato|richiesta))?"
                  r"(?=\s*(?:[.,;!?]|\Z))"
                  r"|\bnessuna\s+immagine\s+(?:allegata|caricata|inviata|ricevuta|fornita)\b"
                  r"|\bnessuna\s+risposta\s+(?:è\s+)?possibile\b",
     "Non lo so."),
    ("cannot-pt", r"\bn[ãa]o\s+sei\b|\bn[ãa]o\s+(?:posso|consigo|consegui|estou\s+conseguindo|foi\s+poss[íi]vel)\s+"
                  r"(?:\w+\s+){0,2}?(?:determinar|ver|dizer|responder|"
                  r"avaliar|identificar|abrir|visualizar|carregar|ler|enxergar)\b",
     "Não consigo ver a imagem."),
    # batch 12: what a reply says keeps it from answering, without saying it cannot see the image at all
    ("image-partial",
     # batch 16: "I can only make out the upper part of the image clearly"
     r"\b(?:can|could)\s+only\s+(?:see|make\s+out)\s+(?:(?:a|the)\s+)?(?:small\s+)?(?:part|half|portion|(?:left|right|upper|lower|"
     # batch 56: "I can only see the top third of the slice"
     r"top|bottom)\s+(?:half|part|portion|third|quarter))\s+of\s+(?:the|this|your)\s+(?:" + _IMAGE + "|slice"
     # batch 14: "I can only see part of the porta hepatis on this image"
     + r"|(?:[\w\-]+\s+){1,4}?(?:on|in)\s+(?:the|this|your)\s+" + _IMAGE + r")",
     "I can only see the left half of the image."),
    # batch 14: "..., which makes a measurement unreliable"
    ("makes-unreliable",
     r"\b(?:which|that|this|it)\s+(?:makes?|renders?)\s+(?:(?:a|an|the|any|my)\s+)?(?:[\w\-]+\s+)?(?:measurement|"
     r"assessment|evaluation|reading|answer|interpretation|judge?ment|call|estimate|diagnosis|comparison)s?\s+"
     r"(?:\w+\s+)?(?:unreliable|impossible|meaningless|guesswork)\b",
     "Only part of the duct is in view, which makes a measurement unreliable."),
    # batch 15: "Only the proximal thighs are in the field of view, which limits assessment"
    ("limits-assessment",
     r"\b(?:which|that|this|it)\s+(?:severely\s+|greatly\s+|significantly\s+)?limits\s+(?:(?:the|my|any|a)\s+)?"
     r"(?:[\w\-]+\s+)?(?:assessment|evaluation|interpretation|measurement|reading)s?\b"
     # held-out batch 180: "Only the upper half of the chest is in the frame, which limits me; ..." (said alone: not
     # "which limits me slightly, but ...", "It limits me in no way.", a review)
     r"|\b(?:which|that|this)\s+(?:severely\s+|greatly\s+|significantly\s+)?limits\s+me(?=[ \t]*[;.])"
     # batch 40: "Only a narrow strip around the joint line is within the frame, limiting assessment.": the participle
     # after a comma
     r"|,[ \t]*(?:severely\s+|greatly\s+|significantly\s+)?limiting\s+(?:(?:the|my|any)\s+)?"
     r"(?:assessment|evaluation|interpretation|measurement|reading)s?\b",
     "Only the proximal thighs are in the field of view, which limits assessment."),
    # batch 15: "The panoramic image is cropped at both angles of the mandible, so I cannot count the wisdom teeth."
    ("cropped-so-cannot",
     # batch 22: "The field of view cuts off the lower pole, so I can't measure the spleen properly."
     r"\b(?:cropped|crops|cut(?:s|ting)?\s+off|truncated|truncates)\b[^.;!?\n]{0,80}?\bso\s+(?:i|we)\s+" + _CANT
     + r"\s+(?:\w+\s+)?"
     + _JUDGE + r"\b"
     # batch 109: "The upload is cropped at the hilum, so I can only see part of the left lung."
     # (said of the image: not a fragment "cut off from the shaft", hostile review of fd68bdc)
     r"|\b(?:" + _FRAME + r"|upload)\s+(?:is|was|has\s+been)\s+(?:\w+\s+)?(?:cropped|cut\s+off|truncated)\b"
     r"[^.;!?\n]{0,80}?\bso\s+(?:i|we)\s+can\s+only\s+see\s+(?:a\s+)?(?:part|half|portion|fraction|corner|strip|sliver)\s+of\b",
     "The image is cropped at the edges, so I cannot count the teeth."),
    # batch 15: German "Leider kann ich das Bild nicht sehen" (I cannot see the image)
    ("cannot-de",
     r"\bkann\s+ich\s+(?:das|die|den|es)?\s*(?:bild|aufnahme|foto|röntgenbild)?\s*(?:leider\s+)?nicht\s+"
     r"(?:sehen|erkennen|beurteilen|sagen|öffnen|bestimmen)\b"
     r"|\bich\s+kann\s+(?:das|die|den|es)?\s*(?:bild|aufnahme|foto|röntgenbild)?\s*(?:leider\s+)?nicht\s+"
     r"(?:sehen|erkennen|beurteilen|sagen|öffnen|bestimmen)\b",
     "Leider kann ich das Bild nicht sehen."),
    ("asks-for-the-image",
     r"\b(?:please|could\s+you|can\s+you|kindly)\s+(?:re-?)?(?:upload|attach|provide|share|send|post)\s+"
     r"(?:the|an?|your)\s+(?:[\w\-]+\s+){0,2}?(?:" + _IMAGE + "|" + _STUDY + r")s?\b",
     "Please upload the chest radiograph so I can look for consolidation."),
    ("image-cropped",
     # batch 59: "The image arrived as a 128-pixel thumbnail, which is far too small to judge the bones ..."
     r"\b(?:which|that)\s+is\s+(?:far\s+|much\s+|way\s+|simply\s+)?too\s+(?:small|tiny|dark|blurry|grainy|faint|"
     r"low[\s\-]res(?:olution)?)\s+(?:for\s+me\s+)?to\s+" + _JUDGE + r"\b|"
     r"\b(?:cropped|cut\s+off|zoomed\s+in|framed)\s+too\s+(?:tightly|closely|much|narrowly)\s+(?:for\s+me\s+)?to\s+"
     + _JUDGE + r"\b|\btoo\s+(?:tightly\s+|closely\s+)?cropped\s+(?:for\s+me\s+)?to\s+" + _JUDGE + r"\b",
     "This image is cropped too tightly to assess the distribution of the rash."),
    ("do-not-know-es-fr-de", r"\bno\s+lo\s+s[ée]\b|\bno\s+sé\b|\bje\s+ne\s+sais\s+pas\b"
                             r"|\bich\s+wei(?:ß|ss)\s+(?:es\s+)?nicht\b",
     "No lo sé."),
    # batch 17: an assessment put off ("Assessment deferred: photograph out of focus and overexposed")
    ("deferred",
     r"\b(?:assessment|evaluation|interpretation|diagnosis|answer|reading|report|opinion|grading)\s+(?:is\s+|was\s+|"
     r"will\s+be\s+)?deferred\b|\bi(?:'ll|\s+will|'d|\s+would|\s+must)\s+(?:have\s+to\s+)?defer\b",
     "Assessment deferred: the photograph is out of focus."),
    # batch 17: what the image's size, light or glare hides ("the growth plates aren't visible at this size", "which
    # limits what I can see", "too much glare on the lens, dots hard to make out", "Image quality limited by motion
    # artefact")
    # batch 18: an image blamed, then the answer qualified for it ("The image is heavily cropped, so take this as low
    # confidence, but ...", "The picture is undersized and somewhat washed out, which makes me hesitant."), a faulty
    # image that makes what is asked hard to see ("blurry pic, hard to see the growth plates"), a fault of the image
    # that makes it hard to judge ("The noise and the contrast timing make the liver hard to evaluate")
    ("image-fault-qualifies",
     r"\b(?:" + _IMAGE + "|" + _STUDY + r")s?\s+(?:is|was|are|looks|seems|appears)\s+[^.;!?\n]{0,40}?\b" + _FAULT
     + r"\b[^.;!?\n]{0,60}?\b" + _QUALIFIES + r"\b"
     # held-out batch 144: its quality said to be poor, then the answer qualified ("The image quality is poor — heavy
     # speckle and a narrow field of view — so please treat this cautiously."; not the quality alone, "Image quality is
     # poor (underexposed). Answer: D.", batches 57-58)
     r"|\b(?:" + _IMAGE + "|" + _STUDY + r")\s+quality\s+(?:is|was|seems|appears)\s+(?:(?:very|quite|rather|extremely|"
     r"fairly|too|so)\s+)?(?:poor|low|bad|suboptimal)\b[^.;!?\n]{0,80}?\b" + _QUALIFIES + r"\b"
     r"|\b" + _FAULT + r"\s+(?:" + _IMAGE + "|" + _STUDY + r")s?\b[ \t]*[,;:\-]?[ \t]*(?:(?:so|and|which\s+makes\s+it|"
     r"it's|its|it\s+is)\s+)?(?:hard|difficult|impossible)\s+" + _TO_JUDGE + r"\b"
     r"|\b(?:noise|blur|glare|artefacts?|artifacts?|motion|graininess|pixelation|cropping|(?:under|over)[\s\-]?exposure|"
     r"poor\s+(?:contrast|exposure|penetration))\b[^.;!?\n]{0,40}?\bmakes?\s+(?:it\s+|the\s+|them\s+)?"
     r"(?:[\w\-']+\s+){0,3}?(?:hard|difficult|impossible)\s+" + _TO_JUDGE + r"\b"
     # batch 68: what the question asks about outside the field, or the window wrong, then the answer qualified ("The
     # kidney is largely out of the field and the window is wrong, so this is low confidence — but I'd lean no mass")
     r"|\b(?:(?:is|are|lies|lie)\s+(?:largely\s+|partly\s+|mostly\s+|partially\s+)?out(?:side)?\s+(?:of\s+)?(?:the\s+)?"
     r"field(?:\s+of\s+view)?|window(?:ing)?\s+is\s+wrong)\b[^.;!?\n]{0,60}?\b" + _QUALIFIES + r"\b"
     # batch 19: a fault without its verb, then the answer qualified ("frame blurred by smoke, low confidence: red")
     r"|" + sentence_lead() + r"(?:the\s+|this\s+)?(?:[\w\-]+\s+)?" + _FRAME + r"s?\s+"
     r"(?:(?:heavily|badly|severely|very|quite|rather|somewhat|partly)\s+)?" + _FAULT
     + r"\b[^.;!?\n]{0,40}?"
     r"[,;:\-\u2013\u2014][ \t]*" + _QUALIFIES + r"\b"
     # batch 19: the image blamed, then a choice forced ("The ultrasound is very noisy and the margins are poorly
     # seen. If forced to choose, malignant (B).")
     r"|\b" + _FRAME + r"s?\s+(?:is|was|are|looks|seems|appears)\s+[^.;!?\n]{0,40}?\b" + _FAULT + r"\b[^!?\n]{0,80}?"
     r"\b" + _FORCED + r"\b"
     # batch 94: the image blamed, what it lacks said, then the answer qualified in a later sentence of the same
     # paragraph ("The image is heavily cropped: only a narrow horizontal strip ... That removes the most reliable
     # landmarks for judging orientation, so this assessment is tentative.")
     r"|\b" + _FRAME + r"s?\s+(?:is|was)\s+(?:heavily\s+|badly\s+|severely\s+)?" + _FAULT
     + r"\b(?:(?!\n[ \t]*\n)[^?!]){0,300}?\b" + _QUALIFIES + r"\b"
     # batch 84: the image blamed, then what it shows said hard to see ("the image is very blurry and it is hard to
     # see the details, but ...")
     r"|\b" + _FRAME + r"s?\s+(?:is|was|are|looks|seems|appears)\s+[^.;!?\n]{0,40}?\b" + _FAULT
     + r"\b[^.;!?\n]{0,40}?\b(?:hard|difficult|impossible)\s+" + _TO_JUDGE + r"\b"
     # batch 96: "This is hard to judge because the image has been cropped to a narrow horizontal strip ..."
     r"|\b(?:hard|difficult|tough|impossible)\s+to\s+" + _JUDGE + r"\s+because\s+(?:the|this)\s+" + _FRAME
     + r"\s+(?:has\s+been|is|was)\s+(?:\w+\s+)?" + _FAULT + r"\b"
     # batch 19: "Hard to say from such a dark, underexposed image; my impression is ..."
     # batch 38: an adverb after the verb ("It's hard to judge reliably from such a heavily compressed image.")
     r"|\b(?:hard|difficult|tough|impossible)\s+to\s+(?:say|tell|judge|be\s+sure|know|assess)\s+"
     r"(?:(?:reliably|confidently|accurately|properly|definitively|with\s+(?:any\s+)?(?:certainty|confidence))\s+)?"
     r"(?:from|on|with)\s+"
     r"(?:such\s+)?(?:an?\s+|the\s+|this\s+|that\s+)?(?=[^.;!?\n]{0,40}?\b" + _FAULT + r"\b)"
     r"(?:[\w\-]+,?\s+(?:and\s+)?){0,4}?" + _FRAME + r"s?\b"
     # held-out batch 180: "image very small, hard to see. probably no mass" (the image too small, then hard to see)
     r"|\b" + _IMAGE + r"\s+(?:is\s+|was\s+)?(?:very|too|really|quite|so|extremely)\s+small\b[ \t]*[,;:\-\u2013\u2014]"
     r"[ \t]*(?:and\s+|so\s+)?(?:it's\s+|it\s+is\s+)?(?:hard|difficult|impossible)\s+to\s+(?:see|tell|say|judge|"
     r"make\s+out)\b"
     # batch 20: a fault before its image, then doubt ("very small low res image, not sure, maybe child")
     r"|\b" + _FAULT + r"\s+" + _FRAME + r"s?\b[ \t]*[,;:\-\u2013\u2014][ \t]*(?:so\s+|and\s+)?(?:i'm\s+|i\s+am\s+)?"
     r"(?:not\s+(?:really\s+|entirely\s+|very\s+)?(?:sure|certain|confident)|unsure|uncertain)\b"
     # batch 20: a fault that limits the image, then the answer qualified ("Rotation and low resolution limit this
     # film, so treat this cautiously: ...")
     r"|\b" + _FAULT + r"\b[^.;!?\n]{0,30}?\blimits?\s+(?:this|the)\s+(?:[\w\-]+\s+)?" + _FRAME
     + r"s?\b[^.;!?\n]{0,40}?\b" + _QUALIFIES + r"\b"
     # batch 21: an image blamed, then a guess said to be one ("pic is low res n dark, guessing no")
     r"|\b" + _FRAME + r"s?\b[^.;!?\n]{0,30}?\b" + _FAULT + r"\b[^.;!?\n]{0,30}?[,;:\-\u2013\u2014][ \t]*"
     r"(?:so\s+|but\s+|and\s+)?(?:i'm\s+|i\s+am\s+|just\s+|only\s+)?guessing\b"
     # batch 22: an image blamed, then the answer hedged ("image very blurry but i think yes, kidney")
     # batch 38: the doubt said between them ("image is blurry so not sure, but i think the mass is on the right")
      # batch 104: a second fault joined to the first, said of the image itself ("the image is blurry and small but i
     # think it is upside down"; not "the scan shows the gas pattern is faint and small but I think ...": hostile
     # review of 9e8e215)
     r"|\b" + _FRAME + r"s?\s+(?:is|was|looks|seems|appears)\s+(?:very\s+|quite\s+|rather\s+|a\s+bit\s+)?" + _FAULT
     + r"\s+and\s+(?:very\s+|quite\s+)?(?:small|" + _FAULT + r")\b[ \t]*,?[ \t]*(?:so|but|and)[ \t]+"
     r"(?:i(?:'d|\s+would)?\s+(?:think|guess|say|suspect|believe)|probably|maybe|perhaps|my\s+(?:best\s+)?guess)\b"
     r"|\b" + _FRAME + r"s?\b[^.;!?\n]{0,30}?\b" + _FAULT + r"\b[ \t]*(?:[,;:\-\u2013\u2014][ \t]*)?"
     r"(?:(?:so|and)[ \t]+(?:i'm[ \t]+|i\s+am[ \t]+)?(?:not\s+(?:really\s+|entirely\s+|very\s+)?(?:sure|certain)|"
     r"unsure)[ \t]*,?[ \t]*)?"
     r"(?:so|but|and)[ \t]+(?:i(?:'d|\s+would)?\s+(?:think|guess|say|suspect|believe)|probably|maybe|perhaps|"
     r"my\s+(?:best\s+)?guess)\b",
     "The image is heavily cropped, so take this as low confidence: B."),
    # batch 81: a report not issued ("COMMENT: Image not received. No report issued.", "Report cannot be generated")
    ("no-report-issued",
     r"\bno\s+report\s+(?:is\s+|was\s+|can\s+be\s+|will\s+be\s+)?(?:issued|generated|produced|possible)\b"
     r"|\breport\s+(?:cannot|can't|could\s+not)\s+be\s+(?:issued|generated|produced)\b",
     "Image not received. No report issued."),
    # batch 80: the image's quality given as a field, poor, beside a low stated confidence ("**Image quality:** poor
    # (heavy JPEG compression, blocky artefacts)\n**Confidence:** low\n**Answer:** yes"); the image blamed for its
    # size, then its detail said to be limited ("<caveat>The image is only 128 pixels wide, so detail is very
    # limited.</caveat>"); the image's fault, then a best guess ('"note": "image cropped at the iliac crests; best
    # guess"')
    ("image-quality-field",
     r"\bimage\s+quality[ \t*_]*:[ \t*_]*(?:very\s+)?(?:poor|low|limited|suboptimal|degraded|inadequate)\b"
     r"[^.!?]{0,120}?\bconfidence[ \t*_]*:[ \t*_]*(?:very\s+)?low\b"
     r"|\b" + _FRAME + r"s?\b[^.;!?\n]{0,60}?,?\s+so\s+(?:the\s+)?(?:detail|resolution)\s+is\s+(?:very\s+|quite\s+|"
     r"severely\s+|extremely\s+)?limited\b"
     r"|\b" + _FRAME + r"s?\s+(?:is\s+|was\s+)?" + _FAULT + r"\b[^.!?\n\"]{0,60}?[,;:\-\u2013\u2014][ \t]*"
     r"(?:my\s+|a\s+|only\s+a\s+)?best\s+guess\b(?!\s+(?:of|from|by)\b)"
     # held-out batch 153: "⚠️ **Image quality caveat:** the uploaded file is a 160 × 190 pixel thumbnail, heavily
     # compressed, ... so treat what follows as provisional." (a caveat heading the reply)
     r"|\bimage[\s\-]+quality\s+(?:caveat|warning|limitation)s?[ \t*_]*:(?![ \t*_]*(?:none|nil|n/?a|no\b|not\s+"
     r"significant|adequate|good|acceptable|satisfactory))",
     "Image quality: poor (heavy compression)\nConfidence: low\nAnswer: yes"),
    # batch 19: the image blamed, and what is asked said not to be traceable on it ("The thumbnail I received is tiny
    # and low in contrast; the cardiac borders can't be traced on it.")
    ("image-fault-hides",
     r"\b" + _FRAME + r"s?\b[^.;!?\n]{0,30}?\b(?:is|was|are|looks|seems|appears)\s+[^.;!?\n]{0,40}?\b" + _FAULT
     + r"\b[^.!?\n]{0,80}?\b(?:can(?:\s*not|'t)|could(?:\s*not|n't))\s+be\s+(?:\w+\s+)?(?:traced|seen|made\s+out|"
     r"identified|outlined|delineated|defined|appreciated|distinguished|separated|resolved|followed|"
     # batch 21: "The image is cropped at the lateral costophrenic angles, so the ratio can't be measured properly"
     r"measured|assessed|judged|graded|counted|evaluated)\b"
     # batch 20: the image blamed, then what the reply cannot do on it ("image too dark, can't see the heart
     # borders", "The fundus photograph is overexposed ...; I can't grade it.")
     # (the fault said of the image itself; not "I can't see any fracture", an answer)
     r"|\b" + _FRAME + r"s?\s+(?:(?:is|was|are|looks|seems|appears)\s+)?(?:(?:very|quite|rather|far|way|so|much|"
     r"extremely|badly|heavily)\s+)?(?:[\w\-]+[ \t]*(?:,|and|,[ \t]*and)[ \t]+)?(?:" + _FAULT + r"|too\s+"
     r"(?:dark|bright|small|faint))\b[^.!?\n]{0,60}?(?<![\w'])(?:i\s+|we\s+)?" + _CANT
     + r"\s+(?:really\s+|properly\s+)?" + _JUDGE + r"\b(?!\s+(?:any|an?|no)\b)",
     "The thumbnail I received is tiny and low in contrast; the cardiac borders can't be traced on it."),
    ("image-hides",
     # batch 97: "I can clearly see both lower wisdom teeth; the upper region is too blurred to say whether the upper
     # ones are there." (a part of the image the question needs, too faulty to judge)
     r"\b(?:region|part|area|half|portion|side|field|edge|corner)\s+(?:is|was|are)\s+(?:far\s+|much\s+)?too\s+"
     r"(?:blurr(?:y|ed)|dark|faint|small|grainy|noisy|washed\s+out|cut\s+off)\s+to\s+" + _JUDGE + r"\b|"
     # batch 41: "The dots are barely visible at this resolution; my best guess is red."
     r"(?:\bnot|n't|\bbarely|\bhardly|\bscarcely)\s+(?:\w+\s+)?(?:visible|discernible|seen|resolvable|legible)\s+at\s+"
     r"this\s+(?:size|resolution|"
     r"magnification|zoom|scale)\b"
     r"|\b(?:which|that|this|it)\s+(?:severely\s+|greatly\s+|really\s+)?limits\s+what\s+(?:i|we|one)\s+can\s+"
     r"(?:see|assess|tell|say|make\s+out|judge|evaluate)\b"
     r"|\btoo\s+much\s+(?:glare|reflection|blur|noise|motion|artefact|artifact)\b"
     r"|\b" + _MARKERS + r"\s+(?:are\s+|is\s+)?(?:hard|difficult|impossible)\s+to\s+(?:see|make\s+out|tell\s+apart|"
     r"distinguish|locate|find|separate)\b"
     r"|\b(?:" + _IMAGE + "|" + _STUDY + r"|quality)\s+(?:is\s+|was\s+)?(?:severely\s+|significantly\s+|markedly\s+|"
     r"heavily\s+)?(?:limited|degraded|compromised)\s+by\b"
     # batch 82: "The image quality makes a confident call impossible, but if pressed I'd say no", "Limited
     # assessment due to image cropping. Estimated size: 1 to 3 cm (C)."
     r"|\bmakes?\s+(?:a|any)\s+(?:confident|reliable|definite|firm|certain)\s+(?:call|answer|assessment|read|"
     r"reading|judge?ment|diagnosis)\s+impossible\b"
     r"|\blimited\s+(?:assessment|evaluation|interpretation|read|reading)\s+(?:due\s+to|because\s+of|owing\s+to)\b",
     "The image quality is limited by motion artefact; provisional answer: yes."),
    # batch 23: the image said not to have arrived ("the image doesn't seem to have come through", "I can only see the
    # text of your question"); Polish "nie widzę załączonego obrazu" (I don't see the attached image)
    ("image-not-through",
     r"\b" + _IMAGE + r"\s+(?:(?:doesn't|does\s+not|didn't|did\s+not)\s+(?:seem\s+to\s+|appear\s+to\s+)?(?:have\s+)?"
     r"(?:come|came|gone|got|get)|(?:hasn't|has\s+not|haven't|have\s+not)\s+(?:come|gone|got))\s+through\b"
     r"|\b(?:can|could)\s+only\s+see\s+(?:the\s+)?(?:text|words)\s+of\s+(?:your|the)\s+(?:question|message|prompt)\b"
     r"|\bnie\s+widz[eę]\s+(?:\w+\s+){0,2}?(?:obrazu|obrazka|zdj[eę]cia|pliku|za[łl][aą]cznika)\b"
     # batch 38: "i dont see any picture attached" (no apostrophe): what should be attached is not there
     r"|\bi\s+(?:don'?t|do\s+not|can'?t|cannot|didn'?t|did\s+not)\s+see\s+(?:any|an?|the|your)\s+" + _IMAGE
     + r"s?\s+attached\b"
     # batch 55: "the file you sent seems to be a DICOMDIR index without any pixel data, so there's nothing for me to
     # look at": what came holds no image
     r"|\b(?:without|no|contains?\s+no|has\s+no)\s+(?:any\s+)?(?:pixel|image)\s+data\b"
     r"|\bthere(?:'s|\s+is)\s+nothing\s+for\s+me\s+to\s+(?:look\s+at|read|see|assess|interpret)\b"
     # batch 74: "... I'd need both the prior and the current study, and only one image came through."
     r"|\bonly\s+one\s+(?:image|study|scan|film|view)\s+(?:came\s+through|arrived)\b",
     "I can only see the text of your question — the image doesn't seem to have come through."),
    # batch 23: "I'd rather not put a diagnosis on it from a single image"; batch 24: "I don't think I should guess
    # someone's sex from a radiograph", "nothing in this image lets me say with any reliability"
    ("would-rather-not-say",
     r"\bi(?:'d|\s+would)\s+rather\s+not\s+(?:put|give|offer|make|hazard|venture|assign|attach)\s+(?:a|an|any)\s+"
     r"(?:[\w\-]+\s+)?(?:diagnosis|label|answer|guess|grade|name)\b"
     # batch 25: "I'd rather not grade the retinopathy from it."
     r"|\bi(?:'d|\s+would)\s+rather\s+not\s+(?:grade|stage|diagnose|classify|label|guess|call|judge)\b"
     r"|\bi\s+(?:don't|do\s+not)\s+think\s+i\s+(?:should|can|could)\s+(?:guess|determine|infer|judge|estimate|"
     r"diagnose|answer|tell)\b"
     r"|\bnothing\s+in\s+(?:this|the)\s+" + _FRAME + r"\s+(?:lets|allows|permits|enables)\s+me\s+(?:to\s+)?"
     r"(?:say|tell|judge|determine|decide)\b"
     # held-out batch 152: "I'd be cautious about putting a diagnosis on sudden chest pain from a single image."
     # (not "I'd be cautious about making a diagnosis of melanoma here: ..., so benign nevus", a hostile review)
     r"|\bi(?:'d|\s+would)\s+be\s+(?:very\s+|quite\s+)?(?:cautious|wary|hesitant|reluctant)\s+about\s+(?:putting|"
     r"giving|making|offering|assigning|attaching|venturing)\s+(?:a|an|any)\s+(?:[\w\-]+\s+)?(?:diagnosis|label|"
     r"answer|name)\s+(?:on|to)\b" + _NO_BUT,
     "I'd rather not put a diagnosis on it from a single image."),
    # batch 23: "a reliable assessment is not possible" (said of this image's reading)
    ("assessment-not-possible",
     r"\b(?:a\s+|any\s+)?(?:(?:reliable|confident|accurate|proper|meaningful|definite|useful|valid)\s+)?"
     r"(?:assessment|evaluation|interpretation|reading|measurement|grading)\s+(?:is|was|would\s+be)\s+"
     r"(?:not\s+possible|impossible)\b"
     # batch 59: the report's verbless sentence ("... no parenchymal detail is visible. Assessment not possible.")
     r"|(?:\A|(?<=[.;:!?\n]))[ \t*_]*(?:assessment|evaluation|interpretation)\s+not\s+possible\b"
     # batch 107: "The uploaded file is a radiology report, not an image. No assessment possible."
     r"|(?:\A|(?<=[.;:!?\n]))[ \t*_]*no\s+(?:assessment|evaluation|interpretation)\s+(?:is\s+)?possible[ \t]*"
     r"(?:[.!\n]|\Z)"
     # batch 26: "A determination cannot be made."
     r"|\b(?:determination|assessment|diagnosis|judge?ment|call)\s+(?:cannot|can't|can\s+not)\s+be\s+made\b",
     "Motion artefact degrades both femoral heads and a reliable assessment is not possible."),
    # batch 23-24: an image blamed, then the answer hedged or said hard to give ("picture is cut off right at the
    # fracture so hard to say, guess no", "picture is blurry, looks like an adult maybe"); the quality called poor, then
    # the answer given with that limitation ("Image quality is poor (...). With that limitation, ... yes.")
    ("image-fault-hedged",
     r"\b" + _FRAME + r"s?\s+(?:is|was|are|looks|seems|appears)\s+(?:[\w\-]+\s+){0,2}?" + _FAULT
     + r"\b[^.;!?\n]{0,40}?(?:[,;:\-\u2013\u2014]|\bso\b|\band\b)[ \t]*(?:(?:so|and|it's|its|it\s+is)\s+){0,2}"
     r"(?:(?:hard|difficult|tough)\s+to\s+(?:say|tell|judge|be\s+sure|see\s+anything|make\s+(?:anything\s+)?out)\b"
     # batch 67: "the image is very dark so its hard to see, but i think ...": hard to see, then a guess after "but"
     r"|(?:hard|difficult|tough)\s+to\s+see\b(?=[ \t]*,?[ \t]*but\b)"
     r"|(?=[^.;!?\n]{0,60}?\b(?:maybe|perhaps|probably|possibly|guess)\b))"
     # batch 26: "the image is very dark but it looks like an adult": the fault, then a guess by its look
     # (the image the subject: not "The lesion in the image is pretty dark, but it looks like ...", a hostile review)
     r"|(?<!\bin\s)(?<!\bin\sthe\s)(?<!\bon\sthe\s)(?<!\bof\sthe\s)(?<!\bin\sthis\s)\b" + _FRAME
     + r"s?\s+(?:is|was|are)\s+(?:very\s+|quite\s+|rather\s+|too\s+|really\s+|so\s+|pretty\s+)?" + _FAULT
     + r"\b[ \t]*,?[ \t]*but\s+(?:it|this|that|he|she|they)\s+(?:looks|seems|appears)\s+(?:like|to\s+be)\b"
     # batch 26: "The image quality is low and the duct is hard to see. It might be dilated."
     r"|\bquality\s+(?:is|was)\s+(?:very\s+|rather\s+|quite\s+)?(?:poor|low)\b[^.;!?\n]{0,60}?\b(?:hard|difficult)\s+to\s+"
     r"(?:see|tell|make\s+out|judge|assess)\b"
     # batch 25-26: a limited study read "within these limitations" ("Limited study due to patient rotation ...
     # Within these limitations, ...", "The image is of limited diagnostic quality due to motion artifact. Within
     # this limitation, ...")
     r"|\b(?:limited|suboptimal|degraded)\s+(?:diagnostic\s+)?(?:study|exam|examination|quality|image|film|evaluation)\b"
     r"[^!?\n]{0,120}?\b(?:within|with|given|despite)\s+(?:that|this|these|those|the)\s+limitations?\b"
     # batch 25-26: the answer given as one to distrust after the image is blamed ("please treat this as low
     # confidence", "so take this with caution")
     # (batch 53: "..., so please treat my read with caution: ...")
     r"|\b(?:treat|take)\s+(?:this|it|that|my\s+(?:answer|reading|read|call))\s+(?:as\s+(?:a\s+)?(?:low|limited)[\s\-]"
     r"confidence\b|with\s+(?:caution|a\s+(?:grain|pinch)\s+of\s+salt)\b)"
     r"|\bquality\s+(?:is|was)\s+(?:very\s+|rather\s+|quite\s+)?"
     r"(?:poor|low|limited|suboptimal)\b"
     r"[^!?\n]{0,80}?\b(?:with\s+(?:that|this|these|those)\s+(?:limitation|caveat|reservation)s?|bearing\s+"
     r"(?:that|this)\s+in\s+mind"
     # batch 41: "Image quality is poor due to noise. Best estimate: no, ...": the answer given as an estimate
     r"|best\s+(?:estimate|guess))\b"
     # batch 27-28: the answer to be weighed after the image is blamed ("the image resolution is very low ..., so
     # weigh this accordingly. With that caveat, ...", "The image is cropped just above the costophrenic angles ...
     # Provisionally, in what is visible: no", "Glare ... washes out most of the frame, so this is a low-confidence
     # call", "图像分辨率较低，仅供参考")
     r"|\bresolution\s+is\s+(?:very\s+|quite\s+|rather\s+|too\s+)?(?:low|poor)\b[^!?\n]{0,120}?"
     r"\b(?:weigh\s+(?:this|it|that)\s+accordingly|with\s+(?:that|this)\s+caveat)\b"
     r"|\b(?:image|film|frame|view|picture)\s+is\s+cropped\b[^!?\n]{0,120}?\b(?:provisionally|in\s+what\s+is\s+visible)\b"
     r"|\b(?:glare|washe[sd]\s+out)\b[^!?\n]{0,120}?\ba\s+low[\s\-]confidence\s+(?:call|read|reading|answer|guess)\b"
     r"|(?:图像|图片|影像)[^。.!?\n]{0,12}(?:较低|较差|模糊|不清)[^。.!?\n]{0,6}仅供参考"
     # batch 37: "Limited assessment due to suboptimal image quality. ... Answer: A.": the reading itself said to be
     # limited by the image's quality (not "limited study due to patient rotation", a study read within it)
     r"|\blimited\s+(?:assessment|evaluation|interpretation)\s+(?:is\s+possible\s+)?(?:due\s+to|because\s+of|owing\s+to)\s+"
     r"(?:the\s+)?(?:suboptimal|poor|low|degraded|inadequate)\s+(?:image\s+)?quality\b"
     # batch 38: the same in telegraphic style ("Image quality suboptimal; interpretation limited. Most likely: ...")
     # batch 53: "Image quality: severely underexposed; assessment limited.\nProbable answer: Yes ..." (a colon after
     # "quality", the fault named)
     # batch 57: "Image quality is poor (underexposed). Limited assessment. Probable age group: D." (the fault in
     # brackets, "limited" before the noun)
     r"|\bquality\s*(?:is\s+|:[ \t]*)?(?:(?:severely|badly|very|markedly)\s+)?(?:suboptimal|poor|low|degraded|"
     r"inadequate|underexposed|overexposed)\b(?:[ \t]*\([^()\n]{1,40}\))?[ \t]*[;,.:\-\u2013\u2014][ \t]*"
     r"(?:(?:the\s+|my\s+)?(?:interpretation|assessment|evaluation|reading)\s+(?:is\s+)?limited|"
     r"limited\s+(?:interpretation|assessment|evaluation|reading))\b",
     "picture is blurry, looks like an adult maybe"),
    # batches 73-76: the image blamed (its quality, its resolution, a window or a part of it that came through), then
    # the answer said to be tentative, provisional, forced or a guess, in the same sentence or the next ("Only the
    # lower half of the film came through, so this is tentative: correct", "Suboptimal acoustic window and motion;
    # provisional impression only — ... (A).", "Image quality limited (rotated, underexposed). Tentatively, ... B.",
    # "Limited assessment: low-resolution image. Provisional answer retained: Malignant.", "The resolution here is very
    # poor, which limits me a lot. If I have to commit: adult", "Image quality: suboptimal (motion blur). ...\n
    # Tentative answer: No."): a decline that keeps its guess (README, "Batch 10"). An image only mentioned while the
    # answer stands ("Despite mild motion, the fracture line is clear: B.") blames nothing and qualifies nothing.
    ("image-blamed-then-tentative",
     # (batch 118: "The image quality here is quite poor — ...")
     r"(?:\b(?:" + _IMAGE + r"|" + _STUDY + r")\s+quality\b[ \t]*(?:here\s+)?:?[ \t]*(?:is\s+|was\s+)?"
     r"(?:(?:very|rather|quite|somewhat)\s+)?(?:poor|limited|suboptimal|low|degraded)\b"
     r"|\bresolution\s+(?:here\s+)?(?:is\s+)?(?:(?:very|rather|quite)\s+)?(?:poor|low)\b"
     r"|\bsuboptimal\s+(?:acoustic\s+window|image|study|view|quality|exposure|film|scan)\b"
     # batch 98: "this film isn't ideal for judging heart size, so please take it as tentative"
     r"|\b(?:" + _IMAGE + r"|" + _STUDY + r")\s+(?:isn't|is\s+not|wasn't|was\s+not)\s+(?:ideal|optimal)\s+for\b"
     r"|\b" + _FAULT + r"\s+" + _FRAME + r"\b"
     # batch 119: "This image is heavily compressed and quite dark, ... My reading is therefore limited."
     # (an intensifier before the fault: not "picture is blurry, looks like an adult maybe", whose guess another rule
     # keeps)
     r"|\b" + _FRAME + r"\s+(?:is|was)\s+(?:very|heavily|quite|rather|badly|somewhat)\s+(?:compressed|" + _FAULT
     + r")\b"
     r"|\bonly\s+(?:the\s+)?(?:(?:lower|upper|left|right|top|bottom)\s+)?(?:half|part|portion)\s+of\s+(?:the\s+)?"
     r"[\w\-]+\s+(?:came\s+through|is\s+(?:in\s+the\s+(?:picture|image|frame)|visible|shown))\b)"
     # what follows within the next sentence or the next line (bounded, so a long reply is scanned once per blame)
     r"[^\n]{0,240}?(?:\n[^\n]{0,80}?)?"
     r"(?:\btentative(?:ly)?\b|\bprovisional(?:ly)?\b|\b" + _FORCED + r"\b|\b(?:low|limited)[\s\-]confidence\b"
     # batch 118: "... where I can only see the upper part of the spleen. So please take this with a fair amount of
     # caution."
     r"|\b(?:take|treat|read)\s+(?:this|it|my\s+answer)\s+with\s+(?:[\w\-]+\s+){0,4}?caution\b"
     r"|\bmy\s+answer\s+(?:may|might|could)\s+not\s+be\s+(?:correct|right|accurate)\b|\bi\s+guess\b|\bmaybe\b"
     r"|\bhard\s+to\s+tell\s+but\b"
     # batch 119: "Image quality: Limited. The image is a low-resolution screenshot ... Assessment of the fourth
     # ventricle and aqueduct is therefore unreliable." (the reading itself said to be limited or unreliable)
     r"|\b(?:reading|assessment|interpretation|evaluation)\b[^.;!?\n]{0,80}?\b(?:is|are)\s+(?:therefore\s+|thus\s+|"
     r"necessarily\s+|somewhat\s+)?(?:limited|unreliable)\b)",
     "Image quality limited (rotated, underexposed). Tentatively, the tube tip lies in the right main bronchus: B."),
    # batch 116: a report's image-quality field that faults the image, and its answer field qualified ("Image quality:
    # Suboptimal - the radiograph is underexposed, ... Answer: No fracture identified, with low confidence.")
    ("image-quality-field-then-tentative",
     r"(?m)^[ \t\-]*(?:image\s+)?quality\s*:[ \t]*(?:poor|limited|suboptimal|degraded|low(?![\s\-]*dose))\b"
     r"(?:(?!\n(?:answer|impression|conclusion)\s*:)[\s\S]){0,1500}?"
     r"\n(?:(?:tentative|provisional)\s+(?:answer|impression|conclusion)\s*:"  # batch 118: "Tentative answer: B."
     r"|(?:answer|impression|conclusion)\s*:[^\n]*?(?:\btentative(?:ly)?\b|\bprovisional(?:ly)?\b(?!\s+report)"
     r"|\b(?:low|limited)[\s\-]confidence\b))",
     "Image quality: Suboptimal - underexposed.\nFindings: cortices continuous.\nAnswer: No fracture, with low "
     "confidence."),
    # batch 100: "I wouldn't want to tell you there's no mass on the basis of this, or raise an alarm about one that
    # isn't there." (what it will not say is no answer)
    ("would-not-want-to-say",
     r"\bi\s+(?:wouldn't|would\s+not)\s+want\s+to\s+(?:tell\s+you|say|call\s+it|commit\s+to)\b[^.;!?\n]{0,80}",
     "I wouldn't want to tell you there's no mass on the basis of this."),
    # batch 100: "So, with the caveat that I'm not fully confident given the crop and the exposure, my answer is ..."
    ("confidence-limited-by-image",
     r"\b(?:i'm|i\s+am)\s+not\s+(?:fully|entirely|completely|very)\s+(?:confident|sure|certain)\s+given\s+the\s+"
     r"(?:crop(?:ping)?|exposure|blur|resolution|(?:image\s+)?quality|artefacts?|artifacts?|noise|compression)\b",
     "So, with the caveat that I'm not fully confident given the crop and the exposure, my answer is correct."),
    # batch 27: "I can't make out its structures well enough to classify it."
    ("cannot-make-out", r"\bcan(?:'t|not)\s+make\s+out\s+(?:its|the|any|their)\s+(?:[\w\-]+\s+){0,2}?well\s+enough\s+"
                        r"to\s+(?:classify|diagnose|judge|say|tell|assess|grade|answer|call)\b",
     "I can't make out its structures well enough to classify it."),
    # batch 27: Dutch "Sorry, ik kan de afbeelding niet openen."
    # held-out batch 153: Finnish, I cannot answer ("en pysty vastaamaan"), cannot assess ("en voi arvioida"), no image
    # attached ("ei ole liitteenä kuvaa"), send the image again ("Lähetä kuva uudelleen")
    # (not "En pysty näkemään murtumaa" (I can't see a fracture: no), nor a limit before "mutta" (but))
    ("cannot-fi", r"\ben\s+(?:pysty|voi)\s+(?:\w+\s+)?(?:vastaamaan|arvioida|arvioimaan|sanomaan|määrittämään|"
                  r"vahvistamaan)\b(?![^.!?\n]*\bmutta\b)|\ben\s+(?:pysty|voi)\s+(?:näkemään|avaamaan)\s+(?:\w+\s+)?"
                  r"kuva|\bei\s+ole\s+liitteenä\s+kuvaa\b|\blähetä\s+kuva\s+uudelleen\b",
     "Valitettavasti en pysty vastaamaan; viestissä ei ole liitteenä kuvaa."),
    # held-out batch 154: Romanian, cannot see the attached image ("nu pot vedea imaginea atașată"), please upload it
    # again ("Vă rog să o încărcați din nou")
    # (not "Nu pot vedea nicio fractură" (I can't see any fracture: no), nor a limit before "dar" (but))
    ("cannot-ro", r"\bnu\s+pot\s+(?:să\s+)?(?:vedea|deschide|accesa)\s+imagin"
                  r"|\bnu\s+pot\s+(?:să\s+)?(?:evalua|determina|interpreta)\b(?![^.!?\n]*\bdar\b)"
                  r"|\bîncărcați\s+(?:din\s+nou|imaginea)\b",
     "Îmi pare rău, dar nu pot vedea imaginea atașată."),
    ("cannot-nl", r"\bik\s+kan\s+(?:\w+\s+){0,3}?niet\s+(?:openen|zien|bekijken|beoordelen|bepalen|laden)\b",
     "Sorry, ik kan de afbeelding niet openen."),
    # held-out batch 158: Swedish, the attached image cannot be opened ("Den bifogade bilden kan inte öppnas."); and
    # the same in Norwegian and Danish ("kan ikke åpnes", "kan ikke åbnes"): what cannot be opened or shown is the
    # image, and the sentence ends there (not "kan inte uteslutas", cannot be ruled out, nor the image not seen
    # "tydligt" (clearly), "i full upplösning", "först" (at first), "men" (but) ...: a hostile review)
    ("cannot-sv-no-da", r"\b(?:bilden|bilde[tn]?|billede[tn]?|biletet|filen?)\s+(?:\w+\s+)?(?:kan|gick|går|gikk|gik)\s+"
                        r"(?:tyvärr\s+|dessverre\s+|desværre\s+)?(?:inte|ej|ikke|ikkje)\s+(?:att\s+|å\s+|at\s+)?"
                        r"(?:öppnas|öppna|åpnes|åpne|åbnes|åbne|visas|vises|laddas|lastes|indlæses)"
                        r"(?:\s+(?:här|her|hos\s+mig|hos\s+meg))?[ \t]*(?:[.!;]|,"
                        + _no_but("men|but", semicolon=False) + r"|\Z)"
                        r"|(?:\b(?:jag|jeg|eg)\s+|(?:\A|(?<=[.!?]))[ \t]*)kan\s+(?:tyvärr\s+|dessverre\s+|desværre\s+)?"
                        r"(?:inte|ikke|ikkje)\s+(?:se|sjå|öppna|åpne|åbne)\s+(?:\w+\s+)?(?:bilden|bildet|billedet|biletet)"
                        r"[ \t]*(?:[.!?,;]|\Z)" + _no_but("men|but", semicolon=False),
     "Den bifogade bilden kan inte öppnas."),
    # held-out batch 151: Czech, no image attached ("není připojen žádný obrázek"), cannot judge ("nemohu posoudit"),
    # please upload it again ("nahrajte obrázek znovu")
    # (not "Nemohu vidět žádnou zlomeninu" (I can't see any fracture: no), nor a limit before "ale" (but))
    ("cannot-cs", r"\bnení\s+(?:připojen|přiložen|vidět)\w*\s+(?:žádný\s+)?(?:obrázek|snímek)|\bnemohu\s+"
                  r"(?:\w+\s+)?(?:posoudit|určit)\b(?![^.!?\n]*\bale\b)|\bnemohu\s+(?:otevřít|vidět|zobrazit)\s+"
                  r"(?:\w+\s+)?(?:obrázek|snímek)|\bnevidím\s+(?:žádný\s+)?(?:obrázek|snímek)"
                  r"|\bnahrajte\s+(?:prosím\s+)?(?:obrázek|snímek)",
     "Omlouvám se, ale k vaší zprávě není připojen žádný obrázek."),
    # batch 27: a reply blocked by the vendor's safety filter (a Gemini candidate with finishReason SAFETY, an OpenAI
    # choice with finish_reason content_filter): nothing was answered
    ("blocked-by-filter", r"[\"']finish_?reason[\"']\s*:\s*[\"'](?:safety|content_filter|prohibited_content|"
                          r"blocklist)[\"']",
     '{"candidates": [{"finishReason": "SAFETY"}]}'),
    # batch 28: "... isn't reliable enough for me to give a yes or no."
    ("not-reliable-enough", r"\b(?:isn't|is\s+not|aren't|are\s+not)\s+reliable\s+enough\s+for\s+me\s+to\s+"
                            r"(?:give|say|answer|call|commit|decide)\b",
     "Determining sex from one image isn't reliable enough for me to give a yes or no."),
    # batches 29-30: the image blamed, then the answer given as one to distrust ("This is a very low-resolution image
    # and fine detail is lost. With that caveat, ... — no.", "Interpretation limited by severe motion artifact.
    # Impression, low confidence: ...", "Suboptimal study (respiratory motion). ... Answer: Yes (low confidence)",
    # "Coloured dots drawn over the image obscure much of the anatomy, so this is tentative: yes", "image is upside
    # down and very small but looks like adult", "图像太小，看不清细节。Best guess: C")
    ("image-blamed-then-answered",
     r"\b(?:low[\s\-]resolution|fine\s+detail\s+is\s+lost)\b[^!?\n]{0,120}?\bwith\s+(?:that|this)\s+caveat\b"
     r"|\b(?:interpretation|assessment|evaluation|study|exam)\s+(?:is\s+)?limited\s+by\b[^!?\n]{0,120}?"
     r"\blow[\s\-]confidence\b"
     r"|\bsuboptimal\s+(?:study|exam|examination|image|film)\b[^!?]{0,200}?\(?\blow[\s\-]confidence\b"
     r"|\b(?:obscures?|obscuring|hides?)\s+(?:much|most|part)\s+of\s+the\s+(?:anatomy|image|view|field)\b"
     r"[^!?\n]{0,60}?\b(?:tentative|provisional|low[\s\-]confidence)\b"
     r"|\b(?:image|picture|film|scan)\s+is\s+(?:[\w\-]+\s+){0,4}?(?:very|too|rather|quite)\s+(?:small|tiny|low[\s\-]res)\b"
     r"|(?:图像|图片|影像)[^。.!?\n]{0,8}(?:太小|太暗|模糊)[^。.!?\n]{0,4}看不清",
     "This is a very low-resolution image and fine detail is lost. With that caveat, no."),
    # batches 88-89: the study called non-diagnostic, or what was asked said not to be assessable ("Nondiagnostic
    # image. ... no interpretation can be provided.", "Limited study. ...; assessment for ascites is not possible.",
    # "I'm not going to be able to give you a reliable answer on this one"), and the image blamed before an answer
    # read within its limits ("Evaluation limited by motion artifact. Within these limitations, no definite
    # fracture ...", "Image quality: suboptimal. ... Interpretation is limited.", "... so I'm not certain, but ...",
    # "Treat this as a best estimate rather than a confident answer.")
    ("nondiagnostic-or-within-limits",
     r"\bnon-?diagnostic\s+(?:image|study|exam|examination|film|radiograph|scan)\b"
     # batch 103: "Image not interpretable: glare obscures both markers.", "The film is rotated and taken AP, which
     # makes the heart look bigger than it is, so any judgement here is limited. With that caveat, I'd say B."
     r"|\b(?:image|study|exam|examination|film|radiograph|scan|photo(?:graph)?)\s+(?:is\s+|was\s+)?(?:not\s+"
     r"interpretable|uninterpretable|not\s+readable|unreadable)\b"
     r"|\b(?:image|film|radiograph|scan|photo(?:graph)?|study|view)\b[^.!?\n]{0,160}?\b(?:so|which\s+means|meaning)\s+"
     r"(?:any|my|the)\s+(?:judge?ment|assessment|interpretation|read(?:ing)?|call)\s+(?:here\s+)?is\s+(?:therefore\s+|"
     r"necessarily\s+)?limited\b(?!\s+to\b)"
     r"|\bno\s+(?:interpretation|assessment|reading)\s+(?:can\s+be|could\s+be|is)\s+(?:provided|possible|made|given)\b"
     r"|\b(?:assessment|evaluation)\s+(?:for|of)\s+[\w\-]+(?:\s+[\w\-]+)?\s+is\s+not\s+possible\b"
     r"|\bI(?:'m|\s+am)\s+not\s+going\s+to\s+be\s+able\s+to\s+(?:give|provide|offer)\s+(?:you\s+)?(?:a\s+)?"
     r"(?:reliable\s+|confident\s+|definitive\s+)?answer\b"
     r"|\b(?:evaluation|assessment|interpretation|study)\s+(?:is\s+)?limited\s+by\b[^!?\n]{0,80}?[.;]\s*within\s+"
     r"(?:these|those|the)?\s*limit(?:ation)?s\b"
     # batch 93: "Image quality limited (motion blur). Most likely: A. Adult" (the fault named in brackets)
     # (held-out batch 150: "Image quality: suboptimal (motion blur).\nBest estimate: D. Neonate")
     # (not an earlier image's, nor a fault said to leave the image readable: "Prior image quality: ...", "...
     # suboptimal (noise), diagnostic", "... (compression), but sufficient", "... in the lower half only")
     r"|(?<!prior\s)(?<!previous\s)(?<!earlier\s)\bimage\s+quality\s*(?:is\s+|[*_]*:[*_ \t]*)?"
     r"(?:limited|poor|degraded|suboptimal)\s*\((?:motion|blur|noise|artefact|artifact|low\s+resolution|compression)"
     r"[^)]{0,40}\)(?![^.;\n]{0,40}?\b(?:diagnostic|sufficient|adequate|acceptable|only|but|still|clearly)\b)"
     # batch 90: "**Image quality:** Limited. ... Interpretation is therefore limited."
     r"|\bquality\s*(?:is\s+|[*_]*:[*_ \t]*)?(?:(?:severely|badly|very|markedly)\s+)?(?:suboptimal|poor|low|degraded|"
     r"inadequate|limited)\b[^!?]{0,200}?\b(?:interpretation|assessment|evaluation)\s+is\s+(?:therefore\s+|thus\s+|"
     r"hence\s+|so\s+)?limited\b"
     # batch 90: "The image is heavily cropped and only shows a narrow strip, but ... so yes" (the image blamed)
     r"|\b(?:heavily|severely|badly|tightly)\s+cropped\b[^.;!?\n]{0,40}?\bonly\s+(?:shows?|includes?|covers?)\b"
     r"|\b(?:treat|take)\s+this\s+as\s+a\s+best\s+(?:estimate|guess)\s+rather\s+than\s+a\s+(?:confident|definitive)\b"
     r"|\b(?:cropped|blurry|blurred|dark|underexposed|cut\s+off)\b[^!?\n]{0,80}?,\s+so\s+I(?:'m|\s+am)\s+not\s+"
     r"(?:certain|sure)\s*,\s+but\b",
     "Nondiagnostic image. The radiograph is severely underexposed; no interpretation can be provided."),
    # batch 42: a declined reply in three shapes: the attachment is no image to read ("... a screenshot of an
    # appointment letter rather than a scan, so I have nothing to assess."), the image blamed then the answer given
    # with a caveat ("The image is badly overexposed, so the lung margins are hard to trace. With that caveat, I'd
    # say no ..."), a limited study answered tentatively ("Limited study due to rotation and motion. Tentative answer:
    # A.")
    ("nothing-to-assess-or-tentative",
     # (the reply's own "I have nothing": not batch 9's "..., so there is nothing to grade. the answer is C.")
     r"\bso\s+i\s+have\s+nothing\s+to\s+(?:assess|read|interpret|grade|review|look\s+at)\b"
     # batch 86: "... a screenshot of the PACS worklist, not the radiograph itself, so there's nothing for me to judge
     # the age from." ("for me": the reply's own lack, not batch 9's "there is nothing to grade")
     # (not "... nothing for me to go on except the physes — which are open. Child.")
     # held-out batch 126: "... a screenshot of the PACS login page rather than a study, so there's nothing clinical
     # for me to look at."
     r"|\bso\s+there(?:'s|\s+is)\s+nothing\s+(?:clinical\s+|diagnostic\s+|useful\s+)?for\s+me\s+to\s+(?:judge|assess|"
     r"read|interpret|grade|review|"
     r"look\s+at)\b(?![^.!?\n]*\b(?:except|but|apart\s+from|other\s+than|besides)\b)"
     r"|\b" + _FRAME + r"s?\s+(?:is|was)\s+(?:very\s+|badly\s+|heavily\s+|quite\s+|rather\s+)?" + _FAULT
     + r"\b[^!?\n]{0,120}?\bwith\s+(?:that|this)\s+caveat\b"
     r"|\blimited\s+(?:study|exam|examination)\s+(?:due\s+to|because\s+of)\b[^!?\n]{0,80}?"
     r"\b(?:tentative|provisional)\s+(?:answer|reading|impression)\b"
     # batch 57: the image's resolution or quality called low, then the answer given as tentative ("Image resolution
     # is very low. Tentative answer: correct.")
     r"|\b(?:image\s+)?(?:resolution|quality)\s+is\s+(?:very\s+|quite\s+|rather\s+|too\s+)?(?:low|poor)\b[^!?\n]{0,80}?"
     r"\b(?:tentative|provisional)\s+(?:answer|reading|impression)\b",
     "Limited study due to rotation and motion. Tentative answer: A."),
    # batch 29: "The image is a screenshot of a DICOM viewer's study list, not the CT itself, so I cannot locate any
    # consolidation."
    ("not-the-image-itself",
     r"\bnot\s+the\s+(?:" + _IMAGE + "|" + _STUDY + r")\s+itself\b[^.!?\n]{0,60}?" + _CANT,
     "The image is a screenshot of the study list, not the CT itself, so I cannot locate any consolidation."),
    # batch 30: "i cant see any dots on this image" (no apostrophe), the markers asked about
    # batch 57: the markers named by their colours ("sorry i cant see the red or blue dot in this picture")
    ("cannot-see-markers", _CANT + r"\s+(?:really\s+)?(?:see|find|make\s+out)\s+(?:any|the)\s+"
     r"(?:(?:red|blue|green|yellow|white|black|coloured|colored)\s+(?:(?:or|and)\s+)?){0,3}" + _MARKERS + r"\b",
     "i cant see any dots on this image"),
    # batch 32: an image with nothing to look at ("the file is a DICOMDIR index with no pixel data, so there's no
    # image for me to look at")
    # batch 101: "i dont see an image in your message" (no apostrophe; the image missing from the message, not a finding
    # unseen in it)
    ("image-not-seen",
     r"\bi\s+(?:don't|dont|do\s+not|can't|cant|cannot)\s+see\s+(?:an?|any|the)\s+(?:attached\s+)?" + _IMAGE
     + r"\s*(?:(?:in|with|attached\s+to)\s+(?:your|the|this)\s+(?:message|question|request|prompt|post|chat|"
     r"conversation)\b|(?=[.,;!]|\Z))",
     "i dont see an image in your message"),
    ("no-image-to-look-at",
     r"\bno\s+" + _IMAGE + r"\s+(?:here\s+)?for\s+me\s+to\s+(?:look\s+at|see|read|assess|review|interpret)\b"
     r"|\bno\s+pixel\s+data\b",
     "The file is a DICOMDIR index with no pixel data, so there's no image for me to look at."),
    # batches 31-32: a decline in other words ("I'm not comfortable saying whether there's a pneumothorax from this
    # image", "I'd rather not override your physician's assessment or offer my own diagnosis")
    ("rather-not",
     r"\bi(?:'m|\s+am)\s+not\s+comfortable\s+(?:saying|answering|calling|commenting|making|giving)\b"
     r"|\bi(?:'d|\s+would)\s+rather\s+not\s+(?:override|offer|give|say|answer|comment|make|guess|diagnose|"
     # batches 75-76: "I'd rather not put a probability on this — the file arrived as a black image ...", "I'd rather
     # not keep going back and forth on a diagnosis for this rash — please have it assessed in person ..."
     r"put|keep\s+going\s+back\s+and\s+forth)\b",
     "I'd rather not offer my own diagnosis of a liver lesion; please discuss it with your care team."),
    # batches 31-32: the image blamed, then the answer given ("image is dark and hard to see but i think it is
    # ultrasound, yes", "The image is cropped and does not show the whole skeleton. ...", "The image resolution is
    # very low, so this is uncertain; ... B", "picture too dark, but guess adult.", "Half of the slice is cut off by
    # the screenshot, so I'm working from limited information.")
    ("image-blamed-then-guessed",
     r"\b" + _IMAGE + r"\s+(?:is\s+)?(?:\w+\s+){0,2}?" + _FAULT + r"\s+and\s+(?:very\s+)?(?:hard|difficult)\s+to\s+"
     r"(?:see|read|make\s+out)\b"
     r"|\b" + _IMAGE + r"\s+is\s+(?:\w+\s+)?cropped\s+and\s+(?:does\s+not|doesn't)\s+show\s+(?:the\s+)?"
     r"(?:whole|entire|full|complete)\b"
     r"|\b(?:image\s+)?resolution\s+is\s+(?:very\s+|too\s+|quite\s+|rather\s+)?(?:low|poor)\b[^.!?\n]{0,30}?"
     r"\b(?:uncertain|tentative)\b"
     # held-out batch 154: "Resolution is poor, but the outline of the skull ... is clear enough: **Yes**"
     # (opening the reply: not a follow-up's "Resolution is poor, but the consolidation is smaller", a hostile review)
     r"|\A[\W_]*(?:the\s+)?(?:image\s+)?resolution\s+is\s+(?:very\s+|quite\s+|rather\s+)?(?:low|poor)"
     r"[ \t]*,[ \t]*but\b"
     # batch 53: "The resolution is very low (about 128×128), so this is only a rough estimate: pediatric."
     r"|\b(?:image\s+)?resolution\s+is\s+(?:very\s+|too\s+|quite\s+|rather\s+)?(?:low|poor)\b[^.!?\n]{0,40}?"
     r"\bonly\s+a\s+rough\s+(?:estimate|guess)\b"
     r"|\b" + _IMAGE + r"\s+(?:is\s+)?too\s+" + _FAULT
     + r"\b[^.!?\n]{0,20}?\bbut\s+(?:i\s+)?(?:guess|would\s+guess|'d\s+guess)\b"
     r"|\bworking\s+(?:from|with)\s+limited\s+(?:information|data|detail)\b"
     # batch 60: "The resolution here is poor enough that I'd want the CT before committing. If forced to choose, ..."
     r"|\b(?:image\s+)?(?:resolution|quality)\s+(?:here\s+)?is\s+(?:low|poor|bad)\s+enough\s+that\b"
     # batch 33: two faults of the image named ("The image is small and dark. I think ..."), only part of the body
     # in it ("Only part of the chest is included in the image. Based on the visible part, ..."), and "cant see well
     # too dark. left femur": the image blamed, then a guess
     r"|\b" + _IMAGE + r"\s+is\s+(?:very\s+|too\s+|quite\s+)?(?:small|" + _FAULT + r")\s+and\s+(?:very\s+|too\s+|"
     r"quite\s+)?" + _FAULT + r"\b"
     # batch 59: "Only part of the chest fits in the image — ..."
     r"|\bonly\s+(?:a\s+)?part\s+of\s+the\s+[\w\-]+\s+(?:fits|(?:is|was)\s+(?:included|shown|visible|captured))\s+"
     r"in\s+the\s+"
     + _IMAGE + r"\b"
     r"|" + _CANT + r"\s+see\s+(?:it\s+)?(?:well|clearly)\W{0,3}\s*(?:(?:it|the\s+" + _IMAGE + r")\s+is\s+|it's\s+)?"
     r"too\s+" + _FAULT + r"\b"
     # batch 34: "The image quality is insufficient for a definitive assessment. Tentatively: A.": the image found
     # wanting for a firm answer, then a guess
     r"|\b(?:" + _IMAGE + r"\s+)?quality\s+is\s+(?:\w+\s+)?(?:insufficient|inadequate|not\s+sufficient|"
     r"not\s+adequate)\s+for\s+(?:a\s+)?(?:definitive|confident|reliable|firm|diagnostic)\b",
     "picture too dark, but guess adult."),
    # batch 34: declines by deployment policy ("This model is intended for research use only and must not be used for
    # clinical decision-making.", "For privacy reasons it will not be processed; please anonymise the image and
    # resubmit.")
    ("deployment-policy",
     r"\bresearch\s+use\s+only\b[^.!?\n]{0,80}?\b(?:must|should|may|can)\s*not\s+be\s+used\s+for\s+"
     r"(?:clinical|diagnostic|patient)\b"
     r"|\b(?:will\s+not|won't|cannot|can't|could\s+not)\s+be\s+processed\b[^.!?\n]{0,80}?\bplease\s+"
     r"(?:anonymi[sz]e|de-?identify|remove|redact|resubmit|re-?upload)\b",
     "For privacy reasons it will not be processed; please anonymise the image and resubmit."),
    # batches 43-44: a part unseen because the image is at fault ("i cant see the heart, the picture is cropped"), a
    # fault that "makes this harder" or an answer "based on what is visible" after poor quality, an image that was
    # downsampled then an answer "with that caveat"; declines of a gateway ("Image not received. Report cannot be
    # generated.", "... outside the scope of this deployment (radiology only). No interpretation provided.", "... a
    # scanned referral letter, not an image series, so I can't review anything ...")
    ("image-at-fault-or-not-received",
     _CANT + r"\s+see\s+(?:the|any)\s+[\w\-]+(?:\s+[\w\-]+)?[ \t]*[,;:\-\u2013\u2014]+[ \t]*(?:the|this|my)\s+"
     + _IMAGE + r"\s+is\s+(?:\w+\s+)?" + _FAULT + r"\b"
     r"|\b" + _IMAGE + r"\s+is\s+(?:\w+\s+)?" + _FAULT + r"\b[^.!?\n]{0,40}?\bmakes?\s+(?:this|it|that)\s+"
     # held-out batch 126: "The upload is tiny and heavily compressed, which makes this hard, but ..."
     r"(?:much\s+|a\s+lot\s+|far\s+|very\s+)?(?:harder|hard|difficult|tricky)\b"
     r"|\bquality\s+is\s+(?:very\s+|rather\s+|quite\s+)?(?:poor|low|limited|suboptimal)\b[^!?\n]{0,80}?"
     r"\bbased\s+on\s+what\s+(?:is\s+visible|i\s+can\s+see)\b"
     r"|\b" + _IMAGE + r"\s+(?:was|has\s+been|is)\s+(?:down-?sampled|down-?scaled|resized)\b[^!?\n]{0,120}?"
     r"\bwith\s+(?:that|this)\s+caveat\b"
     r"|\b" + _IMAGE + r"s?\s+(?:was\s+|were\s+)?not\s+received\b|\breport\s+(?:cannot|can't|could\s+not)\s+be\s+"
     r"generated\b"
     r"|\boutside\s+the\s+scope\s+of\s+this\s+(?:deployment|service|tool|system|gateway)\b"
     # held-out batch 146: "Determination of the patient's sex is outside the scope of this image analysis." (the
     # reply's first sentence: not "B. Female. Any comment on gender identity is outside the scope of this assistant.")
     r"|\A[^.!?\n]{0,120}?\boutside\s+the\s+scope\s+of\s+this\s+(?:image\s+)?(?:analysis|assessment|review|"
     r"assistant|model)\b"
     r"|\bno\s+interpretation\s+(?:is\s+)?(?:provided|given|offered)\b"
     r"|\bnot\s+an?\s+(?:image|imaging)\s+(?:series|study|file)\b[^.!?\n]{0,60}?" + _CANT
     + r"\s+(?:review|read|assess|interpret)\b",
     "i cant see the heart, the picture is cropped"),
    # batches 45-46: a study called limited, then the answer given as an estimate ("Limited study: the duct is partly
    # obscured by bowel gas. Best estimate: not dilated ..."); the picture blamed, then doubt ("picture very dark so not
    # sure, i think yes ..."); a diagnosis not named in good conscience ("I can't responsibly name a most likely
    # diagnosis for acute chest pain from this single image")
    ("image-limited-or-diagnosis-withheld",
     r"\A[\W_]*(?:limited|suboptimal|degraded)\s+(?:study|exam|examination)\s*[:\-\u2013\u2014]"
     # (not "Limited study: none - the film is well penetrated ...": a hostile review of e723c60)
     r"(?![ \t*_]*(?:none|n/?a|nil|no\s+(?:significant\s+|real\s+)?limitations?)\b)[^!?]{0,160}?"
     # batch 60: "Limited study: the right hip is partially outside the field of view. Within these limits, ..."
     r"\b(?:best\s+(?:estimate|guess)|within\s+(?:these|those|this|the)\s+limit(?:s|ations)"
     # batch 122: "Limited study: patient rotated, apices partly excluded. Most likely A. Left."
     r"|(?<=[.:;\n] )most\s+likely)\b"
     # (held-out batch 145: "the image is really blurry and small so i am not sure, but ...")
     r"|\b" + _IMAGE + r"\s+(?:is\s+)?(?:very\s+|too\s+|quite\s+|really\s+|rather\s+|pretty\s+|so\s+)?" + _FAULT
     + r"(?:\s+and\s+(?:very\s+|too\s+|quite\s+|really\s+)?(?:small|" + _FAULT + r"))?\s*,?\s+so\s+"
     r"(?:i'?m\s+|i\s+am\s+)?not\s+sure\b"
     r"|" + _CANT + r"\s+(?:responsibly|safely|in\s+good\s+conscience)\s+(?:name|give|offer|make)\s+"
     r"(?:a|the|any|one)\s+(?:[\w\-]+\s+){0,2}?diagnos\w*"
     # batches 47-48: the markers not visible in the image received; the image compressed "so I can't be fully
     # sure"; cut off "so I can only see ..."; dark "so hard to see"; "Image quality is poor ... Interpretation
     # limited."
     r"|\b(?:dots|markers|marks)\s+(?:aren't|are\s+not)\s+visible\s+in\s+the\s+" + _IMAGE + r"\b"
     r"|\b" + _IMAGE + r"\s+is\s+(?:very\s+|too\s+|quite\s+|heavily\s+)?(?:" + _FAULT + r"|compressed)"
     # held-out batch 126: "The image is low-contrast and the kidney is partly out of the field, so I can't be
     # definitive — but ..."
     r"(?:\s+and\s+[^.!?\n]{1,60}?)?\s*,?\s+so\s+"
     r"i\s+(?:can't|cannot|can\s+not)\s+be\s+(?:fully\s+|entirely\s+|completely\s+)?(?:sure|certain|definitive|"
     r"confident)\b"
     # batch 59: "The upload is heavily compressed and cropped at the wrist, so I'm not confident, but ..."
     r"|\b(?:" + _IMAGE + r"|upload)\s+is\s+(?:very\s+|too\s+|quite\s+|heavily\s+)?(?:" + _FAULT + r"|compressed)\b"
     r"[^.!?\n]{0,40}?,?\s+so\s+i(?:'m|\s+am)\s+not\s+(?:confident|sure|certain)\b"
     r"|\b" + _IMAGE + r"\s+is\s+cut\s+off\b[^.!?\n]{0,80}?,?\s+so\s+i\s+can\s+only\s+see\b"
     r"|\b" + _IMAGE + r"\s+is\s+(?:very\s+|too\s+|quite\s+)?" + _FAULT + r"\s*,?\s+so\s+(?:it's\s+|it\s+is\s+)?hard\s+"
     r"to\s+see\b"
     r"|\b(?:image|picture)\s+quality\s+is\s+poor\b[^\n]{0,60}?\binterpretation\s+(?:is\s+)?limited\b"
     # batch 110: "Image quality suboptimal: motion artefact and only partial inclusion of the left hip.
     # Interpretation limited.", "The image is blurry and heavily compressed, so a reliable assessment is difficult."
     r"|\b(?:image|picture)\s+quality\s+(?:is\s+)?(?:suboptimal|poor|limited|degraded)\b[^\n]{0,120}?"
     r"\binterpretation\s+(?:is\s+)?limited\b"
     # batch 114: "Image quality: Severe motion artefact with ghosting ... Interpretation limited."
     r"|\b(?:image|picture)\s+quality\s*:(?![^\n]{0,40}?\b(?:good|adequate|fine|no\s+(?:motion\s+)?artefact|not\s+affecting))"
     r"[^\n]{0,160}?\b(?:artefact|artifact|blurr\w*|noise|motion)\b[^\n]{0,120}?"
     r"\binterpretation\s+(?:is\s+)?limited\b(?![ \t]+(?:to|only|by\s+the\s+lack))"
     r"|\b" + _IMAGE + r"\s+is\s+(?:very\s+|too\s+|quite\s+|heavily\s+)?(?:" + _FAULT + r"|compressed)"
     r"(?:\s+and\s+(?:very\s+|too\s+|quite\s+|heavily\s+)?(?:" + _FAULT + r"|compressed))?\s*,?\s+so\s+(?:a\s+|any\s+)?"
     r"(?:reliable|confident|accurate|definitive|proper)\s+(?:assessment|read(?:ing)?|interpretation|evaluation)\s+"
     r"is\s+(?:difficult|hard|not\s+possible|impossible|limited)\b(?![^.!?\n]*\bbut\b)",
     "picture very dark so not sure, i think yes its displaced"),
    # batch 30: Hungarian "Sajnos nem látom a csatolt képet, kérem, töltse fel újra." (I don't see the attached
    # image, please upload it again)
    ("cannot-hu", r"\bnem\s+(?:látom|tudom\s+megnyitni|találom)\s+a\s+(?:csatolt\s+)?(?:képet|fájlt|mellékletet)"
                  r"|\btöltse\s+fel\s+újra\b",
     "Sajnos nem látom a csatolt képet."),
    # batches 49-50: the image blamed and the answer given as one to distrust, in four shapes ("The image is rotated
    # and underexposed, so any estimate of heart size is unreliable. With that caveat, I'd lean yes", "Limited
    # evaluation due to overlying cast material. ...\nAnswer: no", "Image quality is poor (heavy noise). Tentative
    # answer: no."), a verdict declined ("I don't think I can confirm or reject the physician's answer: the image is
    # rotated ..."), and Chinese "图片无法加载，请重新上传。" (the image cannot be loaded, please upload it again)
    ("image-blamed-or-not-loaded",
     r"\b" + _IMAGE + r"\s+is\s+[^.!?\n]{0,60}?,?\s+so\s+any\s+(?:estimate|assessment|reading|judge?ment)\s+of\s+"
     r"[^.!?\n]{1,60}?\s+(?:is|would\s+be)\s+unreliable\b"
     r"|\A[\W_]*limited\s+(?:evaluation|assessment)\s+(?:due\s+to|because\s+of)\b[^.!?\n]{1,80}[.\n][^!?]{0,160}?"
     r"\banswer\s*:"
     # batch 52: "Image quality limited (rotated, underpenetrated). Provisional answer: A. Pneumonia."
     r"|\b(?:image|picture)\s+quality\s+(?:is\s+)?(?:poor|limited|suboptimal|degraded)\b[^\n]{0,60}?"
     r"\b(?:(?:tentative|provisional)\s+answer|best\s+(?:assessment|estimate|guess))\b"
     # batch 51: "The upload is tiny and heavily cropped, but ... I'd lean yes.", "picture is blurry but looks like ct,
     # yes": the image blamed, then a hedged guess after "but"
     r"|\b(?:" + _IMAGE + r"|upload)\s+is\s+(?:(?:very|too|quite|heavily|rather|somewhat|badly)\s+)?" + _FAULT
     + r"(?:\s+and\s+(?:(?:very|too|quite|heavily|rather|somewhat|badly)\s+)?" + _FAULT + r")?\s*,?\s+but\b"
     # the guess hedged after it (not batch 22's "The image is blurry but shows a clear break.")
     r"[^.!?\n]{0,100}?\b(?:looks\s+like|i'd\s+lean|i\s+would\s+lean|i\s+think|probably|maybe|seems|appears)\b"
     # batch 51: "There are heavy compression artifacts in this image, which limit my assessment. That said, ... I'd go
     # with cystic.": artefacts of the image blamed, then a guess
     r"|\b(?:artefacts?|artifacts?)\s+in\s+(?:this|the)\s+" + _IMAGE + r",?\s+which\s+limit\s+(?:my|the)\s+"
     r"(?:assessment|evaluation|interpretation)\b"
     # batch 51: "Image partially obscured by an annotation overlay; assessment limited. Likely orientation: ..."
     # batch 62: "Image partially cropped at the right mandible; assessment limited. Provisional count: ..."
     # batch 66: "Image partially obscured by overlying lines. Limited assessment. Best estimate: ..."
     r"|\b" + _IMAGE + r"\s+(?:is\s+)?(?:partially\s+|partly\s+)?(?:obscured|covered|overlaid|" + _FAULT
     + r")\b[^.!?\n]{0,80}?[;.]\s*"
     r"(?:(?:assessment|evaluation|interpretation)\s+(?:is\s+)?limited|limited\s+(?:assessment|evaluation|"
     r"interpretation))\b"
     r"|\bi\s+(?:don't|do\s+not)\s+think\s+i\s+can\s+(?:confirm|accept)\s+or\s+(?:reject|refute|contest|dispute)\b"
     r"|(?:图片|图像|影像)无法(?:加载|打开|显示)|请重新上传"
     # batch 70: Northern Thai "บ่หันฮูบเจ้า ส่งมาใหม่แน่เจ้า" (I don't see the picture; please send it again), and
     # the Thai "ไม่เห็นรูป" (I don't see the picture)
     r"|(?:บ่|ไม่)(?:หัน|เห็น)(?:ฮูบ|รูป)|ส่ง(?:มา)?ใหม่",
     "Limited evaluation due to overlying cast material. No definite fracture line identified.\nAnswer: no"),
    # batches 61, 62, 64: what came through is not the image ("a screenshot of a PACS worklist, not the chest CT
    # itself, so I can't check ...", "I'm going to hold off on this one: the file is a screenshot of a PACS worklist,
    # not the study itself.", "the attachment contains only the radiology request form, not the radiograph.")
    ("not-the-image-sent",
     r"\bnot\s+the\s+(?:[\w\-]+\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\s+itself\b[^.!?\n]{0,60}?" + _CANT
     + r"|\bhold\s+off\b[^.!?\n]{0,60}?\bnot\s+the\s+(?:[\w\-]+\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\s+itself\b"
     r"|\b(?:" + _IMAGE + r"|upload)\s+(?:contains|shows|holds)\s+only\s+(?:the|a|an)\s+[^.!?\n]{1,60}?,\s*not\s+the\s+"
     r"(?:[\w\-]+\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\b"
     # batch 65: "The image you sent this time is a screenshot of the report text, not the radiograph, so I can't
     # check the apices myself."
     r"|\b(?:" + _IMAGE + r"|upload)\b[^.!?\n]{0,40}?\bis\s+(?:a|an|the)\s+[^.!?\n]{1,60}?,\s*not\s+the\s+"
     r"(?:[\w\-]+\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\b[^.!?\n]{0,40}?" + _CANT
     # batch 107: "The uploaded file is a radiology report, not an image."
     # (the file sent, not "the image is a scanned request form, not an X-ray image" to "Is this an X-ray?", nor "The
     # upload is a PDF, not a PNG image, but it rendered fine": hostile review of fd68bdc)
     + r"|\b(?:file|upload|attachment)\s+is\s+(?:a|an)\s+(?:[\w\-]+\s+){0,3}?(?:report|document|form|request|letter|"
     r"text|spreadsheet),\s*not\s+an?\s+(?:[\w\-]+\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\b",
     "Unable to re-review: the attachment contains only the radiology request form, not the radiograph."),
    # batches 67-68: the image's fault stated, then the answer marked as an estimate or a guess after a colon ("Image
    # quality: severe glare from the light source obscures the upper half. Limited assessment.\nBest estimate: ...",
    # "Heavily cropped, so a guess: correct.", "Rotated AP film; CTR unreliable. Best estimate: B.", "Low-res thumbnail
    # only. Provisional: D", "The fracture is partly hidden by the cast, which limits this. Tentatively: no")
    # batch 70: "Image quality limited (motion). Best estimate: small-volume ascites present. Answer: yes"
    ("image-fault-then-estimate",
     r"(?:\b(?:" + _FAULT + r"|glare|rotated|obscur(?:ed|es|ing)|hidden|thumbnail|(?:image\s+)?quality\s+(?:is\s+)?"
     r"limited)\b)[^!?]{0,120}?"
     r"\b(?:best\s+(?:estimate|guess)|provisional(?:ly)?|tentative(?:ly)?|(?:so\s+)?a\s+guess|my\s+guess)[ \t]*:",
     "Rotated AP film; CTR unreliable. Best estimate: B."),
    # batch 62: "I'd prefer not to change or confirm my answer without the full MRI series — from the single slice
    # provided I can't make this determination."
    ("cannot-make-determination", _CANT + r"\s+make\s+(?:this|that|a|the|any)\s+determination\b",
     "From the single slice provided I can't make this determination."),
    # batches 63-64: the image blamed, then "With that caveat:" before the answer ("The image is heavily downsampled
    # and I can't see the apices clearly. With that caveat: no pneumothorax.", "The apex is cropped out of the image,
    # which is where a small pneumothorax would show. With that caveat: no.")
    ("image-blamed-with-caveat",
     # (held-out batch 151: "The photo has been cropped very tightly, ... With that caveat, here's my best reading",
     # "The image seems cut off — ... Answer: B. No free fluid (with the caveat that the most dependent part ... isn't
     # shown).")
     # (not a crop said to lose nothing: "The image has been cropped to the lesion, which is all we need", "The image
     # appears cropped at the top, but the whole wrist and carpus are included", a hostile review)
     r"\b(?:" + _IMAGE + r"\s+(?:is|has\s+been|seems|looks|appears)\s+(?:\w+\s+)?(?:downsampled|" + _FAULT + r")|"
     r"(?:cropped|cut)\s+out\s+of\s+the\s+" + _IMAGE + r")\b"
     r"(?![^.;!?\n]{0,60}?(?:\bwhich\s+is\s+all\b|\bbut\s+(?:the\s+whole|all|everything)\b|\bto\s+the\s+"
     r"(?:lesion|region|area)\b))"
     # (the caveat looked ahead to, not part of the phrase: an answer between them stays readable, a hostile review)
     r"(?=[^!?]{0,400}?\bwith\s+(?:(?:that|this|these|those)\s+(?:caveats?|limitations?)|the\s+caveat\s+that)\b)",
     "The image is heavily downsampled and I can't see the apices clearly. With that caveat: no pneumothorax."),
    # batches 63-64: only part of the film to read ("Half the film is cut off, so I'm working from the left hemithorax
    # only.", "i cant see the lower part of the lungs, the image is cut", "The resolution is too low to look at the
    # growth plates properly, ...")
    ("image-partly-missing",
     r"\b(?:" + _IMAGE + "|" + _STUDY + r")\s+is\s+cut(?:\s+off)?\b[^.!?\n]{0,40}?\bworking\s+from\b"
     r"|" + _CANT + r"\s+see\s+the\s+[\w\-]+\s+part\s+of\b[^.!?\n]{0,40}?\b" + _IMAGE + r"\s+is\s+cut\b"
     r"|\bresolution\s+is\s+too\s+low\s+to\s+(?:look\s+at|make\s+out|see)\b"
     # batch 66: "I can't grade this: the lumbosacral junction is cropped out of the image you sent."
     r"|" + _CANT + r"\s+" + _JUDGE + r"\b[^.!?\n]{0,80}?\b(?:cropped|cut)\s+out\s+of\s+the\s+" + _IMAGE + r"\b"
     # batch 70: "Only the upper half of the pelvis made it into the upload, so the femoral shafts are cut off — on
     # what's visible, **A. Left femur** ...": the answer given only for the part that came
     r"|\b(?:" + _FAULT + r"|missing)\b[^.!?\n]{0,40}?\b(?:on|from|going\s+by)\s+what(?:'s|\s+is)\s+visible\b",
     "i cant see the lower part of the lungs, the image is cut"),
    # batch 72: declines on policy grounds ("I'd prefer not to infer someone's sex from a medical image", "that's a
    # judgement I shouldn't make from one picture", "This system is not intended to provide clinical diagnoses.",
    # "Limitation: This tool does not provide diagnostic interpretations.")
    ("policy-decline",
     r"\b(?:i'd|i\s+would)\s+(?:prefer|rather)\s+not\s+(?:to\s+)?(?:infer|guess|judge|say|answer|comment|speculate)\b"
     # batch 83: "I'd normally avoid inferring sex from a scan, and this one is quite grainy, but if you need an
     # answer: yes, ...": a reluctance stated, then the guess it keeps
     r"|\b(?:i'd|i\s+would)\s+(?:normally\s+|usually\s+|generally\s+|rather\s+)?avoid\s+(?:inferring|guessing|"
     r"judging|assigning|estimating|stating|calling)\b"
     # batch 104: "I usually avoid inferring sex from images, but since you ask: yes — ..." (a habit said, then given up
     # because asked; not a working method: "I avoid guessing, so I measured ...", hostile review of 9e8e215)
     r"|\bi\s+(?:normally\s+|usually\s+|generally\s+)?avoid\s+(?:inferring|guessing|judging|assigning|estimating|"
     r"stating|calling)\b[^.!?\n]{0,80}?(?:\bbut[ \t]+|[;,][ \t]*)(?:since|as)\s+you(?:'ve|\s+have)?\s+(?:ask|asked)\b"
     r"|\b(?:judge?ment|call|decision)\s+(?:that\s+)?i\s+(?:shouldn't|should\s+not|won't|will\s+not)\s+make\b"
     # batch 108: "I don't think I should give you a yes or no on this one.", "... and I'd normally hesitate to comment
     # on the imaging plane from this."
     # (not "I don't think I should call this normal", "I'd hesitate to call this anything other than a fracture":
     # hostile review of fd68bdc)
     r"|\bi\s+(?:don't|do\s+not)\s+think\s+i\s+should\s+(?:give|offer|provide)\s+(?:you\s+)?(?:a|an|any)\s+"
     r"(?:yes\s+or\s+no|answer|read|reading|interpretation|opinion)\b"
     r"|\b(?:i'd|i\s+would)\s+(?:normally\s+|usually\s+|generally\s+)?hesitate\s+to\s+comment\b"
     r"|\b(?:system|tool|service|assistant|model)\s+(?:is\s+not|isn't)\s+intended\s+to\s+(?:provide|give|make|offer)\s+"
     r"(?:\w+\s+)?diagnos\w*"
     r"|\b(?:system|tool|service|assistant)\s+(?:does\s+not|doesn't)\s+(?:provide|give|make|offer)\s+(?:\w+\s+)?"
     r"diagnos\w*",
     "This system is not intended to provide clinical diagnoses."),
    # batch 71: the image blamed in a report ("Image quality is poor (heavy speckle, low resolution). ... assessment
    # limited by image quality.", "The image is heavily downsampled; anatomy is only roughly discernible.", "sorry the
    # image is too dark, i cant write the findings")
    ("image-limits-report",
     r"\b(?:assessment|evaluation|interpretation)\s+(?:is\s+)?limited\s+by\s+(?:the\s+)?(?:image\s+)?(?:quality|"
     r"resolution)\b"
     r"|\b" + _IMAGE + r"\s+is\s+(?:heavily|severely|badly)\s+downsampled\b"
     r"|" + _CANT + r"\s+write\s+(?:the|a|any|my)\s+(?:findings|report)\b",
     "Impression: Probably cystic; assessment limited by image quality."),
    # batch 78: an image that does not fit the question ("The image I've been given doesn't fit the question — it's a
    # fundus photograph ...", "the red and blue dots are on a chest x ray, not an endoscopy picture, so the question
    # does not fit", "there's no way to judge pediatric versus adult from it"), or one from another body region with
    # the reading called limited ("Image appears to be from a different body region than expected and is partially
    # cropped. Interpretation limited.")
    ("image-does-not-fit",
     r"\b" + _IMAGE + r"\b[^.!?\n]{0,40}?\b(?:does\s*not|doesn't|do\s*not|don't)\s+(?:fit|match)\s+(?:the|your|this)\s+"
     r"question\b"
     r"|\bso\s+the\s+question\s+(?:does\s*not|doesn't)\s+(?:fit|apply)\b(?=[ \t]*(?:[.!;\n]|\Z))"
     r"|\bno\s+way\s+to\s+(?:judge|tell|determine|say|assess|know)\b[^.!?\n]{0,60}?\bfrom\s+(?:it|this|the\s+"
     + _IMAGE + r")\b"
     r"|\bfrom\s+a\s+different\s+(?:body\s+)?(?:region|part|patient)\b[^!?]{0,120}?\b(?:interpretation|assessment|"
     r"evaluation)\s+(?:is\s+)?limited\b"
     # held-out batch 150: "I can't weigh in on the physician's choice of focal nodular hyperplasia — the image
     # attached is an MRI of the knee, not a liver study." (the image given as the reason, right after)
     r"|\b(?:can't|cannot|can\s+not)\s+weigh\s+in\b(?:\s+on\s+(?:the\s+|this\s+|that\s+|your\s+|their\s+)?"
     r"(?:physician|doctor|resident|student|colleague|question|answer|choice|diagnosis|suggest\w*|it|this|that)\b"
     r"[^.!?\n]{0,80}?|[ \t]*(?:here|now)?)[ \t]*(?:[\u2014\u2013:;]|\s-\s|\bbecause\b|\bsince\b|"
     r"\bas\b)[ \t]*(?:the\s+|this\s+|your\s+)?(?:" + _IMAGE + "|" + _STUDY + r")\b"
     # (the image at fault or of something else: not "... — the image shows a clear fracture")
     r"(?:\s+(?:attached|provided|sent|uploaded|shared|you\s+sent))?\s+(?:(?:is|was)\s+(?:an?\s|of\s|not\b|too\b|"
     r"only\b|blurry|blurred|cropped|corrupt|missing|unreadable|unclear)|isn't|wasn't|doesn't|does\s+not|won't|"
     r"will\s+not|didn't|did\s+not|shows\s+only\b)",
     "The image doesn't fit the question, so there's no way to judge pediatric versus adult from it."),
)

_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for _, p, _ in REFUSAL_PHRASES)

# batch 10: the reply read the image and found the findings fit two answers equally ("A granuloma and a hamartoma are
# both possible here; ... no clear pattern either way. I cannot say whether the physician is right."): its "cannot
# say" is a hedge on what it saw, not a decline, when nothing else declines and the image is not spoken of
_EQUIVOCAL = re.compile(r"(?i)"
                        # batch 110: "maybe, maybe not, cant say for sure" (a hedge both ways, no decline)
                        r"\bmaybe[ \t]*[,.;]?[ \t]*maybe\s+not\b|"
                        r"\b(?:both|either)\s+(?:are\s+|is\s+|seem\s+|remain\s+)?(?:equally\s+)?"
                        r"(?:possible|plausible)\b|\beither\s+way\b|\bequally\s+(?:likely|possible|plausible)\b"
                        # batch 107: "The growth plates are open, which fits B, but the ossification centres are small
                        # enough that D is possible too. I can't tell you confidently which one it is."
                        # (a lettered option: not "Vasogenic edema is possible, cytotoxic is possible as well." after
                        # "I cannot determine this without seeing it", hostile review of fd68bdc)
                        r"|\b(?-i:[A-E])\s+is\s+(?:also\s+possible|possible\s+(?:too|as\s+well))\b"
                        r"|\b(?:don't|do\s+not|doesn't|does\s+not)\s+clearly\s+favou?r\b"
                        # batch 12: "Yes, axial. Although ... the globes look elongated, which might make it a sagittal
                        # slice. I really can't say.": an alternative weighed against the answer
                        r"|\b(?:might|could|would)\s+(?:also\s+)?make\s+it\b"
                        # batch 16: "It's hard to decide between the left and the right hip here - each femoral head
                        # shows some patchy sclerosis, and I can't say with any confidence which one (if either) ..."
                        r"|\b(?:hard|difficult)\s+to\s+(?:decide|choose|tell)\s+between\b|\(\s*if\s+either\s*\)"
                        # batch 17: "Female, ... Although ... the subpubic angle ... would point to male. Weighing the
                        # two, I honestly don't know which it is."
                        r"|\bweighing\s+(?:the\s+two|both|them|these|those|it\s+up|the\s+(?:evidence|findings))\b"
                        # batch 26: "I am not able to say with confidence whether it is solid or cystic."
                        r"|\bwhether\s+it\s+is\s+[\w\-]+\s+or\s+[\w\-]+\b"
                        # batch 70: "Yes, there is a hyperdensity. Hmm, on second look it may just be a calcified
                        # falx — I can't decide whether this is abnormal or not."
                        r"|\bwhether\s+this\s+is\s+[\w\-]+\s+or\s+(?:not\b|[\w\-]+\b)"
                        # batches 31-32: "I honestly can't tell whether it's consolidation or not.", "... whether
                        # they're circumscribed or microlobulated": what was seen, weighed after a second look
                        r"|\bwhether\s+(?:it's|they're|they\s+are)\s+[\w\-]+\s+or\s+(?:not\b|[\w\-]+\b)"
                        # batch 34: "... could be overlapping breast tissue ... I honestly can't say whether there is
                        # consolidation or not.": the finding weighed against a mimic
                        # batch 69: "... on reflection the opacity may just be overlying breast tissue; my
                        # confidence is now about 50%, and I can't say whether there's consolidation or not."
                        r"|\bwhether\s+(?:or\s+not\s+)?there(?:'s|\s+is|\s+are)\s+(?:an?\s+|any\s+)?[\w\-]+\s+or\s+"
                        r"not\b"
                        # batch 28: "On review, the hypoechoic band ... could equally be perirenal fat. I cannot
                        # confidently say ...", "两种都有可能，无法确定。" (both are possible)
                        r"|\b(?:could|might|may)\s+(?:just\s+as\s+)?equally\s+(?:well\s+)?be\b"
                        # batch 61: "The nodule is solid, A. Although — ... it could just as well be a complex cyst. I
                        # honestly can't say which now."
                        r"|\b(?:could|might|may)\s+just\s+as\s+well\s+be\b"
                        r"|\u4e24\u79cd\u90fd\u6709\u53ef\u80fd|\u4e24\u8005\u90fd\u6709\u53ef\u80fd"
                        # batch 29: "... without Doppler I can't tell the two apart. I'll withdraw my answer.", "I
                        # cannot decide between B and D.": two answers weighed, neither taken
                        r"|\btell\s+(?:the\s+two|them|these|those|both)\s+apart\b"
                        r"|\bdecide\s+between\s+(?:(?-i:[A-E])\s+and\s+(?-i:[A-E])|the\s+two|them|these|those)\b"
                        # batch 33: "... suggests a cystic component, so I cannot decide between solid and cystic.":
                        # two answers named by their words
                        r"|\bdecide\s+between\s+(?!the\s)[^\W\d_][\w\-]*\s+and\s+[^\W\d_][\w\-]*\W*\Z"
                        # batch 35: "The nodule is solid. Then again, there's a thin anechoic rim ..., so it may be
                        # partly cystic - I can't say with confidence which it is.": the answer weighed against another
                        r"|\bthen\s+again\b[^.!?\n]{0,160}?\b(?:may|might|could)\s+(?:\w+\s+)?be\b"
                        # batch 99: "... which would fit a late arterial phase. Honestly, I can't tell which of the
                        # two this is.", "..., so I can't say yes or no with any confidence.": the two answers
                        # themselves weighed
                        r"|\b(?:tell|say|decide)\s+which\s+of\s+the\s+two\b|\bsay\s+yes\s+or\s+no\b")
# declines that, after the findings were weighed, only say the reply cannot choose ("I can't decide", "I honestly
# don't know which it is")
_HEDGED_DECLINES = frozenset({"cannot-decide", "do-not-know", "cannot-zh"})
# the refusal phrases a weighing of two answers says in its own words (:data:`_WEIGHED`)
_WEIGHING_SAYS = frozenset({"cannot-be-sure", "cannot-be-determined"})
# the image named, or its quality: a reply that speaks of it may be blaming it ("The image is too dark; I cannot say
# which, though both are possible.")
_IMAGE_NAMED = re.compile(r"(?i)\b(?:" + _IMAGE + "|" + _STUDY + r"|resolution|quality|view)s?\b")
# ... but not an image named for its plane or sequence, or an earlier one (batch 104: "The spleen measures about 12.8 cm
# on the coronal image ... without a prior study I can't tell whether this is his normal." after "Could go either
# way."; batch 105: "it could just as well be a proton-density image. I can't say yes or no with confidence."): what
# the reply weighs, not what it blames
# ... where no fault is said of any image (hostile review of 9e8e215: "The lesion is barely visible on the axial image,
# so I can't tell ...", "Only the axial image came through and it is very grainy.")
_BLAMED = re.compile(r"(?i)\b(?:blurr(?:y|ed)|grainy|noisy|pixelated|low[\s\-]res\w*|compressed|cropped|"
                     r"out\s+of\s+focus|barely\s+(?:visible|seen)|came\s+through|degraded|artefacts?|"
                     r"artifacts?|(?:didn't|did\s+not|failed\s+to)\s+(?:attach|load|upload))\b")
_IMAGE_AS_SHOWN = re.compile(r"(?i)\b(?:coronal|axial|sagittal|transverse|oblique|[\w]+[\s\-]weighted|"
                             r"proton[\s\-]density|prior|previous|earlier|comparison)\s+(?:" + _IMAGE + "|" + _STUDY
                             + r")s?\b")


#: two answers weighed by name and neither taken: batch 52's "Answer: B. Right hip. Re-review: ... Unable to decide
#: between right hip and both hips.", batch 51's "Child.\nRe-evaluation: ...; late adolescent versus adult cannot be
#: distinguished. Unable to decide.": no decline here (:data:`_WEIGHED`), and no answer (``answers._LEFT_BETWEEN``)
WEIGHED_BY_NAME = (r"\bunable\s+to\s+decide\s+between\s+[^.;!?\n]{1,40}?\s+and\s+\w"
                   # batch 98: "Honestly, I can't settle between the left alone and both femurs on this single AP
                   # view."
                   r"|\b(?:can't|cannot|can\s+not|cant)\s+settle\s+between\s+[^.;!?\n]{1,40}?\s+and\s+\w"
                   r"|\s(?:versus|vs\.?)\s+[^.;!?\n]{1,40}?\s+(?:cannot|can't|could\s+not)\s+be\s+"
                   # batch 59: "Fracture versus nutrient canal cannot be differentiated on this single view."
                   # batch 63: "... displaced versus non-displaced cannot be determined with confidence."
                   r"(?:distinguished|differentiated|told\s+apart|separated|determined\s+with\s+(?:any\s+)?"
                   r"confidence)\b")
# batch 25: two answers weighed and neither taken ("I'm torn between A and B now.", "I can't commit to either
# answer."): a hedge on what was seen, not a decline, even where the image is blamed as well
_WEIGHED = re.compile(r"(?i)\btorn\s+between\b|\bcommit\s+to\s+either\b"
                      # batch 45: "Non-proliferative. Hmm — ... Honestly I can't tell now whether this is NPDR or PDR."
                      r"|\b(?:can't|cannot|can\s+not)\s+tell\s+now\s+whether\s+(?:this|it)\s+is\s+[^.?!\n]{1,40}?\s+or\s+"
                      r"[^.?!\n]{1,40}"
                      # batch 47: "B. Malignant. Actually, ... I honestly can't decide between benign and malignant
                      # now.", "upside down. hmm, or maybe correct, i cant decide which"
                      r"|\b(?:can't|cannot|can\s+not|cant)\s+decide\s+between\s+[^.?!\n]{1,40}?\s+and\s+"
                      r"[^.?!\n]{1,40}?\s+now\b"
                      # batch 107: "... I honestly can't choose between them now."
                      r"|\b(?:can't|cannot|can\s+not|cant)\s+(?:honestly\s+|really\s+)?(?:decide|choose|pick)\s+"
                      r"between\s+(?:them|the\s+two)\s+now\b"
                      r"|\bor\s+maybe\s+[^.!?\n]{1,40}?,?\s+i\s+(?:cant|can't|cannot)\s+decide\s+which\b"
                      # batch 50: "No. Hmm, ... maybe it is displaced after all. I can't say one way or the other."
                      r"|\bafter\s+all\s*[.!]?\s+i\s+(?:can't|cannot|can\s+not|cant)\s+say\s+one\s+way\s+or\s+the\s+"
                      r"other\b"
                      # batch 51: "sort of, cant really say": the idiom's half answer, then no choice between the
                      # two (as batch 50's "sort of, hard to say")
                      r"|\A[\W_]*(?:sort|kind)\s+of\s*[,;:\u2014\-]\s*(?:i\s+)?(?:cant|can't|cannot|can\s+not)\s+"
                      r"(?:really\s+)?say\W*\Z"
                      # batch 59: "Non-proliferative, B. Although... I can't tell the two apart at this resolution.
                      # I'm no longer comfortable picking proliferative or non-proliferative.": an answer withdrawn
                      # between two, not a decline
                      r"|\bno\s+longer\s+comfortable\s+(?:picking|choosing|committing\s+to)\b"
                      # batch 78: "Yes, ... now I notice the image is flipped, and I can't tell whether that opacity
                      # is in the right lower lobe or the left. I'm no longer sure either way."
                      r"|\bno\s+longer\s+sure\s+either\s+way\b"
                      # batch 83: "Non-proliferative — B. Though the vessel ... could be neovascularisation rather
                      # than IRMA, and I can't tell which from this photo; I'm not confident in either answer now."
                      r"|\b(?:not|no\s+longer)\s+(?:confident|sure|certain)\s+(?:in|of|about)\s+either\s+"
                      r"(?:answer|option|one|reading)\b"
                      # batch 102: "... so I'm no longer confident whether this is proliferative or
                      # non-proliferative."
                      r"|\bno\s+longer\s+(?:confident|sure|certain)\s+(?:whether|if)\b[^.;!?\n]{1,80}?\bor\b"
                      # batch 62: "Yes, the liver appears cirrhotic. However, considering your comment, ... I cannot
                      # say for certain whether it is cirrhotic or not.": the answer withdrawn at the reply's close
                      # batch 74: "Non-proliferative, B. Although — now that I compare it with the earlier photo, ...
                      # so I honestly can't say whether this is proliferative or not." (no "for certain"; the earlier
                      # photo compared, not blamed)
                      r"|\b(?:can't|cannot|can\s+not)\s+say\s+(?:for\s+(?:certain|sure)\s+)?whether\s+(?:it|this)\s+is\s+"
                      r"[\w\-]+\s+or\s+not\W*\Z"
                      # batch 68: "Benign, I think. ... I can't honestly say benign over malignant now.": one answer
                      # weighed against another, as "can't decide between X and Y now"
                      r"|\b(?:can't|cannot|can\s+not|cant)\s+(?:honestly\s+|really\s+)?(?:say|pick|choose|call)\s+"
                      r"[\w\-]+(?:\s+[\w\-]+)?\s+over\s+[\w\-]+(?:\s+[\w\-]+)?\s+now\b"
                      # batch 84: "Free fluid is present. Upon closer inspection, the hypoechoic stripe could be
                      # perinephric fat rather than fluid. I cannot determine whether free fluid is present or not.":
                      # an answer given, looked at again and withdrawn at the close
                      r"|\b(?:upon|on)\s+(?:closer\s+)?(?:inspection|review|reflection)\b[^\n]{0,200}?\b(?:cannot|can't|"
                      r"can\s+not)\s+(?:determine|say|tell)\s+whether\s+[^.?!\n]{1,60}?\s+or\s+not\W*\Z"
                      # batch 85: "Equivocal — there is haziness at both bases and I can't tell which side holds the
                      # fluid.": the finding called equivocal, not the image declined
                      # batch 99: "Borderline. It's about 13 cm, right around the cut-off, so I can't say ..."
                      # batch 100: "**Yes and no.**\n\nHere's why I can't give a clean answer: ..."
                      r"|\A[\W_]*(?:equivocal|borderline|yes\s+and\s+no)\b"
                      # batch 100: "... but between glioblastoma and an abscess, I genuinely can't tell ..."
                      r"|\bbetween\s+[^.;!?\n]{1,60}?\s+and\s+[^.;!?\n]{1,60}?,\s*i\s+(?:genuinely\s+|honestly\s+|really\s+)?"
                      r"(?:can't|cannot|can\s+not|cant)\s+(?:tell|decide|say|choose)\b"
                      r"|" + WEIGHED_BY_NAME)


# batch 44: a reply that opens with its answer and ends saying the matter "cannot be determined with confidence"
# ("Answer: B. Non-communicating hydrocephalus.\nAddendum: ... raises a communicating process. The type cannot be
# determined with confidence on this study."): it withdraws the answer it gave, it does not decline to look
# batch 74: "Answer: B. Right femur. However, no side marker is visible ..., so it may equally be the left femur.
# Laterality cannot be confirmed." (the answer doubted to its close, not declined)
_ANSWER_WITHDRAWN = re.compile(r"(?is)\A\W*(?:final\s+)?answer\s*:\s*\S.*\b(?:cannot|can't|could\s+not)\s+be\s+"
                               r"(?:(?:determined|decided|told)\s+with\s+(?:any\s+)?confidence|confirmed)\b"
                               r"[^.!?\n]*[.!]?\s*\Z"
                               # batches 86-87: the answer on its own line, then a heading that takes it back
                               # ("Answer: A. Benign.\nReassessment: ... Benign versus malignant cannot be determined.",
                               # "Answer: ...\nReconsideration: ... Cannot determine whether ... solid or cystic.")
                               r"|\A\W*(?:final\s+)?answer\s*:[^\n]*\S[^\n]*\n\s*(?:re-?assessment|reconsideration|"
                               r"revision|addendum)\s*:.*\b(?:(?:cannot|can't|could\s+not)\s+be\s+determined|"
                               r"(?:cannot|can't|could\s+not)\s+determine\s+whether\b[^.!?\n]*\bor\b)[^.!?\n]*[.!]?\s*\Z")


# batch 98: an answer given under a heading of its own, then a heading that looks again and leaves it between two
# ("**Initial answer:** Yes — ...\n\n**Reconsideration:** ... it is not possible to determine whether the signal
# reflects enhancement or intrinsic T1 shortening."): a withdrawal, not a decline
# (batch 108: the reply's own opening "Answer: No.", then "Reassessment: ... I cannot confidently distinguish between a
# fracture and a normal variant, and I am unable to give a definitive yes or no.")
_WITHDRAWN_ON_REVIEW = re.compile(r"(?is)(?:\A[\W_]*|\b(?:initial|first|original|preliminary)\s+)answer\s*:[^\n]*\S"
                                  r"[^\n]*\n(?:[^\n]*\n)*?[\s*_#]*(?:re-?consideration|re-?assessment|revision|"
                                  r"addendum|second\s+look)\s*[*_]*\s*:[^\n]*(?:\bwhether\b[^.!?\n]{1,120}?\bor\b|"
                                  r"\bdistinguish\s+between\b[^.!?\n]{1,80}?\band\b|\byes\s+or\s+no\b)")


# a second look at the reply's own answer, opening a sentence ("On re-review, ...", "On second look, ...")
_REVIEWED_AGAIN = re.compile(r"(?i)(?:\A|[.!?\n])[ \t*_]*on\s+(?:re-?review|second\s+look|a\s+second\s+look|"
                             r"closer\s+look|further\s+review)\s*[,:]")
# the reply takes back an answer of its own: a withdrawal, not a decline
_WITHDRAWS_OWN = re.compile(r"(?i)\bI(?:'m|\s+am)\s+withdrawing\s+my\b|\bI(?:'ll|\s+will)?\s+withdraw\s+my\b"
                           # batch 116: "... so I'm withdrawing the answer above."
                           r"|\bI(?:'m|\s+am)\s+withdrawing\s+(?:the|that)\s+(?:answer|reading|call)\s+(?:above|I\s+gave)\b"
                           # held-out batch 125: "I'd withdraw the "yes" above", ... (pushback.OWN_WITHDRAWAL)
                           r"|" + OWN_WITHDRAWAL)


# batch 103: "I said no, but the lucent line ... could be a fracture — or it could be the normal apophysis. Honestly, I
# can't say which it is."; batch 102: "It might be bilateral, or the left blunting might just be pleural thickening. I
# cannot say for sure whether the effusion is on the left.": two readings of one finding weighed, a withdrawal ...
_TWO_READINGS = re.compile(r"(?i)\b(?:could|might|may)\s+be\s+[^.;!?\n]{1,80}?\bor\s+(?:it|this|that|they|the\s+[\w\-]+"
                           r"(?:\s+[\w\-]+)?)\s+(?:could|might|may)\s+(?:just\s+|simply\s+|equally\s+)?be\b")
# ... unless the reply says the images are what it cannot tell from (batch 91: "Honestly, I can't tell from these two
# images whether it's stable or aggravating.")
_FROM_THE_IMAGES = re.compile(r"(?i)\b(?:from|on|with)\s+(?:these|this|the|those)\s+(?:two\s+|single\s+|still\s+)?"
                              r"(?:images?|films?|scans?|photos?|photographs?|views?|radiographs?|pictures?|x-?rays?|"
                              r"study|studies|mri|ct|ultrasound|upload)\b")
# batches 112-113: the reply's own answer said no longer held ("I can't tell whether this is one hip or both. I'm not
# confident in B anymore."): a withdrawal, not a decline, unless it says the image is what it cannot tell from ("I
# honestly can't tell from this still image whether ..., so I'm no longer confident in calling it either solid or
# cystic", a decline)
_NO_LONGER_CONFIDENT = re.compile(r"(?i)\bI(?:'m|\s+am)\s+(?:not\s+(?:as\s+|so\s+)?confident\s+in\s+[^.;!?\n]{1,40}?"
                                  r"\s+any\s*more|no\s+longer\s+confident\s+in)\b"
                                  # batch 116: "No, I'd say the fracture isn't displaced ... Having looked at the
                                  # lateral view more carefully, though, I'm not so sure."
                                  r"|\b(?:though|however),\s+I(?:'m|\s+am)\s+not\s+so\s+sure\b")


def is_refusal(text: str) -> bool:
    """True when the reply declines to answer ("I cannot determine", "not possible to tell from the image",
    "I can't be sure without the image, but ...").

    Kept separate from the choice because abstention is a result of its own: a reply can refuse and still name
    an option, or refuse and be invalid.
    """
    if not text:
        return False
    if len(text) > 8000:  # a refusal is said where a reply starts or ends: a degenerate 100 kB reply stays fast
        text = text[:5000] + "\n" + text[-3000:]
    # batch 116: "**Image quality:** Suboptimal — the radiograph is underexposed", "The CT image is **low-resolution
    # and partly cropped**": what the marks set in bold is read as written
    t = _without_general_limits(unmarked(fold_quotes(placeholder_named(text))))
    if _ANSWER_WITHDRAWN.search(t) and refusal_names(t) <= {"cannot-be-determined", "cannot-decide"}:
        return False
    if _NO_LONGER_CONFIDENT.search(t) and not _FROM_THE_IMAGES.search(t) \
            and refusal_names(t) <= {"cannot-be-determined", "cannot-decide"}:
        return False
    again = _REVIEWED_AGAIN.search(t)
    if again is not None and re.search(r"[^\W\d_]", t[:again.start()]) and not _FROM_THE_IMAGES.search(t) \
            and not _BLAMED.search(t) and refusal_names(t) <= {"cannot-be-determined"}:
        # batch 115: "Yes, this is a lateral view.\nOn re-review, the projection may instead be oblique: ... The view
        # cannot be determined with confidence.": an answer doubted on a second look, nothing it lacks named
        return False
    if _WITHDRAWS_OWN.search(t) and not _BLAMED.search(t):
        return False  # batch 88: "... I'm withdrawing my initial "yes" — it could be T2, PD or an atypical T1"
    if _WITHDRAWN_ON_REVIEW.search(t) and refusal_names(t) <= {"cannot-be-determined", "cannot-decide",
                                                                "impossible-to-tell"}:
        return False  # batch 98: "**Initial answer:** Yes ...\n**Reconsideration:** ... whether ... or ..."
    if _TWO_READINGS.search(t) and not _FROM_THE_IMAGES.search(t) \
            and refusal_names(t) <= _HEDGED_DECLINES | _WEIGHING_SAYS:
        return False
    if _WEIGHED.search(t):
        # batches 62-63: what the weighing itself says ("cannot say for certain whether ...", "... cannot be determined
        # with confidence") is no decline either
        return not refusal_names(t) <= _HEDGED_DECLINES | _WEIGHING_SAYS
    if not _EQUIVOCAL.search(t) or _IMAGE_NAMED.search(t if _BLAMED.search(t) else _IMAGE_AS_SHOWN.sub(" ", t)):
        return any(p.search(t) for p in _PATTERNS)
    return not refusal_names(t) <= _HEDGED_DECLINES


# batch 107: "... that could just as well be cytotoxic edema; without a diffusion map I honestly can't choose between
# them now." (no decline: batch 15's "I really can't choose between the two" withdraws its answer)
_CANT_CHOOSE = re.compile(r"(?i)\b(?:can't|cannot|can\s+not|cant)\s+(?:honestly\s+|really\s+)?(?:choose|pick)\s+"
                          r"between\b")


def undecided_between(text: str) -> bool:
    """Whether the reply weighs two answers (:data:`_WEIGHED`, :data:`_EQUIVOCAL`) and says it cannot choose between
    them ("... the sac may have grown ..., which would make it aggravating. I can't say which with confidence now.",
    batch 95): no decline (:func:`is_refusal`), but whatever answer it gave first is in doubt."""
    if not text:
        return False
    if len(text) > 8000:
        text = text[:5000] + "\n" + text[-3000:]
    t = fold_quotes(text)
    return bool(refusal_names(t) & {"cannot-decide", "do-not-know"} or _CANT_CHOOSE.search(t)) \
        and bool(_WEIGHED.search(t) or _EQUIVOCAL.search(t))


# held-out batch 125: what a kind of study cannot do in general, said beside an answer ("One caveat: a pericardial
# effusion can produce the same silhouette, and the radiograph can't tell them apart.", "A chest radiograph cannot
# confirm tracheal intubation on its own.", "Dermoscopy alone can't reliably separate them"): a limit of the method, not
# the reply declining; not where the clause speaks of this case ("this", "here", "the image", "your"), nor this or that
# study ("This radiograph cannot answer the question.")
_GENERAL_LIMIT = re.compile(
    r"(?i)(?<![\w\-])(?<!this\s)(?<!that\s)(?<!your\s)(?:(?:a|an|the)\s+)?(?:(?:single|plain|chest|frontal|lateral|"
    r"standard|conventional|abdominal|gr[ae]yscale|non-?contrast)\s+)?(?:radiograph|radiography|x-?rays?|ct|mri|"
    r"ultrasound|sonography|dermoscopy|imaging|mammogra(?:m|phy)|echocardiogra(?:m|phy))\s+(?:alone\s+|by\s+itself\s+|"
    r"on\s+its\s+own\s+)?(?:can(?:not|'t|\s+not)|could(?:n't|\s+not))\s+(?![^.;!?\n]{0,120}?\b(?:this|these|that|those|here|"
    r"the\s+(?:image|question|picture|upload)|your)\b)"
    # (up to the reply's own words: "..., so I can't give an answer" declines, a hostile review)
    r"(?:(?!\b(?:I|we|my)\b)[^.;!?\n]){1,120}")


def _without_general_limits(text: str) -> str:
    """``text`` with what a kind of study cannot do in general (:data:`_GENERAL_LIMIT`) blanked."""
    if "can" not in text and "could" not in text:
        return text
    return blank_matches(_GENERAL_LIMIT, text)


def refusal_names(text: str) -> frozenset[str]:
    """The names of the refusal phrases a reply holds (:data:`REFUSAL_PHRASES`): what kind of declining it is."""
    if not text:
        return frozenset()
    if len(text) > 8000:
        text = text[:5000] + "\n" + text[-3000:]
    t = _without_general_limits(fold_quotes(text))
    return frozenset(name for (name, _, _), p in zip(REFUSAL_PHRASES, _PATTERNS) if p.search(t))


# "No, I can't tell from this image": a "no" that opens the refusal itself (what may stand between them: "sorry",
# "unfortunately", the refusal's subject)
# (batch 17: "negative, no image received")
# (batch 19: "no, sorry — I can't view attachments in this conversation.": a dash after "sorry")
# (batch 21: "Afraid not, I cannot see the image.")
_OPENING_NO = re.compile(r"(?i)\A[\W_]*(?:no|nope|negative|(?:i'm\s+|i\s+am\s+)?afraid\s+not)\b"
                         r"[ \t]*[,.!:\-\u2013\u2014]*[ \t]*(?:(?:sorry|"
                         r"unfortunately|i'm\s+afraid|i\s+am\s+afraid)[ \t]*[,\-\u2013\u2014]?[ \t]*)?"
                         r"(?:(?:it\s+is|this\s+is|it's|that's|i|it|this|that|the|your)[ \t]+)?")


def declining_opening(text: str) -> tuple[int, int] | None:
    """The span of a "no" that opens a refusal ("No, I can't tell from this image: ...", "No, sorry, I cannot
    see the image."), which answers "can you tell?", not the question; None otherwise ("No, there is no effusion,
    though I can't be sure." opens with an answer). ``text`` is folded as for :func:`refusal_spans`."""
    m = _OPENING_NO.match(text)
    if m is None:
        return None
    head = text[:m.end() + 60]
    for p in _PATTERNS:
        r = p.search(head, m.end())
        if r is not None and r.start() <= m.end() + 1:
            return 0, m.end()
    return None


# batch 60: what the refusal says it cannot tell, to its clause's end ("..., so I can't tell whether it's upside
# down."): the question restated, not the answer (not a guess after a comma: "..., but it looks correct")
_DECLINED_WHETHER = re.compile(r"(?i)" + _CANT + r"\s+(?:really\s+)?(?:tell|say|determine|judge|decide|be\s+sure)\s+"
                               r"(?:for\s+sure\s+)?whether\b[^.;:,!?\n\u2014]*")


def refusal_spans(text: str) -> list[tuple[int, int]]:
    """Where a reply (already folded, :func:`probe_ui.reading.lexicon.fold_quotes`) declines: the spans of its
    refusal phrases, so that the reader does not take the "no" of "no image attached" for the answer no."""
    head = text[:5000]
    return [m.span() for p in (*_PATTERNS, _DECLINED_WHETHER) for m in p.finditer(head)]


# --------------------------------------------------------------------------------------------------------------
# A disclaimer beside a committed answer (batch 72): no decline
# --------------------------------------------------------------------------------------------------------------

# what a disclaimer is about: the model's role and the person's care, not the question asked of the image ("I am not a
# doctor; please confirm with a healthcare professional.", "I can't tell you what this means for your health", "I
# can't assess you as a patient", "I'm not in a position to interpret the findings for your care — your doctor is.")
_CARE = re.compile(r"(?i)\b(?:doctor|physician|clinician|radiologist|(?:healthcare|medical|qualified)\s+professional|"
                   r"diagnos(?:is|e|es|ing|tic)|(?:your|his|her|their)\s+(?:health|care)|as\s+a\s+patient|"
                   r"means\s+for\s+(?:you|him|her|them)|medical\s+advice|clinical\s+(?:use|decisions?|advice))\b")
_CARE_FAULT = re.compile(r"(?i)\b" + _FAULT)
_SENTENCE_END = re.compile(r"[.!?;\n]")


def only_disclaims(text: str, after: int) -> bool:
    """Whether every refusal phrase of ``text`` (folded) lies at or after ``after`` (the end of the answer the reply
    opens with) and is a disclaimer of the model's role or of the person's care, in a sentence that blames nothing
    in the image: "Yes, this is an abdominal CT. Note: I cannot provide a diagnosis; please consult a medical
    professional." answers and declines nothing (the batch 72 notes: no refusal flag); "I can't give you a
    diagnosis, but ... yes" (a refusal before its answer) and "Yes. The image is too dark to be sure." stay refusals."""
    spans = refusal_spans(text)
    if not spans or any(a < after for a, _ in spans):
        return False
    for a, b in spans:
        start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, a)), default=0)
        end = _SENTENCE_END.search(text, b)
        sentence = text[start:end.end() if end is not None else len(text)]
        if not _CARE.search(sentence) or _CARE_FAULT.search(sentence):
            return False
    return True


# advice to the person closing the reply ("Please note: if this is happening to you ... call emergency services
# immediately.", "I'd encourage seeing a GP or pharmacist today; ...", "Please see an ophthalmologist urgently; laser
# or injection treatment may be needed.")
_ADVICE = re.compile(r"(?i)\b(?:please|seek|consult|emergency|urgent(?:ly)?|doctor|gp|physician|hospital|specialist|"
                     r"clinician|radiologist|ophthalmologist|dermatologist|pharmacist|in\s+person|get\s+(?:seen|"
                     r"checked)|call\s+(?:emergency|an\s+ambulance|your))\b")
# doubt about the answer is no advice ("Or maybe green after all; the two dots are too close to call.")
_DOUBT_IN_ADVICE = re.compile(r"(?i)\b(?:unsure|not\s+sure|maybe|too\s+close|can't\s+tell|cannot\s+tell|"
                              r"either\s+way)\b")
_LAST_SENTENCE = re.compile(r"(?<=[.!?])[ \t\n]+(?=[^.!?\n]+[.!?]?[ \t]*\Z)")
# a paragraph's start: a blank line, or a line opening "Please" or "If"
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\n(?=[ \t*_]*(?:please|if)\b)", re.IGNORECASE)
_BLANK_LINE_AHEAD = re.compile(r"(?=\n[ \t]*\n)")


def _last_paragraph(text: str) -> re.Match[str] | None:
    """The first paragraph break after which no blank line follows. A search for it with the look-ahead written in
    the pattern read the rest of the reply at every break: 8 s for a 100 kB reply of 33,000 short paragraphs; this
    finds the last blank line once and searches from there (the same break)."""
    last = None
    for last in _BLANK_LINE_AHEAD.finditer(text):
        pass
    if last is None:
        return _PARAGRAPH_BREAK.search(text)
    at = last.start()
    # a break that ends after the last blank line starts at it, or at the newline before it with only spaces between
    before = text.rfind("\n", 0, at)
    m = _PARAGRAPH_BREAK.search(text, before if before >= 0 and not text[before + 1:at].strip(" \t") else at)
    while m is not None and m.end() <= at:
        m = _PARAGRAPH_BREAK.search(text, m.start() + 1)
    return m


def closing_advice(text: str) -> int | None:
    """Where a closing paragraph of advice to the person begins (a blank line before it, or a last line opening
    "Please" or "If"), None when the reply has none."""
    m = _last_paragraph(text)
    if m is None:
        # a last sentence of advice or disclaimer ("this is an xray of the knee, front view. see a doctor for more",
        # "Axial FLAIR MRI of the brain.\nNot for clinical use.")
        m = _LAST_SENTENCE.search(text)
        if m is None or not _CARE.search(text[m.end():]) and not _ADVICE.search(text[m.end():]):
            return None
    if not text[:m.start()].strip():
        return None
    rest = text[m.end():]
    return m.start() if (_ADVICE.search(rest) or _CARE.search(rest)) and not _DOUBT_IN_ADVICE.search(rest) else None
