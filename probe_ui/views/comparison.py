"""The comparison table: one row per variant, one column per model, each cell the answer in words.

What a clinician reads after pressing Run (Probe tab) or a stress test (Stress tab): rows say what was done to the
item in plain words ("rotated 90°", "options shuffled") beside a thumbnail of the exact image sent; columns are the
models; a cell gives the answer as letter and option text ("B · pleural effusion"), coloured right / wrong /
"broke" (wrong although the same model was right on the item's original), with its latency, the reason in words
when the call failed, and the rating a person gave it. Built from a live probe's streaming cards
(:func:`from_live`) or from the scored-answer table of a stored run (:func:`from_answers`), so the Probe and Stress
tabs show the same thing, and rendered as one HTML table (:func:`render`) that stays aligned for 1-8 models and
1-30 variants. Every string from users, presets and models is escaped.
"""

from __future__ import annotations

import base64
import io
import math
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from probe_ui.conditions import ORIGINAL, describe
from probe_ui.items import LETTERS

if TYPE_CHECKING:
    from probe_ui.store import Store

STATES = ("waiting", "right", "wrong", "broke", "invalid", "error", "unknown", "missing")
STATE_WORDS = {"waiting": "asking…", "right": "right", "wrong": "wrong", "broke": "broke",
               "invalid": "no answer could be read", "error": "failed", "unknown": "no correct answer given",
               "missing": "not asked"}
THUMB_PX = 96
#: more models than this are shown as several tables one under the other, never cut off at a projector's width
MODELS_PER_TABLE = 4
#: in presenter mode's large type an option's words ("Nodule in the right upper lobe") need a third of a
#: projector's width to fit in two lines: 4 models are two tables of 2, 5 are 3 + 2 (issue 51, U30)
PRESENTER_MODELS_PER_TABLE = 3


def models_per_table(presenter: bool) -> int:
    """How many model columns one table holds: fewer in presenter mode, whose type is large."""
    return PRESENTER_MODELS_PER_TABLE if presenter else MODELS_PER_TABLE
#: the baselines answer by rule, without a model: a latency beside them would only measure the queue
BASELINE_PREFIX = "baseline/"


@dataclass(frozen=True)
class Row:
    """One variant: what was asked."""

    variant_id: str
    item_id: str
    condition: str
    label: str
    image_ids: tuple[str, ...]
    kind: str
    options: tuple[str, ...]
    answer_label: str | None

    @property
    def expected(self) -> str:
        if self.kind == "point":
            return "a point in the finding's region"
        return answer_text(self.kind, self.options, self.answer_label) or "no correct answer given"


@dataclass
class Cell:
    """One model's answer to one variant."""

    state: str = "waiting"
    answer: str = ""
    latency_s: float | None = None
    error: str | None = None
    response_id: int | None = None
    rating: str | None = None
    note: str = ""
    cached: bool = False
    #: a pushback (issue 44): the model's own first answer in words ("" when none could be read), and whether the
    #: answer after the pushback differs from it; None on every other cell
    first: str | None = None
    flipped: bool = False


@dataclass
class Table:
    run: str
    rows: list[Row] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    finished: bool = False
    #: the question asked (shown above the answers, so that they are read with it in sight)
    question: str = ""

    @property
    def total(self) -> int:
        return len(self.rows) * len(self.models)

    @property
    def done(self) -> int:
        return sum(c.state not in ("waiting", "missing") for c in self.cells.values())

    def cell(self, variant_id: str, model: str) -> Cell:
        return self.cells.get((variant_id, model)) or Cell(state="missing")


# ---- answers in words --------------------------------------------------------------------------------------------
def answer_text(kind: str, options: Iterable[str], parsed: str | None) -> str:
    """A reading as the page shows it: "B · pleural effusion" for a choice, the word itself for yes/no and
    labels; "" for no reading."""
    if parsed is None or (isinstance(parsed, float) and math.isnan(parsed)) or str(parsed) == "":
        return ""
    parsed = str(parsed)
    if kind == "point":  # "(60, 40)": where it pointed, in the item image's pixels
        return f"points at {parsed}"
    opts = list(options or ())
    if kind == "choice" and len(parsed) == 1 and parsed.upper() in LETTERS[: len(opts)]:
        return f"{parsed.upper()} · {opts[LETTERS.index(parsed.upper())]}"
    return parsed


