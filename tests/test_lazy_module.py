"""probe_ui.lazy: a module bound at import and imported on first use (issue 48's startup budgets)."""

from __future__ import annotations

import subprocess
import sys


def test_a_lazy_module_is_imported_on_first_attribute_and_behaves_as_the_module() -> None:
    code = ("import sys\n"
            "from probe_ui.lazy import lazy_module\n"
            "m = lazy_module('fractions')\n"
            "assert 'fractions' not in sys.modules, 'imported too early'\n"
            "assert str(m.Fraction(1, 3) + m.Fraction(1, 6)) == '1/2'\n"
            "assert 'fractions' in sys.modules\n"
            "try:\n"
            "    m.no_such_name\n"
            "except AttributeError as exc:\n"
            "    assert 'no_such_name' in str(exc)\n"
            "else:\n"
            "    raise SystemExit('a missing attribute was not an AttributeError')\n"
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_missing_module_is_named_when_first_used() -> None:
    from probe_ui.lazy import lazy_module

    m = lazy_module("probe_ui_no_such_module")
    try:
        m.anything
    except ModuleNotFoundError as exc:
        assert "probe_ui_no_such_module" in str(exc)
    else:
        raise AssertionError("no error for a missing module")
