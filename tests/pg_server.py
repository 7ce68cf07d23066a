"""A throwaway PostgreSQL server for the tests: Debian's postgresql binaries, a fresh cluster in a temporary folder,
listening on a free loopback port. Skips when PostgreSQL is not installed (fails under CI=true: .ci/run installs it);
the server is stopped and its folder removed whatever happens."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_server import free_port
from helpers import require


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the 'postgres' user when we are root."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    bindir = pg_bin()
    require(bindir is not None, "PostgreSQL", "apt-get install postgresql")
    assert bindir is not None
    root = Path(tempfile.mkdtemp(prefix="probe-ui-pg-"))
    data, sock = root / "data", root / "sock"
    started = False
    try:
        sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(root, "postgres")
            shutil.chown(sock, "postgres")
        port = free_port()
        subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "probe", "--auth=trust",
                                     "--no-sync", "-E", "UTF8"]), check=True, capture_output=True)
        opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        started = True  # from here on a server may be running, even if pg_ctl reports a failure
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(root / "log"),
                                     "-w", "-t", "60", "start"]), check=True, capture_output=True)
        subprocess.run(_as_postgres([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "probe",
                                     "probe"]), check=True, capture_output=True)
        yield f"postgresql://probe@127.0.0.1:{port}/probe"
    finally:
        if started:
            subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "-t",
                                         "30", "stop"]), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_db(postgres_url: str) -> Iterator[str]:
    """A fresh, empty database on the session's server for one test."""
    import sqlalchemy as sa

    from probe_ui.store import database_url

    name = f"t{os.getpid()}_{time.monotonic_ns()}"
    admin = sa.create_engine(database_url(postgres_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = postgres_url.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
