"""All tabs in one Gradio Blocks."""


from __future__ import annotations

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

from probe_ui import comparison  # noqa: E402
from probe_ui.app import batch_tab, models_tab, probe_tab, results_tab, stress_tab  # noqa: E402
from probe_ui.app.context import AppContext  # noqa: E402
from probe_ui.app.files import guard_uploads, watch_uploads  # noqa: E402

TITLE = "probe-ui"
#: the page's own look beside Gradio's: the run bar, messages beside their fields, the comparison table
CSS = comparison.CSS + """
#probe-runbar {border:2px solid #0969da; border-radius:8px; padding:6px;}
#probe-run button, button#probe-run {font-size:18px; min-height:48px;}
.pu-banner {background:#ddf4ff; border:1px solid #54aeff; border-radius:6px; padding:8px 12px; font-size:16px;}
.pu-msg {margin:4px 0; padding:6px 10px; border-radius:6px; font-size:14px;}
.pu-msg-error {background:#fff8c5; border:1px solid #d4a72c; color:#4d2d00;}
.pu-msg-note, .pu-note {background:#f6f8fa; border:1px solid #d0d7de; color:#1f2328; padding:6px 10px;
                        border-radius:6px;}
.pu-bad textarea, .pu-bad input, .pu-bad .wrap {outline:2px solid #cf222e !important;}
.pu-unusable {font-size:13px; color:#57606a; padding:2px 8px;}
.pu-unusable ul {margin:4px 0 0 0; padding-left:16px; list-style:none;}
.pu-unusable li {margin:2px 0;} .pu-why {color:#57606a;}
#probe-click-hint {color:#9a6700; min-height:1em; font-size:14px;}
#probe-image img {image-rendering:pixelated;}
"""


def build_app(ctx: AppContext) -> gr.Blocks:
    """All tabs in one Blocks. ``ctx.demo`` opens the Probe tab on a preset item with the baselines ticked."""
    # Uploaded files (a DICOM's header included) sit in Gradio's cache only until they are an hour old.
    with gr.Blocks(title=TITLE, analytics_enabled=False, delete_cache=(600, 3600)) as app:
        gr.Markdown(f"## {TITLE} · probe vision-language models on medical images  \n"
                    f"<small>store: <code>{_safe(ctx.db_location)}</code></small>")
        with gr.Tabs(elem_id="tabs"):
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
        # the rater's name stays in this browser (localStorage) from one visit to the next
        remembered = gr.BrowserState("", storage_key="probe-ui-rater")
        probe["rater"].change(lambda name: name, probe["rater"], remembered, api_visibility="private")
        # restored in the browser, at once: a round trip to the server could come back after the user typed a name,
        # and overwrite it with the empty one it was sent
        app.load(None, [remembered, probe["rater"]], probe["rater"], js="(kept, typed) => typed || kept",
                 api_visibility="private")
    guard_uploads(app)  # a refused upload (wrong type, too large) leaves the cache at once
    watch_uploads(app)  # so do the uploads of a failed call, and, within a minute, those no call used
    app.queue(default_concurrency_limit=8)
    return app


def _safe(location: str) -> str:
    from html import escape

    from probe_ui.redact import public_location

    return escape(public_location(location))


__all__ = ["AppContext", "CSS", "JS", "build_app"]

#: page scripts: a click beside the Probe tab's picture says so next to it
JS = probe_tab.CLICK_JS
