"""Stress tab: a suite, or a severity sweep of one perturbation, over the Probe tab's item or a preset's items.

While answers arrive: the comparison table fills, each model's summary (what broke, correctness flip rate, the
suite's metrics) updates, and for a sweep the robustness curve per model (accuracy per level with its 95 % band) grows.
Before Run the page says how many calls the run makes and, where prices are known, what it may cost. After a
sweep, an item's breaking image (the first level that changed its answer) is shown beside its original.
Orchestration is the library's (:func:`probe_ui.stress.run_stress`, :func:`probe_ui.stress.run_sweep`);
cells open the same detail view as the Probe tab's.
"""

from __future__ import annotations

import threading
from html import escape
from typing import Any

import gradio as gr
import pandas as pd

from probe_ui import labels, live
from probe_ui import stress as stress_runs
from probe_ui.app import detail
from probe_ui.app.access import who
from probe_ui.app.common import (
    Inline,
    chosen_models,
    inline_errors,
    model_menu,
    ready_models,
    scroll_to_js,
    seed_of,
)
from probe_ui.app.context import AppContext
from probe_ui.app.latest import Latest
from probe_ui.app.plot_view import plot_box
from probe_ui.app.queues import model_event, off_pool
from probe_ui.app.tabs import AppTab, register_tab
from probe_ui.live.form import ProbeForm
from probe_ui.metrics.registry import glossary_html
from probe_ui.presets import load_preset
from probe_ui.presets.suites import SUITES, default_levels, describe_suites, sweep_perturbations
from probe_ui.runner.spend import SpendStopped
from probe_ui.views import stress

ITEM = "the Probe tab's item"
PRESET = "a preset"
ALL_ITEMS = "(every item)"
SUITE, SWEEP = "a suite", "a severity sweep of one perturbation"
POLL_S = 0.7


