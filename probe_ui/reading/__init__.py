"""The word lists and rules a careful reader of a model's reply uses, beside :func:`probe_ui.answers.extract`.

Why a package: reading a reply needs several lists that users and maintainers extend without touching the rules
(refusal phrases, answer words in other languages, synonyms of option texts, escape options, the vocabulary of
modalities and body regions), and a few rules with a job of their own (the question's subject). Each module holds
one of them; :mod:`probe_ui.answers` applies them in the order described in its docstring.

- :mod:`~probe_ui.reading.refusals`: the phrases that flag a reply as declining to answer;
- :mod:`~probe_ui.reading.lexicon`: answer words in other languages, synonyms and spelling variants, escape
  options, idioms, chat-template debris;
- :mod:`~probe_ui.reading.subject`: yes/no replies answered from the question's subject ("This is a CT scan."
  to "Is this an MRI?");
- :mod:`~probe_ui.reading.methods`: what each ``method`` of a reading means, in plain words.
"""