def row_for_variant(v: Any) -> Row:
    """A :class:`probe_ui.items.Variant` as a row."""
    return Row(v.id, v.item_id, v.condition, describe(v.provenance, v.condition), tuple(v.image_ids), v.kind,
               tuple(v.options), v.answer_label)


def _mark_broke(table: Table) -> None:
    """A wrong (or unreadable) answer to a perturbed variant whose item's original the same model got right."""
    originals = {r.item_id: r.variant_id for r in table.rows if r.condition == ORIGINAL}
    for r in table.rows:
        base = originals.get(r.item_id)
        if base is None or r.condition == ORIGINAL:
            continue
        for m in table.models:
            c = table.cells.get((r.variant_id, m))
            if c is not None and c.state in ("wrong", "invalid") and table.cell(base, m).state == "right":
                c.state = "broke"


def _state(error: Any, parsed: Any, invalid: Any, correct: Any) -> str:
    if error:
        return "error"
    if parsed is None or invalid is True:
        return "invalid"
    if correct is None:
        return "unknown"
    return "right" if correct else "wrong"


# ---- from a live probe or a stored run ---------------------------------------------------------------------------
def from_live(state: Any, variants: list[Any], ratings: dict[int, tuple[str, str]] | None = None) -> Table:
    """The table of a live probe (:class:`probe_ui.live.LiveRun`) while it streams; ``ratings`` maps a response
    id to (rating, note)."""
    rows = [row_for_variant(v) for v in variants]
    table = Table(state.run, rows, list(dict.fromkeys(c.model for c in state.cards)), finished=state.finished,
                  question=variants[0].question if variants else "")
    for c in state.cards:
        if c.status == "waiting":
            cell = Cell()
        else:
            row = next((r for r in rows if r.variant_id == c.variant_id), None)
            cell = Cell(state=_state(c.error, c.parsed, c.parsed is None, c.correct),
                        answer=answer_text(row.kind, row.options, c.parsed) if row else str(c.parsed or ""),
                        latency_s=c.latency_s, error=c.error, response_id=c.response_id, cached=c.cached)
            if c.response_id is not None and ratings and c.response_id in ratings:
                cell.rating, cell.note = ratings[c.response_id]
            if c.first is not None and row is not None and c.status == "answered":
                _pushed(cell, row, c.first[0], c.parsed)
        table.cells[(c.variant_id, c.model)] = cell
    _mark_broke(table)
    return table


def from_answers(df: Any, run: str = "", order: Sequence[str] | None = None) -> Table:
    """The table of a scored-answer frame (:func:`probe_ui.scoring.scored_answers` of one run; several samples
    are reduced to their majority vote first). ``order``: the variant ids in the order the run asked them (a live
    probe records it), so the rows read back stay where they were while it ran; without it, each item's original
    first, then the order the answers arrived."""
    from probe_ui.metrics.frame import value_or_none
    from probe_ui.metrics.samples import majority_vote
    from probe_ui.scoring import UNRATED, model_columns

    if df is None or not len(df):
        return Table(run, finished=True)
    d = majority_vote(df).reset_index(drop=True)
    d = d.assign(_col=model_columns(d).to_numpy())
    rows: dict[str, Row] = {}
    table = Table(run or (str(d["run"].iloc[0]) if "run" in d.columns else ""), finished=True)
    table.models = list(dict.fromkeys(d.sort_values("response_id", kind="stable")["_col"]))
    for r in d.to_dict("records"):
        vid = r["variant_id"]
        if vid not in rows:
            rows[vid] = Row(vid, str(r["item_id"]), str(r.get("condition") or ORIGINAL),
                            describe(value_or_none(r.get("provenance")), r.get("condition")),
                            tuple(value_or_none(r.get("image_ids")) or ()), str(r.get("kind")),
                            tuple(value_or_none(r.get("options")) or ()), value_or_none(r.get("answer_label")))
        row = rows[vid]
        rating = value_or_none(r.get("rating"))
        table.cells[(vid, r["_col"])] = Cell(
            state=_state(value_or_none(r.get("error")), value_or_none(r.get("parsed")),
                         value_or_none(r.get("invalid")), value_or_none(r.get("correct"))),
            answer=answer_text(row.kind, row.options, value_or_none(r.get("parsed"))),
            latency_s=value_or_none(r.get("latency_s")),
            error=value_or_none(r.get("error")), response_id=int(r["response_id"]),
            rating=None if rating in (None, UNRATED) else str(rating), note=str(value_or_none(r.get("note")) or ""))
        if value_or_none(r.get("pressure")) is not None and value_or_none(r.get("error")) is None:
            _pushed(table.cells[(vid, r["_col"])], row, value_or_none(r.get("first_parsed")),
                    value_or_none(r.get("parsed")))
    table.rows = _ordered(list(rows.values()))
    if order:
        at = {vid: i for i, vid in enumerate(order)}
        table.rows.sort(key=lambda r: at.get(r.variant_id, len(at)))  # stable: rows not in ``order`` keep theirs
    if "question" in d.columns and d["item_id"].nunique() == 1:  # one item: its question heads the table
        table.question = str(value_or_none(d["question"].iloc[0]) or "")
    _mark_broke(table)
    return table


