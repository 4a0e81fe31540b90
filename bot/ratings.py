"""Ratings per server and per game with openskill's Plackett-Luce model.

Why openskill: it is maintained, rates any number of players, teams and ties in one call (Tintas and
Roocala are two-player, Rincala has shared wins among two or three, Spinca has two-against-two), and its
numbers are reproducible, so a rebuild from the match log gives exactly the live ratings. Ratings are
applied in the order of ``rating_changes.seq``; a rebuild replays the finished rated matches in that order.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store.db import Database
from bot.store.matches import MatchRow
from engines import GAMES

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 5          # fewer rated games than this: the rating is marked provisional ("?")
DISPLAY_SCALE = 60             # displayed rating = mu × 60: a newcomer shows 1500


def display(mu: float) -> int:
    return round(mu * DISPLAY_SCALE)


@dataclass(frozen=True)
class Rating:
    user_id: int
    game: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def shown(self) -> int:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def label(self) -> str:
        return f"{self.shown}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    mu_before: float
    mu_after: float
    outcome: str

    @property
    def delta(self) -> int:
        return display(self.mu_after) - display(self.mu_before)


def outcomes(players: int, winners: tuple[int, ...]) -> list[str]:
    """'win' / 'loss' / 'draw' per seat: everyone among the winners is a draw."""
    if len(winners) == players:
        return ["draw"] * players
    return ["win" if s in winners else "loss" for s in range(players)]


class Ratings:
    def __init__(self, db: Database):
        self.db = db

    async def record(self, match) -> list[RatingChange]:
        """Rate a finished match once (a second call returns the stored changes)."""
        if not match.row.rated:
            return []
        async with self.db.transaction() as conn:
            done = await (await conn.execute("SELECT 1 FROM rating_changes WHERE match_id = ?",
                                             (match.id,))).fetchone()
            if done is None:
                await self._apply(conn, match.row, [(p.seat, p.user_id) for p in match.seated])
        return await self.changes(match.id)

    async def changes(self, match_id: int) -> list[RatingChange]:
        rows = await self.db.fetchall(
            "SELECT user_id, mu_before, mu_after, outcome FROM rating_changes WHERE match_id = ? ORDER BY seq",
            (match_id,))
        return [RatingChange(*r) for r in rows]

    async def rebuild(self, guild_id: int | None = None) -> int:
        """Recompute every rating from the finished rated matches, in the order they were first rated."""
        where = "" if guild_id is None else " AND m.guild_id = ?"
        params = () if guild_id is None else (guild_id,)
        async with self.db.transaction() as conn:
            rows = await (await conn.execute(
                "SELECT m.id FROM matches m LEFT JOIN (SELECT match_id, MIN(seq) s FROM rating_changes"
                " GROUP BY match_id) c ON c.match_id = m.id WHERE m.status = 'finished'"
                f" AND m.time_per_move IS NOT NULL{where}"
                " ORDER BY c.s IS NULL, c.s, m.finished_at, m.id", params)).fetchall()
            ids = [r[0] for r in rows]
            scope = "" if guild_id is None else " WHERE guild_id = ?"
            await conn.execute(f"DELETE FROM ratings{scope}", params)
            await conn.execute("DELETE FROM rating_changes WHERE match_id IN"
                               f" (SELECT id FROM matches{scope})", params)
            for match_id in ids:
                row = MatchRow.from_row(await (await conn.execute("SELECT * FROM matches WHERE id = ?",
                                                                  (match_id,))).fetchone())
                seats = await (await conn.execute(
                    "SELECT seat, user_id FROM participants WHERE match_id = ? AND seat IS NOT NULL ORDER BY seat",
                    (match_id,))).fetchall()
                await self._apply(conn, row, [tuple(s) for s in seats])
        return len(ids)

    async def _apply(self, conn, row, seats: list[tuple[int, int]]) -> None:
        """Rate one match inside the caller's transaction."""
        game = GAMES[row.game]
        user_at = dict(seats)
        current = {}
        for _, uid in seats:
            r = await (await conn.execute(
                "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                (row.guild_id, row.game, uid))).fetchone()
            current[uid] = MODEL.rating(mu=r[0], sigma=r[1]) if r else MODEL.rating()
        teams = game.teams.get(row.players) or tuple((s,) for s in range(row.players))
        ranks = row.ranks or tuple(1 if s in row.winners else 2 for s in range(row.players))
        rated = MODEL.rate([[current[user_at[s]] for s in team] for team in teams],
                           ranks=[ranks[team[0]] for team in teams])
        result = outcomes(row.players, row.winners)
        for team, new in zip(teams, rated, strict=True):
            for seat, after in zip(team, new, strict=True):
                uid, before = user_at[seat], current[user_at[seat]]
                outcome = result[seat]
                await conn.execute(
                    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, losses, draws)"
                    " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins,"
                    " losses = losses + excluded.losses, draws = draws + excluded.draws",
                    (row.guild_id, row.game, uid, after.mu, after.sigma, int(outcome == "win"),
                     int(outcome == "loss"), int(outcome == "draw")))
                await conn.execute(
                    "INSERT INTO rating_changes (match_id, user_id, mu_before, sigma_before, mu_after, sigma_after,"
                    " outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (row.id, uid, before.mu, before.sigma, after.mu, after.sigma, outcome))

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> tuple[list[Rating], int]:
        rows = await self.db.fetchall(
            "SELECT user_id, game, mu, sigma, games, wins, losses, draws FROM ratings WHERE guild_id = ? AND game = ?"
            " ORDER BY mu DESC, games DESC, user_id LIMIT ? OFFSET ?", (guild_id, game, limit, offset))
        total = (await self.db.fetchone("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?",
                                        (guild_id, game)))[0]
        return [Rating(*r) for r in rows], total

    async def of_user(self, guild_id: int, user_id: int) -> list[Rating]:
        rows = await self.db.fetchall(
            "SELECT user_id, game, mu, sigma, games, wins, losses, draws FROM ratings"
            " WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return [Rating(*r) for r in rows]

    async def snapshot(self) -> list[tuple]:
        """Every rating row, for comparing a rebuild with the live numbers."""
        return [tuple(r) for r in await self.db.fetchall(
            "SELECT guild_id, game, user_id, mu, sigma, games, wins, losses, draws FROM ratings"
            " ORDER BY guild_id, game, user_id")]
