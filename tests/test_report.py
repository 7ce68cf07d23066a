"""``probe-ui report`` (probe_ui.views.report): one self-contained HTML file per run, on stores filled by real batches
of the baseline models. The browser test (Debian's chromium via Playwright) is skipped when chromium is absent (failed
under CI=true); its
screenshot goes to ``test-artifacts/report/`` (or ``$PROBE_UI_ARTIFACTS/report/``)."""

from __future__ import annotations

import html
import math
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa
from built_once import built_once
from helpers import CHROMIUM, require_chromium, write_png, write_preset
from shared_chromium import ARGS

from probe_ui.cli import main
from probe_ui.files.safe_write import new_file_mode
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run
from probe_ui.stats import newcombe_interval
from probe_ui.store import Store, responses
from probe_ui.views import report as report_module
from probe_ui.views import results as R
from probe_ui.views.report import ReportError, build_report, write_report

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

MODELS = ["baseline/first", "baseline/random", "baseline/last"]
PRESETS = ["mediconfusion_pairs.yaml", "medvh_nota.yaml"]
ARTIFACTS = Path(os.environ.get("PROBE_UI_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>',
       '<script>window.__xss=1</script>', "'><svg onload=\"window.__xss=1\">"]
no_chromium = pytest.mark.usefixtures("chromium")


@pytest.fixture
def chromium() -> str:
    return require_chromium()


def _build_runs(folder: Path) -> None:
    """The store of :func:`runs` and the report of its main run against its baseline run (:func:`report`)."""
    store = Store(folder / "r.db")
    presets = [load_preset(PRESETS_DIR / p) for p in PRESETS]
    main_run = run_batch(store, presets, MODELS,
                         BatchOptions(suites=["rotations"], seed=0, run_name="main", progress=False))
    base_run = run_batch(store, presets, MODELS,
                         BatchOptions(suites=["rotations"], seed=1, run_name="base", progress=False))
    assert main_run.errors == 0 and base_run.errors == 0
    (folder / "report.html").write_text(build_report(store, "main", baseline="base"), encoding="utf-8")
    store.close()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, str, str]:
    """MediConfusion pairs and MedVH NOTA items under rotations, three baselines; the same with another seed as the
    baseline run. Built once per run with the report (tests/built_once.py: about 15 s of CPU, which every xdist
    worker that ran one of these tests paid again), then copied into this module's own folder."""
    folder = tmp_path_factory.mktemp("report")
    shutil.copytree(built_once(tmp_path_factory, "report-runs", _build_runs), folder, dirs_exist_ok=True)
    return Store(folder / "r.db"), "main", "base"


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``build_report`` of the main run against the baseline run, built with the store (:func:`_build_runs`)."""
    return (built_once(tmp_path_factory, "report-runs", _build_runs) / "report.html").read_text(encoding="utf-8")


class _Cells(HTMLParser):
    """Every element's attributes and its text (elements nest: text goes to each open element)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict] = []
        self._open: list[dict] = []

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(el)
        if tag not in ("img", "meta", "br", "link", "input"):
            self._open.append(el)

    def handle_endtag(self, tag):
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        for el in self._open:
            el["text"] += data


def _elements(text: str) -> list[dict]:
    p = _Cells()
    p.feed(text)
    return p.elements


def _frame(store: Store, name: str) -> pd.DataFrame:
    return store.answers_frame(store.get_run(name).id, full=True)


# ---- self-contained and complete ----------------------------------------------------------------------------------

