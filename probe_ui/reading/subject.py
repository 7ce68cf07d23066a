"""Yes/no replies without a yes/no word, answered from the question's subject.

"This is a CT scan." to "Is this an MRI?" is no; "Contrast-enhanced." to "Is this CT contrast-enhanced?" is yes;
"It shows the abdomen." to "Does this image show the chest?" is no. A careful reader compares what the reply asserts
with what the question asks, within one category of mutually exclusive values (modality, contrast, plane,
projection, side, body region, age group, sex). What the question presupposes ("this CT scan" in "Is this CT scan
image contrast-enhanced?") is not what it asks: only the values after the subject are compared.

The rule (:func:`answer_from_subject`): every asked value must be affirmed for yes; a value the reply denies
("not an MRI", "non-contrast") or contradicts (another value of the same category: "CT" for "MRI", "abdomen" for
"chest") makes it no. A reply that hedges ("may be", "possibly", "not sure"), or that affirms and contradicts the
same value, is not read. To add a value, add its phrases to :data:`CATEGORIES` (and, for body regions, its
region).
"""

from __future__ import annotations

import functools
import re

from probe_ui.reading import lexicon
from probe_ui.reading.cleaning import NOTHING_CALLED, blank_matches, nothing_suggests
from probe_ui.reading.hedges import HEDGE
from probe_ui.reading.lexicon import ENGLISH_SIGNS, TOKEN, foreign_yes_no, generic_statement
from probe_ui.reading.synonyms import SYNONYMS

__all__ = ["CATEGORIES", "answer_from_predicate", "answer_from_subject", "asked_predicate", "asked_values",
           "between_regions", "doubted_yes"]

# batch 70: a slice or film at the meeting of two body regions ("This slice sits at the thoracoabdominal junction:
# lung bases above, liver dome and spleen tip below."): neither region is the image's subject beyond doubt. Not a
# study that covers both ("Abdominopelvic CT", "CT of the chest and abdomen")
_BETWEEN_REGIONS = re.compile(
    r"(?i)\b(?:thoraco|cervico|cranio|abdomino|lumbo|dorso)-?[a-z]{4,}\s+(?:junction|transition|border|boundary)\b"
    r"|\b(?:junction|transition|border|boundary)\s+(?:of|between)\s+(?:the\s+)?[a-z]+\s+and\s+(?:the\s+)?[a-z]+\b"
    r"|\b(?:straddles|straddling)\s+the\s+(?:[a-z]+\s+)?(?:junction|border|boundary)\b"
    # held-out batch 173: a slice between two planes ("this slice sits tilted halfway between the coronal and axial
    # planes", "somewhere between coronal and axial")
    # (planes only, and as planes: not "between the frontal and lateral horns", a review)
    r"|\b(?:halfway|half[\s\-]way|midway|somewhere|partway|part[\s\-]way)\s+between\s+(?:the\s+)?(?:axial|coronal|"
    r"sagittal|transverse)\s+and\s+(?:the\s+)?(?:axial|coronal|sagittal|transverse)\b"
    r"|\bbetween\s+(?:the\s+)?(?:axial|coronal|sagittal|transverse)\s+and\s+(?:the\s+)?(?:axial|coronal|sagittal|"
    r"transverse)\s+planes?\b")


def between_regions(text: str) -> bool:
    """Whether the reply places the image at the meeting of two body regions (:data:`_BETWEEN_REGIONS`)."""
    return bool(_BETWEEN_REGIONS.search(text))

# a side of the body: the parts lexicon.SIDED_PARTS names, and "chest" and "lateral" ("the right chest wall")
_SIDED = r"(?:" + lexicon.SIDED_PARTS + r"|(?:chest|lateral)\b)"
# what follows "frontal" where it names the projection ("frontal view", "frontal and lateral radiographs", "frontal
# chest film"), not the frontal lobe: the reader does not weigh a frontal projection (_FRONTAL_ASKED)
_FRONTAL_VIEW = (r"[\s\-]+(?:and[\s\-]+lateral[\s\-]+)?(?:(?:chest|cxr|erect|supine|upright)[\s\-]+)?(?:views?|"
                 r"projections?|films?|radiographs?|images?|x[\s\-]?rays?|chest|(?-i:CXR|PA|AP))\b")