def build(ctx: AppContext, probe: dict[str, Any], tab: gr.Tab) -> None:
    from probe_ui.app.probe_inputs import image_thumbs

    thumbs = image_thumbs(ctx)
    gr.Markdown("Ask a stress suite, or a sweep of one degradation at rising severity, of the Probe tab's item or "
                "a preset's items. Each row is a variant, each column a model; a dark red cell is an answer that "
                "**broke**: wrong, although the same model got the item's original right. Click a cell for the "
                "exact prompt and reply.")
    with gr.Row():
        source = gr.Radio([ITEM, PRESET], value=ITEM, label="items", elem_id="stress-source")
        preset = gr.Dropdown(label="preset", choices=ctx.preset_paths(""), value=None, elem_id="stress-preset",
                             allow_custom_value=True)
        item = gr.Dropdown(label="item of the preset", choices=[ALL_ITEMS], value=ALL_ITEMS, elem_id="stress-item",
                           allow_custom_value=True)
        seed = gr.Number(label="seed", value=0, precision=0, elem_id="stress-seed")
    with gr.Row():
        mode = gr.Radio([SUITE, SWEEP], value=SUITE, label="what to apply", elem_id="stress-mode")
        suite = gr.Dropdown(label="suite", choices=labels.choices(list(SUITES), kind="suite"), value="rotations",
                            elem_id="stress-suite")
        pert = gr.Dropdown(label="perturbation to sweep", choices=list(sweep_perturbations()), value="blur",
                           visible=False, elem_id="stress-sweep")
        levels = gr.CheckboxGroup(label="levels (severity 1-5; degrees for rotate)", elem_id="stress-levels",
                                  choices=list(default_levels("blur")), value=list(default_levels("blur")),
                                  visible=False)
    suite_doc = gr.Markdown(_suite_doc("rotations"), elem_id="stress-suite-doc")
    with gr.Row():
        models = gr.CheckboxGroup(label="models (those ticked in the Probe tab come along)",
                                  choices=ready_models(model_menu(ctx)), value=[], scale=3, elem_id="stress-models")
        adhoc = gr.Textbox(label="other models (provider/model, comma separated)", scale=2, elem_id="stress-adhoc")
    plan = gr.HTML("", elem_id="stress-plan")
    with gr.Row(elem_classes=["pu-actions"]):  # at the window's foot until scrolled to (CSS .pu-actions)
        go = gr.Button("Run stress test", variant="primary", elem_id="stress-run")
    msg = gr.HTML("", elem_id="stress-msg")
    run_name = gr.Textbox(label="run (named from the item or preset, what was applied and the models)",
                          interactive=False, elem_id="stress-run-name")
    summary = gr.Dataframe(label="per model: right on originals and on variants, correctness flip rate, what broke, "
                                 "and the suite's metrics (%)", interactive=False, elem_id="stress-summary",
                           value=stress.summary_for_people(stress.summary(pd.DataFrame())))  # headed, no rows
    with gr.Accordion("what these figures mean", open=False):
        gr.HTML(glossary_html([*stress.PEOPLE_COLUMNS.values(), "groups: answer flip rate",
                               "groups: group consistency"]), elem_id="stress-glossary")
    with gr.Column(visible=False, elem_id="stress-curve-box-wrap") as curve_box:  # a sweep's curves, as they fill
        curve = plot_box("stress-curve", "Robustness curve: accuracy per level")
    with gr.Group(visible=False, elem_id="stress-breaking") as breaking_box:
        with gr.Row():
            b_item = gr.Dropdown(label="item", choices=[], elem_id="stress-b-item", allow_custom_value=True)
            b_model = gr.Dropdown(label="model", choices=[], elem_id="stress-b-model", allow_custom_value=True)
            b_show = gr.Button("Show where it broke", elem_id="stress-b-show")
        b_text = gr.HTML("", elem_id="stress-b-text")
        b_images = gr.HTML("", label="the original and the first level that changed the answer",
                           elem_id="stress-b-images")  # whole, with size and hash (whole_images)
    table = gr.HTML(value={"html": "", "run": ""}, html_template="${value.html}", js_on_load=_js(),
                    elem_id="stress-matrix")
    d = detail.build("stress")
    detail.wire(ctx, d, table, thumbs, probe["rater"], api_prefix="stress_")

    def originals_of(src: str, choice: str | None, item_id: str | None, sd: float, fields: tuple[Any, ...],
                     user: str) -> tuple[list[Any], Any, tuple[str, ...]]:
        """The items asked: the Probe tab's (built from its fields) or a preset's; and the preset and item ids."""
        if src == ITEM:
            return ProbeForm.from_values(fields, seed=seed_of(sd)).variants(ctx.store, own=False), None, ()
        if not choice:
            raise live.ProbeError("choose a preset", field="preset")
        p = load_preset(ctx.preset_path(choice, user))
        ids = () if item_id in (None, "", ALL_ITEMS) else (item_id,)
        from probe_ui.runner.sweep import load_originals

        originals, _, _ = load_originals(p, ids)
        return originals, p, ids

    def view(name: str, md: str, st: str, pt: str) -> tuple[Any, ...]:
        v = stress.stress_view(ctx.store, name, suite=st, sweep=pt if md == SWEEP else None, thumbs=thumbs)
        fig, box = (v.curve, gr.update(visible=True)) if v.curve is not None else (gr.skip(), gr.update(visible=False))
        return {"html": v.table_html, "run": name}, v.summary, fig, box

    latest = Latest()  # each session's newest plan and run: an older one never writes over it

    @inline_errors(plan)  # what keeps the calls from being counted (no preset yet, no question) says so there
    def on_plan(request: gr.Request, src: str, preset_path: str | None, item_id: str | None, md: str, st: str,
                pt: str, lv: list[int], sd: float, picked: list[str], other: str, *fields: Any) -> Any:
        """What Run will ask, before anything is sent: calls, and the cost where prices are known (a count made
        for choices changed since is dropped)."""
        ticket = latest.begin(request, "plan")
        try:
            said = plan_line(who(ctx, request), src, preset_path, item_id, md, st, pt, lv, sd, picked, other,
                             *fields)
        except live.ProbeError:
            if not latest.is_current(request, "plan", ticket):
                return gr.skip()
            raise
        return said if latest.is_current(request, "plan", ticket) else gr.skip()

    def plan_line(caller: Any, src: str, preset_path: str | None, item_id: str | None, md: str, st: str, pt: str,
                  lv: list[int], sd: float, picked: list[str], other: str, *fields: Any) -> str:
        from probe_ui.presets.suites import sweep_conditions
        from probe_ui.runner.sweep import plan_preset_sweep, plan_sweep

        specs = chosen_models(picked, other)
        if not specs:
            return "<div class='pu-note'>Tick one or more models to see how many calls this makes.</div>"
        originals, p, ids = originals_of(src, preset_path, item_id, sd, fields, caller.name)
        mine = ctx.endpoints.configs(caller.owner)
        if md == SWEEP:
            p_ = plan_sweep([o for o in originals if o.condition == "original"], specs,
                            conditions=sweep_conditions(pt, [int(x) for x in lv or []] or None), extra_models=mine)
        elif p is not None:
            p_ = plan_preset_sweep(p, specs, suites=[st], item_ids=ids, extra_models=mine)
        else:
            p_ = plan_sweep(originals[:1], specs, suites=[st], extra_models=mine)
        return f"<div class='pu-note'>Run will ask: {escape(p_.text())}.</div>"

    @inline_errors(msg)
    def on_run(request: gr.Request, src: str, preset_path: str | None, item_id: str | None, md: str, st: str,
               pt: str, lv: list[int], sd: float, picked: list[str], other: str, *fields: Any) -> Any:
        """Ask, and show the run while it fills; when the same page starts another run, this one's answers are
        still stored but no longer drawn over the newer run's."""
        ticket = latest.begin(request, "run")
        caller = who(ctx, request)
        specs = chosen_models(picked, other)
        seed_ = seed_of(sd)
        extra = ctx.endpoints.usable(caller.owner, specs, admin=caller.can("any_host"))
        common: dict[str, Any] = {"seed": seed_, "user": caller.name, "extra_models": extra}
        originals, p, ids = originals_of(src, preset_path, item_id, sd, fields, caller.name)
        if md == SWEEP:
            chosen = [int(x) for x in lv or []] or None
            bases = [o for o in originals if o.condition == "original"]
            name = stress_runs.run_sweep_name(pt, chosen, specs, originals=bases, seed=seed_)
            common["spend"] = ctx.spend_cap(caller.name, caller.signed_in)  # the user's spending limit

            def ask() -> None:
                stress_runs.run_sweep(ctx.store, pt, chosen, specs, originals=bases, run_name=name, **common)
        else:
            if p is None:
                form = ProbeForm.from_values(fields, seed=seed_)
                kw: dict[str, Any] = {"variants": form.variants(ctx.store, suite=st, own=False)}
            else:
                kw = {"preset": p, "item_ids": ids}
            name = stress_runs.planned_run_name(st, specs, seed=seed_, **kw)
            common["spend"] = ctx.spend_cap(caller.name, caller.signed_in)  # the user's spending limit

            def ask() -> None:
                stress_runs.run_stress(ctx.store, st, specs, **kw, **common)
        done = threading.Event()
        failure: list[BaseException] = []

        def work() -> None:
            try:
                ask()
            except BaseException as exc:  # shown on the page below
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=work, name=f"probe-ui stress {name}", daemon=True).start()
        while not done.wait(POLL_S):  # the table, the summary and the curve fill as answers arrive
            if not latest.is_current(request, "run", ticket):
                return  # a newer run took the page; this one goes on storing its answers
            if _has_run(ctx, name):
                yield (name, *view(name, md, st, pt), "", *_breaking_choices(ctx, name, md))
        if not latest.is_current(request, "run", ticket):
            return
        said = ""
        stopped = failure[0] if failure else None
        if isinstance(stopped, SpendStopped) and _has_run(ctx, name):
            said = Inline.error(stopped.line)  # stopped at the limit: what was answered, then the one line
            failure.clear()
        if failure:
            raise failure[0]
        yield (name, *view(name, md, st, pt), said, *_breaking_choices(ctx, name, md))

    @inline_errors(b_text)
    def on_breaking(name: str, it: str | None, model: str | None, pt: str) -> tuple[Any, str]:
        """An item's original beside the first sweep level at which the model's answer left the original's."""
        from probe_ui.metrics.robustness import breaking_variant
        from probe_ui.scoring import scored_answers

        if not (name and it and model):
            raise live.ProbeError("run a sweep, then choose an item and a model")
        found = breaking_variant(scored_answers(ctx.store, name), model, it, pt)
        if found is None:
            raise live.ProbeError(f"{it} was not swept for {model}")
        from probe_ui.app import whole_images

        ids = list(found["original"].get("image_ids") or [])[:1]
        caps = [f"original: {found['original'].get('parsed') or 'unreadable'}"]
        broken = found.get("broken")
        if broken is None:
            return (whole_images.stored(ctx.store, ids, caps),
                    f"<div class='pu-note'>{escape(model)} never changed its answer to {escape(it)}.</div>")
        ids += list(broken.get("image_ids") or [])[:1]
        caps.append(f"level {found['level']}: {broken.get('parsed') or 'unreadable'}")
        return whole_images.stored(ctx.store, ids, caps), (
            f"<div class='pu-note'>{escape(model)} first changed its answer to {escape(it)} at "
            f"{escape(pt)} level {found['level']}.</div>")

    @inline_errors(msg)
    def on_preset(choice: str | None, request: gr.Request) -> tuple[Any, str]:
        ids = live.preset_item_ids(ctx.preset_path(choice, who(ctx, request).name)) if choice else []
        return gr.update(choices=[ALL_ITEMS, *ids], value=ALL_ITEMS), ""

    def on_mode(md: str) -> tuple[Any, ...]:
        sweep = md == SWEEP
        # the suite's description goes with the suite: a sweep says what it does in its plan line
        return (gr.update(visible=not sweep), gr.update(visible=sweep), gr.update(visible=sweep),
                gr.update(visible=not sweep))

    def on_pert(pt: str) -> Any:
        lv = list(default_levels(pt))
        return gr.update(choices=lv, value=lv)

    def on_select(p: str | None, m: list[str], probe_models: list[str], typed: str, probe_typed: str,
                  before: dict[str, list[str]] | None, request: gr.Request) -> tuple[Any, ...]:
        """The tab shown: this person's presets; what changed in the Probe tab's models since the tab was last
        shown comes along (:func:`follow_probe`)."""
        caller = who(ctx, request)
        ready = ready_models(model_menu(ctx, caller.owner))
        ticks, names, now = follow_probe(m, typed, probe_models, probe_typed, before)
        return (gr.update(choices=ctx.preset_paths(caller.name), value=p),
                gr.update(choices=ready, value=[x for x in ticks if x in ready]), names, now)

    inputs = [source, preset, item, mode, suite, pert, levels, seed, models, adhoc, *probe["form"]]
    go.click(None, None, None, js=scroll_to_js("stress-msg"), api_visibility="private")  # its outcome into view
    go.click(off_pool(on_run), inputs,
             [run_name, table, summary, curve, curve_box, msg, breaking_box, b_item, b_model],
             **model_event(api_name="stress"))
    go.click(detail.cleared, None, d.outputs, api_visibility="private")  # the answer shown belonged to the last run
    for c in (source, preset, item, mode, suite, pert, levels, models, adhoc):  # each changes what Run asks
        c.change(on_plan, inputs, plan, api_visibility="private")
    plan_btn = gr.Button(visible=False)
    plan_btn.click(on_plan, inputs, plan, api_name="stress_plan")
    b_show.click(on_breaking, [run_name, b_item, b_model, pert], [b_images, b_text], api_name="stress_breaking")
    preset.change(on_preset, preset, [item, msg], api_visibility="private")
    suite.change(_suite_doc, suite, suite_doc, api_visibility="private")
    mode.change(on_mode, mode, [suite, pert, levels, suite_doc], api_visibility="private")
    pert.change(on_pert, pert, levels, api_visibility="private")
    from_probe = gr.State(None)  # the Probe tab's models as the Stress tab last took them (follow_probe)
    tab.select(on_select, [preset, models, probe["models"], adhoc, probe["adhoc"], from_probe],
               [preset, models, adhoc, from_probe], api_visibility="private")


