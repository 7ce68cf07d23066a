"""Models tab: the catalogue and whether each model is usable here; add an endpoint (key in memory only, yours
alone unless an admin shares it with everyone); test a model with one call."""

from __future__ import annotations

from html import escape
from typing import Any

import gradio as gr

from probe_ui.app.access import AccessDenied, require, who
from probe_ui.app.common import Inline, model_choices, shows_errors
from probe_ui.app.context import AppContext
from probe_ui.app.queues import model_event, off_pool
from probe_ui.app.tabs import AppTab, register_tab
from probe_ui.catalogue import rate_table
from probe_ui.catalogue.endpoints import model_check_html, models_for_people
from probe_ui.errors import ProbeUIError
from probe_ui.live import calls as live_calls
from probe_ui.providers import url_providers


def policy_note(ctx: AppContext) -> str:
    """Where endpoints may point on this server, in words (empty where anything goes: the app on this machine)."""
    p = ctx.policy
    if not p.enforced:
        return ""
    if not (p.hosts or p.networks):
        return "On this server only an admin can add endpoints; the models above are shared by the server."
    return (f"On this server the endpoints you add may point only at: {escape(p.describe())} (an admin can add "
            "others).")


def build(ctx: AppContext) -> dict[str, Any]:
    """Lay out the tab; returns the components only some roles see (``{"share": checkbox}``)."""
    gr.Markdown("Every provider and catalogue entry (`backends/*.yaml`), and models found on local servers. "
                "An endpoint you add below is yours alone: nobody else using this app sees it or its key, or can "
                "call it. A key typed below stays in this process's memory: it is never written to disk, logs or "
                "runs.")
    table = gr.Dataframe(value=models_for_people(ctx.endpoints.models_table("")),
                         interactive=False, elem_id="models-table")
    refresh = gr.Button("↻ refresh (also looks for local servers)", size="sm")
    gr.Markdown("#### Live calls now")
    calls = gr.Markdown(live_calls.status_text(), elem_id="models-live-calls")
    calls_btn = gr.Button("↻ live calls", size="sm", elem_id="models-live-calls-refresh")
    gr.Markdown("#### Rate limits now, per server")
    gr.Markdown("How many requests each server has in flight from this app (probes, stress runs and batches "
                "started here), the limit it adapts to its refusals (at most the ceiling), its answers and refusals "
                "(HTTP 429) so far, and until when it asked every new request to wait. A batch run in a terminal "
                "paces itself there. Yours and the shared servers; an admin sees every one.")
    rates = gr.Dataframe(headers=list(rate_table.COLUMNS), value=[], interactive=False, elem_id="models-rates")
    rates_btn = gr.Button("↻ rate limits", size="sm", elem_id="models-rates-refresh")
    gr.Markdown("#### Add an endpoint")
    note = policy_note(ctx)
    if note:
        gr.HTML(f"<div class='pu-note' id='models-policy'>{note}</div>")
    with gr.Row():
        provider = gr.Dropdown(label="provider", choices=url_providers(), value="openai")
        base_url = gr.Textbox(label="base URL", placeholder="http://127.0.0.1:8000/v1", elem_id="models-url")
        model = gr.Textbox(label="model", placeholder="Qwen/Qwen2.5-VL-7B-Instruct", elem_id="models-model")
        key = gr.Textbox(label="API key (memory only)", type="password", elem_id="models-key")
        name = gr.Textbox(label="name (optional)", elem_id="models-name")
    share = gr.Checkbox(label="for everyone using this app (admins only; its URL and key are not shown to them)",
                        value=False, visible=False, elem_id="models-share")
    add = gr.Button("Add endpoint", elem_id="models-add")
    added = gr.HTML("", elem_id="models-added")
    gr.Markdown("#### Test a model with one call")
    with gr.Row():
        spec = gr.Dropdown(label="model", choices=model_choices(ctx), allow_custom_value=True, elem_id="models-spec")
        test = gr.Button("Test", elem_id="models-test")
    result = gr.HTML("", elem_id="models-result")
    gate = _gate_section(ctx)

    def on_refresh(request: gr.Request) -> Any:
        caller = who(ctx, request)
        return models_for_people(ctx.endpoints.models_table(caller.owner, admin=caller.can("any_host"),
                                                            discover=True))

    @shows_errors
    def on_add(p: str, url: str, m: str, k: str, n: str, everyone: bool, request: gr.Request) -> tuple[Any, ...]:
        caller = who(ctx, request)
        if everyone and not caller.can("share_endpoint"):
            raise AccessDenied("Only an admin can add an endpoint for everyone.", duration=8, print_exception=False)
        cfg = ctx.endpoints.add(caller.owner, p, url, m, key=k or None, name=n or None,
                                admin=caller.can("any_host"), share=bool(everyone))
        whose = "everyone using this app" if everyone else "you"
        return (models_for_people(ctx.endpoints.models_table(caller.owner, admin=caller.can("any_host"))),
                f"Added <b>{escape(cfg.name)}</b> for {whose}: pick it in the Probe and Batch tabs.", "",
                gr.update(choices=model_choices(ctx, caller.owner), value=cfg.name))

    @shows_errors
    def on_test(s: str, request: gr.Request) -> str:
        caller = who(ctx, request)
        r = ctx.endpoints.test(caller.owner, s or "", admin=caller.can("any_host"),
                               spend=ctx.spend_cap(caller.name, caller.signed_in))  # the user's spending limit
        return model_check_html(r, s or "")

    def on_calls(request: gr.Request) -> str:
        """Calls in flight and waiting per provider and server (a server named only to those who used it)."""
        caller = who(ctx, request)
        admin = caller.can("any_host")
        return live_calls.status_text(caller.name, admin=admin,
                                      hidden=ctx.endpoints.hidden_servers(caller.owner, admin=admin))

    def on_rates(request: gr.Request) -> list[list[Any]]:
        """The rate controllers' table: every server for an admin, those of their models for anyone else."""
        caller = who(ctx, request)
        visible = None if caller.can("any_host") else rate_table.visible_keys(
            ctx.endpoints.configs(caller.owner).values())
        return rate_table.rate_rows(visible, hidden=ctx.endpoints.hidden_servers(caller.owner,
                                                                                 admin=caller.can("any_host")))

    refresh.click(on_refresh, None, table, api_name="models")
    rates_btn.click(on_rates, None, rates, api_name="rate_limits")
    calls_btn.click(on_calls, None, calls, api_name="live_calls")
    add.click(on_add, [provider, base_url, model, key, name, share], [table, added, key, spec],
              api_name="add_endpoint")
    test.click(off_pool(on_test), spec, result, **model_event(api_name="test_model"))
    return {"share": share, "gate": gate}