# category → value → regex (case-insensitive unless written (?-i:...)); values of one category exclude each other
# except where IMPLIES says one is a kind of another
CATEGORIES: dict[str, dict[str, str]] = {
    # MRI sequences first: "T2-weighted MRI" asks the sequence as well as the modality
    "sequence": {
        "t1": r"t1(?:[\s\-]*weighted|[\s\-]*w)?",
        "t2": r"t2(?:[\s\-]*weighted|[\s\-]*w)?",
        "flair": r"flair",
        "dwi": r"(?-i:DWI)|diffusion[\s\-]+weighted",
    },
    "modality": {
        # batch 30: "Non-contrast multidetector helical acquisition of the head" (helical or spiral acquisition)
        "ct": r"(?-i:CT|CTA|CECT|NCCT|MDCT|HRCT)|\bct\b|cat\s+scan|computed\s+tomograph\w*|computerized\s+tomograph\w*|"
              r"(?:multi[\s\-]?detector\s+)?(?:helical|spiral)\s+(?:acquisition|scan)",
        "mri": r"(?-i:MRI?|MRA|fMRI)|\bmri\b|magnetic\s+resonance(?:\s+imaging)?",
        # batch 11: a radiographic projection names the X-ray ("Dorsopalmar projection of the right hand.")
        # batch 30: "An orthopantomogram (dental panoramic film)."
        "x-ray": r"x[\s\-]?rays?|radiograph\w*|plain\s+films?|(?-i:CXR)|chest\s+films?|roentgenogra\w*|"
                 r"orthopantomogra\w*|(?-i:OPG|OPT)|dental\s+panoramic\s+(?:film|radiograph|x[\s\-]?ray)|"
                 r"dorso[\s\-]?(?:palmar|plantar|volar)|(?:postero[\s\-]?anterior|antero[\s\-]?posterior|(?-i:PA|AP)|"
                 # batch 21: not the mediolateral oblique, a mammographic view ("Mediolateral oblique projection of
                 # the left breast.")
                 r"(?<!lateral\s)(?<!lateral-)(?<!lateral)oblique|frontal|lateral)\s+projection",
        "ultrasound": r"ultrasound|ultrasonogra\w*|sonogra\w*|echocardiogra\w*|doppler|"
                      # batch 24: "US abdo, RUQ view.": the clinician's US / USS before what it scans (not "us")
                      r"(?-i:USS?)(?=[\s\-]+(?:(?:of\s+(?:the\s+)?)?(?:abdo\w*|pelvi\w*|renal|kidneys?|liver|"
                      r"neck|thyroid|scrotum|scrotal|testes|breast|KUB|RUQ|LUQ|gallbladder|obstetric|guided)\b))|"
                      r"(?-i:USS)\b|"
                      # batch 60: the approach names the ultrasound ("a transvaginal scan of the uterus"; not a
                      # "transrectal biopsy", not a "transthoracic" chest drain)
                      r"(?:trans[\s\-]?(?:vaginal|abdominal|rectal|perineal)|endo[\s\-]?(?:vaginal|rectal))\s+"
                      r"(?:scan|study|examination|exam|views?|images?)\b|"
                      # batch 61: the obstetric scans named by their purpose ("Mid-trimester anomaly scan — fetal
                      # profile ...")
                      r"(?:fetal\s+)?anomaly\s+scan|dating\s+scan|nuchal\s+(?:translucency\s+)?scan|"
                      # batch 70: the bedside trauma ultrasound by its name ("Bedside FAST scan, right upper
                      # quadrant view."; in capitals: not "a fast scan"), and point-of-care ultrasound
                      r"(?-i:E?FAST)\s+(?:scan|exam(?:ination)?|views?|study)\b|(?-i:POCUS)\b",
        # batch 18: a PET named by its tracer or its measure ("An FDG maximum intensity projection ...", "SUVmax 12")
        "pet": r"(?-i:PET)|positron\s+emission|(?:18\s*F[\s\-]*)?(?-i:FDG)|fluoro[\s\-]?deoxy[\s\-]?glucose|"
               r"(?-i:SUV)(?:\s*max)?|"
               # batch 61: a reply in lower case ("this is a fdg pet ct fusion image of the whole body"): the tracer
               # in any case, and "pet" where a scan or CT follows it (not "a ct of my pet dog")
               r"\bfdg\b|pet(?=[\s\-/]+(?:ct|mri?|scan|scans|image|images|study|imaging)\b)",
        "mammography": r"mammogra\w*|medio[\s\-]?lateral[\s\-]+oblique|(?-i:MLO)|cranio[\s\-]?caudal|(?-i:CC)\s+view",
        # a scintigraphy (planar or SPECT) is nuclear medicine but not PET; "nuclear medicine" alone may be PET
        "scintigraphy": r"scintigra\w*|(?-i:SPECT)|bone\s+scan|gamma\s+camera|(?-i:MDP)|(?-i:MIBG)|(?-i:DMSA)|"
                        r"(?-i:MAG3)|(?-i:HIDA)|technetium|tc[\s\-]?99m",
        "nuclear": r"nuclear\s+medicine",
        "fluoroscopy": r"fluoroscop\w*|barium\s+(?:swallow|enema|meal|study)",
        "endoscopy": r"endoscop\w*|colonoscop\w*|gastroscop\w*",
        "histology": r"histolog\w*|histopatholog\w*|micrograph\w*|microscop\w*|(?-i:H&E)",
        "fundus": r"fundus\s+(?:photo\w*|image|picture)|fundoscop\w*|retinal\s+photo\w*",
        "oct": r"(?-i:OCT)|optical\s+coherence",
    },
    "contrast": {
        # "without" first: its phrases contain the others' words ("non-contrast", "non-enhanced")
        "without": r"non[\s\-]?contrast|without\s+(?:\w+\s+)?(?:contrast|gadolinium)|unenhanced|non[\s\-]?enhanced|"
                   r"no\s+(?:iv\s+|intravenous\s+)?(?:contrast|gadolinium)(?!\s+(?:is|was)\b)|"
                   r"pre[\s\-]?(?:contrast|gad\w*)|(?-i:NCCT)|plain\s+ct|native\s+ct|before\s+(?:\w+\s+)?contrast",
        "with": r"contrast[\s\-]+enhanced|with\s+(?:iv\s+|intravenous\s+|oral\s+)?contrast|"
                r"post[\s\-]?(?:contrast|gad\w*)|gadolinium|gad(?:olinium)?[\s\-]+enhanced|after\s+(?:\w+\s+)?contrast|"
                r"\benhanced|(?-i:CECT)|arterial\s+phase|(?:portal\s+)?venous\s+phase|"
                r"(?:iv\s+|intravenous\s+)?contrast\s+(?:is\s+|was\s+)?(?:present|given|administered|seen|visible|"
                r"used|noted)|opacified\s+(?:vessels|aorta)|contrast\s+(?:in|within|opacifying)\s+the\s+\w+",
    },
    "plane": {
        "axial": r"axial|transverse|transaxial",
        "coronal": r"coronal",
        # (batch 46: "Midsagittal T1-weighted image of the brain ...": a midline sagittal slice)
        # batch 59: a DICOM series description's "SAG T2 TSE" (in capitals only)
        "sagittal": r"(?:mid[\s\-]?)?sagittal|(?-i:SAG)",
    },
    "projection": {
        # batch 23: "pa chest radiograph": in lower case only before what it projects
        "pa": r"(?-i:PA)|postero[\s\-]?anterior|dorso[\s\-]?(?:palmar|volar)|"
              r"pa(?=\s+(?:chest|erect|view|film|projection|radiograph|x-?ray|cxr)\b)",
        "ap": r"(?-i:AP)|antero[\s\-]?posterior|ap(?=\s+(?:chest|supine|view|film|projection|radiograph|x-?ray|cxr)\b)",
        "lateral": r"lateral\s+(?:[a-z]+\s+)?(?:view|projection|film|radiograph|x-?ray)",
    },
    "lobe": {  # lobes of the lung ("Is there consolidation in the right lower lobe?")
        "upper": r"upper\s+lobes?|(?-i:[RL]UL)",
        "middle": r"middle\s+lobes?|(?-i:RML)",
        "lower": r"lower\s+lobes?|(?-i:[RL]LL)",
        "lingula": r"lingula\w*",
    },
    "side": {  # "right" alone is also "correct": only as a side of something
        "left": r"left(?=[\s\-]+" + _SIDED + r")|(?<=the\s)left\b",
        "right": r"right(?=[\s\-]+" + _SIDED + r")|(?<=the\s)right\b",
    },
    "region": {
        "chest": r"chest|thora\w*|lungs?|pulmonary|cardiac|heart|mediastin\w*|ribs?|(?-i:CXR)",
        "abdomen": r"abdom\w*|liver|hepatic|spleen|splenic|kidneys?|renal|pancrea\w*|bowel|intestin\w*|stomach|"
                   r"gall\s*bladder|colon",
        # batch 19: the bones of the pelvic ring and both hips together ("An AP radiograph of both hips and the
        # sacrum." shows the pelvis; one hip is a limb, and the sacrum alone may be a spine film)
        "pelvis": r"pelvi\w*|bladder|uterus|uterine|prostat\w*|ovar\w*|(?:both|bilateral)\s+hips|hips\s+bilaterally|"
                  r"sacro[\s\-]?iliac|(?-i:SI)\s+joints|il(?:ium|iac\s+(?:bones?|wings?|crests?))|ischi(?:um|al)|"
                  r"pubic\s+(?:rami|symphysis|bones?)|symphysis\s+pubis",
        "head": r"head|brain|cerebr\w*|cranial|intracranial|skull|cerebell\w*|(?:lateral|third|fourth)\s+ventricles?|"
                r"periventricular|basal\s+ganglia|white\s+matter|gr[ae]y\s+matter|sulci|gyri|corpus\s+callosum|"
                # held-out batch 132: not "frontal" naming a projection ("this is a chest x ray, frontal view")
                r"(?:frontal(?!" + _FRONTAL_VIEW + r")|parietal|temporal|occipital)(?:\s+lobes?)?|"
                r"brain\s*stem|pons|midbrain|calvari\w*|cranium",
        "neck": r"neck|thyroid",
        "spine": r"spine|spinal|vertebra\w*|lumbar",
        "breast": r"breasts?|mammary",
        # the parts of the limbs exclude each other except where they meet (COMPATIBLE); each is a limb
        "hand": r"hands?|fingers?|thumbs?|metacarp\w*|phalan\w*",
        "wrist": r"wrists?|carpal|carpus|scaphoid|distal\s+radius",
        "forearm": r"forearms?|radius|ulna\w*",
        "elbow": r"elbows?|olecranon",
        "arm": r"humer\w*|upper\s+arm|arms?",
        "shoulder": r"shoulders?|clavic\w*|scapul\w*|glenoid",
        "hip": r"hips?|femoral\s+heads?|acetabul\w*",
        "thigh": r"femur|femora|femoral(?:\s+shaft)?|thighs?",
        "knee": r"knees?|patell\w*|tibial\s+plateau|femoral\s+condyles?",
        "leg": r"tibia\w*|fibula\w*|legs?|shins?",
        "ankle": r"ankles?|malleol\w*|talus|talar",
        "foot": r"foot|feet|toes?|metatars\w*|calcane\w*|tarsal|dorsoplantar",
        "limb": r"limbs?|extremit\w*",
        "dental": r"teeth|tooth|dental|mandib\w*|maxill\w*|jaw",
        "eye": r"eyes?|retina\w*|ocular|orbit\w*",
        # (not "face down", "face up": a position)
        "face": r"face(?![\s\-]+(?:down|up|first)\b)|facial\s+bones?|nasal\s+bones?|paranasal\s+sinus\w*",
    },
    "age": {
        "pediatric": r"p(?:a)?ediatric|child(?:ren|'s)?|infant\w*|neonat\w*|newborn|toddler|adolescent|juvenile|"
                     r"kids?",
        "adult": r"adults?|elderly",
    },
    "sex": {  # also by the organs only one sex has ("The uterus and ovaries are visible.")
        "male": r"\bmale|\bman\b|\bmen\b|\bboy\b|prostat\w*|testi(?:s|cles?|cular)|testes|scrot\w*|seminal\s+vesicles?",
        "female": r"female|woman|women|\bgirl\b|uter(?:us|ine)|ovar(?:y|ies|ian)|endometri\w*|cervix|fallopian",
    },
    # organs: they exclude each other only where the reply says so ("Only the liver and spleen are included")
    "organ": {
        "kidney": r"kidneys?|renal|nephr\w*", "liver": r"liver|hepatic", "spleen": r"spleen|splenic",
        "pancreas": r"pancrea\w*", "gallbladder": r"gall\s*bladder", "bladder": r"(?<!gall)(?<!gall\s)bladder",
        "heart": r"heart|cardiac", "lung": r"lungs?|pulmonary", "aorta": r"aort\w*", "stomach": r"stomach|gastric",
        "uterus": r"uter(?:us|ine)", "prostate": r"prostat\w*", "thyroid": r"thyroid",
    },
}
# a value that is a kind of another affirms it (a mammogram is an X-ray)
_LIMB_PARTS = ("hand", "wrist", "forearm", "elbow", "arm", "shoulder", "hip", "thigh", "knee", "leg", "ankle", "foot")
KIND_OF: dict[tuple[str, str], frozenset[str]] = {
    ("modality", "mammography"): frozenset({"x-ray"}),
    ("modality", "fluoroscopy"): frozenset({"x-ray"}),
    ("modality", "scintigraphy"): frozenset({"nuclear"}),
    **{("region", part): frozenset({"limb"}) for part in _LIMB_PARTS},
}
# values that do not contradict each other (nuclear medicine includes PET; a hand film shows the wrist)
COMPATIBLE: dict[tuple[str, str], frozenset[str]] = {
    ("modality", "nuclear"): frozenset({"pet", "scintigraphy"}),
    ("region", "hand"): frozenset({"wrist"}), ("region", "wrist"): frozenset({"hand", "forearm"}),
    ("region", "forearm"): frozenset({"wrist", "elbow"}), ("region", "elbow"): frozenset({"forearm", "arm"}),
    ("region", "arm"): frozenset({"elbow", "shoulder"}), ("region", "shoulder"): frozenset({"arm", "chest"}),
    ("region", "hip"): frozenset({"thigh", "pelvis"}), ("region", "thigh"): frozenset({"hip", "knee"}),
    ("region", "knee"): frozenset({"thigh", "leg"}), ("region", "leg"): frozenset({"knee", "ankle"}),
    ("region", "ankle"): frozenset({"leg", "foot"}), ("region", "foot"): frozenset({"ankle"}),
}
# the head and its parts (the face, the eyes and orbits, the teeth and jaws): one named does not deny another asked
# ("Frontal view through the orbits." to "Is this an X-ray of the skull?", "maxillary sinus" to "... of the paranasal
# sinuses?", hostile reviews), nor affirm it, and beside another region ("the face and neck") leaves it unanswered
HEAD_PARTS = frozenset({"head", "face", "eye", "dental"})
# a value that also affirms a value of another category (a T2 sequence is an MRI)
ALSO: dict[tuple[str, str], tuple[str, str]] = {
    ("sequence", "t1"): ("modality", "mri"), ("sequence", "t2"): ("modality", "mri"),
    ("sequence", "flair"): ("modality", "mri"), ("sequence", "dwi"): ("modality", "mri"),
}

