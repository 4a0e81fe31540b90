"""Offline Discord for tests: drive a real ``discord.Client`` and record what it sends.

This is the same technique discord.py uses to test itself: build real ``discord.Interaction``
objects from raw gateway payloads, let the library's own routing run them, and fake only the
two places where bytes would leave the process.

Usage::

    client = MyBot()                       # any discord.Client subclass with a CommandTree
    async with FakeDiscord(client) as fake:
        alice = fake.user(1, "alice")
        out = await fake.slash(alice, "tintas new", opponent=fake.user(2, "bob"))
        assert out[0].kind == "response" and "bob" in out[0].text()
        out = await fake.click(alice, out[0].button("Join")["custom_id"], message=out[0])

How things flow
---------------
* **In**: every interaction payload (slash = type 2, component = type 3, autocomplete = type 4)
  goes through ``client._connection.parsers["INTERACTION_CREATE"]`` -- exactly what the gateway
  does. So commands go through ``CommandTree._from_interaction`` -> ``_call`` (checks, transformers,
  error handlers, ``on_error``) and component clicks go through ``ViewStore.dispatch_view``
  (views stored by message id, persistent views, ``DynamicItem`` regex matching). The tasks that
  dispatch spawns are awaited before ``slash``/``click`` return.
* **Out, seam 1 -- the webhook adapter**: ``discord.webhook.async_.async_context`` (a ContextVar)
  is set to a fake ``AsyncWebhookAdapter`` whose ``request`` handles interaction callbacks
  (types 4/5/6/7/8/9), followups, ``@original`` get/edit/delete and followup edits/deletes.
* **Out, seam 2 -- ``client.http.request``**: replaced on the instance. Handles channel messages,
  DMs (``POST /users/@me/channels`` + send), message edits/deletes/fetches, threads, typing,
  reactions/pins, user/member/channel fetches and ``tree.sync()``. Anything else raises
  ``NotImplementedError`` (surfaced by strict mode) so a gap is loud, never a silent ``None``.
  ``fake.http_handlers[(METHOD, route_path_template)] = fn(route, params, body, files)`` can add
  or override a route. Every request on both seams is logged in ``fake.requests``.
* Attachments larger than ``fake.attachment_limit`` (10 MiB, Discord's limit without boosts; the
  ``attachment_size_limit`` of every interaction payload) are refused on both seams as Discord does: the
  whole request fails with HTTP 413, code 40005, and nothing is posted.
* The fake keeps its own "Discord side" message store (``fake.messages``: raw message payloads by
  id). Edits merge into it, so a ``Sent`` for an edit/update shows the *whole* message as the user
  now sees it, and ``click`` sends the *current* message (with its components) as
  ``interaction.message`` -- which ``DynamicItem`` dispatch requires (``View.from_message``).

Traps found (and how the harness handles them)
----------------------------------------------
* ``Client.loop`` is a sentinel that raises until ``login()`` runs ``_async_setup_hook()``;
  ``CommandTree._from_interaction`` uses ``client.loop.create_task``. ``start()`` calls
  ``client._async_setup_hook()`` (sets client/http/state loops and ``_ready``) instead of logging in.
* ``Interaction.__init__`` calls ``state._get_client()`` and reads
  ``state.http._HTTPClient__session`` -- both fine on a constructed-but-never-logged-in client.
  It also *requires* ``attachment_size_limit`` in the payload (KeyError otherwise).
* ``application_id`` and ``client.user`` are normally filled by ``login()``; ``start()`` sets
  ``state.application_id`` and ``state.user`` (a ``ClientUser``) itself.
* ``async_context`` is a ContextVar: a value set in an async *fixture* does not reliably reach
  the test task, and tasks copy the context at creation. The harness therefore runs each dispatch
  (and ``setup_hook``) in a task created with a fresh ``contextvars`` context that has the fake
  adapter set, so every task discord.py spawns from it inherits the adapter, and nothing leaks
  into the test's own context.
* ``tree._call`` is what discord.py's tests await directly; ``_from_interaction`` wraps it in a
  fire-and-forget task. We use the real gateway parser (so ``on_interaction`` listeners and
  component routing also run) and then await exactly the tasks that parser spawned. Tasks the
  *bot* spawns itself (background work, ``delete_after``) are not awaited: call
  ``await fake.settle()`` for those. View timeout tasks are never awaited.
* Errors are swallowed by discord.py (``CommandTree.on_error``, ``View.on_error``,
  ``Client.on_error``, dynamic-item failures) and only *logged*. The harness collects ERROR log
  records with exceptions from the ``discord`` logger into ``fake.errors``; with ``strict=True``
  (default) ``slash``/``click``/``settle`` re-raise the first one (unwrapping
  ``CommandInvokeError``). A bot error handler that answers the user is *not* an error.
* Interaction response timing: discord.py does not enforce the 3 s acknowledgement window, and
  neither does the harness. What it does model: an interaction that got no callback at all shows
  "This interaction failed" -- ``slash``/``click`` then return a synthetic ``Sent(kind="failed")``
  (not added to ``fake.sent``); followups before any acknowledgement fail with ``NotFound``; a
  second callback fails with ``HTTPException`` 40060 (discord.py normally raises
  ``InteractionResponded`` first).
* After ``defer(thinking=True)`` (type 5) the *first* followup replaces the "thinking" message
  and keeps the defer's ephemerality -- ``followup.send(ephemeral=True)`` after a public defer is
  public. The harness reproduces this (same ``message_id`` as the deferred message).
* For component interactions ``@original`` (and type 6/7) refers to the clicked message.
* A ``DynamicItem`` only dispatches if ``interaction.message`` contains a component with that
  exact custom id; and views sent as interaction responses are keyed by the response message id
  from the callback's ``resource.message`` (so the fake returns ``with_response`` payloads).
* Snowflakes are generated from a fixed clock (2025-01-01 UTC, +1 s per id) so runs are
  deterministic; consequently ``interaction.is_expired()`` is True. Don't rely on it in the bot.
* ``on_ready`` is not dispatched; ``client._ready`` is set so ``wait_until_ready()`` won't hang.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import enum
import inspect
import json
import logging
import re
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

__all__ = ["FakeDiscord", "Sent", "Request"]

_DISCORD_EPOCH_MS = 1420070400000
_CLOCK_START_MS = 1735689600000  # 2025-01-01T00:00:00Z
_EPHEMERAL = 64
_LOADING = 128
_MENTION_RE = re.compile(r"<@!?(\d+)>")
_INTERACTIVE_TYPES = {2, 3, 5, 6, 7, 8}  # button + the select menus


# --------------------------------------------------------------------------------------------------
# What the bot sent
# --------------------------------------------------------------------------------------------------


@dataclass
class Sent:
    """One thing the bot sent, as a user would see it.

    ``kind`` is one of: ``response`` (callback type 4), ``deferred`` (type 5 "thinking" or type 6
    silent component ack -- see ``response_type``), ``update`` (type 7, edits the clicked message),
    ``autocomplete`` (type 8, see ``choices``), ``modal`` (type 9, see ``raw``), ``followup``,
    ``edit_original``, ``edit`` (any other message edit), ``delete``, ``channel_message``
    (``channel.send``), ``dm`` (a message in a DM channel; ``recipient_id`` is set), ``thread``
    (thread created; ``content`` is its name, ``channel_id`` its id), and -- only in the list
    returned by ``slash``/``click``, never in ``fake.sent`` -- ``failed`` (the interaction was never
    acknowledged; Discord shows "This interaction failed").

    For edits/updates the fields describe the whole message *after* the edit.
    """

    kind: str
    content: str | None = None
    embeds: list[dict] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    ephemeral: bool = False
    channel_id: int | None = None
    message_id: int | None = None
    mentions: list[int] = field(default_factory=list)
    response_type: int | None = None
    choices: list[dict] = field(default_factory=list)
    recipient_id: int | None = None
    interaction_id: int | None = None
    raw: dict | None = None
    message: dict | None = None

    def text(self) -> str:
        """Content, embed author/title/description/fields/footer and v2 text displays, one per line."""
        parts: list[str] = [self.content or ""]
        for e in self.embeds:
            parts.append((e.get("author") or {}).get("name", ""))
            parts += [e.get("title", ""), e.get("description", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((e.get("footer") or {}).get("text", ""))
        if self.message:
            parts += [
                c.get("content", "") for c in _walk(self.message.get("components", [])) if c.get("type") == 10
            ]
        return "\n".join(p for p in parts if p)

    def button(self, label_or_custom_id: str) -> dict:
        """The flattened component whose label or custom_id equals the argument (KeyError if none)."""
        for c in self.components:
            if label_or_custom_id in (c.get("label"), c.get("custom_id")):
                return c
        have = [(c.get("label"), c.get("custom_id")) for c in self.components]
        raise KeyError(f"no component {label_or_custom_id!r}; message has {have}")


@dataclass
class Request:
    """One raw request on either seam (``seam`` is ``"webhook"`` or ``"http"``)."""

    seam: str
    method: str
    path: str  # the route template, e.g. "/channels/{channel_id}/messages"
    params: dict[str, str]
    body: Any
    files: list[tuple[str, bytes]]


@dataclass
class _Interaction:
    id: int
    type: int
    token: str
    user: dict
    channel_id: int
    message_id: int | None  # the clicked message for components
    response_type: int | None = None
    original_message_id: int | None = None
    thinking_pending: bool = False


def _walk(components: list[dict]):
    for c in components or []:
        yield c
        yield from _walk(c.get("components", []))
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


def _flatten(components: list[dict]) -> list[dict]:
    keys = ("type", "custom_id", "label", "style", "disabled", "url", "emoji", "options", "placeholder")
    return [
        {k: c[k] for k in keys if k in c} for c in _walk(components) if c.get("type") in _INTERACTIVE_TYPES
    ]


def _route_params(route: Route) -> dict[str, str]:
    """Recover ``{name: value}`` from a Route (discord.py only keeps the formatted URL)."""
    tmpl = route.path.strip("/").split("/")
    got = route.url[len(Route.BASE) :].split("?")[0].strip("/").split("/")
    out = {}
    for t, g in zip(tmpl, got, strict=False):
        if t.startswith("{") and t.endswith("}"):
            out[t[1:-1]] = unquote(g)
    return out


def _http_error(
    cls: type[discord.HTTPException], status: int, code: int, message: str
) -> discord.HTTPException:
    reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 413: "Payload Too Large"}.get(status, "Error")
    response = types.SimpleNamespace(status=status, reason=reason)
    return cls(response, {"code": code, "message": message})  # type: ignore[arg-type]


class _NoSession:
    """Stands in for the aiohttp session login() opens; nothing reaches it (both seams are faked)."""

    closed = False

    async def close(self) -> None:
        self.closed = True


class _FakeWebhookAdapter(AsyncWebhookAdapter):
    """Installed into ``async_context``; every interaction/webhook call funnels into ``request``."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self._fake = fake

    async def request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload=None,
        multipart=None,
        files=None,
        params=None,
        **_: Any,
    ) -> Any:
        return self._fake._webhook_request(route, payload, multipart, files, params or {})


