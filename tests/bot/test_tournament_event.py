"""Tournaments through the real command tree: a whole 4-player round robin (create, join by the card's button,
start when full, every game resigned through the real buttons, a pairings post per round, a standings image
after each result, the final announcement pinging the winner, the final standings equal to the hand-computed
table), a German server's posts in German, who may create one, the card's buttons after a restart, and a
Swiss of five with its byes through two rounds."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction as F

import discord
import pytest

from bot.discord.tournament_sheet import STANDINGS_FILE
from bot.model import Person
from render.standings import Row, Sheet, standings_png
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, autocompleted_turn, boards, make_bot, running, said
from tests.bot.test_settings_values import forged
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # the whole events and the restart on PostgreSQL too (sqlite_only: the rest)
MANAGER = discord.Permissions.text() | discord.Permissions(view_channel=True, manage_guild=True)
NAMES = {11: "Ann", 12: "Bob", 13: "Cy", 14: "Dee", 15: "Eve"}


def members(fake, count: int) -> list[dict]:
    return [fake.user(user_id, name) for user_id, name in list(NAMES.items())[:count]]


def cards_of(sent) -> list:
    """The tournament cards posted (new channel messages with a tournament's Join button)."""
    return [s for s in sent if s.kind == "channel_message"
            and any(str(c.get("custom_id", "")).startswith("tn:join:") for c in s.components)]


def pairings(sent) -> list:
    """The pairings posts: one per round, each listing its tables."""
    return [s for s in sent if s.kind == "channel_message" and s.embeds
            and re.search(r"(round|Runde) \d+ (of|von) \d+", s.embeds[0].get("title", ""))]


def standings_posts(sent) -> list:
    return [s for s in sent if s.kind == "channel_message" and any(n == STANDINGS_FILE for n, _ in s.files)]


def match_ids(post) -> list[int]:
    return [int(m) for m in re.findall(r"#(\d+)", post.embeds[0]["description"])]


async def deliver(fake) -> None:
    """What the background dispatcher does within moments: deliver every row that is due (a tournament's rows
    and the pairing worker's included)."""
    await fake.client.dispatcher.deliver_pending()


async def create(fake, who, **options) -> list:
    options.setdefault("name", "Autumn")
    options.setdefault("game", "tintas")
    options.setdefault("format", "round_robin")
    return await fake.slash(who, "tournament create", **options)


def join_button(card) -> str:
    return next(c["custom_id"] for c in card.components if str(c.get("custom_id", "")).startswith("tn:join:"))


async def join_all(fake, card, people) -> None:
    for p in people:
        out = await fake.click(p, join_button(card), message=card)
        assert "You are in Autumn" in said(out) or "Du spielst bei" in said(out)
    await deliver(fake)


async def resign(fake, match_id: int, loser: dict, game: str = "tintas") -> None:
    """``loser`` resigns game ``match_id`` through /<game> resign and its confirmation button."""
    confirm = (await fake.slash(loser, f"{game} resign", match=f"#{match_id}"))[-1]
    await fake.click(loser, confirm.button(confirm.components[0]["label"])["custom_id"], message=confirm)
    await deliver(fake)


async def lower_id_wins(fake, post) -> None:
    """Every game of a pairings post ends with the player of the higher id resigning."""
    services = fake.client.services
    for match_id in match_ids(post):
        match = await services.queries.get(match_id, position=False)
        loser = max(p.user_id for p in match.seated)
        await resign(fake, match_id, fake.users[loser], match.row.game)


# the 4-player round robin where the lower id wins every game, worked out by hand: points, SB, BH-1, wins
FINAL = (Row("1", "Ann", "3", ("3", "3", "3")), Row("2", "Bob", "2", ("1", "4", "2")),
         Row("3", "Cy", "1", ("0", "5", "1")), Row("4", "Dee", "0", ("0", "5", "0")))
FINAL_CROSS = (("", "1", "1", "1"), ("0", "", "1", "1"), ("0", "0", "", "1"), ("0", "0", "0", ""))


async def test_a_four_player_round_robin_runs_from_the_card_to_the_final_announcement(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 4)
    out = await create(fake, root, min_players=4, max_players=4)
    assert "Tournament #1 created" in said(out)
    card = cards_of(fake.sent)[-1]
    assert "Autumn" in card.text() and "round robin" in card.text() and "Entrants: 0" in card.text()
    await join_all(fake, card, people)
    card = fake.message(card.message_id)
    assert "Entrants: 4" in card.text() and all(n in card.text() for n in ("Ann", "Bob", "Cy", "Dee"))
    assert "Round 1 of 3 is being played" in card.text()
    out = await fake.click(people[3], card.button("Standings")["custom_id"], message=card)     # privately
    (shown,) = [s for s in out if s.files]
    assert shown.ephemeral and "Autumn" in shown.text() and dict(shown.files)[STANDINGS_FILE]
    for round_no in (1, 2, 3):
        posts = pairings(fake.sent)
        assert len(posts) == round_no, [p.text() for p in posts]
        post = posts[-1]
        assert f"round {round_no} of 3" in post.embeds[0]["title"]
        assert set(post.mentions) == {11, 12, 13, 14}           # every player of the round pinged
        assert len(match_ids(post)) == 2 and "board #" in post.embeds[0]["description"]
        for match_id in match_ids(post):                         # each game linked to its posted board
            match = await fake.client.services.queries.get(match_id, position=False)
            assert match.row.tournament_id == 1 and match.row.tournament_round == round_no
            assert str(match.row.board_message_id) in post.embeds[0]["description"]
        before = len(standings_posts(fake.sent))
        await lower_id_wins(fake, post)
        assert len(standings_posts(fake.sent)) == before + 2    # one per result; the last one's is the end's
    assert len(pairings(fake.sent)) == 3
    final = standings_posts(fake.sent)[-1]
    assert "Autumn" in final.content and "is over" in final.content and final.mentions == [11]
    sheet = Sheet("Autumn — final standings", ("#", "Player", "Points", "SB", "BH-1", "Wins"), FINAL, FINAL_CROSS)
    assert dict(final.files)[STANDINGS_FILE] == standings_png(sheet)
    card = fake.message(card.message_id)
    assert "Finished. Winner: <@11>" in card.text()
    with pytest.raises(KeyError):
        card.button("Join")


@pytest.mark.sqlite_only
async def test_tournament_games_are_labelled_on_their_boards(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 2)
    await fake.slash(people[1], "settings", notify="dm")          # Bob hears of his turns by direct message
    await create(fake, root, name="Autumn", min_players=2, max_players=2)
    await join_all(fake, cards_of(fake.sent)[-1], people)
    board = boards(fake.sent)[-1]
    assert "🏆 Autumn · round 1" in board.text()
    (game,) = match_ids(pairings(fake.sent)[-1])
    match = await fake.client.services.queries.get(game, position=False)
    if match.to_move_user.user_id == 11:                           # Ann moves first: then it is Bob's turn
        await one_move(fake, game)
    (dm,) = [s for s in fake.sent if s.kind == "dm"]
    assert dm.recipient_id == 12 and dm.text().startswith("🏆 Autumn · round 1\nTintas #1")


@pytest.mark.sqlite_only
async def test_a_german_server_gets_its_tournament_posts_in_german(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        root = fake.user(9, "Root", permissions=MANAGER)
        people = members(fake, 3)
        await create(fake, root, min_players=3, max_players=3)
        card = cards_of(fake.sent)[-1]
        assert "Teilnehmende: 0" in card.text() and "Rundenturnier" in card.text()
        assert card.button("Beitreten")
        await join_all(fake, card, people)
        for round_no in (1, 2, 3):
            post = pairings(fake.sent)[-1]
            assert f"Runde {round_no} von 3" in post.embeds[0]["title"]
            assert re.search(r"Tisch \d: <@\d+> vs <@\d+> — \[Brett #\d+\]", post.embeds[0]["description"])
            assert "setzt diese Runde aus" in post.embeds[0]["description"]
            await lower_id_wins(fake, post)
        *_, standings, end = standings_posts(fake.sent)
        assert "Tabelle nach Partie" in standings.content and "Feinwertung" in standings.content
        assert "ist vorbei! Glückwunsch, <@11>" in end.content
        assert "Beendet" in fake.message(card.message_id).text()
        out = await fake.slash(people[0], "tournament standings", tournament="#1")     # a German reader
        assert "Feinwertung" in out[-1].text() and any(n == STANDINGS_FILE for n, _ in out[-1].files)
        await fake.settle()


@pytest.mark.sqlite_only
async def test_only_managers_create_unless_the_server_lets_everyone(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    ann = members(fake, 1)[0]
    out = await create(fake, ann)
    assert "Manage Server" in said(out) and not cards_of(fake.sent)
    out = await fake.slash(ann, "settings", tournaments="everyone")
    assert "Manage Server" in said(out)
    out = await fake.slash(root, "settings", tournaments="everyone")
    assert "Tournaments may be created by: everyone" in said(out)
    out = await create(fake, ann)
    assert "Tournament #1 created" in said(out) and len(cards_of(fake.sent)) == 1


@pytest.mark.sqlite_only
async def test_a_stranger_who_cannot_see_the_channel_cannot_join(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root)
    card = cards_of(fake.sent)[-1]
    blind = fake.user(20, "Blind", permissions=discord.Permissions(send_messages=True))
    out = await fake.click(blind, card.button("Join")["custom_id"], message=card)
    assert "cannot see this channel" in said(out)
    assert (await fake.client.services.tournaments.view(1, guild_id=GUILD)).entrants == ()


async def test_the_cards_buttons_work_after_a_restart(db_path, clock):
    async with running(db_path, clock) as (fake, (ann, bob)):
        root = fake.user(9, "Root", permissions=MANAGER)
        await create(fake, root, min_players=2, max_players=3)
        card = cards_of(fake.sent)[-1]
        await fake.click(ann, card.button("Join")["custom_id"], message=card)
    async with running(db_path, clock) as (again, (ann, bob)):     # a new bot on the same database
        out = await again.click(bob, card.button("Join")["custom_id"], message=card)
        assert "You are in Autumn" in said(out)
        out = await again.click(ann, card.button("Withdraw")["custom_id"], message=card)
        assert "You withdrew from Autumn" in said(out)
        view = await again.client.services.tournaments.view(1, guild_id=GUILD)
        assert [e.user_id for e in view.active_entrants] == [12]


async def test_a_swiss_of_five_shows_a_bye_and_pairs_its_second_round(fake, clock):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 5)
    await create(fake, root, format="swiss", rounds=3, min_players=5, max_players=5, round_days=7)
    await join_all(fake, cards_of(fake.sent)[-1], people)
    first = pairings(fake.sent)[-1]
    assert "round 1 of 3" in first.embeds[0]["title"] and len(match_ids(first)) == 2
    deadline = int((clock.now + timedelta(days=7)).timestamp())
    assert (f"The round ends <t:{deadline}:f> (<t:{deadline}:R>); games still on then are decided: less thinking "
            "time used ranks higher; equal time is a draw.") in first.embeds[0]["description"]
    bye_one = re.findall(r"<@(\d+)>: a bye \(1 point\)", first.embeds[0]["description"])
    assert len(bye_one) == 1
    await lower_id_wins(fake, first)
    second = pairings(fake.sent)[-1]
    assert "round 2 of 3" in second.embeds[0]["title"] and len(match_ids(second)) == 2
    bye_two = re.findall(r"<@(\d+)>: a bye \(1 point\)", second.embeds[0]["description"])
    assert len(bye_two) == 1 and bye_two != bye_one                 # nobody gets the pairing's bye twice
    card = fake.message(cards_of(fake.sent)[-1].message_id)
    assert [c["label"] for c in card.components] == ["Withdraw", "Standings"]   # full: no Join
    out = await fake.slash(people[0], "tournament standings", tournament="#1")
    assert any(n == STANDINGS_FILE for n, _ in out[-1].files)


@pytest.mark.sqlite_only
async def test_a_forged_creators_setting_is_refused_and_changes_nothing(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    out = await forged(fake, root, "settings", tournaments="anyone")
    assert "Tournaments are created by managers or by everyone, not anyone" in said(out)
    assert await fake.client.services.tournaments.who_may_create(GUILD) == "managers"


@pytest.mark.sqlite_only
async def test_only_its_organiser_or_a_manager_starts_or_cancels_a_tournament(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    ann, bob, cy = members(fake, 3)
    await fake.slash(root, "settings", tournaments="everyone")
    await create(fake, ann, min_players=2, max_players=8)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, [bob, cy])
    for command in ("tournament start", "tournament cancel"):
        out = await fake.slash(bob, command, tournament="#1")
        assert "Only the tournament's creator or a server manager can" in said(out)
    assert (await fake.client.services.tournaments.view(1, guild_id=GUILD)).status == "open"
    out = await fake.slash(root, "tournament start", tournament="#1")
    assert "Autumn has started" in said(out)
    await deliver(fake)
    assert len(pairings(fake.sent)) == 1


@pytest.mark.sqlite_only
async def test_the_join_command_refuses_a_member_who_cannot_see_the_channel(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root)
    blind = fake.user(20, "Blind", permissions=discord.Permissions(send_messages=True))
    out = await fake.slash(blind, "tournament join", tournament="#1")
    assert "cannot see this channel" in said(out)
    out = await fake.slash(members(fake, 1)[0], "tournament join", tournament="#1")
    assert "You are in Autumn" in said(out)
    assert [e.user_id for e in (await fake.client.services.tournaments.view(1, guild_id=GUILD)).entrants] == [11]


@pytest.mark.sqlite_only
async def test_where_the_server_uses_threads_each_game_gets_its_own_and_the_pairings_link_it(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await fake.slash(root, "settings", threads=1)
    await create(fake, root, min_players=2, max_players=2)
    await join_all(fake, cards_of(fake.sent)[-1], members(fake, 2))
    thread = next(s for s in fake.sent if s.kind == "thread")
    assert thread.content == "Tintas: Ann vs Bob" or thread.content == "Tintas: Bob vs Ann"
    board = boards(fake.sent)[-1]
    assert board.channel_id == thread.channel_id and "🏆 Autumn · round 1" in board.text()
    post = pairings(fake.sent)[-1]
    assert post.channel_id == fake.channel_id                    # the pairings stay in the tournament's channel
    assert f"/{thread.channel_id}/{board.message_id}" in post.embeds[0]["description"]


@pytest.mark.sqlite_only
async def test_a_six_player_rincala_pod_event_seats_three_at_each_table_to_its_end(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = [fake.user(11 + i, name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))]
    await create(fake, root, game="rincala@3", format="swiss", rounds=2, min_players=6, max_players=6)
    card = cards_of(fake.sent)[-1]
    assert "Rincala, tables of 3" in card.text()
    await join_all(fake, card, people)
    for round_no in (1, 2):
        post = pairings(fake.sent)[-1]
        assert f"round {round_no} of 2" in post.embeds[0]["title"]
        tables = re.findall(r"Table \d: (<@\d+>) vs (<@\d+>) vs (<@\d+>)", post.embeds[0]["description"])
        assert len(tables) == 2 and len({p for t in tables for p in t}) == 6      # everyone seated once
        await lower_id_wins(fake, post)
    end = standings_posts(fake.sent)[-1]
    assert "is over" in end.content and end.mentions
    assert "Finished" in fake.message(card.message_id).text()
    out = await fake.slash(people[0], "tournament export", tournament="#1")
    assert "two-player" in said(out) and not any(s.files for s in out)


@pytest.mark.sqlite_only
async def test_a_spinca_table_of_four_lists_its_teams(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root, game="spinca@4", format="swiss", rounds=1, min_players=4, max_players=4)
    await join_all(fake, cards_of(fake.sent)[-1], members(fake, 4))
    post = pairings(fake.sent)[-1]
    assert re.search(r"Table 1: <@\d+> & <@\d+> vs <@\d+> & <@\d+>", post.embeds[0]["description"])


@pytest.mark.sqlite_only
async def test_list_autocomplete_and_the_trf_export_of_a_two_player_event(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    ann, bob = members(fake, 2)
    await create(fake, root, min_players=2, max_players=2)
    choices = await fake.autocomplete(ann, "tournament join", "tournament", tournament="aut")
    assert choices == [{"name": "Autumn (#1) — open for entries", "value": "1"}]
    assert await fake.autocomplete(ann, "tournament join", "tournament", tournament="spring") == []
    await join_all(fake, cards_of(fake.sent)[-1], [ann, bob])
    out = await fake.slash(ann, "tournament list")
    assert "**Autumn** (#1) · Tintas · round robin · 2/2 entrants · round 1 of 1" in said(out)
    await lower_id_wins(fake, pairings(fake.sent)[-1])
    out = await fake.slash(bob, "tournament export", tournament="#1")
    (name, trf), = [f for s in out for f in s.files]
    assert name == "tournament-1.trf"
    players = [line for line in trf.decode().splitlines() if line.startswith("001")]
    assert len(players) == 2 and "Ann" in players[0] and "Bob" in players[1]


@pytest.mark.sqlite_only
async def test_a_withdrawal_and_a_requested_bye_show_on_the_card_and_in_the_pairings(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 5)
    await create(fake, root, format="swiss", rounds=3, min_players=5, max_players=5)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, people)
    out = await fake.slash(people[1], "tournament bye", tournament="#1")
    assert "Half-point byes in Autumn: round 2" in said(out)
    out = await fake.slash(people[4], "tournament withdraw", tournament="#1")
    assert "You withdrew from Autumn" in said(out)
    await deliver(fake)
    assert "~~Eve~~" in fake.message(card.message_id).text()
    await lower_id_wins(fake, pairings(fake.sent)[-1])
    second = pairings(fake.sent)[-1]
    assert "round 2 of 3" in second.embeds[0]["title"]
    assert "<@12>: a requested bye (½ point)" in second.embeds[0]["description"]
    assert "<@15>" not in second.embeds[0]["description"]


@pytest.mark.sqlite_only
async def test_a_round_too_big_for_one_message_continues_in_more_and_pings_everyone_once(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = [fake.user(100 + i, f"Player {i}") for i in range(PLAYERS_OF_A_BIG_ROUND)]
    await create(fake, root, format="swiss", rounds=1, min_players=len(people), max_players=len(people))
    await join_all(fake, cards_of(fake.sent)[-1], people)
    posts = [s for s in fake.sent if s.kind == "channel_message" and s.embeds
             and "round 1 of 1" in s.embeds[0].get("title", "")]
    assert len(posts) == 2 and posts[1].embeds[0]["title"].endswith("(2/2)")
    assert all(len(p.embeds[0]["description"]) <= 4096 and len(p.content or "") <= 2000 for p in posts)
    games = [m for p in posts for m in match_ids(p)]
    assert sorted(games) == list(range(1, len(people) // 2 + 1))            # every game listed once
    pinged = [u for p in posts for u in p.mentions]
    assert sorted(pinged) == [int(p["id"]) for p in people]                 # every player pinged once


PLAYERS_OF_A_BIG_ROUND = 96     # 48 tables with their board links: more than one message holds


@pytest.mark.sqlite_only
async def test_a_cancelled_tournament_says_so_on_its_card_and_its_games_end(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root, min_players=2, max_players=2)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, members(fake, 2))
    (game,) = match_ids(pairings(fake.sent)[-1])
    out = await fake.slash(root, "tournament cancel", tournament="#1")
    assert "Autumn was cancelled" in said(out)
    await deliver(fake)
    card = fake.message(card.message_id)
    assert "Cancelled by its organiser." in card.text() and not card.components
    assert (await fake.client.services.queries.get(game, position=False)).status == "aborted"


async def draw_agreed(fake, match_id: int) -> None:
    """The player to move offers a draw with /tintas draw; the other accepts with the offer's button."""
    match = await fake.client.services.queries.get(match_id, position=False)
    mover = fake.users[match.to_move_user.user_id]
    other = fake.users[next(p.user_id for p in match.seated if p.user_id != match.to_move_user.user_id)]
    out = await fake.slash(mover, "tintas draw", match=f"#{match_id}")
    offer = next(s for s in out if s.kind == "channel_message" and s.components)
    await fake.click(other, offer.button("Accept draw")["custom_id"], message=offer)
    await deliver(fake)


async def one_move(fake, match_id: int) -> dict:
    """The player to move plays a turn from the autocomplete; returns who is to move next."""
    match = await fake.client.services.queries.get(match_id, position=False)
    mover = fake.users[match.to_move_user.user_id]
    turn = await autocompleted_turn(fake, mover, "tintas move", match=f"#{match_id}")
    await fake.slash(mover, "tintas move", move=turn, match=f"#{match_id}")
    match = await fake.client.services.queries.get(match_id, position=False)
    return fake.users[match.to_move_user.user_id]


@pytest.mark.sqlite_only
async def test_an_eight_player_swiss_with_a_draw_a_time_out_a_withdrawal_and_a_bye_runs_to_its_end(fake, clock):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = [fake.user(11 + i, name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"))]
    await create(fake, root, format="swiss", rounds=3, min_players=8, max_players=8)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, people)
    # round 1: a draw by agreement, two resignations, and a time-out (after each player's first move, so it is a
    # loss; a player who never moved has the game aborted)
    first = pairings(fake.sent)[-1]
    drawn, resigned_1, resigned_2, late = match_ids(first)
    await draw_agreed(fake, drawn)
    for match_id in (resigned_1, resigned_2):
        match = await fake.client.services.queries.get(match_id, position=False)
        await resign(fake, match_id, fake.users[max(p.user_id for p in match.seated)])
    await one_move(fake, late)
    timed_out = await one_move(fake, late)
    clock.advance(days=4)
    await fake.client.scheduler.run_due()
    await deliver(fake)
    match = await fake.client.services.queries.get(late, position=False)
    assert match.status == "finished" and match.row.termination == "timeout"
    # round 2: a player withdraws while their game runs (it is lost by forfeit); the others resign
    second = pairings(fake.sent)[-1]
    assert "round 2 of 3" in second.embeds[0]["title"]
    leaving = fake.users[int(re.findall(r"<@(\d+)>", second.embeds[0]["description"])[0])]
    out = await fake.slash(leaving, "tournament withdraw", tournament="#1")
    assert "You withdrew from Autumn" in said(out)
    await deliver(fake)
    for match_id in match_ids(second):
        match = await fake.client.services.queries.get(match_id, position=False)
        if match.status == "active":
            await resign(fake, match_id, fake.users[max(p.user_id for p in match.seated)])
    # round 3: seven players left, so one has the pairing's bye
    third = pairings(fake.sent)[-1]
    assert "round 3 of 3" in third.embeds[0]["title"] and len(match_ids(third)) == 3
    assert f"<@{leaving['id']}>" not in third.embeds[0]["description"]
    assert len(re.findall(r"<@\d+>: a bye \(1 point\)", third.embeds[0]["description"])) == 1
    await lower_id_wins(fake, third)
    view = await fake.client.services.tournaments.view(1, guild_id=GUILD)
    assert view.status == "finished"
    assert sum(s.points for s in view.standings) == 12          # four points a round: games, forfeits and the bye
    assert next(s for s in view.standings if s.user_id == int(leaving["id"])).withdrawn
    tables = {t.match_id: t for t in view.rounds[0].tables}
    assert tables[drawn].ranks == (1, 1)
    late_table = tables[late]                                   # lost on time over the board: not a forfeit
    assert late_table.ranks is not None and not late_table.forfeit
    assert late_table.ranks[late_table.seats.index(int(timed_out["id"]))] == 2
    end = standings_posts(fake.sent)[-1]
    assert "is over" in end.content and end.mentions == list(view.winners)
    assert "Finished" in fake.message(card.message_id).text() and "~~" in fake.message(card.message_id).text()


# tests/bot/tournaments/test_scoring.py's 5-player double round robin: the first seat's score against the second
# in each leg, the smaller id first (entrant i is user 10 + i here), and its standings worked out by hand
LEG1 = {(1, 2): 1, (1, 3): F(1, 2), (1, 4): 1, (1, 5): 0, (2, 3): 1, (2, 4): F(1, 2), (2, 5): 1,
        (3, 4): 1, (3, 5): F(1, 2), (4, 5): 1}
LEG2 = {(1, 2): 0, (1, 3): 1, (1, 4): F(1, 2), (1, 5): 1, (2, 3): 0, (2, 4): 1, (2, 5): F(1, 2),
        (3, 4): 0, (3, 5): 1, (4, 5): F(1, 2)}
DOUBLE = (Row("1", "Ann", "5", ("18¾", "27½", "4")), Row("2", "Bob", "5", ("18", "27½", "4")),
          Row("3", "Cy", "4", ("14¾", "29½", "3")), Row("4", "Dee", "3½", ("12¾", "30½", "2")),
          Row("5", "Eve", "2½", ("11¼", "31½", "1")))


def _score(p: int, q: int, leg: dict) -> F:
    return F(leg[(p, q)]) if p < q else 1 - F(leg[(q, p)])


def _cell(p: int, q: int) -> str:
    if p == q:
        return ""
    return " ".join({F(1): "1", F(1, 2): "½", F(0): "0"}[_score(p, q, leg)] for leg in (LEG1, LEG2))


@pytest.mark.sqlite_only
async def test_a_five_player_double_round_robin_ends_with_the_hand_computed_standings(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 5)
    await create(fake, root, format="double_round_robin", min_players=5, max_players=5)
    await join_all(fake, cards_of(fake.sent)[-1], people)
    for round_no in range(1, 11):
        post = pairings(fake.sent)[-1]
        assert f"round {round_no} of 10" in post.embeds[0]["title"]
        assert len(re.findall(r"<@\d+> sits out this round", post.embeds[0]["description"])) == 1   # no points
        for match_id in match_ids(post):
            match = await fake.client.services.queries.get(match_id, position=False)
            p, q = sorted(u.user_id - 10 for u in match.seated)
            score = F((LEG1 if round_no <= 5 else LEG2)[(p, q)])
            if score == F(1, 2):
                await draw_agreed(fake, match_id)
            else:
                await resign(fake, match_id, fake.users[10 + (q if score == 1 else p)])
    assert len(pairings(fake.sent)) == 10
    final = standings_posts(fake.sent)[-1]
    assert "is over" in final.content and final.mentions == [11]
    cross = tuple(tuple(_cell(p, q) for q in range(1, 6)) for p in range(1, 6))
    sheet = Sheet("Autumn — final standings", ("#", "Player", "Points", "SB", "BH-1", "Wins"), DOUBLE, cross)
    assert dict(final.files)[STANDINGS_FILE] == standings_png(sheet)


@pytest.mark.sqlite_only
async def test_a_running_swiss_takes_a_late_entrant_by_its_cards_button(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = members(fake, 5)
    await create(fake, root, format="swiss", rounds=3, min_players=4, max_players=6)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, people[:4])
    out = await fake.slash(root, "tournament start", tournament="#1")
    assert "Autumn has started" in said(out)
    await deliver(fake)
    card = fake.message(card.message_id)
    assert "Round 1 of 3 is being played" in card.text()
    await join_all(fake, card, people[4:])                        # the Join button stays on a running Swiss
    await lower_id_wins(fake, pairings(fake.sent)[-1])
    second = pairings(fake.sent)[-1]
    assert "round 2 of 3" in second.embeds[0]["title"] and "<@15>" in second.embeds[0]["description"]


@pytest.mark.sqlite_only
async def test_two_entrants_kept_apart_are_never_paired(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    ann, bob, cy, dee = members(fake, 4)
    await create(fake, root, format="swiss", rounds=3, min_players=4, max_players=4)
    card = cards_of(fake.sent)[-1]
    await join_all(fake, card, [ann, bob, cy])
    out = await fake.slash(bob, "tournament forbid", tournament="#1", player=ann, other=bob)
    assert "Only the tournament's creator or a server manager can keep players apart" in said(out)
    out = await fake.slash(root, "tournament forbid", tournament="#1", player=ann, other=bob)
    assert "Ann and Bob will never be paired in Autumn" in said(out)
    await join_all(fake, card, [dee])
    for _round in range(3):
        post = pairings(fake.sent)[-1]
        assert not re.search(r"<@1[12]> vs <@1[12]>", post.embeds[0]["description"]), post.embeds[0]["description"]
        await lower_id_wins(fake, post)
    assert "Finished" in fake.message(card.message_id).text()


@pytest.mark.sqlite_only
async def test_an_all_at_once_round_robin_posts_every_round_in_one_pairings_post(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root, min_players=4, max_players=4, schedule="all_at_once")
    card = cards_of(fake.sent)[-1]
    assert "round robin, all games at once" in card.text()
    await join_all(fake, card, members(fake, 4))
    posts = [s for s in fake.sent if s.kind == "channel_message" and s.embeds and "all at once" in
             s.embeds[0].get("title", "")]
    assert len(posts) == 1 and "rounds 1 to 3 of 3" in posts[0].embeds[0]["title"]
    text = posts[0].embeds[0]["description"]
    assert all(f"**Round {n}**" in text for n in (1, 2, 3))
    assert len(match_ids(posts[0])) == 6 and len(boards(fake.sent)) == 6     # every game linked to its board
    services = fake.client.services
    for match_id in match_ids(posts[0]):
        match = await services.queries.get(match_id, position=False)
        await resign(fake, match_id, fake.users[max(p.user_id for p in match.seated)])
    end = standings_posts(fake.sent)[-1]
    assert "is over" in end.content and end.mentions == [11]


@pytest.mark.sqlite_only
async def test_a_pod_event_created_with_the_defaults_starts_from_one_full_table(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    out = await create(fake, root, game="spinca@3", format="swiss", rounds=2)
    assert "Tournament #1 created" in said(out)
    assert "Entrants: 0 (at least 3, at most 16)" in cards_of(fake.sent)[-1].text()
    out = await create(fake, root, game="spinca@3", format="swiss", rounds=2, min_players=2)
    assert "at least 3 entrants" in said(out) and len(cards_of(fake.sent)) == 1


@pytest.mark.sqlite_only
async def test_a_board_another_process_holds_is_named_by_its_number_in_the_pairings(fake, clock, monkeypatch):
    monkeypatch.setattr("bot.discord.posts.tournaments.BOARDS_WAIT", 0.2)     # seconds the pairings wait for it
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root, min_players=2, max_players=2)
    services = fake.client.services
    for user_id, name in ((11, "Ann"), (12, "Bob")):
        await services.tournaments.join(1, Person(user_id, name), guild_id=GUILD)
    assert await services.tournaments.pair_round(1, 1)                      # round 1 and its match's first board
    later = (clock.now + timedelta(hours=1)).isoformat()
    held = await services.outbox.claim(now=clock.now.isoformat(), until=later, owner="elsewhere:1", match_id=1)
    assert [r.kind for r in held][:1] == ["board"]                           # another process is posting it
    await deliver(fake)
    post = pairings(fake.sent)[-1]
    assert "Table 1: <@11> vs <@12> — #1 (its board follows)" in post.embeds[0]["description"] \
        or "Table 1: <@12> vs <@11> — #1 (its board follows)" in post.embeds[0]["description"]
    assert not boards(fake.sent)


@pytest.mark.sqlite_only
async def test_standings_of_a_tournament_nobody_entered_yet_are_an_empty_table(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    await create(fake, root)
    out = await fake.slash(root, "tournament standings", tournament="#1")
    assert any(n == STANDINGS_FILE for n, _ in out[-1].files) and "Autumn" in out[-1].text()
    out = await fake.slash(root, "tournament standings", tournament="#2")
    assert not any(s.files for s in out) and said(out)            # no such tournament: told, nothing drawn


@pytest.mark.sqlite_only
async def test_a_league_of_eleven_plays_two_divisions_at_once_and_shows_a_table_for_each(fake):
    root = fake.user(9, "Root", permissions=MANAGER)
    people = [fake.user(100 + i, f"Player {i}") for i in range(11)]
    out = await create(fake, root, format="league", repeat=30, min_players=11, max_players=11)
    assert "Tournament #1 created" in said(out)
    card = cards_of(fake.sent)[-1]
    assert "league, all games at once · edition 1 · the next one 30 days after this one ends" in card.text()
    await join_all(fake, card, people)
    (post,) = [s for s in fake.sent if s.kind == "channel_message" and s.embeds
               and "all at once" in s.embeds[0].get("title", "")]
    games = match_ids(post)
    assert len(games) == 15 + 10                         # divisions of 6 and 5, each a round robin
    for match_id in games:
        match = await fake.client.services.queries.get(match_id, position=False)
        await resign(fake, match_id, fake.users[max(p.user_id for p in match.seated)])
    end = [s for s in fake.sent if s.kind == "channel_message" and "is over" in (s.content or "")][-1]
    assert [name for name, _ in end.files] == ["standings-1.png", "standings-2.png"]
    view = await fake.client.services.tournaments.view(1, guild_id=GUILD)
    assert end.mentions == list(view.winners) and len(view.winners) == 1
    out = await fake.slash(people[0], "tournament standings", tournament="#1")
    assert [name for name, _ in out[-1].files] == ["standings-1.png", "standings-2.png"]
