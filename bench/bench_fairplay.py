"""Fair play's cost and reach: what refusing analysis near running rated matches costs, and how far a turn reaches.

    python bench/bench_fairplay.py [--matches 100] [--samples 40]

Per game, ``--matches`` running rated matches (positions from random games at random plies) are checked against
one unrelated position: the first check lists every match's turn (cold), the second finds them kept (warm); the
ms of each and the most positions one turn listed are printed. For Quincala (compared by nearness, ``turn_reach``)
it prints the most key fields one whole turn changed over ``--samples`` positions (long random turns that rarely
stop early, and the positions between their moves), and the share of positions of other random games that fall
within ``turn_reach`` of a running one (analyses refused although not within one turn). Engine work only: the
database read of the running matches is one indexed SELECT.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.context import Context  # noqa: E402
from bot.services.fairplay import FairPlay  # noqa: E402
from engines import GAMES, State  # noqa: E402
from engines.base import key_distance, turn_positions  # noqa: E402


def random_position(key: str, rng: random.Random, plies: int) -> State:
    """A running position ``plies`` random moves into a random game (fewer if every try ends sooner)."""
    game = GAMES[key]
    while True:
        state = game.new(players=min(game.player_counts), seed=rng.randrange(1 << 30))
        for _ in range(plies):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                break
        if not state.is_over:
            return state
        plies = plies * 3 // 4


def long_turn(state: State, rng: random.Random) -> list[State]:
    """A random whole turn that ends its optional continuations late: the positions after each of its moves."""
    seat, out = state.to_move, []
    while not state.is_over and state.to_move == seat:
        legal = state.legal_moves()
        going_on = [m for m in legal if m not in ("end", "pass")]
        state = state.play(rng.choice(going_on if going_on and rng.random() < 0.9 else legal))
        out.append(state)
    return out


def costs(key: str, matches: int, rng: random.Random) -> None:
    running = [(i, 0, random_position(key, rng, rng.randrange(2, 80)).encode()) for i in range(1, matches + 1)]
    probe = random_position(key, rng, 60)
    fairplay = FairPlay(Context(db=None))  # type: ignore[arg-type]   # no database: engine work only
    started = time.perf_counter()
    refused = fairplay.near_rated_play(probe, running)
    cold = time.perf_counter() - started
    turns = fairplay.listed
    started = time.perf_counter()
    fairplay.near_rated_play(probe, running)
    warm = time.perf_counter() - started
    widest = 0
    if GAMES[key].turn_reach is None:
        for _, _, code in running[:20]:
            listed = turn_positions(GAMES[key].decode(code), fairplay.limit)
            widest = max(widest, len(listed) if listed is not None else fairplay.limit + 1)
    print(f"{key:9} {matches} running: cold {cold * 1000:8.1f} ms ({cold * 1000 / matches:6.2f} ms/match), "
          f"warm {warm * 1000:7.1f} ms; {turns} turns listed, widest of 20: {widest or '-'} positions"
          f"{' (probe refused)' if refused else ''}")


def reach(samples: int, rng: random.Random) -> None:
    game = GAMES["quincala"]
    assert game.turn_reach is not None
    most = 0
    positions = [random_position("quincala", rng, rng.randrange(0, 200)) for _ in range(samples)]
    for state in positions:
        key = state.position_key()
        for _ in range(20):
            for after in long_turn(state, rng):
                distance = key_distance(key, after.position_key())
                most = max(most, distance if distance is not None else 0)
    others = [random_position("quincala", rng, rng.randrange(0, 200)) for _ in range(samples)]
    near = sum(1 for a in others for b in positions
               if (d := key_distance(a.position_key(), b.position_key())) is not None and d <= game.turn_reach)
    pairs = sum(1 for a in others for b in positions if key_distance(a.position_key(), b.position_key()) is not None)
    print(f"quincala  turn_reach {game.turn_reach}: most fields one turn changed {most} "
          f"({samples} positions x 20 long turns); other games' positions within reach: {near} of {pairs} "
          f"comparable pairs ({100 * near / max(pairs, 1):.1f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}")
    rng = random.Random(args.seed)
    for key in GAMES:
        costs(key, args.matches, rng)
    reach(args.samples, rng)


if __name__ == "__main__":
    main()
