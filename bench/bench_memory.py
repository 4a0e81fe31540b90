"""The memory of the whole bot (its process and every process it started) and its first board after a start,
this tree against another git revision, one after the other in one run.

    python bench/bench_memory.py [--rev main] [--people 16] [--seconds 30] [--no-rev]

For each tree a fresh process runs the real bot as production builds it (``make_bot`` with its default
render and AI pools), with Discord replaced by the offline harness the tests use. It prints:

* first board after start: from the bot's start (its worker processes spawned then) until the first board
  of a match is posted; the match is challenged and accepted, and its first move sent, at once;
* PSS idle: a few seconds after that first board (one game drawn, nothing else played), the proportional
  set size (``/proc/<pid>/smaps_rollup``) summed over the bot's process and ALL its descendants (render
  workers, AI workers, the resource tracker), each process listed;
* PSS after play: ``--people`` people in pairs, the matches spread over all five games, play for
  ``--seconds`` (as ``bench_players.py``: each sends a turn from the autocomplete when it is their move), then
  the same sum;
* PSS with the AI up: the same tree once the AI pool's workers have started (they start with the first search
  and end after ``ai.pool.IDLE_END`` seconds without one: what the tree holds while someone plays the bot or
  asks for an analysis). A tree whose AI workers start with the bot shows the same figure twice.

PSS splits each shared page between the processes that map it, so the sum is what the tree really costs.
The bot's own process also holds the harness (a few MB), which a real gateway connection would hold instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUILD = 1000
SETTLE = 3.0            # seconds between the first board and the idle figure: workers finish starting


def pss_kb(pid: int) -> int:
    """The proportional set size of a process, in kB (0 if it has gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (children, their children...), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, []))
    return out


def label(pid: int) -> str:
    """A short name for a process of the tree: what its command line runs."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return "?"
    text = " ".join(argv)
    if "resource_tracker" in text:
        return "resource tracker"
    if "spawn_main" in text or "forkserver" in text:
        return "worker"
    return "bot"


def tree_pss() -> dict:
    """PSS of this process's tree: total MB and per process."""
    rows = [(pid, label(pid), pss_kb(pid)) for pid in descendants(os.getpid())]
    return {"total": sum(kb for *_, kb in rows) / 1024,
            "processes": [f"{name} {kb / 1024:.0f}" for _, name, kb in sorted(rows, key=lambda r: r[2], reverse=True)]}


