"""Data in and out of the store: ``probe-ui import`` (another tool's results as a run, a question file or an
export as a preset), ``probe-ui export`` (a run as a dataset) and ``probe-ui export-set`` (a preset as a harness's
benchmark set)."""

from __future__ import annotations

import argparse
import textwrap

from probe_ui.cli import help_layout
from probe_ui.cli.common import (
    EXIT_ERROR,
    LazyChoices,
    UsageError,
    command,
    db_arg,
    db_args,
    emit,
    image_root_arg,
    judge_arg,
    judged_store,
    log,
    parser_arg,
    seed_arg,
    shown,
    trust_arg,
)
from probe_ui.errors import first_line


def _harnesses() -> tuple[str, ...]:
    from probe_ui.interop import harnesses

    return harnesses()


def _harness_imports() -> tuple[str, ...]:
    from probe_ui.interop import importable

    return importable()


def _import_formats() -> tuple[str, ...]:
    from probe_ui.importers import FORMATS

    return (*FORMATS, "dataset", *_harness_imports())


def export_format_names() -> list[str]:
    """The registered export formats (:mod:`probe_ui.export_formats`), for ``export --format``."""
    from probe_ui.export_formats import format_names

    return format_names()


def import_format_options(im: argparse.ArgumentParser) -> None:
    """The options only some formats take, as each importer declares them (``FLAGS``), and each format's file in
    the description: added when ``probe-ui import`` runs (:attr:`Command.late`), since listing the importers
    imports every benchmark's."""
    from probe_ui.importers import FORMATS, IMPORTERS, ImportFlag

    declared: dict[str, list[tuple[str, ImportFlag]]] = {}
    lines = []
    for name in FORMATS:
        mod = IMPORTERS.get(name)
        lines.append(f"  {name:<14} {getattr(mod, 'READS', '')}")
        for f in getattr(mod, "FLAGS", ()):
            declared.setdefault(f.name, []).append((name, f))
    lines.append(f"  {'dataset':<14} a dataset 'probe-ui export' wrote (JSONL, Parquet, CSV or an imagefolder)")
    for fmt, what in _harness_reads():
        lines.append(f"  {fmt:<14} {what}")
    group = im.add_argument_group("options of some formats")
    for name, uses in declared.items():
        first = uses[0][1]
        if any((f.boolean, f.choices) != (first.boolean, first.choices) for _, f in uses):
            raise UsageError(f"{first.flag} is declared differently by the import formats "
                             f"{', '.join(n for n, _ in uses)}: give them one kind")
        helps = "; ".join(f"{fmt}: {f.help}" for fmt, f in uses)
        if first.boolean:
            group.add_argument(first.flag, dest=name, action=argparse.BooleanOptionalAction, default=None, help=helps)
        else:
            group.add_argument(first.flag, dest=name, default=None, choices=first.choices,
                               metavar=first.metavar or (None if first.choices else name.upper()), help=helps)
    im.description = ("Formats, and the file each reads:\n" + "\n".join(lines) + "\n\n" + textwrap.fill(
        "With --to-preset the file is the format's question file and a preset YAML is written instead.",
        help_layout.WIDTH))
    im.set_defaults(format_options=tuple(declared))


def _format_options_given(args: argparse.Namespace) -> list[tuple[str, object]]:
    """(flag, value) of each option of some formats (:func:`import_format_options`) that was given."""
    names = getattr(args, "format_options", ())
    return [("--" + n.replace("_", "-"), getattr(args, n)) for n in names if getattr(args, n) is not None]


def _harness_reads() -> list[tuple[str, str]]:
    """(name, the file it reads) of each harness whose answers come back (:mod:`probe_ui.interop`)."""
    from probe_ui.interop import HARNESS_REGISTRY

    return [(n, getattr(HARNESS_REGISTRY.get(n), "READS", "")) for n in _harness_imports()]


@command("import", "load another tool's results into the store as a run (raw replies, re-parsed when scored), or "
                   "turn its question file into a preset", late=import_format_options)
