"""The engines' users (render/ and ai/) reach them through public names only: no ``_x`` import from engines,
no ``obj._x`` attribute of anything but their own ``self``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for package in ("render", "ai") for p in (ROOT / package).rglob("*.py"))


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_public_engine_names(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engines":
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if private(a.name)]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"line {node.lineno}: reads {ast.unparse(node)}")
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)
