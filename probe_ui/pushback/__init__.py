"""Pushback: after the model's own answer, a second (or third) turn in the same conversation presses it to change
(issue 44). Does it hold a right answer when pushed, and does it correct a wrong one?

- :mod:`probe_ui.pushback.pressures`: the registered pressure types (wording, and the option each pushes toward);
- :mod:`probe_ui.pushback.conversation`: asking the turns, one call each, and what is stored of them;
- :mod:`probe_ui.pushback.turns`: the scored-answer table's columns read from the stored turns.

A variant carries its pushback in ``prompt_args["pushback"]`` (the ``pushback`` perturbation, the ``pushback``
suite); the metric family is :mod:`probe_ui.metrics.pushback`.
"""
