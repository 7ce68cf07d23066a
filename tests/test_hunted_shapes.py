"""Replies in shapes two black-box checks of 2026-12-06 found read surely and wrongly (rev33: 618 probes, 149 sure
errors by its own count; rev34, on the code after the first: 542 probes, 116): each "guess" case below was read sure
before and must now be a guess (its best guess kept, or no reading), and each "sure" case is a reply in a near shape
that keeps its sure reading (issue 46)."""
from __future__ import annotations

import pytest

from probe_ui.reading.answers import extract

YN = ("yes", "no")
_CHOICE = {
    "dx": ("What is the most likely diagnosis?", ("Pneumothorax", "Pleural effusion", "Pneumonia", "Atelectasis")),
    "dr": ("Does this fundus photograph show proliferative or non-proliferative diabetic retinopathy?",
           ("Proliferative diabetic retinopathy", "Non-proliferative diabetic retinopathy")),
    "hydro": ("Is the hydrocephalus in this image communicating or non-communicating?",
              ("Communicating hydrocephalus", "Non-communicating hydrocephalus")),
    "kidney": ("Which kidney shows hydronephrosis?", ("The left kidney", "The right kidney")),
    "ptx": ("Is there a pneumothorax?", ("No", "Yes")),
    "heart": ("Is the cardiac silhouette enlarged?", ("Yes", "No")),
    "nodule": ("Is a pulmonary nodule present in the right upper lobe?", ("Present", "Absent")),
    "fluid": ("Does this image show free fluid in Morison's pouch?", ("Free fluid is present", "No free fluid")),
    "edema": ("Is the edema vasogenic or cytotoxic?", ("Vasogenic edema", "Cytotoxic edema")),
    "child": ("Is this radiograph of a child or an adult?", ("Child", "Adult")),
    "chest": ("What is the main finding on this chest radiograph?",
              ("Cardiomegaly", "Pneumothorax", "Pleural effusion", "Normal study")),
    "bone": ("A 14-year-old boy has knee pain at night; the radiograph of the distal femur is shown. What is the most "
             "likely diagnosis?", ("Osteosarcoma", "Ewing sarcoma", "Osteomyelitis", "Osgood-Schlatter disease")),
    "teeth": ("How many wisdom teeth can be seen in this X-ray image?", ("0", "2", "3", "4")),
    "size": ("How would you describe the heart size?", ("Normal", "Mildly enlarged", "Severely enlarged")),
}
_YESNO = {"ptx": "Is there a pneumothorax in this chest x-ray? (please answer yes/no)",
          "ct": "Is this a CT scan? (please answer yes/no)",
          "heart": "Is the heart enlarged in this radiograph? (please answer yes/no)",
          "effusion": "Is pleural effusion present in the given chest x-ray? (please answer yes/no)",
          "fracture": "Is there a fracture in this radiograph? (please answer yes/no)",
          "abn": "Does this ct scan show any abnormality of the brain? (please answer yes/no)",
          "cbd": "Is the common bile duct dilated? (please answer yes/no)",
          "liver": "Is the liver cirrhotic? (please answer yes/no)",
          "rll": "Is there consolidation in the right lower lobe? (please answer yes/no)",
          "spleen": "Is the spleen enlarged? (please answer yes/no)"}
_ORIENT = ("Is this X-ray image in its correct anatomical orientation or upside down? (Answer with 'correct' if it is "
           "properly oriented, or 'upside down' if it has been rotated 180 degrees.)", ("correct", "upside down"))


def _read(reply: str, item: str) -> tuple[str | None, bool]:
    if item.startswith("yn:"):
        a = extract(reply, "yesno", YN, (), question=_YESNO[item[3:]])
    elif item == "orient":
        a = extract(reply, "label", _ORIENT[1], (), question=_ORIENT[0])
    else:
        question, options = _CHOICE[item]
        a = extract(reply, "choice", tuple("ABCD"[:len(options)]), options, question=question)
    return a.choice, a.sure


