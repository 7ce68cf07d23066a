"""How ``--help`` reads (issue 48): the options a user needs first, the advanced ones (the store, trust, rate and
sending controls, sharding) under their own heading after them, and under each command an example line and the
guide page that explains it. The options themselves stay where each command defines them; this only arranges
what argparse prints.
"""

from __future__ import annotations

import argparse
import textwrap

#: options (by ``dest``) that most runs never need: listed under "advanced options", after the others
ADVANCED = frozenset({
    "db", "trust_store", "concurrency", "rate_limit_wait", "image_root", "send_gate", "trusted_hosts", "extend",
    "shard", "no_cache", "judge_mode", "definition", "boot", "parser", "settled_by", "force", "poll_interval",
})
#: one line per command that a new user can run as it is (tests/test_cli_help.py parses each)
EXAMPLES: dict[str, str] = {
    "audit": "probe-ui audit verify",
    "batch": "probe-ui batch mediconfusion_pairs --model baseline/random --model baseline/first",
    "compare": "probe-ui compare mediconfusion_pairs-seed0 -m baseline/first -m baseline/random --fail-if-worse 2",
    "export": "probe-ui export --run mediconfusion_pairs-seed0 --format imagefolder --out my-dataset/",
    "export-set": "probe-ui export-set mediconfusion_pairs --suite circular --seed 3 --to inspect --out sets/inspect",
    "import": "probe-ui import dataset my-dataset/ --with-perturbations --to-preset replay.yaml",
    "metrics": "probe-ui metrics --explain accuracy",
    "models": "probe-ui models",
    "perturbations": "probe-ui perturbations --format markdown",
    "presets": "probe-ui presets",
    "preview": "probe-ui preview medblink_orientation --item orient-ct-head --out preview/",
    "ratings": "probe-ui ratings export --run mediconfusion_pairs-seed0 --out ratings.csv",
    "report": "probe-ui report --out report.html",
    "review": "probe-ui review mediconfusion_pairs-seed0 --clinician \"Dr Ames\" --list",
    "score": "probe-ui score --run mediconfusion_pairs-seed0",
    "serve": "probe-ui serve --port 8080",
    "stress": "probe-ui stress medblink_depth/depth-echo --suite dot-colours -m baseline/first -m baseline/random",
    "users": "probe-ui users add alice --role prober --file users",
}
GUIDE = "docs/guide/commands/{name}.md"
#: the width a description is wrapped to
WIDTH = 88
TOP_EPILOG = ("examples:\n"
              "  probe-ui batch mediconfusion_pairs -m baseline/random   # a shipped preset, no key needed\n"
              "  probe-ui score                                          # score the latest run\n"
              "  probe-ui                                                # the app, at http://127.0.0.1:7860\n\n"
              "each command: probe-ui COMMAND --help; the guide: docs/guide/README.md")


def arrange(parser: argparse.ArgumentParser, name: str) -> None:
    """Move the advanced options of ``parser`` (the command ``name``) under their own heading, after the others,
    and add its example and guide page below."""
    moved = [a for a in parser._optionals._group_actions if a.dest in ADVANCED]  # noqa: SLF001 - argparse's groups
    if moved:
        group = parser.add_argument_group("advanced options")
        for action in moved:
            parser._optionals._group_actions.remove(action)  # noqa: SLF001
            group._group_actions.append(action)  # noqa: SLF001
    if name in EXAMPLES:  # probe-ui's own commands (a plugin's has neither an example here nor a guide page)
        parser.epilog = f"example:\n  {EXAMPLES[name]}\n\nguide: {GUIDE.format(name=name)}"
    if parser.description:  # printed as written from here on (the example's line must not be re-wrapped): wrap it
        parser.description = "\n\n".join(textwrap.fill(" ".join(part.split()), WIDTH)
                                          for part in parser.description.split("\n\n"))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
