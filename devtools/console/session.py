"""One console line through the bot: :meth:`ConsoleSession.run_line` sends it as a real
interaction (a slash command, a click, a menu choice or a form) with the offline Discord
harness and returns what Discord would show, as text. ``console_setup`` starts the session.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.render.look import ERROR
from devtools.console.parse import (
    ATTACHMENT,
    CHANNEL,
    ROLE,
    CommandSpec,
    ConsoleInputError,
    EntityValue,
    parse_partial,
    parse_slash,
)
from devtools.console.render import (
    NOTHING_CHANGED,
    Control,
    Rendered,
    render_modal_inputs,
    render_result,
)

log = logging.getLogger(__name__)

# The console's person runs everything a server owner could, /daily included.
OWNER = discord.Permissions.all()
MENTION_VERB = "@bot"
CONSOLE_HELP = """\
Console commands:
  @bot TEXT             mention the bot with TEXT in the console's server channel
  reply TEXT            reply with TEXT to the bot's last public message there
  say TEXT              write TEXT in that channel without mentioning the bot
  menu NAME             run the message menu NAME ("Ask Magisterium") on the last message there
  dm TEXT               send the bot TEXT in a direct message
  complete /CMD OPT:TXT the choices the bot offers while OPT is being typed
  click N               press button [N] of the last reply
  select N CHOICE       pick CHOICE (its number, label or value) in menu [N]
  submit TEXT           fill in and send the form the last reply opened
  help                  this list
  quit                  leave (Ctrl-D too)"""


@dataclass(frozen=True)
class Reply:
    text: str
    failed: bool = False  # an input the console refused, or an error shown by the bot


@dataclass
class ConsoleSession:
    harness: Any  # devtools.discord.Harness, started
    commands: list[CommandSpec]  # named in the person's language (--locale)
    description: str  # which Magisterium and which database, for the banner
    locale: str | None = None  # the Discord locale the console's person uses (--locale)
    files_dir: Path | None = None  # where the files the bot sends are saved (--files)
    menus: dict[str, str] = field(default_factory=dict)  # a message menu's typed name -> name
    _controls: list[Control] = field(default_factory=list)
    _modal: Any = None  # the InteractionResult that opened the form still waiting
    _modal_inputs: list[dict[str, Any]] = field(default_factory=list)
    _last_public: Any = None  # the bot's last public message shown: what `reply` answers
    _shown_ids: set[int] = field(default_factory=set)  # this line's messages already printed
    _last_message: Any = None  # the person's last message written with `say`: what `menu` targets

    async def run_line(self, line: str) -> Reply:
        """What Discord would show for one console line; never raises for bad input."""
        text = line.strip()
        verb, _, rest = text.partition(" ")
        try:
            if not text:
                return Reply("")
            if verb == "help":
                return Reply(self.help_text())
            posted_before = len(self.harness.channel_messages)
            self._shown_ids = set()
            reply = await self._act(text, verb, rest)
            return self._with_posts(reply, posted_before)
        except ConsoleInputError as error:
            return Reply(str(error), failed=True)
        except Exception as error:  # the harness refusing or the bot failing: one line each
            log.debug("console line failed: %s", text, exc_info=True)
            return Reply(f"error: {_one_line(error)}", failed=True)

    async def _act(self, text: str, verb: str, rest: str) -> Reply:
        if text.startswith("/"):
            return await self._slash(text)
        if verb.lower() == MENTION_VERB:
            text = self._discord_text(rest.strip())
            return await self._message(await self.harness.mention(self._me, text))
        if verb == "reply":
            return await self._reply(rest.strip())
        if verb == "say":
            return await self._say(rest.strip())
        if verb == "menu":
            return await self._menu(rest.strip())
        if verb == "dm":
            return await self._dm(rest.strip())
        if verb == "complete":
            return await self._complete(rest.strip())
        if verb == "click":
            return await self._click(rest)
        if verb == "select":
            return await self._select(rest)
        if verb == "submit":
            return await self._submit(rest)
        hint = "start with / (try /help), @bot, say, dm or complete, or type help"
        return Reply(f"{text!r} is not a command: {hint}", True)

    def _with_posts(self, reply: Reply, posted_before: int) -> Reply:
        """``reply`` and, after it, what the bot posted in channels meanwhile (a shared answer,
        an answer in a thread), each under the place Discord would show it in."""
        posted = [
            m
            for m in self.harness.channel_messages[posted_before:]
            if not m.deleted and m.place.guild is not None and m.id not in self._shown_ids
        ]
        if not posted:
            return reply
        shown = self._show(_Sent(posted))
        where = _place_names(self.harness, posted)
        header = f"── posted in {where} ──"
        before = "" if reply.text == NOTHING_CHANGED else reply.text  # the posts are the change
        text = "\n".join(part for part in (before, header, shown.text) if part)
        return Reply(text, reply.failed or shown.failed)

    def help_text(self) -> str:
        lines = ["Slash commands (options as name:value, like Discord):"]
        for command in self.commands:
            lines.append(f"  {command.usage()}")
            if command.description:
                lines.append(f"      {command.description}")
        return "\n".join([*lines, CONSOLE_HELP])

    async def _slash(self, text: str) -> Reply:
        invocation = parse_slash(text, self.commands)
        options = {
            name: self._entity(value) if isinstance(value, EntityValue) else value
            for name, value in invocation.values.items()
        }
        result = await self.harness.slash(
            invocation.command.name, options=options, member_permissions=OWNER, locale=self.locale
        )
        return self._show(result)

    async def _click(self, rest: str) -> Reply:
        control = self._control(rest.strip(), "click N")
        if control.is_select:
            raise ConsoleInputError(f"[{control.number}] is a menu: select {control.number} …")
        if control.link:
            return Reply(f"[{control.number}] is a link; open it in a browser: {control.link}")
        custom_id = control.component["custom_id"]
        result = await self.harness.click(
            control.message_id, custom_id, member_permissions=OWNER, locale=self.locale
        )
        return self._show(result)

    async def _select(self, rest: str) -> Reply:
        number, _, choice = rest.strip().partition(" ")
        control = self._control(number, "select N CHOICE")
        if not control.is_select:
            raise ConsoleInputError(f"[{control.number}] is a button: click {control.number}")
        values = [_option_value(control, part.strip()) for part in _choices(control, choice)]
        result = await self.harness.select(
            control.message_id,
            control.component["custom_id"],
            values,
            member_permissions=OWNER,
            locale=self.locale,
        )
        return self._show(result)

    async def _submit(self, rest: str) -> Reply:
        if self._modal is None:
            raise ConsoleInputError("no form is open: submit fills in the form a reply opened")
        values = _form_values(self._modal_inputs, rest.strip())
        result = await self.harness.submit_modal(
            self._modal, values, member_permissions=OWNER, locale=self.locale
        )
        self._modal, self._modal_inputs = None, []
        return self._show(result)

    @property
    def _me(self) -> Any:
        return self.harness.default_user

    async def _reply(self, text: str) -> Reply:
        if not text:
            raise ConsoleInputError("usage: reply TEXT")
        target = self._last_public
        if target is None or target.deleted:
            raise ConsoleInputError("no public message of the bot to reply to: try @bot TEXT")
        return await self._message(
            await self.harness.reply(self._me, target, self._discord_text(text))
        )

    async def _say(self, text: str) -> Reply:
        if not text:
            raise ConsoleInputError("usage: say TEXT")
        typed = self._discord_text(text)
        exchange = await self.harness.message(self._me, typed)
        # Discord gives a message command its target's text even without Message Content.
        self._last_message = {**exchange.payload, "content": typed}
        if not exchange.replies:
            return Reply("(posted; the bot did not answer: it answers mentions, replies and DMs)")
        return await self._message(exchange)

    async def _menu(self, name: str) -> Reply:
        if not name:
            raise ConsoleInputError("usage: menu NAME, e.g. menu Ask Magisterium")
        target = self._last_message or self._last_public
        if target is None:
            raise ConsoleInputError("no message to run it on: write one with say TEXT first")
        menu = self.menus.get(name.lower(), name)
        result = await self.harness.context_menu(
            menu, target_message=target, member_permissions=OWNER, locale=self.locale
        )
        return self._show(result)

    async def _dm(self, text: str) -> Reply:
        if not text:
            raise ConsoleInputError("usage: dm TEXT")
        exchange = await self.harness.dm_message(self._me, text)
        reply = await self._message(exchange)
        return Reply(f"(in your DM with the bot)\n{reply.text}", reply.failed)

    async def _complete(self, line: str) -> Reply:
        invocation, focused, typed = parse_partial(line, self.commands)
        option = invocation.command.option(focused)
        shown = option.shown if option is not None else focused
        choices = await self.harness.autocomplete(
            invocation.command.name,
            focused,
            typed,
            options=invocation.values,
            member_permissions=OWNER,
            locale=self.locale,
        )
        if not choices:
            return Reply(f"(no choices for {shown}:{typed})")
        lines = [f"Choices for {shown}:{typed}"]
        lines += [f"  {n}) {c['name']}  → {c['value']}" for n, c in enumerate(choices, 1)]
        return Reply("\n".join(lines))

    async def _message(self, exchange: Any) -> Reply:
        """The bot's messages in answer to a message typed in its server channel."""
        sent = [m for m in exchange.replies if not m.deleted]
        self._shown_ids.update(m.id for m in sent)
        result = _Sent(sent)
        shown = self._show(result)
        notes = [_reply_note(message) for message in sent]
        lines = shown.text.split("\n") if sent else ["(the bot sent nothing)"]
        return Reply("\n".join([*filter(None, notes[:1]), *lines]), shown.failed or not sent)

    def _discord_text(self, text: str) -> str:
        """``text`` as Discord's client sends what was typed: ``@Role`` and ``@person`` become
        their mentions (``<@&id>``, ``<@id>``); ``@everyone`` and ``@here`` stay as typed."""

        def mention(match: re.Match[str]) -> str:
            name = match.group(1)
            role = discord.utils.find(
                lambda r: r.name.lower() == name.lower(), self.harness.guild.roles
            )
            if role is not None and not role.is_default():
                return f"<@&{role.id}>"
            person = discord.utils.find(
                lambda m: m.name.lower() == name.lower(), self.harness.guild.members
            )
            return f"<@{person.id}>" if person is not None else match.group(0)

        return re.sub(r"(?<![\w<])@([\w.-]+)", mention, text)

    def _show(self, result: Any) -> Reply:
        rendered: Rendered = render_result(result, self._name, self.locale)
        if result.visible_messages:
            self._controls = rendered.controls
        public = [m for m in result.visible_messages if not m.ephemeral]
        if public:
            self._last_public = public[-1]
        if rendered.modal_inputs:
            self._modal, self._modal_inputs = result, rendered.modal_inputs
        errors = [
            embed
            for message in result.visible_messages
            for embed in message.payload.get("embeds") or []
            if embed.get("color") == ERROR.value
        ]
        text = rendered.text
        if self.files_dir is not None:
            # An interaction's files are on its requests; a channel message's on the message.
            files = list(getattr(result, "files", None) or []) or [
                f for m in result.visible_messages for f in getattr(m, "files", [])
            ]
            saved = [self._save(file) for file in files]
            text = "\n".join([text, *(f"(saved to {path})" for path in saved)])
        return Reply(text, failed=bool(errors) or result.callback_type is None)

    def _save(self, file: Any) -> Path:
        """A file the bot sent, written to ``files_dir`` under its own name (never over
        another: a number is added)."""
        assert self.files_dir is not None
        self.files_dir.mkdir(parents=True, exist_ok=True)
        name = Path(str(file.filename)).name or "file"
        path, number = self.files_dir / name, 1
        while path.exists():
            number += 1
            path = self.files_dir / f"{Path(name).stem}-{number}{Path(name).suffix}"
        path.write_bytes(file.data)
        return path

    def _name(self, kind: str, ident: int) -> str | None:
        """The name Discord shows for a <#channel>, <@person> or <@&role> mention."""
        if kind == "#":
            return getattr(self.harness.bot.get_channel(ident), "name", None)
        if kind == "@":
            found = self.harness.bot.get_user(ident)
        else:
            found = self.harness.guild.get_role(ident)
        return None if found is None else str(found.name)

    def _control(self, number: str, usage: str) -> Control:
        if not number.isdigit():
            raise ConsoleInputError(f"usage: {usage}")
        if not self._controls:
            raise ConsoleInputError("the last reply has no buttons or menus")
        for control in self._controls:
            if control.number == int(number):
                if control.component.get("disabled"):
                    raise ConsoleInputError(f"[{number}] is disabled")
                return control
        last = len(self._controls)
        raise ConsoleInputError(f"there is no [{number}]; the last reply has 1-{last}")

    def _entity(self, value: EntityValue) -> Any:
        """The channel, role, person or file a typed option names."""
        name = value.text.lstrip("#@")
        guild: discord.Guild = self.harness.guild
        if value.type == CHANNEL:
            found = discord.utils.get(guild.text_channels, name=name)
            return found or self.harness.make_text_channel(name)
        if value.type == ROLE:
            role = discord.utils.get(guild.roles, name=name)
            if role is None:
                roles = ", ".join(r.name for r in guild.roles)
                raise ConsoleInputError(f"no role {name!r} in the console's server; it has {roles}")
            return role
        if value.type == ATTACHMENT:
            path = Path(value.text).expanduser()
            try:
                return (path.name, path.read_bytes())
            except OSError as error:
                raise ConsoleInputError(f"cannot read {path}: {error.strerror}") from None
        default = self.harness.default_user
        return default if name in ("me", default.name) else self.harness.user(name=name)


