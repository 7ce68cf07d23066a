"""``python -m probe_ui`` is the same as the ``probe-ui`` command."""

import sys

from probe_ui.cli import main

sys.exit(main())
