"""All tabs in one Gradio Blocks: every tab registered in :mod:`probe_ui.app.tabs`, in order."""


from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

from probe_ui.app import access, keyboard, plot_view, probe_tab  # noqa: E402
from probe_ui.app.context import AppContext  # noqa: E402
from probe_ui.app.files import guard_uploads, watch_uploads  # noqa: E402
from probe_ui.app.gradio_overhead import LeanBlocks  # noqa: E402
from probe_ui.app.queues import configure_queue  # noqa: E402
from probe_ui.app.tabs import app_tabs  # noqa: E402
from probe_ui.views import comparison  # noqa: E402

TITLE = "probe-ui"
#: the page's own look beside Gradio's: the run bar, messages beside their fields, the comparison table
CSS = comparison.CSS + plot_view.CSS + """
#probe-runbar {border:2px solid #0969da; border-radius:8px; padding:6px;}
#probe-run button, button#probe-run {font-size:18px; min-height:48px;}
.pu-banner {background:#ddf4ff; border:1px solid #54aeff; border-radius:6px; padding:8px 12px; font-size:16px;}
.pu-msg {margin:4px 0; padding:6px 10px; border-radius:6px; font-size:14px;}
.pu-msg-error {background:#fff8c5; border:1px solid #d4a72c; color:#4d2d00;}
.pu-msg-note, .pu-note {background:#f6f8fa; border:1px solid #d0d7de; color:#1f2328; padding:6px 10px;
                        border-radius:6px;}
.pu-bad textarea, .pu-bad input, .pu-bad .wrap {outline:2px solid #cf222e !important;}
.pu-unusable {font-size:13px; color:#57606a; padding:2px 8px;}
.gradio-container .min_value, .gradio-container .max_value {color:#52525b;}
.gradio-container .pu-fam th {color:#1f2328 !important;}  /* the figures' family headers: AA contrast */
/* the report's tables shown in the Results tab scroll sideways inside their box on a narrow screen */
.gradio-container #results-extra .scroll {overflow-x:auto; max-width:100%;}
.pu-unusable ul {margin:4px 0 0 0; padding-left:16px; list-style:none;}
.pu-unusable li {margin:2px 0;} .pu-why {color:#57606a;}
/* the Results tab's "To review" card: the reply as the model wrote it, set apart */
.pu-review blockquote {border-left:4px solid #0969da; background:#f6f8fa; margin:6px 0; padding:6px 12px;
                       font-size:16px; white-space:normal;}
/* the keyboard's place always shows: Gradio draws no ring on a focused checkbox, radio or thumbnail */
.gradio-container :is(input[type=checkbox], input[type=radio], button):focus-visible {
    outline:3px solid #0969da !important; outline-offset:2px;}
/* the Batch tab's one progress bar says answers, rate and time left: Gradio's second counter beside it goes, and
   so do the elapsed-time counters it draws over the other outputs while a step waits its turn on a busy server */
#batch-progress .progress-text {display:none !important;}
:is(#batch-status, #batch-run-name, #batch-runs, #batch-resume-pick, #batch-extend, #batch-resume)
    [data-testid="status-tracker"] {display:none !important;}
/* a tab's main action (Batch: Start, Cancel, refresh; Stress: Run stress test; Results: Show results) stays at the
   window's foot until the page is scrolled to it: in view at any screen size, a projector's too */
.pu-actions {position:sticky; bottom:0; z-index:20; background:var(--body-background-fill);
                padding:6px 0; box-shadow:0 -6px 8px -6px rgba(0,0,0,.25);}
/* the "signed in as" line takes no room on a server without logins (nobody signs in) */
#signed-in:not(:has(small)) {display:none;}
/* Gradio's container clips with overflow:hidden, which makes it the box a sticky element sticks in (and it never
   scrolls): clip draws the same and leaves the window the scrolling box */
.gradio-container {overflow:clip !important;}
#probe-click-hint {color:#9a6700; min-height:1em; font-size:14px;}
#probe-image img {image-rendering:pixelated;}
#probe-runbar .block {overflow:visible;}
.pu-sent {display:flex; flex-wrap:wrap; gap:10px;} .pu-sent figure {margin:0; max-width:100%;}
.pu-sent img.pu-whole {max-width:100%; max-height:360px; width:auto; height:auto; object-fit:contain;
                       border:1px solid #d0d7de; background:#000;}
.pu-sent figcaption {font-size:13px; color:#424a53;} .pu-sent details {margin-top:4px;}
.pu-sent .pu-zoom {overflow:auto; max-height:80vh; max-width:100%; border:1px solid #d0d7de;}
.pu-sent .pu-zoom img {max-width:none; image-rendering:pixelated;}
.pu-detail-text pre, .pu-detail-text code {white-space:pre-wrap !important; overflow-wrap:anywhere;}
/* a table's column headings wrap between words, never inside one ("unread / able"): the column takes the width of
   its longest word, and a table wider than the page scrolls */
.gradio-container .table-wrap thead th .header-content, .gradio-container .table-wrap thead th span {
    word-break:normal !important; overflow-wrap:normal !important;}
/* presenter mode (probe-ui --demo, or the tick in the run bar): type readable from the back of a room; the
   table's rules are !important because Gradio scopes the page's CSS under its container, which outranks a body class */
body.pu-presenter .gradio-container {--text-xs:14px; --text-sm:16px; --text-md:19px; --text-lg:21px;
    --text-xl:24px; --block-label-text-size:16px; --block-info-text-size:15px; --section-header-text-size:18px;
    --checkbox-label-text-size:18px; --input-text-size:19px; --button-large-text-size:21px;}
body.pu-presenter .pu-table {font-size:19px !important;}
body.pu-presenter .pu-table .pu-meta {font-size:15px !important;}
body.pu-presenter .pu-asked {font-size:21px !important;} body.pu-presenter .pu-legend {font-size:15px !important;}
body.pu-presenter .pu-rate {font-size:16px !important; line-height:26px !important; padding:0 6px !important;}
/* compact rows on a projector: a smaller picture, and long answers and "correct:" lines clamped to two lines
   (the whole text is the cell's tooltip, and its detail a click away) */
body.pu-presenter .pu-thumb {width:64px !important;}
body.pu-presenter .pu-table .pu-ans, body.pu-presenter .pu-table .pu-variant .pu-meta {display:-webkit-box;
    -webkit-box-orient:vertical; -webkit-line-clamp:2; line-clamp:2; overflow:hidden;}
/* the correct answer under a row's label keeps its option's words: three short lines on a projector */
body.pu-presenter .pu-table .pu-variant .pu-meta {-webkit-line-clamp:3; line-clamp:3;}
body.pu-presenter .pu-table th.pu-variant, body.pu-presenter .pu-table th.pu-corner {width:210px !important;
    min-width:150px !important;}
"""