# the words of a question that name what is being asked about, not what is asked ("this CT scan image")
_SUBJECT_WORDS = re.compile(
    r"(?i)(?:image|images|scan|scans|picture|study|film|photo|photograph|radiograph|slice|view|exam|examination|"
    r"series|sequence|x[\s\-]?ray|ct|mri|mr|ultrasound|sonogram|mammogram|chest|abdominal|brain|head|pelvic|"
    r"medical|given|provided|following|shown|above)"
)
_QUESTION_HEAD = re.compile(
    r"(?i)^\W*(?:(?:is|was|are|were)\s+(?:this|these|the|that|it)\b"
    r"|(?:does|did|do)\s+(?:this|the|these|that)\b"
    r"|(?:is|are)\s+there\b|can\s+you\s+see\b|(?:is|are)\s+(?:a|an|any)\b)"
)
_PREDICATE_VERB = re.compile(
    r"(?i)\b(?:show|shows|showing|depict|depicts|demonstrate|demonstrates|contain|contains|include|includes|"
    r"display|displays|capture|captures|represent|represents|reveal|reveals|belong|belongs|"
    r"(?:taken|acquired|obtained|performed|done|made)\s+(?:with|using|by|on|in|from|after|before|without)|"
    r"(?:of|from)\b)"
)
_INSTRUCTION = re.compile(r"(?i)\(?\s*(?:please\s+)?answer\s+(?:with\s+)?(?:only\s+)?(?:yes|'yes')\b.*$|"
                          r"\(?\s*please\s+answer\b.*$|\(\s*yes\s*/\s*no\s*\)")
# beyond the hedges every reading hears (:data:`hedges.HEDGE`), what leaves a subject half-stated: a bare "may",
# "could" or "either" ("It may be a CT."), a question back, "can't tell"
_HALF_STATED = re.compile(r"(?i)\b(?:may|could|either|can(?:not|'t)\s+(?:tell|say|determine)|hard\s+to|"
                          r"difficult\s+to)\b|\?"
                          # batch 29: "Sort of — there's fluid at both bases, ...": an answer that opens half-way
                          r"|^\W*(?:sort|kind)\s+of\b(?![ \t]+(?:scan|image|study|view|film))"
                          # batch 55: "Six of one, half a dozen of the other — it's right on the border of normal
                          # size.": the idiom of two answers alike, and a size at the edge of normal, take neither
                          r"|\bsix\s+of\s+one\b[,;\s\u2014\-]+half\s+a\s+dozen\s+of\s+the\s+other\b"
                          r"|\bon\s+the\s+border(?:line)?\s+(?:of|with|between)\s+normal\b"
                          # batch 91: "Impression: Borderline cardiomegaly; correlate with echocardiography." (the
                          # corpus labels every "borderline" size or calibre open: batches 5-89)
                          r"|\bborderline\b")


def _hedged(reply: str) -> bool:
    """Whether ``reply`` hedges or leaves its subject half-stated: then what it names answers nothing."""
    return bool(HEDGE.search(reply) or _HALF_STATED.search(reply))


# what an image shows or is an image of, between a "not" and what is asked
_SHOWS = r"show|include|depict|demonstrate|cover|contain|capture|display|image"
_A_STUDY = r"scan|image|film|radiograph|study|picture|view|x-?ray|photo(?:graph)?|slice|examination|exam"
# the kind of a subject, between a "not" and the subject ("not a conventional T2-weighted one")
_KIND = r"conventional|standard|true|typical|plain|regular"
_NEGATION = re.compile(r"(?i)(?:\b(?:not|no|never|neither|nor|without|isn't|aren't|wasn't|cannot|rather\s+than|"
                       r"instead\s+of|other\s+than|unlike)\s+(?:(?:a|an|the|this|that|of|in|on|from|at|to|for|any|be|been|"
                       r"really|quite|exactly|just|truly|actually"
                       # batch 119: "It's a FLAIR image, not a conventional T2-weighted one." (a kind of the subject)
                       r"|" + _KIND + r"|classic|ordinary|routine|simple|dedicated|proper|formal|genuine|pure"
                       # batch 88: "Conclusion: Not acquired after gadolinium." (how the image was made, then the
                       # subject: read yes)
                       r"|acquired|performed|done|given|obtained|taken|scanned|imaged|after|with|following|using"
                       # batch 112's review: "This image does not show the pelvis.", "This is not a scan of the
                       # brain." (what the image does not show, or is not an image of)
                       r"|" + _SHOWS + r"|" + _A_STUDY + r"|does|do|did"
                       r")\s+){0,4}$|n't\s+(?:(?:a|an|the|in|on|of|from|be|" + _KIND
                       + r"|acquired|performed|done|given|obtained|taken|"
                       r"after|with|following|using|" + _SHOWS + r"|" + _A_STUDY + r")\s+){0,4}$"
                       # batch 29: Setswana "ga se" (is not): "ga se setshwantsho sa MRI" (it is not an image of MRI)
                       r"|\bga\s+se\s+(?:\w+\s+){0,3}$"
                       # batch 91: the "kein" of Palatine and Bavarian, just before the subject ("des is fei ka MRT",
                       # that is no MRI; "des is koa CT")
                       # (after the copula only: the Hawaiian "ka" is an article)
                       r"|\b(?:is|isch|iss)\s+(?:(?:fei|halt|aber|echt)\s+)?(?:ka|koa|koan|kaa)\s+$)")


