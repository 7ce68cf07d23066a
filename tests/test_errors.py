"""One base class for user-facing errors (probe_ui.errors), and what the CLI and the app do with the rest.

A ProbeUIError's message is shown as it is (one line, keys masked); any other exception is a bug: the CLI says so
in one line and points to --debug, the app logs the traceback once and shows a short generic message.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import pkgutil

import gradio as gr
import pytest

import probe_ui
from probe_ui.app.common import shows_errors
from probe_ui.cli import main
from probe_ui.errors import ProbeUIError
from probe_ui.live import ProbeError
from probe_ui.presets import PresetError
from probe_ui.providers.base import ProviderError


def _modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(probe_ui.__path__, "probe_ui.")
            if not m.name.endswith("__main__")]


def test_every_public_error_class_derives_from_the_base() -> None:
    found = []
    for name in _modules():
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == name
                    and attr.endswith("Error") and not attr.startswith("_")):
                found.append(obj)
                assert issubclass(obj, ProbeUIError), f"{name}.{attr} does not derive from ProbeUIError"
    assert len(found) >= 20
    assert issubclass(PresetError, ValueError) and issubclass(ProviderError, RuntimeError)  # second bases kept


def test_the_cli_shows_a_user_error_as_one_line(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    def boom(args: object) -> int:
        raise PresetError("presets/x.yaml: item 3 ('ct-1'): field 'answer': not one of the options")

    monkeypatch.setattr("probe_ui.cli.listings.cmd_models", boom)
    assert main(["models"]) == 1
    assert capsys.readouterr().err == \
        "error: presets/x.yaml: item 3 ('ct-1'): field 'answer': not one of the options\n"


def test_the_cli_calls_an_unexpected_exception_a_bug(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A KeyError is not a message for the user: one line that says it is a bug, the traceback with --debug."""
    def boom(args: object) -> int:
        raise KeyError("models")

    monkeypatch.setattr("probe_ui.cli.listings.cmd_models", boom)
    assert main(["models"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: unexpected KeyError: 'models'")
    assert "--debug" in err and "Traceback" not in err
    with pytest.raises(KeyError):
        main(["--debug", "models"])


def test_every_log_line_is_redacted(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    key = "sk-logged-by-accident-0123456789"
    monkeypatch.setenv("SOME_SERVICE_API_KEY", key)

    def boom(args: object) -> int:
        logging.getLogger("probe_ui.somewhere").warning("calling https://u:pw@h/v1?key=%s with %s", key, key)
        raise ProviderError(f"m: HTTP 401: bad key {key}")

    monkeypatch.setattr("probe_ui.cli.listings.cmd_models", boom)
    assert main(["models"]) == 1
    err = capsys.readouterr().err
    assert key[:12] not in err and "pw" not in err
    assert err.splitlines() == ["warning: calling https://h/v1 with ***", "error: m: HTTP 401: bad key ***"]


def test_the_app_shows_user_errors_and_logs_bugs_once(monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    key = "sk-typed-and-echoed-0123456789"
    monkeypatch.setenv("SOME_SERVICE_API_KEY", key)

    @shows_errors
    def asked_wrongly() -> None:
        raise ProbeError(f"choose a run to export (the server said: bad key {key})")

    @shows_errors
    def buggy() -> None:
        return {}["missing"]

    @shows_errors
    def streams() -> object:
        yield 1
        raise OSError("disk on fire")

    with pytest.raises(gr.Error) as info:
        asked_wrongly()
    assert info.value.message == "choose a run to export (the server said: bad key ***)"
    with caplog.at_level(logging.INFO, logger="probe_ui.app"):
        with pytest.raises(gr.Error) as info:
            buggy()
    assert "KeyError" in info.value.message and "missing" not in info.value.message and "log" in info.value.message
    bugs = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(bugs) == 1 and "Traceback" in caplog.text  # the traceback once, in the log
    with pytest.raises(gr.Error) as info:
        list(streams())
    assert "OSError" in info.value.message and "disk on fire" not in info.value.message  # a bug, not a message
