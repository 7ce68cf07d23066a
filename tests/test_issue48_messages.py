"""Issue 48's messages: each one line naming what to fix."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.helpers import run_cli


def test_a_port_in_use_is_one_line_naming_it_and_port_and_says_nothing_of_serving(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--port", str(port), "--db", str(tmp_path / "s.db"))
    assert code != 0
    assert "serving" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert f"port {port}" in lines[0] and "--port" in lines[0] and "in use" in lines[0]
