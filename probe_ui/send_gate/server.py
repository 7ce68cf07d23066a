"""The send gate of a served app (issue 47): one policy per server, set with ``probe-ui serve --send-gate`` and
changed by an admin in the Models tab, and the send ledger as an admin reads it there.

Why in the process's environment: every path that asks a model (live probes, app batches, the Stress tab) builds
its policy with :meth:`probe_ui.send_gate.policy.GatePolicy.from_options`, which reads ``PROBE_UI_SEND_GATE`` and
``PROBE_UI_TRUSTED_HOSTS``; setting them here changes the policy for the whole server at once, and only for it.
"""

from __future__ import annotations

import os
from html import escape
from typing import TYPE_CHECKING, Any

from probe_ui.send_gate.ocr import INSTALL_HINT
from probe_ui.send_gate.policy import POLICIES, POLICY_ENV, TRUSTED_ENV, GatePolicy, ocr_available, parse_trusted

if TYPE_CHECKING:
    from probe_ui.store import Store

#: the policy choices the admin panel offers ("default": block for hosts that are not trusted, with the extra)
CHOICES = ("default", *POLICIES)
#: rows of the ledger the admin panel shows (the newest first); ``probe-ui audit show`` lists them all
SHOWN_ROWS = 200


def set_server_policy(mode: str | None, trusted: str | None = None) -> GatePolicy:
    """Set this server's policy (``mode`` one of :data:`CHOICES`, or None to leave it) and trusted hosts (None to
    leave them); a GateError for an unknown policy or host pattern, with nothing changed. Returns the policy."""
    mode = None if mode in (None, "") else str(mode)
    policy = GatePolicy.from_options(None if mode in (None, "default") else mode,
                                     trusted if trusted is not None else None)
    hosts = parse_trusted(trusted) if trusted is not None else policy.trusted_hosts
    if mode is not None:
        if mode == "default":
            os.environ.pop(POLICY_ENV, None)
        else:
            os.environ[POLICY_ENV] = mode
    if trusted is not None:
        os.environ[TRUSTED_ENV] = ",".join(hosts)
    return GatePolicy.from_options()


def policy_words(policy: GatePolicy | None = None) -> str:
    """The server's policy in plain words (HTML), with whether the OCR extra is installed."""
    p = policy or GatePolicy.from_options()
    installed = ocr_available()
    what = {None: "block images with burned-in identifying text before they go to a host that is not trusted"
                  if installed else "nothing is checked: the OCR extra is missing",
            "block": "block images with burned-in identifying text, for every host",
            "redact": "cover burned-in identifying text, and send the covered image, for every host",
            "warn": "send images as they are, noting burned-in identifying text in the answer and the ledger",
            "off": "check nothing (requests to hosts that are not trusted are still on the ledger)"}[p.mode]
    hosts = ", ".join(p.trusted_hosts) or "none besides this machine"
    missing = "" if installed else (" <b>The send gate is missing</b>: install it with "
                                    f"<code>{escape(INSTALL_HINT)}</code>.")
    return (f"<div class='pu-note' id='models-gate-words'>Send gate: {escape(what)}. Trusted hosts: "
            f"{escape(hosts)}.{missing}</div>")


def ledger_rows_for_admin(store: Store, limit: int = SHOWN_ROWS) -> list[list[Any]]:
    """The ledger's newest rows as a table: when, who, run, service, model, verdict, images (short hashes)."""
    rows = list(store.ledger_rows())[-limit:][::-1]
    return [[r["id"], r["created_at"][:19].replace("T", " "), r["user"] or "(unnamed)", r["run"],
             f"{r['provider']} at {r['host']}", r["model"], r["verdict"],
             ", ".join(i[:12] for i in str(r["images"] or "").split(", ") if i)] for r in rows]


LEDGER_COLUMNS = ["#", "when (UTC)", "who", "run", "service", "model", "verdict", "images (sha256)"]


def ledger_check_words(store: Store) -> str:
    """Whether the ledger's hash chain is intact, in words (HTML)."""
    check = store.verify_ledger()
    if check.intact:
        return (f"<div class='pu-note' id='models-ledger-check'>The send ledger is intact: {check.rows} "
                f"row{'' if check.rows == 1 else 's'}, each chained to the one before.</div>")
    return (f"<div class='pu-msg-error' id='models-ledger-check'>The send ledger is broken at row {check.bad_id}: "
            f"{escape(check.why)}.</div>")
