"""Live probing: one item typed in by a person, its perturbed variants, and answers streamed back as they arrive.

This is the library behind the app's Probe tab (and usable from Python): build an item from form fields, turn a
table of perturbation steps into variants, ask several models at once and yield a card per model x variant as each
answer lands. Every answer is stored the moment it arrives, in a run of its own, so closing the page or killing the
app loses nothing that had finished.

One module per job; this package re-exports their public names, so ``from probe_ui import live`` and
``live.run_live`` work as before:

- :class:`probe_ui.errors.ProbeError`: what to fix and the page's field it belongs to;
- :mod:`~probe_ui.live.images`: loading an upload, describing it, the window / frame / slice controls;
- :mod:`~probe_ui.live.fields`: the item's fields (options, answer choices) and :func:`build_item`;
- :mod:`~probe_ui.live.steps`: the perturbation steps table (parse, add, clicks), variants, preview, steps in words;
- :mod:`~probe_ui.live.preset_item`: a preset's item ids and one preset item, whole;
- :mod:`~probe_ui.live.stored_run`: what the page reads back from a stored run (ratings, models not yet asked, the
  comparison table);
- :mod:`~probe_ui.live.asking`: :class:`Card`, :class:`LiveRun` and :func:`run_live`, asking the models.

A test that patches one of these names patches it in the module that holds it (``probe_ui.live.asking.X``), not here.
"""

from __future__ import annotations

from probe_ui.errors import ProbeError
from probe_ui.live.asking import Card, LiveRun, live_run_name, run_live
from probe_ui.live.fields import answer_after_options, answer_choices, build_item, edit_options, parse_options
from probe_ui.live.images import (
    WINDOW_PRESETS,
    WINDOWED,
    ImageControls,
    controls_for,
    describe_loaded,
    load_new_image,
    load_upload,
    reload_image,
    take_upload,
)
from probe_ui.live.preset_item import LoadedItem, load_preset_item, preset_item_ids
from probe_ui.live.steps import (
    CLICKABLE,
    STEP_COLUMNS,
    Step,
    add_click,
    add_step,
    condition_name,
    default_parameters,
    make_variants,
    named_chains,
    param_specs,
    parse_steps,
    preview,
    steps_in_words,
    steps_without_points,
    values_from_controls,
    with_pending_points,
)
from probe_ui.live.stored_run import asked_about, carry_ratings, not_yet_run, rating_of, ratings_of
from probe_ui.runner import BatchError

__all__ = [
    "BatchError", "CLICKABLE", "Card", "ImageControls", "LiveRun", "LoadedItem", "ProbeError", "STEP_COLUMNS", "Step",
    "WINDOWED", "WINDOW_PRESETS", "add_click", "add_step", "answer_after_options", "answer_choices", "asked_about",
    "build_item", "carry_ratings", "condition_name", "controls_for", "default_parameters",
    "describe_loaded", "edit_options", "live_run_name", "load_new_image", "load_preset_item", "load_upload",
    "make_variants", "named_chains", "not_yet_run", "param_specs", "parse_options", "parse_steps", "preset_item_ids",
    "preview", "rating_of", "ratings_of", "reload_image", "run_live", "steps_in_words", "steps_without_points",
    "take_upload", "values_from_controls", "with_pending_points",
]
