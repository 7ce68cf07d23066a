"""Structured answers (``--answer-format json``, issue 46): a stored run condition carried to every labelled request,
sent as each provider's own way of asking for ``{"answer": <label>}`` (an OpenAI JSON schema, an Anthropic tool,
constrained decoding on an hf model), read exactly, cached apart from free text, and compared between runs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fake_anthropic import FakeAnthropicServer
from fake_openai import FakeOpenAIServer
from helpers import choice_item, run_cli, write_png, write_preset
from tiny_vlm import ask, ask_together, mc_request, provider

from probe_ui.cli import main
from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, Response, TextPart
from probe_ui.providers import create
from probe_ui.providers.base import PROVIDERS, ModelConfig, Provider
from probe_ui.reading import answers
from probe_ui.runner import BatchError, BatchOptions, run_batch
from probe_ui.store import Store, responses
from probe_ui.store.settings import RunSettings

YES_NO_ENUM = ["yes", "no"]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")


@pytest.fixture
def mixed_preset(tmp_path: Path) -> Path:
    """Two 3-option choice items (answer B), a yes/no item (answer no) and a free-text item."""
    for i in range(3):
        write_png(tmp_path / f"im{i}.png", seed=i)
    items = [choice_item(0, "im0.png", answer="B", n=3), choice_item(1, "im1.png", answer="B", n=3),
             {"id": "yn", "image": "im2.png", "question": "Is there a fracture?", "kind": "yesno", "answer": "no"},
             {"id": "free", "image": "im2.png", "question": "Describe the image."}]
    return write_preset(tmp_path / "mixed.yaml", items)


def by_enum(body: dict[str, Any]) -> str:
    """A server that answers the schema it was sent: B for letters, "no" for yes/no, prose without a schema."""
    schema = _schema_of(body)
    if schema is None:
        return "It shows a bone."
    enum = schema["properties"]["answer"]["enum"]
    return json.dumps({"answer": "B" if "B" in enum else "no"})


def _schema_of(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format")
    if fmt is not None:
        return fmt["json_schema"]["schema"]
    tools = body.get("tools")
    return tools[0]["input_schema"] if tools else None


def json_batch(capsys: pytest.CaptureFixture[str], preset: Path, model: str, db: str) -> str:
    """``probe-ui batch PRESET -m MODEL --answer-format json``, which must succeed; what it printed."""
    code, out, err = run_cli(capsys, "batch", str(preset), "-m", model, "--answer-format", "json", "--db", db,
                             "--no-progress")
    assert code == 0, err
    return out


def _check_structured_rows(rows: list[dict[str, Any]]) -> None:
    """Choice items read as B, the yes/no item as no, each by method structured and sure; the free item as text."""
    kinds = {}
    for r in rows:
        if r["settings"].get("answer_format") == "json":
            assert json.loads(r["raw_text"]) in ({"answer": "B"}, {"answer": "no"})
            assert r["method"] == "structured" and r["sure"] is True and r["correct"] is True, r
            kinds[r["parsed"]] = kinds.get(r["parsed"], 0) + 1
        else:
            assert "answer_format" not in r["settings"] and r["raw_text"] == "It shows a bone."
            kinds["free"] = kinds.get("free", 0) + 1
    assert kinds == {"B": 2, "no": 1, "free": 1}


def _rows(db: str, model: str) -> list[dict[str, Any]]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(responses).where(responses.c.model == model)).mappings()]


# ---- OpenAI-compatible servers: response_format with the labels' schema ---------------------------------------

def test_batch_json_sends_openai_the_labels_schema_and_reads_the_field(
        mixed_preset: Path, tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.responder = by_enum
    db = str(tmp_path / "x.db")
    out = json_batch(capsys, mixed_preset, "openai/fake-vlm", db)
    assert "run 'mixed-seed0-json'" in out  # a json batch's derived name says so: it never resumes a free run
    sent = [r.body for r in fake_openai.chat_requests]
    assert len(sent) == 4
    formats = [b.get("response_format") for b in sent]
    assert formats.count(None) == 1  # the free-text item is never given a schema
    enums = sorted(f["json_schema"]["schema"]["properties"]["answer"]["enum"] for f in formats if f)
    assert enums == [["A", "B", "C"], ["A", "B", "C"], YES_NO_ENUM]
    for f in filter(None, formats):
        assert f["type"] == "json_schema" and f["json_schema"]["name"] == "answer" and f["json_schema"]["strict"]
        assert f["json_schema"]["schema"]["required"] == ["answer"]
    _check_structured_rows(_rows(db, "openai/fake-vlm"))
    s = RunSettings.of(Store(db).get_run("mixed-seed0-json").config.to_dict())
    assert s.answer_format == "json"


def test_streamed_openai_reply_is_read_as_structured(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.script('{"answer": "C"}')
    cfg = ModelConfig(name="m", provider="openai", model="fake-vlm", base_url=fake_openai.base_url)
    resp = _generate(cfg, _request(GenerationSettings(stream=True, answer_format="json")))
    assert resp.error is None and resp.text == '{"answer": "C"}'
    assert fake_openai.last_body["response_format"]["json_schema"]["schema"]["properties"]["answer"]["enum"] == \
        ["A", "B", "C"]
    ans = answers.extract(resp.text, "choice", ["A", "B", "C"], ["left", "right", "both"])
    assert (ans.choice, ans.method, ans.sure) == ("C", "structured", True)


# ---- Anthropic: a forced tool whose input schema is the labels' ---------------------------------------------------

def test_batch_json_gives_anthropic_the_answer_tool_and_reads_its_input(
        mixed_preset: Path, tmp_path: Path, fake_anthropic: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.base_url)
    fake_anthropic.responder = by_enum
    db = str(tmp_path / "a.db")
    json_batch(capsys, mixed_preset, "anthropic/claude-sonnet-4-6", db)
    sent = [r.body for r in fake_anthropic.message_requests]
    assert len(sent) == 4
    tooled = [b for b in sent if "tools" in b]
    assert len(tooled) == 3 and all("tool_choice" not in b for b in sent if "tools" not in b)
    for b in tooled:
        assert b["tool_choice"] == {"type": "tool", "name": "answer"}
        assert [t["name"] for t in b["tools"]] == ["answer"]
        assert b["max_tokens"] >= 64  # room for the tool call around a one-label answer
    assert sorted(b["tools"][0]["input_schema"]["properties"]["answer"]["enum"] for b in tooled) == \
        [["A", "B", "C"], ["A", "B", "C"], YES_NO_ENUM]
    _check_structured_rows(_rows(db, "anthropic/claude-sonnet-4-6"))


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_tool_input_becomes_the_reply_text(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.script('{"answer": "B"}')
    cfg = ModelConfig(name="c", provider="anthropic", model="claude-sonnet-4-6", base_url=fake_anthropic.base_url,
                      options={"max_retries": 0})
    resp = _generate(cfg, _request(GenerationSettings(stream=stream, answer_format="json")))
    assert resp.error is None
    assert resp.text == '{"answer": "B"}' and resp.finish_reason == "tool_use"
    assert answers.extract(resp.text, "choice", ["A", "B", "C"]).method == "structured"


def test_anthropic_with_thinking_on_is_refused_before_anything_is_asked(
        mixed_preset: Path, tmp_path: Path, fake_anthropic: FakeAnthropicServer) -> None:
    model = ModelConfig(name="thinker", provider="anthropic", model="claude-sonnet-4-6",
                        base_url=fake_anthropic.base_url, options={"thinking": {"type": "enabled"}})
    from probe_ui.presets import load_preset

    with pytest.raises(BatchError, match=r"thinker.*--answer-format json.*options\.thinking"):
        run_batch(Store(str(tmp_path / "t.db")), [load_preset(str(mixed_preset))], ["thinker"],
                  BatchOptions(answer_format="json", progress=False), extra_models={"thinker": model})
    assert fake_anthropic.message_requests == []  # (availability may have looked at its model list)
    # the same request sent anyway (a caller that skipped the check) fails with the reason, not a 400
    resp = _generate(model, _request(GenerationSettings(answer_format="json")))
    assert "options.thinking" in (resp.error or "") and fake_anthropic.message_requests == []


# ---- what every provider shares ----------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", ['{"answer": ' * 50_000 + '"B"' + "}" * 50_000,
                                   '```json\n' + '{"a": ' * 50_000 + "1" + "}" * 50_000 + "\n```"])
def test_an_answer_object_nested_past_the_parser_reads_as_no_answer(reply: str) -> None:
    # a reply any endpoint can send: the reader reads it as no answer instead of raising (it raised RecursionError)
    ans = answers.extract(reply, "yesno", ["yes", "no"], question="Is there a fracture?")
    assert (ans.choice, ans.sure) == (None, False)


def test_free_requests_keep_their_cache_key_and_a_json_one_differs() -> None:
    free, json_ = GenerationSettings(), GenerationSettings(answer_format="json")
    assert "answer_format" not in free.to_dict()  # the keys and stored settings of every older request
    assert free.to_dict() == {"temperature": 0.0, "max_tokens": 32, "top_p": None, "seed": None,
                              "timeout_s": 120.0, "stream": False}
    a, b = _request(free), _request(json_)
    assert a.cache_key("openai", "m") != b.cache_key("openai", "m")


def test_the_cache_never_answers_one_format_with_the_other(mixed_preset: Path, tmp_path: Path,
                                                           fake_openai: FakeOpenAIServer,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.responder = by_enum
    from probe_ui.presets import load_preset

    store, preset = Store(str(tmp_path / "c.db")), [load_preset(str(mixed_preset))]
    run_batch(store, preset, ["openai/fake-vlm"], BatchOptions(run_name="free", progress=False))
    assert len(fake_openai.chat_requests) == 4
    fake_openai.responder = lambda body: json.dumps({"answer": "A"}) if body.get("response_format") else "nope"
    run_batch(store, preset, ["openai/fake-vlm"], BatchOptions(run_name="json", answer_format="json", progress=False))
    # the three labelled items were asked again, in json; the free-text item was the same request, from the cache
    assert len(fake_openai.chat_requests) == 7
    assert all(r.body.get("response_format") for r in fake_openai.chat_requests[4:])
    json_rows = {r["raw_text"] for r in _rows(store.url.removeprefix("sqlite:///"), "openai/fake-vlm")
                 if r["settings"].get("answer_format") == "json"}
    assert json_rows == {'{"answer": "A"}'}
    # a second json run is answered from the json cache, not from the free one
    run_batch(store, preset, ["openai/fake-vlm"],
              BatchOptions(run_name="json2", answer_format="json", progress=False))
    assert len(fake_openai.chat_requests) == 7
    with store.engine.connect() as c:
        again = c.execute(sa.select(responses.c.raw_text, responses.c.details).where(
            responses.c.run_id == store.get_run("json2").id)).all()
    assert {t for t, _ in again} == {'{"answer": "A"}', "It shows a bone."}
    assert all((d or {}).get("cached_from") for _, d in again)


def test_runs_with_and_without_the_format_are_told_apart(mixed_preset: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from probe_ui.runner.identity import RunExtensionError
    from probe_ui.views.compare import Side, compare
    from probe_ui.views.rebuild import batch_args

    db = str(tmp_path / "d.db")
    for fmt in ("free", "json"):
        assert run_cli(capsys, "batch", str(mixed_preset), "-m", "baseline/first", "--answer-format", fmt,
                       "--db", db, "--no-progress")[0] == 0
    store = Store(db)
    free, structured = store.get_run("mixed-seed0").config, store.get_run("mixed-seed0-json").config
    assert (free.answer_format, structured.answer_format) == ("free", "json")
    assert RunSettings.of({"presets": []}).answer_format == "free"  # a run from before formats existed
    # a baseline asked for json writes its label as the object, read exactly
    rows = {r["raw_text"] for r in _rows(db, "baseline/first")
            if r["run_id"] == store.get_run("mixed-seed0-json").id}
    assert rows == {'{"answer": "A"}', '{"answer": "yes"}', ""}
    result = compare(store, Side("mixed-seed0", "baseline/first"), Side("mixed-seed0-json", "baseline/first"),
                     n_boot=0)
    assert "answer_format: free → json" in result["differences"]
    # a replay of the json run asks for json again; the free run's replay says nothing of it
    assert "--answer-format json" in " ".join(batch_args(structured, "r", 0, ["p.yaml"]))
    assert "--answer-format" not in batch_args(free, "r", 0, ["p.yaml"])
    # the json format into the free run (by name) would change what its answers mean: refused
    from probe_ui.presets import load_preset

    with pytest.raises(RunExtensionError, match="answer format 'free', not 'json'"):
        run_batch(store, [load_preset(str(mixed_preset))], ["baseline/first"],
                  BatchOptions(run_name="mixed-seed0", answer_format="json", progress=False))


def test_dry_run_counts_the_structured_reply_budget(mixed_preset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three labelled items at 64 tokens (not the template's 32) and the free item at its 512."""
    for fmt, tokens in (("free", 3 * 32 + 512), ("json", 3 * 64 + 512)):
        code, out, _ = run_cli(capsys, "batch", str(mixed_preset), "-m", "baseline/first", "--answer-format", fmt,
                               "--dry-run")
        assert code == 0 and f"at most {tokens:,} output tokens" in out, out