def test_report_is_self_contained(report: str) -> None:
    assert report.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?://", report)  # no URL at all, let alone a resource
    assert "<script" not in report.lower() and "@import" not in report and "url(" not in report
    assert "<link" not in report.lower() and "<iframe" not in report.lower()
    for tag, attr, value in re.findall(r"<(\w+)[^>]*?\s(src|href|srcset|action)\s*=\s*\"([^\"]*)\"", report):
        if attr == "href":
            assert value.startswith("#"), (tag, value)
        else:
            assert value.startswith("data:image/"), (tag, value[:40])
    csp = next(e for e in _elements(report) if e["attrs"].get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp["attrs"]["content"] and "script-src 'none'" in csp["attrs"]["content"]
    assert len(report.encode()) < 3_000_000


def test_report_names_every_model_and_the_run(runs, report: str) -> None:
    store, run, base = runs
    for m in MODELS:
        assert m in report
    els = _elements(report)
    assert next(e for e in els if e["tag"] == "h1")["text"] == run
    facts = {e["text"]: els[i + 1]["text"] for i, e in enumerate(els) if e["tag"] == "dt" and i + 1 < len(els)}
    df = _frame(store, run)
    assert facts["variants"] == str(df["variant_id"].nunique())
    assert facts["answers"] == str(len(df))
    assert facts["models"] == "3" and facts["seed"] == "0" and facts["baseline"] == base
    for anchor in ("overview", "papers", "stress", "baseline", "plots", "worst", "provenance"):
        assert f'<section id="{anchor}">' in report and f'href="#{anchor}"' in report


def test_overview_and_paper_tables_match_metric_tables(runs, report: str) -> None:
    store, run, _ = runs
    tables = R.metric_tables(R.answers(store, [run]))
    scored = score_run(store, run)
    els = _elements(report)
    ov = {(e["attrs"]["data-col"], row): e for row in MODELS
          for e in _row_cells(els, row)}
    for r in tables["overview"].to_dict("records"):
        cell = ov[("accuracy", r["model"])]
        assert cell["text"] == f"{r['accuracy']:.2f}"
        assert float(cell["attrs"]["data-value"]) == r["accuracy"]
        assert ov[("n", r["model"])]["text"] == str(r["n"])
        assert ov[("ci", r["model"])]["text"] == f"{r['ci_low']:.1f}–{r['ci_high']:.1f}"
    first = scored["models"]["baseline/first"]["accuracy"]
    assert ov[("accuracy", "baseline/first")]["text"] == f"{first['value']:.2f}"

    cells = {(e["attrs"]["data-model"], e["attrs"]["data-metric"]): e for e in els
             if "data-metric" in e["attrs"]}
    checked = 0
    for family in ("mediconfusion", "groups"):
        t = tables[family]
        for r in t.to_dict("records"):
            if not isinstance(r["value"], float) or math.isnan(r["value"]):
                continue
            cell = cells[(r["model"], r["metric"])]
            assert float(cell["attrs"]["data-value"]) == pytest.approx(r["value"])
            assert cell["text"] == f"{r['value']:.2f}"
            checked += 1
    assert checked > 50
    sa_first = tables["mediconfusion"].query("model == 'baseline/first' and metric == 'set_accuracy'")["value"].iloc[0]
    assert cells[("baseline/first", "set_accuracy")]["text"] == f"{sa_first:.2f}"


def _row_cells(els: list[dict], model: str) -> list[dict]:
    """The data cells of the overview row of one model."""
    start = next(i for i, e in enumerate(els) if e["tag"] == "tr" and e["attrs"].get("data-model") == model)
    out = []
    for e in els[start + 1:]:
        if e["tag"] == "tr":
            break
        if "data-col" in e["attrs"]:
            out.append(e)
    return out


# ---- deltas -------------------------------------------------------------------------------------------------------

def test_newcombe_interval_reproduces_newcombe_1998() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10
    for (x1, n1, x2, n2), (lo, hi) in {(56, 70, 48, 80): (0.0524, 0.3339), (9, 10, 3, 10): (0.1705, 0.8090),
                                       (6, 7, 2, 7): (0.0582, 0.8062), (5, 56, 0, 29): (-0.0381, 0.1926),
                                       (0, 10, 0, 20): (-0.1611, 0.2775), (10, 10, 0, 20): (0.6791, 1.0)}.items():
        d, l_, h = newcombe_interval(x1, n1, x2, n2)
        assert d == pytest.approx(100 * (x1 / n1 - x2 / n2))
        assert (round(l_ / 100, 4), round(h / 100, 4)) == (lo, hi)
    assert newcombe_interval(1, 0, 1, 2) is None


def _delta_cells(report: str, table_cls: str) -> dict[tuple[str, str], dict]:
    section = report[report.index(f"grid deltas {table_cls}"):]
    section = section[:section.index("</table>")]
    return {(e["attrs"]["data-model"], e["attrs"]["data-condition"]): e["attrs"]
            for e in _elements(section) if "data-delta" in e["attrs"]}


def test_stress_deltas_equal_hand_computed_differences(runs, report: str) -> None:
    store, run, _ = runs
    df = _frame(store, run)
    ok = df[df["error"].isna() & df["correct"].notna()]
    cells = _delta_cells(report, "stress")
    conditions = sorted(set(df["condition"]) - {"original"})
    assert conditions and len(cells) == len(MODELS) * len(conditions)
    for model in MODELS:
        m = ok[ok["model"] == model]
        for cond in conditions:
            pert = m[m["condition"] == cond]
            items = set(zip(pert["source"], pert["item_id"]))
            same = pd.Series([k in items for k in zip(m["source"], m["item_id"])], index=m.index)
            orig = m[(m["condition"] == "original") & same]
            acc_p = 100.0 * pert["correct"].eq(True).sum() / len(pert)
            acc_o = 100.0 * orig["correct"].eq(True).sum() / len(orig)
            cell = cells[(model, cond)]
            assert float(cell["data-delta"]) == pytest.approx(acc_p - acc_o, abs=1e-6)
            _, lo, hi = newcombe_interval(pert["correct"].eq(True).sum(), len(pert), orig["correct"].eq(True).sum(),
                                          len(orig))
            assert float(cell["data-ci-low"]) == pytest.approx(lo, abs=1e-5)
            assert float(cell["data-ci-high"]) == pytest.approx(hi, abs=1e-5)
            assert float(cell["data-ci-low"]) <= float(cell["data-delta"]) <= float(cell["data-ci-high"])
    assert "Newcombe" in report


def test_baseline_deltas_equal_run_minus_baseline(runs, report: str) -> None:
    store, run, base = runs
    cells = _delta_cells(report, "vsbase")
    a, b = score_run(store, run)["models"], score_run(store, base)["models"]
    for model in MODELS:
        acc_a, acc_b = a[model]["accuracy"], b[model]["accuracy"]
        d = 100.0 * (acc_a["numerator"] / acc_a["denominator"] - acc_b["numerator"] / acc_b["denominator"])
        assert float(cells[(model, "*")]["data-delta"]) == pytest.approx(d, abs=1e-6)
    by_a = R.accuracy_by_condition(_frame(store, run)).set_index(["model", "condition"])
    by_b = R.accuracy_by_condition(_frame(store, base)).set_index(["model", "condition"])
    for (model, cond), row in by_a.iterrows():
        assert float(cells[(model, cond)]["data-delta"]) == pytest.approx(
            row["accuracy"] - by_b.loc[(model, cond), "accuracy"], abs=1e-6)
    assert any(abs(float(c["data-delta"])) > 0 for c in cells.values())  # baseline/random differs by seed


# ---- worst cases --------------------------------------------------------------------------------------------------

def test_worst_cases_list_variants_every_model_failed_first(runs, report: str) -> None:
    store, run, _ = runs
    df = _frame(store, run)
    ok = df[df["error"].isna() & df["correct"].notna()]
    per = ok.groupby("variant_id")["correct"].agg(lambda c: (~c.astype(bool)).sum()).rename("failed").to_frame()
    per["scored"] = ok.groupby("variant_id").size()
    all_failed = set(per.index[per["failed"] == per["scored"]])
    assert all_failed, "the fixture should hold variants that every model failed"

    section = report[report.index('<section id="worst">'):report.index('<section id="provenance">')]
    els = _elements(section)
    cards = [e for e in els if e["tag"] == "article"]
    assert len(cards) == 12
    listed = [c["attrs"]["data-variant"] for c in cards]
    k = min(12, len(all_failed))
    assert set(listed[:k]) <= all_failed
    failed = [int(c["attrs"]["data-failed"]) for c in cards]
    assert failed == sorted(failed, reverse=True)
    for c in cards:
        assert int(c["attrs"]["data-failed"]) == per.loc[c["attrs"]["data-variant"], "failed"]
    # each card: a thumbnail, the item, the question, and every model's parsed answer
    first = section[section.index("<article"):section.index("</article>")]
    row = df[df["variant_id"] == listed[0]].iloc[0]
    assert html.escape(row["item_id"]) in first and html.escape(row["question"], quote=True) in first
    assert first.count('<img class="thumb" src="data:image/jpeg;base64,') >= 1
    for m in MODELS:
        assert f'data-model="{m}"' in first
    widths = [int(w) for w in re.findall(r'<img class="thumb"[^>]* width="(\d+)" height="(?:\d+)"', section)]
    heights = [int(h) for h in re.findall(r'<img class="thumb"[^>]* height="(\d+)"', section)]
    assert widths and max(widths + heights) <= 160


# ---- provenance ---------------------------------------------------------------------------------------------------

def test_provenance_names_files_not_paths(runs, report: str) -> None:
    _, run, base = runs
    assert str(PRESETS_DIR) not in report and str(Path.home()) + "/" not in report
    section = report[report.index('<section id="provenance">'):]
    for p in PRESETS:
        assert p in section
    assert ("probe-ui batch mediconfusion_pairs.yaml medvh_nota.yaml --model baseline/first --model baseline/random "
            "--model baseline/last --seed 0 --suite rotations --run main --db r.db") in section
    assert f"probe-ui report --db r.db --run {run} --baseline {base} --out report.html" in section
    assert "api_key_env" not in report
    for pkg in ("pandas", "numpy", "probe-ui"):
        assert f">{pkg}<" in section


# ---- hostile text -------------------------------------------------------------------------------------------------

@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Store, str, Path]:
    """A run named with markup, whose items carry markup in question and options, one reply of markup, and a model
    record with a key variable and a URL with credentials."""
    write_png(tmp_path / "a.png", size=(300, 200))
    items = [{"id": f"q{i}", "image": "a.png", "question": f"{XSS[i % len(XSS)]} question {i}?",
              "options": [f"plain {i}", XSS[(i + 1) % len(XSS)], f"third {i}"], "answer": "B",
              "category": [XSS[i % len(XSS)]]} for i in range(4)]
    preset = write_preset(tmp_path / "hostile.yaml", items)
    store = Store(tmp_path / "h.db")
    name = "run " + XSS[1] + XSS[0]
    res = run_batch(store, [load_preset(preset)], ["baseline/first", "baseline/last"],
                    BatchOptions(run_name=name, progress=False))
    assert res.errors == 0
    rid = store.answers_frame(res.run.id)["response_id"].iloc[0]
    with store.engine.begin() as c:
        c.execute(sa.update(responses).where(responses.c.id == int(rid)).values(raw_text=" ".join(XSS)))
    run = store.get_run(name)
    models = [dict(m) for m in run.settings["models"]]
    models[0].update(api_key_env="SECRET_VARIABLE_NAME_42", base_url="https://user:hunter2@llm.example/v1?key=abc#x")
    store.merge_run_settings(run.id, {"models": models, "notes": XSS[0],
                                      "path": str(tmp_path / "secret-dir" / "f.json")})
    return store, name, tmp_path


