"""``python -m probe_ui`` is the same as the ``probe-ui`` command."""

from probe_ui.cli import run

run()