def follow_probe(ticked: list[str] | None, typed: str | None, probe_ticked: list[str] | None,
                 probe_typed: str | None, before: dict[str, list[str]] | None
                 ) -> tuple[list[str], str, dict[str, list[str]]]:
    """The Stress tab's models as it opens: what changed in the Probe tab's models since the Stress tab last took
    them (``before``; None: never) comes along, a model ticked (or typed by name) there is added, one unticked (or
    deleted) there goes; the Stress tab's own choices stay otherwise. Returns the ticks, the typed names (comma
    separated) and what to keep as ``before`` for the next time. The Stress tab kept every model the Probe tab had
    ever carried over, so a model unticked in the Probe tab was still asked and counted (issue 51, U38)."""
    before = before or {}
    probe_now = list(dict.fromkeys(probe_ticked or []))
    probe_names = chosen_models([], probe_typed)

    def follow(own: list[str], then: list[str], now: list[str]) -> list[str]:
        gone = set(then) - set(now)
        return list(dict.fromkeys([*(x for x in own if x not in gone), *(x for x in now if x not in then)]))

    ticks = follow(list(ticked or []), before.get("models", []), probe_now)
    names = follow(chosen_models([], typed), before.get("typed", []), probe_names)
    return ticks, ", ".join(names), {"models": probe_now, "typed": probe_names}


