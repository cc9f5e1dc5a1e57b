"""Discord's payload limits and mention rules, as the fake enforces them (see ``fake_discord.py``).

Validators return Discord's nested ``errors`` tree (empty when the payload is valid); the fake
answers a non-empty tree with ``400 {"code": 50035, "message": "Invalid Form Body", "errors": ...}``,
the shape discord.py turns into ``HTTPException`` text. The numbers are Discord's documented limits.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

INVALID_FORM_BODY = 50035
REQUEST_TOO_LARGE = 40005

CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELDS_LIMIT = 25
EMBED_FIELD_NAME_LIMIT = 256
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_FOOTER_LIMIT = 2048
EMBED_AUTHOR_LIMIT = 256
EMBED_TOTAL_LIMIT = 6000
ATTACHMENTS_PER_MESSAGE = 10
ATTACHMENT_DESCRIPTION_LIMIT = 1024  # an attachment's alt text
ACTION_ROWS_PER_MESSAGE = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
SELECT_OPTIONS_LIMIT = 25
SELECT_OPTION_TEXT_LIMIT = 100  # an option's label, value and description
SELECT_PLACEHOLDER_LIMIT = 150
SELECT_VALUES_LIMIT = 25  # min_values and max_values: 0..25 (max_values at least 1)
SELECT_TYPES = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects
STRING_SELECT = 3
AUTOCOMPLETE_CHOICES_LIMIT = 25
CHOICE_NAME_LIMIT = 100
CHOICE_VALUE_LIMIT = 100
UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024

IS_COMPONENTS_V2 = 1 << 15  # MessageFlags: layout components, which have their own (looser) rules

ErrorTree = dict[str, Any]


def _add(tree: ErrorTree, path: tuple[str | int, ...], code: str, message: str) -> None:
    node = tree
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _max_length(tree: ErrorTree, path: tuple[str | int, ...], value: Any, limit: int) -> None:
    if value is not None and len(value) > limit:
        _add(tree, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def form_error_body(errors: ErrorTree) -> dict[str, Any]:
    return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY, "errors": errors}


def embed_size(embed: dict[str, Any]) -> int:
    """Characters Discord counts towards the 6000 per message."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size


def validate_message(payload: dict[str, Any], *, attachment_count: int = 0, prefix: tuple[str, ...] = ()) -> ErrorTree:
    """Errors of a message create/edit body (``prefix=("data",)`` for interaction callbacks).

    ``attachment_count`` is the number of attachments the message would end up with.
    """
    errors: ErrorTree = {}
    _max_length(errors, (*prefix, "content"), payload.get("content"), CONTENT_LIMIT)
    embeds = payload.get("embeds") or []
    _max_length(errors, (*prefix, "embeds"), embeds, EMBEDS_PER_MESSAGE)
    for i, embed in enumerate(embeds):
        where = (*prefix, "embeds", i)
        _max_length(errors, (*where, "title"), embed.get("title"), EMBED_TITLE_LIMIT)
        _max_length(errors, (*where, "description"), embed.get("description"), EMBED_DESCRIPTION_LIMIT)
        _max_length(errors, (*where, "footer", "text"), (embed.get("footer") or {}).get("text"), EMBED_FOOTER_LIMIT)
        _max_length(errors, (*where, "author", "name"), (embed.get("author") or {}).get("name"), EMBED_AUTHOR_LIMIT)
        fields = embed.get("fields") or []
        _max_length(errors, (*where, "fields"), fields, EMBED_FIELDS_LIMIT)
        for j, f in enumerate(fields):
            _max_length(errors, (*where, "fields", j, "name"), f.get("name"), EMBED_FIELD_NAME_LIMIT)
            _max_length(errors, (*where, "fields", j, "value"), f.get("value"), EMBED_FIELD_VALUE_LIMIT)
    if sum(embed_size(e) for e in embeds) > EMBED_TOTAL_LIMIT:
        _add(
            errors,
            (*prefix, "embeds"),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_LIMIT}",
        )
    if attachment_count > ATTACHMENTS_PER_MESSAGE:
        _add(
            errors,
            (*prefix, "attachments"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ATTACHMENTS_PER_MESSAGE} or fewer in length.",
        )
    for i, attachment in enumerate(payload.get("attachments") or []):
        description = attachment.get("description")
        _max_length(errors, (*prefix, "attachments", i, "description"), description, ATTACHMENT_DESCRIPTION_LIMIT)
    _validate_components(errors, payload, prefix)
    _validate_allowed_mentions(errors, payload.get("allowed_mentions"), prefix)
    return errors


