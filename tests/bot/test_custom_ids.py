"""A button's custom id carries match and tournament numbers to the database, and a modified client may send any
digits: no registered button takes a number beyond the database's 64-bit integers (it would reach a query and fail
there, on SQLite and PostgreSQL alike, instead of being passed over as a forged id)."""

from __future__ import annotations

import re

from bot.discord import guide, picker, standings, tournament_card, views

ITEMS = [*views.DYNAMIC_ITEMS, *standings.DYNAMIC_ITEMS, *guide.DYNAMIC_ITEMS, *picker.DYNAMIC_ITEMS,
         *tournament_card.DYNAMIC_ITEMS]
INT64 = 2 ** 63 - 1


def test_no_button_takes_a_number_the_database_cannot_hold():
    numbered = 0
    for item in ITEMS:
        pattern = item.__discord_ui_compiled_template__.pattern
        for most in re.findall(r"\\d\{1,(\d+)\}", pattern):
            numbered += 1
            assert 10 ** int(most) - 1 <= INT64, (item.__name__, pattern)
    assert numbered >= 10     # the match and tournament buttons were all looked at


def test_a_forged_nineteen_digit_number_matches_no_button():
    huge = "9" * 19
    for custom_id in (f"ch:accept:{huge}", f"tn:join:{huge}", f"pl:{huge}", f"dr:accept:{huge}:3"):
        assert not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ITEMS), custom_id
        assert any(item.__discord_ui_compiled_template__.fullmatch(custom_id.replace(huge, huge[:18]))
                   for item in ITEMS), custom_id
