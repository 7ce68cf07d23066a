"""All tabs in one Gradio Blocks."""


from __future__ import annotations

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

from probe_ui.app import batch_tab, models_tab, probe_tab, results_tab, stress_tab  # noqa: E402
from probe_ui.app.cards import CSS  # noqa: E402
from probe_ui.app.context import AppContext  # noqa: E402

TITLE = "probe-ui"


def build_app(ctx: AppContext) -> gr.Blocks:
    """All tabs in one Blocks. ``ctx.demo`` opens the Probe tab on a preset item with the baselines ticked."""
    # Uploaded files (a DICOM's header included) sit in Gradio's cache only until they are an hour old.
    with gr.Blocks(title=TITLE, analytics_enabled=False, delete_cache=(600, 3600)) as app:
        gr.Markdown(f"## {TITLE} · probe vision-language models on medical images  \n"
                    f"<small>store: <code>{_safe(ctx.db_location)}</code></small>")
        with gr.Tabs():
            with gr.Tab("Probe", id="probe") as tab:
                probe = probe_tab.build(ctx, tab)
            with gr.Tab("Stress", id="stress") as tab:
                stress_tab.build(ctx, probe, tab)
            with gr.Tab("Batch", id="batch") as tab:
                batch_tab.build(ctx, tab)
            with gr.Tab("Results", id="results") as tab:
                results_tab.build(ctx, tab)
            with gr.Tab("Models", id="models"):
                models_tab.build(ctx)
    app.queue(default_concurrency_limit=8)
    return app


def _safe(location: str) -> str:
    from html import escape

    from probe_ui.providers.sdk_errors import safe_url

    return escape(safe_url(location) if "://" in location else location)


__all__ = ["AppContext", "CSS", "build_app"]