@pytest.mark.parametrize(("reply", "item"), [
    # what is left open, said not to be excluded (read as a sure no)
    ("Not excluded.", "yn:ptx"), ("Not ruled out on this view.", "yn:ptx"), ("Not able to exclude.", "yn:ptx"),
    ("Not clearly absent.", "yn:ptx"), ("Not excluded; correlate with lateral view.", "yn:effusion"),
    ("Not excluded.", "nodule"),
    # a radiologist's query, "?" before what is only queried (read as the queried option)
    ("Pneumonia ?atelectasis", "dx"), ("C (?D)", "dx"), ("B, ?C", "dx"), ("?Pneumonia", "dx"),
    # an answer for each image, view, time or reader (read as the last)
    ("Image 1: A. Image 2: C.", "dx"), ("Axial: B. Coronal: C.", "dx"), ("Reader 1: B. Reader 2: C.", "dx"),
    ("Frontal view: no. Lateral view: yes.", "yn:effusion"), ("Image 1: correct\nImage 2: upside down", "orient"),
    # one entry that calls an option's thing normal, absent or false (read as that option)
    ("Proliferative: no.", "dr"), ("Communicating: false", "hydro"), ("Left kidney: normal.", "kidney"),
    ("Pneumothorax: false", "ptx"), ("Enlarged: 0", "heart"), ("Properly oriented: false.", "orient"),
    # a boolean, an empty box or a symbol against the finding asked
    ('{"pneumothorax": 0}', "yn:ptx"), ("PTX: 0", "yn:ptx"), ("Pneumothorax ❎", "yn:ptx"),
    ("Cardiomegaly ☐", "yn:heart"), ("Cardiomegaly [ ]", "yn:heart"), ("CT 🚫", "yn:ct"), ("≠ CT", "yn:ct"),
    # a question echoed and answered (read as the echo's own words)
    ("Absent? No.", "nodule"), ("No free fluid? Incorrect — there is fluid.", "fluid"),
    ("Upside down? That's correct.", "orient"),
    # a low confidence, in numbers
    ("Answer: B\nConfidence: 20%", "dx"), ("B — confidence: 2/10", "dx"), ("Answer: B. Confidence: 1/5.", "dx"),
    ("Yes (confidence: 20%)", "yn:ptx"), ("No — 30% sure.", "yn:ptx"), ("Yes (30%).", "yn:ptx"),
    ("Answer: yes\nProbability: 0.2", "yn:ptx"), ("Yes, ~20% probability.", "yn:ptx"), ("50:50 — yes.", "yn:ptx"),
    ("B (30%), C (25%), D (25%), A (20%)", "dx"),
    ("Most likely: B (40%). Next: C (35%).", "dx"),  # (a guess already: kept so by the reading of "B (60%), C (10%)")
    # an answer given grudgingly
    ("Atelectasis, if anything.", "dx"), ("Atelectasis at most.", "dx"), ("Atelectasis, at a push.", "dx"),
    ("Pneumonia, for lack of a better option.", "dx"), ("C, but that's a shot in the dark.", "dx"),
    ("Pneumonia, allegedly.", "dx"),
    # another language's "not" after the noun
    ("CT değil.", "yn:ct"), ("CT 아님.", "yn:ct"), ("CT입니다. MRI 아님.", "yn:ct"),
    # "Yes, <another distinct finding>" to a question about one finding
    ("Yes, there's a pneumothorax.", "yn:effusion"), ("Yes, a pleural effusion.", "yn:ptx"),
    # (rev34) a judgement the reply will not make, of the answer read
    ("I would not describe the liver as cirrhotic.", "yn:liver"), ("It would be a stretch to call it enlarged.",
                                                                   "yn:heart"),
    ("Not what I'd call dilated.", "yn:cbd"), ("I would not describe the cardiac silhouette as enlarged.", "heart"),
    ("I wouldn't say it's upside down.", "orient"), ("I'd be hard-pressed to say no.", "yn:ptx"),
    # a study normal except for a finding
    ("Normal radiograph apart from a subtle distal radius fracture.", "yn:fracture"),
    ("Unremarkable except for a small subdural hematoma.", "yn:abn"),
    ("Normal study except for a small right apical pneumothorax.", "chest"),
    ("Heart size would be normal were it not for the mild enlargement of the left ventricle.", "size"),
    # a ranked differential on one line, read as its last entry
    ("Differential diagnosis: 1. Pneumonia 2. Atelectasis 3. Pleural effusion", "dx"),
    ("DDx: 1. Osteosarcoma 2. Ewing sarcoma 3. Osteomyelitis", "bone"),
    # a finding named as gone
    ("The right lower lobe consolidation has resolved.", "yn:rll"), ("Previously enlarged, now normal.", "yn:heart"),
    # a denial scoped by a qualifier, then the finding
    ("No tension pneumothorax. Small right apical pneumothorax.", "yn:ptx"),
    ("No acute abnormality; there is an old left MCA infarct.", "yn:abn"),
    # a count given in parts
    ("Two upper and two lower wisdom teeth.", "teeth"), ("Two wisdom teeth on each side.", "teeth"),
    # (the count closing its sentence: "2." was not counted)
    ("Upper jaw: 2. Lower jaw: 2.", "teeth"), ("Upper jaw: 2, lower jaw: 2.", "teeth"),
    # cut off before what is seen is named
    ("There is a", "yn:ptx"), ("I see no", "yn:ptx"), ("There is a small", "yn:fracture"),
    # an answer given grudgingly, "if anything" opening the reply (a trailing word boundary after the comma kept it
    # from matching)
    ("If anything, atelectasis.", "dx"),
    # a yes, then a mimic it could be
    ("Yes, there is a thin pleural line at the apex, although this could also represent a skin fold.", "yn:ptx"),
])
def test_a_reply_in_a_hunted_shape_is_no_sure_reading(reply: str, item: str) -> None:
    choice, sure = _read(reply, item)
    assert not sure, (choice, sure)


