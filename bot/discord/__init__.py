"""Everything that imports discord.py: the client, the commands, cards, buttons and posting.

The rest of ``bot/`` is Discord-free; this package turns interactions into service calls and the outbox's
announcements into messages.
"""