async def child(people: int, seconds: float) -> dict:
    """Run the bot in this process and measure it (see the module's docstring)."""
    sys.path.insert(0, str(Path.cwd()))
    from bot.config import Config
    from bot.discord.client import make_bot
    from bot.services import Services
    from bot.store import Database
    from engines import GAMES
    from tests.bot.discord_harness import FakeDiscord

    games = list(GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bot.sqlite3")
        config = Config(token=None, database_path=Path(tmp) / "bot.sqlite3", dev_guild_id=None, log_level="WARNING")
        started = time.perf_counter()
        bot = make_bot(config, services=Services(db), sync_commands=False, run_background=True)
        figures: dict = {}
        async with FakeDiscord(bot, guild_id=GUILD, strict=False) as fake:
            figures["set_up_s"] = time.perf_counter() - started
            users = [fake.user(100 + i, f"P{i}") for i in range(people)]
            tables = []
            for i in range(0, people, 2):
                game, channel = games[(i // 2) % len(games)], 3000 + i
                fake.channel(channel, f"table-{i}")
                out = await fake.slash(users[i], f"{game} challenge", opponent=users[i + 1], time=3,
                                       channel_id=channel)
                card = next(s for s in out if s.kind == "channel_message")
                await fake.click(users[i + 1], card.button("Accept")["custom_id"], message=card)
                tables.append((game, channel))
                if i == 0:      # the first match: its first move at once, and the time to its board posted
                    await first_board(fake, users[:2], game, channel)
                    figures["first_board_s"] = time.perf_counter() - started
                    await asyncio.sleep(SETTLE)
                    figures["idle"] = tree_pss()
            stop = time.perf_counter() + seconds
            moves = [0]

            async def player(me: dict, game: str, channel: int, rng: random.Random) -> None:
                while time.perf_counter() < stop:
                    choices = await fake.autocomplete(me, f"{game} move", "move", move="", channel_id=channel)
                    name = choices[0]["name"] if choices else ""
                    if "over" in name:
                        return
                    if not choices or "Not your turn" in name:
                        await asyncio.sleep(0.25)
                        continue
                    await asyncio.sleep(rng.uniform(0.05, 0.3))
                    turn = await whole_turn(fake, me, game, channel, choices, rng)
                    if not turn:
                        continue
                    await fake.slash(me, f"{game} move", move=turn, channel_id=channel)
                    moves[0] += 1
                    fake.requests.clear()       # the harness keeps every request; Discord would not
                    fake.sent.clear()
                    fake._attachments.clear()
            await asyncio.gather(*(player(u, *tables[i // 2], random.Random(i)) for i, u in enumerate(users)))
            figures["played"] = tree_pss()
            figures["moves"] = moves[0]
            pool = bot.ai.pool
            if pool is not None and hasattr(pool, "ready"):
                await pool.ready()
            figures["ai_up"] = tree_pss()
            await bot.close()
        return figures


async def whole_turn(fake, me: dict, game: str, channel: int, choices: list[dict], rng: random.Random) -> str:
    """A turn picked at random from the move autocomplete, following its narrowing groups ('e2… (3 moves)',
    whose value is the start to type) down to whole turns; "" when the list ran dry (the match moved on)."""
    for _ in range(10):
        if not choices:
            return ""
        choice = rng.choice(choices)
        if not choice["name"].startswith(choice["value"] + "…"):
            return choice["value"]
        choices = await fake.autocomplete(me, f"{game} move", "move", move=choice["value"], channel_id=channel)
    return ""


async def first_board(fake, pair: list[dict], game: str, channel: int) -> None:
    """Whoever is to move plays the first legal turn; returns once its board is posted."""
    while True:
        for me in pair:
            choices = await fake.autocomplete(me, f"{game} move", "move", move="", channel_id=channel)
            if choices and "Not your turn" not in choices[0]["name"]:
                turn = await whole_turn(fake, me, game, channel, choices, random.Random(0))
                out = await fake.slash(me, f"{game} move", move=turn, channel_id=channel)
                if any(s.kind == "channel_message" and s.files for s in out):
                    return
        await asyncio.sleep(0.01)


def measure(tree: Path, people: int, seconds: float) -> dict:
    """Run the bench's child mode in ``tree`` (a fresh process, its code from that tree).

    The child's main module is a ``-c`` command, as the bot's is ``python -m bot``: a worker started with "spawn"
    imports its parent's main module first unless it is a package's ``__main__`` or a command, so a child run as
    a script would have every worker import this bench (asyncio and all: a few MB each) where the bot's import
    nothing."""
    script = Path(__file__).resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = f"import sys; sys.path.insert(0, {str(script.parent)!r}); import bench_memory; bench_memory.main()"
    done = subprocess.run([sys.executable, "-c", command, "--child", "--people", str(people), "--seconds",
                           str(seconds)], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the bench failed in {tree}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def show(name: str, figures: dict) -> None:
    print(f"{name:<14} first board after start {figures['first_board_s']:5.2f} s "
          f"(set-up {figures['set_up_s']:.2f} s) | "
          f"PSS idle {figures['idle']['total']:4.0f} MB | after {figures['moves']} moves "
          f"{figures['played']['total']:4.0f} MB")
    print(f"{'':<14} idle:  {', '.join(figures['idle']['processes'])}")
    print(f"{'':<14} after: {', '.join(figures['played']['processes'])}")
    if "ai_up" in figures:
        up = figures["ai_up"]
        print(f"{'':<14} with the AI up {up['total']:4.0f} MB: {', '.join(up['processes'])}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", default="main", help="the revision to compare with")
    ap.add_argument("--no-rev", action="store_true", help="measure this tree only")
    ap.add_argument("--people", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.people, args.seconds))))
        return
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.people} people in "
          f"{args.people // 2} matches over all five games, {args.seconds:.0f} s; PSS summed over the bot's whole "
          f"process tree")
    show("this tree", measure(ROOT, args.people, args.seconds))
    if args.no_rev:
        return
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "rev"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), args.rev], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            show(args.rev, measure(other, args.people, args.seconds))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    main()
