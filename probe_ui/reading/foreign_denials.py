"""Another language's "not" and "no": one home for the words, by where each counts.

Why: a reading comes from a word (a label, an option's text, what a yes/no question asks about); another language's
"not" written next to it ("Bukan anak-anak", "Dit is geen CT", "Cardiomegaly nahi hai.") turns it against the answer,
and the glosses of :mod:`probe_ui.reading.languages` do not read most of these words. Each pattern says where its words
count, because the same word is harmless elsewhere ("ne" is the Hausa copula, "ez" Hungarian "this", "Mitte" German
for the middle): :data:`NOT_ANYWHERE` anywhere in a reply read from a word, :data:`NOT_OPENING` in its first sentence,
:data:`GLOSSED_NOT` (German, which the glosses read) only for a reading that did not come through them, and
:data:`AFTER_NAME` right after the name it denies, closing its entry, and :data:`NOT_AFTER` (languages that put "not"
after the noun) just after what a yes/no question asks. The checks that use them only ever add a doubt
(:mod:`probe_ui.reading.sureness`, :mod:`probe_ui.reading.denials`).
"""

from __future__ import annotations

import re

__all__ = ["AFTER_NAME", "GLOSSED_NOT", "NOT_AFTER", "NOT_ANYWHERE", "NOT_OPENING"]

# "is not" in widely spoken languages whose glosses do not read it, before or after the noun it denies
# (Indonesian and Malay "bukan"; Korean "아니다", "아닙니다", "아님", "아닌"; Turkish "değil"; Arabic "ليس"; Chinese
# "非" (not "非常", very, nor "并非", which the glosses read); Japanese "ではない", "ではありません", "じゃない";
# Vietnamese "không phải"): a label read from a word of the reply may be the one denied ("Jawaban akhir: bukan
# anak-anak", "소아가 아닙니다. 성인입니다.", hostile review of batches 80-83). Not a verb's negation
# ("성장판이 아직 닫히지 않았습니다", the growth plates have not closed; Indonesian "tidak"), which denies something
# else
NOT_ANYWHERE = re.compile(r"(?i)(?<!\w)(?:bukan|tidak(?=[ \t]+(?:anak|dewasa|lansia|orang[ \t]+tua))|de[gğ]il\w*|"
                          r"kh[oô]ng\s+ph[aả]i|\u0644\u064a\u0633\u062a?|"
                          # a hostile review of held-out batch 135's Vietnamese words: "chưa" (not yet), "không" (not),
                          # "chẳng", "nếu" (if), "khác" (unlike), "giống" (like), "thì" (as for), "thường" (usually),
                          # "gần như" (almost), "khó mà" (hardly), "ở trẻ em" (in children): a Vietnamese reply read
                          # from its word is sure only where it has none of them
                          r"không|chưa|chẳng|nếu|khác|giống|thì|thường|gần\s+như|khó\s+mà|ở\s+(?:trẻ|người)|"
                          # batch 90: Russian "не" (not: "Это не ребёнок.", this is not a child)
                          r"\u043d\u0435)(?!\w)"
                          r"|(?<!\u5e76)\u975e(?!\u5e38)"
                          r"|\uc544[\ub2c8\ub2d9\ub2d8\ub2cc]|(?:\u3067\u306f|\u3058\u3083)(?:\u306a|\u3042\u308a\u307e\u305b\u3093)")


