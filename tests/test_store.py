"""The store: WAL SQLite, content-addressed images, unique cells, errors replaced only by success."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.store import Store, StoreError, responses


def _variant(value: int = 5) -> Variant:
    im = CanonicalImage.from_pil(Image.new("L", (6, 4), value))
    return Variant(item_id="i1", question="q?", kind="yesno", answer="yes", images=(im,), group="i1", source="p.yaml")


def _row(run_id: int, v: Variant, **kw) -> dict:
    base = dict(run_id=run_id, variant_id=v.id, model="m", prompt="yesno", sample=0, request_hash="h" * 64,
                messages=[], settings={}, raw_text="yes", parsed="yes", method="label_word", invalid=False,
                refusal=False, correct=True, error=None)
    base.update(kw)
    return base


def test_wal_images_on_disk_and_run_metadata(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    with store.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    run = store.ensure_run("r", 3, {"models": [{"name": "a"}]})
    assert run.seed == 3 and "python" in run.versions and "numpy" in run.versions
    v = _variant()
    store.add_variants(run.id, [v, v])
    path = store.image_path(v.images[0].id)
    assert path.parent.parent == tmp_path / "images" and path.read_bytes() == v.images[0].png
    assert store.get_image(v.images[0].id) == v.images[0]
    # the same variant twice, and again later, is stored once
    store.add_variants(run.id, [v])
    with store.engine.connect() as c:
        assert c.exec_driver_sql("select count(*) from variants").scalar() == 1
        assert c.exec_driver_sql("select count(*) from run_variants").scalar() == 1
    # reopening merges list settings instead of overwriting them
    run = store.ensure_run("r", 3, {"models": [{"name": "b"}]})
    assert run.settings["models"] == [{"name": "a"}, {"name": "b"}]
    with pytest.raises(StoreError, match="seed 3, not 4"):
        store.ensure_run("r", 4, {})


def test_an_image_is_known_as_stored_only_by_the_store_that_stored_it(tmp_path: Path) -> None:
    """Callers skip put_image (and its thread) only for images this Store wrote; another Store on the same file
    (another process) still writes its own, so its images are never assumed."""
    store, other = Store(tmp_path / "s.db"), Store(tmp_path / "s.db")
    im = _variant().images[0]
    assert not store.stored_here(im.id)
    store.put_image(im)
    assert store.stored_here(im.id) and not other.stored_here(im.id)
    store.image_path(im.id).unlink()  # gone from disk: the other store writes it again
    other.put_image(im)
    assert other.stored_here(im.id) and store.get_image(im.id) == im


def test_tampered_image_file_is_detected(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    v = _variant()
    store.add_variants(store.ensure_run("r", 0, {}).id, [v])
    store.image_path(v.images[0].id).write_bytes(_variant(9).images[0].png)
    with pytest.raises(StoreError, match="does not match its hash"):
        store.get_image(v.images[0].id)


def test_cells_are_unique_and_errors_are_replaced_by_success_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    run = store.ensure_run("r", 0, {})
    v = _variant()
    store.add_variants(run.id, [v])
    store.save_response(_row(run.id, v, raw_text="", parsed=None, error="HTTP 500"))
    assert store.done_cells(run.id) == set()
    store.save_response(_row(run.id, v))
    assert store.done_cells(run.id) == {(v.id, "m", "yesno", 0)}
    store.save_response(_row(run.id, v, raw_text="no", parsed="no", correct=False))  # a finished answer stays
    with store.engine.connect() as c:
        rows = c.execute(sa.select(responses.c.raw_text, responses.c.error)).all()
    assert rows == [("yes", None)]
    frame = store.answers_frame(run.id)
    assert list(frame["correct"]) == [True] and frame.loc[0, "answer_label"] == "yes"


def test_unopenable_locations_are_clear(tmp_path: Path) -> None:
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError, match="is a folder"):
        Store(tmp_path / "dir.db")
    with pytest.raises(StoreError, match="no runs"):
        Store(tmp_path / "new.db").get_run()
