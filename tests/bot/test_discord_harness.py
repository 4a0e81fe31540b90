"""Proves tests/bot/discord_harness.py against a small sample bot defined here (not the real bot)."""

from __future__ import annotations

import asyncio
import io
import re

import discord
import pytest
from discord import app_commands

from tests.bot.discord_harness import FakeDiscord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<n>\d+)"):
    """A persistent button: its whole state lives in the custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}", style=discord.ButtonStyle.primary)
        )
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"Count is {self.n + 1}", view=view)


class HelloView(discord.ui.View):
    def __init__(self, target_id: int) -> None:
        super().__init__(timeout=180)
        self.target_id = target_id

    @discord.ui.button(label="Wave back", custom_id="hello:wave", style=discord.ButtonStyle.success)
    async def wave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        if interaction.user.id != self.target_id:
            await interaction.response.send_message("That wave wasn't for you.", ephemeral=True)
            return
        button.disabled = True
        await interaction.response.edit_message(content=f"{interaction.user.mention} waved back!", view=self)


GAMES = ["tintas", "rincala", "roocala", "quincala", "spinca"]


class SampleBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.on_app_command_error
        self.tree.add_command(build_demo_group())
        self.setup_calls = 0

    async def setup_hook(self) -> None:
        self.setup_calls += 1
        self.add_dynamic_items(CounterButton)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ):
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("You need **Manage Server** for that.", ephemeral=True)
            return
        raise error


def build_demo_group() -> app_commands.Group:
    demo = app_commands.Group(name="demo", description="Harness demo")

    @demo.command(name="hello", description="Say hello")
    async def hello(interaction: discord.Interaction, user: discord.User) -> None:
        await interaction.response.send_message(f"Hello {user.mention}!", view=HelloView(user.id))

    async def game_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g.title(), value=g) for g in GAMES if g.startswith(current.lower())]

    @demo.command(name="play", description="Pick a game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def play(interaction: discord.Interaction, game: str) -> None:
        if game not in GAMES:
            await interaction.response.send_message(f"Unknown game `{game}`.", ephemeral=True)
            return
        await interaction.response.send_message(f"Starting {game.title()}.")

    @demo.command(name="board", description="Render a board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(
            embed=discord.Embed(title="Board", description="Turn 1").set_image(url="attachment://board.png"),
            file=discord.File(io.BytesIO(_png()), filename="board.png"),
        )

    @demo.command(name="counter", description="A restart-proof counter")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("Count is 0", view=view)

    @demo.command(name="announce", description="Post in the channel and DM the caller")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.channel.send(f"📣 {text}")
        try:
            await interaction.user.send(f"You announced: {text}")
            note = "Announced (and DMed you)."
        except discord.Forbidden:
            note = "Announced, but your DMs are closed."
        await interaction.response.send_message(note, ephemeral=True)

    @demo.command(name="reset", description="Admins only")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Everything reset.")

    @demo.command(name="crash", description="Raises")
    async def crash(interaction: discord.Interaction) -> None:
        raise ZeroDivisionError("boom")

    @demo.command(name="table", description="Open a game thread")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Opening a table…")
        thread = await interaction.channel.create_thread(
            name="Tintas: alice vs bob", type=discord.ChannelType.public_thread
        )
        await thread.send("Your move, alice.")
        await interaction.edit_original_response(content=f"Table ready: {thread.mention}")

    @demo.command(name="later", description="Answers, then works in the background")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def finish() -> None:
            await asyncio.sleep(0.01)
            await interaction.followup.send("Done thinking.", ephemeral=False)

        interaction.client.background = asyncio.create_task(finish())

    @demo.command(name="silent", description="Never answers")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    return demo


@pytest.fixture
async def fake():
    async with FakeDiscord(SampleBot()) as f:
        yield f


async def test_start_runs_setup_hook_without_network(fake: FakeDiscord) -> None:
    assert fake.client.setup_calls == 1
    assert fake.client.user.id == fake.application_id
    assert fake.client.application_id == fake.application_id
    assert fake.client.get_channel(fake.channel_id).name == "general"


async def test_slash_subcommand_with_user_option_replies_with_mention_and_button(fake: FakeDiscord) -> None:
    alice, bob = fake.user(1, "alice"), fake.user(2, "bob")

    out = await fake.slash(alice, "demo hello", user=bob)

    assert [s.kind for s in out] == ["response"]
    reply = out[0]
    assert reply.text() == "Hello <@2>!"
    assert reply.mentions == [2]
    assert not reply.ephemeral
    assert reply.channel_id == fake.channel_id
    assert reply.components == [
        {"type": 2, "custom_id": "hello:wave", "label": "Wave back", "style": 3, "disabled": False}
    ]
    assert fake.sent == out


async def test_view_button_routes_to_the_stored_view(fake: FakeDiscord) -> None:
    alice, bob = fake.user(1, "alice"), fake.user(2, "bob")
    reply = (await fake.slash(alice, "demo hello", user=bob))[0]

    wrong = await fake.click(alice, "hello:wave", message=reply)
    assert [(s.kind, s.ephemeral, s.text()) for s in wrong] == [
        ("response", True, "That wave wasn't for you.")
    ]

    right = await fake.click(bob, reply.button("Wave back")["custom_id"], message=reply)
    assert [s.kind for s in right] == ["update"]
    assert right[0].message_id == reply.message_id
    assert right[0].text() == "<@2> waved back!"
    assert right[0].button("Wave back")["disabled"] is True
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(bob, "hello:wave")


async def test_autocomplete_returns_choices(fake: FakeDiscord) -> None:
    alice = fake.user(1, "alice")
    choices = await fake.autocomplete(alice, "demo play", "game", game="r")
    assert choices == [{"name": "Rincala", "value": "rincala"}, {"name": "Roocala", "value": "roocala"}]
    assert fake.sent[-1].kind == "autocomplete"


async def test_ephemeral_error_reply(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user(1, "alice"), "demo play", game="chess")
    assert [(s.kind, s.ephemeral) for s in out] == [("response", True)]
    assert "Unknown game `chess`" in out[0].text()


async def test_permissions_mark_an_admin(fake: FakeDiscord) -> None:
    pleb = fake.user(1, "alice")
    admin = fake.user(9, "root", permissions=discord.Permissions(manage_guild=True))

    denied = await fake.slash(pleb, "demo reset")
    assert [(s.kind, s.ephemeral, s.text()) for s in denied] == [
        ("response", True, "You need **Manage Server** for that.")
    ]
    allowed = await fake.slash(admin, "demo reset")
    assert [(s.ephemeral, s.text()) for s in allowed] == [(False, "Everything reset.")]


async def test_deferred_then_followup_with_png(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user(1, "alice"), "demo board")

    assert [s.kind for s in out] == ["deferred", "followup"]
    deferred, followup = out
    assert deferred.response_type == 5
    # The first followup after a "thinking" defer replaces that message.
    assert followup.message_id == deferred.message_id
    assert "Board" in followup.text() and "Turn 1" in followup.text()
    ((name, data),) = followup.files
    assert name == "board.png" and data.startswith(PNG_MAGIC) and data == _png()
    assert followup.embeds[0]["image"]["url"] == "attachment://board.png"


async def test_dynamic_item_survives_a_restart() -> None:
    user = {"id": "1"}
    async with FakeDiscord(SampleBot()) as first:
        alice = first.user(1, "alice")
        user = alice
        msg = (await first.slash(alice, "demo counter"))[0]
        assert msg.button("Count 0")["custom_id"] == "counter:0"
        bumped = (await first.click(alice, "counter:0", message=msg))[0]
        assert bumped.kind == "update" and bumped.text() == "Count is 1"

    # A brand-new process: new client, nothing in memory but what setup_hook registers.
    async with FakeDiscord(SampleBot()) as second:
        second.user(1, "alice")
        out = await second.click(user, "counter:1", message=bumped)
        assert [(s.kind, s.message_id, s.text()) for s in out] == [("update", msg.message_id, "Count is 2")]
        assert out[0].button("Count 2")["custom_id"] == "counter:2"


async def test_channel_send_and_dm_are_captured(fake: FakeDiscord) -> None:
    alice = fake.user(1, "alice")
    out = await fake.slash(alice, "demo announce", text="game night")

    assert [s.kind for s in out] == ["channel_message", "dm", "response"]
    post, dm, reply = out
    assert post.channel_id == fake.channel_id and post.text() == "📣 game night"
    assert dm.recipient_id == 1 and dm.text() == "You announced: game night"
    assert reply.ephemeral and reply.text() == "Announced (and DMed you)."
    assert post.message_id < dm.message_id < reply.message_id  # unique, monotonic


async def test_closed_dms_raise_forbidden(fake: FakeDiscord) -> None:
    alice = fake.user(1, "alice")
    fake.closed_dms.add(1)
    out = await fake.slash(alice, "demo announce", text="hi")
    assert [s.kind for s in out] == ["channel_message", "response"]
    assert out[-1].text() == "Announced, but your DMs are closed."


async def test_unhandled_errors_are_raised_in_strict_mode(fake: FakeDiscord) -> None:
    with pytest.raises(ZeroDivisionError, match="boom"):
        await fake.slash(fake.user(1, "alice"), "demo crash")


async def test_no_response_shows_interaction_failed(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user(1, "alice"), "demo silent")
    assert [(s.kind, s.text()) for s in out] == [("failed", "This interaction failed")]
    assert fake.sent == []


async def test_bad_invocations_are_rejected_like_discord_would(fake: FakeDiscord) -> None:
    alice = fake.user(1, "alice")
    with pytest.raises(LookupError):
        await fake.slash(alice, "demo nope")
    with pytest.raises(TypeError, match="missing required"):
        await fake.slash(alice, "demo hello")
    with pytest.raises(TypeError, match="no option"):
        await fake.slash(alice, "demo hello", user=alice, colour="red")


async def test_thread_creation_send_and_edit_original(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user(1, "alice"), "demo table")

    assert [s.kind for s in out] == ["response", "thread", "channel_message", "edit_original"]
    reply, thread, first_move, edited = out
    assert thread.content == "Tintas: alice vs bob"
    assert first_move.channel_id == thread.channel_id and first_move.text() == "Your move, alice."
    assert edited.message_id == reply.message_id
    assert edited.text() == f"Table ready: <#{thread.channel_id}>"
    assert fake.message(reply.message_id).text() == edited.text()
    assert fake.client.get_channel(thread.channel_id).name == "Tintas: alice vs bob"
    # the user can now run commands inside the thread
    hello = await fake.slash(fake.user(2, "bob"), "demo play", channel_id=thread.channel_id, game="tintas")
    assert hello[0].channel_id == thread.channel_id


async def test_background_followup_after_ephemeral_defer_needs_settle(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user(1, "alice"), "demo later")
    assert [(s.kind, s.ephemeral) for s in out] == [("deferred", True)]

    await fake.settle()

    followup = fake.sent[-1]
    assert followup.kind == "followup" and followup.text() == "Done thinking."
    # Discord quirk: the first followup replaces the ephemeral "thinking" message and stays ephemeral.
    assert followup.ephemeral and followup.message_id == out[0].message_id
