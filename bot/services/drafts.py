"""The picker's partial turns, kept in the database per (match, ply, player): a turn built by tapping survives a
restart and continues when the next tap lands in another process.

A draft stores the texts of the options picked (``engines.steps``); it is read back by picking them again on
the position, so what a draft holds is always a path of legal steps. It expires ``PICKER_TIMEOUT`` after its
last pick. Writes are guarded in SQL (``bot.store.drafts``): by the ply (a draft of a position the match has
left is never made or changed) and by the number of picks read (of two taps at once, one lands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from bot.i18n import N_, T
from bot.model import Match, ServiceError, StalePosition, TurnResult
from bot.services import announce
from bot.services.context import Context
from bot.services.play import Play
from engines import State
from engines.base import IllegalMove
from engines.steps import StepOption, picked_turn, step_options

PICKER_TIMEOUT = timedelta(minutes=15)   # a partial turn is kept this long after its last pick (a token's life)

OUT_OF_DATE = N_("This menu is out of date; use the latest one.")


@dataclass(frozen=True)
class Draft:
    """The options picked so far in one player's turn at one ply."""

    match_id: int
    ply: int
    user_id: int
    picks: tuple[StepOption, ...]

    def built(self) -> tuple[list[str], str]:
        """The whole moves chosen, and the text of the move being built."""
        return picked_turn(self.picks)

    def options(self, state: State) -> list[StepOption]:
        """What can be picked next on ``state`` (the position at the draft's ply); empty once the turn is over."""
        return step_options(state, *self.built())


def replayed(state: State, texts: Sequence[str]) -> tuple[StepOption, ...]:
    """The options whose texts are ``texts``, picked in order on ``state``; it stops at the first that is not
    offered (a draft never holds one, but a stored row is read, not trusted)."""
    picks: list[StepOption] = []
    for text in texts:
        try:
            offered = step_options(state, *picked_turn(picks))
        except IllegalMove:
            break
        found = next((o for o in offered if o.text == text), None)
        if found is None:
            break
        picks.append(found)
    return tuple(picks)


class Drafts:
    def __init__(self, ctx: Context, play: Play, timeout: timedelta = PICKER_TIMEOUT):
        self.ctx, self.play, self.timeout = ctx, play, timeout
        self.store = ctx.drafts

    async def confirm(self, match: Match, draft: Draft, *, guild_id: int,
                      told: Sequence[announce.Notice] = ()) -> TurnResult:
        """Submit the built turn as ``/<game> move`` does, guarded by the draft's ply; refused unless the turn
        is complete. The draft is dropped in the turn's own transaction (``Play.submit_turn``)."""
        turn, chosen = draft.built()
        if chosen or draft.options(match.position):
            raise ServiceError(T("Your turn is not complete yet."))
        return await self.play.submit_turn(match, draft.user_id, turn, guild_id=guild_id, expected_ply=draft.ply,
                                           told=told)

    async def start(self, match: Match, user_id: int) -> Draft:
        """A new, empty draft of ``user_id`` at the match's ply (replacing theirs), dropping expired ones."""
        async with self.ctx.db.transaction() as tx:
            await self.store.drop_old(tx, match.id, match.ply, now=self.ctx.now())
            if not await self.store.start(tx, match.id, match.ply, user_id, expires=self.ctx.later(self.timeout)):
                raise StalePosition(T("The match moved on since this picker was opened."))
        return Draft(match.id, match.ply, user_id, ())

    async def get(self, match: Match, user_id: int) -> Draft | None:
        """The live draft of ``user_id`` at the match's ply, or None (none, or expired)."""
        texts = await self.store.load(match.id, match.ply, user_id, now=self.ctx.now())
        if texts is None:
            return None
        return Draft(match.id, match.ply, user_id, replayed(match.position, texts))

    async def pick(self, match: Match, draft: Draft, step: int, index: int) -> Draft:
        """``draft`` with option ``index`` of its next step picked; refused when the menu was for another step
        (``step`` is not the number of picks made) or the draft changed meanwhile (another tap, another ply)."""
        options = draft.options(match.position)
        if step != len(draft.picks) or not 0 <= index < len(options):
            raise ServiceError(T(OUT_OF_DATE))
        return await self._write(draft, (*draft.picks, options[index]))

    async def back(self, draft: Draft) -> Draft:
        """``draft`` without its last pick (unchanged when it has none)."""
        return await self._write(draft, draft.picks[:-1]) if draft.picks else draft

    async def _write(self, draft: Draft, picks: tuple[StepOption, ...]) -> Draft:
        async with self.ctx.db.transaction() as tx:
            if not await self.store.write(tx, draft.match_id, draft.ply, draft.user_id, [p.text for p in picks],
                                          steps=len(draft.picks), expires=self.ctx.later(self.timeout),
                                          now=self.ctx.now()):
                raise ServiceError(T(OUT_OF_DATE))
        return Draft(draft.match_id, draft.ply, draft.user_id, picks)

    async def drop(self, match_id: int, ply: int, user_id: int) -> None:
        async with self.ctx.db.transaction() as tx:
            await self.store.drop(tx, match_id, ply, user_id)
