"""Play a match in the terminal through the same services, storage and outbox as Discord.

Local seats take turns at one keyboard; moves are typed as on Discord. The outbox's announcements are
delivered here too, each kind by a handler of its own (``Table.handlers``): each board is written as a PNG
whose path is printed, next to the engine's text board; what has no meaning at one keyboard is skipped, saying
why. The bot's turns are played by the dispatcher's worker (``AIPlayer.workers``) when its seat is to move.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from bot import gametexts, wording
from bot.ai_player import AIPlayer
from bot.dispatcher import Dispatcher, Routes
from bot.i18n import N_, _, board_texts, current, language_of, speaking
from bot.model import Match, Person, ServiceError, ai_people
from bot.services import Services
from bot.services.announce import (
    AwayNotice,
    BoardPost,
    Card,
    Delivered,
    Digest,
    Dm,
    DrawProposal,
    Handler,
    Handlers,
    Hint,
    Outgoing,
    Reminder,
    ReplayPost,
    Reply,
    TakebackProposal,
    TournamentCard,
    TournamentEnd,
    TournamentRound,
    TournamentStandings,
)
from bot.services.tournament_views import TournamentView
from bot.store import Database
from bot.tournament_pairer import TournamentPairer
from bot.tournaments.scoring import figure
from engines import GAMES, State
from engines.steps import StepOption, picked_turn, step_options
from render import board_png
from render import texts as render_texts

TOURNAMENT_STATUS = {"open": N_("open for entries"), "running": N_("under way"), "finished": N_("over"),
                     "cancelled": N_("called off")}
TERMINAL_GUILD = 0      # the terminal is its own "server"
TERMINAL_CHANNEL = 0
HELP = N_("Type a move (or a whole turn), press Enter (or type 'pick') to build your turn from numbered menus, "
          "'moves' to list the legal ones, 'resign', or 'quit'.")
PICK_WORDS = {"", "pick"}      # at the prompt: build the turn step by step from numbered menus
BACK_WORDS = {"b", "back"}     # in a menu: take the last pick back
CANCEL_WORDS = {"", "c", "cancel"}   # in a menu: leave it, nothing played
# What Discord offers, said in the shared refusals, and what the terminal offers instead.
TERMINAL_WORDS = {N_("the autocomplete lists the legal ones"): N_("type 'moves' to list the legal ones"),
                  N_("The autocomplete lists the legal ones"): N_("Type 'moves' to list the legal ones")}
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")   # where the terminal finds its reader's language (POSIX order)
LOCAL_NAMES = ("Ann", "Bob", "Cy", "Dee")   # the people at the keyboard (not 'Player 1', which names a seat)
SHOWN_MOVES = 25


async def play_in_terminal(game_key: str, *, players: int | None = None, variant: str | None = None,
                           seed: int | None = None, out_dir: str = "out", database: str | None = None,
                           bots: int = 0, level: int = 3, language: str | None = None,
                           read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    """Local seats at one keyboard; ``bots`` of the seats are played by the bot at ``level``, every word in
    ``language`` (default: the environment's, ``terminal_language``)."""
    render_texts.install(board_texts())      # the board images' words, as the render workers get them
    with speaking(language or terminal_language()):
        return await _play_in_terminal(game_key, players=players, variant=variant, seed=seed, out_dir=out_dir,
                                       database=database, bots=bots, level=level, read=read, write=write)


def terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """The reader's language from the POSIX locale variables (``LANG=de_DE.UTF-8`` -> German); English when
    none names a language with a catalog."""
    for name in LANGUAGE_VARIABLES:
        if environ.get(name):
            return language_of(environ[name].split(".")[0])
    return language_of(None)


async def _play_in_terminal(game_key: str, *, players: int | None, variant: str | None, seed: int | None,
                            out_dir: str, database: str | None, bots: int, level: int,
                            read: Callable[[str], str], write: Callable[[str], None]) -> int:
    game = GAMES[game_key]
    players = players or max(min(game.player_counts), bots + 1)
    if players not in game.player_counts:
        write(_("{game} is played by {counts} players.").format(
            game=game.title, counts=_(" or ").join(map(str, game.player_counts))))
        return 2
    if variant is not None and variant not in game.variants:
        write(_("{game} variants: {variants}.").format(game=game.title,
                                                      variants=", ".join(game.variants) or _("none")))
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(database or Path(tmp) / "terminal.sqlite3")
        try:
            services = Services(db, seed_source=random.Random(seed) if seed is not None else None)
            table = Table(services, Path(out_dir), write)
            return await table.play(game_key, players, variant, read, bots, level)
        finally:
            await db.close()


def skip(why: str) -> Handler:
    """A handler for a kind that has no meaning at one keyboard."""
    async def skipped(_outgoing: Outgoing) -> Delivered:
        return Delivered(f"skipped: {why}")
    return skipped


class Table:
    """One match at the keyboard: the outbox's announcements are printed, the bot's turns played."""
    name = "the terminal"

    def __init__(self, services: Services, out: Path, write: Callable[[str], None]):
        self.services = services
        self.out = out
        self.write = write
        self.ai = AIPlayer(services, thinking=self.thinking)
        self.workers = {**self.ai.workers, **TournamentPairer(services).workers}   # beside the handlers
        self.dispatcher = Dispatcher(services, Routes(self, workers=self.workers), owner="terminal")

    def thinking(self, match: Match) -> None:
        self.write(_("{player} is thinking…").format(player=match.ai_to_move.name if match.ai_to_move
                                                      else _("The bot")))

    @property
    def handlers(self) -> Handlers:
        """Every kind, explicitly: the board is shown; the rest are Discord's (no channel, no DMs, no commands
        for proposals, hints or time away here) and skipped."""
        return {BoardPost: self.board,
                Card: skip("the challenge is answered at the keyboard"),
                Reply: skip("no interaction to answer"),
                Reminder: skip("no deadlines at the keyboard"),
                Dm: skip("no direct messages in the terminal"),
                Digest: skip("no direct messages in the terminal"),
                ReplayPost: skip("the boards were written as images"),
                DrawProposal: skip("no draw offers in the terminal"),
                TakebackProposal: skip("no takebacks in the terminal"),
                AwayNotice: skip("no time away in the terminal"),
                Hint: skip("no hints in the terminal"),
                TournamentCard: self.tournament_card,
                TournamentRound: self.tournament_round,
                TournamentStandings: self.tournament_standings,
                TournamentEnd: self.tournament_end}

    async def perform(self, outgoing: Outgoing, handler: Handler) -> Delivered:
        return await handler(outgoing)

    # ---- tournaments: a line each ------------------------------------------------------------------------------
    async def tournament_card(self, outgoing: Outgoing[TournamentCard]) -> Delivered:
        view = await self._tournament(outgoing)
        self.write(_("Tournament {name}: {status}, {count} entrant(s).").format(
            name=view.name, status=_(TOURNAMENT_STATUS[view.status]), count=len(view.active_entrants)))
        return Delivered("shown")

    async def tournament_round(self, outgoing: Outgoing[TournamentRound]) -> Delivered:
        view = await self._tournament(outgoing)
        self.write(_("Tournament {name}, round {round}: {games} game(s) begin.").format(
            name=view.name, round=outgoing.notice.round, games=len(outgoing.notice.matches)))
        return Delivered("shown")

    async def tournament_standings(self, outgoing: Outgoing[TournamentStandings]) -> Delivered:
        view = await self._tournament(outgoing)
        rows = "; ".join(f"{row.rank}. {row.name} {figure(row.points)}" for row in view.standings)
        self.write(_("Tournament {name}, standings: {rows}").format(name=view.name, rows=rows))
        return Delivered("shown")

    async def tournament_end(self, outgoing: Outgoing[TournamentEnd]) -> Delivered:
        view = await self._tournament(outgoing)
        winners = ", ".join(view.name_of(u) for u in outgoing.notice.winners)
        self.write(_("Tournament {name} is over. Won by {winners}.").format(name=view.name, winners=winners))
        return Delivered("shown")

    async def _tournament(self, outgoing: Outgoing) -> TournamentView:
        assert outgoing.tournament_id is not None
        return await self.services.tournaments.read(outgoing.tournament_id)

    async def board(self, outgoing: Outgoing[BoardPost]) -> Delivered:
        post = outgoing.notice
        match = await self.services.queries.get(outgoing.match_id)
        current = post.ply == match.ply
        if post.event == "start":
            text = _("The match begins!")
        elif post.event == "turn":
            text = wording.played_text(match, post.seat or 0, wording.phrase_words(post.record_phrase, post.record))
            if current:
                text += "\n" + wording.to_move_text(match, pending=wording.phrase_words(post.pending_phrase,
                                                                                       post.pending))
        else:
            text = wording.result_text(match)
        if current:
            self._draw(match)
        self.write(text.replace("**", ""))  # the shared texts carry Discord's bold marks
        return Delivered("shown")

    def _draw(self, match: Match) -> None:
        suffix = "-final" if match.is_over else ""
        path = self.out / f"{match.game.key}-{match.id}-{match.ply:03d}{suffix}.png"
        if path.exists():
            return
        png = board_png(match.position, last_turn=match.last_turn, names=match.names, previous=match.previous,
                        language=current())
        path.write_bytes(png)
        self.write("")
        self.write(wording.words(match.position.text_board_phrase(), wording.seat_names(match)))
        self.write(_("Board image: {path}").format(path=path))

    async def play(self, game_key: str, players: int, variant: str | None, read: Callable[[str], str],
                   bots: int, level: int) -> int:
        game = GAMES[game_key]
        services = self.services
        humans = [Person(i + 1, LOCAL_NAMES[i]) for i in range(players - bots)]
        people = humans + ai_people(level, bots) if bots else humans
        teams = game.teams.get(players)
        partner = people[teams[0][1]] if teams else None
        self.out.mkdir(parents=True, exist_ok=True)
        self.write(f"{game.title} — {gametexts.summary(game.key)}")
        match = await services.challenges.challenge(game_key, guild_id=TERMINAL_GUILD, channel_id=TERMINAL_CHANNEL,
                                                    challenger=people[0], opponents=people[1:], variant=variant,
                                                    partner=partner, days_per_move=0)
        for p in humans[1:]:
            match = await services.challenges.accept(match.id, p, guild_id=TERMINAL_GUILD)
        self.write(wording.seat_line(match))
        self.write(_(HELP))
        while True:
            await self.dispatcher.deliver_pending(match.id)
            match = await services.queries.get(match.id)
            if match.status != "active":
                return 0
            who = match.to_move_user
            if who is None or who.is_ai:
                continue
            try:
                line = read(f"{who.name}> ").strip()
            except EOFError:
                self.write("")
                return 0
            if line.lower() in {"quit", "exit"}:
                return 0
            submission: str | list[str] = line
            if line.lower() in PICK_WORDS:
                picked = pick_turn(match.position, who.name, read, self.write)
                if picked is None:
                    self.write(_("{player}, nothing played.").format(player=who.name))
                    continue
                submission = picked
            if line.lower() in {"moves", "help", "?"}:
                self.write(_(HELP))
                shown = game.turn_suggestions(match.position, "", SHOWN_MOVES)
                total = len(match.position.legal_moves())
                legal = ", ".join(value for value, _label in shown)
                self.write(_("Legal: {moves} (the first {shown} of {total} moves; type the start of one to narrow "
                             "them)").format(moves=legal, shown=len(shown), total=total) if total > len(shown)
                           else _("Legal: {moves}").format(moves=legal))
                continue
            try:
                if line.lower() == "resign":
                    await services.play.resign(match.id, who.user_id, guild_id=TERMINAL_GUILD)
                else:
                    await services.play.submit_turn(match, who.user_id, submission, guild_id=TERMINAL_GUILD)
            except ServiceError as exc:
                self.write(_("Not played: {reason}").format(reason=in_terminal_words(str(exc))))


def pick_turn(state: State, name: str, read: Callable[[str], str],
              write: Callable[[str], None]) -> list[str] | None:
    """A turn built from numbered menus of its steps (engines/steps.py, as Discord's picker offers them); None
    when the player cancels. Every line names the player, who may be one of several at the keyboard."""
    picks: list[StepOption] = []
    while True:
        turn, chosen = picked_turn(picks)
        options = step_options(state, turn, chosen)
        if not options:
            return turn
        so_far = " ".join([*turn, chosen]).strip()
        write(_("{player}, your turn so far: {moves}. Choose the next step:").format(player=name, moves=so_far)
              if so_far else _("{player}, choose the first step of your turn:").format(player=name))
        for number, option in enumerate(options, 1):
            write(f"  {number}) {menu_label(option)}")
        try:
            answer = read(_("{player}, pick 1-{last} (b back, c cancel): ").format(
                player=name, last=len(options))).strip().lower()
        except EOFError:
            return None
        if answer in CANCEL_WORDS:
            return None
        if answer in BACK_WORDS:
            if picks:
                picks.pop()
            else:
                write(_("{player}, there is nothing to go back to yet.").format(player=name))
        elif answer.isdigit() and 1 <= int(answer) <= len(options):
            picks.append(options[int(answer) - 1])
        else:
            write(_("{player}, \"{answer}\" is not in the list: type a number from 1 to {last}, b to go back "
                    "or c to cancel.").format(player=name, answer=answer[:20], last=len(options)))


def menu_label(option: StepOption) -> str:
    """A menu line: ``e2… (3 moves)``, ``e4 — ends your turn``."""
    if option.group or not option.complete:
        return wording.step_group(option.text, option.count)
    if option.ends_turn:
        return _("{move} — ends your turn").format(move=option.text)
    return _("{move} — then you move again").format(move=option.text)


def in_terminal_words(text: str) -> str:
    """A refusal shared with Discord, pointing at what the terminal offers (``moves``), not the autocomplete."""
    for discord_words, terminal_words in TERMINAL_WORDS.items():
        text = text.replace(_(discord_words), _(terminal_words))
    return text


if __name__ == "__main__":  # pragma: no cover - convenience
    sys.exit(asyncio.run(play_in_terminal(sys.argv[1] if len(sys.argv) > 1 else "tintas")))