# what a reply looks for, before what it names ("Assessment for gadolinium enhancement:", "Looking for contrast in the
# sinuses"): the topic of what follows, neither seen nor denied
_LOOKED_FOR = re.compile(r"(?i)\b(?:assess(?:ment|ing)?|evaluat(?:ion|ing)|look(?:ing)?|check(?:ing)?|search(?:ing)?|"
                         r"screen(?:ing)?)\s+for\s+(?:(?:any|signs?\s+of|evidence\s+of)\s+)?$")


# batch 21: a bare "no" before a region or organ that only qualifies the noun after it ("no lung markings", "no renal
# calculi"): what is denied is that noun, not the region
_MODIFIER_DENIED = re.compile(r"(?i)\bno\s+$")
# batch 88: "Cholelithiasis without sonographic signs of cholecystitis." to "Is this an ultrasound image?": a modality
# word that only says how the denied signs would show
_SIGNS_DENIED = re.compile(r"(?i)\b(?:no|without)\s+$")
_SIGNS = re.compile(r"(?i)[ \t]+(?:signs?|evidence|features?|findings?|appearances?|abnormalit(?:y|ies)|criteria)\b")
_HEAD_NOUN = re.compile(r"(?i)[ \t]+(?!(?:is|are|was|were|seen|visible|present|shown|identified|noted|evident|or|and|"
                        r"in|on|at|of)\b)[^\W\d_]{3,}")


# batch 41: phalanges are the bones of the fingers and of the toes: they name the hand only in a reply that names no
# part of the foot ("This is a PA radiograph of the foot, showing the metatarsals and phalanges." to "Is this an X-ray
# of the hand?" is no)
_SHARED_DIGITS = re.compile(r"(?i)phalan")
_FOOT = frozenset({"foot", "ankle"})


# a value placed outside what the image shows (batch 12: "... the kidneys are below it." to "Does this image show the
# kidney?"): denied as "not" denies it
_OUTSIDE = re.compile(r"(?i)\s+(?:is|are|lies?|sits?)\s+(?:(?:just|well|further|all)\s+)?(?:below|above|beyond|"
                      r"outside|out\s+of|off|not\s+(?:in|on|included|shown|seen|visible|imaged))\b"
                      # held-out batch 128: "... and the brain is not in it.", "The brain isn't shown."
                      r"|\s+(?:isn't|aren't)\s+(?:in|on|included|shown|seen|visible|imaged)\b")
# batch 59: the radiology report's negation after the finding it denies ("Splenomegaly not appreciated.", "Kidneys not
# seen.", "Pneumothorax is not identified.")
_DENIED_AFTER = re.compile(r"(?i)(?:[ \t]*:)?[ \t]+(?:(?:is|are|was|were)[ \t]+)?(?:not|never)[ \t]+"
                           r"(?:(?:clearly|definitely|"
                           r"convincingly|well)[ \t]+)?(?:appreciated|seen|identified|demonstrated|visuali[sz]ed|"
                           r"depicted|imaged|included)\b"
                           # batch 81: "Splenomegaly absent." (a report's "absent" after the finding, as "not seen")
                           r"|[ \t]*[:,\u2013\u2014\-]?[ \t]*(?:(?:is|are|was|were)[ \t]+)?absent\b")
# what, said after such a denial, leaves it unjudged ("Cardiomegaly: not seen - the heart borders are obscured.")
# (in the clause a dash or a bracket opens after it, or one after a comma or semicolon that names the subject, not
# "Cardiomegaly not seen; the left costophrenic angle is obscured by a small effusion." nor what another sentence
# says: a hostile review)
_UNJUDGED_AFTER = re.compile(r"(?i)\A[ \t]*(?P<open>[\-\u2013\u2014(;,])[^\n.;!?]*?\b(?:obscured|effaced|"
                             r"not[ \t]+(?:visible|assessable|evaluable|included)|cannot[ \t]+be[ \t]+(?:assessed|"
                             r"evaluated|judged|delineated)|out[ \t]+of[ \t]+(?:the[ \t]+)?(?:field|view)|outside[ \t]+"
                             r"(?:the[ \t]+)?(?:imaged[ \t]+|scanned[ \t]+)?(?:field|view|volume))\b")
# a field named by the finding's one word, whose value denies it ("Splenomegaly: none (spleen 11 cm).", "Cardiomegaly:
# negative"; a hostile review)
_TERM_FIELD_DENIED = re.compile(r"(?i)[ \t*_]*:[ \t*_]*(?:none|nil|negative|not[ \t]+present)\b")
# where such a field's value ends: not "Cardiomegaly: not seen on the lateral view ...", a denial of what another
# view showed (a hostile review)
_FIELD_VALUE_ENDS = re.compile(r"[ \t*_]*(?:[.;!?\n|,(\-\u2013\u2014]|\Z)")
# a reply that speaks of another time or study anywhere ("Cardiomegaly: none (admission film), moderate (today).",
# "Splenomegaly: negative (ultrasound, 2 weeks ago); today spleen 16 cm"): a field's denial in it may be of that one
# (the review of the fix of 398c33d)
_ANOTHER_TIME = re.compile(r"(?i)\b(?:prior|previous(?:ly)?|earlier|before|old|outside|comparison|last|then|now|today|"
                           r"current(?:ly)?|baseline|initial(?:ly)?|admission|day[ \t]+\d+|ago|follow[\s\-]?up|"
                           r"interval|new|since|(?:19|20)\d\d)\b|->|-->|\u2192")
# a field named by the finding, whose value denies it: "Displacement: not seen - the fracture itself is not visible.",
# "Cardiomegaly: none" (the colon may be gone: the reader's cleaning takes it away). The name alone is no yes; nor is
# the value read as no (a denial may be of something else: "Displacement: none at the proximal fragment"; a review of
# 042a1db withdrew reading "none" as no)
_FIELD_DENIED_AFTER = re.compile(r"(?i)[ \t*_]*(?:[:=][ \t*_]*)?(?:not[ \t]+(?:seen|present|identified|visible|evident|"
                                 r"detected|demonstrated|appreciated)|none|nil|absent|negative)\b")
# batch 59: the image placed beyond an organ, in a clause of its own ("CT of the pelvis, well below the kidneys: ...",
# "Axial slice above the diaphragm"): what it lies beyond is not shown (not "a mass just above the kidney", a
# finding placed by the organ)
_PLACED_BEYOND = re.compile(r"(?i)(?:\A|(?:slice|section|level|cut|image|scan|study|view|field)[ \t]+(?:is[ \t]+|"
                            r"lies[ \t]+|sits[ \t]+|taken[ \t]+)?)[ \t]*(?:(?:just|well|far|entirely|completely|"
                            r"all)[ \t]+)?(?:below|above|beyond|outside(?:[ \t]+of)?|out[ \t]+of)[ \t]+(?:the[ \t]+)?"
                            r"(?:level[ \t]+of[ \t]+(?:the[ \t]+)?)?$")


@functools.lru_cache(maxsize=1)
def _patterns() -> list[tuple[str, str, re.Pattern[str]]]:
    # a modality may follow a hyphen ("PET-CT"); other values not ("non-contrast" is not "contrast")
    return [(cat, value, re.compile((r"(?<!\w)" if cat == "modality" else r"(?<![\w\-])") + r"(?:" + pat
                                    + r")(?![\w])", re.IGNORECASE))
            for cat, values in CATEGORIES.items() for value, pat in values.items()]


def _mentions(text: str) -> list[tuple[str, str, int, int]]:
    """(category, value, start, end) of every value named in ``text``; within a category a span is counted once
    (the first value that names it: "non-contrast" is not also "contrast"); categories may overlap ("lateral chest
    radiograph" is a projection and an X-ray)."""
    taken: dict[str, bytearray] = {}
    out: list[tuple[str, str, int, int]] = []
    for cat, value, pat in _patterns():
        mask = taken.setdefault(cat, bytearray(len(text)))
        for m in pat.finditer(text):
            if any(mask[m.start():m.end()]):
                continue
            mask[m.start():m.end()] = b"\x01" * (m.end() - m.start())
            out.append((cat, value, m.start(), m.end()))
    return sorted(out, key=lambda x: x[2])


