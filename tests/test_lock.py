"""The locked versions (requirements/*.txt, made by `make lock`) satisfy every dependency pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def pins(lock: str) -> dict[str, str]:
    return {canonicalize_name(name): version for name, version in PIN.findall((ROOT / lock).read_text())}


def declared(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    if extra:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


@pytest.mark.parametrize(("lock", "extra"), [("requirements/bot.txt", None), ("requirements/dev.txt", "dev")])
def test_every_dependency_is_locked_at_a_version_it_allows(lock: str, extra: str | None) -> None:
    locked = pins(lock)
    for requirement in declared(extra):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement.name} is not in {lock}: run `make lock`"
        assert requirement.specifier.contains(locked[name], prereleases=True), \
            f"{lock} pins {name}=={locked[name]}, outside {requirement.specifier}: run `make lock`"


def test_the_bot_lock_holds_no_developer_tool() -> None:
    tools = {canonicalize_name(Requirement(r).name)
             for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]}
    assert not tools & set(pins("requirements/bot.txt")), "make run would install the developer tools"
