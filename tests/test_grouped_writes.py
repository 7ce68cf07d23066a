"""Answers written in groups (issue 50): a group is stored exactly as each of its rows alone would be, on SQLite and
PostgreSQL; a row that cannot be stored does not lose the others; answers that come back while a write is under way
form the next group; an interrupted batch keeps every answer that came back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.runner.grouped_writes import GroupedWrites
from probe_ui.store import Store, responses


def _variant(value: int) -> Variant:
    im = CanonicalImage.from_pil(Image.new("L", (6, 4), value))
    return Variant(item_id=f"i{value}", question="q?", kind="yesno", answer="yes", images=(im,), source="p.yaml")


def _row(run_id: int, v: Variant, text: str = "yes", error: str | None = None) -> dict[str, Any]:
    return dict(run_id=run_id, variant_id=v.id, model="m", prompt="yesno", sample=0, request_hash="h" * 64,
                messages=[], settings={}, raw_text=text, parsed=None if error else text, method="label_word",
                invalid=False, refusal=False, correct=text == "yes", error=error)


def _stored(store: Store) -> list[tuple[str, str | None, str | None]]:
    with store.engine.connect() as c:
        rows = c.execute(sa.select(responses.c.variant_id, responses.c.raw_text, responses.c.error)
                         .order_by(responses.c.variant_id)).all()
    return [tuple(r) for r in rows]


def _with_history(store: Store) -> tuple[int, list[Variant], dict[str, int]]:
    """A run with four variants: the first's cell holds an error, the second's a finished answer."""
    run = store.ensure_run("r", 0, {})
    vs = [_variant(v) for v in (1, 2, 3, 4)]
    store.add_variants(run.id, vs)
    ids = {"error": store.save_response(_row(run.id, vs[0], "", error="HTTP 500")),
           "done": store.save_response(_row(run.id, vs[1], "yes"))}
    return run.id, vs, ids


@pytest.fixture(params=["sqlite", "postgres"])
def two_stores(request, tmp_path: Path) -> tuple[Store, Store]:
    """The store written a group at a time (on each back end), and one written a row at a time."""
    grouped = request.getfixturevalue("postgres_db") if request.param == "postgres" else tmp_path / "group.db"
    return Store(grouped), Store(tmp_path / "alone.db")


def test_a_group_is_stored_as_each_of_its_rows_alone_would_be(two_stores) -> None:
    grouped, alone = two_stores
    outcomes = []
    for store, write in ((grouped, lambda s, rows: s.save_responses(rows)),
                         (alone, lambda s, rows: [s.save_response(r) for r in rows])):
        run_id, vs, ids = _with_history(store)
        got = write(store, [_row(run_id, vs[0], "no"), _row(run_id, vs[1], "no"), _row(run_id, vs[2], "yes"),
                            _row(run_id, vs[3], "", error="timeout")])
        assert got[0] == ids["error"]  # the error row replaced by the finished answer, in its place
        assert got[1] is None  # a finished answer is never overwritten
        assert got[2] is not None and got[3] is not None and got[2] < got[3]  # new rows, in the order given
        outcomes.append(_stored(store))
        assert store.done_cells(run_id) == {(v.id, "m", "yesno", 0) for v in vs[:3]}
    assert outcomes[0] == outcomes[1]
    assert sorted(text for _, text, _ in outcomes[0]) == ["", "no", "yes", "yes"]


def test_a_row_that_cannot_be_stored_does_not_lose_the_rest_of_its_group(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    run_id, vs, _ = _with_history(store)
    unknown = dict(_row(run_id, vs[2]), variant_id="0" * 16)  # no such variant: the database refuses the row
    with pytest.raises(sa.exc.IntegrityError):
        store.save_responses([_row(run_id, vs[2], "yes"), unknown, _row(run_id, vs[3], "no")])
    assert store.done_cells(run_id) == {(v.id, "m", "yesno", 0) for v in (vs[1], vs[2], vs[3])}


def test_the_same_cell_twice_in_a_group_keeps_what_two_writes_keep(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    run_id, vs, _ = _with_history(store)
    first, second = store.save_responses([_row(run_id, vs[2], "", error="HTTP 429"), _row(run_id, vs[2], "no")])
    assert first == second  # the retry's finished answer took the error row's place
    assert [r for r in _stored(store) if r[0] == vs[2].id] == [(vs[2].id, "no", None)]


def test_answers_that_arrive_during_a_write_form_the_next_group() -> None:
    groups: list[list[int]] = []

    def write_many(rows):
        groups.append([r["n"] for r in rows])
        return [r["n"] * 10 for r in rows]

    async def main() -> list[int | None]:
        writes = GroupedWrites(write_many)
        return await asyncio.gather(*(writes.save({"n": n}) for n in range(5)))

    assert asyncio.run(main()) == [0, 10, 20, 30, 40]  # each caller gets its own row's id
    assert groups == [[0, 1, 2, 3, 4]]  # arrived in one turn of the loop: one write


def test_a_write_off_the_loop_gathers_what_arrives_meanwhile_and_each_caller_gets_its_failure() -> None:
    groups: list[list[int]] = []

    def write_many(rows):
        groups.append([r["n"] for r in rows])
        if any(r["n"] == 13 for r in rows):
            raise RuntimeError("disk full")
        return [r["n"] for r in rows]

    async def main() -> list[Any]:
        writes = GroupedWrites(write_many, off_loop=True)
        first = asyncio.ensure_future(writes.save({"n": 1}))
        await asyncio.sleep(0.01)  # the first write is under way on its thread
        later = [asyncio.ensure_future(writes.save({"n": n})) for n in (2, 13, 4)]
        return await asyncio.gather(first, *later, return_exceptions=True)

    got = asyncio.run(main())
    assert got[0] == 1 and all(isinstance(x, RuntimeError) for x in got[1:])
    assert groups == [[1], [2, 13, 4]]


def test_answers_of_callers_that_were_cancelled_are_still_written() -> None:
    written: list[int] = []

    def write_many(rows):
        written.extend(r["n"] for r in rows)
        return [None] * len(rows)

    async def main() -> None:
        writes = GroupedWrites(write_many)
        callers = [asyncio.ensure_future(writes.save({"n": n})) for n in range(3)]
        await asyncio.sleep(0)  # the answers are handed over ...
        for c in callers:
            c.cancel()  # ... then Ctrl+C cancels the workers
        await asyncio.gather(*callers, return_exceptions=True)
        await writes.drain()

    asyncio.run(main())
    assert written == [0, 1, 2]


def test_rows_put_without_waiting_gather_for_a_moment_and_a_failure_is_handed_back() -> None:
    groups: list[list[int]] = []
    failed: list[BaseException] = []

    def write_many(rows):
        groups.append([r["n"] for r in rows])
        if 99 in groups[-1]:
            raise RuntimeError("disk full")
        return [None] * len(rows)

    async def main() -> None:
        writes = GroupedWrites(write_many, linger_s=0.05)
        for n in range(3):
            writes.put({"n": n}, failed.append)
            await asyncio.sleep(0.005)  # answers a few milliseconds apart: one group
        await asyncio.sleep(0.1)
        writes.put({"n": 99}, failed.append)
        await writes.drain()

    asyncio.run(main())
    assert groups == [[0, 1, 2], [99]]
    assert [str(e) for e in failed] == ["disk full"]


def test_ctrl_c_once_every_cell_is_out_keeps_every_answer_that_came_back(tmp_path: Path, monkeypatch) -> None:
    """Ctrl+C cancels the batch while it waits for the last answers (every cell handed over): the answers that came
    back and wait for their group are still written."""
    import os
    import signal

    import yaml
    from fake_openai import FakeOpenAIServer
    from helpers import choice_item, write_png, write_preset

    from probe_ui.cli import main
    from probe_ui.runner import grouped_writes

    for i in range(4):
        write_png(tmp_path / f"im{i}.png", size=(48, 32), seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 4}.png", answer="B") for i in range(12)])
    came_back: list[str] = []
    real_put = grouped_writes.GroupedWrites.put

    def put(self, row, on_failure, on_written=None):
        real_put(self, row, on_failure, on_written)
        came_back.append(row["variant_id"])
        if len(came_back) == 3:
            signal.raise_signal(signal.SIGINT)  # the user's Ctrl+C, just after three answers came back

    monkeypatch.setattr(grouped_writes.GroupedWrites, "put", put)
    with FakeOpenAIServer(answer="B", latency_s=1.0) as server:
        (tmp_path / "be").mkdir()
        (tmp_path / "be" / "m.yaml").write_text(yaml.safe_dump({"name": "m", "provider": "openai", "model": "m",
                                                                "base_url": server.base_url}))
        monkeypatch.setitem(os.environ, "PROBE_UI_BACKENDS", str(tmp_path / "be"))
        db = str(tmp_path / "x.db")
        code = main(["batch", str(preset), "-m", "m", "--db", db, "--no-progress", "--concurrency", "12"])
    assert code == 130 and len(came_back) >= 3
    with Store(db).engine.connect() as c:
        stored = set(c.execute(sa.select(responses.c.variant_id)).scalars())
    assert stored == set(came_back)


def test_a_batch_counts_an_answer_only_once_it_is_stored(tmp_path: Path) -> None:
    """Progress (the app's bar, tqdm, ``on_progress``) never counts an answer that still waits for its group: what
    it shows done is in the store, and a kill at that moment loses nothing it counted."""
    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.runner import BatchOptions, run_batch

    store = Store(tmp_path / "s.db")
    seen: list[tuple[int, int]] = []

    def count(_done: int, _total: int, result) -> None:
        with store.engine.connect() as c:
            seen.append((result.answered, c.execute(sa.select(sa.func.count()).select_from(responses)).scalar_one()))

    result = run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], ["baseline/first"],
                       BatchOptions(run_name="r", progress=False, concurrency=8), on_progress=count)
    assert result.answered == 16 and seen[-1] == (16, 16)
    assert all(answered <= stored for answered, stored in seen), seen
