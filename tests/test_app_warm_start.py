"""The first click after the app starts does not pay for imports the app could do while starting."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

#: each test starts a clean interpreter that imports Gradio (seconds)
pytestmark = pytest.mark.slow


def test_gradio_s_backend_check_does_not_import_pyplot_after_the_app_set_matplotlib_up():
    """Gradio asks matplotlib for its backend around every event; with none chosen that imports pyplot and its
    fonts (about a second of CPU) on the first click. The app chooses the off-screen backend first (a user's own
    MPLBACKEND is kept)."""
    code = textwrap.dedent("""
        import sys
        from probe_ui.app.serve import headless_plots
        headless_plots()
        from gradio.utils import MatplotlibBackendMananger
        with MatplotlibBackendMananger():
            pass
        import matplotlib
        print(matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules)
    """)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["agg", "False"]
    keep = ("from probe_ui.app.serve import headless_plots; headless_plots(); import matplotlib; "
            "print(matplotlib.get_backend())")
    mine = subprocess.run([sys.executable, "-c", keep], env={**env, "MPLBACKEND": "svg"}, capture_output=True,
                          text=True, timeout=120)
    assert mine.stdout.split() == ["svg"], mine.stderr
