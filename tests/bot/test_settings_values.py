"""/settings takes nothing on trust: a modified client can send any value for any option (a fraction for a whole
number, a choice that was never offered, a time zone that is no place's). Each gets the clear refusal a wrong
value gets, no traceback, and a refused command changes nothing, also what it asked for beside the bad value."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.model import BadInput
from bot.services import Services
from bot.services.digests import NOT_TIME_ZONES, time_zones
from bot.services.settings import SettingsRequest, checked
from bot.store import Database
from tests.bot.support import said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

ADMIN = discord.Permissions(manage_guild=True)
ANN = 11


async def forged(fake, user, command: str, **raw: Any):
    """``/command`` with option values exactly as given, as a modified client could send them (``fake.slash``
    only sends what Discord's own client would)."""
    cmd, in_guild = fake._find_command(command)
    params = {p.name: p for p in cmd.parameters}
    options = [{"name": params[k].display_name, "type": params[k].type.value, "value": v} for k, v in raw.items()]
    data: dict[str, Any] = {"id": str(fake._command_ids.setdefault(cmd.name, fake._snowflake())), "name": cmd.name,
                            "type": 1, "options": options}
    if in_guild:
        data["guild_id"] = str(fake.guild_id)
    return await fake._dispatch(fake._interaction_payload(2, user, data, channel_id=None))


async def stored(fake) -> dict[str, Any]:
    """What /settings can change for Ann and the server, read from the database."""
    services = fake.client.services
    away = await services.away.status(fake.guild_id, ANN)
    digest = await services.digests.choice(ANN)
    server = await services.settings.guild(fake.guild_id)
    return {"notify": await services.settings.notify(ANN), "away": away.until, "allowance": away.allowance_days,
            "digest": (digest.hour, digest.timezone, digest.next_at), "server": server}


@pytest.mark.parametrize(("option", "forged_value", "wrong_value", "says"), [
    ("away", 1.5, 400, "Time away is 1 to 365 days (0 = back now), not {}. Nothing was changed."),
    ("away", "3", -1, "Time away is 1 to 365 days (0 = back now), not {}. Nothing was changed."),
    ("digest_hour", 1.5, 24, "The digest hour is a whole hour from 0 to 23, not {}. Nothing was changed."),
    ("digest_hour", True, -1, "The digest hour is a whole hour from 0 to 23, not {}. Nothing was changed."),
])
async def test_a_forged_number_gets_the_refusal_of_a_wrong_one_and_changes_nothing(fake, people, option,
                                                                                     forged_value, wrong_value, says):
    before = await stored(fake)
    for value in (forged_value, wrong_value):
        out = await forged(fake, people[0], "settings", **{option: value, "notify": "off"})
        assert says.format(value) in said(out), said(out)
        assert await stored(fake) == before


async def test_a_forged_allowance_and_server_settings_are_refused_for_admins_too(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    before = await stored(fake)
    cases = [({"away_allowance": 2.5}, "The allowance of time away is 0 to 365 days a year, not 2.5."),
             ({"threads": 2}, "One thread per match is on or off, not 2."),
             ({"takebacks": 0.5}, "Takebacks in rated matches are on or off, not 0.5."),
             ({"default_time": 4}, "The default time per move is one of 1, 2, 3, 5, 7, 14 days, or none (casual),"
                                   " not 4."),
             ({"default_time": 1.5}, "The default time per move is one of 1, 2, 3, 5, 7, 14 days, or none (casual),"
                                     " not 1.5.")]
    for options, says in cases:
        out = await forged(fake, admin, "settings", **{"threads": 1, "away_allowance": 9, **options})
        assert says in said(out) and "Nothing was changed" in said(out), said(out)
        assert await stored(fake) == before


async def test_a_forged_notify_choice_with_a_valid_absence_stores_neither(fake, people):
    """The measured fault: ``away:`` was stored, then the unknown choice raised (no answer, a partial change)."""
    before = await stored(fake)
    for value in ("bogus", "DM", 1):
        out = await forged(fake, people[0], "settings", away=3, notify=value)
        assert f"{value} is not one of the notification choices; pick one from the list." in said(out)
        assert await stored(fake) == before
    out = await forged(fake, people[0], "settings", away=3, notify="dm")     # the same command, honest: both
    assert "You are away until" in said(out)
    after = await stored(fake)
    assert after["notify"] == "dm" and after["away"] is not None


async def test_a_refusal_inside_the_change_undoes_the_settings_written_before_it(fake, people):
    """Time away beyond the allowance is found only in the transaction, after the notification choice, the
    digest and the allowance were written in it: all of them are rolled back."""
    admin = fake.user(9, "Root", permissions=ADMIN)
    before = await stored(fake)
    out = await fake.slash(admin, "settings", notify="off", digest_hour=7, timezone="Asia/Tokyo",
                           away_allowance=2, threads=1, away=5)
    assert "You have 2 days of time away left" in said(out) and "Nothing was changed" in said(out)
    assert await stored(fake) == before
    assert (await fake.client.services.settings.notify(9)) == "mention"


async def test_only_iana_time_zones_and_as_iana_spells_them(fake, people):
    ann = people[0]
    for zone in ("localtime", "Factory", "posixrules", "Mars/Olympus", "Europe/Berlin/", "../Europe/Berlin"):
        out = await fake.slash(ann, "settings", timezone=zone)
        assert f"'{zone}' is not a time zone I know" in said(out) and "Nothing was changed" in said(out)
    assert "'5' is not a time zone I know" in said(await forged(fake, ann, "settings", timezone=5))
    assert (await stored(fake))["digest"] == (8, "UTC", None)
    out = await fake.slash(ann, "settings", notify="digest", timezone=" europe/berlin ")
    assert "(Europe/Berlin)" in said(out)
    assert (await fake.client.services.digests.choice(ANN)).timezone == "Europe/Berlin"
    assert not NOT_TIME_ZONES & time_zones()
    assert "localtime" not in [c["value"] for c in await fake.autocomplete(ann, "settings", "timezone",
                                                                           timezone="local")]


async def test_a_refused_hour_leaves_the_digest_working(fake, people):
    """The measured fault on SQLite: a stored hour of 1.5 broke every later notify:digest with a TypeError."""
    ann = people[0]
    assert "not 1.5" in said(await forged(fake, ann, "settings", digest_hour=1.5))
    out = await fake.slash(ann, "settings", notify="digest")
    assert "a daily digest at 08:00 (UTC)" in said(out)


async def test_a_member_without_manage_server_changes_no_server_setting(fake, people):
    before = await stored(fake)
    for options in ({"threads": 1}, {"default_time": 7}, {"takebacks": 1}, {"allow_channel": fake.channel_id}):
        out = await fake.slash(people[0], "settings", notify="off", **options)
        assert "Only members with the Manage Server permission can change the server's settings" in said(out)
        assert await stored(fake) == before


async def test_a_forged_channel_is_refused_clearly_and_changes_nothing(fake, people, caplog):
    """A channel id with no channel behind it (Discord resolves every channel it sends): discord.py cannot
    convert it; the user is told so, no traceback is logged, nothing is stored."""
    admin = fake.user(9, "Root", permissions=ADMIN)
    before = await stored(fake)
    out = await forged(fake, admin, "settings", allow_channel="123456", notify="off")
    assert "This command got a value it cannot use (<Object id=123456" in said(out)
    assert "nothing was changed" in said(out)
    assert await stored(fake) == before
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_fractional_hour_stored_before_the_checks_is_made_whole_by_the_migration(tmp_path, clock):
    """A database written by the unchecked /settings (SQLite keeps 1.5 in an INTEGER column): migration 12 makes
    the hour whole, and the digest can be chosen again."""
    path = tmp_path / "old.sqlite3"
    db = await Database.open(path)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO user_digests (user_id, hour, timezone, next_at) VALUES (?, 1.5, 'UTC', NULL)",
                         (ANN,))
        await tx.execute("INSERT INTO guild_settings (guild_id, away_allowance_days) VALUES (1, 2.5)")
        await tx.execute("DELETE FROM schema_migrations WHERE version = 12")      # as before migration 12
    await db.close()
    db = await Database.open(path)
    try:
        services = Services(db, clock=clock)
        choice = await services.digests.choose(ANN, on=True, hour=None, timezone=None)
        assert choice.hour == 1 and choice.next_at is not None
        assert (await services.away.status(1, ANN)).allowance_days == 2
    finally:
        await db.close()


@pytest.mark.parametrize("value", [1.5, "2000", -5, 0])
def test_the_service_refuses_a_channel_that_is_no_channel_id(value):
    """Discord's front end cannot deliver one (discord.py refuses it first), the terminal or a future front end
    might: the service does not rely on its caller."""
    with pytest.raises(BadInput, match="is not a channel of this server"):
        checked(SettingsRequest(allow_channel=value), admin=True)
    with pytest.raises(BadInput, match="is not a channel of this server"):
        checked(SettingsRequest(remove_channel=value), admin=True)