def asked_values(question: str) -> set[tuple[str, str]]:
    """The (category, value) pairs a yes/no question asks about: those after its subject ("Is this CT scan image
    contrast-enhanced?" asks contrast "with"; "Is this an MRI?" asks modality "mri"); empty when the question is not
    of the forms "Is this/the ... X?", "Does this ... show X?", "Was this taken with X?", "Is there X ...?"."""
    q = _INSTRUCTION.sub("", question.strip())
    q = q.split("?")[0] if "?" in q else q
    head = _QUESTION_HEAD.match(q)
    adjective = _adjective_question(q)
    if head is None or (adjective is not None and not _mentions(adjective.group("predicate"))):
        return set()  # "Is the spleen enlarged?" asks about "enlarged" (answer_from_predicate), not the spleen
    rest = q[head.end():]
    if re.search(r"(?i)\b(?:the|these|that)\s*$", head.group(0)):
        # "Is the lesion in the left lobe?": the lesion is what is asked about; what follows is asked
        nouns = re.match(r"\s*(?:(?!(?:in|on|at|of|with|within|from|to|a|an|the|located|seen|visible|present)\b)"
                         r"[\w\-]+\s+){1,3}", rest, re.IGNORECASE)
        if nouns and rest[nouns.end():].strip():
            rest = rest[nouns.end():]
    verb = _PREDICATE_VERB.search(rest)
    if re.match(r"(?i)\s*(?:a|an)\b", rest):
        predicate = rest  # "Is this an X-ray of the hand?": all of it is asked
    elif verb is not None:
        predicate = rest[verb.end():]
    else:
        # "Is this CT scan image contrast-enhanced?": skip the subject's words; "Is this MRI?" asks the last one
        tokens = list(re.finditer(r"[\w\-&]+", rest))
        i = 0
        while i < len(tokens) and _SUBJECT_WORDS.fullmatch(tokens[i].group(0)):
            i += 1
        if i < len(tokens) and tokens[i].group(0).lower() in ("a", "an", "the", "of", "in", "on", "from"):
            predicate = rest[tokens[i].start():]
        elif i < len(tokens):
            predicate = rest[tokens[i].start():]
        else:
            predicate = rest[tokens[-1].start():] if tokens else ""
    framed = _IN_THIS_STUDY.search(predicate)
    if framed is not None and predicate[:framed.start()].strip():
        # "Is there a fracture in this radiograph?" asks about the fracture: the study it is asked of is no value asked
        # ("This radiograph doesn't demonstrate any fracture." had read yes from "radiograph", sure)
        predicate = predicate[:framed.start()]
    asked = {(c, v) for c, v, _, _ in _mentions(predicate)}
    # a side named before the predicate is asked too ("Is the mass on the right side of the brain?")
    asked |= {(c, v) for c, v, _, _ in _mentions(rest) if c == "side"}
    if verb is not None and re.match(r"(?i)(?:\w+\s+)?(?:before|without)\b", verb.group(0)):
        # "acquired before contrast" asks for no contrast
        flip = {"with": "without", "without": "with"}
        asked = {(c, flip[v]) if c == "contrast" else (c, v) for c, v in asked}
    return asked


# what is denied is that the value is all there is: "not ... the brain alone", "not the pelvis in isolation"
_NOT_ALONE = re.compile(r"(?i)[ \t]+(?:alone|only|in\s+isolation|by\s+itself|exclusively|as\s+such)\b")
# the study a question is asked of, closing it ("... in this radiograph", "... on the given chest x-ray")
_IN_THIS_STUDY = re.compile(r"(?i)\s+(?:in|on|within|from)\s+(?:this|the|these|that)\s+(?:given\s+)?"
                            r"(?:[\w\-]+\s+){0,2}?(?:images?|radiographs?|x-?rays?|scans?|films?|ct|mri|study|picture|photo(?:graph)?|"
                            r"views?|slices?)\s*$")
# "Only the liver and spleen are included": the organs named are all there is
_ONLY = re.compile(r"(?i)\b(?:only|just|solely|exclusively)\b")


def _conflicts(cat: str, a: str, b: str) -> bool:
    """Whether value ``b`` contradicts value ``a`` of the same category."""
    if a == b or (cat == "region" and a in HEAD_PARTS and b in HEAD_PARTS):
        return False
    related = {**KIND_OF, **COMPATIBLE}
    return b not in related.get((cat, a), frozenset()) and a not in related.get((cat, b), frozenset())


# batch 27: a value after an indefinite article that opens its clause, then a verb that defines ("You can confirm the
# slice orientation from the DICOM tag ...: a sagittal slice has its row direction along the anterior-posterior
# axis."), says what any image of that kind is, not what this one is (not "This is a sagittal slice.", "A sagittal
# slice.", nor "A sagittal slice showing the cervical spine.")
_A_KIND = re.compile(r"(?i)[ \t\"'*_>\-]*an?[ \t]+")
_KIND_DEFINED = re.compile(r"(?i)(?:[ \t\-]+(?:image|slice|view|scan|section|plane|film|radiograph|projection|"
                           r"study)s?)?"
                           r"[ \t]+(?:has|have(?![ \t]+been)|would|will|should|must|can|means|contains|always|"
                           r"typically|by[ \t]+definition)\b")
_SET_APART = re.compile(r"(?i)[ \t]*(?:from|vs\.?|versus|\|)[ \t]*")


_AT_THE_EDGE = re.compile(r"(?i)\b(?:only|just)[ \t]+(?:the[ \t]+)?[^.;:!?\n]{1,80}?[ \t]+(?:is|are)[ \t]+"
                          r"(?:partly[ \t]+|partially[ \t]+|just[ \t]+)?(?:caught|clipped|included)[ \t]+at[ \t]+"
                          r"the[ \t]+(?:(?:top|bottom|upper|lower|very)[ \t]+)?(?:edge|margin|border|corner)s?\b")

# batch 83: the side a mass pushes something to ("The mass sits in the left temporal lobe and pushes the midline a few
# millimetres to the right."): where the shift goes, not where the mass is (masked, as what is caught at the edge)
_SHIFTED_TO = re.compile(r"(?i)\b(?:push|shift|displac|deviat)\w*\b[^.;:!?\n]{0,60}?\b(?:to|toward|towards)[ \t]+"
                         r"the[ \t]+(left|right)\b")
# batch 83: a side named by a clause that calls it clear ("Consolidation in the left lower lobe; the right lung is
# clear." to "Is there consolidation in the right lower lobe?"): to a question whether a finding is there, that side
# is denied
_CALLED_CLEAR = re.compile(r"(?i)[ \t]+(?:[\w\-]+[ \t]+){0,2}?(?:is|are|looks?|appears?|remains?)[ \t]+"
                           r"(?:entirely[ \t]+|completely[ \t]+)?(?:clear|unremarkable)\b"
                           r"(?![ \t\-]+(?:cut|evidence|of)\b)")
_FINDING_ASKED = re.compile(r"(?i)\b(?:is|are)\s+there\b")

# batch 63: a hybrid study written with a slash ("Fused FDG PET/CT, coronal.", "SPECT/CT") is one study, not two
# alternatives
_HYBRID = frozenset({frozenset(("pet", "ct")), frozenset(("pet", "mri")), frozenset(("scintigraphy", "ct"))})


# English words that say what a reply's clauses do with the values they name ("This is a CT, ...", "It's an MRI")
_ENGLISH_FRAME = frozenset("""is it it's its this that these those the are was were be been not no isn't but and or with
of on in for shows showing image scan study slice film view looks seen see here there than rather instead""".split())
# batch 83: the nouns a reply in another language borrows with the value it names ("Nai, etu ultrasound nohoi, CT scan
# ase.", Nagamese: no, this is not an ultrasound, it is a CT scan): no sign that the sentence around them is English
_BORROWED = frozenset("scan scans image images study slice film view".split())


def _no_english(reply: str, mentions: list[tuple[str, str, int, int]]) -> bool:
    """Whether, outside the values it names, the reply has no word of English that says what it does with them."""
    rest = list(reply)
    for _, _, start, end in mentions:
        rest[start:end] = " " * (end - start)
    words = {w.casefold() for w in TOKEN.findall("".join(rest))} - _BORROWED
    return bool(words) and not words & (_ENGLISH_FRAME | ENGLISH_SIGNS)


# a question that names a frontal projection ("Is this a frontal chest radiograph?", "Is this view frontal?"): the
# reader has no projection "frontal" to weigh (PA and AP are frontal, "the AP diameter" is not), and read as the
# frontal lobe it answered "Frontal chest X-ray." no (hostile reviews of held-out batch 132's fix); not the frontal
# lobe or sinus
_FRONTAL_ASKED = re.compile(r"(?i)\bfrontal\b(?![\s\-]+(?:lobes?|sinus\w*|bones?|horns?|cortex|regions?|poles?)\b)")


