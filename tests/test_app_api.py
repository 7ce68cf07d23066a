"""Every public endpoint of the running app, called through gradio_client as a script would."""

from __future__ import annotations

import json
import os
import re

import pytest
from app_server import api_client, module_app
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError
from pydicom.data import get_testdata_file

from probe_ui.app.serve import ServeError, options
from probe_ui.live.form import step_rows
from probe_ui.runner import BatchOptions

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

CALLED: set[str] = set()

#: one app for the module's tests (tests/app_server.py, module_app): each works in gradio_client sessions of its own
#: and looks only at the runs it makes (the conftest's ``app_server`` starts one per test)
app_server = module_app(demo=True, max_upload_mb=20)


@pytest.fixture
def client(app_server):
    c = api_client(app_server.url)
    yield c
    c.close() if hasattr(c, "close") else None


def call(client: Client, api: str, *args):
    CALLED.add(api)
    return client.predict(*args, api_name=api)


def val(x):
    """A component update (``{"__type__": "update", "value": ...}``) or a plain value → the value."""
    return x.get("value") if isinstance(x, dict) and x.get("__type__") == "update" else x


def rows(df) -> list[list]:
    return df["data"] if isinstance(df, dict) else df


#: an empty steps table, as the API takes a Dataframe
STEPS0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}