def _pushed(cell: Cell, row: Row, first: str | None, last: str | None) -> None:
    """A pushback's cell: the first answer in words beside the one after the pushback, and whether it changed."""
    cell.first = answer_text(row.kind, row.options, first)
    cell.flipped = (first or None) != (last or None)


def _ordered(rows: list[Row]) -> list[Row]:
    """Items in the order they first appear, each item's original first."""
    first = {r.item_id: i for i, r in reversed(list(enumerate(rows)))}
    return sorted(rows, key=lambda r: (first[r.item_id], r.condition != ORIGINAL))


def error_words(error: str | None, limit: int = 160) -> str:
    """A provider error as a short sentence for a cell (the detail view has it whole)."""
    text = " ".join(str(error or "failed").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- HTML ----------------------------------------------------------------------------------------------------------
def thumbnail_uri(png: bytes, px: int = THUMB_PX) -> str:
    """A small JPEG of an image as a data: URI (the table embeds the exact image each row sent)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as opened:
        im = opened.convert("RGB")
        im.thumbnail((px, px))
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=85)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


#: the sign each state carries beside its colour and word (colour is never the only signal)
STATE_SIGNS = {"right": "✓", "wrong": "✗", "broke": "↯", "invalid": "?", "error": "⚠", "unknown": "·",
               "waiting": "…", "missing": ""}


def _cell_html(row: Row, model: str, c: Cell, rate: bool) -> str:
    rid = "" if c.response_id is None else str(c.response_id)
    sign = STATE_SIGNS[c.state]
    parts = []
    if c.state == "waiting":
        parts.append("<div class='pu-ans pu-muted'>asking…</div>")
    elif c.state == "missing":
        parts.append("<div class='pu-ans pu-muted'>not asked</div>")
    elif c.state == "error":
        parts.append(f"<div class='pu-ans'><span class='pu-sign' aria-hidden='true'>{sign}</span> failed</div>"
                     f"<div class='pu-err'>{escape(error_words(c.error))}</div>")
    elif c.state == "invalid":
        parts.append("<div class='pu-ans'>no answer could be read</div>")
    else:
        parts.append(f"<div class='pu-ans' title='{escape(c.answer, quote=True)}'>{_answer_html(c.answer)}</div>")
    if c.first is not None and c.state not in ("waiting", "missing", "error"):
        # a pushback: its first answer too, and whether the pushback changed it (a sign and words, not colour alone)
        first = escape(c.first) if c.first else "no answer could be read"
        change = ("<span class='pu-sign' aria-hidden='true'>↯</span> changed after the pushback" if c.flipped
                  else "held after the pushback")
        parts.insert(0, f"<div class='pu-first'>first answer: {first}</div>")
        parts.append(f"<div class='pu-pushback{' pu-flipped' if c.flipped else ''}'>{change}</div>")
    meta = [STATE_WORDS[c.state]] if c.state not in ("waiting", "missing", "error") else []
    if c.latency_s is not None and not model.startswith(BASELINE_PREFIX):
        meta.append(f"{c.latency_s:.1f} s" + (" (cached)" if c.cached else ""))
    if meta:
        parts.append(f"<div class='pu-meta'>{f'<span class=pu-sign aria-hidden=true>{sign}</span> ' if sign else ''}"
                     f"{escape(' · '.join(meta))}</div>")
    if c.rating:
        parts.append(f"<div class='pu-rated pu-rated-{escape(c.rating)}'>you: {escape(c.rating)}"
                     + (f" · {escape(c.note[:80])}" if c.note else "") + "</div>")
    if rid:
        # a failed call has no answer to rate: only its details (the error whole, the exact request)
        rates = () if c.state == "error" or not rate else (("correct", "✓"), ("incorrect", "✗"), ("unsure", "?"))
        # each button names its cell: a screen reader (or a keyboard user's tooltip) hears whose answer to what
        cell = escape(f"{model}'s answer to {row.label}", quote=True)
        buttons = "".join(
            f"<button type='button' class='pu-rate{' pu-on' if c.rating == v else ''}' data-act='rate' "
            f"data-rating='{v}' data-response='{rid}' title='rate {v}: {cell}' aria-label='rate {v}: {cell}' "
            f"aria-pressed='{str(c.rating == v).lower()}'>{sym}</button>" for v, sym in rates)
        if rate or c.state == "error":
            buttons += (f"<button type='button' class='pu-rate' data-act='open' data-response='{rid}' "
                        f"title='details and a note: {cell}' aria-label='details of {cell}'>…</button>")
        if buttons:
            parts.append(f"<div class='pu-rates'>{buttons}</div>")
    attrs = (f"class='pu-cell pu-{c.state}' data-model='{escape(model, quote=True)}' "
             f"data-variant='{escape(row.variant_id, quote=True)}' data-state='{c.state}'")
    if rid:
        attrs += f" data-response='{rid}' data-act='open' title='click for the exact prompt, reply and image'"
    return f"<td {attrs}>{''.join(parts)}</td>"


def _answer_html(answer: str) -> str:
    """An answer as a cell shows it: for a choice ("C · Nodule in the left lower lobe") the option's words, with
    the letter small before them, so that the words, which the room reads, get the cell's width."""
    letter, sep, words = answer.partition(" · ")
    if sep and len(letter) == 1 and letter in LETTERS:
        return f"<span class='pu-letter'>{escape(letter)} ·</span> <span class='pu-words'>{escape(words)}</span>"
    return escape(answer)


def _breakable(name: str) -> str:
    """A model name escaped, with a line-break opportunity after each '/' and '-' (never inside a word)."""
    return escape(name).replace("/", "/<wbr>").replace("-", "-<wbr>")


def _row_head(row: Row, thumbs: Callable[[str], str | None] | None) -> str:
    pics = ""
    for i in row.image_ids[:2]:
        uri = thumbs(i) if thumbs else None
        if uri:
            pics += f"<img class='pu-thumb' src='{uri}' alt='the image sent for: {escape(row.label, quote=True)}'>"
        else:
            pics += "<div class='pu-noimg'>image not stored yet</div>"
    if not row.image_ids:
        pics = "<div class='pu-noimg'>no image</div>"
    item = "" if row.item_id.startswith("live-") else f"item {escape(row.item_id)} · "
    label = (f"<div class='pu-label'>{escape(row.label)}</div>"
             f"<div class='pu-meta' title='{item}correct: {escape(row.expected, quote=True)}'>{item}correct: "
             f"{_answer_html(row.expected)}</div>")
    return f"<th scope='row' class='pu-variant'><div class='pu-rowhead'>{pics}<div>{label}</div></div></th>"


def _pages(models: list[str], per_page: int | None) -> list[list[str]]:
    if not per_page or len(models) <= per_page:
        return [models]
    n = math.ceil(len(models) / per_page)
    size = math.ceil(len(models) / n)  # even pages: 5 models are 3 + 2, not 4 + 1
    return [models[i:i + size] for i in range(0, len(models), size)]


def render(table: Table, thumbs: Callable[[str], str | None] | None = None, *, rate: bool = True,
           large: bool = False, empty: str = "No answers yet: choose models and press Run.",
           models_per_table: int | None = None) -> str:
    """The table as HTML: the question, a progress line, then rows × model columns. ``thumbs(image_id)`` gives a
    data URI for a row's thumbnail (None: not stored yet). Cells carry ``data-act="open"`` / ``"rate"`` and
    ``data-response`` for the page's click handler. With ``models_per_table``, more models than that are shown
    as several tables one under the other (each with the rows' pictures and labels), never cut off at the
    right edge of a narrow screen."""
    if not table.rows:
        return f"<div class='pu-table-empty'>{escape(empty)}</div>"
    pages = _pages(table.models, models_per_table)
    cls = "pu-table pu-large" if large else "pu-table"
    tables = []
    for k, models in enumerate(pages):
        head = "".join(f"<th class='pu-model' scope='col'>{_breakable(m)}</th>" for m in models)
        if not models:  # a preview before any model is chosen: the rows alone
            head = "<th class='pu-model pu-muted' scope='col'>no model chosen yet</th>"
        body = []
        for row in table.rows:
            cells = "".join(_cell_html(row, m, table.cell(row.variant_id, m), rate) for m in models) or \
                "<td class='pu-cell pu-missing'><div class='pu-ans pu-muted'>tick models above to ask</div></td>"
            body.append(f"<tr data-variant='{escape(row.variant_id, quote=True)}' data-condition="
                        f"'{escape(row.condition, quote=True)}'>{_row_head(row, thumbs)}{cells}</tr>")
        first = table.models.index(models[0]) + 1 if models else 0
        caption = (f"<caption class='pu-page'>models {first}–{first + len(models) - 1} of {len(table.models)}"
                   "</caption>") if len(pages) > 1 else ""
        tables.append(f"<div class='pu-scroll'><table class='{cls}' data-models='{len(models)}' "
                      f"data-rows='{len(table.rows)}' data-page='{k + 1}'>{caption}<thead><tr><th class='pu-corner' "
                      f"scope='col'>what was asked</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
                      "</div>")
    asked = (f"<div class='pu-asked'><span class='pu-muted'>asked:</span> {escape(table.question)}</div>"
             if table.question else "")
    if table.run:
        progress = (f"<div class='pu-progress' data-done='{table.done}' data-total='{table.total}' "
                    f"data-finished='{str(table.finished).lower()}'>{table.done} of {table.total} answers"
                    f"{' · finished' if table.finished else ' · answers arrive as each model replies'}</div>")
    else:
        progress = (f"<div class='pu-progress' data-preview='true'>Preview: {len(table.rows)} variant"
                    f"{'s' if len(table.rows) != 1 else ''} as they will be sent; nothing asked yet</div>")
    return asked + progress + LEGEND + "".join(tables)


LEGEND = ("<div class='pu-legend'><span class='pu-key pu-right'>✓ right</span><span class='pu-key pu-wrong'>✗ wrong"
          "</span><span class='pu-key pu-broke'>↯ broke: wrong, though right on the original</span><span "
          "class='pu-key pu-invalid'>? no answer could be read</span><span class='pu-key pu-error'>⚠ failed</span>"
          "<span class='pu-muted'>· click a cell for the exact prompt and reply; ✓ ✗ ? rate it</span></div>")

#: never a break inside a word: lines break between words (and after '/' or '-' in model names); only an error
#: message, which may hold a long address, breaks anywhere
CSS = """
.pu-asked {font-size:16px; margin:4px 0; color:#1f2328;}
.pu-legend {display:flex; flex-wrap:wrap; gap:6px; align-items:center; font-size:13px; margin:0 0 6px 0;}
.pu-key {padding:1px 8px; border-radius:4px; border:1px solid #d0d7de;}
.pu-scroll {overflow-x:auto; max-width:100%; margin-bottom:10px;}
.pu-page {caption-side:top; text-align:left; font-weight:600; padding:2px 0; color:#1f2328;}
.pu-table {border-collapse:separate; border-spacing:0; width:100%; font-size:15px; color:#1f2328;
           background:#fff; table-layout:auto; word-break:normal; overflow-wrap:normal; hyphens:manual;}
.pu-table th, .pu-table td {border-bottom:1px solid #d0d7de; border-right:1px solid #eaeef2; padding:6px 8px;
           vertical-align:top; text-align:left;}
.pu-table thead th {position:sticky; top:0; background:#f6f8fa; z-index:2; font-weight:600;}
.pu-table th.pu-corner, .pu-table th.pu-variant {position:sticky; left:0; background:#f6f8fa; z-index:1;
           width:200px; min-width:160px;}
.pu-table thead th.pu-corner {z-index:3;}
.pu-table th.pu-model {min-width:100px;}
.pu-rowhead {display:flex; gap:8px; align-items:flex-start; font-weight:400;}
.pu-thumb {width:72px; height:auto; border-radius:4px; border:1px solid #d0d7de;}
.pu-noimg {width:72px; min-height:48px; display:flex; align-items:center; justify-content:center; font-size:12px;
           color:#57606a; border:1px dashed #6e7781; border-radius:4px; text-align:center;}
.pu-label {font-weight:600;}
.pu-meta {color:#424a53; font-size:12px; margin-top:2px;}
.pu-muted {color:#57606a;}
.pu-cell {cursor:pointer; min-width:100px;}
.pu-cell:hover {outline:2px solid #0969da; outline-offset:-2px;}
.pu-ans {font-weight:600;}
.pu-letter {font-size:.75em; font-weight:400; color:#424a53; margin-right:.15em;}
.pu-err {color:#424a53; font-size:13px; overflow-wrap:anywhere;}
.pu-first {color:#424a53; font-size:12px; margin-bottom:2px;}
.pu-pushback {color:#424a53; font-size:12px; margin-top:2px;} .pu-flipped {color:#1f2328; font-weight:600;}
.pu-right {background:#dafbe1;} .pu-wrong {background:#ffebe9;} .pu-broke {background:#cf222e; color:#fff;}
.pu-broke .pu-ans, .pu-broke .pu-meta, .pu-broke .pu-rated, .pu-broke .pu-words, .pu-broke .pu-letter {
    color:#fff !important;}
.pu-invalid {background:#eaeef2;} .pu-error {background:#f6f8fa; border-left:4px solid #9a6700 !important;}
.pu-waiting {background:#fff8c5;} .pu-unknown {background:#ddf4ff;} .pu-missing {background:#fff;}
.pu-rates {margin-top:4px; display:flex; gap:3px; flex-wrap:wrap;}
.pu-rate {border:1px solid #6e7781; background:#fff; color:#1f2328; border-radius:4px; padding:0 6px;
          font-size:12px; cursor:pointer; line-height:20px;}
.pu-rate:focus-visible, .pu-cell:focus-visible {outline:3px solid #0969da; outline-offset:1px;}
.pu-rate.pu-on {background:#0969da; color:#fff; border-color:#0969da;}
.pu-rated {font-size:12px; margin-top:3px; font-style:italic;}
.pu-progress {margin:4px 0 6px 0; color:#424a53;}
.pu-table-empty {padding:14px; color:#424a53; border:1px dashed #6e7781; border-radius:6px;}
.pu-large {font-size:20px;} .pu-large .pu-meta {font-size:15px;} .pu-large .pu-thumb {width:96px;}
.pu-large th.pu-variant, .pu-large th.pu-corner {width:240px; min-width:180px;}
"""

#: the table's click handler (gr.HTML js_on_load): a click on a cell or one of its buttons sends
#: {act, response, rating} to the server as the component's value (``trigger('select')``)
JS = """
element.addEventListener('click', (e) => {
  const t = e.target.closest('[data-act]');
  if (!t || !element.contains(t)) return;
  e.stopPropagation();
  props.value = {...(props.value || {}), action: {act: t.dataset.act, response: t.dataset.response || '',
                 rating: t.dataset.rating || '', t: Date.now()}};
  trigger('select');
});
"""


def comparison_of(store: Store, run: str) -> Any:
    """A stored run as the comparison table (:func:`from_answers` over its scored answers)."""
    from probe_ui.scoring import scored_answers

    settings = store.get_run(run).config
    table = from_answers(scored_answers(store, run), run, order=settings.variant_order or None)
    asked = settings.asked
    order = {m: i for i, m in enumerate(asked)}  # the columns in the order the models were chosen, as it ran
    table.models.sort(key=lambda m: order.get(m, len(order)))
    return table
