"""The Gradio app: one module per tab (each registers an ``AppTab``, :mod:`probe_ui.app.tabs`; the page shows them in
their ``order``), assembled in ``blocks.build_app`` and started by ``serve.launch``. Every callback calls a library
function (``probe_ui.live``, ``probe_ui.views.results``, ``probe_ui.stress``, ``probe_ui.catalogue.endpoints``,
``probe_ui.runner``). Importing this package does not import Gradio, so the command line stays fast."""

#: where the app listens unless told otherwise (here, not in :mod:`probe_ui.app.serve`: every command's parser reads
#: them, and importing the server's module costs a tenth of a second)
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7860
#: uploads over this are refused in the browser before they are sent (the loader has its own, larger limits)
DEFAULT_MAX_UPLOAD_MB = 100