def _breaking_choices(ctx: AppContext, name: str, md: str) -> tuple[Any, Any, Any]:
    """The breaking-image picker: shown after a sweep, its items and models those of the run."""
    if md != SWEEP:
        return gr.update(visible=False), gr.update(), gr.update()
    df = ctx.store.answers_frame(ctx.store.get_run(name).id)
    items = sorted(set(map(str, df["item_id"]))) if len(df) else []
    models = sorted(set(map(str, df["model"]))) if len(df) else []
    return (gr.update(visible=True), gr.update(choices=items, value=items[0] if items else None),
            gr.update(choices=models, value=models[0] if models else None))


def _has_run(ctx: AppContext, name: str) -> bool:
    try:
        ctx.store.get_run(name)
        return True
    except Exception:  # noqa: BLE001 - not created yet
        return False


def _js() -> str:
    from probe_ui.views import comparison

    return comparison.JS


def _suite_doc(name: str) -> str:
    """A suite's description as the Markdown under the suite picker; its words escaped, so that text such as
    "severity/<perturbation>-<level>" shows as written instead of being taken for HTML tags (issue 51, U39)."""
    row = next((r for r in describe_suites() if r["name"] == name), None)
    if row is None:
        return ""
    def text(x: str) -> str:
        return escape(x, quote=False)

    return f"**{text(name)}**: {text(row['description'])} (metrics: {text(row['metrics'])})"


register_tab(AppTab("stress", "Stress", order=20, right="probe",
                    build=lambda ctx, tab, built: build(ctx, built["probe"], tab)))