def test_every_endpoint_is_exercised(app_server, fake_openai, tmp_path):
    """One session through the whole app: probe, rate, save, stress, batch, results, models."""
    client = api_client(app_server.url)
    public = set(client.view_api(return_format="dict", print_info=False)["named_endpoints"])

    # ---- Probe tab ---------------------------------------------------------------------------------------------
    dcm = get_testdata_file("CT_small.dcm", download=False)
    loaded = call(client, "/load_image", handle_file(dcm), STEPS0)
    info, win_c, win_w = loaded[1], val(loaded[6]), val(loaded[7])
    assert "DICOM" in info and "withheld" in info
    assert (win_c, win_w) == (135.5, 2063.0)  # the file's own window, not 0/0
    info = call(client, "/apply_window", 40, 400, 0, None, None)[1]
    assert "window 40/400" in info
    # the uploaded DICOM (its header holds a patient name) is not left in the server's upload cache
    import tempfile
    from pathlib import Path

    cached = [p for p in Path(os.environ.get("GRADIO_TEMP_DIR", Path(tempfile.gettempdir()) / "gradio")).rglob(
        "CT_small.dcm")]
    assert not cached, cached
    picked = call(client, "/use_bundled_image", "mr_small.png", STEPS0)
    assert "PNG" in picked[1] and val(picked[6]) is None  # a PNG has no window
    items, items_msg = call(client, "/preset_items", "mediconfusion_pairs")
    assert items and not items_msg  # the item dropdown was filled (gradio_client returns the new value)
    loaded = call(client, "/load_preset_item", "medblink_depth", "depth-echo")
    question, kind, opts, suites, original = loaded[11], loaded[12], loaded[13], loaded[16], loaded[17]
    assert question.startswith("Which of the dots") and kind == "label" and opts.splitlines() == ["red", "green",
                                                                                                  "blue"]
    assert val(suites) == ["dot-colours"] and val(original) is False and rows(loaded[2]) == []
    opts2 = call(client, "/option_add", "CT\nMRI", 1, "a third option")[0]
    assert opts2.splitlines()[-1] == "a third option"
    doc, params = call(client, "/perturbation_parameters", "rotate")
    assert "rotate" in doc and json.loads(params)["angle"] == 90
    steps = call(client, "/add_step", STEPS0, "rotate", '{"angle": 180}', True)[0]
    steps = call(client, "/add_step", steps, "shuffle", "{}", False)[0]
    steps = call(client, "/add_point", steps, 12, 34)[0]
    # the table shows each perturbation by its label, and reads labels and code names alike
    assert [r[1] for r in rows(steps)] == ["rotate", "shuffle the options", "draw coloured dots"]
    assert [r[1] for r in step_rows(rows(steps))] == ["rotate", "shuffle", "dots"]
    table, prompts_text, _ = call(client, "/preview", "Which modality?", "choice", "CT\nMRI", "CT", "Head", steps,
                                  0, [], True, "auto (per kind)", ["baseline/first"], "")
    assert table["html"].count("<tr data-variant=") == 3 and "rotated 180° + options shuffled" in table["html"]
    assert "A: CT" in prompts_text

    cfg = call(client, "/add_endpoint", "openai", fake_openai.base_url, "gpt-4o", "sk-planted-key-123", "loopback")
    assert "loopback" in cfg[1] and "sk-planted" not in json.dumps(cfg)
    test_ok = call(client, "/test_model", "loopback")
    assert "answered" in test_ok
    table, run, *_ = call(client, "/run", "Which modality?", "choice", "CT\nMRI", "CT", "Head", steps, 0, [],
                          True, "auto (per kind)", ["baseline/first", "baseline/random"], "loopback")
    assert run.startswith("live-") and "9 of 9 answers · finished" in table["html"]
    assert table["html"].count("class='pu-cell pu-") == 9 and "asking…" not in table["html"]
    store = app_server.store()
    df = store.answers_frame(store.get_run(run).id)
    assert len(df) == 9 and set(df.model) == {"baseline/first", "baseline/random", "loopback"}
    rid = int(df.response_id.iloc[0])
    _images, text, shown_id, *_ = call(client, "/answer_detail", rid, "")
    assert "Prompt sent" in text and val(shown_id) == rid
    msg, table, detail_text = call(client, "/rate", rid, "unsure", "hard to say", {"html": "", "run": run}, "Dr API")
    assert "rated unsure by Dr API" in msg and "you: unsure · hard to say" in table["html"]
    assert "unsure" in detail_text and "unrated" not in detail_text  # the detail shows the rating just saved
    assert store.ratings_frame(store.get_run(run).id).rating.tolist() == ["unsure"]
    assert store.latest_rating(rid, rater="Dr API") == ("unsure", "hard to say")
    assert "not running" in call(client, "/cancel_probe", run)
    # "Ask for a structured answer (JSON)": the probe's run records it, a baseline writes its label as the object
    json_run = call(client, "/run", "Which modality?", "choice", "CT\nMRI", "CT", "Head", STEPS0, 0, [], True,
                    "auto (per kind)", ["baseline/first"], "", True)[1]
    assert store.get_run(json_run).config.answer_format == "json"
    assert store.answers_frame(store.get_run(json_run).id, full=True).raw_text.tolist() == ['{"answer": "A"}']
    saved = call(client, "/add_to_benchmark_set", "Which modality?", "choice", "CT\nMRI", "CT", "Head", steps,
                 ["rotations"], "api-set")[0]
    assert "api-set" in saved and (app_server.db.parent / "presets" / "api-set.yaml").is_file()

    # ---- Stress tab --------------------------------------------------------------------------------------------
    stress_args = ["a preset", "mediconfusion_pairs", "(every item)", "a suite", "circular",
                   "blur", [1, 2, 3, 4, 5], 0, ["baseline/first"], "", "", "choice", "", None, ""]
    assert "= 32 calls" in call(client, "/stress_plan", *stress_args)  # 16 items x (original + shift), before Run
    name, matrix, summary, _curve, *_ = call(client, "/stress", *stress_args)
    assert name.startswith("stress-mediconfusion_pairs-circular-baseline/first") and "pu-broke" in matrix["html"]
    assert rows(summary)
    srid = int(re.search(r"data-response='(\d+)'", matrix["html"]).group(1))
    assert "Prompt sent" in call(client, "/stress_answer_detail", srid, "")[1]
    assert "rated correct" in call(client, "/stress_rate", srid, "correct", "", {"html": "", "run": name}, "")[0]
    sweep_args = [*stress_args[:3], "a severity sweep of one perturbation", "circular", "blur", [1, 5],
                  *stress_args[7:]]
    sweep, _m, _s, curve, *_ = call(client, "/stress", *sweep_args)
    assert "sweep-blur-1.5" in sweep and val(curve)  # the curve came with the answers
    images, said = call(client, "/stress_breaking", sweep, "modality-1a", "baseline/first", "blur")
    assert "changed its answer" in said

    # ---- Batch tab ---------------------------------------------------------------------------------------------
    set_path = "set:api-set"  # a saved set is offered by name, never by its path on the server
    presets, models, runs, _ = call(client, "/list_runs", [], [])  # ↻: the new set is offered
    status, runs, _ = call(client, "/batch", [set_path], None, ["baseline/first"], "", [], 0, "api-batch")
    assert "api-batch" in status and "0 errors" in status
    # the tick "Ask for a structured answer (JSON)": a run of its own, said in the status
    status = call(client, "/batch", [set_path], None, ["baseline/first"], "", [], 0, "api-json", False, True)[0]
    assert "api-json" in status and "0 errors" in status and "Structured answers" in status
    # the tick "Ask for its confidence": a run of its own whose prompts end with the confidence line; not with JSON
    status = call(client, "/batch", [set_path], None, ["baseline/first"], "", [], 0, "api-conf", False, False,
                  True)[0]
    assert "api-conf" in status and "confidence too" in status
    assert store.get_run("api-conf").config.answer_format == "confidence"
    assert "not both" in call(client, "/batch", [set_path], None, ["baseline/first"], "", [], 0, "api-both", False,
                              True, True)[0]
    assert "is running" in call(client, "/cancel_batch", "api-batch")  # finished already
    assert "nothing left to resume" in call(client, "/resume_batch", run)[0]  # said beside the run, not a toast
    presets, models, runs, _ = call(client, "/list_runs", [], [])
    assert "api-batch" in [r[0] for r in rows(runs)] and "loopback" in str(models)

    # ---- Results tab -------------------------------------------------------------------------------------------
    refreshed = call(client, "/runs", [run, "no-such-run"])
    assert val(refreshed) == [run] and run in str(refreshed["choices"])  # ↻ keeps the chosen runs that exist
    models_f, conditions_f, _cats = call(client, "/filters", [run])
    assert val(models_f) == [] and val(conditions_f) == []
    assert {c[0] if isinstance(c, (list, tuple)) else c for c in models_f["choices"]} == {
        "baseline/first", "baseline/random", "loopback"}  # filters are reset to "all" when the runs change
    overview, families, *_plots, responses, _msg, shown, _failed = call(client, "/results", [run], "robust", [], [],
                                                                        [], [])
    assert f"Showing run {run} · answer parser: robust · models: all" in shown  # what the tables belong to
    assert {r[1] for r in rows(overview)} == {"baseline/first", "baseline/random", "loopback"}
    assert len(rows(responses)) == 9
    only = call(client, "/results", [run], "robust", ["loopback"], [], [], ["unsure", "unrated"])
    assert {r[2] for r in rows(only[-4])} == {"loopback"} and "models: loopback" in only[-2]
    assert {r[1] for r in rows(only[0])} == {"loopback"}  # the filters apply to the tables too
    images, detail = call(client, "/response", rid)
    assert images and "hard to say" in detail
    said = call(client, "/judge", [run], "loopback", "robust")  # no unread reply: the judge is asked nothing
    assert "judge loopback on run" in said and "0 answers the rules could not read; 0 asked now" in said
    assert "choose a judge model first" in call(client, "/judge", [run], "none (rules only)", "robust")
    judged = call(client, "/results", [run], "robust", [], [], [], [], "loopback")
    assert len(rows(judged[-4])) == 9

    archive = call(client, "/export", [run], "imagefolder", "response", "robust")
    import zipfile

    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        assert "metadata.jsonl" in names and "README.md" in names
        assert len(z.read("metadata.jsonl").decode().splitlines()) == 9
    report = call(client, "/report", [run, "api-batch"], "robust")
    html = open(report, encoding="utf-8").read()
    assert "loopback" in html and not re.search(r"""(src|href)\s*=\s*["']?https?:""", html)  # self-contained

    models_a = call(client, "/compare_models", run)
    assert {c[0] if isinstance(c, (list, tuple)) else c for c in models_a["choices"]} == {
        "baseline/first", "baseline/random", "loopback"}
    summary, by_cond, _cat, _paper, flips, msg = call(client, "/compare", run, "baseline/first", run,
                                                      "baseline/random", "robust")
    assert not msg and "shared question" in summary and rows(by_cond)

    # ---- Models tab --------------------------------------------------------------------------------------------
    table = call(client, "/models")
    assert "loopback" in json.dumps(table) and "sk-planted" not in json.dumps(table)
    calls = call(client, "/live_calls")  # the live limit per provider and server, after this session's probes
    assert "in flight" in calls and "| openai |" in calls and "sk-planted" not in calls
    rates = call(client, "/rate_limits")  # each server's requests in flight, limit and refusals (issue 50)
    servers = {r[0]: r for r in rows(rates)}
    host = fake_openai.base_url.split("//")[1].split("/")[0]
    assert host in servers and servers[host][1] == "openai", servers  # the endpoint this session probed
    assert "sk-planted" not in json.dumps(rates) and "/v1" not in json.dumps(rates)

    # the send gate and the ledger (issue 47) are an admin's: the one user of an app without a login is a prober
    # (tests/test_many_users.py has an admin set and read them)
    for name, args in (("/set_send_gate", ("off", "")), ("/send_ledger", ()), ("/verify_send_ledger", ())):
        with pytest.raises(AppError, match=r"role \(prober\) cannot set the send gate or read the send ledger"):
            call(client, name, *args)

    missing = public - CALLED
    assert not missing, f"public endpoints without a test: {sorted(missing)}"
    # the key typed into the Models tab was sent to the server, and written nowhere
    assert any(r.headers.get("authorization") == "Bearer sk-planted-key-123" for r in fake_openai.requests)
    for path in app_server.db.parent.rglob("*"):
        if path.is_file():
            assert b"sk-planted-key-123" not in path.read_bytes(), path