#: a draft kept in this browser: a new value for the hidden box whose change brings the draft back; none: the box is
#: left as it is (a script's ``undefined`` output is no update), so no event runs
DRAFT_FOUND_JS = "(draft) => (draft ? String(Date.now()) : undefined)"

#: hides the tab buttons named (comma separated tab ids) for good: a style rule the page keeps across re-renders
HIDE_TABS_JS = """(ids) => {
  if (!ids) return;
  const rule = ids.split(',').map((id) => `button[role=tab][data-tab-id='${id}']`).join(', ');
  const style = document.createElement('style');
  style.textContent = `${rule} {display: none !important;}`;
  document.head.appendChild(style);
}"""


#: every tab opens at the top of the page: a tab switched to (by its button, or by one such as the Batch tab's "Open
#: the Results tab") kept the scroll position of the tab before, and landed mid-page (issue 51, U33)
TAB_TOP_JS = "() => { window.scrollTo(0, 0); }"


def tab_rights() -> dict[str, str]:
    """The right each tab's events need (probe_ui.security.users.RIGHTS; each tab's own ``right``): a viewer sees and
    calls the Results tab only."""
    return {t.id: t.right for t in app_tabs()}


def build_app(ctx: AppContext) -> gr.Blocks:
    """All tabs in one Blocks. ``ctx.demo`` opens the Probe tab on a preset item with the baselines ticked.

    Every event of a tab runs only for a role with the tab's right (:func:`tab_rights`, checked on the server by
    :func:`probe_ui.app.access.enforce`); the tabs a role cannot use are also hidden from it when the page loads."""
    # Uploaded files (a DICOM's header included) sit in Gradio's cache only until they are an hour old.
    with LeanBlocks(title=TITLE, analytics_enabled=False, delete_cache=(600, 3600)) as app:
        gr.Markdown(f"## {TITLE} · probe vision-language models on medical images  \n"
                    f"<small>store: <code>{_safe(ctx.db_location)}</code></small>")
        signed_in = gr.HTML("", elem_id="signed-in")
        tab_events: dict[str, list[int]] = {}
        tabs: dict[str, gr.Tab] = {}
        built: dict[str, Any] = {}
        rights = tab_rights()
        with gr.Tabs(elem_id="tabs") as tab_set:
            for spec in app_tabs():
                with _events(app, tab_events, spec.id), gr.Tab(spec.label, id=spec.id) as tab:
                    tabs[spec.id] = tab
                    built[spec.id] = spec.build(ctx, tab, built)
        tab_set.change(None, None, None, js=TAB_TOP_JS, api_visibility="private")  # in the browser only
        probe, models = built["probe"], built["models"]
        before = set(app.fns)
        # the rater's name stays in this browser (localStorage) from one visit to the next
        remembered = gr.BrowserState("", storage_key="probe-ui-rater")
        probe["rater"].change(lambda name: name, probe["rater"], remembered, api_visibility="private")
        # restored in the browser, at once: a round trip to the server could come back after the user typed a name,
        # and overwrite it with the empty one it was sent
        app.load(None, [remembered, probe["rater"]], probe["rater"], js="(kept, typed) => typed || kept",
                 api_visibility="private")

        hidden_tabs = gr.Textbox(visible=False, elem_id="hidden-tabs")

        def on_load(request: gr.Request) -> tuple[Any, ...]:
            """This person's page: who is signed in, the tabs their role may use, their own lists."""
            caller = access.who(ctx, request)
            allowed = {name: caller.can(right) for name, right in rights.items()}
            note = "" if not caller.signed_in else (
                f"<small>signed in as <b>{escape(caller.name)}</b> ({escape(caller.user.role)}) · "
                "<a href='logout'>sign out</a></small>")
            # the page opens on the Probe tab; only a role without it is moved (to Results): an update for everyone
            # took a person who chose another tab while the page loaded back to Probe
            return (note, gr.update() if allowed["probe"] else gr.update(selected="results"),
                    ",".join(name for name in tabs if not allowed[name]),
                    gr.update(visible=caller.can("share_endpoint")), gr.update(visible=caller.can("send_gate")))

        refresh, refresh_in, refresh_out = probe["refresh"]
        restore, restore_in, restore_out = probe["restore"]

        def on_open(cur: list[str], set_pick: str | None, request: gr.Request) -> tuple[Any, ...]:
            """The page as it opens, in one event: who is signed in, then this person's lists."""
            return (*on_load(request), *refresh(cur, set_pick, request))

        # One event to the server as the page opens, and the draft's only when this browser keeps one: each event
        # makes Gradio's page copy the properties of every field that events have touched so far, and the three
        # that ran at every load (who, lists, draft) were a third of the 5 s of CPU a browser spent opening the page.
        # Gradio 6.31 does not hide a tab whose visibility is updated after the page is built: the page hides the
        # tab buttons itself (the server refuses those tabs' events whatever the page shows). The draft comes back
        # after this person's lists, so that the ticks it brings are among the choices.
        draft_found = gr.Textbox(visible=False, elem_id="draft-found")
        app.load(on_open, refresh_in, [signed_in, tab_set, hidden_tabs, models["share"], models["gate"],
                                       *refresh_out],
                 api_visibility="private").then(
            None, hidden_tabs, None, js=HIDE_TABS_JS, api_visibility="private").then(
            None, restore_in, draft_found, js=DRAFT_FOUND_JS, api_visibility="private")
        draft_found.change(restore, restore_in, restore_out, api_visibility="private")
        app.load(None, probe["presenter"], None, js=probe_tab.PRESENTER_JS, api_visibility="private")

        def on_unload(request: gr.Request) -> None:
            """A browser session of an app without a login ends: its endpoints and keys go with it."""
            ctx.endpoints.forget(access.who(ctx, request).owner)

        if ctx.accounts is None:
            app.unload(on_unload)
        common_events = [i for i in app.fns if i not in before]
    for name, ids in tab_events.items():
        # a tab's own select event only refreshes its lists (Gradio also fires it for the first tab as the page
        # loads, for every role): any signed-in user; every other event of the tab needs the tab's right
        selects = [i for i in ids if any(t == (tabs[name]._id, "select") for t in app.fns[i].targets)]
        access.enforce(ctx, app, selects, "read")
        access.enforce(ctx, app, ids, rights[name])
    # the page's own events (who is signed in, this person's lists, the rater's name kept in the browser): any
    # signed-in user; the end of a session needs nobody's right
    access.enforce(ctx, app, [i for i in common_events if (None, "unload") not in app.fns[i].targets], "read")
    guard_uploads(app)  # a refused upload (wrong type, too large) leaves the cache at once
    watch_uploads(app)  # so do the uploads of a failed call, and, within a minute, those no call used
    configure_queue(app)
    return app


