"""``probe-ui``: the command line. Each command is a thin wrapper over a library function.

Errors print one line and exit 1; usage errors exit 2; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Any, Callable, Sequence

from probe_ui import __version__, redact
from probe_ui.errors import ProbeUIError, bug_line, first_line, setup_logging
from probe_ui.registry import RegisteredNames

EXIT_ERROR, EXIT_USAGE = 1, 2
log = logging.getLogger("probe_ui.cli")


def _db_default() -> str:
    from probe_ui.store import DEFAULT_DB

    return os.environ.get("PROBE_UI_DB", str(DEFAULT_DB))


def seed_arg(text: str) -> int:
    """``--seed``: a whole number that every store and random generator can hold."""
    from probe_ui.perturb.registry import MAX_SEED

    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"give a whole number from 0 to {MAX_SEED}, not {text!r}")
    return value


def temperature_arg(text: str) -> float:
    """``--temperature``: a finite number every provider takes (``nan`` reached every model as an error)."""
    from probe_ui.runner import BatchError, check_temperature

    try:
        return check_temperature(text.strip(), "")
    except BatchError as exc:
        raise argparse.ArgumentTypeError(str(exc).strip()) from None


TRUST_HELP = ("open a store that holds triggers (or rules) probe-ui did not create, with a warning naming them "
              "(default: refuse it, since a trigger can change answers and ratings as they are written; also "
              "PROBE_UI_TRUST_STORE=1)")


def trust_arg(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--trust-store`` (:mod:`probe_ui.store_check`): before or after the command's name."""
    p.add_argument("--trust-store", action="store_true", default=default, help=TRUST_HELP)


