"""The page's keyboard path: fewer keys from an empty page to an opened answer, and no menu left open behind the focus.

Measured on the Probe tab (issue 51, U35): the common path (tick a model, pick an image, type a question and its
options, Run, open an answer) took 101 Tab presses at 1440 x 900, 121 with a correct answer. Three things cost most:
- every thumbnail of the bundled images was a stop of its own (13 of them between the gallery and the question);
- from the options back up to Run, Tab went through the rest of the page and round again;
- a dropdown reached with Tab opened its menu, and Tab out of it left the menu open over the fields below (and
  sent the focus to the page itself, one more Tab).

So: the gallery is one stop (arrow keys move between its pictures, as in a toolbar); Ctrl+Enter (or Cmd+Enter) in
the Probe tab presses Run, as in a chat box, and Run's tooltip says so; and Tab (or Shift+Tab) in a dropdown's field
closes its menu (Escape, as Gradio's own menus close) and moves to the next field itself.
"""

from __future__ import annotations

#: Run's tooltip, so that the shortcut is found where the button is
RUN_TITLE = "Ask the ticked models (Ctrl+Enter from anywhere in the Probe tab)"

JS = """() => {
  // the Probe tab's panel: Ctrl+Enter anywhere in it presses Run
  const inProbe = (el) => {
    const run = document.querySelector('#probe-run');
    const panel = run && (run.closest('[role=tabpanel]') || document.body);
    return !!(panel && el && panel.contains(el));
  };
  // the gallery as one stop: only one picture takes the focus from Tab; the arrow keys move between them
  const rove = (all, on) => all.forEach((b) => b.setAttribute('tabindex', b === on ? '0' : '-1'));
  document.addEventListener('keydown', (e) => {
    const el = document.activeElement;
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && inProbe(el)) {
      e.preventDefault();
      if (el && el.blur) el.blur();  // a field being typed in hands its value over first
      setTimeout(() => document.querySelector('#probe-run')?.click(), 50);
    }
    if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && el && el.closest && el.closest('#probe-gallery')) {
      const all = [...document.querySelectorAll('#probe-gallery button.thumbnail-item')];
      const k = all.indexOf(el.closest('button.thumbnail-item'));
      if (k >= 0) {
        const next = all[(k + (e.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length];
        e.preventDefault(); rove(all, next); next.focus();
      }
    }
  }, true);
  // Tab out of a dropdown's field goes to the next field itself: left to the browser, it landed on the open menu
  // (a scrolling box), then on the page itself as the menu closed, and Gradio opened the menu again on the Tab
  // it heard late, so the menu stayed open over the fields below
  const TABBABLE = 'a[href], button, input, textarea, select, summary, [tabindex]';
  const tabbable = () => [...document.querySelectorAll(TABBABLE)].filter((el) => !el.disabled &&
    el.tabIndex >= 0 && !el.closest('[role=listbox]') && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden');
  document.addEventListener('keydown', (e) => {
    const box = document.activeElement;
    if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey || !box || !box.matches ||
        !box.matches('input[role=combobox]')) return;
    const all = tabbable();
    const k = all.indexOf(box);
    const next = k < 0 ? null : all[k + (e.shiftKey ? -1 : 1)];
    if (!next) return;
    e.preventDefault(); e.stopPropagation();
    box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
    next.focus();
  }, true);
  const fix = () => {
    const all = [...document.querySelectorAll('#probe-gallery button.thumbnail-item')];
    if (all.length && !all.some((b) => b.dataset.puRove)) {
      rove(all, all[0]); all.forEach((b) => { b.dataset.puRove = '1'; });
    }
    const run = document.querySelector('#probe-run');
    if (run && !run.title) run.title = '%(title)s';

  };
  fix();
  new MutationObserver(fix).observe(document.body, {childList: true, subtree: true});
}""".replace("%(title)s", RUN_TITLE)
