"""The Gradio app: one module per tab (probe_tab, stress_tab, batch_tab, results_tab, models_tab), assembled in
``blocks.build_app`` and started by ``serve.launch``. Every callback calls a library function (``probe_ui.live``,
``probe_ui.results``, ``probe_ui.stress``, ``probe_ui.endpoints``, ``probe_ui.runner``). Importing this package does
not import Gradio, so the command line stays fast."""