def answer_from_subject(reply: str, question: str) -> str | None:
    """"yes", "no" or None: the reply compared with what the question asks (module doc). ``reply`` is the cleaned
    reply of a yes/no item in which no yes/no word was read. A reply of more than eight words must speak about the
    image ("This is ...", "It shows ...")."""
    asked = asked_values(question)
    if not asked or _hedged(reply) or _FRONTAL_ASKED.search(question):
        return None
    if generic_statement(reply):  # "Magnetic resonance imaging uses strong magnets."
        return None
    affirmed: set[tuple[str, str]] = set()
    negated: set[tuple[str, str]] = set()
    contradicted: set[tuple[str, str]] = set()
    parted: set[tuple[str, str]] = set()  # asked parts of the head the reply names another part of (HEAD_PARTS)
    # batch 50: "It's a sagittal MRI of the cervical spine — only the lower brainstem and cerebellar tonsils are
    # caught at the top edge.": what is only caught at the field's edge is not what the scan is of
    reply = blank_matches(_AT_THE_EDGE, reply)
    if "to" in reply and not re.search(r"(?i)\b(?:push|shift|displac|deviat)", question):
        # (not where the question asks about the shift itself: "Is there midline shift to the right?")
        reply = _SHIFTED_TO.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + " " * len(m.group(1)), reply)
    finding_asked = bool(_FINDING_ASKED.search(question))
    mentions = _mentions(reply)
    for (c1, v1, _, e1), (c2, v2, s2, _) in zip(mentions, mentions[1:]):
        if c1 == c2 and v1 != v2 and any(c == c1 for c, _ in asked) and (
                re.search(r"(?i)\bor\b|/", reply[e1:s2]) or _SET_APART.fullmatch(reply, e1, s2)) and not (
                reply[e1:s2].strip() == "/" and frozenset((v1, v2)) in _HYBRID):
            # "male or female", "CT or MRI": alternatives, not an answer; batch 24: "How to tell T1 from T2", "T1 vs
            # T2", a table's "| T1 | T2 |": two set side by side
            return None
    mentions += [(*ALSO[(c, v)], s, e) for c, v, s, e in mentions if (c, v) in ALSO]
    organs = {(s, e) for c, _, s, e in mentions if c == "organ"}  # (a region at an organ's place is implied by it)
    where: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for cat, value, start, end in mentions:
        before = reply[max(0, start - 60):start]
        before = before[max(before.rfind(c) for c in ".;:!\n,") + 1:]
        # an organ placed outside the slice denies the organ, not the region the slice does show
        # (held-out batch 128: a region named too, "the brain is not in it" to "Is this a scan of the brain?"; not one
        # implied by an organ placed outside, "the kidneys are below it" says nothing against the abdomen)
        neg = bool(_NEGATION.search(before)) or ((cat == "organ" or (cat == "region" and (start, end) not in organs))
                                                 and bool(_OUTSIDE.match(reply, end)
                                                                         or _DENIED_AFTER.match(reply, end)
                                                                         or _PLACED_BEYOND.search(before))) \
            or (cat == "side" and finding_asked and bool(_CALLED_CLEAR.match(reply, end)))
        if neg and _NOT_ALONE.match(reply, end):
            # a review of 6ce9d37: "This isn't a scan of the brain alone: the orbits ... are included": not only the
            # brain, so the brain too
            neg = False
        if _A_KIND.fullmatch(before) and _KIND_DEFINED.match(reply, end):
            continue  # batch 27: "...: a sagittal slice has its row direction along ...": what any such image is
        if _LOOKED_FOR.search(before):
            continue  # held-out batch 133: "Assessment for gadolinium enhancement:": what is looked for, not seen
        if neg and cat in ("region", "organ") and _MODIFIER_DENIED.search(before) and _HEAD_NOUN.match(reply, end):
            continue  # batch 21: "with no lung markings beyond it" denies the markings, not that this is the chest
        if neg and cat == "modality" and _SIGNS_DENIED.search(before) and _SIGNS.match(reply, end):
            continue  # batch 88: "without sonographic signs of cholecystitis" denies the signs, not the modality
        if value == "hand" and _SHARED_DIGITS.match(reply, start) and any(v in _FOOT for _, v, _, _ in mentions):
            continue  # batch 41: "a PA radiograph of the foot, showing the metatarsals and phalanges": the toes' bones
        for acat, avalue in asked:
            if acat != cat:
                continue
            if not neg and cat == "region" and value != avalue and {value, avalue} <= HEAD_PARTS:
                parted.add((acat, avalue))
            if value == avalue or avalue in KIND_OF.get((cat, value), frozenset()):
                (negated if neg else affirmed).add((acat, avalue))
                if not neg:
                    where.setdefault((acat, avalue), []).append(("affirmed", start))
            elif not neg and _conflicts(cat, avalue, value) and (cat != "organ" or _ONLY.search(reply)):
                contradicted.add((acat, avalue))
                where.setdefault((acat, avalue), []).append(("contradicted", start))
    if affirmed & negated:
        return None  # "an MRI, not an MRI": says both
    if (parted & contradicted) - affirmed:
        return None  # a hostile review: "Frontal radiograph of the face and neck." to "Is this a scan of the head?"
    if any(c == "region" and v in _LIMB_PARTS for c, v in affirmed & contradicted):
        return None  # batch 41: "Hand and foot radiograph." to "... of the hand?": another limb part named too
    if any(c in ("side", "sex", "age") for c, _ in affirmed & contradicted):
        # batch 19: "the right one is blunted ..., the left is sharp" to "Is the effusion on the left side?": a reply
        # that speaks of both sides describes each, it does not place what is asked on the one it names first;
        # batch 21: "Some features point to a female pelvis ... and others to a male one ..." to "Is this patient
        # female?": a patient is of one sex and one age group, and a reply that names both weighs them
        return None
    for spots in where.values():
        # batch 29: "Nnyaa, ga se setshwantsho sa MRI; ke CT." to "Is this an MRI?": the value asked named in one
        # clause and another value of its kind in the next, neither denied in words the reader knows, says two
        # things (not "a PET-CT fusion image", "the abdomen and pelvis": one clause names both)
        firsts = [p for k, p in spots if k == "affirmed"]
        others = [p for k, p in spots if k == "contradicted"]
        if any(re.search(r"[.;!?\n]", reply[min(a, b):max(a, b)]) for a in firsts for b in others):
            return None
        # batch 76: "A ná wan CT, a na wan MRI." (Ndyuka: it isn't a CT, it's an MRI): the same in clauses set apart
        # by a comma, in a reply with no word of English the reader reads around them and no answer word the glosses
        # read opening it ("Nei, das isch keis CT, sondern es MRI." opens with its no): which one is denied is unread
        if any("," in reply[min(a, b):max(a, b)] for a in firsts for b in others) and _no_english(reply, mentions) \
                and foreign_yes_no(reply) is None:
            return None
    said = {v: "yes" if v in affirmed else "no" if v in negated | contradicted else None for v in asked}
    if "no" in said.values():
        return "no"
    return "yes" if all(x == "yes" for x in said.values()) else None


# a word that denies the value asked just before it ("Wouldn't call it a CT.", "Far from a CT", "Hardly a CT"): only
# a few words between, none that turns it ("Not only a CT but ...", "Hard not to call this a CT.", "I wouldn't call this
# anything but a CT.", "I have no hesitation calling this a CT.", a review of the first draft)
_DENIED_JUST_BEFORE = re.compile(r"(?i)(?:\bnot|n't|\bnever|\bhardly|\bfar[ \t]+from)[ \t]+(?:(?:a|an|the|it|this|that|"
                                 r"call|calling|say|be|really|exactly|truly|quite)[ \t]+){0,4}$")
# a denial closing the sentence the value asked stands in ("CT it is not.", "CT, I don't think so.", "CT is the one
# thing it isn't.", "A CT it ain't.")
_DENIAL_CLOSES = re.compile(r"(?i)(?:\b(?:it|this|that)(?:'s|\s+is)\s+not|\bis\s+not|\bisn't|\bain't|"
                            r"\bdon't\s+think\s+so|\bnot\s+really|\bnope)[ \t*_]*[.!]?[ \t*_]*(?:\n|\Z)")
