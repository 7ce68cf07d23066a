"""Extending probe-ui with one file per extension (docs/dev/extending.md): a perturbation, a provider, a metric
family, an export format and a tab, each written to its own file outside the source tree and named by
``PROBE_UI_PLUGINS``, show up in the CLI listings, the app, ``score`` and the export round trip; no file of the
project is edited.

The plugins' names start with ``plugin`` so that none is a name a recipe's example gives (``shout``, ``echo``,
``tsv``, ``notes``): an extension added in the source tree from a recipe, word for word, does not clash with them (a
plugin cannot replace an entry), and nothing here lists the built-in entries: each check is that the plugin's entry is
among the registry's."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui import registry
from probe_ui.cli import main

PLUGINS = {
    "shout.py": '''
        """A perturbation: the question in capitals."""
        from probe_ui.perturb.registry import register


        @register("plugin_shout", "Write the question in capital letters.", "unchanged")
        def plugin_shout(variant, rng):
            return variant.evolve(question=variant.question.upper())
    ''',
    "echo.py": '''
        """A provider: always the last option, and free."""
        from probe_ui.providers.base import Provider, register_provider
        from probe_ui.messages import Response


        @register_provider
        class EchoProvider(Provider):
            name = "plugin-echo"
            free = True
            ready_models = ("plugin-echo/last",)

            async def generate(self, request):
                return Response(text=request.labels[-1] if request.labels else "", input_tokens=0, output_tokens=0)
    ''',
    "shout_gap.py": '''
        """A metric family: accuracy lost when the question is shouted."""
        from probe_ui.metrics.registry import metric


        def _detect(d):
            return "condition shout" if (d["_cond"] == "shout").any() else None


        @metric("plugin_shout_gap", "clean", description="accuracy on originals minus accuracy when shouted",
                detect=_detect, headline=lambda block: {"gap": block["gap"]})
        def plugin_shout_gap(d, ctx):
            orig = float(d.loc[d["_cond"] == "original", "_c"].mean())
            loud = float(d.loc[d["_cond"] == "shout", "_c"].mean())
            return {"original": orig, "shout": loud, "gap": orig - loud}
    ''',
    "tsv.py": '''
        """An export format: tab-separated values, nested values as JSON."""
        import csv

        from probe_ui.export_formats.base import ExportFormat, flat, register_format


        @register_format
        class TSV(ExportFormat):
            name = "plugin-tsv"
            data_file = "data.tsv"
            order = 50
            lists_as_json = True

            def write(self, path, rows, columns):
                with path.open("w", encoding="utf-8", newline="") as f:
                    w = csv.writer(f, delimiter="\\t")
                    w.writerow(columns)
                    for row in rows:
                        cells = flat(row, columns, lists=False)
                        w.writerow(["" if cells[c] is None else cells[c] for c in columns])

            def read(self, path):
                with path.open(encoding="utf-8", newline="") as f:
                    rows = list(csv.DictReader(f, delimiter="\\t"))
                return [{k: (v if v != "" else None) for k, v in r.items()} for r in rows]

            def layout(self, by):
                return [f"- `{self.data_file}`: tab-separated values; lists and objects are JSON strings."]
    ''',
    "notes_tab.py": '''
        """A tab of the app."""
        from probe_ui.app.tabs import AppTab, register_tab


        def build(ctx, tab, built):
            import gradio as gr

            gr.Markdown("Notes about this server.", elem_id="plugin-notes-text")


        register_tab(AppTab("plugin_notes", "Plugin notes", order=60, right="read", build=build))
    ''',
}


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The five plugin files in one folder named by PROBE_UI_PLUGINS; unloaded afterwards."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    for name, text in PLUGINS.items():
        (folder / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    monkeypatch.setenv(registry.PLUGINS_ENV, str(folder))
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    registry.forget_plugins()
    try:
        yield folder
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV)
        registry.forget_plugins()


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_each_extension_is_listed_by_the_cli(plugins: Path, capsys: pytest.CaptureFixture[str]) -> None:
    perts = cli_json(capsys, "perturbations", "--format", "json")["perturbations"]
    assert "plugin_shout" in [p["name"] for p in perts]
    models = cli_json(capsys, "models", "--json")
    assert {"plugin-echo/<model>"} <= {m["name"] for m in models}
    assert next(m for m in models if m["name"] == "plugin-echo/<model>")["usable"]
    metrics = cli_json(capsys, "metrics", "--json")
    assert "plugin_shout_gap" in [m["name"] for m in metrics]
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "plugin-tsv" in capsys.readouterr().out


def test_the_app_shows_the_tab_and_offers_the_provider_and_perturbation(plugins: Path, tmp_path: Path) -> None:
    import gradio as gr

    from probe_ui.app.blocks import AppContext, build_app, tab_rights
    from probe_ui.app.tabs import app_tabs
    from probe_ui.store import Store

    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db)))
    blocks = list(app.blocks.values())
    tab_set = next(b for b in blocks if isinstance(b, gr.Tabs) and b.elem_id == "tabs")
    labels = [b.label for b in tab_set.children if isinstance(b, gr.Tab)]
    # every registered tab, in its order; the built-in ones keep theirs, and the plugin's is among them
    assert labels == [t.label for t in app_tabs()]
    built_in = ["Probe", "Stress", "Batch", "Results", "Models"]
    assert [label for label in labels if label in built_in] == built_in and "Plugin notes" in labels
    assert tab_rights()["plugin_notes"] == "read"
    assert any(getattr(b, "elem_id", None) == "plugin-notes-text" for b in blocks)

    def choices(elem_id: str) -> list[str]:
        block = next(b for b in blocks if getattr(b, "elem_id", None) == elem_id)
        return [c[1] if isinstance(c, tuple) else c for c in block.choices]

    assert "plugin_shout" in choices("probe-op")
    assert "plugin-echo/last" in choices("probe-models")
    provider = next(b for b in blocks if isinstance(b, gr.Dropdown) and b.label == "provider")
    assert "plugin-echo" in [c[1] if isinstance(c, tuple) else c for c in provider.choices]


def test_a_run_with_the_plugins_is_scored_and_exported_and_comes_back(plugins: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    write_png(tmp_path / "a.png", seed=1)
    write_png(tmp_path / "b.png", seed=2)
    preset = write_preset(tmp_path / "loud.yaml", [choice_item(1, "a.png", answer="A"),
                                                   choice_item(2, "b.png", answer="B")],
                          perturbations=[{"name": "shout", "steps": [{"op": "plugin_shout"}]}])
    db = str(tmp_path / "store.db")
    assert main(["batch", str(preset), "--db", db, "--run", "loud", "--model", "plugin-echo/last",
                 "--model", "baseline/first"]) == 0
    capsys.readouterr()

    report = cli_json(capsys, "score", "--db", db, "--run", "loud", "--json")
    echo = report["models"]["plugin-echo/last"]["paper"]
    assert echo["detected"]["plugin_shout_gap"] == "condition shout"
    # echo answers the last option: right on item 2 only, shouted or not
    assert echo["plugin_shout_gap"]["original"] == echo["plugin_shout_gap"]["shout"] == 0.5
    first = report["models"]["baseline/first"]["paper"]["plugin_shout_gap"]
    assert first["gap"] == 0.0 and first["original"] == 0.5

    out = tmp_path / "export"
    assert main(["export", "--db", db, "--run", "loud", "--format", "plugin-tsv", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "8 rows" in printed and f"read {out / 'data.tsv'}" in printed
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "`data.tsv`: tab-separated values" in card and "path: data.tsv" in card

    assert main(["import", "dataset", str(out), "--with-perturbations"]) == 0
    capsys.readouterr()
    from probe_ui.presets import load_preset

    back = load_preset(out / "preset.yaml")
    assert [i.id for i in back.items] == ["q1", "q2"]
    assert {(item, c.name, tuple(op for op, _ in c.steps)) for item, conds in back.item_conditions.items()
            for c in conds} == {("q1", "shout", ("plugin_shout",)), ("q2", "shout", ("plugin_shout",))}


def test_a_broken_plugin_is_named_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "broken.py"
    bad.write_text("raise RuntimeError('oops')\n", encoding="utf-8")
    monkeypatch.setenv(registry.PLUGINS_ENV, str(bad))
    registry.forget_plugins()
    try:
        with pytest.raises(registry.PluginError, match=r"broken\.py failed to load: RuntimeError: oops"):
            registry.load_plugins()
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV)
        registry.forget_plugins()


def test_a_plugin_cannot_replace_a_built_in_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clash = tmp_path / "clash.py"
    clash.write_text("from probe_ui.perturb.registry import register\n\n"
                     "@register('rotate', 'not the real rotate', 'unchanged')\n"
                     "def rotate(variant, rng):\n    return variant\n", encoding="utf-8")
    from probe_ui.perturb.registry import get

    assert get("rotate").fn.__module__ == "probe_ui.perturb.image"
    monkeypatch.setenv(registry.PLUGINS_ENV, str(clash))
    registry.forget_plugins()
    try:
        with pytest.raises(registry.PluginError, match="clash.py: perturbation 'rotate' is registered twice"):
            registry.load_plugins()
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV)
        registry.forget_plugins()
    assert get("rotate").fn.__module__ == "probe_ui.perturb.image"
