"""Where probe-ui keeps what it writes when told nothing else: ``probe-ui-data/`` in the working folder.

A module of its own, importing nothing heavy: ``probe-ui --help`` shows the default store without importing the
store (SQLAlchemy, pandas, Pillow), and the store opens the same default.
"""

from __future__ import annotations

from pathlib import Path

#: the folder every default below lives in, relative to the working folder
DATA_DIR = Path("probe-ui-data")
#: the store a command opens without ``--db`` or ``$PROBE_UI_DB``
DEFAULT_DB = DATA_DIR / "probe-ui.db"