# another value the reply says the image is ("I'd have said CT, but it's MRI.", "CT-like appearance, but it's MRI."), or
# likens it to more ("More like an MRI than a CT."); not another value only named ("This is a CT, and an MRI would be
# better for soft tissue.", "faster than an MRI", "unlike the prior MRI", a review of the first draft)
_SAID_TO_BE = re.compile(r"(?i)(?:\b(?:it|this|that)(?:'s|\s+is)|\bmore\s+like)\s+(?:(?:a|an|really|actually|in\s+fact)"
                         r"\s+)*$")
# (not what the reply says the image is not: "This is a CT scan, and I don't believe it's an MRI.", a review)
_NOT_SAID = re.compile(r"(?i)(?:n't|\bnot|\bno\s+way)\b(?:[ \t]+[\w']+){0,4}[ \t]*$")
_SENTENCE_BREAK = re.compile(r"[.;!?\n]")
# categories whose values exclude each other outright (not organs or regions, which a study shows several of)
_EXCLUSIVE = frozenset({"modality", "plane", "sequence"})


def doubted_yes(reply: str, question: str) -> str | None:
    """Why a yes read from the subject a reply names (:func:`answer_from_subject`) may be wrong, or None: the sentence
    that names the value asked says the image is another value of its kind ("alternative": "I'd have said CT, but it's
    MRI.", "More like an MRI than a CT." to "Is this a CT?"; not a fused "PET/CT"), or a denial stands just before the
    value's first mention or closes its sentence ("negation": "Wouldn't call it a CT.", "CT it is not.", "CT, I don't
    think so."). A reader check of 2026-12-06 found nine such replies read yes, sure."""
    asked = asked_values(question)
    mentions = _mentions(reply)
    mine = [(s, e) for c, v, s, e in mentions if (c, v) in asked][:1]
    if not mine:
        return None
    first, end = mine[0]
    for cat, value, start, _ in mentions:
        if cat not in _EXCLUSIVE or abs(start - first) > 300 \
                or _SENTENCE_BREAK.search(reply, min(first, start), max(first, start)):
            continue
        if any(acat == cat and _conflicts(cat, avalue, value) and frozenset((avalue, value)) not in _HYBRID
               and avalue not in KIND_OF.get((cat, value), ()) for acat, avalue in asked) \
                and (said := _SAID_TO_BE.search(reply, max(0, start - 60), start)) is not None \
                and not _NOT_SAID.search(reply, max(0, said.start() - 40), said.start()):
            return "alternative"
    if _DENIED_JUST_BEFORE.search(reply, max(0, first - 80), first):
        return "negation"
    stop = _SENTENCE_BREAK.search(reply, end)
    if _DENIAL_CLOSES.search(reply[end:stop.end() if stop else len(reply)] + "\n"):
        return "negation"
    return None


# ------------------------------------------------------------------------------------------------------------
# "Is the heart enlarged?" answered by "The heart is enlarged." / "It is not enlarged." / "Normal heart size."
# ------------------------------------------------------------------------------------------------------------

_PREDICATE_QUESTION = re.compile(
    r"(?i)^\W*(?:is|are|was|were)\s+(?:the|this|these|that)\s+(?P<subject>(?:[\w\-]+\s+){0,3}?[\w\-]+)\s+"
    r"(?P<predicate>[a-z][\w\-]{3,})\s*$"
)
# "in this radiograph", "on the given chest x-ray": where the question looks, not what it asks
_WHERE = re.compile(r"(?i)\s+(?:in|on|within|at|from)\s+(?:this|the|these|that)\s+(?:given\s+|following\s+|"
                    r"provided\s+)?(?:[\w\-]+\s+){0,2}?(?:image|images|scan|picture|study|film|radiograph|x-?ray|ct|"
                    r"mri|slice|view|photo|photograph)\s*$")
# predicate words: adjectives and participles ("enlarged", "calcified", "malignant", "normal")
_ADJECTIVE = re.compile(r"(?i)^(?:[a-z\-]+(?:ed|al|ic|ous|ive|ant|ent|ar|ile|oid|ary|ful|less)|normal|abnormal|"
                        r"present|absent|visible|benign|clear|intact|patent|open|closed|thick|thin|large|small)$")
# what says the opposite of a predicate without "not"
ANTONYMS: dict[str, tuple[str, ...]] = {
    # batch 99: "size normal" reads "the heart size looks normal" (a word may stand between)
    "enlarged": ("normal in size", "normal size", "normal-sized", "normal sized", "size normal", "small",
                 "within normal limits"),
    "dilated": ("normal caliber", "normal calibre", "normal in caliber", "collapsed", "decompressed"),
    "normal": ("abnormal", "enlarged", "dilated", "pathologic", "pathological"),
    "abnormal": ("normal", "unremarkable", "within normal limits"),
    "present": ("absent",),
    "absent": ("present",),
    "malignant": ("benign",),
    "benign": ("malignant",),
    "calcified": ("non-calcified", "noncalcified", "uncalcified"),
    "thickened": ("normal thickness", "thin"),
    "widened": ("normal width", "normal in width", "not widened"),
    "displaced": ("non-displaced", "nondisplaced", "undisplaced", "aligned", "anatomically aligned"),
    "intact": ("disrupted", "fractured", "broken", "torn"),
    "patent": ("occluded", "thrombosed", "blocked"),
}
# batch 68: plain words that say a predicate itself ("E heart ain' big" to "Is the heart enlarged?")
SAME_AS: dict[str, tuple[str, ...]] = {"enlarged": ("big",)}
# batch 19: "not in the slightest dilated", "not in any way enlarged": an intensifier between the denial and the word
# a denial denied ("It's not *not* enlarged - ... I'd call it mildly enlarged", batch 16): the adjective, said
_TWICE_DENIED = re.compile(r"(?i)\bnot[\s*_]+not[\s*_]*$")
_NEGATED_PREDICATE = re.compile(r"(?i)(?:\b(?:no|without)\s+(?:[\w\-]+\s+){0,2}(?:evidence|signs?|features?)\s+of\s+$"
                                # "no radiographic evidence of cardiomegaly"
                                r"|\b(?:not|no|never|without|neither|nor|isn't|aren't|wasn't|weren't)\s+"
                                r"(?:(?:in\s+(?:the\s+slightest|the\s+least|any\s+way)|by\s+any\s+means|at\s+all)[\s,]+)?"
                                r"(?:(?:\w+\s+){0,2})$|n't\s+(?:(?:\w+\s+){0,2})$|\bnon-?$)")
# a review of held-out batch 147's fixes: "Nothing suggests splenomegaly.", "nothing here to indicate cardiomegaly",
# "Nothing I'd call splenomegaly" (cleaning.NOTHING_CALLED, without an adverb: not "nothing I'd call merely
# splenomegaly"): what nothing in the image shows, only where the finding ends its clause (not "Nothing suggests the
# splenomegaly is new.", "... splenomegaly a year ago; now 16 cm", a quote "'nothing suggests splenomegaly', but ...")
_NOTHING_SUGGESTS = re.compile(rf"(?i)(?<![\"'\u2018\u201c]){nothing_suggests(that=True)}\s+(?:an?\s+|the\s+)?$")
_CLAUSE_ENDS = re.compile(r"[ \t*_]*(?:[.;,:!)\n]|\Z)")


def _nothing_shows(before: str, reply: str, end: int) -> bool:
    """Whether the words before a finding say nothing shows it (:data:`_NOTHING_SUGGESTS`, ``NOTHING_CALLED``), the
    finding ending its clause."""
    if not _CLAUSE_ENDS.match(reply, end) or "nothing" not in before.casefold():
        return False
    return bool(_NOTHING_SUGGESTS.search(before)) or (NOTHING_CALLED.search(before) is not None
                                                     and re.search(r"(?i)\b[a-z]+ly\s*$", before) is None)


# organs and the adjectives a reply may name them by
ORGAN_ADJECTIVES: dict[str, tuple[str, ...]] = {
    "heart": ("cardiac", "cardio"), "lung": ("pulmonary",), "lungs": ("pulmonary",), "liver": ("hepatic", "hepato"),
    "kidney": ("renal",), "kidneys": ("renal",), "spleen": ("splenic", "spleno"), "brain": ("cerebral",),
    "aorta": ("aortic",), "bowel": ("intestinal",), "stomach": ("gastric",), "pancreas": ("pancreatic",),
    "ventricle": ("ventricular",), "ventricles": ("ventricular",), "thyroid": ("thyroidal",),
}


def _adjective_question(q: str) -> re.Match[str] | None:
    """"Is the <subject> <adjective> [in this image]" (the question without its "?"), or None."""
    m = _PREDICATE_QUESTION.match(_WHERE.sub("", q))
    return m if m is not None and _ADJECTIVE.match(m.group("predicate")) else None


