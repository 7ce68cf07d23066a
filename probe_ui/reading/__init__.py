"""The word lists and rules a careful reader of a model's reply uses, beside :func:`probe_ui.reading.answers.extract`.

Why a package: reading a reply needs several lists that users and maintainers extend without touching the rules
(refusal phrases, answer words in other languages, synonyms of option texts, escape options, the vocabulary of
modalities and body regions), and a few rules with a job of their own (the question's subject). Each module holds
one of them; :mod:`probe_ui.reading.answers` applies them in the order described in its docstring.

- :mod:`~probe_ui.reading.refusals`: the phrases that flag a reply as declining to answer;
- :mod:`~probe_ui.reading.lexicon`: answer words in other languages, escape options, idioms, chat-template
  debris;
- :mod:`~probe_ui.reading.synonyms`: synonyms and spelling variants of option and label texts, folded to one
  canonical form;
- :mod:`~probe_ui.reading.languages`: glosses of the answer words in Spanish, Portuguese, French, Italian, German
  and Chinese, read by :func:`~probe_ui.reading.lexicon.translate`;
- :mod:`~probe_ui.reading.overlap`: options named in other words than their own text (stems, abbreviations of the
  option's words, lay words, the parts of compound terms, more specific terms), and options rejected;
- :mod:`~probe_ui.reading.subject`: yes/no replies answered from the question's subject ("This is a CT scan."
  to "Is this an MRI?");
- :mod:`~probe_ui.reading.methods`: what each ``method`` of a reading means, in plain words.

The rules themselves, one module per job, applied by :mod:`probe_ui.reading.answers` in its rule order:

- :mod:`~probe_ui.reading.cleaning`: the reply cleaned before the rules; comparison forms, whole-word patterns,
  negation before a mention, masking;
- :mod:`~probe_ui.reading.item`: the item being read (labels, option texts, escape options, label words);
- :mod:`~probe_ui.reading.declarations`: rule 1, the reply's last explicit declaration;
- :mod:`~probe_ui.reading.attribution`: someone else's answer quoted in the reply, endorsed or not;
- :mod:`~probe_ui.reading.structured`: replies written to the answer schema (``{"answer": "B"}``), read as
  they stand;
- :mod:`~probe_ui.reading.boxed`: rule 2, ``\\boxed{X}`` and backticks;
- :mod:`~probe_ui.reading.marks`: a table or checklist that marks one answer (✓ beside one option, one box ticked);
- :mod:`~probe_ui.reading.letters`: option letters (lone, opening, closing) and letters whose text names another
  option;
- :mod:`~probe_ui.reading.options`: options named by their text, a word of their own, or their concepts;
- :mod:`~probe_ui.reading.words`: yes/no and label words;
- :mod:`~probe_ui.reading.presence`: rule 5, presence questions answered without yes or no;
- :mod:`~probe_ui.reading.verdicts`: the final verdict (self-corrections, conclusions, a closing label);
- :mod:`~probe_ui.reading.weighing`: what a reply only entertains, rejects, weighs or asks; a reply cut off;
- :mod:`~probe_ui.reading.escapes`: escape options stated in the reply's own words;
- :mod:`~probe_ui.reading.closings`: a closing declaration or verdict against the reply's own body;
- :mod:`~probe_ui.reading.sureness`: whether a reading is sure.
"""
