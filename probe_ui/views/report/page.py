"""The report page's style sheet and Content-Security-Policy (no scripts, no external resources)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    pass



CSS = """
:root { color-scheme: light; --fg:#1d2327; --muted:#5f6b73; --line:#d9dee2; --bg:#ffffff; --soft:#f4f6f8;
  --accent:#1f5f99; --neg:#f6c7c4; --negfg:#8a1c14; --pos:#cfe9d2; --posfg:#1b5e20; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--soft); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 60px; background: var(--bg); }
header { border-bottom: 3px solid var(--accent); padding-bottom: 12px; margin-bottom: 8px; }
.kicker { margin: 0; color: var(--accent); font-weight: 600; letter-spacing: .04em; text-transform: uppercase;
  font-size: 12px; }
h1 { margin: 4px 0 10px; font-size: 26px; word-break: break-all; }
h2 { margin: 34px 0 10px; font-size: 21px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 22px 0 8px; font-size: 17px; }
h4 { margin: 16px 0 6px; font-size: 14px; color: var(--muted); }
nav { position: sticky; top: 0; background: var(--bg); padding: 8px 0; border-bottom: 1px solid var(--line);
  z-index: 2; font-size: 14px; }
nav a { color: var(--accent); text-decoration: none; margin-right: 16px; white-space: nowrap; }
nav a:hover { text-decoration: underline; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
header dl.facts { grid-template-columns: repeat(auto-fill, minmax(120px, max-content) minmax(150px, 1fr)); }
dt { color: var(--muted); } dd { margin: 0; font-weight: 500; word-break: break-word; }
p { margin: 6px 0; } .muted { color: var(--muted); font-size: 13px; } .method { font-size: 13px; color: var(--muted);
  border-left: 3px solid var(--line); padding-left: 8px; }
.scroll { overflow-x: auto; max-width: 100%; }
table.grid { border-collapse: collapse; font-size: 13px; margin: 6px 0 10px; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
table.grid thead th { background: var(--soft); font-weight: 600; }
table.grid .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
/* a table fits the page: its headings wrap between words (the numbers under them stay on one line); one still
   wider than the page scrolls in its own box (.scroll) */
table.grid thead th, table.grid thead th.num { white-space: normal; overflow-wrap: normal; }
.stress-legend span { display: inline-block; margin-bottom: 3px; }  /* the legend wraps between its swatches */
table.grid tbody th { font-weight: 600; white-space: nowrap; }
table.grid tbody th.key { font-weight: 400; color: var(--muted); }
table.grid tr.group-start > * { border-top: 2px solid #aab4bb; }
td.strong { font-weight: 700; }
td.dcell { min-width: 118px; }
td.dcell span { display: block; } .delta { font-size: 15px; font-weight: 700; }
.ci { color: var(--fg); } .sub { color: var(--muted); font-size: 11px; }
td.neg, .swatch.neg { background: var(--neg); } td.neg .delta { color: var(--negfg); }
td.pos, .swatch.pos { background: var(--pos); } td.pos .delta { color: var(--posfg); }
td.ns, .swatch.ns { background: #fff; }
.legend { font-size: 12px; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid var(--line); margin: 0 4px 0 10px;
  vertical-align: -2px; }
figure { margin: 8px 0 16px; } img.plot { max-width: 100%; height: auto; border: 1px solid var(--line); }
details.matrix, details.breakdown { margin: 10px 0; }
details summary { cursor: pointer; color: var(--accent); font-size: 14px; font-weight: 600; }
article.case { display: grid; grid-template-columns: 180px 1fr; gap: 16px; border: 1px solid var(--line);
  border-radius: 6px; padding: 12px; margin: 12px 0; break-inside: avoid; }
.thumbs { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; }
img.thumb { border: 1px solid var(--line); background: #000; max-width: 160px; max-height: 160px; }
span.thumb.missing { font-size: 12px; color: var(--muted); }
.case-body dl.facts { grid-template-columns: max-content 1fr max-content 1fr; }
.question { font-weight: 600; margin: 8px 0 4px; white-space: pre-wrap; word-break: break-word; }
ol.options { margin: 2px 0 8px; padding-left: 18px; list-style: none; font-size: 14px; }
td.ans { white-space: nowrap; font-weight: 600; } td.ans.right { color: var(--posfg); }
td.ans.wrong, td.ans.invalid { color: var(--negfg); } td.ans.error { color: var(--muted); }
td.raw { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px;
  word-break: break-word; max-width: 520px; }
.mono, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
td.mono { word-break: break-all; max-width: 760px; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 8px 10px; white-space: pre-wrap;
  word-break: break-all; margin: 2px 0 10px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 0 3px; }
@media print { nav { display: none; } main { max-width: none; } body { background: #fff; } }
"""


CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; "
        "form-action 'none'")