@pytest.mark.parametrize(("reply", "item", "choice"), [
    ("No pneumothorax.", "yn:ptx", "no"),
    ("Pneumonia? No. Atelectasis.", "dx", "D"),
    ("Child? No, adult.", "child", "B"),
    ("Vasogenic? No.", "edema", "B"),
    ("Answer: B\nConfidence: 90%", "dx", "B"),
    ("Yes (90%).", "yn:ptx", "yes"),
    ("A 5%, B 80%, C 10%, D 5%", "dx", "B"),
    ("B (60%), C (10%)", "dx", "B"),
    ("Answer: none", "fluid", None),
    ("Frontal view: small left effusion. Answer: B", "dx", "B"),
    ("Pneumothorax: yes", "yn:ptx", "yes"),
    ("Pneumothorax: no", "yn:ptx", "no"),
    ("Evet, CT. MR değil.", "yn:ct", "yes"),
    ("Yes, there is a small pneumothorax at the left apex.", "yn:ptx", "yes"),
    ("Is it pneumonia? Yes: C.", "dx", "C"),
    ("CLINICAL INDICATION: cough. Query pneumonia.\nIMPRESSION: Right lower lobe pneumonia. Answer: C.", "dx", "C"),
    ("I wouldn't call it cardiomegaly.", "yn:heart", "no"),
    ("I wouldn't call it enlarged.", "heart", "B"),
    ("Differential: 1. Pneumonia 2. Atelectasis 3. Pleural effusion. Answer: C.", "dx", "C"),
    ("The effusion persists.", "yn:effusion", "yes"),
    ("No pneumothorax. Small left pleural effusion.", "yn:ptx", "no"),
    ("In this 25-year-old, four wisdom teeth are present.", "teeth", "D"),
    ("Yes, there is.", "yn:ptx", "yes"),
    ("Yes there is", "yn:ptx", "yes"),
    ("No effusion. Normal apart from mild cardiomegaly.", "yn:effusion", "no"),
    ("4.", "teeth", "D"), ("2.", "teeth", "B"), ("Step 4. Count: 4.", "teeth", "D"),
    ("4 — all four present, two in the maxilla and two in the mandible.", "teeth", "D"),
    ("Far from it — if anything, the heart is small.", "yn:heart", "no"),
])
def test_a_reply_in_a_near_shape_keeps_its_reading(reply: str, item: str, choice: str | None) -> None:
    got, sure = _read(reply, item)
    assert got == choice and (sure or choice is None), (got, sure)
