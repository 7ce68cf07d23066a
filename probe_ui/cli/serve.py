"""``probe-ui serve`` (and ``probe-ui`` with no command): start the app."""

from __future__ import annotations

import argparse
import sys

from probe_ui.cli.common import UsageError, command, db_arg, global_db_arg, send_gate_args, trust_arg


def serve_args(p: argparse.ArgumentParser, top: bool = False) -> None:
    """The app's options: taken by ``serve`` and, before any command (``top``), by ``probe-ui`` itself, whose
    ``--db`` every command that opens a store takes when it is not given its own."""
    from probe_ui.app import DEFAULT_HOST, DEFAULT_MAX_UPLOAD_MB, DEFAULT_PORT

    g = p.add_argument_group("app (probe-ui with no command, or probe-ui serve)")
    g.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}; any other "
                                                        "address needs --auth)")
    g.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    if top:
        global_db_arg(g)
    else:
        db_arg(g)
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
    g.add_argument("--trusted-proxies", default=None, metavar="ADDRESSES",
                   help="reverse proxies whose X-Forwarded-For names the client (comma separated addresses or "
                        "networks; default $PROBE_UI_TRUSTED_PROXIES, else none: the connection's address counts)")
    g.add_argument("--demo", action="store_true", help="open on a preset item with the baselines ticked, so a "
                                                       "presenter can press Run with no keys")
    g.add_argument("--max-upload-mb", type=int, default=None, metavar="MB",
                   help=f"largest upload the page accepts (default $PROBE_UI_MAX_UPLOAD_MB or "
                        f"{DEFAULT_MAX_UPLOAD_MB})")
    send_gate_args(g)


@command("serve", "start the app (the default when no command is given)")
def serve_arguments(sv: argparse.ArgumentParser) -> None:
    serve_args(sv)
    trust_arg(sv)
    sv.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from probe_ui.app.serve import ServeError, claim_port, launch, options, stop_on_ctrl_c

    try:
        opts = options(args.db, args.host, args.port, args.auth, args.demo, args.max_upload_mb, args.auth_file,
                       args.endpoint_hosts, args.trusted_proxies)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    claim_port(opts.host, opts.port)  # a port in use: one line naming it and --port, before anything else
    from probe_ui.send_gate.ocr import INSTALL_HINT
    from probe_ui.send_gate.policy import GateError, ocr_available
    from probe_ui.send_gate.server import set_server_policy

    try:  # one policy for the whole server; an admin changes it in the Models tab
        policy = set_server_policy(args.send_gate, args.trusted_hosts)
    except GateError as exc:
        raise UsageError(str(exc)) from None
    if not ocr_available() and policy.mode != "off":
        print(f"probe-ui: the send gate is missing ({INSTALL_HINT}): images sent to hosted APIs are not checked "
              "for burned-in names, dates or record numbers", flush=True)
    stop_on_ctrl_c()
    try:
        launch(opts)
    except KeyboardInterrupt:  # while starting: the port was given back
        print("probe-ui: stopped", file=sys.stderr, flush=True)
        return 130
    return 0
