"""The listing commands, each read from its registry: ``probe-ui models``, ``metrics``, ``perturbations`` and
``presets``."""

from __future__ import annotations

import argparse
import json
import re

from probe_ui.cli.common import command


@command("models", "every provider and catalogue entry, and whether it is usable here")
def models_arguments(m: argparse.ArgumentParser) -> None:
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_models)


def cmd_models(args: argparse.Namespace) -> int:
    from probe_ui.catalogue import list_models, ready_word

    rows = list_models()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    name_w = max([len("name"), *(len(r["name"]) for r in rows)])
    prov_w = max([len("provider"), *(len(r["provider"]) for r in rows)])
    print(f"{'name':<{name_w}}  {'provider':<{prov_w}}  {'usable':<6}  note")
    for r in rows:
        note = r["reason"] or r["needs"] or r["description"]
        print(f"{r['name']:<{name_w}}  {r['provider']:<{prov_w}}  {ready_word(r['usable']):<6}  {note}")
    return 0


@command("metrics", "every registered metric family: what it measures, its definitions")
def metrics_arguments(mt: argparse.ArgumentParser) -> None:
    mt.add_argument("--json", action="store_true", help="print JSON")
    mt.add_argument("--explain", metavar="NAME",
                    help="one metric's definition in words (e.g. 'set accuracy', 'answer flip rate'), or every "
                         "metric of a family (e.g. mediconfusion): what it measures, its paper, how it is "
                         "computed, its random-guess reference, how to read its interval")
    mt.add_argument("--glossary", action="store_true", help="every metric's definition as Markdown (docs/metrics.md)")
    mt.set_defaults(func=cmd_metrics)


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


@command("perturbations", "every perturbation and suite, its parameters and its effect on the answer")
def perturbations_arguments(pt: argparse.ArgumentParser) -> None:
    pt.add_argument("--format", choices=("table", "markdown", "json"), default="table",
                    help="how to print the list: a table (default), Markdown, or JSON for scripts")
    pt.set_defaults(func=cmd_perturbations)


def cmd_perturbations(args: argparse.Namespace) -> int:
    from probe_ui.perturb import describe
    from probe_ui.presets.suites import describe_suites

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
    """The perturbation and suite tables of docs/guide/commands/perturbations.md, generated from the registries (no
    drift)."""
    def cell(text: str) -> str:
        """One table cell's text: a pipe would end the cell, and "<perturbation>" would be taken for an HTML tag
        and vanish from the page (issue 51, U39)."""
        return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text.replace("|", "\\|"))

    lines = ["| perturbation | parameters | what it does | the answer |", "|---|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['parameters']) or '-'} | {cell(r['summary'])} | {cell(r['answer'])} |"
              for r in perts]
    lines += ["", "| suite | what it adds to each item | metrics that read it |", "|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['description'])} | {r['metrics']} |" for r in suites]
    return "\n".join(lines)


@command("presets", "the presets shipped with probe-ui, usable by name from any folder")
def presets_arguments(ps: argparse.ArgumentParser) -> None:
    ps.add_argument("--json", action="store_true", help="print JSON")
    ps.set_defaults(func=cmd_presets)


def cmd_presets(args: argparse.Namespace) -> int:
    from probe_ui.files.resources import shipped_presets

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
