"""The Discord front end's handlers, one module per kind of post: boards, replays, proposals (draws and
takebacks alike), direct messages and channel notes, interaction replies, challenge cards. ``bot.discord.post``
declares which handles each announcement kind. A handler only posts: what it must remember (a message id, a
thread) it returns in ``Delivered.remember`` for the dispatcher to write with the done-mark."""