# a second review of 2026-12 and a reader check after it: "Nije dijete, odrasla osoba." (not a child, an adult) read
# child, sure: the words for "not" of more languages (Croatian, Serbian, Polish, Slovak, Ukrainian, Dutch, Afrikaans,
# Icelandic, Swedish, Danish, Norwegian, Hebrew, Hindi, Arabic, Hungarian, Portuguese, Swahili, Setswana, Basque,
# Greek, Welsh, Latvian), in the reply's first sentence only, where the answer word stands (a body's findings deny
# much: "..., теней молочных желёз нет", no breast shadows); not "ne", the Hausa copula ("Namiji ne.", it is a man).
# A reader check of 2026-12-06 (85 denials in 40 languages): Czech "není" ("Není to dítě, je to dospělý." read child,
# sure), Kazakh, Kyrgyz and Uzbek "емес", "эмес", "emas", Azerbaijani "deyil", Mongolian "биш", Albanian "nuk",
# Maltese "mhux", "mhix", Somali "ma aha", Igbo "bụghị" (a review of that list: Zulu "akusiyo", Sorani "نییە",
# Sesotho "hase", Māori "ehara", Hiligaynon "indi", Cebuano "dili", Mauritian Creole "pa" opening the reply; not
# Estonian "mitte", which is German "Mitte", the middle); Tagalog "hindi" where it opens the reply
# ("Hindi bata, matanda na.", not a child, an adult; not the language's name, "Hindi: ..."), and Hausa's "ba ... ba"
# round the word it denies ("Ba yaro ba ne, babba ne."); Dutch "nee", Swedish and Danish "nej", and "ne" where it
# opens the reply ("Ne pneumotoraks, već pleuralni izljev.", Croatian, read Pneumothorax, sure); the "there is no" of
# Tagalog ("Walang cardiomegaly." to "Is the heart enlarged?" read yes, sure), Turkish, Hungarian, Polish, Chinese,
# Japanese and Korean
NOT_OPENING = re.compile(r"(?i)(?<!\w)(?:nije|nisu|nie|ні|niet|geen|ekki|inte|ikke|ikkje|לא|אינו|אינה|אין|"
                         r"नहीं|नही|لا|غير|nem|sio|siyo|haiyo|hakuna|ga\s+se|ha\s+se|ez|δεν|όχι|nid|nav|"
                         r"není|nejsou|емес|эмес|emas|emes|deyil|биш|nuk|mhux|mhix|ma\s+aha|bụghị|ei|ní|"
                         r"nee|nej|walang|wala|yok|nincs|nincsenek|brak|akusiyo|akuyona|asiyo|نییە|hase|ehara|"
                         r"indi|dili)(?!\w)"
                         r"|没有|沒有|なし|없"
                         r"|^(?:hindi|ne|pa)(?=[ \t]+[^\W\d_])"
                         r"|(?<!\w)ba(?=[ \t]+[^\W\d_]+(?:[ \t]+[^\W\d_]+){0,2}[ \t]+ba\b)")


# German "not", which the glosses read ("Nicht rot, sondern grün." is green, sure): a doubt only for a reading that
# did not come through them ("Kein Pneumothorax, sondern ein Pleuraerguss." read Pneumothorax, an English word, sure;
# a reader check of 2026-12-06)
GLOSSED_NOT = re.compile(r"(?i)(?<!\w)(?:kein|keine|keinen|keinem|keiner|nicht|nein)(?!\w)")

# another language's "no" after the name, closing the entry ("Cardiomegaly nahi hai.", "Cardiomegaly mei you.",
# "Cardiomegaly wala.", "Cardiomegaly hakuna.", "Pleural effusion: 없음", "Pleural effusion: keine", "CT — nie.",
# "Neumotórax descartado."; not "Ja, CT, kein MRT.", "X-ray ng kamay ito, walang bali.", no fracture)
AFTER_NAME = (r"(?:ausgeschlossen|descartad[oa]|exclue?s?|escluso|uitgesloten|n[a\u00e3]o|nie|ne|nein|keine?|"
              r"nej|nee|nahi?n?(?:[ \t]+hai)?|mei[ \t]*you|wala(?:ng)?|hakuna|hay[\u0131i]r|\u043d\u0435\u0442|"
              r"\uc5c6\uc74c|\uc5c6\uc2b5\ub2c8\ub2e4|\u4e0d\u662f|\u65e0|\u6ca1\u6709)")

# a "not" written after the word it denies, for a yes/no question's subject (Turkish "değil", Korean "아님", "아닙니다",
# Japanese "ではない", "じゃない", Bengali "নয়", "না", Hindi "नहीं"): "CT değil.", "CT 아님.", "CT নয়।" to "Is this a
# CT?" read yes, sure (a black-box check of 2026-12-06)
NOT_AFTER = re.compile(r"(?i)(?<!\w)(?:de[gğ]il\w*|\u09a8\u09df|\u09a8\u09af\u09bc|\u09a8\u09be|"
                       r"\u0928\u0939\u0940\u0902|\u0928\u0939\u0940)(?!\w)"
                       r"|\uc544[\ub2c8\ub2d9\ub2d8\ub2cc]|(?:\u3067\u306f|\u3058\u3083)(?:\u306a|\u3042\u308a\u307e\u305b\u3093)")