def test_errors_show_as_messages_and_lose_nothing(app_server, tmp_path):
    client = api_client(app_server.url)
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    msg = client.predict(handle_file(str(bad)), STEPS0, api_name="/load_image")[4]
    assert "Not loaded" in msg and "broken.png" in msg
    run = client.predict("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, [], True, "auto (per kind)",
                         ["baseline/first"], "", api_name="/run")[1]
    table = client.predict("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, [], True,
                           "auto (per kind)", [], "nope", api_name="/run")[0]
    assert "unknown model" in table["html"]  # its column says why; nothing else was asked
    msg = client.predict(STEPS0, "rotate", "{angle", True, api_name="/add_step")[2]
    assert "not valid JSON" in msg
    msg = client.predict("", "choice", "CT\nMRI", "CT", "", STEPS0, 0, [], True, "auto (per kind)",
                         ["baseline/first"], "", api_name="/run")[2]
    assert "type a question" in msg  # beside the run bar, in words
    store = app_server.store()
    assert len(store.answers_frame(store.get_run(run).id)) == 1  # the earlier answer is still there


def test_non_loopback_needs_auth():
    with pytest.raises(ServeError, match="without --auth"):
        options("x.db", "0.0.0.0")
    with pytest.raises(ServeError, match="user:password"):
        options("x.db", "0.0.0.0", auth="justuser")
    assert options("x.db", "0.0.0.0", auth="a:bcd").accounts.check("a", "bcd").role == "admin"
    assert options("x.db", "::1").accounts is None and options("x.db", "localhost").host == "localhost"


