"""The shared contract checker (../shared/tools/contract_check.py) passes for every registered game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT.parent / "shared" / "tools" / "contract_check.py"


def test_contract_check_passes_for_every_registered_game():
    assert CHECKER.exists(), "the project expects ../shared beside its checkout (as CI has it)"
    done = subprocess.run([sys.executable, str(CHECKER), "--games", "3", "--seconds", "40"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    from engines import GAMES
    for key in GAMES:
        assert f"{key}: ok" in done.stdout
