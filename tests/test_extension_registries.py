"""Judge modes, answer parsers and baselines are registries (probe_ui.registry): a newcomer adds one with one
decorated class or function, the code that dispatches on the name finds it, and an unknown name's error lists the
registered ones."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from probe_ui.items import Variant
from probe_ui.messages import GenerationSettings, Message, Request, TextPart
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, ModelSpecError
from probe_ui.providers.baselines import BASELINE_MODES
from probe_ui.reading.answers import Answer
from probe_ui.runner import BatchError, BatchOptions, run_batch
from probe_ui.runner.judge import JUDGE_MODES, JudgeMode, JudgeModeError, judge_request, needs_judge, parse_judgement
from probe_ui.scoring import PARSERS, ScoringError, read_reply
from probe_ui.store import Store


def _variant() -> Variant:
    return Variant(item_id="i1", question="Which organ?", kind="choice", options=("liver", "spleen", "kidney"),
                   answer="B")


@pytest.fixture
def middle_baseline() -> Iterator[None]:
    BASELINE_MODES.add("middle", lambda request: request.labels[len(request.labels) // 2])
    try:
        yield
    finally:
        BASELINE_MODES.remove("middle")


def test_a_baseline_is_one_registered_function(middle_baseline: None) -> None:
    provider = create(ModelConfig(name="baseline/middle", provider="baseline", model="middle"))
    req = Request((Message("user", (TextPart("q"),)),), GenerationSettings(), ("A", "B", "C"))
    assert asyncio.run(provider.generate(req)).text == "B"


def test_an_unknown_baseline_lists_the_registered_ones() -> None:
    with pytest.raises(ModelSpecError, match=r"unknown baseline 'sometimes'; known: random, first, last"):
        create(ModelConfig(name="baseline/sometimes", provider="baseline", model="sometimes"))


class _AlwaysFirst:
    """A reader that takes every reply as the first label (a newcomer's parser)."""

    legacy_mode = "always-first"

    def legacy_gt(self, gt: str | None, attrs: dict[str, Any]) -> str | None:
        return gt

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        return Answer(labels[0], "always-first", False, False)


@pytest.fixture
def first_parser() -> Iterator[None]:
    PARSERS.add("first", lambda row, run_benchmark, run_prompt: _AlwaysFirst())
    try:
        yield
    finally:
        PARSERS.remove("first")


ROW = {"kind": "choice", "options": ["liver", "spleen"], "raw_text": "The answer is (B) spleen.", "prompt": "mc",
       "answer_label": "B", "error": None}


def test_a_parser_is_one_registered_function(first_parser: None) -> None:
    robust, mode = read_reply(ROW, "robust")  # type: ignore[misc]
    assert (robust.choice, mode) == ("B", None)
    mine, mode = read_reply(ROW, "first")  # type: ignore[misc]
    assert (mine.choice, mine.method, mode) == ("A", "always-first", "always-first")
    assert "first" in PARSERS.names()  # what the Results tab's parser choice lists


def test_an_unknown_parser_lists_the_registered_ones() -> None:
    with pytest.raises(ScoringError, match=r"unknown parser 'strict'; known: robust, legacy"):
        read_reply(ROW, "strict")


class _YesJudge(JudgeMode):
    name = "first-letter"

    def request(self, v: Variant, answer_text: str, settings: GenerationSettings) -> tuple[Message, ...]:
        return (Message("user", (TextPart(f"Which letter does this answer give? {answer_text}"),)),)

    def parse(self, text: str, labels: tuple[str, ...], margin: int = 3) -> Answer:
        found = [c for c in text if c in labels]
        return Answer(found[0], "judge-first-letter", False, False) if found else Answer(None, "judge-none", True,
                                                                                        False)


@pytest.fixture
def letter_judge() -> Iterator[None]:
    JUDGE_MODES.add("first-letter", _YesJudge())
    try:
        yield
    finally:
        JUDGE_MODES.remove("first-letter")


def test_a_judge_mode_is_one_registered_class(letter_judge: None) -> None:
    v = _variant()
    req = judge_request("first-letter", v, "spleen, so B", GenerationSettings())
    assert req.prompt == "judge-first-letter" and req.labels == ("A", "B", "C")
    assert "spleen, so B" in req.messages[0].content[0].text  # type: ignore[union-attr]
    assert parse_judgement("first-letter", "B", req.labels).choice == "B"
    assert needs_judge("first-letter", v, "free", None) and not needs_judge("first-letter", v, "mc", True)
    assert needs_judge("blink", v, "mc", True)  # BLINK's judge also reads what the rules could not


def test_an_unknown_judge_mode_lists_the_registered_ones(tmp_path: Any) -> None:
    with pytest.raises(JudgeModeError, match=r"unknown judge mode 'gpt'; known: mediconfusion, blink"):
        parse_judgement("gpt", "A", ("A", "B"))
    with pytest.raises(BatchError, match=r"unknown judge mode 'gpt'; known: mediconfusion, blink"):
        run_batch(Store(tmp_path / "x.db"), [], ["baseline/first"],
                  BatchOptions(judge="baseline/last", judge_mode="gpt", progress=False))


def test_the_cli_takes_registered_parsers_and_judge_modes(first_parser: None, letter_judge: None,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from probe_ui.cli import build_parser

    args = build_parser().parse_args(["score", "--parser", "first"])
    assert args.parser == "first"
    args = build_parser().parse_args(["batch", "p.yaml", "-m", "baseline/first", "--judge-mode", "first-letter"])
    assert args.judge_mode == "first-letter"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["score", "--parser", "strict"])
    assert "invalid choice: 'strict' (choose from 'robust', 'legacy', 'settled', 'first')" in capsys.readouterr().err


def test_a_registry_walks_only_the_modules_it_names(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The template registry imports each benchmark folder's prompts.py, not its metric (pandas, seconds)."""
    import sys

    from probe_ui.registry import Registry

    pkg = tmp_path / "toy_benchmarks"
    (pkg / "one").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "one" / "__init__.py").write_text("")
    (pkg / "one" / "prompts.py").write_text("from toy_registry_holder import REG\nREG.add('one-mc', 1)\n")
    (pkg / "one" / "metric.py").write_text("raise RuntimeError('the metric must not be imported')\n")
    holder = tmp_path / "toy_registry_holder.py"
    holder.write_text("from probe_ui.registry import Registry\n"
                      "REG = Registry('toy template', packages=('toy_benchmarks',), only=('prompts',))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        from toy_registry_holder import REG  # type: ignore[import-not-found]

        assert isinstance(REG, Registry) and REG.names() == ["one-mc"]
        assert "toy_benchmarks.one.metric" not in sys.modules
    finally:
        for name in [m for m in sys.modules if m.startswith(("toy_benchmarks", "toy_registry_holder"))]:
            del sys.modules[name]
