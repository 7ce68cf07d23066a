"""Models tab: the catalogue and whether each model is usable here; add an endpoint (key in memory only); test."""

from __future__ import annotations

from html import escape
from typing import Any

import gradio as gr

from probe_ui.app.common import model_choices, shows_errors
from probe_ui.app.context import AppContext
from probe_ui.endpoints import models_table, test_model
from probe_ui.providers import PROVIDERS


def build(ctx: AppContext) -> None:
    gr.Markdown("Every provider and catalogue entry (`backends/*.yaml`), and models found on local servers. "
                "A key typed below stays in this process's memory: it is never written to disk, logs or runs.")
    table = gr.Dataframe(value=models_table(ctx.endpoints, discover=False), interactive=False,
                         elem_id="models-table")
    refresh = gr.Button("↻ refresh (also looks for local servers)", size="sm")
    gr.Markdown("#### Add an endpoint")
    with gr.Row():
        provider = gr.Dropdown(label="provider", choices=sorted(PROVIDERS), value="openai")
        base_url = gr.Textbox(label="base URL", placeholder="http://127.0.0.1:8000/v1", elem_id="models-url")
        model = gr.Textbox(label="model", placeholder="Qwen/Qwen2.5-VL-7B-Instruct", elem_id="models-model")
        key = gr.Textbox(label="API key (memory only)", type="password", elem_id="models-key")
        name = gr.Textbox(label="name (optional)", elem_id="models-name")
    add = gr.Button("Add endpoint", elem_id="models-add")
    added = gr.HTML("", elem_id="models-added")
    gr.Markdown("#### Test a model with one call")
    with gr.Row():
        spec = gr.Dropdown(label="model", choices=model_choices(ctx), allow_custom_value=True, elem_id="models-spec")
        test = gr.Button("Test", elem_id="models-test")
    result = gr.HTML("", elem_id="models-result")

    @shows_errors
    def on_add(p: str, url: str, m: str, k: str, n: str) -> tuple[Any, ...]:
        cfg = ctx.endpoints.add(p, url, m, key=k or None, name=n or None)
        return (models_table(ctx.endpoints, discover=False), f"Added <b>{escape(cfg.name)}</b>: pick it in the Probe "
                f"and Batch tabs.", "", gr.update(choices=model_choices(ctx), value=cfg.name))

    @shows_errors
    def on_test(s: str) -> str:
        r = test_model(s or "", ctx.endpoints)
        if r.get("ok"):
            return (f"✅ <b>{escape(str(r.get('model')))}</b> answered in {float(r.get('latency_s') or 0):.2f} s: "
                    f"<code>{escape(str(r.get('text'))[:300])}</code>")
        return f"❌ <b>{escape(str(r.get('model') or s))}</b>: {escape(str(r.get('error')))}"

    refresh.click(lambda: models_table(ctx.endpoints, discover=True), None, table, api_name="models")
    add.click(on_add, [provider, base_url, model, key, name], [table, added, key, spec], api_name="add_endpoint")
    test.click(on_test, spec, result, api_name="test_model")
