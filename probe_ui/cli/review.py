"""``probe-ui review RUN``: settle, from the terminal, the readings the reader was not sure of (issue 46)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING, Any, Callable

from probe_ui.cli.common import command, db_arg, reading_store, trust_arg

if TYPE_CHECKING:
    from probe_ui.store import Store


@command("review", "settle the readings the reader was not sure of, one reply at a time",
         description="Shows each reply whose reading is unsure (the reply, the item's answers and the reader's "
                     "guess) and stores what you read it as, under your name and the time. Figures use these "
                     "readings with --parser settled. Two clinicians settle independently; --agreement shows how "
                     "they agree.")
def review_arguments(rv: argparse.ArgumentParser) -> None:
    rv.add_argument("run", metavar="RUN", help="the run whose replies to review")
    db_arg(rv)
    trust_arg(rv)
    rv.add_argument("--clinician", default=None, metavar="NAME",
                    help="whose readings these are (default: your login name on this machine)")
    rv.add_argument("--list", action="store_true", help="list the readings left to settle, and settle none")
    rv.add_argument("--agreement", action="store_true",
                    help="how the clinicians' settlements agree with each other and with the judge model")
    rv.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    from probe_ui.scoring import scored_answers
    from probe_ui.scoring.review import judge_agreement, settler_agreement, to_review
    from probe_ui.security.users import system_user

    store = reading_store(args.db)  # never created here; settling needs it writable
    clinician = args.clinician if args.clinician is not None else system_user()
    df = scored_answers(store, args.run, "robust")
    if args.agreement:
        for line in agreement_lines(settler_agreement(df), judge_agreement(df)):
            print(line)
        return 0
    pending = to_review(df, clinician)
    if not pending:
        print(f"nothing to review in run '{args.run}' for {clinician or '(unnamed)'}: every reading is sure or "
              "already settled by you")
        return 0
    if args.list:
        for p in pending:
            print(f"#{p.response_id}  {p.model}  {p.item_id} ({p.condition})  guess: {p.words(p.guess)}  "
                  f"[{'; '.join(p.why)}]")
        print(f"{len(pending)} reading{'' if len(pending) == 1 else 's'} to settle")
        return 0
    done = settle_interactively(store, pending, clinician, input_fn=_read_line)
    print(f"settled {done} of {len(pending)} reading{'' if len(pending) == 1 else 's'} as {clinician or '(unnamed)'}"
          f"; 'probe-ui score {args.run} --parser settled' counts them")
    return 0


def _read_line(prompt: str) -> str | None:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.strip()


def settle_interactively(store: Store, pending: list[Any], clinician: str,
                         input_fn: Callable[[str], str | None]) -> int:
    """Ask about each pending reading in turn; an answer's label (or its number) settles it, "n" = no answer,
    "s" or an empty line skips, "q" or the end of input stops. Returns how many were settled."""
    from probe_ui.scoring.review import settle
    from probe_ui.store import StoreError

    done = 0
    for i, p in enumerate(pending, 1):
        print(f"\n[{i}/{len(pending)}] {p.model} · {p.item_id} ({p.condition}) · answer #{p.response_id}")
        print(textwrap.fill(p.question, 100, initial_indent="question: ", subsequent_indent="          "))
        print("reply:")
        for para in (p.reply or "(empty)").splitlines() or [""]:
            print(textwrap.fill(para, 100, initial_indent="    ", subsequent_indent="    ") if para else "")
        print(f"reader's guess: {p.words(p.guess)} ({'; '.join(p.why)})")
        keys = {str(n): lab for n, (lab, _) in enumerate(p.answers, 1)}
        keys.update({lab.lower(): lab for lab, _ in p.answers})
        for n, (_, words) in enumerate(p.answers, 1):
            print(f"  {n}. {words}")
        while True:
            got = input_fn("what does the reply answer? (a number or label, n = no answer, s = skip, q = quit) ")
            if got is None or got.lower() in ("q", "quit"):
                return done
            choice = got.lower()
            if choice in ("", "s", "skip"):
                break
            if choice in ("n", "none", "no answer"):
                label: str | None = None
            elif choice in keys:
                label = keys[choice]
            else:
                print(f"  '{got}' is not one of this item's answers")
                continue
            try:
                settle(store, p.response_id, label, clinician)
            except StoreError as exc:
                print(f"  not stored: {exc}")
                break
            done += 1
            print(f"  settled: {p.words(label)}")
            break
    return done


def agreement_lines(settlers: dict[str, Any] | None, judge: dict[str, Any] | None) -> list[str]:
    """The clinicians' agreement and the judge's, in words."""
    from probe_ui.scoring.review import kappa_words

    out: list[str] = []
    if settlers is None:
        out.append("fewer than two clinicians have settled readings in this run: no agreement to show")
    else:
        for pair in settlers["pairs"]:
            out.append(f"{pair['a']} and {pair['b']}: " + kappa_words(pair))
        dis = settlers["disagreements"]
        out.append(f"{len(dis)} repl{'y' if len(dis) == 1 else 'ies'} read differently")
        for d in dis:
            readings = "; ".join(f"{who}: {w}" for who, w in d["readings"].items())
            out.append(f"  #{d['response_id']} {d['model']} {d['item_id']}: {readings}")
    if judge is not None:
        out.append(f"judge {judge['judge']} against the clinicians: " + kappa_words(judge))
    return out