def serve_args(p: argparse.ArgumentParser) -> None:
    from probe_ui.app.serve import DEFAULT_HOST, DEFAULT_MAX_UPLOAD_MB, DEFAULT_PORT

    g = p.add_argument_group("app (probe-ui with no command, or probe-ui serve)")
    g.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}; any other "
                                                        "address needs --auth)")
    g.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    g.add_argument("--db", default=_db_default(),
                   help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
    g.add_argument("--auth", default=None, metavar="USER:PASSWORD",
                   help="require this login in the browser, one admin (visible to others in the process list: "
                        "prefer --auth-file or $PROBE_UI_AUTH)")
    g.add_argument("--auth-file", default=None, metavar="PATH",
                   help="require a login of one of the users in this file (probe-ui users add NAME --file PATH: "
                        "salted password hashes, each user with a role: viewer, prober or admin)")
    g.add_argument("--endpoint-hosts", default=None, metavar="HOSTS",
                   help="hosts that endpoints added in the app may point at (comma separated: names, *.domain, "
                        "addresses, networks; default $PROBE_UI_ENDPOINT_HOSTS); beyond loopback, without it "
                        "only admins add endpoints")
    g.add_argument("--demo", action="store_true", help="open on a preset item with the baselines ticked, so a "
                                                       "presenter can press Run with no keys")
    g.add_argument("--max-upload-mb", type=int, default=None, metavar="MB",
                   help=f"largest upload the page accepts (default $PROBE_UI_MAX_UPLOAD_MB or "
                        f"{DEFAULT_MAX_UPLOAD_MB})")


def export_format_names() -> list[str]:
    """The registered export formats (:mod:`probe_ui.export_formats`), for ``export --format``."""
    from probe_ui.export_formats import format_names

    return format_names()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="probe-ui",
        description="Probe vision-language models on medical images: perturb, ask side by side, log, score.",
    )
    p.add_argument("--version", action="version", version=f"probe-ui {__version__}")
    p.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    trust_arg(p, default=False)
    serve_args(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sv = sub.add_parser("serve", help="start the app (the default when no command is given)")
    serve_args(sv)
    trust_arg(sv)
    sv.set_defaults(func=cmd_serve)

    def parser_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--parser", choices=RegisteredNames("probe_ui.scoring:PARSERS"), default="robust",
                        metavar="NAME",
                        help="robust: our extractor (default); legacy: the benchmark's original parser, to reproduce "
                             "published numbers (runs whose benchmark is known; else the same as robust)")

    def judge_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--judge", default=None, metavar="MODEL",
                        help="a judge model (provider/model or a catalogue name) for the replies the rules cannot "
                             "read: it is asked once about each (its answer stored, never asked again), and its "
                             "answers count with the method 'judge' (robust parser only; off unless given)")

    def definition_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--definition", choices=("auto", "paper", "clean"), default="auto",
                        help="metric definitions: paper (each paper's exact one, to quote beside it), clean (ours, "
                             "where a family has one), auto (default: paper with --parser legacy, else clean); "
                             "every block of the JSON names the one it used")

    def db_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", default=_db_default(),
                        help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
        sp.add_argument("--run", default=None, help="run name (default: batch: derived from presets and seed; "
                                                    "score: the most recent run)")
        trust_arg(sp)

    b = sub.add_parser("batch", help="ask models every variant of one or more presets, storing every answer")
    b.add_argument("presets", nargs="+", metavar="PRESET",
                   help="preset YAML files, or shipped presets by name (see 'probe-ui presets')")
    b.add_argument("--model", "-m", action="append", default=[], metavar="SPEC",
                   help="provider/model or a catalogue name; repeat for several models side by side")
    db_args(b)
    b.add_argument("--seed", type=seed_arg, default=0, help="seed for perturbations and sampling baselines (default 0)")
    b.add_argument("--concurrency", type=int, default=None, help="requests in flight per model")
    b.add_argument("--prompt", default=None, help="prompt template for all items it fits (default: per kind)")
    b.add_argument("--suite", action="append", default=[], metavar="NAME",
                   help="add a stress suite's variants to every item (see 'probe-ui perturbations'); repeatable")
    b.add_argument("--samples", type=int, default=1, metavar="N",
                   help="answers per variant and model, scored by majority vote (needs --temperature > 0)")
    b.add_argument("--temperature", type=temperature_arg, default=None, help="sampling temperature for every model "
                                                                   "(default: the catalogue's, else 0)")
    b.add_argument("--judge", default=None, metavar="SPEC",
                   help="a model that maps free-form answers to options (e.g. with --prompt free)")
    b.add_argument("--judge-mode", default="mediconfusion", choices=RegisteredNames("probe_ui.judge:JUDGE_MODES"),
                   metavar="MODE", help="mediconfusion: 1-10 score per option, margin 3; blink: pick a letter or Z")
    b.add_argument("--no-cache", action="store_true",
                   help="ask again even when an identical deterministic request was answered before")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.add_argument("--dry-run", action="store_true",
                   help="ask nothing: print how many calls the batch would make and, where the catalogue has "
                        "prices, an estimate of their cost")
    b.add_argument("--image-root", action="append", default=[], metavar="DIR",
                   help="also let the presets read images from DIR (besides their own folder and the bundled "
                        "assets; also PROBE_UI_IMAGE_ROOTS); repeatable")
    b.add_argument("--extend", action="store_true",
                   help="add this batch's new models, suites or presets to an existing run (named by --run, or the "
                        "name derived when --run is left out); without it such a batch is refused, so that a run "
                        "never mixes model sets by accident. The run then plans, counts and resumes all of them")
    b.add_argument("--shard", default=None, metavar="I/N",
                   help="ask only part I of N of the batch (1-based); run all N parts, on one machine or several, "
                        "against one --db (e.g. postgresql://...) to share a batch. Under torchrun or srun the "
                        "default is the launcher's rank (RANK/WORLD_SIZE, SLURM_PROCID/SLURM_NTASKS); an explicit "
                        "--shard wins")
    b.set_defaults(func=cmd_batch)

    pt = sub.add_parser("perturbations",
                        help="every perturbation and suite, its parameters and its effect on the answer")
    pt.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    pt.set_defaults(func=cmd_perturbations)

    pv = sub.add_parser("preview", help="render variants of a preset: their images and exact prompt text")
    pv.add_argument("preset", metavar="PRESET")
    pv.add_argument("--item", action="append", default=[], metavar="ID", help="only these items (repeatable)")
    pv.add_argument("--suite", action="append", default=[], metavar="NAME", help="add a suite's variants")
    pv.add_argument("--seed", type=seed_arg, default=0)
    pv.add_argument("--prompt", default=None, help="prompt template (default: per kind)")
    pv.add_argument("--out", default=None, metavar="DIR", help="write each variant's images here as PNG")
    pv.add_argument("--force", action="store_true", help="with --out: replace images of an earlier preview "
                                                         "(default: refuse)")
    pv.add_argument("--image-root", action="append", default=[], metavar="DIR",
                    help="also let the preset read images from DIR (see batch --image-root)")
    pv.set_defaults(func=cmd_preview)

    s = sub.add_parser("score", help="per-model accuracy, invalid and refusal rates of a run, and the metrics of "
                                      "the probing papers")
    db_args(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    parser_arg(s)
    definition_arg(s)
    judge_arg(s)
    s.add_argument("--format", choices=("table", "markdown", "csv"), default="table",
                   help="terminal tables (default), Markdown tables or CSV rows")
    s.add_argument("--compare-parsers", action="store_true",
                   help="instead of scores: every reply the robust and legacy parsers read differently, with both "
                        "readings and which agrees with the ground truth")
    s.set_defaults(func=cmd_score)

    im = sub.add_parser("import", help="load another tool's results into the store as a run (raw replies, "
                                       "re-parsed when scored), or turn its question file into a preset",
                        description="Formats: mediconfusion (Results/<model>/<model>_mc.json + --dataset "
                                    "dataset.json), probmed (eval/response_file/<model>.json), medvh (MedVH question "
                                    "records with an added 'response'; --task), blink (saved predictions "
                                    "{\"val\": [{idx, answer, full_prediction}]}), and a harness's answers to a set "
                                    "'probe-ui export-set' wrote: inspect (an .eval or .json log), lmms-eval (its "
                                    "--log_samples JSONL), vlmevalkit (its prediction or result xlsx, tsv or csv). "
                                    "With --to-preset the file is the format's question file and a preset YAML is "
                                    "written instead.")
    im.add_argument("format", metavar="FORMAT", choices=_import_formats(),
                    help=f"one of: {', '.join(_import_formats())}")
    im.add_argument("file", metavar="FILE", help="the results file (or, with --to-preset, the question file)")
    im.add_argument("--dataset", default=None, metavar="FILE",
                    help="mediconfusion: dataset.json (required for results); blink: the items (question, choices)")
    im.add_argument("--model", default=None, metavar="NAME",
                    help="model name (default: from the file name; inspect, lmms-eval: the model the results name)")
    im.add_argument("--images", default=None, metavar="DIR",
                    help="folder the file's image names are looked up in; found images are stored with the variants")
    im.add_argument("--task", default=None, help="medvh: nota | wrongful_image | cli | pre | fcj")
    im.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=None,
                    help="medvh: the file is the baseline (--baseline) or hallucination (--no-baseline) version "
                         "(default: baseline when the file or folder name contains 'baseline')")
    im.add_argument("--split", default=None, choices=("val", "test", "all"), help="blink: which split (default val)")
    im.add_argument("--to-preset", default=None, metavar="OUT.yaml",
                    help="write a preset from the question file instead of importing replies (dataset: where the "
                         "preset goes; default <DIR>/preset.yaml)")
    im.add_argument("--force", action="store_true",
                    help="with --to-preset: replace the file if it exists (default: refuse)")
    im.add_argument("--set", default=None, metavar="DIR", dest="set_dir",
                    help="inspect, lmms-eval, vlmevalkit: the folder 'probe-ui export-set' wrote (default: found "
                         "from the results file: the task's folder, the dataset's folder, $LMUData)")
    im.add_argument("--with-perturbations", action="store_true",
                    help="dataset: give each item the perturbation chains recorded in the export, so a batch asks "
                         "the same variants again")
    im.add_argument("--db", default=_db_default(),
                    help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
    im.add_argument("--run", default=None, help="run name (default: <format>-<model>; medvh: medvh-<task>-<model>; "
                                                "inspect, lmms-eval, vlmevalkit: <harness>-<set>); import several "
                                                "models or files into one run by naming it")
    trust_arg(im)
    im.set_defaults(func=cmd_import)

    es = sub.add_parser("export-set", help="a preset, its suites expanded into variants (exact images and prompt), "
                                           "as a benchmark set for Inspect AI, lmms-eval, VLMEvalKit or a Hugging "
                                           "Face dataset; 'probe-ui import' reads the harness's answers back")
    es.add_argument("preset", metavar="PRESET", help="a preset file, or a shipped preset by name")
    es.add_argument("--to", required=True, choices=_harnesses(), help="the harness whose conventions to write")
    es.add_argument("--out", required=True, metavar="DIR", help="folder to write (created; must be empty or new)")
    es.add_argument("--suite", action="append", default=[], metavar="NAME",
                    help="add a stress suite's variants to every item, as batch --suite does; repeatable")
    es.add_argument("--seed", type=seed_arg, default=0, help="seed for the perturbations (default 0): the same as the "
                                                             "batch you compare with")
    es.add_argument("--prompt", default=None, help="prompt template for all items it fits (default: per kind), as "
                                                   "batch --prompt")
    es.add_argument("--image-root", action="append", default=[], metavar="DIR",
                    help="also let the preset read images from DIR (see batch --image-root)")
    es.set_defaults(func=cmd_export_set)

    ex = sub.add_parser("export", help="a run as a dataset: JSONL, Parquet, CSV or an imagefolder that "
                                       "datasets.load_dataset reads; images written once, by hash")
    db_args(ex)
    ex.add_argument("--format", required=True, choices=export_format_names())
    ex.add_argument("--out", required=True, metavar="DIR", help="folder to write (created; must be empty or new)")
    ex.add_argument("--by", choices=("response", "variant"), default="response",
                    help="one row per answer (default) or per variant, with every model's answer in it")
    parser_arg(ex)
    judge_arg(ex)
    ex.set_defaults(func=cmd_export)

    rp = sub.add_parser("report", help="one self-contained HTML file: metric tables, plots, stress deltas, worst "
                                       "cases and provenance of a run")
    db_args(rp)
    rp.add_argument("--baseline", default=None, metavar="RUN", help="a run to compare against (deltas with CIs)")
    rp.add_argument("--out", required=True, metavar="report.html")
    rp.add_argument("--force", action="store_true", help="replace the file if it exists (default: refuse)")
    parser_arg(rp)
    definition_arg(rp)
    judge_arg(rp)
    rp.set_defaults(func=cmd_report)

    ps = sub.add_parser("presets", help="the presets shipped with probe-ui, usable by name from any folder")
    ps.add_argument("--json", action="store_true", help="print JSON")
    ps.set_defaults(func=cmd_presets)

    st = sub.add_parser("stress", help="a stress suite over a preset or one of its items, asked of several models: "
                                       "the variants x models matrix and the suite's metrics")
    st.add_argument("target", metavar="PRESET-or-ITEM",
                    help="a preset file or bundled preset name (every item), or <preset>/<item id> (one item), "
                         "e.g. medblink_depth/depth-echo")
    st.add_argument("--suite", required=True, metavar="NAME", help="the suite (see 'probe-ui perturbations')")
    st.add_argument("--model", "-m", action="append", default=[], metavar="SPEC", help="repeat for several models")
    db_args(st)
    st.add_argument("--seed", type=seed_arg, default=0)
    st.add_argument("--image-root", action="append", default=[], metavar="DIR",
                    help="also let the preset read images from DIR (see batch --image-root)")
    parser_arg(st)
    st.add_argument("--json", action="store_true", help="print one JSON object (run, matrix, summary)")
    st.set_defaults(func=cmd_stress)

    ra = sub.add_parser("ratings", help="clinicians' ratings of answers: import a CSV (several raters), export them",
                        description="A ratings CSV has the columns response_id, rater, rating (correct, incorrect "
                                    "or unsure), note; each rater's latest rating of an answer counts.")
    rsub = ra.add_subparsers(dest="ratings_command", metavar="ACTION", required=True)
    ri = rsub.add_parser("import", help="add the ratings of a CSV file (all or none: problems are listed by line)")
    ri.add_argument("csv", metavar="CSV", help="columns response_id, rater, rating, note (others are ignored)")
    ri.add_argument("--rater", default=None, metavar="NAME",
                    help="the rater of rows whose rater is empty (or of a file without a rater column)")
    ri.add_argument("--db", default=_db_default(),
                    help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
    trust_arg(ri)
    ri.set_defaults(func=cmd_ratings_import)
    re_ = rsub.add_parser("export", help="each rater's latest rating of each answer as CSV (re-importable)")
    db_args(re_)
    re_.add_argument("--out", default=None, metavar="CSV", help="write here (default: print to stdout)")
    re_.add_argument("--force", action="store_true", help="with --out: replace the file if it exists (default: "
                                                          "refuse)")
    re_.set_defaults(func=cmd_ratings_export)

    cp = sub.add_parser("compare", help="did B fix or break what A got right? Two runs (or two models of one run) "
                                        "on the questions they share: paired difference, McNemar test, flips",
                        description="Compare B against A on the questions both answered (same item, perturbation "
                                    "and sample): RUN_A RUN_B --model M (one model in two runs), RUN --model A "
                                    "--model B (two models of one run), RUN_A RUN_B --model MA --model MB, or RUN_A "
                                    "RUN_B alone (each model both runs have).")
    cp.add_argument("runs", nargs="+", metavar="RUN", help="run A, then run B (one run: compare two of its models)")
    cp.add_argument("--model", "-m", action="append", default=[], metavar="MODEL",
                    help="the model (in both runs), or twice: the model of A, then the model of B")
    cp.add_argument("--db", default=_db_default(),
                    help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
    parser_arg(cp)
    definition_arg(cp)
    cp.add_argument("--json", action="store_true", help="print one JSON object (every flipped question included)")
    cp.add_argument("--fail-if-worse", type=float, default=None, metavar="PP",
                    help="exit 1 when B is worse than A beyond chance (exact McNemar p < 0.05) by more than PP "
                         "percentage points: a gate for a model update in CI")
    cp.add_argument("--allow-prompt-change", action="store_true",
                    help="compare answers asked with different prompt templates (the images, questions and options "
                         "must still be the same)")
    cp.add_argument("--boot", type=_count_arg, default=200, metavar="N",
                    help="bootstrap resamples for the paper metrics' differences (default 200; 0: no intervals)")
    cp.add_argument("--flips", type=_count_arg, default=10, metavar="N",
                    help="flipped questions printed each way (default 10; --json lists all)")
    cp.set_defaults(func=cmd_compare)

    mt = sub.add_parser("metrics", help="every registered metric family: what it measures, its definitions")
    mt.add_argument("--json", action="store_true", help="print JSON")
    mt.add_argument("--explain", metavar="NAME",
                    help="one metric's definition in words (e.g. 'set accuracy', 'answer flip rate'), or every "
                         "metric of a family (e.g. mediconfusion): what it measures, its paper, how it is "
                         "computed, its random-guess reference, how to read its interval")
    mt.add_argument("--glossary", action="store_true", help="every metric's definition as Markdown (docs/metrics.md)")
    mt.set_defaults(func=cmd_metrics)

    m = sub.add_parser("models", help="every provider and catalogue entry, and whether it is usable here")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_models)

    us = sub.add_parser("users", help="the app's users file: add or change a user (name, role, password), list, "
                                      "remove", description="A users file holds one user per line with a salted "
                                      "password hash and a role (viewer: Results only; prober: probe, batch, rate; "
                                      "admin: endpoints for everyone, cancel any run). Serve with --auth-file PATH.")
    usub = us.add_subparsers(dest="users_command", metavar="ACTION", required=True)

    def users_file(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--file", default=_users_default(), metavar="PATH",
                        help="the users file (default: $PROBE_UI_USERS or probe-ui-data/users)")

    ua = usub.add_parser("add", help="add a user, or change a user's role and password (the password is asked "
                                     "for, or read from standard input: never on the command line)")
    ua.add_argument("name", metavar="NAME")
    ua.add_argument("--role", choices=("viewer", "prober", "admin"), default="prober",
                    help="viewer: the Results tab only; prober (default): probe, stress, batch, rate; admin: also "
                         "endpoints for everyone and at any host, cancel anyone's run")
    users_file(ua)
    ua.set_defaults(func=cmd_users_add)
    ul = usub.add_parser("list", help="every user and role (no hashes)")
    users_file(ul)
    ul.set_defaults(func=cmd_users_list)
    ur = usub.add_parser("remove", help="remove a user")
    ur.add_argument("name", metavar="NAME")
    users_file(ur)
    ur.set_defaults(func=cmd_users_remove)
    return p


def _count_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 0 or n > 100_000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 100,000, not {n}")
    return n


def cmd_compare(args: argparse.Namespace) -> int:
    from probe_ui import compare, compare_format
    from probe_ui.scoring import jsonable

    store = reading_store(args.db)
    results = [compare.compare(store, a, b, args.parser, allow_prompt_change=args.allow_prompt_change,
                               definition=args.definition, n_boot=args.boot)
               for a, b in compare.sides(store, args.runs, args.model)]
    worse = [c for c in results if args.fail_if_worse is not None and compare.worse_beyond(c, args.fail_if_worse)]
    if args.json:
        print(json.dumps(jsonable({"comparisons": results, "fail_if_worse": args.fail_if_worse,
                                   "worse": bool(worse)}), indent=2))
    else:
        print("\n\n".join(compare_format.text(c, args.flips) for c in results))
    for c in worse:
        log.error("B (%s in run '%s') is worse than A (%s in run '%s') by %.1f points, beyond chance (p = %.3g), "
                  "more than the %.1f allowed by --fail-if-worse", c["b"]["model"], c["b"]["run"], c["a"]["model"],
                  c["a"]["run"], -c["overall"]["difference"], c["overall"]["p_value"], args.fail_if_worse)
    return EXIT_ERROR if worse else 0


def cmd_batch(args: argparse.Namespace) -> int:
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.store import Store

    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    presets = [load_preset(p, args.image_root) for p in args.presets]  # all validated before any work
    if args.dry_run:
        return print_plan(presets, args)
    shard = _launcher_shard(_shard(args.shard) if args.shard else None, args.db)
    store = Store(args.db)
    result = run_batch(store, presets, args.model, run_name=args.run, seed=args.seed, concurrency=args.concurrency,
                       prompt=args.prompt, suites=args.suite, samples=args.samples, temperature=args.temperature,
                       judge=args.judge, judge_mode=args.judge_mode, use_cache=not args.no_cache,
                       progress=not args.no_progress, shard=shard, extend=args.extend, on_change=_say_change)
    for w in result.warnings:
        log.warning(w)
    for e in result.item_errors:
        log.error(e.message)
    for msg in result.error_messages:
        log.error(msg)
    part = f" (shard {shard[0]}/{shard[1]})" if shard else ""
    print(f"run '{result.run.name}'{part} in {_shown(args.db)}: {result.variants} variants, "
          f"{result.planned} answers planned, "
          f"{result.skipped} already done, {result.answered} new, {result.errors} errors, "
          f"{len(result.item_errors)} items not loaded")
    print(f"score it with: probe-ui score --db {_shown(args.db)} --run {result.run.name}")
    return EXIT_ERROR if result.errors or result.item_errors else 0


def _say_change(change: Any) -> None:
    """Before a batch asks anything: what it adds to an existing run, in words."""
    if change.adds:
        print(f"this batch {change.words()}; the run then plans every model and suite it holds", flush=True)


def print_plan(presets: list[Any], args: argparse.Namespace) -> int:
    """``batch --dry-run``: the calls and estimated cost of each preset (probe_ui.sweep), nothing asked."""
    from probe_ui.sweep import plan_preset_sweep

    if not args.model:
        raise UsageError("--dry-run needs the models: add --model SPEC")
    total_calls, total_cost = 0, None
    for p in presets:
        plan = plan_preset_sweep(p, args.model, suites=args.suite, samples=args.samples, prompt=args.prompt)
        print(f"{p.path}: {plan.text()}")
        for e in plan.per_model:
            if e.unusable:
                print(f"  {e.model}: cannot run here ({e.unusable}): its {e.calls:,} calls would fail; not priced")
                continue
            cost = f"${e.cost_usd:,.4f}" if e.cost_usd is not None else "no price"
            print(f"  {e.model}: {e.calls:,} calls, ~{e.input_tokens:,} input + at most {e.output_tokens:,} output "
                  f"tokens, {cost}")
        total_calls += plan.calls
        if plan.cost_usd is not None:
            total_cost = (total_cost or 0.0) + plan.cost_usd
    if len(presets) > 1:
        print(f"total: {total_calls:,} calls" + (f", estimated cost at most ${total_cost:,.2f}"
                                                 if total_cost is not None else ""))
    print("nothing was asked (--dry-run); answers already stored or cached would not be asked again")
    return 0


def _shown(db: str) -> str:
    """A database location fit to print (a URL without credentials)."""
    return redact.public_location(db)


def _shard(text: str) -> tuple[int, int]:
    i, sep, n = text.partition("/")
    try:
        shard = int(i), int(n)
    except ValueError:
        raise UsageError(f"--shard {text}: give I/N, e.g. --shard 2/4") from None
    if not sep or not (shard[1] >= 1 and 1 <= shard[0] <= shard[1]):
        raise UsageError(f"--shard {text}: give I/N with 1 <= I <= N, e.g. --shard 2/4")
    return shard


def _launcher_shard(shard: tuple[int, int] | None, db: str) -> tuple[int, int] | None:
    """The shard to ask: an explicit --shard, else the launcher's rank (torchrun, srun); see probe_ui.cluster."""
    from probe_ui.cluster import ClusterError, batch_shard
    from probe_ui.runner import BatchError

    try:
        shard, note = batch_shard(shard, db)
    except ClusterError as exc:
        raise BatchError(str(exc)) from None
    if note:
        log.info(note)
    return shard


def reading_store(db: str) -> Any:
    """The store for a command that only reads it (score, export, report, ratings export): never created here
    (a mistyped --db, or a command run from another folder, gets "no store at PATH" and exit 1, and nothing is
    written); opened read-only where this process cannot write it, else as usual, so that an older store is
    upgraded and the parse cache refreshed (:func:`probe_ui.store.open_existing`)."""
    from probe_ui.store import open_existing

    return open_existing(db)


def judged_store(args: argparse.Namespace) -> tuple[Any, str | None]:
    """The store for score/export/report, and the fallback judge's model name when ``--judge`` is given: the judge
    is first asked about the run's unread replies it has not decided yet (stored in the run, so the store is opened
    for writing), with a line saying what it did."""
    judge = getattr(args, "judge", None)
    if not judge:
        return reading_store(args.db), None
    from probe_ui.fallback import judge_unread, resolve_judge
    from probe_ui.store import Store

    if getattr(args, "parser", "robust") != "robust":
        raise UsageError("--judge reads the replies the robust rules cannot read: use it without --parser legacy")
    model = resolve_judge(judge)  # before the store is touched: an unknown judge is a one-line error
    store = Store(args.db)
    summary = judge_unread(store, args.run, model)
    for line in summary.lines():
        print(line, file=sys.stderr)
    return store, model.name


def cmd_score(args: argparse.Namespace) -> int:
    from probe_ui.score_format import (
        accuracy_pairs,
        format_parser_differences,
        format_score_csv,
        format_score_markdown,
        format_score_table,
    )
    from probe_ui.scoring import compare_parsers, jsonable, score_run

    if args.compare_parsers:
        if args.judge:
            raise UsageError("--compare-parsers compares the rules; it takes no --judge")
        store = reading_store(args.db)
        diffs = compare_parsers(store, args.run)
        robust = score_run(store, args.run, "robust")
        legacy = score_run(store, args.run, "legacy")
        if args.json:
            print(json.dumps(jsonable({"run": robust["run"], "benchmark": robust["benchmark"],
                                       "accuracy": accuracy_pairs(robust, legacy), "differences": diffs}), indent=2))
        else:
            print(format_parser_differences(robust, legacy, diffs, args.format))
        return 0
    store, judge = judged_store(args)
    report = score_run(store, args.run, args.parser, args.definition, judge=judge)
    for note in report.get("notes", []):
        log.info(note)
    if args.json:
        print(json.dumps(jsonable(report), indent=2, sort_keys=False))
    elif args.format == "markdown":
        print(format_score_markdown(report))
    elif args.format == "csv":
        print(format_score_csv(report), end="")
    else:
        print(format_score_table(report))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.importers import ImportFileError, ImportOptions, ImportUsageError, import_results, questions_to_preset
    from probe_ui.store import Store

    if args.format == "dataset":
        return cmd_import_dataset(args)
    if args.format in _harness_imports():
        return cmd_import_harness(args)
    if args.set_dir:
        raise UsageError(f"--set applies to {', '.join(_harness_imports())} results, not to {args.format} files")
    opts = ImportOptions(dataset=args.dataset, model=args.model, images=args.images, run=args.run, task=args.task,
                         baseline=args.baseline, split=args.split)
    try:
        if args.to_preset:
            if Path(args.to_preset).exists() and not args.force:
                raise ImportUsageError(f"{args.to_preset} already exists: add --force to replace it, or give "
                                       "another --to-preset")
            summary = questions_to_preset(args.format, args.file, args.to_preset, opts, force=args.force)
            lines = summary.lines()
            root = ""
            if args.images:
                images, home = Path(args.images).resolve(), Path(args.to_preset).resolve().parent
                if not images.is_relative_to(home):  # presets read only their own folder unless allowed
                    root = f" --image-root {args.images}"
            lines.append(f"run it with: probe-ui batch {args.to_preset}{root} --model SPEC")
        else:
            result = import_results(Store(args.db), args.format, args.file, opts)
            lines = result.lines(_shown(args.db))
            lines.append(f"score it with: probe-ui score --db {_shown(args.db)} --run {result.run} [--parser legacy] "
                         "[--compare-parsers]")
    except ImportUsageError as exc:
        raise UsageError(str(exc)) from None
    except ImportFileError as exc:
        log.error(first_line(exc))
        return EXIT_ERROR
    _emit(lines)
    return 0


def cmd_import_harness(args: argparse.Namespace) -> int:
    """``probe-ui import inspect|lmms-eval|vlmevalkit PATH``: a harness's answers to an exported set, as a run."""
    from probe_ui.importers import ImportFileError, ImportUsageError
    from probe_ui.interop.importing import import_harness
    from probe_ui.store import Store

    for flag, value in (("--dataset", args.dataset), ("--images", args.images), ("--task", args.task),
                        ("--baseline", args.baseline), ("--split", args.split), ("--to-preset", args.to_preset),
                        ("--with-perturbations", args.with_perturbations or None)):
        if value is not None:
            raise UsageError(f"{flag} does not apply to {args.format} results (the set holds the items and images)")
    try:
        result = import_harness(Store(args.db), args.format, args.file, set_dir=args.set_dir, model=args.model,
                                run=args.run)
    except ImportUsageError as exc:
        raise UsageError(str(exc)) from None
    except ImportFileError as exc:
        log.error(first_line(exc))
        return EXIT_ERROR
    _emit(result.lines(_shown(args.db)))
    print(f"score it with: probe-ui score --db {_shown(args.db)} --run {result.run}")
    return 0


def cmd_export_set(args: argparse.Namespace) -> int:
    """``probe-ui export-set PRESET --to HARNESS --out DIR``."""
    from pathlib import Path

    from probe_ui.interop.exporting import export_set

    result = export_set(args.preset, args.to, Path(args.out), seed=args.seed, suites=args.suite, prompt=args.prompt,
                        image_roots=args.image_root)
    _emit(result.lines())
    return 0


def _harnesses() -> tuple[str, ...]:
    from probe_ui.interop import harnesses

    return harnesses()


def _harness_imports() -> tuple[str, ...]:
    from probe_ui.interop import importable

    return importable()


def cmd_import_dataset(args: argparse.Namespace) -> int:
    """``probe-ui import dataset DIR``: an export (any format) back into a preset that batch replays."""
    from pathlib import Path

    from probe_ui.importers.dataset import import_dataset

    src = Path(args.file)
    out = Path(args.to_preset) if args.to_preset else src / "preset.yaml"
    result = import_dataset(src, out, with_perturbations=args.with_perturbations, force=args.force)
    _emit(result.lines())
    print(f"run it with: probe-ui batch {out} --model SPEC")
    return 0


def _emit(lines: list[str]) -> None:
    """A summary's lines: its warnings through the log (stderr), the rest to stdout."""
    for line in lines:
        if line.startswith("warning: "):
            log.warning(line.removeprefix("warning: "))
        else:
            print(line)


def _import_formats() -> tuple[str, ...]:
    from probe_ui.importers import FORMATS

    return (*FORMATS, "dataset", *_harness_imports())


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.exports import export_run

    store, judge = judged_store(args)
    summary = export_run(store, args.run, args.format, Path(args.out), by=args.by, parser=args.parser, judge=judge)
    _emit(summary.lines())
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.report import write_report

    store, judge = judged_store(args)
    path = write_report(store, args.run, Path(args.out), baseline=args.baseline, parser=args.parser,
                        definition=args.definition, judge=judge, force=args.force)
    print(f"wrote {path} ({path.stat().st_size:,} bytes); open it in a browser")
    return 0


def cmd_stress(args: argparse.Namespace) -> int:
    from probe_ui import stress
    from probe_ui.score_format import format_stress_table, stress_json
    from probe_ui.scoring import scored_answers
    from probe_ui.store import Store

    if not args.model:
        raise UsageError("stress needs at least one --model")
    store = Store(args.db)
    preset, items = stress.resolve_target(args.target, tuple(args.image_root))
    name = stress.run_stress(store, args.suite, args.model, preset=preset, item_ids=items, seed=args.seed,
                             run_name=args.run)
    df = scored_answers(store, name, args.parser)
    table, summ = stress.matrix(df), stress.summary(df, args.suite)
    if args.json:
        print(stress_json(name, args.suite, args.parser, table, summ))
        return 0
    print(format_stress_table(name, table, summ))
    return 0


def cmd_ratings_import(args: argparse.Namespace) -> int:
    from probe_ui.ratings import RatingsFileError, import_ratings
    from probe_ui.store import Store

    try:
        summary = import_ratings(Store(args.db), args.csv, args.rater)
    except RatingsFileError as exc:
        for line in exc.problems:
            print(f"error: {line}", file=sys.stderr)
        print("nothing was imported: mend these rows and import the file again", file=sys.stderr)
        return EXIT_ERROR
    for line in summary.lines():
        print(line)
    return 0


def cmd_ratings_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.ratings import export_rows, rows_csv
    from probe_ui.safe_write import check_target, write_text

    if args.out is not None:  # before the work: a file there (without --force), a device, a FIFO
        check_target(Path(args.out), args.force, "cannot write the ratings to")
    rows = export_rows(reading_store(args.db), args.run)
    if args.out is None:
        sys.stdout.write(rows_csv(rows))
        return 0
    out = Path(args.out)
    write_text(out, rows_csv(rows), force=args.force, what="cannot write the ratings to")
    raters = sorted({r["rater"] or "(unnamed)" for r in rows})
    print(f"wrote {len(rows)} ratings by {len(raters)} rater(s) ({', '.join(raters)}) to {out}")
    return 0


def cmd_metrics(args: argparse.Namespace) -> int:
    import probe_ui.metrics  # noqa: F401 - registers the families
    from probe_ui.metrics.registry import describe, explain_figures, explain_text, glossary_markdown

    if args.glossary:
        print(glossary_markdown(), end="")
        return 0
    if args.explain:
        found = explain_figures(args.explain)
        if args.json:
            print(json.dumps([{"name": f.name, "family": f.family, "meaning": f.meaning,
                               **(vars(f.explain) if f.explain else {})} for f in found], indent=2))
        else:
            print("\n\n".join(explain_text(f) for f in found))
        return 0
    rows = describe()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        print(f"{r['name']:<15} {r['definitions']:<13} {r['description']}")
    print("\neach metric in words: probe-ui metrics --explain NAME (a metric, e.g. 'set accuracy', or a family)")
    return 0


def cmd_perturbations(args: argparse.Namespace) -> int:
    from probe_ui.perturb import describe
    from probe_ui.suites import describe_suites

    perts, suites = describe(), describe_suites()
    if args.format == "json":
        print(json.dumps({"perturbations": perts, "suites": suites}, indent=2))
    elif args.format == "markdown":
        print(perturbations_markdown(perts, suites))
    else:
        for r in perts:
            print(f"{r['name']}({r['parameters']})\n    {r['summary']}\n    answer: {r['answer']}")
        print("\nsuites:")
        for r in suites:
            print(f"{r['name']}: {r['description']}\n    metrics: {r['metrics']}")
    return 0


def perturbations_markdown(perts: list[dict[str, str]], suites: list[dict[str, str]]) -> str:
    """The perturbation and suite tables of docs/guide/presets.md, generated from the registries (no drift)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| perturbation | parameters | what it does | the answer |", "|---|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['parameters']) or '-'} | {cell(r['summary'])} | {cell(r['answer'])} |"
              for r in perts]
    lines += ["", "| suite | what it adds to each item | metrics that read it |", "|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['description'])} | {r['metrics']} |" for r in suites]
    return "\n".join(lines)


def cmd_preview(args: argparse.Namespace) -> int:
    import io
    from pathlib import Path

    from probe_ui.paths import inside, output_folder, safe_file_name
    from probe_ui.presets import load_preset
    from probe_ui.prompts import preview
    from probe_ui.safe_write import write_bytes
    from probe_ui.suites import expand

    preset = load_preset(args.preset, args.image_root)
    unknown = set(args.item) - {it.id for it in preset.items}
    if unknown:
        raise UsageError(f"no item {', '.join(sorted(unknown))} in {args.preset}")
    ex = expand(preset, args.seed, args.suite)
    out = output_folder(Path(args.out)) if args.out else None
    for v in ex.variants:
        if args.item and v.item_id not in args.item:
            continue
        images, text = preview(v, args.prompt or preset.prompt)
        print(f"=== item {v.item_id} | condition {v.condition} | variant {v.id} | answer {v.answer_label!r}")
        for i, im in enumerate(images):
            where = ""
            if out:
                # item ids and conditions come from a file: each is made one safe name, and the path checked
                path = inside(out, f"{safe_file_name(v.item_id, unique=True)}__"
                                   f"{safe_file_name(v.condition, unique=True)}__{i}.png")
                buf = io.BytesIO()
                im.save(buf, format="PNG")
                write_bytes(path, buf.getvalue(), force=args.force, what="cannot write the preview image")
                where = f" -> {path}"
            print(f"[image {i + 1}: {im.width}x{im.height} {im.mode}{where}]")
        print(text)
        print()
    for e in ex.errors:
        log.error(e.message)
    return EXIT_ERROR if ex.errors else 0


def cmd_models(args: argparse.Namespace) -> int:
    from probe_ui.catalogue import list_models

    rows = list_models()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    name_w = max([len("name"), *(len(r["name"]) for r in rows)])
    prov_w = max([len("provider"), *(len(r["provider"]) for r in rows)])
    print(f"{'name':<{name_w}}  {'provider':<{prov_w}}  {'usable':<6}  note")
    for r in rows:
        note = r["reason"] or r["needs"] or r["description"]
        print(f"{r['name']:<{name_w}}  {r['provider']:<{prov_w}}  {'yes' if r['usable'] else 'no':<6}  {note}")
    return 0


def cmd_presets(args: argparse.Namespace) -> int:
    from probe_ui.presets import shipped_presets

    rows = shipped_presets()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max((len(r["name"]) for r in rows), default=4)
    print(f"{'name':<{width}} {'items':>5}  description")
    for r in rows:
        d = r["description"]
        print(f"{r['name']:<{width}} {r['items']:>5}  {d if len(d) <= 90 else d[:89] + '…'}")
    print("\nuse one by name from any folder, e.g.: probe-ui batch "
          f"{rows[0]['name'] if rows else 'NAME'} --model baseline/random")
    return 0


def _users_default() -> str:
    from pathlib import Path

    return os.environ.get("PROBE_UI_USERS") or str(Path("probe-ui-data") / "users")


def _read_password(name: str) -> str:
    """The new password: asked twice at a terminal (not echoed), else the first line of standard input."""
    import getpass

    if sys.stdin.isatty():
        first = getpass.getpass(f"password for {name}: ")
        if getpass.getpass("the same password again: ") != first:
            raise UsageError("the two passwords differ: nothing was changed")
        return first
    return sys.stdin.readline().rstrip("\r\n")


def cmd_users_add(args: argparse.Namespace) -> int:
    from probe_ui.users import add_user, check_name, check_role

    check_name(args.name)
    check_role(args.role)
    new = add_user(args.file, args.name, args.role, _read_password(args.name))
    print(f"{'added' if new else 'changed'} {args.name} ({args.role}) in {args.file}; serve with: probe-ui "
          f"--auth-file {args.file}")
    return 0


def cmd_users_list(args: argparse.Namespace) -> int:
    from probe_ui.users import read_users

    accounts = read_users(args.file)
    for a in accounts.values():
        print(f"{a.name}\t{a.role}")
    if not accounts:
        print(f"no users in {args.file}", file=sys.stderr)
    return 0


def cmd_users_remove(args: argparse.Namespace) -> int:
    from probe_ui.users import remove_user

    remove_user(args.file, args.name)
    print(f"removed {args.name} from {args.file}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from probe_ui.app.serve import ServeError, launch, options

    try:
        opts = options(args.db, args.host, args.port, args.auth, args.demo, args.max_upload_mb, args.auth_file,
                       args.endpoint_hosts)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    launch(opts)
    return 0


class UsageError(ProbeUIError):
    """A wrong combination of arguments (exit 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    _restore_ctrl_c()
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging(debug=args.debug)
    from probe_ui import store_check

    store_check.set_trust(True if getattr(args, "trust_store", False) else None)
    func: Callable[[argparse.Namespace], int] = cmd_serve if args.command is None else args.func
    try:
        return func(args)
    except UsageError as exc:  # the command's name and the message, not the whole program's usage
        command = f"probe-ui {args.command}" if args.command else "probe-ui"
        print(f"{command}: error: {redact.clip(first_line(exc), 2000)}\n(see: {command} --help)", file=sys.stderr)
        raise SystemExit(2) from None  # argparse's exit status for a usage error
    except BrokenPipeError:  # e.g. `probe-ui perturbations | head`: the reader left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        log.error("interrupted: finished answers are stored; run the same command again to resume")
        return 130
    except ProbeUIError as exc:
        if args.debug:
            raise
        log.error(first_line(exc))
        return EXIT_ERROR
    except Exception as exc:  # a bug: say so in one line; the traceback only with --debug
        if args.debug:
            raise
        log.error(bug_line(exc, "a bug in probe-ui: run with --debug for the traceback"))
        return EXIT_ERROR
    return 0


def run() -> None:
    """The ``probe-ui`` command (and ``python -m probe_ui``): :func:`main`, then exit.

    A command that does not serve the app leaves without tearing the interpreter down: freeing every module takes
    0.3-0.6 s after a batch (SQLAlchemy, the SDKs, numpy), and by then everything is written (each answer is
    committed as it arrives, files are closed), so output is flushed and the process ends. The app (``probe-ui``,
    ``probe-ui serve``) exits normally, so that its libraries clean up after themselves.
    """
    argv = sys.argv[1:]
    code = main(argv)
    if build_parser().parse_known_args(argv)[0].command not in (None, "serve"):
        import logging

        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def _restore_ctrl_c() -> None:
    """Ctrl+C stops probe-ui even when it was started with SIGINT ignored (a script's ``trap '' INT``, ``nohup``, a
    job started in the background): Python keeps an inherited "ignore", so set the default handler back."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