def asked_predicate(question: str) -> str | None:
    """The adjective an "Is the <subject> <adjective>?" question asks ("enlarged" in "Is the heart enlarged in this
    radiograph?"), or None."""
    q = _INSTRUCTION.sub("", question.strip())
    m = _adjective_question((q.split("?")[0] if "?" in q else q).strip())
    return m.group("predicate").lower() if m is not None else None


def asked_subject(question: str) -> str | None:
    """The last word of the subject an "Is the <subject> <adjective>?" question asks about ("spleen" in "Is the
    spleen enlarged?"), or None."""
    q = _INSTRUCTION.sub("", question.strip())
    m = _adjective_question((q.split("?")[0] if "?" in q else q).strip())
    return m.group("subject").split()[-1].lower() if m is not None else None


# the reply starts with the adjective or a pronoun: a short reply about the question's own subject ("Enlarged.",
# "It is not.", "Mildly enlarged."), not about another one ("The liver is enlarged.")
_ABOUT_IT = re.compile(r"(?i)^\W*(?:it|it's|its|this|that|they|these|not|non|mildly|moderately|severely|markedly|"
                       r"slightly|very|definitely|clearly|normal|somewhat|borderline|no|yes)\b")


# a finding's adjective is denied by "normal" ("The liver appears normal." to "Is the liver cirrhotic?"), unless the
# adjective itself names the normal state
_HEALTHY = ("normal", "unremarkable", "healthy", "within normal limits")
_NORMAL_STATES = frozenset("normal intact patent open clear aligned symmetric symmetrical preserved present visible "
                           "benign".split())


# batch 37: "the two pieces of bone still line up well, no gap and no angle, so not displaced": a clause that is only a
# conclusion's word and the denied predicate, in a short reply, speaks of the question's subject (not "The aortic knob
# is prominent and unfolded, so enlarged.": hostile review of 2363cef)
_CONCLUDED_ALONE = re.compile(r"(?i)[\s,]*(?:so|thus|hence|therefore)[ \t]+(?:not|non)[ \t\-]+"
                              r"[^\W\d_][\w\-]*[ \t]*[.!]?[ \t]*")
_CONCLUDED_REPLY_WORDS = 30


def answer_from_predicate(reply: str, question: str) -> str | None:
    """"yes", "no" or None for a question of the form "Is the <subject> <adjective> [in this image]?" ("Is the
    heart enlarged?"): the reply says the adjective of that subject ("The heart is enlarged." yes; "The heart is
    not enlarged.", "Normal heart size." no). The reply must name the subject (or a word of its category: "cardiac"
    for "heart") unless it is short ("Enlarged.", "It is not."); a hedge is not read."""
    q = _INSTRUCTION.sub("", question.strip())
    m = _adjective_question((q.split("?")[0] if "?" in q else q).strip())
    if m is None or _mentions(m.group("predicate")) or _hedged(reply) or generic_statement(reply):
        return None  # "contrast-enhanced" is a value of a category: answer_from_subject reads it
    pred, subj = m.group("predicate").lower(), m.group("subject").lower()
    head = subj.split()[-1]
    # how a reply may name the subject: its word, its adjective ("cardiac" for heart), its initials ("CBD")
    names = [re.escape(head[:5])] + [re.escape(a) for a in ORGAN_ADJECTIVES.get(head, ())]
    # batch 70: an organ's outline named by its adjective ("Is the cardiac silhouette enlarged?"): the organ's own
    # word names it too ("i dont agree, heart is normal size")
    names += [re.escape(w) for organ, adjectives in ORGAN_ADJECTIVES.items() for w in (organ, *adjectives)
              if any(x in adjectives for x in subj.split()[:-1])]
    if len(subj.split()) > 1:
        names.append("(?-i:" + "".join(w[0].upper() for w in subj.split()) + r")\b")
    named_re = re.compile(r"(?i)\b(?:" + "|".join(names) + ")")
    stem = pred[:6] if len(pred) > 7 else pred
    # a short reply is about the question's subject unless it names another organ or region ("The liver is
    # enlarged." to "Is the spleen enlarged?")
    other = any(c == "region" and not named_re.match(reply, s) for c, _, s, _ in _mentions(reply))
    short = len(reply.split()) <= 6 and not other and (bool(_ABOUT_IT.match(reply))
                                                        or bool(re.match(r"(?i)\W*" + re.escape(stem), reply))
                                                        or not named_re.search(reply))
    # one word for "<predicate> <subject>": "Splenomegaly is present." for "Is the spleen enlarged?"
    said: set[str] = set()
    for term, syns in SYNONYMS.items():
        if f"{pred} {subj.split()[-1]}" not in syns:
            continue
        for hit in re.finditer(r"(?i)\b" + re.escape(term) + r"\b", reply):
            before = reply[max(0, hit.start() - 40):hit.start()]
            after = _DENIED_AFTER.match(reply, hit.end()) or _TERM_FIELD_DENIED.match(reply, hit.end())
            unjudged = _UNJUDGED_AFTER.match(reply[after.end():]) if after is not None else None
            if unjudged is not None and (unjudged.group("open") not in ";," or named_re.search(unjudged.group(0))):
                return None  # "Cardiomegaly: not seen - the heart borders are obscured.": not seen, as it cannot be
            if after is not None and ":" in after.group(0) and (not _FIELD_VALUE_ENDS.match(reply, after.end())
                                                                 or _ANOTHER_TIME.search(reply)):
                said.update(("yes", "no"))  # "Cardiomegaly: not seen on the prior study.": of another study
                continue
            said.add("no" if _NEGATED_PREDICATE.search(before) or _nothing_shows(before, reply, hit.end()) or after
                     else "yes")
    # every mention, and what the reply says of the subject in the question's own words (below), must agree: not
    # "Cardiomegaly: not seen on the prior study. Current film: ... the heart is enlarged." (a hostile review)

    def about_subject(clause: str) -> bool:
        """The clause names the question's subject ("heart"; "cardiac" for it), the reply is short, or the clause
        speaks of "it" in a reply that names no other organ or region ("I wouldn't call it cirrhotic")."""
        return short or bool(named_re.search(clause)) or (not other and bool(re.search(r"(?i)\bit\b", clause))) \
            or (not other and len(reply.split()) <= _CONCLUDED_REPLY_WORDS and _CONCLUDED_ALONE.fullmatch(clause)
                is not None)

    opposites = ANTONYMS.get(pred) or (() if pred in _NORMAL_STATES else _HEALTHY)
    antonyms = "|".join(re.escape(a).replace(r"\ ", r"[\s\-]+(?:\w+[\s\-]+)?") for a in opposites)
    same = "".join(r"|(?<![\w\-])" + re.escape(w) + r"(?![\w\-])" for w in SAME_AS.get(pred, ()))
    for hit in re.finditer(r"(?i)(?<![\w])" + re.escape(stem) + r"[\w\-]*" + same
                           + (r"|(?<![\w\-])(?P<ant>" + antonyms + r")(?![\w\-])" if antonyms else ""), reply):
        clause = _clause_of(reply, hit.start())
        if not about_subject(clause):
            continue
        if _FIELD_DENIED_AFTER.match(reply, hit.end()):
            said.update(("yes", "no"))  # "Displacement: not seen - ...": a field the value denies, not a yes
            continue
        before = reply[max(0, hit.start() - 40):hit.start()]
        before = before[max(before.rfind(c) for c in ".;:!\n,") + 1:]
        negated = (bool(_NEGATED_PREDICATE.search(before) or _nothing_shows(before, reply, hit.end()))
                   and not _TWICE_DENIED.search(before)) or \
            reply[max(0, hit.start() - 4):hit.start()].lower().endswith(("non-", "non", "un"))
        opposite = bool(antonyms and hit.group("ant"))
        said.add("no" if negated != opposite else "yes")
    return said.pop() if len(said) == 1 else None


def _clause_of(text: str, pos: int) -> str:
    """The clause around ``pos`` (between punctuation marks and "but", "and", "while", "whereas")."""
    cuts = [0, *(m.end() for m in re.finditer(r"(?i)[.;:!?\n,]|\b(?:but|and|while|whereas|although)\b", text)),
            len(text)]
    start = max(c for c in cuts if c <= pos)
    end = min((c for c in cuts if c > pos), default=len(text))
    return text[start:end]