def test_a_provider_without_the_format_is_refused_naming_model_and_field(mixed_preset: Path, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    class FreeOnly(Provider):
        name = "freeonly"
        takes_url = False

        async def generate(self, request: Request) -> Response:  # pragma: no cover - never asked
            raise AssertionError("asked")

    PROVIDERS.add("freeonly", FreeOnly)
    try:
        code, _, err = run_cli(capsys, "batch", str(mixed_preset), "-m", "freeonly/x", "--answer-format", "json",
                               "--db", str(tmp_path / "f.db"), "--no-progress")
        assert code != 0
        assert "freeonly/x" in err and "--answer-format json" in err and "honours free only" in err
        assert len(err.strip().splitlines()) == 1
    finally:
        PROVIDERS.remove("freeonly")
    with pytest.raises(SystemExit):
        main(["batch", str(mixed_preset), "-m", "baseline/first", "--answer-format", "yaml"])
    assert "invalid choice: 'yaml'" in capsys.readouterr().err
    from probe_ui.presets import load_preset

    with pytest.raises(BatchError, match="unknown answer format 'yaml'"):
        run_batch(Store(str(tmp_path / "g.db")), [load_preset(str(mixed_preset))], ["baseline/first"],
                  BatchOptions(answer_format="yaml", progress=False))


def test_a_free_prompt_never_gets_a_schema(mixed_preset: Path, tmp_path: Path, fake_openai: FakeOpenAIServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    from probe_ui.presets import load_preset

    db = str(tmp_path / "p.db")
    run_batch(Store(db), [load_preset(str(mixed_preset))], ["openai/fake-vlm"],
              BatchOptions(prompt="free", answer_format="json", progress=False))
    assert fake_openai.chat_requests and not any("response_format" in r.body for r in fake_openai.chat_requests)
    # and its stored settings say it was asked in free text (the run's condition is json)
    assert all("answer_format" not in r["settings"] for r in _rows(db, "openai/fake-vlm"))


# ---- hf: constrained decoding over the label tokens ------------------------------------------------------------

def test_hf_constrained_decoding_answers_a_label_for_choice_and_yes_no(tiny_llava: Path) -> None:
    p = provider(tiny_llava)
    free = ask(p, mc_request(GenerationSettings(max_tokens=6)))
    assert free.text not in ("A", "B", "C")  # the random model writes no label by itself
    for labels, options, kind in ((("A", "B", "C"), ("left", "right", "both"), "choice"),
                                  (("yes", "no"), ("yes", "no"), "yesno")):
        r = ask(p, mc_request(GenerationSettings(max_tokens=6, answer_format="json"), labels=labels, options=options))
        assert r.error is None and r.details["constrained"] is True
        value = json.loads(r.text)
        assert set(value) == {"answer"} and value["answer"] in labels
        ans = answers.extract(r.text, kind, list(labels), list(options))
        assert (ans.choice, ans.method, ans.sure) == (value["answer"], "structured", True)


def test_hf_constrained_answer_follows_the_most_likely_allowed_first_token(tiny_llava: Path) -> None:
    """Greedy constrained decoding's first step takes the likeliest token that starts some label's spelling, read here
    from the model's plain next-token distribution after the prompt (the gd probe's prompt row); on A/B/C each first
    token but the space starts one label's spellings only (" A" is a space then A), so it names the answer."""
    from probe_ui.providers.hf.batching import Job
    from probe_ui.providers.hf.engine import conversation, label_variants, score_rows

    p = provider(tiny_llava)
    entry = p.load()
    request = mc_request(GenerationSettings(max_tokens=6, answer_format="json"))
    import torch

    with torch.inference_mode():  # as the model's worker scores
        next_logp = score_rows(entry, [(conversation(entry, request.messages, "t"), [])],
                               Job(request, "gd", "t"))[0][0]
    starts: dict[int, set[str]] = {}
    for label in request.labels:
        for text in label_variants(label):
            ids = entry.tokenizer.encode(text, add_special_tokens=False)
            starts.setdefault(ids[0], set()).add(label)
    assert any(len(labels) == 1 for labels in starts.values())
    first = max(starts, key=lambda t: float(next_logp[t]))
    got = json.loads(ask(p, request).text)["answer"]
    assert got in starts[first]
    if len(starts[first]) == 1:
        assert got == next(iter(starts[first]))


def test_hf_free_and_json_requests_batch_together_unchanged(tiny_llava: Path) -> None:
    p = provider(tiny_llava, batch_size=8, batch_wait_ms=200)
    free_req = mc_request(GenerationSettings(max_tokens=6))
    json_req = mc_request(GenerationSettings(max_tokens=6, answer_format="json"), labels=("yes", "no"),
                          options=("yes", "no"))
    alone = [ask(p, free_req).text, ask(p, json_req).text]
    together = ask_together(p, [free_req, json_req, free_req])
    assert together[0].details["batch_size"] == 3
    assert [r.text for r in together] == [alone[0], alone[1], alone[0]]
    # sampled: a label still, the same one for the same seed, alone or batched
    sampled = mc_request(GenerationSettings(max_tokens=6, answer_format="json", temperature=1.0, seed=7))
    one, two = ask(p, sampled).text, ask_together(p, [sampled, free_req])[0].text
    assert one == two and json.loads(one)["answer"] in ("A", "B", "C")


def test_constrained_walk_takes_greedy_steps_and_scores_the_end_only_where_it_decides() -> None:
    """No ([5]) is the start of None ([5, 7]); Yes is [9]. Greedy: the first step takes 5 (No/None) over 9 (Yes) even
    though Yes is the likelier whole label than None; after 5, the end (No) against 7 (None) decides."""
    from probe_ui.providers.hf.constrained import Spelling, rows_of, walk

    spelled = [Spelling("no", (5,), -1), Spelling("none", (5, 7), -1), Spelling("yes", (9,), -1)]
    rows = rows_of(spelled, ends=[2], first=0)
    assert rows == [(5,), (5, 2), (5, 7), (9,)]  # No gets an end row (None continues it); Yes does not need one
    greedy = GenerationSettings()

    def scored(lp5: float, lp9: float, end: float, lp7: float) -> list[tuple[Any, list[float], int]]:
        return [(None, [lp5], 10), (None, [lp5, end], 10), (None, [lp5, lp7], 10), (None, [lp9], 10)]

    chosen, logp = walk(spelled, scored(-0.5, -1.0, -2.0, -0.2), greedy, None)
    assert chosen.label == "none" and logp == pytest.approx(-0.7)
    chosen, logp = walk(spelled, scored(-0.5, -1.0, -0.1, -3.0), greedy, None)
    assert chosen.label == "no" and logp == pytest.approx(-0.6)
    chosen, _ = walk(spelled, scored(-2.0, -1.0, -0.1, -0.1), greedy, None)
    assert chosen.label == "yes"


def test_batch_json_on_an_hf_model_stores_structured_answers(mixed_preset: Path, tmp_path: Path, tiny_llava: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.db")
    spec = f"hf/{tiny_llava}"
    json_batch(capsys, mixed_preset, spec, db)
    rows = _rows(db, spec)
    assert len(rows) == 4
    labelled = [r for r in rows if r["settings"].get("answer_format") == "json"]
    assert len(labelled) == 3
    for r in labelled:
        assert r["method"] == "structured" and r["sure"] is True
        assert json.loads(r["raw_text"])["answer"] == r["parsed"]
    assert {r["parsed"] for r in labelled} <= {"A", "B", "C", "yes", "no"}


# ---- helpers -------------------------------------------------------------------------------------------------------

def _request(settings: GenerationSettings) -> Request:
    from tiny_vlm import image

    text = "Which side is the lesion on? A. left B. right C. both"
    return Request((Message("user", (ImagePart(image()), TextPart(text))),), settings, labels=("A", "B", "C"))


def _generate(cfg: ModelConfig, request: Request) -> Response:
    from probe_ui.runner import ask as ask_one

    async def go() -> Response:
        p = create(cfg)
        try:
            return await ask_one(p, request)
        finally:
            await p.aclose()

    return asyncio.run(go())
