"""The send gate's policy and the send ledger (issue 47): which requests are checked, what block / redact / warn do
to them, and a hash-chained record of every request that left for a host that is not trusted, which ``probe-ui
audit verify`` finds altered."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import sqlalchemy as sa
import yaml
from helpers import run_cli
from PIL import Image

from probe_ui.presets import load_preset
from probe_ui.providers.base import ModelConfig
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.send_gate.policy import GateError, GatePolicy, check_request, destinations
from probe_ui.store import Store, send_ledger


@dataclass(frozen=True)
class Found:
    """What the OCR detector returns for a box of burned-in text (:class:`probe_ui.send_gate.detect.Finding`)."""

    x: int
    y: int
    w: int
    h: int
    kind: str


def marked(image) -> list[Found]:
    """A stand-in for the OCR engine (its own tests are test_send_gate_detect.py): a pure white 8x8 patch in the
    top left corner is 'burned-in text'."""
    px = np.asarray(image.pil().convert("L"))
    return [Found(0, 0, 8, 8, "name")] if (px[:8, :8] == 255).all() else []


def _image(body: dict) -> bytes:
    for m in body["messages"]:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if part.get("type") == "image_url":
                return base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
    raise AssertionError("no image in the request")


def tagged_and_clean(folder: Path, name: str = "p.yaml") -> Path:
    """A preset of two items in ``folder``: one image 'with a name in the corner' (the stand-in detector
    :func:`marked` finds it), one clean."""
    rng = np.random.default_rng(0)
    for item, mark in (("tagged", True), ("clean", False)):
        px = rng.integers(40, 200, size=(32, 48), dtype=np.uint8)
        if mark:
            px[:8, :8] = 255
        Image.fromarray(px).save(folder / f"{item}.png")
    items = [{"id": n, "image": f"{n}.png", "question": "Is there a nodule?", "answer": "yes"}
             for n in ("tagged", "clean")]
    path = folder / name
    path.write_text(yaml.safe_dump({"items": items}))
    return path


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    """Two items: one image 'with a name in the corner', one clean."""
    return tagged_and_clean(tmp_path)


def test_which_hosts_are_gated_and_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    api = ModelConfig("gpt", "openai", "gpt-4o")
    local = ModelConfig("srv", "openai", "m", base_url="http://127.0.0.1:8000/v1")
    site = ModelConfig("site", "openai", "m", base_url="https://vlm.hospital.example/v1")
    own = ModelConfig("own", "openai", "m", base_url="https://gpu.example.org/v1", trusted=True)
    assert destinations(api) == ("api.openai.com",) and destinations(ModelConfig("b", "baseline", "first")) == ()
    with_ocr = GatePolicy(available=True, trusted_hosts=("*.hospital.example",))
    assert with_ocr.decide(api).mode == "block" and with_ocr.decide(api).record  # a hosted API: checked, recorded
    for m in (local, site, own):  # loopback, --trusted-hosts, a catalogue entry's trusted: true
        assert with_ocr.decide(m).mode == "" and not with_ocr.decide(m).record
    assert with_ocr.with_mode("block").decide(local).mode == "block"  # given explicitly: trusted hosts too
    assert not with_ocr.with_mode("block").decide(local).record  # but only untrusted hosts go on the ledger
    off = with_ocr.with_mode("off").decide(api)
    assert off.mode == "" and off.record  # unchecked, still recorded
    without = GatePolicy(available=False)
    assert without.decide(api).missing and without.decide(api).record
    assert "the send gate is missing" in without.check([api, local])[0] and without.check([local]) == []
    with pytest.raises(GateError, match=r"needs the OCR extra.*pip install -e \"\.\[ocr\]\""):
        without.with_mode("redact").decide(api)
    with pytest.raises(GateError, match="--send-gate must be one of block, redact, warn, off"):
        GatePolicy.from_options("maybe")


def test_block_sends_nothing_redact_sends_the_covered_image_and_clean_images_go_byte_for_byte(
        preset: Path, tmp_path: Path, fake_openai, monkeypatch: pytest.MonkeyPatch) -> None:
    """Against the loopback server treated as a hosted API: under block the tagged image never leaves (its cell
    fails with where the text is, not what it says) and the clean one is sent byte for byte; under redact the
    covered image is what is sent and stored; every request, sent or stopped, is on the ledger."""
    monkeypatch.setattr("probe_ui.runner.execute.check_request",
                        lambda d, r, detector=None: check_request(d, r, marked))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai.answer = "Yes"
    store = Store(tmp_path / "g.db")
    gate = GatePolicy("block", available=True, trust_loopback=False)
    result = run_batch(store, [load_preset(preset)], ["openai/fake-vlm"],
                       BatchOptions(run_name="b", progress=False, gate=gate, user="dr-ames"))
    assert result.answered == 1 and result.errors == 1
    sent = [_image(r.body) for r in fake_openai.chat_requests]
    assert len(sent) == 1 and not (np.asarray(Image.open(io.BytesIO(sent[0])))[:8, :8] == 255).all()
    rows = store.answers_frame(store.get_run("b").id, detail=True).set_index("item_id")
    assert rows.loc["tagged", "error"] == "openai/fake-vlm: burned-in text at 0,0,8,8 (name); not sent"
    # the clean image went out byte for byte: the stored PNG of what was sent is the request's image
    ids = [p["image_id"] for m in rows.loc["clean", "messages"] for p in m["content"] if p["type"] == "image"]
    assert store.get_image(ids[0]).png == sent[0]
    ledger = list(store.ledger_rows())
    assert sorted(r["verdict"] for r in ledger) == ["blocked", "sent"]  # one row per request, sent or stopped
    assert all(r["user"] == "dr-ames" and r["run"] == "b" and r["host"] == "127.0.0.1" and r["model"] == "fake-vlm"
               and len(r["images"]) == 64 for r in ledger)
    assert store.verify_ledger().intact

    # redact: the covered image is what is sent, stored and shown as sent
    fake_openai.chat_requests.clear()
    result = run_batch(store, [load_preset(preset)], ["openai/fake-vlm"],
                       BatchOptions(run_name="r", progress=False,
                                    gate=GatePolicy("redact", available=True, trust_loopback=False)))
    assert result.errors == 0 and result.answered == 2
    covered = [np.asarray(Image.open(io.BytesIO(_image(r.body)))) for r in fake_openai.chat_requests]
    assert sum((a[:8, :8] == 0).all() for a in covered) == 1  # the tagged one, covered
    assert not any((a[:8, :8] == 255).all() for a in covered)
    detail = store.answers_frame(store.get_run("r").id, detail=True).set_index("item_id").loc["tagged", "details"]
    assert detail["send_gate"] == {"verdict": "redacted", "found": [
        {"image": detail["send_gate"]["found"][0]["image"], "x": 0, "y": 0, "w": 8, "h": 8, "kind": "name"}]}
    assert [r["verdict"] for r in store.ledger_rows()][-2:].count("redacted") == 1
    assert store.verify_ledger().intact


def test_audit_verify_passes_on_a_fresh_store_and_names_the_row_changed_with_sql(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    store = Store(db)
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 0 and "send ledger intact: 0 rows" in out
    entry = {"provider": "openai", "host": "api.openai.com", "model": "gpt-4o", "verdict": "sent", "run": "r",
             "cell": "v1/gpt/0", "images": ["a" * 64]}
    store.record_sends([dict(entry, user="ames"), dict(entry, user="boyd", verdict="blocked"),
                        dict(entry, user="ames")])
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 0 and "3 rows" in out
    code, out, _ = run_cli(capsys, "audit", "show", "--db", str(db), "--user", "boyd")
    assert code == 0 and "boyd" in out and "blocked" in out and "ames" not in out and out.strip().endswith("1 row")
    with pytest.raises(SystemExit) as bad:
        run_cli(capsys, "audit", "show", "--db", str(db), "--since", "yesterday")
    assert bad.value.code == 2 and "--since 'yesterday': give a date or time" in capsys.readouterr().err
    with store.engine.begin() as c:  # someone edits the second row quietly
        c.execute(sa.update(send_ledger).where(send_ledger.c.id == 2).values(verdict="sent"))
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 1 and "broken at row 2" in out and "do not match its hash" in out
    with store.engine.begin() as c:  # put it back, then remove the first row
        c.execute(sa.update(send_ledger).where(send_ledger.c.id == 2).values(verdict="blocked"))
        c.execute(sa.delete(send_ledger).where(send_ledger.c.id == 1))
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 1 and "broken at row 2" in out and "does not follow the row before it" in out


@pytest.mark.slow
def test_with_the_ocr_engine_a_burned_in_image_never_leaves_and_clean_ones_go_byte_for_byte(
        tmp_path: Path, fake_openai, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's check, with the real OCR engine: `batch --send-gate block` against the loopback server (given
    explicitly, the gate applies to this trusted host too): the images with a name, a birth date or a record number
    burned in are never sent, each clean one (with its "L", "AP" or measurement labels) is sent byte for byte."""
    from burned_in import make_set
    from helpers import require_module

    require_module("rapidocr_onnxruntime", 'pip install -e ".[ocr]"')
    cases = make_set()
    chosen = [c for c in cases if not c.clean][:3] + [c for c in cases if c.clean][:3]
    items = []
    for c in chosen:
        (tmp_path / f"{c.name}.png").write_bytes(c.image.png)
        items.append({"id": c.name, "image": f"{c.name}.png", "question": "Is there a nodule?", "answer": "yes"})
    (tmp_path / "p.yaml").write_text(yaml.safe_dump({"items": items}))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai.answer = "No"
    db = tmp_path / "g.db"
    code, out, err = run_cli(capsys, "batch", str(tmp_path / "p.yaml"), "-m", "openai/fake-vlm", "--db", str(db),
                             "--no-progress", "--run", "g", "--send-gate", "block")
    assert code == 1 and "3 new, 3 errors" in out, (out, err)
    assert err.count("burned-in text at") >= 1 and "not sent" in err
    sent = {_image(r.body) for r in fake_openai.chat_requests}
    assert sent == {c.image.png for c in chosen if c.clean}  # byte for byte, and nothing else
    for c in chosen:
        if not c.clean:  # never in a request, and the reason names where, never what
            for t in c.identifying:
                assert t.text not in err and t.text not in out
