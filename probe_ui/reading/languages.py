"""Glosses of the words a reply in another language answers with: Spanish, Portuguese, French, Italian, German,
Chinese, and a few of a Japanese report's (batch 81).

Why: models drift into the language of the prompt or of their training data ("No se observa líquido libre.",
"Nessuna frattura.", "Die Frage enthält eine falsche Prämisse.", "实性结节。"). A careful reader who knows these
languages reads the same answer as in English; the rules of :mod:`probe_ui.reading.answers` read English. So the words a
reply needs to be understood (negation and quantifiers, "present"/"seen", the answer and question words, the
escape options' words, and the common findings and attributes the benchmarks ask about) are glossed word by word
to English by :func:`probe_ui.reading.lexicon.translate`; the rules then read the gloss. Medical terms that share
their Greek or Latin stem with English ("pseudoaneurisma") need no gloss: the option reader compares stems
(:mod:`probe_ui.reading.overlap`).

Each table is plain data, one language each: foreign word or phrase (lower case, as written, accents included) →
English. Phrases are matched before their words. Words that are also English words ("die", "come", "per", "son",
"a") are left out on purpose: a gloss must never change an English reply. To add a word, add it to its language
with a test reply.
"""

from __future__ import annotations

__all__ = ["GLOSSES"]