class _ErrorCollector(logging.Handler):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self._fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self._fake.errors.append(record.exc_info[1])


# --------------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------------


class FakeDiscord:
    """Drives a real discord.Client's CommandTree and component views offline; records what the bot sends.

    ``strict``: re-raise exceptions discord.py would only log (see module docstring).
    ``timeout``: seconds to wait for the tasks one interaction spawns before failing.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        guild_id: int = 1000,
        channel_id: int = 2000,
        application_id: int = 3000,
        bot_name: str = "BoardGames",
        strict: bool = True,
        app_permissions: discord.Permissions | int | None = None,
        locale: str = "en-US",
        guild_locale: str | None = None,
        timeout: float = 10.0,
        attachment_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.client = client
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.application_id = application_id
        self.bot_user_id = application_id  # bots' user id equals their application id
        self.strict = strict
        self.locale = locale  # the user's Discord locale in interactions (change it between calls)
        self.guild_locale = guild_locale or locale  # the server's preferred locale (fixed once started)
        self.timeout = timeout
        self.attachment_limit = attachment_limit  # bytes per attachment; larger ones are refused (413)
        default_app = discord.Permissions.text() | discord.Permissions(view_channel=True)
        self.app_permissions = int(getattr(app_permissions, "value", app_permissions) or default_app.value)

        self.sent: list[Sent] = []
        self.requests: list[Request] = []
        self.errors: list[BaseException] = []
        self.closed_dms: set[int] = set()
        self.users: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.synced_commands: dict[int | None, list[dict]] = {}
        self.http_handlers: dict[tuple[str, str], Callable[..., Any]] = {}
        self.cdn: dict[str, bytes] = {}  # url -> bytes of uploaded attachments (``Attachment.read``)

        self._permissions: dict[int, int] = {}
        self._attachments: dict[int, bytes] = {}
        self._allowed_mentions: dict[int, dict | None] = {}
        self._interactions: dict[str, _Interaction] = {}
        self._dm_channels: dict[int, int] = {}  # dm channel id -> user id
        self._nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message id: enforce_nonce
        self._command_ids: dict[str, int] = {}
        self._counter = 0
        self._adapter = _FakeWebhookAdapter(self)
        self._collector = _ErrorCollector(self)
        self._started = False

        self.bot_user = self.user(self.bot_user_id, bot_name, bot=True)
        self.channel(channel_id, "general")

    # ---- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        """Make the client usable without login/gateway, then run its ``setup_hook``."""
        client, state = self.client, self.client._connection
        await client._async_setup_hook()  # what login() does first: loops + _ready event
        state.application_id = self.application_id
        state.user = discord.ClientUser(state=state, data=copy.deepcopy(self.bot_user))
        client.http.request = self._http_request  # type: ignore[method-assign]
        client.http.get_from_cdn = self._get_from_cdn  # type: ignore[method-assign]
        # login() would open an aiohttp session; webhooks built from the client (Webhook.partial(client=…))
        # need one to exist, though the fake seams never use it
        client.http._HTTPClient__session = _NoSession()  # type: ignore[attr-defined]
        if state._intents.guilds:
            state._add_guild_from_data(self._guild_payload())
        logging.getLogger("discord").addHandler(self._collector)
        self._started = True
        await self._in_context(client.setup_hook())
        client._ready.set()
        self._raise_new_errors(0)
        return self

    async def close(self) -> None:
        """Undo ``start`` (log handler, http patch). The client object is left as is."""
        logging.getLogger("discord").removeHandler(self._collector)
        self.client.http.__dict__.pop("request", None)
        self.client.http.__dict__.pop("get_from_cdn", None)
        self._started = False

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # ---- world building -------------------------------------------------------------------------

    def user(
        self,
        user_id: int,
        name: str,
        *,
        bot: bool = False,
        permissions: discord.Permissions | int | None = None,
    ) -> dict:
        """Register and return a Discord user payload. ``permissions`` are the member's resolved
        channel permissions in interactions (e.g. ``discord.Permissions(manage_guild=True)``)."""
        payload = {
            "id": str(user_id),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }
        self.users[user_id] = payload
        if permissions is None:
            permissions = discord.Permissions.text() | discord.Permissions(view_channel=True)
        self._permissions[user_id] = int(getattr(permissions, "value", permissions))
        return payload

    def channel(self, channel_id: int, name: str, *, type: int = 0) -> dict:
        """Register a guild text channel (or another guild channel type) and return its payload."""
        payload = {
            "id": str(channel_id),
            "type": type,
            "name": name,
            "guild_id": str(self.guild_id),
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.channels[channel_id] = payload
        if self._started and (guild := self.client._connection._get_guild(self.guild_id)):
            guild._add_channel(
                discord.TextChannel(guild=guild, state=self.client._connection, data=copy.deepcopy(payload))
            )
        return payload

    def member_payload(self, user: dict | int) -> dict:
        u = self._user_payload(user)
        return {
            "user": copy.deepcopy(u),
            "roles": [],
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "permissions": str(self._permissions.get(int(u["id"]), 0)),
        }

    # ---- driving --------------------------------------------------------------------------------

    async def slash(
        self, user: dict | int, command: str, /, *, channel_id: int | None = None, **options: Any
    ) -> list[Sent]:
        """Run ``/command`` ("group sub" for subcommands). Options by (python or display) name; USER
        options take a user payload (or a registered id), CHANNEL options a channel id/payload.
        ``user``/``command`` are positional-only so an option may be called ``user``; an option named
        ``channel_id`` would collide with the keyword (the channel to run in; default the main one)."""
        data = self._command_data(command, options, focused=None)
        payload = self._interaction_payload(2, user, data, channel_id=channel_id)
        return await self._dispatch(payload)

    async def autocomplete(
        self,
        user: dict | int,
        command: str,
        focused: str,
        /,
        *,
        channel_id: int | None = None,
        **options: Any,
    ) -> list[dict]:
        """Type into option ``focused`` (its value = what the user typed, default "") and return the
        choices (``{"name", "value"}`` dicts) the bot offered; ``[]`` if it offered none."""
        options.setdefault(focused, "")
        data = self._command_data(command, options, focused=focused)
        payload = self._interaction_payload(4, user, data, channel_id=channel_id)
        out = await self._dispatch(payload)
        for s in reversed(out):
            if s.kind == "autocomplete":
                return s.choices
        return []

    async def click(
        self, user: dict | int, custom_id: str, *, message: Sent | int | None = None
    ) -> list[Sent]:
        """Press the button ``custom_id`` on ``message`` (a ``Sent`` or message id; default: the newest
        known message carrying that custom id). A ``Sent`` from *another* FakeDiscord works too, which
        is how a test clicks an old message after a bot restart."""
        msg = self._message_for_component(custom_id, message)
        comp = next(c for c in _walk(msg.get("components", [])) if c.get("custom_id") == custom_id)
        if comp.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled; Discord would not let the user press it")
        data = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] != 2:
            data["values"] = []
        return await self._component(user, msg, data)

    async def select(
        self, user: dict | int, custom_id: str, values: list[str], *, message: Sent | int | None = None
    ) -> list[Sent]:
        """Pick ``values`` in the select menu ``custom_id`` (string selects; others send ids)."""
        msg = self._message_for_component(custom_id, message)
        comp = next(c for c in _walk(msg.get("components", [])) if c.get("custom_id") == custom_id)
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": [str(v) for v in values]}
        return await self._component(user, msg, data)

    async def context_menu(
        self, user: dict | int, name: str, target: dict | int | Sent, /, *, channel_id: int | None = None
    ) -> list[Sent]:
        """Run the context-menu command ``name`` (right-click -> Apps) on ``target``: a user payload or a
        registered user id opens a user menu (data type 2), a ``Sent`` a message menu (data type 3). The target
        arrives resolved as Discord sends it (the user, and their member with channel permissions)."""
        kind = discord.AppCommandType.message if isinstance(target, Sent) else discord.AppCommandType.user
        tree = self.client._connection._command_tree
        if tree is None:
            raise RuntimeError("the client has no CommandTree")
        in_guild = tree.get_command(name, guild=discord.Object(self.guild_id), type=kind) is not None
        if not in_guild and tree.get_command(name, type=kind) is None:
            raise LookupError(f"no {kind.name} context menu {name!r}")
        resolved: dict[str, dict] = {}
        if isinstance(target, Sent):
            msg = self.messages.get(target.message_id or -1) or target.message or {}
            target_id = str(msg["id"])
            resolved["messages"] = {target_id: copy.deepcopy(msg)}
        else:
            u = self._user_payload(target)
            target_id = u["id"]
            member = self.member_payload(u)
            member.pop("user")
            resolved = {"users": {target_id: copy.deepcopy(u)}, "members": {target_id: member}}
        data: dict[str, Any] = {
            "id": str(self._command_ids.setdefault(f"{kind.name}:{name}", self._snowflake())),
            "name": name,
            "type": kind.value,
            "target_id": target_id,
            "resolved": resolved,
        }
        if in_guild:
            data["guild_id"] = str(self.guild_id)
        return await self._dispatch(self._interaction_payload(2, user, data, channel_id=channel_id))

    async def settle(self) -> None:
        """Wait for tasks the bot spawned itself (background work), except view timeouts."""
        n_err = len(self.errors)
        current = asyncio.current_task()
        for _ in range(50):
            pending = [
                t for t in asyncio.all_tasks() if t is not current and not t.done() and not _is_idle_task(t)
            ]
            if not pending:
                break
            done, still = await asyncio.wait(pending, timeout=self.timeout)
            if still:
                raise TimeoutError(
                    f"tasks still running after {self.timeout}s: {[t.get_name() for t in still]}"
                )
        self._raise_new_errors(n_err)

    def message(self, message_id: int) -> Sent:
        """The current state of a message (after all edits) as a ``Sent`` of kind ``"message"``."""
        return self._sent("message", self.messages[message_id])

    # ---- internals: dispatch --------------------------------------------------------------------

    async def _component(self, user: dict | int, msg: dict, data: dict) -> list[Sent]:
        payload = self._interaction_payload(3, user, data, channel_id=int(msg["channel_id"]), message=msg)
        return await self._dispatch(payload)

    async def _in_context(self, coro: Any) -> Any:
        """Run ``coro`` in a task whose (fresh) context has the fake webhook adapter installed."""
        ctx = contextvars.copy_context()
        ctx.run(async_context.set, self._adapter)
        return await asyncio.create_task(coro, context=ctx)

    async def _dispatch(self, payload: dict) -> list[Sent]:
        if not self._started:
            raise RuntimeError("call `await fake.start()` (or use `async with FakeDiscord(client)`) first")
        n_sent, n_err = len(self.sent), len(self.errors)
        ix = _Interaction(
            id=int(payload["id"]),
            type=payload["type"],
            token=payload["token"],
            user=payload.get("member", {}).get("user") or payload.get("user"),
            channel_id=int(payload["channel_id"]),
            message_id=int(payload["message"]["id"]) if "message" in payload else None,
        )
        self._interactions[ix.token] = ix
        await self._in_context(self._gateway(copy.deepcopy(payload)))
        self._raise_new_errors(n_err)
        out = list(self.sent[n_sent:])
        if ix.response_type is None and ix.type != 4:
            out.append(
                Sent(
                    kind="failed",
                    content="This interaction failed",
                    channel_id=ix.channel_id,
                    interaction_id=ix.id,
                    ephemeral=True,
                )
            )
        return out

    async def _gateway(self, payload: dict) -> None:
        before = asyncio.all_tasks()
        self.client._connection.parsers["INTERACTION_CREATE"](payload)  # the real gateway entry point
        spawned = asyncio.all_tasks() - before
        if spawned:
            _, pending = await asyncio.wait(spawned, timeout=self.timeout)
            if pending:
                raise TimeoutError(
                    f"interaction handlers still running after {self.timeout}s: "
                    f"{[t.get_name() for t in pending]}"
                )
            for t in spawned:
                if not t.cancelled() and t.exception() is not None:
                    self.errors.append(t.exception())  # type: ignore[arg-type]
        await asyncio.sleep(0)

    def _raise_new_errors(self, n_err: int) -> None:
        if self.strict and len(self.errors) > n_err:
            err = self.errors[n_err]
            if isinstance(err, app_commands.CommandInvokeError):
                raise err.original
            raise err

    # ---- internals: payload building ------------------------------------------------------------

    def _snowflake(self) -> int:
        self._counter += 1
        return (_CLOCK_START_MS + self._counter * 1000 - _DISCORD_EPOCH_MS) << 22

    @staticmethod
    def _iso(snowflake: int) -> str:
        return discord.utils.snowflake_time(snowflake).isoformat()

    def _user_payload(self, user: dict | int | discord.abc.Snowflake) -> dict:
        if isinstance(user, dict):
            self.users.setdefault(int(user["id"]), user)
            self._permissions.setdefault(int(user["id"]), 0)
            return user
        uid = int(getattr(user, "id", user))
        if uid not in self.users:
            raise KeyError(f"unknown user {uid}; create it with fake.user({uid}, name)")
        return self.users[uid]

    def _guild_payload(self) -> dict:
        everyone = discord.Permissions.general() | discord.Permissions.text()
        return {
            "id": str(self.guild_id),
            "name": "Test Server",
            "owner_id": "1",
            "member_count": 2,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(everyone.value),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                }
            ],
            "channels": [copy.deepcopy(c) for c in self.channels.values() if c["type"] in (0, 2, 4, 5)],
            "threads": [copy.deepcopy(c) for c in self.channels.values() if c["type"] in (10, 11, 12)],
            "members": [self.member_payload(self.bot_user)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": self.guild_locale,
            "large": False,
        }

    def _interaction_payload(
        self, itype: int, user: dict | int, data: dict, *, channel_id: int | None, message: dict | None = None
    ) -> dict:
        u = self._user_payload(user)
        cid = channel_id or self.channel_id
        if cid not in self.channels:
            raise KeyError(f"unknown channel {cid}; register it with fake.channel({cid}, name)")
        ch = copy.deepcopy(self.channels[cid])
        iid = self._snowflake()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": f"fake-token-{iid}",
            "version": 1,
            "locale": self.locale,
            "app_permissions": str(self.app_permissions),
            "entitlements": [],
            "attachment_size_limit": self.attachment_limit,
            "channel": ch,
            "channel_id": str(cid),
        }
        if ch["type"] in (1, 3):  # DM / group DM: no guild, a plain user
            payload["user"] = copy.deepcopy(u)
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": u["id"]}
        else:
            ch["permissions"] = str(self._permissions.get(int(u["id"]), 0))
            payload["guild_id"] = str(self.guild_id)
            payload["guild"] = {"id": str(self.guild_id), "locale": self.guild_locale, "features": []}
            payload["guild_locale"] = self.guild_locale
            payload["member"] = self.member_payload(u)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        return payload

    def _find_command(self, command: str) -> tuple[Any, bool]:
        parts = command.strip().lstrip("/").split()
        tree = self.client._connection._command_tree
        if tree is None:
            raise RuntimeError("the client has no CommandTree")
        root, in_guild = tree.get_command(parts[0], guild=discord.Object(self.guild_id)), True
        if root is None:
            root, in_guild = tree.get_command(parts[0]), False
        node = root
        for part in parts[1:]:
            node = node.get_command(part) if isinstance(node, app_commands.Group) else None
            if node is None:
                break
        if node is None:
            raise LookupError(f"no slash command /{command}")
        if isinstance(node, app_commands.Group):
            subs = [c.name for c in node.commands]
            raise LookupError(f"/{command} is a group; pick a subcommand: {subs}")
        return node, in_guild

    def _command_data(self, command: str, options: dict[str, Any], *, focused: str | None) -> dict:
        cmd, in_guild = self._find_command(command)
        params = {p.name: p for p in cmd.parameters}
        params.update({p.display_name: p for p in cmd.parameters})
        resolved: dict[str, dict] = {}
        opts: list[dict] = []
        for key, value in options.items():
            p = params.get(key)
            if p is None:
                raise TypeError(
                    f"/{command} has no option {key!r}; options: {[q.display_name for q in cmd.parameters]}"
                )
            opt: dict[str, Any] = {"name": p.display_name, "type": p.type.value}
            if key == focused or p.display_name == focused or p.name == focused:
                opt["focused"] = True
                opt["value"] = str(value)  # Discord sends what was typed, as text
            else:
                opt["value"] = self._option_value(p, value, resolved, command)
            opts.append(opt)
        if focused is None:
            given = {params[k].name for k in options}
            missing = [p.display_name for p in cmd.parameters if p.required and p.name not in given]
            if missing:
                raise TypeError(
                    f"/{command} is missing required option(s) {missing}; Discord would not send it"
                )

        tree_opts = opts
        node = cmd
        while node.parent is not None:
            tree_opts = [
                {
                    "type": 1 if isinstance(node, app_commands.Command) else 2,
                    "name": node.name,
                    "options": tree_opts,
                }
            ]
            node = node.parent
        root = node
        data: dict[str, Any] = {
            "id": str(self._command_ids.setdefault(root.name, self._snowflake())),
            "name": root.name,
            "type": 1,
            "options": tree_opts,
        }
        if resolved:
            data["resolved"] = resolved
        if in_guild:
            data["guild_id"] = str(self.guild_id)
        return data

    def _option_value(self, p: app_commands.Parameter, value: Any, resolved: dict, command: str) -> Any:
        t = p.type
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum):
            value = value.value
        if t in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable) and (
            isinstance(value, dict) or int(getattr(value, "id", value)) in self.users
        ):
            u = self._user_payload(value)
            resolved.setdefault("users", {})[u["id"]] = copy.deepcopy(u)
            member = self.member_payload(u)
            member.pop("user")
            resolved.setdefault("members", {})[u["id"]] = member
            return u["id"]
        if t is discord.AppCommandOptionType.channel:
            cid = int(value["id"]) if isinstance(value, dict) else int(getattr(value, "id", value))
            ch = copy.deepcopy(self.channels[cid])
            ch["permissions"] = str(self.app_permissions)
            resolved.setdefault("channels", {})[str(cid)] = ch
            return str(cid)
        if t in (discord.AppCommandOptionType.role, discord.AppCommandOptionType.mentionable):
            role = (
                value
                if isinstance(value, dict)
                else {
                    "id": str(int(getattr(value, "id", value))),
                    "name": "role",
                    "permissions": "0",
                    "position": 1,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": True,
                }
            )
            resolved.setdefault("roles", {})[str(role["id"])] = role
            return str(role["id"])
        if t is discord.AppCommandOptionType.attachment:
            # an uploaded file: ``(filename, bytes)``; the bot downloads it from the fake CDN (``cdn``)
            filename, data = value
            aid = self._snowflake()
            url = f"https://cdn.discordapp.test/ephemeral-attachments/{aid}/{filename}"
            self.cdn[url] = bytes(data)
            resolved.setdefault("attachments", {})[str(aid)] = {
                "id": str(aid), "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                "content_type": "text/plain; charset=utf-8", "ephemeral": True}
            return str(aid)
        if p.choices and value not in [c.value for c in p.choices]:
            raise ValueError(
                f"/{command} {p.display_name}={value!r} is not one of the choices "
                f"{[c.value for c in p.choices]}"
            )
        return value

    def _message_for_component(self, custom_id: str, message: Sent | int | None) -> dict:
        def has(m: dict) -> bool:
            return any(c.get("custom_id") == custom_id for c in _walk(m.get("components", [])))

        if message is None:
            for mid in sorted(self.messages, reverse=True):
                if has(self.messages[mid]):
                    return self.messages[mid]
            raise LookupError(f"no known message has a component {custom_id!r}; pass message=")
        if isinstance(message, int):
            msg = self.messages[message]
        else:
            msg = self.messages.get(message.message_id or -1) or copy.deepcopy(message.message or {})
            if not msg:
                raise ValueError(f"{message.kind!r} Sent has no message to click on")
            self.messages.setdefault(int(msg["id"]), msg)  # e.g. a message sent before a "restart"
            self.channels.setdefault(
                int(msg["channel_id"]), {**self.channels[self.channel_id], "id": msg["channel_id"]}
            )
        if not has(msg):
            raise LookupError(
                f"message {msg['id']} has no component {custom_id!r}; "
                f"it has {[c.get('custom_id') for c in _walk(msg.get('components', []))]}"
            )
        return msg

    # ---- internals: the "Discord side" message store --------------------------------------------

    @staticmethod
    def _decode(
        payload: Any, multipart: list[dict] | None, files: Any
    ) -> tuple[Any, list[tuple[str, bytes]]]:
        if not multipart:
            return copy.deepcopy(payload), []
        for f in files or []:
            f.reset(seek=True)
        body, uploads = None, []
        for part in multipart:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            else:
                value = part["value"]
                data = value if isinstance(value, bytes | bytearray) else value.read()
                uploads.append((part.get("filename") or part["name"], bytes(data)))
        return body, uploads

    def _refuse_oversized(self, uploads: list[tuple[str, bytes]]) -> None:
        """Discord refuses the whole request when one attachment exceeds the limit (nothing is posted)."""
        if any(len(data) > self.attachment_limit for _name, data in uploads):
            raise _http_error(discord.HTTPException, 413, 40005, "Request entity too large")

    def _pinged(self, content: str, allowed: dict | None) -> list[int]:
        ids = [int(m) for m in _MENTION_RE.findall(content or "")]
        if allowed is None:
            return list(dict.fromkeys(ids))
        if "users" in allowed and allowed["users"]:
            ok = {int(u) for u in allowed["users"]}
            return list(dict.fromkeys(i for i in ids if i in ok))
        if "users" in allowed.get("parse", []):
            return list(dict.fromkeys(ids))
        return []

    def _user_stub(self, uid: int) -> dict:
        return copy.deepcopy(
            self.users.get(uid)
            or {"id": str(uid), "username": f"user{uid}", "discriminator": "0", "avatar": None}
        )

    def _attach(self, uploads: list[tuple[str, bytes]]) -> list[dict]:
        out = []
        for name, data in uploads:
            aid = self._snowflake()
            self._attachments[aid] = data
            url = f"https://cdn.discordapp.com/attachments/0/{aid}/{name}"
            out.append(
                {
                    "id": str(aid),
                    "filename": name,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": "image/png" if name.endswith(".png") else "application/octet-stream",
                }
            )
        return out

    def _new_message(
        self,
        channel_id: int,
        body: dict,
        uploads: list[tuple[str, bytes]],
        *,
        ix: _Interaction | None = None,
        flags: int | None = None,
    ) -> dict:
        mid = self._snowflake()
        content = body.get("content") or ""
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": copy.deepcopy(self.bot_user),
            "content": content,
            "timestamp": self._iso(mid),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mention_roles": [],
            "mentions": [self._user_stub(i) for i in self._pinged(content, body.get("allowed_mentions"))],
            "attachments": self._attach(uploads),
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags", 0) if flags is None else flags,
        }
        if self.channels.get(channel_id, {}).get("guild_id"):
            msg["guild_id"] = str(self.guild_id)
        if ix is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            msg["type"] = 20 if ix.type == 2 and ix.original_message_id is None else 0
            msg["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": copy.deepcopy(ix.user),
                "authorizing_integration_owners": {},
            }
        self.messages[mid] = msg
        self._allowed_mentions[mid] = body.get("allowed_mentions")
        return msg

    def _edit_message(self, message_id: int, body: dict, uploads: list[tuple[str, bytes]]) -> dict:
        msg = self.messages.get(message_id)
        if msg is None:
            raise _http_error(discord.NotFound, 404, 10008, "Unknown Message")
        body = body or {}
        if "content" in body:
            msg["content"] = body["content"] or ""
        for key in ("embeds", "components"):
            if key in body:
                msg[key] = body[key] or []
        old_flags = msg.get("flags", 0)
        new_flags = body.get("flags", old_flags & ~_EPHEMERAL)
        msg["flags"] = (new_flags & ~(_EPHEMERAL | _LOADING)) | (
            old_flags & _EPHEMERAL
        )  # ephemerality is fixed
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"]}
            msg["attachments"] = [a for a in msg["attachments"] if a["id"] in keep] + self._attach(uploads)
        elif uploads:
            msg["attachments"] = msg["attachments"] + self._attach(uploads)
        if "allowed_mentions" in body:
            self._allowed_mentions[message_id] = body["allowed_mentions"]
        msg["mentions"] = [
            self._user_stub(i) for i in self._pinged(msg["content"], self._allowed_mentions.get(message_id))
        ]
        msg["edited_timestamp"] = self._iso(self._snowflake())
        return msg

    def _sent(
        self,
        kind: str,
        msg: dict | None,
        *,
        raw: Any = None,
        response_type: int | None = None,
        ix: _Interaction | None = None,
        **extra: Any,
    ) -> Sent:
        if msg is None:
            return Sent(
                kind=kind,
                raw=raw,
                response_type=response_type,
                interaction_id=ix.id if ix else None,
                channel_id=ix.channel_id if ix else None,
                **extra,
            )
        mid = int(msg["id"])
        cid = int(msg["channel_id"])
        return Sent(
            kind=kind,
            content=msg.get("content") or None,
            embeds=copy.deepcopy(msg.get("embeds", [])),
            files=[
                (a["filename"], self._attachments.get(int(a["id"]), b"")) for a in msg.get("attachments", [])
            ],
            components=_flatten(msg.get("components", [])),
            ephemeral=bool(msg.get("flags", 0) & _EPHEMERAL),
            channel_id=cid,
            message_id=mid,
            mentions=self._pinged(msg.get("content", ""), self._allowed_mentions.get(mid)),
            response_type=response_type,
            recipient_id=self._dm_channels.get(cid),
            interaction_id=ix.id if ix else None,
            raw=raw,
            message=copy.deepcopy(msg),
            **extra,
        )

    def _record(self, sent: Sent) -> Sent:
        self.sent.append(sent)
        return sent

    # ---- seam 1: webhook adapter ----------------------------------------------------------------

    def _webhook_request(self, route: Route, payload: Any, multipart: Any, files: Any, params: dict) -> Any:
        body, uploads = self._decode(payload, multipart, files)
        p = _route_params(route)
        self.requests.append(Request("webhook", route.method, route.path, p, body, uploads))
        ix = self._interactions.get(p.get("webhook_token", ""))
        if ix is None:
            raise _http_error(discord.NotFound, 404, 10015, "Unknown Webhook")
        self._refuse_oversized(uploads)
        key = (route.method, route.path)

        if key == ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"):
            return self._callback(ix, body, uploads)
        if ix.response_type is None:
            raise _http_error(discord.NotFound, 404, 10015, "Unknown Webhook")  # not acknowledged yet
        if key == ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
            if ix.thinking_pending:  # the first followup after a type-5 defer replaces "thinking..."
                ix.thinking_pending = False
                msg = self._edit_message(ix.original_message_id, body, uploads)  # type: ignore[arg-type]
            else:
                msg = self._new_message(ix.channel_id, body, uploads, ix=ix)
            self._record(self._sent("followup", msg, raw=body, ix=ix))
            return copy.deepcopy(msg) if params.get("wait") else None

        mid_s = p.get("message_id")
        if "/messages/" not in route.path:
            raise NotImplementedError(f"FakeDiscord: no fake for webhook {route.method} {route.path}")
        original = route.path.endswith("/messages/@original") or mid_s == "@original"
        mid = ix.original_message_id if original else int(mid_s)  # type: ignore[arg-type]
        if mid is None or mid not in self.messages:
            raise _http_error(discord.NotFound, 404, 10008, "Unknown Message")
        if route.method == "GET":
            return copy.deepcopy(self.messages[mid])
        if route.method == "PATCH":
            if original:
                ix.thinking_pending = False
            msg = self._edit_message(mid, body, uploads)
            self._record(self._sent("edit_original" if original else "edit", msg, raw=body, ix=ix))
            return copy.deepcopy(msg)
        if route.method == "DELETE":
            msg = self.messages.pop(mid)
            self._record(self._sent("delete", msg, raw=body, ix=ix))
            return None
        raise NotImplementedError(f"FakeDiscord: no fake for webhook {route.method} {route.path}")

    def _callback(self, ix: _Interaction, body: dict, uploads: list[tuple[str, bytes]]) -> dict:
        if ix.response_type is not None:
            raise _http_error(discord.HTTPException, 400, 40060, "Interaction has already been acknowledged.")
        t = body["type"]
        data = body.get("data") or {}
        ix.response_type = t
        msg = None
        if t == 4:
            msg = self._new_message(ix.channel_id, data, uploads, ix=ix)
            ix.original_message_id = int(msg["id"])
            self._record(self._sent("response", msg, raw=body, response_type=t, ix=ix))
        elif t == 5:
            msg = self._new_message(
                ix.channel_id, {}, [], ix=ix, flags=(data.get("flags", 0) & _EPHEMERAL) | _LOADING
            )
            ix.original_message_id = int(msg["id"])
            ix.thinking_pending = True
            self._record(self._sent("deferred", msg, raw=body, response_type=t, ix=ix))
        elif t == 6:
            ix.original_message_id = ix.message_id
            self._record(
                self._sent("deferred", None, raw=body, response_type=t, ix=ix, message_id=ix.message_id)
            )
        elif t == 7:
            ix.original_message_id = ix.message_id
            msg = self._edit_message(ix.message_id, data, uploads)  # type: ignore[arg-type]
            self._record(self._sent("update", msg, raw=body, response_type=t, ix=ix))
        elif t == 8:
            self._record(
                self._sent(
                    "autocomplete",
                    None,
                    raw=body,
                    response_type=t,
                    ix=ix,
                    choices=copy.deepcopy(data.get("choices", [])),
                )
            )
        else:  # 1 pong, 9 modal, 10 premium required, 12 launch activity
            self._record(
                self._sent(
                    {1: "pong", 9: "modal"}.get(t, f"callback_{t}"), None, raw=body, response_type=t, ix=ix
                )
            )
        interaction = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_loading": t == 5,
            "response_message_ephemeral": bool(msg and msg["flags"] & _EPHEMERAL),
        }
        out: dict[str, Any] = {"interaction": interaction}
        if msg is not None:
            interaction["response_message_id"] = msg["id"]
            out["resource"] = {"type": t, "message": copy.deepcopy(msg)}
        return out

    # ---- seam 2: HTTPClient.request -------------------------------------------------------------

    async def _get_from_cdn(self, url: str) -> bytes:
        if url not in self.cdn:
            raise _http_error(discord.NotFound, 404, 0, "asset not found")
        return self.cdn[url]

    async def _http_request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body, uploads = self._decode(kwargs.get("json"), list(form) if form else None, files)
        p = _route_params(route)
        self.requests.append(Request("http", route.method, route.path, p, body, uploads))
        key = (route.method, route.path)
        self._refuse_oversized(uploads)
        if key in self.http_handlers:
            result = self.http_handlers[key](route, p, body, uploads)
            return await result if inspect.isawaitable(result) else result
        return self._http_default(key, p, body or {}, uploads)

    def _http_default(
        self, key: tuple[str, str], p: dict[str, str], body: dict, uploads: list[tuple[str, bytes]]
    ) -> Any:
        method, path = key
        cid = int(p["channel_id"]) if "channel_id" in p else None
        if key == ("POST", "/channels/{channel_id}/messages"):
            uid = self._dm_channels.get(cid)  # type: ignore[arg-type]
            if uid is not None and uid in self.closed_dms:
                raise _http_error(discord.Forbidden, 403, 50007, "Cannot send messages to this user")
            nonce = body.get("nonce") if body.get("enforce_nonce") else None
            if nonce is not None and (cid, nonce) in self._nonces:  # Discord returns the first, creates none
                return copy.deepcopy(self.messages[self._nonces[(cid, nonce)]])
            msg = self._new_message(cid, body, uploads)  # type: ignore[arg-type]
            if nonce is not None:
                self._nonces[(cid, nonce)] = int(msg["id"])
            self._record(self._sent("dm" if uid is not None else "channel_message", msg, raw=body))
            return copy.deepcopy(msg)
        if path == "/channels/{channel_id}/messages/{message_id}":
            mid = int(p["message_id"])
            if method == "GET":
                if mid not in self.messages:
                    raise _http_error(discord.NotFound, 404, 10008, "Unknown Message")
                return copy.deepcopy(self.messages[mid])
            if method == "PATCH":
                msg = self._edit_message(mid, body, uploads)
                self._record(self._sent("edit", msg, raw=body))
                return copy.deepcopy(msg)
            if method == "DELETE":
                if mid not in self.messages:
                    raise _http_error(discord.NotFound, 404, 10008, "Unknown Message")
                self._record(self._sent("delete", self.messages.pop(mid)))
                return None
        if key == ("POST", "/users/@me/channels"):
            uid = int(body["recipient_id"])
            dm_id = next((c for c, u in self._dm_channels.items() if u == uid), None) or self._snowflake()
            self._dm_channels[dm_id] = uid
            dm = {"id": str(dm_id), "type": 1, "last_message_id": None, "recipients": [self._user_stub(uid)]}
            self.channels[dm_id] = copy.deepcopy(dm)
            return dm
        if key in (
            ("POST", "/channels/{channel_id}/threads"),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
        ):
            return self._create_thread(cid, p.get("message_id"), body, uploads)  # type: ignore[arg-type]
        if key == ("GET", "/channels/{channel_id}"):
            if cid not in self.channels:
                raise _http_error(discord.NotFound, 404, 10003, "Unknown Channel")
            return copy.deepcopy(self.channels[cid])
        if key == ("GET", "/users/{user_id}"):
            if int(p["user_id"]) not in self.users:
                raise _http_error(discord.NotFound, 404, 10013, "Unknown User")
            return copy.deepcopy(self.users[int(p["user_id"])])
        if key == ("GET", "/guilds/{guild_id}/members/{member_id}"):
            if int(p["member_id"]) not in self.users:
                raise _http_error(discord.NotFound, 404, 10007, "Unknown Member")
            return self.member_payload(int(p["member_id"]))
        if (
            path
            in (
                "/applications/{application_id}/commands",
                "/applications/{application_id}/guilds/{guild_id}/commands",
            )
            and method == "PUT"
        ):
            gid = int(p["guild_id"]) if "guild_id" in p else None
            out = [
                {
                    "description": "",  # Discord answers every command with one ("" for context menus)
                    **c,
                    "id": str(self._command_ids.setdefault(c["name"], self._snowflake())),
                    "application_id": str(self.application_id),
                    "version": "1",
                    **({"guild_id": str(gid)} if gid else {}),
                }
                for c in body or []
            ]
            self.synced_commands[gid] = copy.deepcopy(out)
            return out
        if path.endswith("/typing") or (
            method in ("PUT", "DELETE") and any(s in path for s in ("/reactions", "/pins", "/thread-members"))
        ):
            return None
        raise NotImplementedError(
            f"FakeDiscord: no fake for HTTP {method} {path}; "
            f"add one via fake.http_handlers[({method!r}, {path!r})]"
        )

    def _create_thread(
        self, parent_id: int, message_id: str | None, body: dict, uploads: list[tuple[str, bytes]]
    ) -> dict:
        tid = int(message_id) if message_id else self._snowflake()
        stamp = self._iso(self._snowflake())
        thread = {
            "id": str(tid),
            "type": body.get("type", 11),
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user_id),
            "name": body["name"],
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "last_message_id": None,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": stamp,
                "locked": False,
                "invitable": body.get("invitable", True),
                "create_timestamp": stamp,
            },
        }
        self.channels[tid] = copy.deepcopy(thread)
        guild = self.client._connection._get_guild(self.guild_id)
        if guild is not None:
            guild._add_thread(
                discord.Thread(guild=guild, state=self.client._connection, data=copy.deepcopy(thread))
            )
        self._record(Sent(kind="thread", content=body["name"], channel_id=tid, raw=body, message=None))
        if "message" in body:  # forum post: thread + its starter message
            msg = self._new_message(tid, body["message"], uploads)
            self._record(self._sent("channel_message", msg, raw=body["message"]))
            thread["message"] = copy.deepcopy(msg)
        return thread


def _is_idle_task(task: asyncio.Task) -> bool:
    """Tasks settle() must not wait for: view timeout timers and pytest/asyncio infrastructure."""
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", "") or ""
    return "timeout_task_impl" in name or name.startswith("_wrap_asyncgen") or "pytest" in name.lower()
