"""A real, throw-away PostgreSQL server for the tests, from the Debian binaries (package ``postgresql``).

It runs in a temporary folder with a unix socket only (no TCP port), as the ``postgres`` user when the tests
run as root (PostgreSQL refuses to run as root). The schema is migrated once into a template database; each
test gets a fresh database copied from it (fast) and dropped after it. The server is stopped and its folder
deleted when the session ends.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TEMPLATE = "boardgames_template"
SKIP_ENV = "BOARDGAMES_SKIP_POSTGRES"     # a developer without PostgreSQL may set it to 1 (CI never does)


class PostgresUnavailable(RuntimeError):
    pass


def binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise PostgresUnavailable(
            "PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin/initdb): install the Debian"
            f" package 'postgresql' (as .ci/run does), or set {SKIP_ENV}=1 to skip the PostgreSQL half of the tests")
    return Path(found[-1]).parent


class PostgresServer:
    def __init__(self) -> None:
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="boardgames-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:       # PostgreSQL will not run as root: run it as the postgres user
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self.started = False

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise PostgresUnavailable(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}{log}")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")
        options = (f"-k {self.root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
                   " -c full_page_writes=off -c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        self.started = True
        self.sql(f"CREATE DATABASE {TEMPLATE}")
        with ThreadPoolExecutor(1) as pool:       # its own event loop, away from the tests' loops
            pool.submit(asyncio.run, self._migrate_template()).result()

    async def _migrate_template(self) -> None:
        from bot.store import Database
        db = await Database.open(self.url(TEMPLATE))
        await db.close()

    def sql(self, statement: str) -> None:
        self._run(str(self.bin / "psql"), "-h", str(self.root), "-U", "postgres", "-d", "postgres",
                  "-v", "ON_ERROR_STOP=1", "-qc", statement)

    def new_database(self) -> tuple[str, str]:
        """A fresh migrated database: (name, URL)."""
        name = f"test_{next(self._names)}"
        self.sql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return name, self.url(name)

    def drop(self, name: str) -> None:
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self.started:
            subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                            "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)