@dataclass(frozen=True)
class _Sent:
    """Messages the bot sent in a channel, shaped like an interaction's outcome."""

    visible_messages: list[Any]
    modal: None = None
    callback_type: int = 4


def _place_names(harness: Any, messages: list[Any]) -> str:
    """Where ``messages`` were posted, as Discord names it: #channel, or the thread's name."""
    names: list[str] = []
    for message in messages:
        channel = harness.bot.get_channel(message.place.channel_id)
        if isinstance(channel, discord.Thread):
            name = f"the thread “{channel.name}”"
        else:
            name = f"#{getattr(channel, 'name', message.place.channel_id)}"
        if name not in names:
            names.append(name)
    return ", ".join(names)


def _reply_note(message: Any) -> str | None:
    """How Discord marks a reply: to which message, and whether it pings the replied author."""
    request = message.request or {}
    if not request.get("message_reference"):
        return None
    mentions = request.get("allowed_mentions") or {}
    pinged = mentions.get("replied_user", True) or mentions.get("parse")
    return "(a reply to your message" + ("" if pinged else "; it pings nobody") + ")"


def _choices(control: Control, typed: str) -> list[str]:
    if not typed:
        raise ConsoleInputError(f"usage: select {control.number} CHOICE")
    several = int(control.component.get("max_values", 1)) > 1
    return typed.split(",") if several else [typed]