def _assert_no_markup(text: str) -> None:
    low = text.lower()
    assert "<script" not in low and "<svg" not in low
    assert "<img src=x" not in low
    assert not re.search(r"<[^>]*\s(onerror|onload)\s*=", low)
    for payload in XSS:
        assert payload not in text


def test_hostile_text_is_escaped_everywhere(hostile) -> None:
    store, name, tmp = hostile
    text = build_report(store, name)
    _assert_no_markup(text)
    assert html.escape("run " + XSS[1] + XSS[0], quote=True) in text  # the run name, escaped (h1, title)
    assert html.escape(f"{XSS[0]} question 0?", quote=True) in text  # a question
    assert html.escape(XSS[2], quote=True) in text  # an option (of item 1) / a question
    assert html.escape(" ".join(XSS), quote=True) in text  # the markup reply, shown literally
    # no secrets, no absolute paths
    assert "SECRET_VARIABLE_NAME_42" not in text and "hunter2" not in text and "key=abc" not in text
    assert "llm.example/v1" in text
    assert str(tmp) not in text and "secret-dir" not in text and "f.json" in text


@no_chromium
def test_hostile_report_runs_no_script_in_chromium(hostile, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    store, name, _ = hostile
    out = write_report(store, name, tmp_path / "out" / "hostile.html")
    dialogs: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(out.resolve().as_uri())
            page.wait_for_load_state("load")
            assert page.evaluate("window.__xss === undefined")
            assert page.locator("script").count() == 0
            assert page.locator("img:not([src^='data:'])").count() == 0
            assert page.locator("[onerror], [onload]").count() == 0
            assert "question 0?" in page.inner_text("body")
        finally:
            browser.close()
    assert dialogs == []


# ---- in a browser -------------------------------------------------------------------------------------------------

@no_chromium
def test_report_renders_in_chromium_without_errors(runs, report: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    store, run, base = runs
    out = tmp_path / "report.html"
    out.write_text(report, encoding="utf-8")  # what write_report writes (built once for the module)
    shots = ARTIFACTS / "report"
    shots.mkdir(parents=True, exist_ok=True)
    messages: list[tuple[str, str]] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda m: messages.append((m.type, m.text)))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
            page.goto(out.resolve().as_uri())
            page.wait_for_load_state("load")
            images = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.className])")
            assert len(images) >= 3 + 12  # three plots and a thumbnail per worst case at least
            assert all(done and width > 0 for done, width, _ in images), images
            assert sum(1 for *_, cls in images if cls == "plot") == 3
            assert page.locator("h1").inner_text() == run
            page.screenshot(path=str(shots / "report.png"), full_page=True)
        finally:
            browser.close()
    assert errors == []
    assert [m for m in messages if m[0] == "error"] == []
    assert (shots / "report.png").stat().st_size > 10_000


