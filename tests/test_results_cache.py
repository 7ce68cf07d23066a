"""The Results tab's cache (probe_ui.views.results_cache) and one-call view (probe_ui.views.results_page)
on real batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store, StoreError
from probe_ui.views import results as R
from probe_ui.views.results_cache import ScoredCache, cached_answers, store_stamp
from probe_ui.views.results_page import results_view


@pytest.fixture
def batch(tmp_path: Path) -> tuple[Store, str, str]:
    """Six two-option items under the rotations suite, asked of baseline/first; the preset, to ask again."""
    write_png(tmp_path / "a.png")
    items = [choice_item(i, "a.png", answer="AB"[i % 2], category=["Chest"]) for i in range(6)]
    preset = str(write_preset(tmp_path / "small.yaml", items))
    store = Store(tmp_path / "x.db")
    res = run_batch(store, [load_preset(preset)], ["baseline/first"],
                    BatchOptions(suites=["rotations"], progress=False, run_name="r1"))
    return store, res.run.name, preset


def test_a_repeat_view_is_served_from_the_cache(batch) -> None:
    store, run, _ = batch
    cache = ScoredCache()
    first = cached_answers(cache, store, "ann", [run])
    again = cached_answers(cache, store, "ann", [run])
    assert (cache.misses, cache.hits) == (1, 1)
    pd_equal(first, again)
    pd_equal(first, R.answers(store, [run]))  # the same frame as the uncached call
    one = cached_answers(cache, store, "ann", [run], conditions=["original"])  # a filter: no new scoring
    assert cache.misses == 1 and set(one["condition"]) == {"original"}
    pd_equal(one, R.answers(store, [run], conditions=["original"]))


def test_a_new_rating_or_answer_makes_the_next_view_afresh(batch) -> None:
    store, run, preset = batch
    cache = ScoredCache()
    before = cached_answers(cache, store, "ann", [run])
    rid = int(before["response_id"].iloc[0])
    store.rate_response(rid, "incorrect", rater="ann")
    rated = cached_answers(cache, store, "ann", [run])
    assert cache.misses == 2
    assert rated.set_index("response_id").loc[rid, "rating"] == "incorrect"
    run_batch(store, [load_preset(preset)], ["baseline/first", "baseline/last"],
              BatchOptions(suites=["rotations"], progress=False, run_name=run, extend=True))
    grown = cached_answers(cache, store, "ann", [run])
    assert cache.misses == 3 and set(grown["model"]) == {"baseline/first", "baseline/last"}
    assert len(grown) == 2 * len(before)
    assert len(cache._values) == 1  # the older states of the same view were dropped


def test_one_persons_entries_are_never_anothers(batch) -> None:
    store, run, _ = batch
    cache = ScoredCache()
    cached_answers(cache, store, "ann", [run])
    cached_answers(cache, store, "bob", [run])
    assert (cache.misses, cache.hits) == (2, 0) and cache.owners() == {"ann", "bob"}
    cache.forget("ann")
    assert cache.owners() == {"bob"}


def test_parser_and_judge_are_part_of_the_key(batch) -> None:
    store, run, _ = batch
    cache = ScoredCache()
    cached_answers(cache, store, "ann", [run], "robust")
    legacy = cached_answers(cache, store, "ann", [run], "legacy")
    assert cache.misses == 2
    pd_equal(legacy, R.answers(store, [run], "legacy"))


def test_unknown_runs_are_named(batch) -> None:
    store, run, _ = batch
    with pytest.raises(StoreError, match="no run named 'nope'"):
        store_stamp(store, [run, "nope"])
    with pytest.raises(StoreError, match="empty run name"):
        cached_answers(ScoredCache(), store, "ann", [" "])
    assert cached_answers(ScoredCache(), store, "ann", []).empty


def test_the_view_is_the_uncached_views_numbers_and_kept(batch) -> None:
    store, run, _ = batch
    cache = ScoredCache()
    plain = results_view(store, [run])
    cached = results_view(store, [run], owner="ann", cache=cache)
    assert cached.overview.equals(plain.overview) and cached.by_condition.equals(plain.by_condition)
    assert cached.n_answers == plain.n_answers == 24 and plain.plot_curves is None
    assert results_view(store, [run], owner="ann", cache=cache) is cached
    worst = results_view(store, [run], owner="ann", cache=cache, order="worst")
    assert worst.overview is cached.overview and worst.plot_acc is not cached.plot_acc
    assert "worst first" in worst.plot_acc.layout.title.text
    assert "Showing run r1" in cached.shown


def pd_equal(a, b) -> None:
    cols = [c for c in a.columns if c != "rater_ratings"]
    assert a[cols].astype(str).reset_index(drop=True).equals(b[cols].astype(str).reset_index(drop=True))


def test_metric_families_are_headed_in_words(batch) -> None:
    """Words, not codes, on the Results tab: a family's heading is its name in words, not its registry key."""
    import re

    store, run, _ = batch
    page = results_view(store, [run]).families
    heads = re.findall(r"<h4>(.*?) <small>", page)
    assert heads and "Consistency over the variants of one item" in heads
    assert not {"groups", "robustness_curves", "medvh_fcj"} & set(heads)
    assert "every figure of groups" not in page
