"""``--confidence`` (the answer format "confidence", issue 44): every question with options asks for a last line
"Confidence: N%", the run records the format, and the calibration family reads what the replies state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer
from helpers import family_block, run_cli

from probe_ui.cli import main
from probe_ui.prompts import CONFIDENCE_INSTRUCTION
from probe_ui.store import Store


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")


def _user_text(body: dict[str, Any]) -> str:
    user = [m for m in body["messages"] if m["role"] == "user"][-1]
    c = user["content"]
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in c if p.get("type") == "text")


def test_a_model_always_90_percent_sure_of_a_over_the_mediconfusion_pairs_has_an_ece_of_40(
        tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The done-when: "The answer is A. Confidence: 90%" to every question of the MediConfusion pairs (each pair's
    two images have different answers, so A is right half the time) gives ECE = 40 points."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.answer = "The answer is A. Confidence: 90%"
    db = str(tmp_path / "c.db")
    code, out, err = run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "openai/fake-vlm", "--confidence",
                             "--db", db, "--no-progress")
    assert code == 0, err
    assert "mediconfusion_pairs-seed0-confidence" in out  # a run of its own: never resumes a run asked without it
    bodies = [r.body for r in fake_openai.chat_requests]
    assert bodies and all(_user_text(b).endswith(CONFIDENCE_INSTRUCTION) for b in bodies)
    assert Store(db).get_run("mediconfusion_pairs-seed0-confidence").config.answer_format == "confidence"
    code, out, err = run_cli(capsys, "score", "--db", db, "--json")
    assert code == 0, err
    block = family_block(json.loads(out), "calibration")
    assert block["ece"]["value"] == pytest.approx(40.0)
    assert block["mean_confidence"]["value"] == pytest.approx(90.0) and block["accuracy"]["value"] == pytest.approx(50)


def test_confidence_cannot_be_asked_with_structured_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    with pytest.raises(SystemExit) as exc:  # a usage error: argparse's status 2, the reason on stderr
        main(["batch", "mediconfusion_pairs", "-m", "baseline/random", "--confidence", "--answer-format", "json",
              "--db", str(tmp_path / "c.db"), "--no-progress"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--confidence" in err and "choose one" in err
    assert not (tmp_path / "c.db").exists()  # refused before anything was written


def test_a_random_baseline_states_the_confidence_of_a_guess(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    """baseline/random asked for its confidence says 1 / the number of options: a calibrated guesser's."""
    db = str(tmp_path / "c.db")
    assert run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "baseline/random", "--answer-format", "confidence",
                   "--db", db, "--no-progress")[0] == 0
    s = Store(db)
    texts = s.answers_frame(s.get_run("mediconfusion_pairs-seed0-confidence").id, full=True)["raw_text"]
    assert all(t.endswith("Confidence: 50%") for t in texts)


def test_a_server_asked_for_logprobs_gives_each_label_a_probability_and_calibration_prefers_it(
        tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A model option ``logprobs: true`` asks an OpenAI-compatible server for its token probabilities; the
    probability of each label where the answer starts is stored (``option_probs``), and the calibration family reads
    the answer's own (``token_confidence``) before the confidence the reply states."""
    import yaml

    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.answer = "A. Confidence: 90%"
    fake_openai.top_logprobs = {"A": {"A": 0.6, "B": 0.3, "Sure": 0.1}}
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "lp.yaml").write_text(yaml.safe_dump({"name": "lp", "provider": "openai", "model": "fake-vlm",
                                                      "options": {"logprobs": True, "top_logprobs": 3}}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    db = str(tmp_path / "c.db")
    code, _, err = run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "lp", "--confidence", "--db", db,
                           "--no-progress")
    assert code == 0, err
    body = fake_openai.last_body
    assert body["logprobs"] is True and body["top_logprobs"] == 3
    s = Store(db)
    rows = s.answers_frame(s.get_run("mediconfusion_pairs-seed0-confidence").id, detail=True)
    probs = rows["details"].iloc[0]["option_probs"]
    assert probs == {"A": pytest.approx(2 / 3), "B": pytest.approx(1 / 3)}  # renormalised over the labels
    assert rows["details"].iloc[0]["label_mass"] == pytest.approx(0.9)
    code, out, err = run_cli(capsys, "score", "--db", db, "--json")
    block = family_block(json.loads(out), "calibration")
    assert block["source"] == {"stated": 0, "token": 16}
    assert block["mean_confidence"]["value"] == pytest.approx(100 * 2 / 3, abs=0.01)
    assert block["ece"]["value"] == pytest.approx(100 * (2 / 3 - 0.5), abs=0.01)


def test_the_report_shows_calibration_with_a_reliability_diagram(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    assert run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "baseline/random", "-m", "baseline/first",
                   "--confidence", "--db", db, "--no-progress")[0] == 0
    out = tmp_path / "r.html"
    code, _, err = run_cli(capsys, "report", "--db", db, "--out", str(out))
    assert code == 0, err
    html = out.read_text()
    section = html[html.index('<section id="calibration">'):]
    section = section[:section.index("</section>")]
    assert "baseline/random" in section and "baseline/first" in section and "ECE (points)" in section
    assert '<img class="plot" src="data:image/png;base64,' in section and "reliability diagram" in section


def test_the_results_tab_draws_the_reliability_diagram_only_for_answers_with_a_confidence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from probe_ui.views.results_page import results_view

    db = str(tmp_path / "c.db")
    for extra in (["--confidence"], []):
        assert run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "baseline/random", *extra, "--db", db,
                       "--no-progress")[0] == 0
    store = Store(db)
    with_conf = results_view(store, ["mediconfusion_pairs-seed0-confidence"])
    assert with_conf.plot_reliability is not None
    names = [t.name for t in with_conf.plot_reliability.data]
    assert "baseline/random" in " ".join(n or "" for n in names)
    assert "Calibration: does the model know when it is unsure?" in with_conf.extra
    plain = results_view(store, ["mediconfusion_pairs-seed0"])
    assert plain.plot_reliability is None and "Calibration" not in plain.extra
