"""Markers by what a test needs, so that ``pytest -m "not slow and not browser"`` is the fast loop and pytest-xdist
keeps tests that share one resource on one worker (``--dist loadgroup``).

A test is marked here by the fixtures it uses (one rule, rather than a marker repeated in every file):
``browser`` (chromium), ``postgres`` (the session's PostgreSQL cluster), ``hf`` (a tiny local checkpoint: torch and
transformers). ``slow`` is set on the files and tests listed in :data:`SLOW` (measured with ``--durations``; see
docs/dev/testing.md) and on every ``hf`` and ``browser`` test. A file may also set ``pytestmark`` itself.
"""

from __future__ import annotations

import pytest

BROWSER_FIXTURES = frozenset({"chromium", "browser"})
POSTGRES_FIXTURES = frozenset({"postgres_url", "postgres_db"})
HF_FIXTURES = frozenset({"tiny_llava", "tiny_llava_nosys", "tiny_gemma3", "tiny_family"})

#: whole files (module name) or single tests (``module::name`` without parameters) that take seconds each:
#: servers started in subprocesses, wheels built, fuzzing, full batches over every suite. Measured with
#: ``python -m pytest --durations=0`` on the 2-core development machine (docs/dev/testing.md).
SLOW: frozenset[str] = frozenset({
    # each test starts the app, a batch or a wheel install in a subprocess, or drives many sessions
    "test_app_api", "test_auth", "test_many_users", "test_startup", "test_packaging",
    "test_upload_cache", "test_security", "test_store_run_lock", "test_scale", "test_interop_inspect",
    # property-based fuzzing, and module fixtures that run whole batches over every suite
    "test_fuzz", "test_report", "test_compare",
    # every figure and table of the Results and Stress tabs and the report, for 1-12 models (issue 51)
    "test_views_across_counts",
    # the issue-43 runs: the MediConfusion pairs under the severity suite, 656 and 1,066 answers
    "test_clustered_stats::test_sixteen_items_in_41_variants_give_an_interval_of_sixteen",
    "test_clustered_stats::test_compare_over_thirteen_items_finds_no_difference_and_the_gate_stays_open",
    # single tests of 10 s or more in a --durations run (the rest of their files is fast)
    "test_batch::test_random_baseline_is_near_chance_and_first_is_exact",
    "test_batch::test_same_seed_same_random_answers",
    "test_batch::test_run_name_reuse_with_another_seed_is_refused",
    "test_batch::test_failing_model_gives_error_cells_the_others_complete_and_rerun_retries",
    "test_batch::test_rerun_adds_no_rows_and_makes_no_second_call",
    "test_discovery::test_backend_yaml_that_cannot_be_read_is_a_model_spec_error",
    "test_app_wiring::test_every_inline_error_lands_in_an_output_of_its_event",
    "test_agreement::test_score_json_report_and_results_show_the_kappas",
    "test_agreement::test_rater_agreement_block_from_the_scored_table",
    "test_answers::test_any_option_text_reply_reads_its_letter",
    "test_answers::test_fast_negation_test_agrees_with_the_full_search",
    "test_answers::test_extract_never_raises_and_returns_a_label",
    "test_answers::test_degenerate_100k_replies_are_read",
    "test_cluster::test_python_dash_m_probe_ui_runs_the_cli",
    "test_decompression::test_a_gzip_bomb_is_stopped_at_the_cap_without_holding_it",
    "test_comparison::test_the_table_stays_aligned_for_many_models_and_variants",
    "test_one_truth",
    "test_robustness::test_report_compares_the_sweep_with_a_baseline_run",
    "test_robustness::test_curve_figures_and_the_report_section",
    "test_exports::test_imagefolder_loads_in_datasets_and_imports_back_to_the_same_variants",
    "test_exports::test_no_local_paths_keys_or_key_names_in_any_exported_file",
    "test_exports::test_by_variant_has_one_row_per_variant",
    "test_metric_names::test_every_view_names_registered_figures_each_with_one_value",
    "test_metric_registry::test_a_registered_family_appears_in_every_view",
    "test_store_read_only::test_read_commands_on_a_store_nobody_may_write_give_the_same_figures",
})

#: xdist groups: every test of a group runs on one worker, one after the other. The PostgreSQL tests share one
#: cluster. Browser and hf tests are grouped by file: a file's browser tests share one chromium
#: (tests/shared_chromium.py) and a file's hf tests the tiny checkpoints its worker built, while two files may run at
#: once on two workers, each with its own chromium and app, or its own checkpoints (one group of all browser tests
#: and one of all hf tests, each one after the other, would be the longest chains of a parallel run). Measured on
#: 2026-11-26: with pytest 9.2 and pytest-xdist 3.8 the groups are not applied at all (xdist renames a grouped test
#: through ``item._nodeid``, which pytest 9.2 no longer reads), so every test is spread over the workers; nothing in
#: the suite depends on the groups for correctness (each worker starts its own cluster, chromium and checkpoints).
GROUPS = {"postgres": "postgres", "browser": "browser-{module}", "hf": "hf-{module}"}


def apply_markers(items: list[pytest.Item]) -> None:
    """Mark each collected test by the resources it needs (called from conftest's collection hook)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        module = item.module.__name__ if getattr(item, "module", None) else ""
        base = item.originalname if hasattr(item, "originalname") else item.name
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if names & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)
        if names & HF_FIXTURES:
            item.add_marker(pytest.mark.hf)
        marks = {m.name for m in item.iter_markers()}
        if module in SLOW or f"{module}::{base}" in SLOW or marks & {"hf", "browser"}:
            item.add_marker(pytest.mark.slow)
        for mark, group in GROUPS.items():
            if mark in marks:
                item.add_marker(pytest.mark.xdist_group(group.format(module=module)))
                break