def import_arguments(im: argparse.ArgumentParser) -> None:
    im.add_argument("format", metavar="FORMAT", choices=LazyChoices(_import_formats), help="one of: %(choices)s")
    im.add_argument("file", metavar="FILE", help="the results file (or, with --to-preset, the question file)")
    im.add_argument("--model", default=None, metavar="NAME",
                    help="model name (default: the model the results name, else from the file name)")
    im.add_argument("--images", default=None, metavar="DIR",
                    help="folder the file's image names are looked up in; found images are stored with the variants")
    im.add_argument("--to-preset", default=None, metavar="OUT.yaml",
                    help="write a preset from the question file instead of importing replies (dataset: where the "
                         "preset goes; default <DIR>/preset.yaml)")
    im.add_argument("--force", action="store_true",
                    help="with --to-preset: replace the file if it exists (default: refuse)")
    im.add_argument("--set", default=None, metavar="DIR", dest="set_dir",
                    help="a harness's answers: the folder 'probe-ui export-set' wrote (default: found from the "
                         "results file, or where the harness keeps its data)")
    im.add_argument("--with-perturbations", action="store_true",
                    help="dataset: give each item the perturbation chains recorded in the export, so a batch asks "
                         "the same variants again")
    db_arg(im)
    im.add_argument("--run", default=None, help="run name (default: from the format and the model, and a harness's "
                                                "set); import several models or files into one run by naming it")
    trust_arg(im)
    im.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.importers import ImportFileError, ImportOptions, ImportUsageError, import_results, questions_to_preset
    from probe_ui.importers.common import OPTION_FIELDS
    from probe_ui.store import Store

    if args.format == "dataset":
        return cmd_import_dataset(args)
    if args.format in _harness_imports():
        return cmd_import_harness(args)
    if args.set_dir:
        raise UsageError(f"--set applies to {', '.join(_harness_imports())} results, not to {args.format} files")
    declared = {n: getattr(args, n) for n in getattr(args, "format_options", ())}
    opts = ImportOptions(model=args.model, images=args.images, run=args.run,
                         **{n: v for n, v in declared.items() if n in OPTION_FIELDS},
                         extra={n: v for n, v in declared.items() if n not in OPTION_FIELDS and v is not None})
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
            lines = result.lines(shown(args.db))
            lines.append(f"score it with: probe-ui score --db {shown(args.db)} --run {result.run} [--parser legacy] "
                         "[--compare-parsers]")
    except ImportUsageError as exc:
        raise UsageError(str(exc)) from None
    except ImportFileError as exc:
        log.error(first_line(exc))
        return EXIT_ERROR
    emit(lines)
    return 0


def cmd_import_harness(args: argparse.Namespace) -> int:
    """``probe-ui import HARNESS PATH``: a harness's answers to a set ``probe-ui export-set`` wrote, as a run."""
    from probe_ui.importers import ImportFileError, ImportUsageError
    from probe_ui.interop.importing import import_harness
    from probe_ui.store import Store

    for flag, value in (*_format_options_given(args), ("--images", args.images), ("--to-preset", args.to_preset),
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
    emit(result.lines(shown(args.db)))
    print(f"score it with: probe-ui score --db {shown(args.db)} --run {result.run}")
    return 0


def cmd_import_dataset(args: argparse.Namespace) -> int:
    """``probe-ui import dataset DIR``: an export (any format) back into a preset that batch replays."""
    from pathlib import Path

    from probe_ui.importers.dataset import import_dataset

    for flag, _ in _format_options_given(args):
        raise UsageError(f"{flag} does not apply to a dataset (it holds the items, images and answers)")
    src = Path(args.file)
    out = Path(args.to_preset) if args.to_preset else src / "preset.yaml"
    result = import_dataset(src, out, with_perturbations=args.with_perturbations, force=args.force)
    emit(result.lines())
    print(f"run it with: probe-ui batch {out} --model SPEC")
    return 0


@command("export-set", "a preset, its suites expanded into variants (exact images and prompt), as a benchmark set "
                       "for Inspect AI, lmms-eval, VLMEvalKit or a Hugging Face dataset; 'probe-ui import' reads "
                       "the harness's answers back")
def export_set_arguments(es: argparse.ArgumentParser) -> None:
    es.add_argument("preset", metavar="PRESET", help="a preset file, or a shipped preset by name")
    es.add_argument("--to", required=True, choices=LazyChoices(_harnesses), metavar="HARNESS",
                    help="the harness whose conventions to write: %(choices)s")
    es.add_argument("--out", required=True, metavar="DIR", help="folder to write (created; must be empty or new)")
    es.add_argument("--suite", action="append", default=[], metavar="NAME",
                    help="add a stress suite's variants to every item, as batch --suite does; repeatable")
    es.add_argument("--seed", type=seed_arg, default=0, help="seed for the perturbations (default 0): the same as the "
                                                             "batch you compare with")
    es.add_argument("--prompt", default=None, help="prompt template for all items it fits (default: per kind), as "
                                                   "batch --prompt")
    image_root_arg(es)
    es.set_defaults(func=cmd_export_set)


def cmd_export_set(args: argparse.Namespace) -> int:
    """``probe-ui export-set PRESET --to HARNESS --out DIR``."""
    from pathlib import Path

    from probe_ui.interop.exporting import export_set

    result = export_set(args.preset, args.to, Path(args.out), seed=args.seed, suites=args.suite, prompt=args.prompt,
                        image_roots=args.image_root)
    emit(result.lines())
    return 0


@command("export", "a run as a dataset: JSONL, Parquet, CSV or an imagefolder that datasets.load_dataset reads; "
                   "images written once, by hash")
def export_arguments(ex: argparse.ArgumentParser) -> None:
    db_args(ex)
    ex.add_argument("--format", required=True, choices=LazyChoices(export_format_names), metavar="FORMAT",
                    help="%(choices)s")
    ex.add_argument("--out", required=True, metavar="DIR", help="folder to write (created; must be empty or new)")
    ex.add_argument("--by", choices=("response", "variant"), default="response",
                    help="one row per answer (default) or per variant, with every model's answer in it")
    parser_arg(ex)
    judge_arg(ex)
    ex.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.exports import export_run

    store, judge = judged_store(args)
    summary = export_run(store, args.run, args.format, Path(args.out), by=args.by, parser=args.parser, judge=judge)
    emit(summary.lines())
    return 0
