"""The comparison table (Probe and Stress tabs) and the plain-language condition names, without the UI."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from probe_ui import live
from probe_ui.conditions import describe, step_phrase
from probe_ui.perturb import all_perturbations
from probe_ui.presets import ASSETS_DIR
from probe_ui.store import Store
from probe_ui.views import comparison


@pytest.fixture
def ct():
    return live.load_upload(str(ASSETS_DIR / "ct_head_axial.png")).image


def variants(ct, steps):
    it = live.build_item("Which modality?", "choice", "CT\nMRI\nUltrasound", "CT", "Head", (ct,))
    return live.make_variants(it, (ct,), live.parse_steps(steps))


class Cells(HTMLParser):
    """Rows of the rendered table: each row's cell classes and texts."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[dict]] = []
        self.head: list[str] = []
        self._cell: dict | None = None
        self._th = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = {"class": a.get("class", ""), "state": a.get("data-state"), "model": a.get("data-model"),
                          "response": a.get("data-response"), "text": ""}
            self.rows[-1].append(self._cell)
        elif tag == "th" and "pu-model" in (a.get("class") or ""):
            self._th = True
            self.head.append("")

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        if tag == "th":
            self._th = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data
        if self._th:
            self.head[-1] += data


def parse(html: str) -> Cells:
    p = Cells()
    p.feed(html)
    p.rows = [r for r in p.rows if r]
    return p


def test_every_condition_has_words() -> None:
    assert describe([{"op": "rotate", "params": {"angle": 90}}]) == "rotated 90°"
    assert describe([{"op": "shuffle", "params": {}}]) == "options shuffled"
    assert describe([{"op": "nota", "params": {"mode": "baseline"}}]) == "none of the above added"
    assert describe([{"op": "remove", "params": {}}]) == "no image"
    assert describe([{"op": "rotate", "params": {"angle": 180}}, {"op": "shuffle", "params": {}}]) == \
        "rotated 180° + options shuffled"
    assert describe([], "original") == "original"
    for p in all_perturbations():  # a phrase for every registered perturbation, never code
        words = step_phrase(p.name, {})
        assert words and "(" not in words.split(" ")[0] and "=" not in words, (p.name, words)


def test_answers_in_words_letter_and_option() -> None:
    assert comparison.answer_text("choice", ("CT", "MRI"), "B") == "B · MRI"
    assert comparison.answer_text("yesno", (), "yes") == "yes"
    assert comparison.answer_text("label", ("red", "green"), "green") == "green"
    assert comparison.answer_text("choice", ("CT",), None) == ""
    assert comparison.answer_text("point", (), "(60, 40)") == "points at (60, 40)"  # where, in the image's pixels
    assert comparison.Row("v", "i", "original", "original", (), "point", (), None).expected == \
        "a point in the finding's region"


def test_a_live_run_as_a_table_with_broken_cells(tmp_path, ct) -> None:
    store = Store(tmp_path / "s.db")
    vs = variants(ct, [[1, "rotate", '{"angle": 180}'], [2, "cyclic_shift", '{"shift": 1}']])
    *_, state = live.run_live(store, vs, ["baseline/first", "baseline/last"])
    t = comparison.from_live(state, vs)
    assert [r.label for r in t.rows] == ["original", "rotated 180°", "options rotated by 1"]
    assert t.models == ["baseline/first", "baseline/last"] and t.done == t.total == 6
    first = {r.label: t.cell(r.variant_id, "baseline/first") for r in t.rows}
    assert first["original"].state == "right" and first["original"].answer == "A · CT"
    shifted = next(r for r in t.rows if r.condition != "original" and "rotated by" in r.label)
    # the shift moved CT away from A: baseline/first still says A, now another option, wrong though right before
    assert first["options rotated by 1"].state == "broke"
    assert first["options rotated by 1"].answer == f"A · {shifted.options[0]}"
    assert t.cell(t.rows[0].variant_id, "baseline/last").state == "wrong"
    # the same run read back from the store gives the same table, rows in the order asked (answers arrive in any
    # order: the live calls all leave at once)
    again = comparison.comparison_of(store, state.run)
    assert [r.label for r in again.rows] == [r.label for r in t.rows]
    assert {k: (c.state, c.answer) for k, c in again.cells.items()} == \
        {k: (c.state, c.answer) for k, c in t.cells.items()}


@pytest.mark.slow
def test_the_table_stays_aligned_for_many_models_and_variants(ct) -> None:
    vs = variants(ct, [[i, "rotate", f'{{"angle": {12 * i}}}'] for i in range(1, 30)])  # 12..348°
    assert len(vs) == 30
    models = [f"m{i}/very-long-model-name-{i}" for i in range(8)]
    t = comparison.Table("r", [comparison.row_for_variant(v) for v in vs], models)
    for v in vs[::2]:
        for m in models[::3]:
            t.cells[(v.id, m)] = comparison.Cell("right", "A · CT", 1.234, response_id=7)
    page = parse(comparison.render(t))
    assert page.head == models
    assert len(page.rows) == 30 and all(len(r) == 8 for r in page.rows)
    assert [c["model"] for c in page.rows[0]] == models  # every row's cells under their column's header
    assert page.rows[1][0]["state"] == "missing" and page.rows[0][0]["state"] == "right"


def test_errors_in_words_and_escaped_text(ct) -> None:
    evil = "<img src=x onerror=alert(1)>**bold**"
    vs = variants(ct, [])
    t = comparison.Table("r", [comparison.row_for_variant(v) for v in vs], [evil])
    t.cells[(vs[0].id, evil)] = comparison.Cell("error", error="OPENAI_API_KEY is not set " + evil)
    html = comparison.render(t)
    assert "<img src=x" not in html and "&lt;img src=x" in html
    cell = parse(html).rows[0][0]
    assert cell["state"] == "error" and "OPENAI_API_KEY is not set" in cell["text"]


def test_ratings_show_in_their_cell(tmp_path, ct) -> None:
    store = Store(tmp_path / "s.db")
    vs = variants(ct, [])
    *_, state = live.run_live(store, vs, ["baseline/first"])
    rid = state.cards[0].response_id
    store.rate_response(rid, "incorrect", "missed the haemorrhage")
    t = comparison.comparison_of(store, state.run)
    cell = t.cell(vs[0].id, "baseline/first")
    assert (cell.rating, cell.note) == ("incorrect", "missed the haemorrhage")
    html = comparison.render(t)
    assert "you: incorrect · missed the haemorrhage" in html
    assert re.search(r"class='pu-rate pu-on' data-act='rate' data-rating='incorrect'", html)