@contextmanager
def _events(app: gr.Blocks, into: dict[str, list[int]], name: str) -> Iterator[None]:
    """Record the events wired while the block runs (a tab's), under ``name``."""
    before = set(app.fns)
    yield
    into[name] = [i for i in app.fns if i not in before]


def _safe(location: str) -> str:
    """The store as the header names it: its file name (or a database URL without credentials); never a path on
    the server, which is no business of the people using the app."""
    from probe_ui.security.redact import public_location, public_paths

    where = public_location(location)
    return escape(public_paths(where) if "://" not in where else where)


__all__ = ["AppContext", "CSS", "JS", "build_app"]

#: names for the controls Gradio draws without one (WCAG 4.1.2 and 2.5.3, checked by axe-core in the browser tests):
#: a clickable picture gets its label's words, a gallery thumbnail the caption it shows; run again as the page changes
A11Y_JS = """() => {
  const name = () => {
    // an empty file or plot box is a picture of "nothing yet": its label needs a role that allows one
    document.querySelectorAll('div.empty[aria-label]:not([role])').forEach((d) => d.setAttribute('role', 'img'));
    document.querySelectorAll('.image-container button:not([aria-label])').forEach((b) => {
      if (b.innerText.trim()) return;
      const block = b.closest('[id]');
      const label = block && block.querySelector('[data-testid=block-label]');
      b.setAttribute('aria-label', (label && label.innerText.trim()) || 'the image');
    });
    document.querySelectorAll('button[aria-label^="Thumbnail "]').forEach((b) => {
      const shown = b.innerText.trim();
      if (shown && !b.getAttribute('aria-label').startsWith(shown)) {
        b.setAttribute('aria-label', `${shown}: ${b.getAttribute('aria-label')}`);
      }
    });
  };
  name();
  new MutationObserver(name).observe(document.body, {childList: true, subtree: true});
}"""
#: page scripts: a click beside the Probe tab's picture says so next to it; every control has a name; the keyboard's
#: path is short (probe_ui.app.keyboard)
JS = f"() => {{ ({probe_tab.CLICK_JS.strip()})(); ({A11Y_JS})(); ({keyboard.JS})(); }}"
