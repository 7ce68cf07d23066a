"""An interactive figure on the page: a tall figure scrolls inside its box, and a button opens it larger.

The figures are Plotly's (:mod:`probe_ui.views.plots`): hover, zoom and pan are theirs. A figure with many conditions is
as tall as its rows need; its box keeps the page usable (it scrolls), and "larger view" lays the figure over the
whole window (Escape or the button again closes it). All of it runs in the browser: nothing is asked of the server.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

CSS = """
.pu-plot-box {max-height:75vh; overflow:auto; border:1px solid #d0d7de; border-radius:6px;}
.pu-plot-box.pu-large {position:fixed !important; inset:2vh 2vw; max-height:none; z-index:1000; background:#fff;
                       width:auto !important; min-width:0 !important; max-width:none; box-sizing:border-box;
                       box-shadow:0 0 0 100vmax rgba(0,0,0,.45); padding:8px;}
.pu-plot-tools {justify-content:flex-end; gap:8px;}
"""

#: toggles the larger view of the box ``id`` (the button's label follows), and lets Plotly fit the new width
_TOGGLE_JS = """() => {
  const box = document.getElementById('%(box)s');
  const btn = document.getElementById('%(btn)s');
  if (!box) return;
  const large = box.classList.toggle('pu-large');
  if (btn) btn.textContent = large ? '%(close)s' : '%(open)s';
  if (large && !box.dataset.escape) {
    box.dataset.escape = '1';
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && box.classList.contains('pu-large')) {
        box.classList.remove('pu-large');
        if (btn) btn.textContent = '%(open)s';
        window.dispatchEvent(new Event('resize'));
      }
    });
  }
  window.dispatchEvent(new Event('resize'));
}"""
OPEN = "Larger view"
CLOSE = "Close the larger view (Esc)"


def plot_box(elem_id: str, label: str, **plot: Any) -> gr.Plot:
    """A ``gr.Plot`` (``elem_id``) in a scrolling box ``<elem_id>-box`` with a "larger view" button
    ``<elem_id>-large`` above it. Call inside the layout where the figure goes."""
    box_id, btn_id = f"{elem_id}-box", f"{elem_id}-large"
    with gr.Row(elem_classes=["pu-plot-tools"]):
        gr.Markdown(f"**{label}** · hover a point for its n and 95 % CI; drag to zoom, double-click to reset")
        large = gr.Button(OPEN, size="sm", scale=0, min_width=180, elem_id=btn_id)
    with gr.Column(elem_id=box_id, elem_classes=["pu-plot-box"]):
        out = gr.Plot(elem_id=elem_id, show_label=False, label=label, **plot)
    large.click(None, None, None, js=_TOGGLE_JS % {"box": box_id, "btn": btn_id, "open": OPEN, "close": CLOSE})
    return out
