"""Stress tab: a suite over the Probe tab's item or a preset, as the comparison table filling while answers arrive,
with each model's summary (what broke, flip rate, the suite's metrics). Orchestration is the library's
(:func:`probe_ui.stress.run_stress`); cells open the same detail view as the Probe tab's."""

from __future__ import annotations

import threading
from typing import Any

import gradio as gr

from probe_ui import live, stress
from probe_ui.app import detail
from probe_ui.app.common import chosen_models, inline_errors, model_menu, ready_models
from probe_ui.app.context import AppContext
from probe_ui.presets import load_preset
from probe_ui.suites import SUITES, describe_suites

ITEM = "the Probe tab's item"
PRESET = "a preset"
ALL_ITEMS = "(every item)"
POLL_S = 0.7


def build(ctx: AppContext, probe: dict[str, Any], tab: gr.Tab) -> None:
    from probe_ui.app.probe_tab import _thumbs

    thumbs = _thumbs(ctx)
    gr.Markdown("Ask a stress suite of the Probe tab's item or a preset's items. Each row is a variant, each column "
                "a model; a dark red cell is an answer that **broke**: wrong, although the same model got the "
                "item's original right. Click a cell for the exact prompt and reply.")
    with gr.Row():
        source = gr.Radio([ITEM, PRESET], value=ITEM, label="items", elem_id="stress-source")
        preset = gr.Dropdown(label="preset", choices=ctx.preset_paths(), value=None, elem_id="stress-preset",
                             allow_custom_value=True)
        item = gr.Dropdown(label="item of the preset", choices=[ALL_ITEMS], value=ALL_ITEMS, elem_id="stress-item",
                           allow_custom_value=True)
        suite = gr.Dropdown(label="suite", choices=list(SUITES), value="rotations", elem_id="stress-suite")
        seed = gr.Number(label="seed", value=0, precision=0, elem_id="stress-seed")
    suite_doc = gr.Markdown(_suite_doc("rotations"), elem_id="stress-suite-doc")
    with gr.Row():
        models = gr.CheckboxGroup(label="models (those ticked in the Probe tab come along)",
                                  choices=ready_models(model_menu(ctx)), value=[], scale=3, elem_id="stress-models")
        adhoc = gr.Textbox(label="other models (provider/model, comma separated)", scale=2, elem_id="stress-adhoc")
    go = gr.Button("Run stress test", variant="primary", elem_id="stress-run")
    msg = gr.HTML("", elem_id="stress-msg")
    run_name = gr.Textbox(label="run (named from the item or preset, the suite and the models)", interactive=False,
                          elem_id="stress-run-name")
    summary = gr.Dataframe(label="per model: accuracy on originals and variants, flip rate, what broke, and the "
                                 "suite's metrics (%)", interactive=False, elem_id="stress-summary")
    table = gr.HTML(value={"html": "", "run": ""}, html_template="${value.html}", js_on_load=_js(),
                    elem_id="stress-matrix")
    d = detail.build("stress")
    detail.wire(ctx, d, table, thumbs, api_prefix="stress_")

    def view(name: str, st: str) -> tuple[Any, Any]:
        from probe_ui.scoring import scored_answers

        df = scored_answers(ctx.store, name)
        return (detail.table_value(ctx, name, thumbs, empty="No answers yet."),
                stress.summary_for_people(stress.summary(df, st)))

    @inline_errors(msg)
    def on_run(src: str, preset_path: str | None, item_id: str | None, st: str, sd: float, picked: list[str],
               other: str, image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str,
               extra: Any) -> Any:
        specs = chosen_models(picked, other)
        seed_ = int(sd or 0)
        kwargs: dict[str, Any] = {"seed": seed_, "extra_models": ctx.endpoints.configs()}
        if src == ITEM:
            ims = tuple(ctx.store.get_image(i) for i in image_ids or [])
            it = live.build_item(q, k, opts, ans, cat, ims, extra=extra or None)
            kwargs["variants"] = live.make_variants(it, ims, [], seed=seed_, suite=st, include_original=True)
        else:
            if not preset_path:
                raise live.ProbeError("choose a preset", field="preset")
            kwargs["preset"] = load_preset(preset_path)
            kwargs["item_ids"] = () if item_id in (None, "", ALL_ITEMS) else (item_id,)
        name = stress.planned_run_name(st, specs, **kwargs)
        done = threading.Event()
        failure: list[BaseException] = []

        def work() -> None:
            try:
                stress.run_stress(ctx.store, st, specs, **kwargs)
            except BaseException as exc:  # shown on the page below
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=work, name=f"probe-ui stress {name}", daemon=True).start()
        while not done.wait(POLL_S):  # the table fills as answers arrive
            if _has_run(ctx, name):
                yield (name, *view(name, st), "")
        if failure:
            raise failure[0]
        yield (name, *view(name, st), "")

    @inline_errors(msg)
    def on_preset(path: str | None) -> Any:
        ids = live.preset_item_ids(path) if path else []
        return gr.update(choices=[ALL_ITEMS, *ids], value=ALL_ITEMS)

    def on_select(p: str | None, m: list[str], probe_models: list[str]) -> tuple[Any, Any]:
        ready = ready_models(model_menu(ctx))
        carried = list(dict.fromkeys([*(probe_models or []), *(m or [])]))
        return (gr.update(choices=ctx.preset_paths(), value=p),
                gr.update(choices=ready, value=[x for x in carried if x in ready]))

    go.click(on_run, [source, preset, item, suite, seed, models, adhoc, *probe["item"]],
             [run_name, table, summary, msg], api_name="stress", concurrency_limit=None)
    preset.change(on_preset, preset, item, api_visibility="private")
    suite.change(_suite_doc, suite, suite_doc, api_visibility="private")
    tab.select(on_select, [preset, models, probe["models"]], [preset, models], api_visibility="private")


def _has_run(ctx: AppContext, name: str) -> bool:
    try:
        ctx.store.get_run(name)
        return True
    except Exception:  # noqa: BLE001 - not created yet
        return False


def _js() -> str:
    from probe_ui import comparison

    return comparison.JS


def _suite_doc(name: str) -> str:
    row = next((r for r in describe_suites() if r["name"] == name), None)
    return f"**{name}**: {row['description']} (metrics: {row['metrics']})" if row else ""