def _validate_components(errors: ErrorTree, payload: dict[str, Any], prefix: tuple[str, ...]) -> None:
    components = payload.get("components") or []
    layout = bool(int(payload.get("flags") or 0) & IS_COMPONENTS_V2)
    if not layout:
        _max_length(errors, (*prefix, "components"), components, ACTION_ROWS_PER_MESSAGE)
    for i, row in enumerate(components):
        where = (*prefix, "components", i)
        if not layout and row.get("type") == 1:
            children = row.get("components") or []
            buttons = [c for c in children if c.get("type") == 2]
            if len(buttons) > BUTTONS_PER_ROW or len(children) > BUTTONS_PER_ROW:
                _add(errors, (*where, "components"), "BASE_TYPE_MAX_LENGTH", f"Must be {BUTTONS_PER_ROW} or fewer.")
            if len(children) > 1 and any(c.get("type") in SELECT_TYPES for c in children):
                # A select menu takes a whole action row: nothing may share it.
                _add(
                    errors,
                    (*where, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
        _validate_component_tree(errors, row, where)
    seen: set[str] = set()
    for component in _components_in(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            _add(
                errors,
                (*prefix, "components"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated: {custom_id}",
            )
        seen.add(custom_id)


def _components_in(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found += _components_in(component.get("components") or [])
        found += _components_in([component[key] for key in ("accessory", "component") if key in component])
    return found


def _validate_select(errors: ErrorTree, select: dict[str, Any], where: tuple[str | int, ...]) -> None:
    """A select menu: its placeholder, how many values it takes, and (a string select) its options."""
    _max_length(errors, (*where, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_LIMIT)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= SELECT_VALUES_LIMIT:
        _add(errors, (*where, "min_values"), "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_VALUES_LIMIT}.")
    if not 1 <= high <= SELECT_VALUES_LIMIT:
        _add(errors, (*where, "max_values"), "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_VALUES_LIMIT}.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not options:
        _add(errors, (*where, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    if high > len(options) > 0:
        _add(errors, (*where, "max_values"), "NUMBER_TYPE_MAX", f"int value should be <= {len(options)}.")
    values = []
    for j, option in enumerate(options):
        for key in ("label", "value", "description"):
            _max_length(errors, (*where, "options", j, key), option.get(key), SELECT_OPTION_TEXT_LIMIT)
        for key in ("label", "value"):
            if not option.get(key):
                _add(errors, (*where, "options", j, key), "BASE_TYPE_REQUIRED", "This field is required")
        values.append(option.get("value"))
    if len(set(values)) != len(values):
        _add(
            errors,
            (*where, "options"),
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            "Select component option values must be unique",
        )


def _validate_component_tree(errors: ErrorTree, component: dict[str, Any], where: tuple[str | int, ...]) -> None:
    _max_length(errors, (*where, "custom_id"), component.get("custom_id"), CUSTOM_ID_LIMIT)
    if component.get("type") == 2:
        _max_length(errors, (*where, "label"), component.get("label"), BUTTON_LABEL_LIMIT)
    if component.get("type") == 3:
        _max_length(errors, (*where, "options"), component.get("options"), SELECT_OPTIONS_LIMIT)
    if component.get("type") in SELECT_TYPES:
        _validate_select(errors, component, where)
    for j, child in enumerate(component.get("components") or []):
        _validate_component_tree(errors, child, (*where, "components", j))
    if "accessory" in component:
        _validate_component_tree(errors, component["accessory"], (*where, "accessory"))
    if "component" in component:
        _validate_component_tree(errors, component["component"], (*where, "component"))


def _validate_allowed_mentions(errors: ErrorTree, allowed: dict[str, Any] | None, prefix: tuple[str, ...]) -> None:
    if not allowed:
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            _add(
                errors,
                (*prefix, "allowed_mentions"),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


def validate_autocomplete(data: dict[str, Any]) -> ErrorTree:
    """Errors of an autocomplete result (callback type 8) ``data``."""
    errors: ErrorTree = {}
    choices = data.get("choices") or []
    _max_length(errors, ("data", "choices"), choices, AUTOCOMPLETE_CHOICES_LIMIT)
    for i, choice in enumerate(choices):
        _max_length(errors, ("data", "choices", i, "name"), choice.get("name"), CHOICE_NAME_LIMIT)
        value = choice.get("value")
        if isinstance(value, str):
            _max_length(errors, ("data", "choices", i, "value"), value, CHOICE_VALUE_LIMIT)
    return errors


COMMAND_NAME_LIMIT = 32
COMMAND_DESCRIPTION_LIMIT = 100


def _name_char_ok(char: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` for one character, lower case where the
    script has case (Python's ``re`` knows no ``\\p{...}``: the Unicode categories say the same)."""
    if char in "-_":
        return True
    name = unicodedata.name(char, "")
    if name.startswith(("DEVANAGARI", "THAI")):
        return True
    return unicodedata.category(char)[0] in "LN" and char.lower() == char


def _check_name(errors: ErrorTree, path: tuple[str | int, ...], name: Any) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_LIMIT or not all(map(_name_char_ok, name)):
        _add(errors, path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")


def _check_localized_names(errors: ErrorTree, path: tuple[str | int, ...], item: dict[str, Any]) -> None:
    for locale, name in (item.get("name_localizations") or {}).items():
        _check_name(errors, (*path, "name_localizations", locale), name)


def _check_unique(errors: ErrorTree, path: tuple[str | int, ...], items: list[dict[str, Any]]) -> None:
    """Sibling names (options of one command, or top-level commands) differ, in every locale too."""
    locales = {locale for item in items for locale in item.get("name_localizations") or {}}
    for locale in (None, *sorted(locales)):
        names = [
            (item.get("name_localizations") or {}).get(locale, item.get("name")) if locale else item.get("name")
            for item in items
        ]
        if len(set(names)) != len(names):
            where = (*path, "name_localizations", locale) if locale else path
            _add(errors, where, "APPLICATION_COMMAND_DUPLICATE_NAME", f"Names must be unique: {names}")


def _check_options(errors: ErrorTree, path: tuple[str | int, ...], options: list[dict[str, Any]]) -> None:
    _check_unique(errors, path, options)
    for i, option in enumerate(options):
        where = (*path, i)
        _check_name(errors, (*where, "name"), option.get("name"))
        _check_localized_names(errors, where, option)
        _max_length(errors, (*where, "description"), option.get("description"), COMMAND_DESCRIPTION_LIMIT)
        for j, choice in enumerate(option.get("choices") or []):
            _max_length(errors, (*where, "choices", j, "name"), choice.get("name"), CHOICE_NAME_LIMIT)
            for locale, name in (choice.get("name_localizations") or {}).items():
                _max_length(errors, (*where, "choices", j, "name_localizations", locale), name, CHOICE_NAME_LIMIT)
        _check_options(errors, (*where, "options"), option.get("options") or [])


def validate_commands(commands: list[dict[str, Any]]) -> ErrorTree:
    """Errors of a bulk command overwrite: Discord checks every name and localized name (its character rule,
    1-32 characters, unique among siblings in each locale) and refuses the whole sync with a 50035."""
    errors: ErrorTree = {}
    for i, command in enumerate(commands):
        if command.get("type", 1) == 1:
            _check_name(errors, (i, "name"), command.get("name"))
            _check_localized_names(errors, (i,), command)
        _max_length(errors, (i, "description"), command.get("description"), COMMAND_DESCRIPTION_LIMIT)
        _check_options(errors, (i, "options"), command.get("options") or [])
    return errors


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass
class Pings:
    """Who a message notified when it was created (Discord never notifies on edits).

    ``users``/``roles`` are ids; ``everyone`` covers ``@everyone`` and ``@here``.
    """

    users: set[int] = field(default_factory=set)
    roles: set[int] = field(default_factory=set)
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def compute_pings(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    replied_user: int | None = None,
    can_mention_everyone: bool = True,
) -> Pings:
    """Which mentions in ``content`` notify under ``allowed_mentions`` (Discord's rules).

    Without ``allowed_mentions`` everything mentioned notifies (and a reply pings its author);
    with it, a mention only notifies if its kind is in ``parse`` or its id is listed, and a
    reply pings its author only with ``replied_user: true``.
    """
    users = {int(u) for u in _USER_MENTION.findall(content)}
    roles = {int(r) for r in _ROLE_MENTION.findall(content)}
    everyone = ("@everyone" in content or "@here" in content) and can_mention_everyone
    if allowed is None:
        pings = Pings(users=users, roles=roles, everyone=everyone)
        if replied_user is not None:
            pings.users.add(replied_user)
        return pings
    parse = set(allowed.get("parse") or [])
    allowed_users = users if "users" in parse else users & {int(u) for u in allowed.get("users") or []}
    allowed_roles = roles if "roles" in parse else roles & {int(r) for r in allowed.get("roles") or []}
    pings = Pings(users=allowed_users, roles=allowed_roles, everyone=everyone and "everyone" in parse)
    if replied_user is not None and allowed.get("replied_user"):
        pings.users.add(replied_user)
    return pings
