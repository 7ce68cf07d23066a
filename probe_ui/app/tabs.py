"""The app's tabs, registered: a tab is one module that registers an :class:`AppTab` (its id, label, order, the
right its events need, and how to build it). ``blocks.build_app`` lays out every registered tab in order; the tab
modules are found by walking :mod:`probe_ui.app`, and plugins by ``PROBE_UI_PLUGINS`` (:mod:`probe_ui.registry`).

Add a tab with one file::

    from probe_ui.app.tabs import AppTab, register_tab

    def build(ctx, tab, built):
        import gradio as gr
        gr.Markdown("...")

    register_tab(AppTab("notes", "Notes", order=60, right="read", build=build))

``built`` holds what the tabs laid out before returned, by id (the Stress tab reuses the Probe tab's form).
This module does not import Gradio.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from probe_ui.registry import Registry

if TYPE_CHECKING:
    from probe_ui.app.context import AppContext


@dataclass(frozen=True)
class AppTab:
    """One tab of the app. ``right``: what a role needs to use its events (:data:`probe_ui.security.users.RIGHTS`, e.g.
    "probe" or "read"); ``build(ctx, tab, built)`` lays it out inside the ``gr.Tab`` and may return components
    that other tabs or the page use."""

    id: str
    label: str
    order: int
    right: str
    build: Callable[["AppContext", Any, dict[str, Any]], Any]


#: every tab: the modules of :mod:`probe_ui.app` and plugins
TABS: Registry[AppTab] = Registry("tab", packages=("probe_ui.app",), key="id")


def register_tab(tab: AppTab) -> AppTab:
    """Register a tab under its ``id`` (:meth:`Registry.put`)."""
    return TABS.put(tab)  # type: ignore[no-any-return]


def app_tabs() -> list[AppTab]:
    """Every registered tab, in the order the page shows them."""
    return sorted(TABS.entries(), key=lambda t: (t.order, t.id))


__all__ = ["AppTab", "TABS", "app_tabs", "register_tab"]