def _option_value(control: Control, typed: str) -> str:
    """The value of the option typed by its number, its value, or its label (or a part of the
    label that only one option has)."""
    options: list[dict[str, Any]] = control.component.get("options") or []
    if not options:
        raise ConsoleInputError("the console cannot pick users, roles or channels in a menu")
    if typed.isdigit() and 1 <= int(typed) <= len(options):
        return str(options[int(typed) - 1]["value"])
    wanted = typed.lower()
    for option in options:
        if wanted in (str(option["value"]).lower(), str(option.get("label", "")).lower()):
            return str(option["value"])
    partial = [o for o in options if wanted in str(o.get("label", "")).lower()]
    if len(partial) == 1:
        return str(partial[0]["value"])
    raise ConsoleInputError(f"[{control.number}] has no option {typed!r}; pick 1-{len(options)}")


def _form_values(inputs: list[dict[str, Any]], typed: str) -> dict[str, str]:
    """One field takes the whole text; several are numbered: ``1:first 2:second``."""
    if len(inputs) == 1:
        return {inputs[0]["custom_id"]: typed}
    matches = list(re.finditer(r"(?:^|(?<=\s))(\d+):", typed))
    if not matches or matches[0].start() > 0:
        raise ConsoleInputError("\n".join(["usage:", *render_modal_inputs(inputs)]))
    values: dict[str, str] = {}
    for match, following in zip(matches, [*matches[1:], None], strict=True):
        number = int(match.group(1))
        if not 1 <= number <= len(inputs):
            raise ConsoleInputError(f"the form has fields 1-{len(inputs)}, not {number}")
        end = following.start() if following is not None else len(typed)
        values[inputs[number - 1]["custom_id"]] = typed[match.end() : end].strip()
    return values


def _one_line(error: BaseException) -> str:
    if isinstance(error, ExceptionGroup):
        return "; ".join(_one_line(inner) for inner in error.exceptions)
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 400 else text[:400] + "…"
