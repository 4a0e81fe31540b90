"""docs/rules/ holds the rules exactly as bot/texts/en/ (and so `/<game> rules` in English) states them today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bot import gametexts
from engines import GAMES

ROOT = Path(__file__).resolve().parents[1]
TOOL_PATH = ROOT / "tools" / "write_rules_docs.py"
RUN = "run `python tools/write_rules_docs.py` and commit docs/rules/"


def load_tool():
    spec = importlib.util.spec_from_file_location("write_rules_docs", TOOL_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()


@pytest.mark.parametrize("key", list(GAMES))
def test_rules_doc_matches_the_english_rules(key):
    path = ROOT / "docs" / "rules" / f"{key}.md"
    assert path.exists(), f"docs/rules/{key}.md is missing: {RUN}"
    assert gametexts.rules(key, "en"), f"{key}: bot/texts/en/{key}/rules.md is empty"
    assert path.read_text(encoding="utf-8") == tool.rules_doc(key), (
        f"docs/rules/{key}.md differs from bot/texts/en/{key}/rules.md: {RUN}")


def test_rules_index_lists_every_game():
    path = ROOT / "docs" / "rules" / "README.md"
    assert path.exists(), f"docs/rules/README.md is missing: {RUN}"
    text = path.read_text(encoding="utf-8")
    for key, game in GAMES.items():
        assert f"]({key}.md)" in text and game.title in text, f"docs/rules/README.md does not list {key}: {RUN}"
    assert text == tool.index_doc(), f"docs/rules/README.md is out of date: {RUN}"


def test_no_stray_rules_docs():
    written = {path.name for path in tool.expected_files()}
    present = {path.name for path in (ROOT / "docs" / "rules").glob("*.md")}
    assert present <= written, f"docs/rules/ holds files for no registered game: {sorted(present - written)}"
