"""Draw the README's example boards, one per game, into docs/boards/<game>.png.

    python tools/readme_boards.py

Each is a position of a seeded random game (the seed, player count, variant and turn below), drawn as the bot
posts it, with its last turn and made-up names; rerun after changing a renderer to refresh the README.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import GAMES  # noqa: E402
from render import board_png  # noqa: E402

NAMES = ["Alice", "Bob", "Chandra"]
BOARDS = {                      # game: (players, variant, seed, turns played)
    "tintas": (2, None, 4, 14),
    "rincala": (3, None, 3, 12),
    "roocala": (2, "hex", 3, 40),
    "quincala": (2, None, 3, 60),
    "spinca": (3, None, 3, 14),
}


def position(key: str, players: int, variant: str | None, seed: int, turns: int):
    """(state, the state before its last turn, the last turn's moves) after ``turns`` whole turns."""
    game, rng = GAMES[key], random.Random(seed)
    state = game.new(players=players, seed=seed, variant=variant)
    before, moves = state, []
    for _ in range(turns):
        if state.is_over:
            break
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            legal = state.legal_moves()
            move = rng.choice([m for m in legal if not state.play(m).is_over] or legal)
            moves.append(move)
            state = state.play(move)
    return state, before, moves


def main() -> None:
    out = ROOT / "docs" / "boards"
    out.mkdir(parents=True, exist_ok=True)
    for key, (players, variant, seed, turns) in BOARDS.items():
        state, before, moves = position(key, players, variant, seed, turns)
        png = board_png(state, last_turn=moves, names=NAMES[:players], previous=before)
        (out / f"{key}.png").write_bytes(png)
        print(f"docs/boards/{key}.png {len(png):,} bytes, last turn {' '.join(moves)}")


if __name__ == "__main__":
    main()
