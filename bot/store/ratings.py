"""The ratings tables: current ratings per server, game and player, and every change, in order.

``apply`` rates one finished match inside the caller's transaction (the one that finished it), so a
result is never stored without its rating. A rebuild replays the rated matches in the order they were
first rated, in batches, so it never holds the database for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.ratings import MODEL, Rating, outcomes, rate
from bot.store.db import Database, Tx
from bot.store.rows import MatchRow, RatingChange
from engines import GAMES

REBUILD_BATCH = 200      # matches rated per transaction in a rebuild
REBUILD_PAUSE = 0.005    # seconds between batches, so writers waiting on the database get in


class RatingStore:
    def __init__(self, db: Database):
        self.db = db

    async def apply(self, tx: Tx, row: MatchRow, seats: list[tuple[int, int]]) -> list[RatingChange]:
        """Rate one finished match (``seats`` is (seat, user id)); nothing if it is unrated or rated already."""
        if not row.rated:
            return []
        # a rating is read, then written: two matches of one player finishing at once must not lose one change
        await tx.serialize(f"ratings:{row.guild_id}:{row.game}")
        if await tx.fetchone("SELECT 1 FROM rating_changes WHERE match_id = ? LIMIT 1", (row.id,)) is not None:
            return []
        user_at = dict(seats)
        current: dict[int, tuple[float, float] | None] = {}
        for seat, uid in seats:
            r = await tx.fetchone("SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                                  (row.guild_id, row.game, uid))
            current[seat] = (r[0], r[1]) if r else None
        teams = GAMES[row.game].teams.get(row.players) or tuple((s,) for s in range(row.players))
        ranks = row.ranks or tuple(1 if s in row.winners else 2 for s in range(row.players))
        after = rate(teams, ranks, current)
        result = outcomes(row.players, row.winners)
        changes = []
        for seat in sorted(after):
            uid, outcome = user_at[seat], result[seat]
            mu, sigma = after[seat]
            before = current[seat] or rate_newcomer()
            await tx.execute(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, losses, draws)"
                " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1,"
                " wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses,"
                " draws = ratings.draws + excluded.draws",
                (row.guild_id, row.game, uid, mu, sigma, int(outcome == "win"), int(outcome == "loss"),
                 int(outcome == "draw")))
            await tx.execute(
                "INSERT INTO rating_changes (match_id, user_id, mu_before, sigma_before, mu_after, sigma_after,"
                " outcome) VALUES (?, ?, ?, ?, ?, ?, ?)", (row.id, uid, before[0], before[1], mu, sigma, outcome))
            changes.append(RatingChange(uid, before[0], mu, outcome))
        return changes

    async def changes(self, match_id: int) -> list[RatingChange]:
        rows = await self.db.fetchall(
            "SELECT user_id, mu_before, mu_after, outcome FROM rating_changes WHERE match_id = ? ORDER BY seq",
            (match_id,))
        return [RatingChange(*r) for r in rows]

    async def rebuild(self, guild_id: int | None = None, *, batch: int = REBUILD_BATCH,
                      progress: Callable[[int, int], Awaitable[None]] | None = None) -> int:
        """Recompute every rating from the finished rated matches, in the order they were first rated.

        The order is read first; then the old numbers are cleared and the matches rated again ``batch`` at a
        time, each batch its own short transaction with a pause after it, so other writers (another process
        included) wait at most one batch. ``progress(done, total)`` is awaited after each batch.
        """
        where = "" if guild_id is None else " AND m.guild_id = ?"
        params: tuple = () if guild_id is None else (guild_id,)
        rows = await self.db.fetchall(
            "SELECT m.id FROM matches m LEFT JOIN (SELECT match_id, MIN(seq) s FROM rating_changes"
            " GROUP BY match_id) c ON c.match_id = m.id WHERE m.status = 'finished'"
            f" AND m.time_per_move IS NOT NULL{where} ORDER BY c.s IS NULL, c.s, m.finished_at, m.id", params)
        ids = [r[0] for r in rows]
        scope = "" if guild_id is None else " WHERE guild_id = ?"
        async with self.db.transaction() as tx:
            await tx.execute(f"DELETE FROM ratings{scope}", params)
            await tx.execute(f"DELETE FROM rating_changes WHERE match_id IN (SELECT id FROM matches{scope})", params)
        for start in range(0, len(ids), batch):
            async with self.db.transaction() as tx:
                for match_id in ids[start:start + batch]:
                    found = await tx.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
                    assert found is not None
                    seats = await tx.fetchall("SELECT seat, user_id FROM participants WHERE match_id = ?"
                                              " AND seat IS NOT NULL ORDER BY seat", (match_id,))
                    await self.apply(tx, MatchRow.from_row(found), [(s[0], s[1]) for s in seats])
            if progress is not None:
                await progress(min(start + batch, len(ids)), len(ids))
            await asyncio.sleep(REBUILD_PAUSE)
        return len(ids)

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int) -> tuple[list[Rating], int]:
        async with self.db.reading() as r:
            rows = await r.fetchall(
                "SELECT user_id, game, mu, sigma, games, wins, losses, draws FROM ratings WHERE guild_id = ?"
                " AND game = ? ORDER BY mu DESC, games DESC, user_id LIMIT ? OFFSET ?", (guild_id, game, limit, offset))
            total = await r.fetchone("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return [Rating(*r) for r in rows], total[0] if total else 0

    async def of_user(self, guild_id: int, user_id: int) -> list[Rating]:
        rows = await self.db.fetchall(
            "SELECT user_id, game, mu, sigma, games, wins, losses, draws FROM ratings"
            " WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return [Rating(*r) for r in rows]

    async def snapshot(self) -> list[tuple]:
        """Every rating row, for comparing a rebuild with the live numbers."""
        return [tuple(r) for r in await self.db.fetchall(
            "SELECT guild_id, game, user_id, mu, sigma, games, wins, losses, draws FROM ratings"
            " ORDER BY guild_id, game, user_id")]


def rate_newcomer() -> tuple[float, float]:
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma
