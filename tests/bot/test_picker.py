"""Play a turn by tapping (bot.discord.picker), through the real command tree: the Play button on a board, the
private picker's steps (engines.steps), Back, Cancel, Confirm through the same path as /<game> move, a stale
picker, a picker asked for by someone whose turn it is not, German labels."""

from __future__ import annotations

import importlib
import io
import os
import random
from collections import defaultdict

import pytest
from PIL import Image

from engines import GAMES
from engines.steps import step_options
from render.marks import MARK_FILL, MARK_WIDTH
from tests.bot.support import GUILD, boards, cards

POSITIONS = 50                # random positions per game, variant and player count entered through the picker
# of them, the first ones in which every legal turn is entered (the rest: one, seeded); a longer run walks them all:
# PICKER_EVERY_TURN_POSITIONS=50 (minutes of CPU, so not in every run of the suite)
EVERY_TURN_POSITIONS = int(os.environ.get("PICKER_EVERY_TURN_POSITIONS", "3"))
MAX_EVERY_TURN = 250          # ... when the position has at most this many legal turns (else a later one is taken)
MAX_TURN_MOVES = 12           # ... and no turn longer than this (Quincala's may go on and on: no "every" then)
POSITIONS_PER_MATCH = 6       # successive positions of one match, each turn confirmed through the picker
SECOND_CHANNEL = 4242
NAMES = ("Ann", "Bob", "Cy", "Dee")
WALKED: dict[tuple, list] = defaultdict(list)   # what the exhaustive walks covered (printed with -s, for the notes)
COMBOS = [(game, variant, players) for game in sorted(GAMES) for variant in (GAMES[game].variants or (None,))
          for players in GAMES[game].player_counts]


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob")]


async def start(fake, people, game: str, *, seed: int, channel_id: int | None = None) -> int:
    """A 2-player match of ``game`` from a fixed match seed (so two matches can be the same game); its id."""
    ann, bob = people
    fake.client.services.ctx.seeds = random.Random(seed)
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, channel_id=channel_id))[0]
    assert boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))
    matches = await fake.client.services.queries.matches_of(11, guild_id=GUILD, game=game,
                                                            channel_id=channel_id or fake.channel_id)
    return matches[0].id


async def match_of(fake, match_id: int):
    return await fake.client.services.queries.get(match_id)


def random_turn(state, rng: random.Random) -> list[str]:
    """A whole legal turn picked at random through the steps (the engines' view, no Discord)."""
    turn: list[str] = []
    chosen = ""
    while options := step_options(state, turn, chosen):
        pick = rng.choice(options)
        if pick.complete:
            turn.append(pick.text)
            chosen = ""
        else:
            chosen = pick.text
    return turn


def picker(sent):
    """The picker as the player sees it now (the private message the last answer edited)."""
    private = [s for s in sent if s.ephemeral and s.kind in ("edit_original", "update") and s.message_id]
    assert private, [(s.kind, s.text()) for s in sent]
    return private[-1]


def told(sent) -> str:
    """The last private text the user read."""
    return [s for s in sent if s.ephemeral and s.kind in ("edit_original", "update", "followup")][-1].text()


def menu(fake, sent_picker):
    msg = fake.message(sent_picker.message_id)
    return msg, next((c for c in msg.components if c["type"] == 3), None)


async def open_play(fake, user, match_id: int):
    board = fake.message((await match_of(fake, match_id)).row.board_message_id)
    return await fake.click(user, f"pl:{match_id}", message=board)


async def walk(fake, user, match_id: int, rng: random.Random):
    """Open the picker and pick at random until the turn is complete; the picker then (showing Confirm)."""
    shown = picker(await open_play(fake, user, match_id))
    for _ in range(40):
        msg, select = menu(fake, shown)
        if select is None:
            assert msg.button("Confirm")
            return shown
        assert 1 <= len(select["options"]) <= 25
        option = rng.choice(select["options"])
        shown = picker(await fake.select(user, select["custom_id"], [option["value"]], message=msg.message_id))
    raise AssertionError("the picker never completed the turn")


def typed(game, turn: list[str]) -> str:
    """The turn as a player types it for /<game> move (the game's own separator)."""
    for sep in (" ", ", ", " ; "):
        if game.split_turn(sep.join(turn)) == turn:
            return sep.join(turn)
    raise AssertionError(f"no typed form of {turn}")


def mover_of(match) -> int:
    return match.to_move_user.user_id


async def log(fake, match_id: int, after: int) -> list[tuple[int, int, str]]:
    return [(m.ply, m.seat, m.move) for m in await fake.client.services.ctx.matches.moves(match_id, after_ply=after)]


async def start_seats(fake, game: str, variant: str | None, players: int, *, seed: int,
                      channel_id: int | None = None) -> int:
    """A match of ``game`` (``variant``, ``players`` seats) from a fixed match seed, through the command tree."""
    people = [fake.user(11 + n, name) for n, name in enumerate(NAMES[:players])]
    fake.client.services.ctx.seeds = random.Random(seed)
    opponents = {("opponent" if n == 1 else f"opponent{n}"): person for n, person in enumerate(people[1:], 1)}
    if variant is not None:
        opponents[GAMES[game].variant_option] = variant
    if players == 4:
        opponents["partner"] = people[2]          # four players play in teams
    card = cards(await fake.slash(people[0], f"{game} challenge", channel_id=channel_id, **opponents))[0]
    for person in people[1:]:
        out = await fake.click(person, card.button("Accept")["custom_id"], message=card)
    assert boards(out)
    matches = await fake.client.services.queries.matches_of(11, guild_id=GUILD, game=game,
                                                            channel_id=channel_id or fake.channel_id)
    return max(m.id for m in matches)


def legal_turns(state, limit: int = MAX_EVERY_TURN) -> set[tuple[str, ...]] | None:
    """Every whole turn of the player to move (the engine's view: moves until the mover changes or it ends);
    None when there are more than ``limit``, or a turn of more than MAX_TURN_MOVES moves (a Quincala move may go
    on without end: then there is no "every")."""
    mover = state.to_move
    turns: set[tuple[str, ...]] = set()

    def grow(current, so_far: tuple[str, ...]) -> bool:
        for move in current.legal_moves():
            after = current.play(move)
            if after.is_over or after.to_move != mover:
                turns.add((*so_far, move))
            elif len(so_far) >= MAX_TURN_MOVES or not grow(after, (*so_far, move)):
                return False
            if len(turns) > limit:
                return False
        return True
    return turns if grow(state, ()) else None


async def every_turn(fake, user, match, shown, reached: list[tuple[str, ...]], *, first_move: bool) -> None:
    """Every turn the picker offers from the screen ``shown`` on (``first_move``: every first move of the turn):
    each option picked in turn, what follows walked, then Back; where the turn (or its first move) is complete,
    the turn built (the stored draft) is recorded."""
    draft = await fake.client.services.drafts.get(match, user)
    turn, chosen = draft.built()
    msg, select = menu(fake, shown)
    if select is None or (first_move and turn and not chosen):
        assert select is not None or (msg.button("Confirm") and not chosen)
        reached.append(tuple(turn))
        return
    assert 1 <= len(select["options"]) <= 25
    for option in select["options"]:
        _msg, select = menu(fake, shown)
        after = picker(await fake.select(user, select["custom_id"], [option["value"]], message=shown.message_id))
        await every_turn(fake, user, match, after, reached, first_move=first_move)
        shown = picker(await fake.click(user, f"pk:{match.id}:{match.ply}:b", message=after.message_id))


@pytest.fixture
def quick_previews(fake, monkeypatch):
    """The previews as one fixed small PNG: thousands of picker screens are walked here, and what a preview shows
    is tested above (test_the_preview_marks_each_option_with_its_menu_number) and in tests/render/test_marks.py."""
    png = io.BytesIO()
    Image.new("RGB", (1, 1)).save(png, format="PNG")

    async def board(*args, **kwargs) -> bytes:
        return png.getvalue()
    monkeypatch.setattr(fake.client.renders, "board", board)


@pytest.mark.parametrize(("game", "variant", "players"), COMBOS)
async def test_every_turn_picked_is_the_turn_typed(fake, quick_previews, game, variant, players):
    """Over POSITIONS positions reached by seeded random play, the turn entered through the picker and confirmed
    leaves the same move log as the turn typed with /<game> move in a twin match; in the first
    EVERY_TURN_POSITIONS positions (with at most MAX_EVERY_TURN turns) the picker offers exactly the legal turns,
    each built as typing it reads."""
    fake.channel(SECOND_CHANNEL, "second")
    rng = random.Random(f"picker {game} {variant} {players}")
    positions = walked = seed = 0
    while positions < POSITIONS:
        seed += 1
        picked_id = await start_seats(fake, game, variant, players, seed=seed)
        typed_id = await start_seats(fake, game, variant, players, seed=seed, channel_id=SECOND_CHANNEL)
        for _ in range(rng.randrange(4)):       # the same random opening in both
            match = await match_of(fake, picked_id)
            turn = random_turn(match.position, rng)
            for mid in (picked_id, typed_id):
                await fake.client.services.play.submit_turn(mid, mover_of(match), turn, guild_id=GUILD)
        for _ in range(POSITIONS_PER_MATCH):
            match = await match_of(fake, picked_id)
            if match.is_over or positions >= POSITIONS:
                break
            ply, who = match.ply, mover_of(match)
            if walked < EVERY_TURN_POSITIONS:
                turns = legal_turns(match.position)
                first_move = turns is None        # whole turns without bound or too many: every first move instead
                expected = {(m,) for m in match.position.legal_moves()} if first_move else turns
                if len(expected) <= MAX_EVERY_TURN:
                    reached: list[tuple[str, ...]] = []
                    await every_turn(fake, who, match, picker(await open_play(fake, who, picked_id)), reached,
                                     first_move=first_move)
                    assert sorted(reached) == sorted(expected)              # each once, and nothing else
                    assert all(match.game.split_turn(typed(match.game, list(t))) == list(t) for t in reached)
                    walked += 1
                    WALKED[(game, variant, players)].append("first moves" if first_move else "whole turns")
                    WALKED[(game, variant, players)].append(len(reached))
            done = await walk(fake, who, picked_id, rng)
            confirmed = await fake.click(who, f"pk:{picked_id}:{ply}:c", message=done.message_id)
            assert "Move played" in picker(confirmed).text()
            played = await log(fake, picked_id, ply)
            assert played and all(seat == match.row.to_move for _ply, seat, _move in played)
            out = await fake.slash(who, f"{game} move", move=typed(match.game, [m for _p, _s, m in played]),
                                   match=f"#{typed_id}", channel_id=SECOND_CHANNEL)
            assert boards(out)
            assert await log(fake, typed_id, ply) == played
            positions += 1
    assert walked == EVERY_TURN_POSITIONS
    print(game, variant, players, "exhaustive walks:", WALKED[(game, variant, players)])


async def test_the_preview_is_the_board_to_come(fake, people):
    """The last step's preview is the very board the match posts after Confirm."""
    match_id = await start(fake, people, "tintas", seed=3)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    done = await walk(fake, who, match_id, random.Random(3))
    preview = dict(fake.message(done.message_id).files)["preview.png"]
    confirmed = await fake.click(who, f"pk:{match_id}:{match.ply}:c", message=done.message_id)
    assert dict(boards(confirmed)[-1].files)["board.png"] == preview


async def test_back_undoes_one_pick_and_cancel_plays_nothing(fake, people):
    match_id = await start(fake, people, "roocala", seed=1)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    first = picker(await open_play(fake, who, match_id))
    msg, select = menu(fake, first)
    before = [o["label"] for o in select["options"]]
    assert msg.button("Back").get("disabled")
    second = picker(await fake.select(who, select["custom_id"], [select["options"][0]["value"]],
                                      message=msg.message_id))
    _msg, inner = menu(fake, second)
    assert [o["label"] for o in inner["options"]] != before
    back = picker(await fake.click(who, f"pk:{match_id}:{match.ply}:b"))
    _msg, again = menu(fake, back)
    assert [o["label"] for o in again["options"]] == before
    other = picker(await open_play(fake, who, match_id))              # a second picker of the same player
    cancelled = picker(await fake.click(who, f"pk:{match_id}:{match.ply}:x", message=other.message_id))
    assert "cancelled" in cancelled.text() and not fake.message(cancelled.message_id).components
    assert (await match_of(fake, match_id)).ply == match.ply
    expired = picker(await fake.select(who, again["custom_id"], [again["options"][0]["value"]],
                                       message=back.message_id))
    assert "expired" in expired.text()                      # the cancelled turn is gone from the first one too
    assert fake.message(expired.message_id).button(f"pk:{match_id}:{match.ply}:o")     # offers a fresh one


async def test_a_stale_picker_says_so_and_opens_on_the_new_position(fake, people):
    match_id = await start(fake, people, "spinca", seed=2)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    rng = random.Random(3)
    await walk(fake, who, match_id, rng)
    await fake.client.services.play.submit_turn(match_id, who, random_turn(match.position, rng), guild_id=GUILD)
    stale = picker(await fake.click(who, f"pk:{match_id}:{match.ply}:c"))
    assert "moved on" in stale.text()
    assert (await match_of(fake, match_id)).ply == match.ply + 1        # the stale Confirm played nothing
    after = await match_of(fake, match_id)
    reopened = await fake.click(who, f"pk:{match_id}:{after.ply}:o", message=stale.message_id)
    assert "Not your turn" in told(reopened)                           # the opponent is to move now
    other = mover_of(after)
    await walk(fake, other, match_id, rng)                             # they get a picker on the new position


async def test_play_by_someone_whose_turn_it_is_not(fake, people):
    match_id = await start(fake, people, "tintas", seed=4)
    match = await match_of(fake, match_id)
    waiting = 11 if mover_of(match) == 12 else 12
    out = await open_play(fake, waiting, match_id)
    assert f"Not your turn — {match.to_move_user.name} is to move." in told(out)
    assert not any(c["type"] == 3 for s in out for c in s.components)
    fake.locale = "de"
    out = await open_play(fake, waiting, match_id)
    assert f"Du bist nicht am Zug — {match.to_move_user.name} ist dran." in told(out)


async def test_a_forged_confirm_by_the_waiting_player_is_refused(fake, people):
    match_id = await start(fake, people, "rincala", seed=5)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    waiting = 11 if who == 12 else 12
    done = await walk(fake, who, match_id, random.Random(5))
    out = await fake.click(waiting, f"pk:{match_id}:{match.ply}:c", message=done.message_id)
    assert "Not your turn" in told(out)
    assert (await match_of(fake, match_id)).ply == match.ply
    out = await fake.click(who, f"pk:{match_id}:{match.ply}:c", message=done.message_id)
    assert (await match_of(fake, match_id)).ply > match.ply           # the mover's own Confirm plays it


async def test_german_labels(fake, people):
    match_id = await start(fake, people, "roocala", seed=6)
    who = mover_of(await match_of(fake, match_id))
    fake.locale = "de"
    shown = picker(await open_play(fake, who, match_id))
    msg, select = menu(fake, shown)
    assert "Wähle" in shown.text() or "Wähl" in shown.text()
    assert select["options"] and all(o["label"].endswith(" Züge)") or o["label"].endswith("(1 Zug)")
                                     for o in select["options"])
    assert msg.button("Zurück") and msg.button("Abbrechen")
    described: set[str] = set()
    for _ in range(10):                                     # on to the last step: the turn and Confirm, in German
        msg, select = menu(fake, shown)
        if select is None:
            break
        described.update(o["description"] for o in select["options"] if o.get("description"))
        shown = picker(await fake.select(who, select["custom_id"], [select["options"][0]["value"]],
                                         message=msg.message_id))
    assert described == {"Beendet deinen Zug"}              # Roocala: one move a turn
    assert "Dein Zug: **" in shown.text() and "Bestätige" in shown.text()
    assert fake.message(shown.message_id).button("Bestätigen")


async def test_two_pickers_of_one_player_share_one_turn(fake, people):
    """Play again opens a fresh turn; the older picker's menu and Confirm are then out of date, never applied."""
    match_id = await start(fake, people, "quincala", seed=7)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    done = await walk(fake, who, match_id, random.Random(7))         # the first picker: a whole turn, Confirm shown
    second = picker(await open_play(fake, who, match_id))            # the second: the turn starts again
    out = await fake.click(who, f"pk:{match_id}:{match.ply}:c", message=done.message_id)
    assert "not complete" in told(out)
    assert (await match_of(fake, match_id)).ply == match.ply
    third = picker(await open_play(fake, who, match_id))
    msg, old = menu(fake, second)
    _msg, new = menu(fake, third)
    await fake.select(who, new["custom_id"], [new["options"][0]["value"]], message=third.message_id)
    out = await fake.select(who, old["custom_id"], [old["options"][0]["value"]], message=msg.message_id)
    assert "out of date" in told(out)
    draft = await fake.client.services.drafts.get(await match_of(fake, match_id), who)
    assert draft is not None and len(draft.picks) == 1              # one pick made, the old menu's not added


async def test_play_is_on_a_running_match_board_only(fake, people):
    match_id = await start(fake, people, "roocala", seed=8)
    match = await match_of(fake, match_id)
    assert fake.message(match.row.board_message_id).button("Play")["custom_id"] == f"pl:{match_id}"
    await fake.client.services.play.resign(match_id, 11, guild_id=GUILD)
    await fake.client.dispatcher.deliver_pending(match_id)
    final = fake.message((await match_of(fake, match_id)).row.board_message_id)
    assert final.message_id != match.row.board_message_id
    with pytest.raises(KeyError):
        final.button("Play")
    out = await fake.click(11, f"pl:{match_id}", message=match.row.board_message_id)     # an older board's Play
    assert "This match is over." in told(out)
    assert not any(c["type"] == 3 for s in out for c in s.components)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_preview_marks_each_option_with_its_menu_number(fake, people, game):
    """Option n of the menu reads "n · …" and the preview image carries a mark on each cell of option n."""
    match_id = await start(fake, people, game, seed=9)
    match = await match_of(fake, match_id)
    who = mover_of(match)
    shown = picker(await open_play(fake, who, match_id))
    msg, select = menu(fake, shown)
    preview = Image.open(io.BytesIO(dict(msg.files)["preview.png"])).convert("RGB")
    options = step_options(match.position)
    renderer = importlib.import_module(f"render.{game}")
    assert [o["label"].split(" · ", 1)[0] for o in select["options"]] == [str(n) for n in range(1, len(options) + 1)]
    marked = 0
    for label, option in zip(select["options"], options, strict=True):
        assert option.text in label["label"]
        for cell in option.cells:
            x, y = renderer.mark_centre(match.position, cell)
            assert preview.getpixel((round(x - MARK_WIDTH / 2 + 5), round(y))) == MARK_FILL, (game, cell)
            marked += 1
    assert marked