def test_a_server_slow_to_answer_its_first_request_still_starts_and_one_that_never_answers_is_named():
    """CI saw Gradio give up on a started app whose first page took over 3 s on a loaded machine ("localhost is not
    accessible"); probe-ui waits for it, and says which address did not answer when it never does."""
    import http.server
    import threading
    import time

    from app_server import free_port

    from probe_ui.app.serve import wait_until_served

    class Slow(http.server.BaseHTTPRequestHandler):
        first = True

        def do_HEAD(self) -> None:  # noqa: N802 - the stdlib's name
            if Slow.first:
                Slow.first = False
                time.sleep(4)  # longer than Gradio's one 3 s wait
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        wait_until_served(f"http://127.0.0.1:{server.server_address[1]}/", within_s=20)
    finally:
        server.shutdown()
        server.server_close()
    url = f"http://127.0.0.1:{free_port()}/"
    with pytest.raises(ServeError, match=re.escape(url) + " did not answer within 1 s"):
        wait_until_served(url, within_s=1)


def test_probe_ui_with_no_command_serves_the_app(tmp_path, capsys):
    """`probe-ui` prints the address and serves the page there; Ctrl+C stops it; an open host needs --auth."""
    import os
    import subprocess
    import sys
    import time
    import urllib.request

    from app_server import free_port
    from helpers import ctrl_c, stop

    port = free_port()
    env = dict(os.environ, PROBE_UI_DISCOVER="0", GRADIO_ANALYTICS_ENABLED="False", NO_PROXY="127.0.0.1")
    proc = subprocess.Popen([sys.executable, "-m", "probe_ui", "--port", str(port), "--db", str(tmp_path / "a.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    try:
        line = proc.stdout.readline()
        assert f"serving at http://127.0.0.1:{port}" in line
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200 and b"probe-ui" in r.read()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        ctrl_c(proc)
    finally:
        stop(proc)
    # refused before anything is served: in this process (main, what the command runs), sparing a second start
    from probe_ui.cli import main

    with pytest.raises(SystemExit) as refused:
        main(["--host", "0.0.0.0", "--db", str(tmp_path / "b.db")])
    assert refused.value.code == 2 and "without --auth" in capsys.readouterr().err


def test_batch_tab_cancel_and_resume(app_server, fake_openai):
    """Start a batch, cancel it part-way from a second call, then resume: every answer once, none repeated."""
    import time

    fake_openai.latency_s = 0.3
    client = api_client(app_server.url)
    client.predict("openai", fake_openai.base_url, "gpt-4o", "", "slowish", api_name="/add_endpoint")
    preset = "mediconfusion_pairs"
    job = client.submit([preset], None, [], "slowish", ["rotations"], 0, "cancel-me", api_name="/batch")
    store = app_server.store()
    deadline = time.monotonic() + 60
    while not any(r["run"] == "cancel-me" and r["answered"] >= 3 for r in store.run_progress()):
        assert time.monotonic() < deadline, "the batch never started"
        time.sleep(0.1)
    assert "Cancel sent" in client.predict("cancel-me", api_name="/cancel_batch")
    status = job.result(timeout=120)[0]
    assert "Cancelled" in status and "Resume" in status
    done = {r["run"]: r for r in store.run_progress()}["cancel-me"]
    assert 3 <= done["answered"] < 64 and not done["complete"]  # 16 items x (original + 3 rotations)
    status = client.predict("cancel-me", api_name="/resume_batch")[0]
    assert f"{done['answered']} already done" in status
    final = {r["run"]: r for r in store.run_progress()}["cancel-me"]
    assert final["complete"] and final["answered"] == 64
    df = store.answers_frame(store.get_run("cancel-me").id)
    assert len(df) == 64 and not df.duplicated(["variant_id", "model"]).any()
    assert len(fake_openai.chat_requests) == 64  # nothing was asked twice


def test_an_upload_over_the_pixel_limit_is_refused_from_its_header(app_server, tmp_path):
    """A 40000 x 40000 PNG of a few bytes (a decompression bomb) is refused before any pixel is decoded."""
    import struct
    import zlib

    from PIL import Image

    small = tmp_path / "small.png"
    Image.new("L", (8, 8)).save(small)
    data = bytearray(small.read_bytes())
    ihdr = data.index(b"IHDR")
    data[ihdr + 4:ihdr + 12] = struct.pack(">II", 40000, 40000)
    data[ihdr + 17:ihdr + 21] = struct.pack(">I", zlib.crc32(bytes(data[ihdr:ihdr + 17])))
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(bytes(data))
    client = api_client(app_server.url)
    msg = client.predict(handle_file(str(bomb)), STEPS0, api_name="/load_image")[4]
    assert "Not loaded" in msg and "pixels" in msg


def test_results_tab_shows_the_score_commands_numbers(app_server):
    """Through the API as a script would: the Results overview, the numbers behind its accuracy plot and the
    report show what `probe-ui score` computes for the same parser (a legacy ProbMed import: once 88.24 in the
    overview and 86.27 in the plot)."""
    from pathlib import Path

    from probe_ui.importers import ImportOptions, import_results
    from probe_ui.scoring import score_run
    from probe_ui.views.results import figure_text

    data = Path(__file__).parent / "data" / "importers"
    store = app_server.store()
    run = import_results(store, "probmed", str(data / "gpt4o_probmed.json"), ImportOptions()).run
    client = api_client(app_server.url)
    for parser in ("robust", "legacy"):
        want = score_run(store, run, parser)["models"]["gpt4o"]["accuracy"]
        overview, _fam, *_plots, by_condition, _responses, _msg, _shown, _failed = call(
            client, "/results", [run], parser, [], [], [], [])
        row = dict(zip(overview["headers"], rows(overview)[0]))
        assert row["accuracy"] == figure_text(want)  # "88.2 % [76.6–94.5] n=51"
        cond = dict(zip(by_condition["headers"], rows(by_condition)[0]))
        assert (cond["correct"], cond["n"]) == (want["numerator"], want["denominator"])
        page = open(call(client, "/report", [run], parser), encoding="utf-8").read()
        assert f'data-col="accuracy" data-value="{round(want["value"], 2)}' in page


def test_f11_no_upload_stays_in_the_cache_whatever_its_type(app_server, tmp_path, monkeypatch):
    """Issue 14 F11: an extension-less DICOM (IM0001, as PACS exports name files), a DICOMDIR or a zip uploaded
    through the API was refused before the callback ran, and the full header stayed in the upload cache."""
    import io
    import tempfile
    import zipfile
    from pathlib import Path

    import pydicom
    from gradio_client.exceptions import AppError

    cache = Path(os.environ.get("GRADIO_TEMP_DIR", Path(tempfile.gettempdir()) / "gradio"))
    ds = pydicom.dcmread(get_testdata_file("CT_small.dcm", download=False))
    ds.PatientName = "Plantedcache^Patient"
    buf = io.BytesIO()
    ds.save_as(buf)
    dicom = buf.getvalue()
    files = {"IM0001": dicom, "DICOMDIR": dicom, "study.zip": b""}
    with zipfile.ZipFile(io.BytesIO(), "w") as z:
        z.writestr("IM0001", dicom)
        files["study.zip"] = z.fp.getvalue()  # type: ignore[union-attr]
    client = api_client(app_server.url)
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            client.predict(handle_file(str(path)), None, None, None, None, None, api_name="/load_image")
        except AppError:
            pass  # refused (a zip is not an image): fine, as long as nothing stays behind
        left = [p for p in cache.rglob("*") if p.is_file() and b"Plantedcache" in p.read_bytes()]
        assert not left, (name, left)


def test_app_downloads_leave_nothing_in_the_system_temp_folder(tmp_path, monkeypatch):
    """Issue 14, "Also": every export or report from the Results tab left a folder in the system temp folder
    that nothing ever deleted. Downloads are made inside Gradio's cache, which deletes them (delete_cache), and
    old download folders are pruned when a new one is made."""
    import tempfile
    import time
    from pathlib import Path

    from app_server import serving

    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.runner import run_batch

    systmp, cache = tmp_path / "systmp", tmp_path / "gradio-cache"
    systmp.mkdir()
    (tmp_path / "app").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(systmp))
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(cache))
    for server in serving(tmp_path / "app", monkeypatch, demo=False, max_upload_mb=20):
        run_batch(server.store(), [load_preset(PRESETS_DIR / "medvh_nota.yaml")], ["baseline/first"],
                  BatchOptions(run_name="dl", progress=False))
        client = api_client(server.url, download_files=str(tmp_path / "client"))  # the client's copies
        zipped = client.predict(["dl"], "jsonl", "response", "robust", api_name="/export")
        report = client.predict(["dl"], "robust", api_name="/report")
        assert Path(zipped).suffix == ".zip" and Path(report).suffix == ".html"
        left = [p for p in systmp.rglob("*") if p.is_file() or p.name.startswith("probe-ui")]
        assert not left, left  # nothing of the app's left behind there (the client makes empty folders)
        from probe_ui.app import files

        ours = list(cache.glob(f"{files.DOWNLOAD_PREFIX}*"))
        assert len(ours) == 2  # one folder per download, in Gradio's cache
        old = time.time() - files.KEEP_DOWNLOADS_S - 60
        for folder in ours:
            os.utime(folder, (old, old))
        files.download_folder()
        assert not [p for p in ours if p.exists()]  # pruned once old