def _gate_section(ctx: AppContext) -> Any:
    """Admins only (the page shows it to them; every event checks the right): the server's send gate and the send
    ledger of requests that left for hosts that are not trusted (issue 47)."""
    from probe_ui.send_gate import server as gate_server

    with gr.Accordion("Send gate and send ledger (admins)", open=False, visible=False,
                      elem_id="models-gate") as box:
        words = gr.HTML(gate_server.policy_words(), elem_id="models-gate-policy")
        with gr.Row():
            now = gate_server.GatePolicy.from_options()  # the server's policy as it starts (serve --send-gate)
            mode = gr.Radio(list(gate_server.CHOICES), value=now.mode or "default", elem_id="models-gate-mode",
                            label="what to do with an image that carries burned-in identifying text (a name, a "
                                  "date, a record number) before it leaves", scale=3)
            hosts = gr.Textbox(label="trusted hosts: the site's own, never checked by default (comma separated; "
                                     "*.domain allowed)", value=", ".join(now.trusted_hosts),
                               elem_id="models-gate-hosts", scale=2)
        save = gr.Button("Set for this server", elem_id="models-gate-save")
        msg = gr.HTML("", elem_id="models-gate-msg")
        gr.Markdown("Every request that left for a host that is not trusted, newest first (`probe-ui audit show` "
                    "lists them all; exports and reports never include them).")
        ledger = gr.Dataframe(headers=gate_server.LEDGER_COLUMNS, value=[], interactive=False,
                              elem_id="models-ledger")
        with gr.Row():
            reload = gr.Button("↻ ledger", size="sm", elem_id="models-ledger-reload")
            check = gr.Button("Check the ledger is intact", size="sm", elem_id="models-ledger-verify")
        checked = gr.HTML("", elem_id="models-ledger-check-msg")

    def on_save(m: str, h: str, request: gr.Request) -> tuple[Any, ...]:
        require(ctx, request, "send_gate")
        try:
            policy = gate_server.set_server_policy(m, h)
        except ProbeUIError as exc:
            return gr.skip(), Inline.error(str(exc))
        return gate_server.policy_words(policy), Inline.note("Set: every probe and batch on this server uses it "
                                                             "from now on.")

    def on_ledger(request: gr.Request) -> Any:
        require(ctx, request, "send_gate")
        return gate_server.ledger_rows_for_admin(ctx.store)

    def on_check(request: gr.Request) -> str:
        require(ctx, request, "send_gate")
        return gate_server.ledger_check_words(ctx.store)

    save.click(on_save, [mode, hosts], [words, msg], api_name="set_send_gate")
    reload.click(on_ledger, None, ledger, api_name="send_ledger")
    check.click(on_check, None, checked, api_name="verify_send_ledger")
    return box


register_tab(AppTab("models", "Models", order=50, right="probe", build=lambda ctx, tab, built: build(ctx)))
