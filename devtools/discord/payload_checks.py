"""Discord's payload limits, checked the way Discord checks them: one broken limit rejects the
whole request with 50035 Invalid Form Body (or 50006 for an empty message).

The numbers are those of /work/shared/platform-facts.md ("Discord interactions").
"""

from __future__ import annotations

from typing import Any

from devtools.discord.wire import JSON, walk_components

COMPONENTS_V2 = 1 << 15

Problem = tuple[str, str]  # (dotted path in the request body, what is wrong)


def _length(problems: list[Problem], path: str, value: Any, low: int, high: int) -> None:
    if value is None:
        if low > 0:
            problems.append((path, "This field is required"))
        return
    size = len(str(value))
    if size < low or size > high:
        problems.append((path, f"Must be between {low} and {high} in length (got {size})."))


def check_embeds(embeds: list[JSON], problems: list[Problem]) -> None:
    if len(embeds) > 10:
        problems.append(("embeds", "Must be 10 or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        at = f"embeds.{i}"
        for key, high in (("title", 256), ("description", 4096)):
            if embed.get(key) is not None:
                _length(problems, f"{at}.{key}", embed[key], 0, high)
                total += len(str(embed[key]))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{at}.fields", "Must be 25 or fewer in length."))
        for j, embed_field in enumerate(fields):
            _length(problems, f"{at}.fields.{j}.name", embed_field.get("name"), 1, 256)
            _length(problems, f"{at}.fields.{j}.value", embed_field.get("value"), 1, 1024)
            total += len(str(embed_field.get("name") or "")) + len(
                str(embed_field.get("value") or "")
            )
        for key, inner, high in (("footer", "text", 2048), ("author", "name", 256)):
            part = embed.get(key) or {}
            if part.get(inner) is not None:
                _length(problems, f"{at}.{key}.{inner}", part[inner], 0, high)
                total += len(str(part[inner]))
    if total > 6000:
        problems.append(("embeds", f"Embed size exceeds maximum size of 6000 (got {total})."))


def _check_select(component: JSON, at: str, problems: list[Problem]) -> None:
    if component.get("placeholder") is not None:
        _length(problems, f"{at}.placeholder", component["placeholder"], 0, 150)
    options = component.get("options")
    if component.get("type") == 3:
        if not options or len(options) > 25:
            problems.append((f"{at}.options", "Must be between 1 and 25 in length."))
        for k, option in enumerate(options or []):
            _length(problems, f"{at}.options.{k}.label", option.get("label"), 1, 100)
            _length(problems, f"{at}.options.{k}.value", option.get("value"), 1, 100)
            if option.get("description") is not None:
                _length(problems, f"{at}.options.{k}.description", option["description"], 0, 100)
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        problems.append((f"{at}.max_values", "min_values/max_values out of range."))


def _check_interactive(component: JSON, at: str, problems: list[Problem]) -> None:
    kind = component.get("type")
    if kind == 2:  # button
        if component.get("label") is not None:
            _length(problems, f"{at}.label", component["label"], 0, 80)
        if component.get("style") == 5:
            _length(problems, f"{at}.url", component.get("url"), 1, 512)
        elif component.get("style") != 6:  # premium buttons carry a sku_id instead
            _length(problems, f"{at}.custom_id", component.get("custom_id"), 1, 100)
    elif kind in (3, 5, 6, 7, 8):  # selects
        _length(problems, f"{at}.custom_id", component.get("custom_id"), 1, 100)
        _check_select(component, at, problems)


def check_components(components: list[JSON], flags: int, problems: list[Problem]) -> None:
    custom_ids = [c["custom_id"] for c in walk_components(components) if c.get("custom_id")]
    duplicated = sorted({c for c in custom_ids if custom_ids.count(c) > 1})
    if duplicated:
        problems.append(("components", f"Component custom id cannot be duplicated: {duplicated}"))
    if flags & COMPONENTS_V2:
        everything = walk_components(components)
        if len(everything) > 40:
            problems.append(("components", "Must be 40 or fewer components in total."))
        for i, component in enumerate(everything):
            _check_interactive(component, f"components.{i}", problems)
        return
    if len(components) > 5:
        problems.append(("components", "Must be 5 or fewer in length."))
    for i, row in enumerate(components):
        at = f"components.{i}"
        if row.get("type") != 1:
            problems.append((f"{at}.type", "Top-level components must be action rows."))
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if not children or len(children) > 5 or (selects and len(children) > 1):
            problems.append(
                (f"{at}.components", "A row holds 1-5 buttons or exactly one select menu.")
            )
        for j, child in enumerate(children):
            _check_interactive(child, f"{at}.components.{j}", problems)


def check_message(body: JSON, *, creating: bool) -> tuple[int, list[Problem]]:
    """(error code, problems) for a message body; code 0 when Discord would accept it."""
    problems: list[Problem] = []
    flags = int(body.get("flags") or 0)
    if body.get("content") is not None:
        _length(problems, "content", body["content"], 0, 2000)
    check_embeds(list(body.get("embeds") or []), problems)
    check_components(list(body.get("components") or []), flags, problems)
    if flags & COMPONENTS_V2 and (body.get("content") or body.get("embeds")):
        problems.append(("content", "Messages with components v2 cannot have content or embeds."))
    if problems:
        return 50035, problems
    has_something = any(
        body.get(key) for key in ("content", "embeds", "components", "attachments", "poll")
    )
    if creating and not has_something:
        return 50006, [("", "Cannot send an empty message")]
    return 0, []


def check_choices(choices: list[JSON]) -> list[Problem]:
    problems: list[Problem] = []
    if len(choices) > 25:
        problems.append(("data.choices", f"Must be 25 or fewer in length (got {len(choices)})."))
    for i, choice in enumerate(choices):
        _length(problems, f"data.choices.{i}.name", choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            _length(problems, f"data.choices.{i}.value", choice["value"], 0, 100)
    return problems


def check_modal(data: JSON) -> list[Problem]:
    problems: list[Problem] = []
    _length(problems, "data.title", data.get("title"), 1, 45)
    _length(problems, "data.custom_id", data.get("custom_id"), 1, 100)
    top = data.get("components") or []
    if not 1 <= len(top) <= 5:
        problems.append(("data.components", "Must be between 1 and 5 in length."))
    for i, component in enumerate(walk_components(top)):
        at = f"data.components.{i}"
        if component.get("type") == 18:  # label
            _length(problems, f"{at}.label", component.get("label"), 1, 45)
            if component.get("description") is not None:
                _length(problems, f"{at}.description", component["description"], 0, 100)
        elif component.get("type") == 4:  # text input
            _length(problems, f"{at}.custom_id", component.get("custom_id"), 1, 100)
            if component.get("label") is not None:
                _length(problems, f"{at}.label", component["label"], 1, 45)
            for key, high in (("placeholder", 100), ("value", 4000)):
                if component.get(key) is not None:
                    _length(problems, f"{at}.{key}", component[key], 0, high)
            for key in ("min_length", "max_length"):
                if component.get(key) is not None and not 0 <= int(component[key]) <= 4000:
                    problems.append((f"{at}.{key}", "Must be between 0 and 4000."))
        elif component.get("type") in (3, 5, 6, 7, 8):
            _length(problems, f"{at}.custom_id", component.get("custom_id"), 1, 100)
            _check_select(component, at, problems)
    return problems


THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes: an hour, a day, 3 days, a week


def thread_problems(body: Any) -> list[Problem]:
    """What Discord's CreateTextThreadWithMessageRequest refuses (its OpenAPI spec) with 50035:
    ``name`` 1-100 characters and required; ``auto_archive_duration`` 60, 1440, 4320 or 10080
    (or null); ``rate_limit_per_user`` 0-21600 (or null)."""
    if not isinstance(body, dict):
        return [("name", "This field is required")]
    problems: list[Problem] = []
    name = body.get("name")
    if not isinstance(name, str):
        problems.append(("name", "This field is required"))
    elif not 1 <= len(name) <= 100:
        problems.append(("name", f"Must be between 1 and 100 in length (got {len(name)})."))
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in THREAD_ARCHIVE_DURATIONS:
        problems.append(
            ("auto_archive_duration", f"Value must be one of {THREAD_ARCHIVE_DURATIONS}.")
        )
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None and not (isinstance(slowmode, int) and 0 <= slowmode <= 21600):
        problems.append(("rate_limit_per_user", "Int value should be between 0 and 21600."))
    return problems


def form_errors(problems: list[Problem]) -> JSON:
    """Discord's nested ``errors`` object, which discord.py flattens into its message."""
    errors: JSON = {}
    for path, message in problems:
        node = errors
        for part in [p for p in path.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "INVALID", "message": message})
    return errors