GLOSSES: dict[str, dict[str, str]] = {
    "es": {
        # negation, quantifiers, joining words
        "ninguna de las dos": "neither", "ninguno de los dos": "neither", "ninguna de las": "none of the",
        "ninguno de los": "none of the", "ninguna de": "none of", "ninguno de": "none of", "ninguna": "no",
        "ninguno": "no", "ningún": "no", "sin": "without", "nada": "nothing", "ni": "nor", "y": "and",
        "ambas": "both", "ambos": "both", "presencia": "presence", "enfermedad de lyme": "lyme disease",
        "enfermedad": "disease", "eritema": "erythema", "migratorio": "migrans", "migrante": "migrans",
        # seeing and presence
        "se observa": "seen", "se observan": "seen", "se ve": "seen", "se ven": "seen", "se aprecia": "seen",
        "se aprecian": "seen", "se identifica": "seen", "presente": "present",
        "ausente": "absent",
        # the answer, the question, the escape options
        "pregunta": "question", "imagen": "image", "adecuada": "suitable", "adecuado": "suitable",
        "apropiada": "suitable", "apropiado": "suitable", "premisa": "premise", "falsa": "false", "falso": "false",
        "incorrecta": "incorrect", "incorrecto": "incorrect", "errónea": "wrong", "erróneo": "wrong",
        "contiene": "contains", "anteriores": "above", "respuestas": "answers", "opciones": "options",
        "médico": "physician", "más probable": "most likely", "para": "for", "esta": "this", "este": "this",
        # findings and attributes
        "líquido": "fluid", "libre": "free", "fractura": "fracture", "sólido": "solid", "sólida": "solid",
        "quístico": "cystic", "quística": "cystic", "quiste": "cyst", "nódulo": "nodule", "fase": "phase",
        "venosa": "venous", "venoso": "venous", "empeoramiento": "worsening",
        "estable": "stable", "anciano": "elderly", "anciana": "elderly", "cadera": "hip", "caderas": "hips",
        "pulmón": "lung", "pulmones": "lungs", "orientación": "orientation", "aneurisma": "aneurysm",
        "pseudoaneurisma": "pseudoaneurysm", "hemorragia": "hemorrhage", "derrame": "effusion",
        "neumotórax": "pneumothorax", "normalidad": "normal",
        "agrandado": "enlarged", "aumentado": "enlarged", "dilatado": "dilated",
        # batch 114: a dermoscopy differential ("**Nevo melanocítico:** retículo regular ...", "**Queratosis actínica:**
        # ...", "**Lesión vascular:** ...")
        "nevo melanocítico": "melanocytic nevus", "nevo": "nevus", "queratosis actínica": "actinic keratosis",
        "lesión vascular": "vascular lesion", "melanocítico": "melanocytic",
    },
    "pt": {
        "nenhuma das": "none of the", "nenhum dos": "none of the", "nenhuma": "no", "nenhum": "no",
        "sem": "without", "nem": "nor", "ambos": "both", "ambas": "both", "presença": "presence",
        "doença de lyme": "lyme disease", "doença": "disease", "eritema": "erythema", "migratório": "migrans",
        "observa-se": "seen",
        # batch 87: "Hidrocefalia não comunicante: o quarto ventrículo é pequeno, ..."
        "hidrocefalia": "hydrocephalus", "não comunicante": "non-communicating", "comunicante": "communicating",
        # a hostile review of batch 87: "A hidrocefalia não é comunicante", "Não é hidrocefalia comunicante" (is not)
        "não é": "is not",
        "não há": "there is no", "há": "there is", "ausente": "absent",
        "pergunta": "question", "imagem": "image", "adequada": "suitable", "adequado": "suitable",
        "apropriada": "suitable", "premissa": "premise", "incorreta": "incorrect", "incorreto": "incorrect",
        "errada": "wrong", "errado": "wrong", "contém": "contains", "acima": "above", "respostas": "answers",
        "opções": "options", "correta": "correct", "correto": "correct", "orientação": "orientation",
        "líquido": "fluid", "livre": "free", "fratura": "fracture", "sólido": "solid", "sólida": "solid",
        "cístico": "cystic", "cística": "cystic", "cisto": "cyst", "nódulo": "nodule", "fase": "phase",
        "venosa": "venous", "piora": "worsening", "agravamento": "worsening", "estável": "stable",
        "idoso": "elderly", "idosa": "elderly", "quadril": "hip", "pulmão": "lung", "pneumotórax": "pneumothorax",
        "derrame": "effusion", "hemorragia": "hemorrhage", "aumentado": "enlarged", "dilatado": "dilated",
        "nevo melanocítico": "melanocytic nevus", "nevo": "nevus", "queratose actínica": "actinic keratosis",
        "lesão vascular": "vascular lesion", "melanocítico": "melanocytic",
    },
    "fr": {
        "aucune des": "none of the", "aucun des": "none of the", "aucune": "no", "aucun": "no", "sans": "without",
        "il y a": "there is", "on observe": "seen", "les deux": "both", "présence": "presence", "cette": "this",
        "maladie de lyme": "lyme disease", "maladie": "disease", "érythème": "erythema", "migrant": "migrans",
        "présent": "present", "présente": "present",
        "absente": "absent",
        "adaptée": "suitable", "adaptée à": "suitable for", "appropriée": "suitable", "prémisse": "premise",
        "fausse": "false", "incorrecte": "incorrect", "erronée": "wrong", "contient": "contains",
        "ci-dessus": "above", "réponses": "answers", "médecin": "physician", "la plus probable": "most likely",
        "liquide": "fluid", "épanchement": "effusion", "kystique": "cystic", "kyste": "cyst", "solide": "solid",
        "veineuse": "venous", "artérielle": "arterial",
        # batch 15: the portal phase said the French way ("Phase portale : ...")
        "phase portale": "portal venous phase", "temps portal": "portal venous phase",
        "aggravation": "worsening", "âgé": "elderly",
        "âgée": "elderly", "hanche": "hip", "poumon": "lung", "œdème": "edema", "oedème": "edema",
        "tumeur": "tumor", "hémorragie": "hemorrhage", "agrandi": "enlarged", "dilaté": "dilated",
    },
    "it": {
        "nessuna delle": "none of the", "nessuno dei": "none of the", "nessuna": "no", "nessuno": "no",
        "nessun": "no", "senza": "without", "non": "not", "entrambe": "both", "entrambi": "both",
        "le anche": "the hips", "presenza": "presence", "malattia di lyme": "lyme disease", "malattia": "disease",
        "eritema": "erythema", "migrante": "migrans",
        "si osserva": "seen", "si osservano": "seen", "c'è": "there is", "assente": "absent",
        "domanda": "question", "immagine": "image", "adatta": "suitable", "adatto": "suitable",
        "appropriata": "suitable", "premessa": "premise", "errata": "wrong", "errato": "wrong",
        "sbagliata": "wrong", "sbagliato": "wrong", "contiene": "contains", "precedenti": "above",
        "risposte": "answers", "opzioni": "options", "giusta": "correct", "giusto": "correct",
        "liquido": "fluid", "libero": "free", "frattura": "fracture", "solido": "solid", "solida": "solid",
        "cistico": "cystic", "cistica": "cystic", "cisti": "cyst", "nodulo": "nodule", "portale": "portal",
        "arteriosa": "arterial", "peggioramento": "worsening", "stabile": "stable", "anziano": "elderly",
        "anziana": "elderly", "anca": "hip", "polmone": "lung", "pneumotorace": "pneumothorax",
        "versamento": "effusion", "emorragia": "hemorrhage", "tumore": "tumor", "ingrandito": "enlarged",
        "dilatato": "dilated",
    },
    "de": {
        "keiner der": "none of the", "keine der": "none of the", "ohne": "without", "weder": "neither",
        "und": "and", "beide": "both", "beiden": "both", "vorhandensein": "presence",
        "lyme-borreliose": "lyme disease", "krankheit": "disease", "es gibt": "there is", "vorhanden": "present",
        "sichtbar": "visible",
        "frage": "question", "bild": "image", "geeignet": "suitable", "passend": "suitable",
        "prämisse": "premise", "falsch": "false", "falsche": "false", "falschen": "false", "falscher": "false",
        "enthält": "contains", "obigen": "above", "antworten": "answers", "arzt": "physician",
        "ärztin": "physician", "flüssigkeit": "fluid", "freie": "free", "freier": "free", "fraktur": "fracture",
        "bruch": "fracture", "solide": "solid", "zystisch": "cystic", "zystische": "cystic", "zyste": "cyst",
        "knoten": "nodule", "portalvenös": "portal venous", "portalvenöse": "portal venous",
        "portalvenösen": "portal venous", "venös": "venous", "venöse": "venous", "arteriell": "arterial",
        "arterielle": "arterial", "arteriellen": "arterial", "verschlechterung": "worsening", "stabil": "stable",
        "älter": "elderly", "ältere": "elderly", "älterer": "elderly", "hüfte": "hip",
        "erguss": "effusion", "ödem": "edema", "vergrößert": "enlarged", "erweitert": "dilated",
        "ausrichtung": "orientation",
    },
    # batch 81: a Japanese report's impression ("印象：脾腫あり。", impression: splenomegaly present)
    "ja": {
        "脾腫": "splenomegaly", "あり": "present", "なし": "absent", "所見": "findings",
        # batch 94: "...を示す所見はありません" (there are no findings that show ...), not "present"
        "ありません": "absent",
        # batch 115: Tosa "骨折はないぜよ。" (there is no fracture; "はない", the topic denied, in every dialect)
        "はない": " absent",
        # (not "疑いはない", there is no doubt, nor "間違いはない", no mistake: a review of efc4f03)
        "疑いはない": " certainly ", "間違いはない": " certainly ",
    },
    "zh": {
        "我同意": "I agree", "同意": "agree", "医生的": "physician's", "医师的": "physician's", "医生": "physician",
        "医师": "physician",
        # held-out batch 149: "我不同意医生给出的答案（A，粘连）。正确答案应为 C，..." (I disagree with the answer the
        # physician gave (A, adhesions). The correct answer should be C, ...)
        "我不同意": " I disagree with ", "不同意": " disagree with ", "给出的答案": "'s answer ",
        # (not "不同意见", different opinions, nor "不同意义", a different meaning)
        "不同意见": " other opinions ", "不同意义": " other meaning ",
        # (and a judgement of it: "医生给出的答案（A，粘连）是对的" (the answer the physician gave is right))
        "是对的": " is correct ", "是正确的": " is correct ", "不正确": " is not correct ", "是错的": " is wrong ",
        "是错误的": " is wrong ",
        "正确答案应为": " the correct answer is ",
        "实性": "solid", "囊性": "cystic", "结节": "nodule", "积液": "fluid", "游离": "free", "骨折": "fracture",
        "门静脉期": "portal venous phase", "动脉期": "arterial phase", "稳定": "stable", "加重": "worsening",
        "老年": "elderly", "老人": "elderly", "髋关节": "hip", "肺": "lung", "问题": "question", "前提": "premise",
        "错误的": "false", "错误": "false", "以上都不是": "none of the above", "都不是": "none of them",
    },
}
