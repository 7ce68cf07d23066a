"""Synonyms and spelling variants of option and label texts (English), and the canonical form that folds them.

Why a module: "Shingles" is herpes zoster, "paediatric" is pediatric, "PE" is pulmonary embolism, "both sides" is
bilateral, and "A newborn." is pediatric where the item offers pediatric / adult. The reader's synonym pass
(:func:`probe_ui.reading.answers.extract`, rule 7) compares a reply with the item's texts with both in this canonical
form (:func:`canonical`); the lists below are plain data: extend one with the word and one test reply. Measures and
signs are read as what they show: a BI-RADS category ("BI-RADS 3" is benign, 4-6 malignant), a cardiothoracic ratio
("0.65" is cardiomegaly, above 0.5), and the findings of :data:`SIGNS` ("the hepatic veins are opacified" is the
portal venous phase).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from probe_ui.reading.lexicon import TOKEN

__all__ = ["BROADER", "GRADES", "OVERLAPS", "SIGNS", "SYNONYMS", "canonical", "narrow_terms"]

# canonical term: words a reply may use for it. Whole words/phrases, case-insensitive (abbreviations are matched
# in capitals only, see _ABBREVIATIONS).
SYNONYMS: dict[str, tuple[str, ...]] = {
    # batch 66: "Cavernous hepatic venous malformation — peripheral nodular enhancement; ...": the ISSVA name of the
    # hepatic (cavernous) hemangioma
    "hemangioma": ("cavernous hepatic venous malformation", "hepatic venous malformation", "cavernous venous "
                   "malformation"),
    # batch 28: "looks like zona, a painful dermatomal vesicular eruption." (zona: the French and older English name)
    "herpes zoster": ("shingles", "zoster", "zona",
                      # batch 23: "VZV reactivation — grouped vesicles ... confined to a single dermatome."
                      "vzv reactivation", "reactivated vzv", "reactivation of vzv", "varicella-zoster reactivation",
                      "varicella zoster reactivation", "reactivation of varicella-zoster",
                      "reactivation of varicella zoster", "reactivation of the varicella-zoster virus"),
    # batch 23: "Löfgren syndrome — bilateral hilar lymphadenopathy ... erythema nodosum and ankle arthritis."
    "sarcoidosis": ("löfgren syndrome", "lofgren syndrome", "löfgren's syndrome", "lofgren's syndrome",
                    "löfgrens syndrome", "lofgrens syndrome",
                    # batch 34: "Besnier–Boeck–Schaumann disease." (an eponym; the dashes written three ways)
                    "besnier–boeck–schaumann disease", "besnier-boeck-schaumann disease",
                    "besnier—boeck—schaumann disease", "besnier-boeck-schaumann", "besnier–boeck–schaumann",
                    "boeck's sarcoid", "boeck sarcoid"),
    # batch 24: "Moderate background diabetic retinopathy without neovascularisation." (the older name)
    # batch 28: "Pre-proliferative diabetic retinopathy." (the older name of severe non-proliferative disease)
    "non-proliferative diabetic retinopathy": ("background diabetic retinopathy",
                                               "pre-proliferative diabetic retinopathy",
                                               "preproliferative diabetic retinopathy",
                                               # batch 40: "Background retinopathy: scattered microaneurysms ..."
                                               "background retinopathy",
                                               # batch 41: "Simple diabetic retinopathy — microaneurysms and dot
                                               # haemorrhages only." (the Davis classification's name)
                                               "simple diabetic retinopathy"),
    "varicella": ("chickenpox", "chicken pox"),
    "pertussis": ("whooping cough",),
    # batch 40: "phthisis, there are cavities in the upper lobes" (the old name of pulmonary tuberculosis)
    # batch 87: "looks like tb, there is a cavity in the right upper lobe." (lower case, as small models write it)
    "tuberculosis": ("phthisis", "pulmonary phthisis", "tb"),
    "myocardial infarction": ("heart attack",),
    "stroke": ("cerebrovascular accident", "cerebral infarction", "brain infarct"),
    "pneumothorax": ("collapsed lung",
                     # batch 20: "Collapsed right lung from air in the pleural space."
                     "collapsed right lung", "collapsed left lung", "air in the pleural space",
                     "air in the pleural cavity", "air within the pleural space", "free pleural air"),
    "pleural effusion": ("fluid around the lung", "fluid around the lungs", "pleural fluid",
                         "fluid in the pleural space", "fluid in the pleural cavity", "hydrothorax"),
    "choledocholithiasis": ("cbd stone", "cbd stones", "cbd calculus", "cbd calculi"),
    "idiopathic intracranial hypertension": ("pseudotumor cerebri", "pseudotumour cerebri",
                                             "benign intracranial hypertension"),
    # early localised Lyme borreliosis is erythema migrans (batch 10: "Tick-borne borreliosis, early localised stage.")
    "erythema migrans": ("lyme disease", "lyme rash", "bull's-eye rash", "bull's eye rash", "bullseye rash",
                         "bulls-eye rash", "borreliosis", "lyme borreliosis"),
    "urticaria": ("hives", "nettle rash", "wheals"),
    "tinea corporis": ("ringworm", "dermatophytosis", "dermatophyte infection", "fungal skin infection"),
    "tinea pedis": ("athlete's foot",),
    "tinea capitis": ("scalp ringworm",),
    "onychomycosis": ("nail fungus", "fungal nail infection"),
    # atopic dermatitis is what "eczema" names when no kind is said
    # batch 68: LLaVA "atopic derm, flexural" (the clinicians' clipping of "dermatitis")
    "eczema": ("atopic dermatitis", "atopic eczema", "eczematous dermatitis", "atopic derm",
               # batch 40: "Nummular dermatitis." (discoid eczema, a form of eczema)
               "nummular dermatitis", "nummular eczema", "discoid eczema"),
    "impetigo": ("school sores",),
    "measles": ("rubeola",),
    "rubella": ("german measles",),
    "scabies": ("mite infestation", "sarcoptes infestation",
                # batch 38: the mite's full name ("a Sarcoptes scabiei infestation")
                "sarcoptes scabiei infestation", "sarcoptes scabiei",
                # batch 39: "the seven year itch, mites burrowing in the skin" (the old folk name, and the mites)
                "seven year itch", "seven-year itch", "burrowing mites", "mites burrowing"),
    "verruca vulgaris": ("common wart",),
    # "basalioma" is the European (German, Russian, Dutch) name (batch 11: "Basalioma, nodular type.")
    "basal cell carcinoma": ("rodent ulcer", "basalioma", "basaliom"),
    "pulmonary embolism": ("blood clot in the lung", "blood clot in the lungs", "clot in the lung",
                           "clot in the lungs", "lung clot",
                           # batch 21: "Saddle embolus at the bifurcation of the pulmonary trunk."
                           "saddle embolus", "saddle embolism", "saddle pulmonary embolus", "saddle pulmonary embolism",
                           "saddle thrombus",
                           # batch 27: "Pulmonary thromboembolism: a Westermark sign ..."
                           "pulmonary thromboembolism", "pulmonary thromboembolic disease"),
    # batch 28: "IMPRESSION: DeBakey type I, involving the ascending and the descending aorta." (a dissection's classes)
    "aortic dissection": ("torn aorta", "tear in the aorta", "dissecting aneurysm", "debakey type i", "debakey type ii",
                          "debakey type iii", "stanford type a dissection", "stanford type b dissection",
                          # batch 46: "Stanford type A: an intimal flap runs through the ascending aorta."
                          "stanford type a", "stanford type b"),
    "osteoporosis": ("brittle bones", "brittle bone disease"),
    "scoliosis": ("curved spine", "curvature of the spine", "spinal curvature"),
    # batch 60: "Liver secondaries." (the British clinical word)
    "metastasis": ("secondaries", "secondary deposits"),
    "hepatocellular carcinoma": ("liver cancer", "hepatoma", "primary liver cancer"),
    "renal cell carcinoma": ("kidney cancer", "hypernephroma"),
    "pneumonia": ("lung infection", "chest infection",
                  # batch 16: "... a community-acquired bacterial infection of the lung parenchyma, i.e. CAP."
                  "community-acquired pneumonia", "community acquired pneumonia", "hospital-acquired pneumonia",
                  "hospital acquired pneumonia"),
    # batch 16: "GBM - thick, irregular rim enhancement around central necrosis"
    "glioblastoma": ("glioblastoma multiforme",
                     # batch 23: "IDH-wildtype grade 4 astrocytoma, with ..." (WHO 2021: glioblastoma; not IDH-mutant)
                     "idh-wildtype grade 4 astrocytoma", "idh wildtype grade 4 astrocytoma",
                     "idh-wild-type grade 4 astrocytoma", "idh-wildtype grade iv astrocytoma",
                     "idh-wildtype astrocytoma, grade 4", "idh-wildtype glioblastoma",
                     # batch 80: "<diagnosis>Butterfly glioma</diagnosis>" (a glioblastoma crossing the corpus callosum)
                     "butterfly glioma", "butterfly glioblastoma",
                     # batch 82: LLaVA in lower case, "gbm, ring enhancing with a necrotic center ..." (the
                     # abbreviation, no English word in any case)
                     "gbm"),
    # batch 17: "The physician's answer of extradural haematoma is accurate" (extradural is epidural)
    "epidural hematoma": ("extradural hematoma", "extradural hemorrhage", "extradural bleed", "extradural haematoma"),
    # batch 17: "chf with fluid overload, bats wing pattern": the bat's-wing (butterfly) opacities of alveolar edema
    "pulmonary edema": ("bat's wing", "bats wing", "bat wing", "batwing", "bat's-wing", "bat-wing",
                        "butterfly pattern", "alveolar edema",
                        # batch 52: "I'd still say fluid in the lungs from heart failure: ..." (not "fluid in the
                        # lungs" alone, which lay speech uses for an effusion as well)
                        "fluid in the lungs from heart failure", "fluid in the lungs due to heart failure",
                        "fluid in the lungs from cardiac failure",
                        # batch 54: "IMPRESSION: Congestive heart failure with alveolar flooding."
                        "alveolar flooding",
                        # batch 65: "... the picture here is alveolar flooding from left heart failure — symmetric
                        # perihilar haze, ..." (the cause named, as in batch 52's)
                        "alveolar flooding from left heart failure", "alveolar flooding from heart failure",
                        # batch 61: "Cardiogenic fluid overload in the lungs from congestive heart failure." (the
                        # cause named, as in batch 52's)
                        "cardiogenic fluid overload in the lungs", "fluid overload in the lungs from heart failure",
                        "fluid overload in the lungs from congestive heart failure",
                        # batch 83: "Fluid overload from left heart failure filling the alveoli on both sides." (the
                        # alveoli named as where the fluid is: no effusion)
                        "heart failure filling the alveoli", "fluid overload filling the alveoli",
                        "fluid filling the alveoli from heart failure", "fluid filling the alveoli from left heart "
                        "failure",
                        # batch 108: "... best explained by non-cardiogenic fluid in the alveoli — ARDS." (the
                        # non-cardiogenic edema of acute respiratory distress syndrome)
                        "non-cardiogenic fluid in the alveoli", "noncardiogenic fluid in the alveoli", "ards",
                        "acute respiratory distress syndrome"),
    # batch 17: "A gravid uterus compressing the right ureter ..."
    "pregnancy": ("gravid uterus", "pregnant uterus", "gravid", "pregnant"),
    "appendicitis": ("inflamed appendix",),
    "bowel obstruction": ("blocked bowel", "intestinal obstruction"),
    "cystic": ("fluid-filled", "fluid filled", "fluid-containing"),
    # hydrocephalus: an obstruction inside the ventricles does not let them communicate with the subarachnoid space
    "communicating hydrocephalus": ("non-obstructive hydrocephalus", "nonobstructive hydrocephalus",
                                    # batch 25: "Not obstructive: the fourth ventricle ... enlarged as well."
                                    "not obstructive", "not an obstructive hydrocephalus"),
    # batch 62: "I'd keep my answer: the ventricular system isn't obstructed anywhere — the aqueduct is patent ..."
    "communicating": ("non-obstructive", "nonobstructive", "isn't obstructed", "is not obstructed", "not obstructed",
                      "unobstructed"),
    "non-communicating hydrocephalus": ("obstructive hydrocephalus",),
    "osteosarcoma": ("osteogenic sarcoma",),
    # batch 88: "A **multifragmentary** fracture of the proximal tibia" (the AO/OTA term for comminuted)
    "comminuted": ("multifragmentary", "multi-fragmentary"),
    # batch 16: a Brodie abscess is a subacute osteomyelitis ("Brodie abscess of the distal femoral metaphysis.")
    "osteomyelitis": ("bone infection", "infection of the bone", "infected bone", "brodie abscess", "brodie's abscess",
                      "brodies abscess"),
    "osteochondroma": ("exostosis", "osteocartilaginous exostosis", "bony exostosis"),
    "osgood-schlatter disease": ("tibial tubercle apophysitis", "tibial tuberosity apophysitis",
                                 "osgood schlatter", "osgood-schlatter",
                                 # batch 12: "Traction apophysitis of the tibial tubercle."
                                 "apophysitis of the tibial tubercle", "apophysitis of the tibial tuberosity"),
    "vascular lesion": ("cherry angioma", "angioma", "hemangioma", "haemangioma", "angiokeratoma",
                        "pyogenic granuloma", "spider angioma",
                        # batch 77: "A Campbell de Morgan spot." (the eponym of a cherry angioma)
                        "campbell de morgan spot", "campbell de morgan spots", "campbell-de morgan spot"),
    "elderly": ("geriatric", "older adult", "older adults", "old age", "aged patient", "senior", "senior citizen",
                # batch 33: "old person"
                "old person", "old people",
                # batch 63: "osteopenic bones, degenerative spurs, calcified aorta, an older patient"
                "older patient", "an older person", "elderly patient",
                # batch 16: "A patient in their eighties, judging by the osteopenia ..."
                "octogenarian", "nonagenarian", "septuagenarian", "in their eighties", "in his eighties",
                "in her eighties",
                "in their nineties", "in his nineties", "in her nineties", "in their late seventies",
                "in his late seventies", "in her late seventies",
                # batch 19: "Senescent skeleton: diffuse osteopenia and advanced spondylosis."
                "senescent", "senile skeleton", "aged skeleton"),
    "cardiomegaly": ("enlarged heart", "cardiac enlargement", "heart enlargement", "enlarged cardiac silhouette"),
    "hepatomegaly": ("enlarged liver", "liver enlargement"),
    "splenomegaly": ("enlarged spleen", "spleen enlargement"),
    "nephrolithiasis": ("kidney stones", "kidney stone", "renal calculi", "renal calculus", "renal stones",
                        "renal stone", "urolithiasis",
                        # batch 12: "Urolithiasis — an obstructing ureteric calculus." (the stone has left the kidney)
                        "ureteric calculus", "ureteral calculus", "ureteric stone", "ureteral stone",
                        # batch 38: the ureteric stone's one-word name ("Ureterolithiasis at the pelviureteric
                        # junction.")
                        "ureterolithiasis"),
    "cholelithiasis": ("gallstones", "gallstone", "gall stones"),
    # batch 14: the eponym's older name ("Hodgkin's disease."), a kind of lymphoma (an option "Lymphoma" names it)
    "hodgkin lymphoma": ("hodgkin's disease", "hodgkin disease", "hodgkins disease", "hodgkin's lymphoma",
                         "hodgkins lymphoma", "morbus hodgkin"),
    # batch 19: "NHL, diffuse large B-cell type": a kind of lymphoma (an option "Lymphoma" names it; NHL and DLBCL in
    # capitals only, _ABBREVIATIONS)
    "non-hodgkin lymphoma": ("non-hodgkin's lymphoma", "non-hodgkins lymphoma", "non hodgkin lymphoma",
                             "non-hodgkin's disease", "diffuse large b-cell lymphoma", "diffuse large b cell lymphoma"),
    "heart failure": ("congestive heart failure", "cardiac failure"),
    "osteoarthritis": ("degenerative joint disease", "degenerative arthritis",
                       # batch 21: "Gonarthrosis: medial joint-space narrowing, ..." (of the knee; coxarthrosis: the
                       # hip)
                       "gonarthrosis", "coxarthrosis", "osteoarthrosis",
                       # batch 41: "Wear-and-tear arthritis of the medial compartment" (the lay name)
                       "wear and tear arthritis"),
    # batch 41: "Cellular (intracellular) edema from an acute infarct" (cytotoxic edema is the cells' swelling)
    "cytotoxic edema": ("cellular edema", "intracellular edema", "cellular (intracellular) edema"),
    # batch 42: "Benign prostatic hyperplasia obstructing the bladder outlet, ..." (the enlargement named by its cause)
    "prostatic enlargement": ("benign prostatic hyperplasia", "benign prostatic hypertrophy"),
    "deep vein thrombosis": ("deep venous thrombosis",),
    "fracture": ("broken bone", "broken bones"),
    "malignant": ("cancerous", "malignancy",
                  # batch 39: "Invasive ductal carcinoma, most likely — irregular shape, spiculated margin ..."
                  "invasive ductal carcinoma", "invasive lobular carcinoma"),
    "benign": ("non-cancerous", "noncancerous", "not cancerous", "harmless", "innocuous"),
    "pediatric": ("child", "children", "child's", "kid", "kids", "juvenile", "paediatric patient",
                  "pediatric patient", "young child", "peds",
                  # batches 27-101: "Skeletally immature — the proximal humeral physes are still open."
                  "skeletally immature"),
    # batches 46-101: "Skeletally mature: physes fused, no apophyses visible." (an adult where the item offers no
    # elderly: OVERLAPS; batch 25's "Skeletally mature." may be either where it does)
    "skeletally mature": ("mature skeleton",),  # "Paeds film." (batch 10; "paeds" folds to "peds")
    "neonate": ("newborn", "new-born", "neonatal"),
    "infant": ("baby",),
    "adolescent": ("teenager", "teen"),
    "toddler": (),
    "adult": ("grown-up", "grown up", "adult patient",
              # batch 29: "Mid-thirties, I'd say.": an age in the twenties to forties (not the fifties on, which
              # may be elderly where the item offers it)
              "twenties", "mid-twenties", "mid twenties", "early twenties", "late twenties", "early-twenties",
              "late-twenties", "thirties", "mid-thirties", "mid thirties", "early thirties", "late thirties",
              "early-thirties", "late-thirties", "forties", "mid-forties", "mid forties", "early forties",
              "late forties", "early-forties", "late-forties",
              # batch 70: "Skeletally mature, middle-aged range." (middle age is not old age)
              "middle-aged", "middle aged"),
    # batch 81: "Pyogenic cerebral collection, capsule stage." (a collection of pus is an abscess)
    "abscess": ("pyogenic collection", "pyogenic cerebral collection", "pyogenic intracranial collection",
                "collection of pus", "pus collection"),
    # batch 81: "The emerald marker lies nearest the laparoscope." (a shade named for its colour)
    "green": ("emerald", "emerald green"),
    "male": ("man", "men", "boy"),
    "female": ("woman", "women", "girl"),
    "bilateral": ("both sides", "both lungs", "both kidneys", "on both sides"),
    # batches 48-84: "the neck and shoulders are at the bottom ..., so the picture is the wrong way up" (not
    # "flipped", which may be a mirror's flip: "its flipped L/R", a hostile review of 7d438ea)
    "upside down": ("wrong way up",
                    "inverted", "rotated 180 degrees", "rotated by 180 degrees", "rotated 180°", "rotated by 180°",
                    "flipped 180 degrees", "flipped by 180 degrees", "flipped 180°", "turned 180 degrees",
                    "turned by 180 degrees", "turned 180°", "rotated through 180°", "180° rotation",
                    "180-degree rotation", "180 degree rotation", "rotated 180", "turned upside down",
                    "flipped upside down", "upside-down orientation", "rotated through 180 degrees",
                    "rotated by 180", "flipped vertically", "vertically flipped", "vertical flip",
                    "flipped top to bottom", "on its head", "turned on its head",
                    # batch 19: "this has been turned through 180 degrees"
                    "turned through 180 degrees", "turned through 180°", "turned through 180", "rotated through 180",
                    "flipped through 180 degrees", "turned round 180 degrees", "turned around 180 degrees",
                    "rotated around 180 degrees", "turned by 180°", "turned 180",
                    # batch 21: "displayed head-down, diaphragm at the top of the image" (not the diaphragm at the top
                    # alone: the top of an abdominal film)
                    "displayed head-down", "displayed head down", "shown head-down", "shown head down",
                    "hung head-down", "hung head down", "feet at the top",
                    # batch 22: "The film has been turned over: the lung apices are at the bottom and the diaphragm
                    # domes at the top."
                    "turned over", "flipped over", "apices at the bottom", "apices are at the bottom",
                    # batch 67: "The image has been turned end over end."
                    "turned end over end", "flipped end over end",
                    "apices lie at the bottom", "apices sit at the bottom", "apices at the foot of the image",
                    # batch 23: "It's been rotated a half-turn: the femur is at the bottom of the film and the tibia at
                    # the top."
                    "rotated a half-turn", "rotated a half turn", "rotated half a turn", "rotated by a half-turn",
                    "rotated by half a turn", "turned a half-turn", "turned half a turn", "given a half-turn",
                    "femur is at the bottom", "femur at the bottom", "femur lies at the bottom",
                    # batch 37: "It's been flipped: the clavicles are at the bottom of the frame and the diaphragm at
                    # the top." (the clavicles, as the apices, belong at the top of any chest film)
                    "clavicles are at the bottom", "clavicles at the bottom", "clavicles lie at the bottom",
                    "clavicles sit at the bottom"),
    "correct": ("properly oriented", "correctly oriented", "normal orientation", "standard orientation",
                "right way up", "right side up", "proper orientation", "normally oriented",
                "standard anatomical orientation", "normal anatomical orientation", "proper anatomical orientation",
                "usual orientation", "anatomical position", "standard position", "correct position",
                "orientation is normal", "orientation is standard", "orientation is proper", "oriented normally",
                "oriented properly", "oriented correctly", "orientated correctly", "correctly orientated",
                "anatomically oriented", "not inverted", "not upside down", "not rotated", "upright",
                "anatomically upright", "right way round", "correct way up", "normal display", "displayed normally",
                "displayed correctly"),
    "normal": ("unremarkable", "healthy", "no abnormality", "within normal limits"),
    "seborrheic keratosis": ("seb k", "seb keratosis", "seborrheic wart", "basal cell papilloma",
                             # batch 33: "Senile wart."
                             "senile wart", "senile warts"),
    "melanocytic nevus": ("mole", "moles", "naevus", "nevus", "melanocytic naevus", "benign mole", "common mole"),
    "actinic keratosis": ("solar keratosis", "senile keratosis"),
    # batch 25-26: "Benign fibrous histiocytoma — the central white patch and the dimple sign ..."
    "dermatofibroma": ("benign fibrous histiocytoma",
                       # batch 44: "Fibrous histiocytoma of the skin — positive dimple sign ..." (the skin's own, not
                       # the malignant fibrous histiocytoma of soft tissue)
                       "fibrous histiocytoma of the skin", "cutaneous fibrous histiocytoma",
                       "dermal fibrous histiocytoma",
                       # batch 66: "Sclerosing histiocytoma (central white patch, peripheral fine network)." (an older
                       # name of the same lesion)
                       "sclerosing histiocytoma",
                       # batch 102: "**Impression:** Benign fibrohistiocytic lesion." (the dermatofibroma's family)
                       "benign fibrohistiocytic lesion"),
    "contrast-enhanced": ("with contrast", "post-contrast", "enhanced", "contrast enhanced"),
    "non-contrast": ("without contrast", "unenhanced", "non-enhanced", "noncontrast", "pre-contrast",
                     "no contrast", "without iv contrast", "no iv contrast"),
}
# a narrower term read as its broader one unless the item offers the narrower one itself: "A newborn." is
# "pediatric" for pediatric / adult, and "neonate" where "Neonate" is an option
BROADER: dict[str, str] = {"neonate": "pediatric", "infant": "pediatric", "adolescent": "pediatric",
                           "toddler": "pediatric", "elderly": "adult", "skeletally mature": "adult"}
# batch 20: a grade of a finding written as the finding with its degree ("Marked cardiomegaly." is "Severely
# enlarged" where the options grade the heart's size); read so only where the item offers the grade (elsewhere
# "marked cardiomegaly" is cardiomegaly, and "severely enlarged" may be said of any organ)
GRADES: dict[str, tuple[str, ...]] = {
    "severely enlarged": ("marked cardiomegaly", "severe cardiomegaly", "massive cardiomegaly", "gross cardiomegaly",
                          "markedly enlarged heart", "massively enlarged heart", "grossly enlarged heart"),
    "mildly enlarged": ("mild cardiomegaly", "slight cardiomegaly", "minimal cardiomegaly", "mildly enlarged heart",
                        "slightly enlarged heart",
                        # batch 64: a layman's grade ("the heart is normal or a little bit big": two grades weighed)
                        "a little bit big", "a little big", "a bit big", "slightly big", "mildly big",
                        # batch 64: "heart is a bit enlarged, mild"
                        "a bit enlarged", "a little enlarged", "a little bit enlarged"),
}
# a narrower term that overlaps another: "Baby." is not read where the item offers both "Neonate" and "Pediatric"
OVERLAPS: dict[str, frozenset[str]] = {"infant": frozenset({"neonate"}), "skeletally mature": frozenset({"elderly"})}
# capitals only ("MI", "PE"): a lowercase "pe" or "ms" is another word (but see _ALSO_WORDS)
_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "myocardial infarction": ("MI", "STEMI", "NSTEMI"),
    "pulmonary embolism": ("PE",),
    "pneumothorax": ("PTX",),
    "non-hodgkin lymphoma": ("NHL", "DLBCL"),
    "heart failure": ("CHF", "HF"),
    "tuberculosis": ("TB",),
    "chronic obstructive pulmonary disease": ("COPD",),
    "deep vein thrombosis": ("DVT",),
    "abdominal aortic aneurysm": ("AAA",),
    "multiple sclerosis": ("MS",),
    "rheumatoid arthritis": ("RA",),
    # batch 68: "DJD of the knee." (degenerative joint disease)
    "osteoarthritis": ("OA", "DJD"),
    "subarachnoid hemorrhage": ("SAH",),
    "subdural hematoma": ("SDH",),
    "epidural hematoma": ("EDH",),
    "intracerebral hemorrhage": ("ICH",),
    "hepatocellular carcinoma": ("HCC",),
    "renal cell carcinoma": ("RCC",),
    "basal cell carcinoma": ("BCC",),
    "squamous cell carcinoma": ("SCC",),
    "seborrheic keratosis": ("SK",),
    "acute respiratory distress syndrome": ("ARDS",),
    "benign prostatic hyperplasia": ("BPH",),
    "age-related macular degeneration": ("AMD",),
    "diabetic retinopathy": ("DR",),
    "stroke": ("CVA",),
    # batch 16
    "pneumonia": ("CAP", "HAP"),
    "glioblastoma": ("GBM",),
    # batch 53: "PDAC of the pancreatic head, with the double-duct sign." (pancreatic ductal adenocarcinoma)
    "ductal adenocarcinoma": ("PDAC",),
}
# British and other spellings folded to one ("paediatric" → "pediatric", "oedema" → "edema", "tumour" → "tumor")
_SPELLING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r) for p, r in (
        (r"\bpaed", "ped"), (r"\bhaem", "hem"), (r"\banaem", "anem"), (r"aemi", "emi"), (r"\bcaec", "cec"),
        (r"\bgynaec", "gynec"), (r"\borthopaed", "orthoped"), (r"\baetiolog", "etiolog"), (r"\boedem", "edem"),
        (r"\boesophag", "esophag"), (r"\bfoet", "fet"), (r"\bdyspnoe", "dyspne"), (r"\bdiarrhoe", "diarrhe"),
        (r"\boestr", "estr"), (r"tumour", "tumor"), (r"\bcolour", "color"), (r"\bbehaviour", "behavior"),
        (r"\bcentre", "center"), (r"\bgrey\b", "gray"), (r"\bsulph", "sulf"), (r"isation\b", "ization"),
        (r"\b(visual|recogn|character|local)is(e|ed|es|ing)\b", r"\1iz\2"),
        (r"\bhaemat", "hemat"), (r"\bmanoeuvre", "maneuver"), (r"\bfibre", "fiber"), (r"\blitre", "liter"),
        # batch 17: "seborrhoeic keratosis", "junctional naevus"
        (r"rrhoe", "rrhe"), (r"\bnaev", "nev"),
        # batch 70: a typo at night in the ED ("the rigth kidney, the pelvis is dilated")
        (r"\brigth\b", "right"),
    )
)


# a piece of text each spelling variant needs: only the variants whose piece occurs are looked for
_SPELLING_KEYS = ("paed", "haem", "anaem", "aemi", "caec", "gynaec", "orthopaed", "aetiolog", "oedem", "oesophag",
                  "foet", "dyspnoe", "diarrhoe", "oestr", "tumour", "colour", "behaviour", "centre", "grey", "sulph",
                  "isation", "is", "haemat", "manoeuvre", "fibre", "litre", "rrhoe", "naev", "rigth")


@functools.lru_cache(maxsize=64)
def _spelling_regex(present: frozenset[int]) -> re.Pattern[str]:
    """The spelling variants numbered in ``present``, in one pass (one alternation, one group each)."""
    return re.compile("|".join(f"(?P<s{i}>{p.pattern})" for i, (p, _) in enumerate(_SPELLING) if i in present),
                      re.IGNORECASE)


# the BI-RADS assessment categories of a breast lesion: 1-3 negative, benign, probably benign; 4-6 suspicious, highly
# suggestive of malignancy, known malignancy ("BI-RADS 3 features" is a benign reading, "BI-RADS 5" a malignant one)
_BIRADS = re.compile(r"(?i)\bbi[\s\-]?rads(?:[\s\-]+(?:category|cat\.?))?[\s\-]*([1-6])(?:[abc])?(?![\w\-])")


def _birads(m: re.Match[str]) -> str:
    if m.group(1) == "4" and not m.group(0)[-1:].lower() == "c":
        # batch 25: "BI-RADS 4 — suspicious abnormality; tissue sampling is recommended.": category 4 (4A, 4B) asks
        # for a biopsy because it may be either; it names neither (4C, moderate to high suspicion, still malignant)
        return m.group(0)
    return "benign" if m.group(1) in "123" else "malignant"


# the cardiothoracic ratio measured: above 0.5 the heart is enlarged on a PA film ("The cardiothoracic ratio is 0.65"
# is cardiomegaly, "CTR 0.45" a heart of normal size)
_CTR = re.compile(r"(?i)\b(?:cardio-?thoracic\s+ratio|CTR)(?:\s+(?:is|of|was|measures|measuring|at))?\s*[:=]?\s*"
                  r"(?:(?:about|approximately|roughly|around|nearly|~|\u2248)\s*)?(0?\.\d+|\d{2}\s*%)")


def _ctr(m: re.Match[str]) -> str:
    value = m.group(1).replace(" ", "")
    ratio = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    if abs(ratio - 0.5) < 0.005:
        return m.group(0)  # batch 25: "The cardiothoracic ratio is approximately 0.50.": at the threshold, neither
    return "cardiomegaly" if ratio > 0.5 else "normal heart size"


# findings that are the signs of a term the options use, read as "the features of" that term (a body that reports
# them concludes it: "The hepatic veins are densely opacified" is the portal venous phase)
SIGNS: tuple[tuple[str, str], ...] = (
    (r"hepatic\s+veins?\s+(?:(?:are|is|appear|look)\s+)?(?:(?:densely|well|fully|brightly|already|homogeneously)\s+)"
     r"{0,2}(?:opacified|enhanced|enhancing|opacifying)", "portal venous phase"),
    (r"(?:spleen|splenic\s+parenchyma)\s+(?:enhances|is\s+enhancing|is|appears|looks)\s+homogeneous(?:ly)?"
     r"|homogeneous\s+(?:splenic|spleen)\s+enhancement", "portal venous phase"),
    # batch 26: the portal vein too ("the portal vein is still unopacified while the aorta is bright")
    (r"(?:hepatic|portal)\s+veins?\s+(?:are|is)\s+(?:still\s+|yet\s+)?(?:unopacified|unenhanced|not\s+(?:yet\s+)?"
     r"(?:opacified|enhanced))", "arterial phase"),
    (r"(?:heterogeneous|arciform|zebra|striped|moir[eé])\s+(?:splenic\s+|spleen\s+)?enhancement"
     r"|spleen\s+enhances\s+heterogeneously", "arterial phase"),
    # a calcific focus along the urinary tract is a stone ("a 6 mm calcific focus at the vesicoureteric junction")
    (r"(?:calcific|calcified|calcium|dense|radio-?dense|radio-?opaque|hyperdense)\s+(?:focus|foci|density|densities|"
     r"opacity|opacities)\s+(?:at|in|within|along|of)\s+(?:the\s+)?(?:(?:left|right|distal|proximal|mid|lower|upper)\s+)?"
     r"(?:ureter|ureteric|vesico-?ureteric\s+junction|uretero-?vesical\s+junction|VUJ|UVJ|pelvi-?ureteric\s+junction|"
     r"PUJ|UPJ|renal\s+pelvis|kidney|collecting\s+system)", "urolithiasis"),
    # batch 14: a calculus or stone placed in the urinary tract is a urinary stone ("Calculus at the PUJ with upstream
    # pelvicalyceal dilatation.", "an obstructing calculus at the pelviureteric junction"); a stone elsewhere (the
    # gallbladder, the bile duct) is not
    (r"(?:(?:obstructing|impacted|large|small|single|solitary|\d+(?:\.\d+)?[ \t]*mm)\s+)?"
     r"(?:calculus|calculi|stones?)\s+(?:(?:is\s+|are\s+)?(?:seen\s+|lodged\s+|impacted\s+|sitting\s+)?"
     r"(?:at|in|within|of)\s+)(?:the\s+)?"
     r"(?:(?:left|right|distal|proximal|mid|lower|upper)\s+)?(?:ureter|ureteric\s+orifice|vesico-?ureteric\s+junction|"
     r"uretero-?vesical\s+junction|VUJ|UVJ|pelvi-?ureteric\s+junction|uretero-?pelvic\s+junction|PUJ|UPJ|"
     r"renal\s+pelvis|kidney|collecting\s+system)"
     r"|(?:ureteric|ureteral|PUJ|UPJ|VUJ|UVJ|pelvi-?ureteric(?:\s+junction)?|uretero-?pelvic(?:\s+junction)?|"
     r"vesico-?ureteric(?:\s+junction)?|uretero-?vesical(?:\s+junction)?)\s+(?:calculus|calculi|stones?)",
     "urolithiasis"),
    # a lesion that has grown since the prior study, or gained a complication, is getting worse (batch 9: "the
    # pseudoaneurysm has grown from 2 to 3.5 cm, with new surrounding hematoma")
    (r"(?:has|have|had)\s+(?:grown|enlarged|expanded|increased\s+in\s+size|progressed|worsened)"
     r"|(?:interval|new)\s+(?:growth|enlargement|expansion|increase\s+in\s+size)", "aggravating"),
    # batch 21: on ultrasound a thin anechoic stripe is free fluid ("morison pouch is not empty, there is an anechoic
    # stripe"); not an anechoic mass, cyst or collection, which may be loculated
    (r"(?:thin\s+|small\s+)?(?:anechoic|echo-?free)\s+(?:stripe|strip|band|rim|crescent|sliver|rind|line)s?",
     "free fluid"),
    # batch 11: a break in the cortex is a fracture ("No. A cortical break is visible at the distal fibula.")
    (r"cortical\s+(?:break|breach|disruption|discontinuity)|break\s+in\s+the\s+(?:cortex|cortical\s+outline)",
     "fracture"),
    # batch 37: a mature skeleton said to have no degenerative change is an adult's, not an old person's ("Skeletally
    # mature; the physes are closed and there are no degenerative changes."; "Skeletally mature." alone may be either,
    # batch 25)
    (r"skeletally\s+mature\b[^.!?\n]{0,100}?\b(?:no|without)\s+(?:\w+\s+)?degenerative\s+changes?", "adult"),
    # batch 62: "I maintain that nothing about this lesion is suspicious for cancer: ..." (nothing suspicious of
    # malignancy is benign; not read as the malignancy it names)
    (r"nothing\s+(?:about\s+(?:it|this|the)\s*(?:lesion|mass|nodule)?\s+)?(?:is|looks|seems|appears)\s+suspicious\s+"
     r"(?:for|of)\s+(?:cancer|malignancy|a\s+malignancy)", "benign"),
)
_SIGNS = tuple((re.compile(r"(?i)\b(?:the\s+)?(?:" + p + r")\b"), "the features of " + term) for p, term in SIGNS)


# (not both sides compared and left there, which says nothing of either being involved: "The physician's answer of
# right side hardly holds up; both apices look the same." read "Both sides", a review of held-out batches 173-174; "both
# hips look the same, with flattening ..." still names a finding on each; "both hips appear normal" is left as it was,
# where a later sentence may find the disease on each side: a review of the change)
_BOTH = re.compile(r"(?i)\b(?:on\s+|in\s+|involving\s+)?both\s+(?:sides|(?:[a-z]+\s+)?[a-z]{3,}(?<!s)s)\b"
                   r"(?!\s+(?:and|or)\b)"
                   r"(?!\s+(?:look|appear|are|seem)s?\s+(?:(?:exactly|about|much|quite|the)\s+)?(?:same|alike|similar|"
                   r"symmetric(?:al)?|identical|equal)[ \t]*(?:[.;!?\n]|\Z))")


@functools.lru_cache(maxsize=1)
def _synonym_words() -> tuple[dict[str, str], dict[str, str], dict[str, frozenset[str]]]:
    """Synonym → canonical (canonical terms map to themselves: "herpes zoster" stays itself), abbreviation →
    canonical, and the phrases by their first word (to build a pattern from the words a reply has)."""
    words: dict[str, str] = {canon.casefold(): canon for canon in SYNONYMS}
    for canon, syns in SYNONYMS.items():
        for s in syns:
            words.setdefault(s.casefold(), canon)
    abbrev = {a: canon for canon, abbs in _ABBREVIATIONS.items() for a in abbs}
    first: dict[str, set[str]] = {}
    for w in words:
        first.setdefault((TOKEN.findall(w) or [w])[0], set()).add(w)
    return words, abbrev, {k: frozenset(v) for k, v in first.items()}


@functools.lru_cache(maxsize=4096)
def _phrases_regex(phrases: frozenset[str]) -> re.Pattern[str]:
    alt = "|".join(re.escape(w).replace(r"\ ", r"[\s\-]+") for w in sorted(phrases, key=len, reverse=True))
    return re.compile(r"(?<![\w\-])(?:" + alt + r")(?![\w\-])", re.IGNORECASE)


def _sub_phrases(groups: list[frozenset[str]], repl: Callable[[re.Match[str]], str], text: str) -> str:
    """``text`` with the phrases of ``groups`` replaced by ``repl``, found as one pattern of them all would find them
    (the leftmost first; at one place the longest), with one cached pattern per group. A pattern of just the phrases
    a reply's words start was new for nearly every reply, and compiling it took about a tenth of the reader's time."""
    patterns = [_phrases_regex(g) for g in groups]
    found = [p.search(text) for p in patterns]
    out: list[str] = []
    pos = 0
    while True:
        best = None
        for i, m in enumerate(found):
            if m is not None and m.start() < pos:  # overtaken by the last replacement: its next match from here
                m = found[i] = patterns[i].search(text, pos)
            if m is not None and (best is None or m.start() < best.start()
                                  or (m.start() == best.start() and m.end() > best.end())):
                best = m
        if best is None:
            break
        out += (text[pos:best.start()], repl(best))
        pos = best.end()
    out.append(text[pos:])
    return "".join(out)


def narrow_terms(texts: tuple[str, ...]) -> frozenset[str]:
    """The narrower terms of :data:`BROADER` that an item's own option or label texts use ("Neonate")."""
    low = " ".join(texts).casefold()
    return frozenset(t for t in (*BROADER, *GRADES) if re.search(r"\b" + re.escape(t), low))