@no_chromium
def test_a_report_of_six_models_fits_a_1440_px_window(tmp_path: Path, fake_openai) -> None:
    """Issue 51, U42: at 1440 x 900 the page does not scroll sideways and no table is cut (the overview was 1,181
    px in a 1,124 px column: its headings could not wrap, so its last column sat behind a sideways scroll), for a
    run of six models with a baseline run (each delta table has a column per model)."""
    import yaml
    from playwright.sync_api import sync_playwright

    from probe_ui.providers.base import ModelConfig

    models = [f"reader-{k:02d}" for k in range(1, 7)]
    fake_openai.responder = lambda body: "AB"[int(body["model"][-2:]) % 2]
    doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
    doc["items"] = doc["items"][:2]  # one pair; its images are found among the shipped assets
    preset = tmp_path / "one_pair.yaml"
    preset.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    configs = {m: ModelConfig(name=m, provider="openai", model=m, base_url=fake_openai.base_url, secret="sk-report")
               for m in models}
    store = Store(tmp_path / "six.db")
    for name, seed in (("six-models", 0), ("six-models-before", 1)):
        done = run_batch(store, [load_preset(preset)], models,
                         BatchOptions(suites=["rotations"], seed=seed, run_name=name, progress=False),
                         extra_models=configs)
        assert done.errors == 0 and done.answered == 6 * 2 * 4
    out = write_report(store, "six-models", tmp_path / "six.html", baseline="six-models-before")
    shots = ARTIFACTS / "report"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(out.resolve().as_uri())
            page.wait_for_load_state("load")
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page_width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            cut = page.evaluate("() => [...document.querySelectorAll('.scroll')].filter((s) => s.scrollWidth > "
                                "s.clientWidth + 1).map((s) => `${s.firstElementChild.className}: ${s.scrollWidth} "
                                "px in ${s.clientWidth}`)")
            rows = page.locator("#overview table.overview tbody tr").count()
            page.locator("#overview").screenshot(path=str(shots / "six-models-overview-1440.png"))
            page.screenshot(path=str(shots / "six-models-1440.png"))
        finally:
            browser.close()
    assert page_width[0] <= page_width[1], page_width
    assert rows == 6
    assert cut == [], f"tables wider than their place on a 1440 px page: {cut}"


