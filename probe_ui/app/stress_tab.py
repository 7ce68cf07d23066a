"""Stress tab: a suite over the Probe tab's item or a preset, as a variants x models matrix with what broke."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pandas as pd

from probe_ui import live, stress
from probe_ui.app.common import chosen_models, model_choices, shows_errors
from probe_ui.app.context import AppContext
from probe_ui.presets import load_preset
from probe_ui.suites import SUITES, describe_suites

ITEM = "the Probe tab's item"


def build(ctx: AppContext, probe: dict[str, Any], tab: gr.Tab) -> None:
    gr.Markdown("Apply a stress suite and see, per variant and model, what was answered; a dark red cell is a "
                "variant the model got wrong although it got the item's original right.")
    with gr.Row():
        source = gr.Radio([ITEM, "a preset"], value=ITEM, label="items", elem_id="stress-source")
        preset = gr.Dropdown(label="preset", choices=ctx.preset_paths(), value=None, elem_id="stress-preset")
        suite = gr.Dropdown(label="suite", choices=list(SUITES), value="rotations", elem_id="stress-suite")
        seed = gr.Number(label="seed", value=0, precision=0)
    suite_doc = gr.Markdown(_suite_doc("rotations"))
    with gr.Row():
        models = gr.CheckboxGroup(label="models", choices=model_choices(ctx), value=[], scale=3,
                                  elem_id="stress-models")
        adhoc = gr.Textbox(label="other models (provider/model, comma separated)", scale=2)
    go = gr.Button("Run stress test", variant="primary", elem_id="stress-run")
    run_name = gr.Textbox(label="run", interactive=False)
    table = gr.Dataframe(label="per model", interactive=False, elem_id="stress-summary")
    matrix = gr.HTML("", elem_id="stress-matrix")

    @shows_errors
    def on_run(src: str, preset_path: str | None, st: str, sd: float, picked: list[str], other: str,
               image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str,
               progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        specs = chosen_models(picked, other)
        seed_ = int(sd or 0)
        report = lambda d, t: progress((d, t), desc="answers")  # noqa: E731
        if src == ITEM:
            ims = tuple(ctx.store.get_image(i) for i in image_ids or [])
            item = live.build_item(q, k, opts, ans, cat, ims)
            vs = live.make_variants(item, ims, [], seed=seed_, suite=st)
            name = stress.run_stress(ctx.store, st, specs, variants=vs, seed=seed_,
                                     extra_models=ctx.endpoints.configs(), on_progress=report)
        else:
            if not preset_path:
                raise live.ProbeError("choose a preset")
            name = stress.run_stress(ctx.store, st, specs, preset=load_preset(preset_path), seed=seed_,
                                     extra_models=ctx.endpoints.configs(), on_progress=report)
        return name, *stress_view(ctx, name, st)

    go.click(on_run, [source, preset, suite, seed, models, adhoc, *probe["item"]], [run_name, table, matrix],
             api_name="stress", concurrency_limit=None)
    suite.change(_suite_doc, suite, suite_doc, api_visibility="private")
    tab.select(lambda p, m: (gr.update(choices=ctx.preset_paths(), value=p),
                             gr.update(choices=model_choices(ctx), value=m)),
               [preset, models], [preset, models], api_visibility="private")


def stress_view(ctx: AppContext, run: str, suite: str | None) -> tuple[pd.DataFrame, str]:
    """The per-model summary and the coloured matrix of one run."""
    from probe_ui.scoring import scored_answers

    df = scored_answers(ctx.store, run)
    return stress.summary(df, suite), stress.matrix_html(df)


def _suite_doc(name: str) -> str:
    row = next((r for r in describe_suites() if r["name"] == name), None)
    return f"**{name}**: {row['description']} (metrics: {row['metrics']})" if row else ""