# a grade written in Arabic numerals is the grade in Roman ones ("grade 3" is "Grade III"; not "grade 3.5")
_GRADE_NUMBER = re.compile(r"(?i)\b(grade[ \t]+)([1-4])\b(?![.,]\d)")
_ROMAN = ("I", "II", "III", "IV")


@functools.lru_cache(maxsize=128)
def canonical(text: str, narrow: frozenset[str] = frozenset()) -> str:
    """The text with spelling variants folded and synonyms replaced by their canonical term ("Shingles" →
    "herpes zoster", "paediatric" → "pediatric", "PE" → "pulmonary embolism"), for comparing a reply with option
    and label texts; a narrower term ("newborn" → "neonate") becomes its broader one ("pediatric") unless it is in
    ``narrow`` (the item offers it: :func:`narrow_terms`)."""
    low = text.lower()
    present = frozenset(i for i, key in enumerate(_SPELLING_KEYS) if key in low and (key != "is" or re.search(
        r"(?:visual|recogn|character|local)is", low)))
    t = text
    if present:
        t = _spelling_regex(present).sub(lambda m: _SPELLING[int(m.lastgroup[1:])][0].sub(  # type: ignore[index]
            _SPELLING[int(m.lastgroup[1:])][1], m.group(0)), text)  # type: ignore[index]
    if "both" in t.lower():  # "both sides", "both femurs", "on both sides", a reply that is only "Both.": bilateral
        t = _BOTH.sub("bilateral", t)
        t = re.sub(r"(?i)\A(\W*)both(\W*)\Z", r"\1bilateral\2", t)
    if "rads" in t.lower():
        t = _BIRADS.sub(_birads, t)
    if "grade" in t.lower():  # batch 61: "grade 1 spondylolisthesis, ..." where the options are "Grade I", ...
        t = _GRADE_NUMBER.sub(lambda m: m.group(1) + _ROMAN[int(m.group(2)) - 1], t)
    if "ctr" in t.lower() or "thoracic" in t.lower():
        t = _CTR.sub(_ctr, t)
    if any(w in t.lower() for w in ("hepatic", "spleen", "splenic", "enhancement", "calc", "stone", "dens", "opaci",
                                    "grow",
                                    "enlarg", "expan", "increase", "progress", "worsen", "cortic", "cortex",
                                    "echo", "mature", "suspicious")):
        for pattern, term in _SIGNS:
            t = pattern.sub(term, t)
    for term in sorted(narrow & GRADES.keys()):  # "Marked cardiomegaly." where the options are grades of it
        t = _phrases_regex(frozenset(GRADES[term])).sub(term, t)
    words, abbrev, first = _synonym_words()
    tokens = set(TOKEN.findall(t))
    starts = sorted({w.casefold() for w in tokens} & first.keys())
    if starts:  # only the phrases whose first word occurs: one pass, whatever the reply's length
        def repl(m: re.Match[str]) -> str:
            term = words.get(re.sub(r"[\s\-]+", " ", m.group(0).casefold()), words.get(m.group(0).casefold()))
            if term is None:
                return m.group(0)
            if term in narrow or term not in BROADER:
                return term
            if OVERLAPS.get(term, frozenset()) & narrow:
                return "indeterminate-age"  # "Baby." with options Neonate and Pediatric: either
            return BROADER[term]

        t = _sub_phrases([first[w] for w in starts], repl, t)
    found = [a for a in abbrev if a in tokens]
    if found:
        t = re.sub(r"(?<![\w\-])(?:" + "|".join(found) + r")(?![\w\-])", lambda m: abbrev[m.group(0)], t)
    if not any(c.isupper() for c in t) and len(tokens) >= 3:  # batch 99: LLaVA's "bph, the prostate is big ..."
        lower = [a.lower() for a in abbrev if len(a) >= 3 and a not in _ALSO_WORDS and a.lower() in tokens]
        if lower:
            t = re.sub(r"(?<![\w\-])(?:" + "|".join(lower) + r")(?![\w\-])", lambda m: abbrev[m.group(0).upper()], t)
    return t


#: a sentence written all in lower case writes its abbreviations so too: one of three letters or more is read in lower
#: case there ("bph, the prostate is big"), except those that are also words ("cap", "ich" in German); not a lone
#: lower-case token ("nhl" may be the hockey league)
_ALSO_WORDS = frozenset({"AAA", "AMD", "CAP", "HAP", "ICH"})