# ---- writing, errors, the command ----------------------------------------------------------------------------------

def test_write_report_is_atomic_and_replaces(runs, report: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    store, run, base = runs
    out = tmp_path / "new" / "deeper" / "r.html"
    assert write_report(store, run, out) == out
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    monkeypatch.setattr(report_module, "build_report", lambda *a, **k: report)  # the same text, built once
    write_report(store, run, out, baseline=base, force=True)  # an existing file is replaced only with force
    assert out.read_text(encoding="utf-8") == report
    # a new file's mode (the umask's), never the mode of what was there (issue 24: /dev/full's 0666)
    assert out.stat().st_mode & 0o777 == new_file_mode()
    assert sorted(p.name for p in out.parent.iterdir()) == ["r.html"]  # no temporary file left behind

    def broken(*a, **k):
        raise ReportError("no run named 'x'")

    monkeypatch.setattr(report_module, "build_report", broken)
    with pytest.raises(ReportError):
        write_report(store, "x", out, force=True)
    assert out.read_text(encoding="utf-8") == report  # a failed build leaves the old report alone
    assert sorted(p.name for p in out.parent.iterdir()) == ["r.html"]


def test_errors_are_clear(runs, tmp_path: Path) -> None:
    store, run, _ = runs
    with pytest.raises(ReportError, match="no run named 'nope'.*main"):
        build_report(store, "nope")
    with pytest.raises(ReportError, match="no baseline run named 'gone'"):
        build_report(store, run, baseline="gone")
    with pytest.raises(ReportError, match="baseline is the run itself"):
        build_report(store, run, baseline=run)
    with pytest.raises(ReportError, match="is a folder"):
        write_report(store, run, tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ReportError, match="cannot write the report"):
        write_report(store, run, blocker / "r.html")
    assert issubclass(ReportError, ValueError)
    empty = Store(tmp_path / "empty.db")
    with pytest.raises(ReportError, match="no runs"):
        build_report(empty, None)


def test_a_run_without_answers_still_reports(tmp_path: Path) -> None:
    store = Store(tmp_path / "e.db")
    store.ensure_run("nothing-yet", 3, {"presets": [], "models": []})
    text = build_report(store, None)  # None: the most recent run
    assert "nothing-yet" in text and "No answers yet" in text
    # the three figures say in words that there is nothing to plot, rather than as pictures of those words
    assert 'src="data:image/png;base64,' not in text
    for alt in ("accuracy per perturbation condition", "accuracy per category and model",
                "confusion matrices, one per model"):
        assert re.search(rf"\({re.escape(alt)}[^:]*: no answers\)", text), alt


def test_cli_report_writes_the_file(runs, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, run, base = runs
    db = str(store.url).removeprefix("sqlite:///")
    out = tmp_path / "cli" / "report.html"
    assert main(["report", "--db", db, "--run", run, "--baseline", base, "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert '<section id="baseline">' in text
    assert main(["report", "--db", db, "--run", "missing", "--out", str(tmp_path / "x.html")]) == 1
    assert "no run named 'missing'" in capsys.readouterr().err
