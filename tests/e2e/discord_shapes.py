"""Discord's published API description, and the fake's traffic checked against it with ``jsonschema``.

Where the description comes from:

- ``DISCORD_OPENAPI=/path/to/openapi.json``: a local copy of Discord's own OpenAPI document (the
  ``discord/discord-api-spec`` repository's ``specs/openapi.json``), used as is;
- otherwise ``tests/e2e/discord_spec/discord-api.json.gz``, pinned in the repository with its licence: the npm
  package ``discord-api-spec`` (Discord's document as Zod schemas and TypeScript types) exported to JSON Schema by
  ``export_spec.mjs``. Reading it takes Python alone; only refreshing it (``refresh.sh``, see the README there)
  takes node and npm.

Both become one shape: ``paths[template][method] = {"request": schema, "responses": {status: schema}}`` and
``schemas`` (JSON Schema 2020-12, references ``#/$defs/Name``). :meth:`Spec.problems` checks one exchange: the
request body (JSON, or a multipart request's ``payload_json``) against the operation's body, the answer against
the schema of its status (``4XX``, ``429``...). Objects are strict: a field Discord does not describe is a
difference too, in the bot's requests and in the fake's answers alike.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from tests.e2e.fake_discord_faults import RequestRecord

SPEC_DIR = Path(__file__).parent / "discord_spec"
PINNED = SPEC_DIR / "discord-api.json.gz"
LOCAL_SPEC = "DISCORD_OPENAPI"
METHODS = ("get", "put", "post", "patch", "delete")


# What discord.py itself sends that Discord's description leaves out, per operation, as paths into the body ("*"
# for every item of a list): Discord ignores them. Not the bot's doing, and nothing the fake could change; every
# other field the bot sends must be described.
COMMANDS = "/applications/{application_id}/commands"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
DISCORD_PY_EXTRAS: dict[tuple[str, str], tuple[str, ...]] = {
    # edits send tts: false; every embed carries its flags
    ("patch", "/channels/{channel_id}/messages/{message_id}"): ("tts", "embeds.*.flags"),
    ("post", "/channels/{channel_id}/messages"): ("embeds.*.flags",),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"): ("data.tts", "data.embeds.*.flags"),
    ("post", WEBHOOK): ("embeds.*.flags",),
    ("patch", WEBHOOK + "/messages/@original"): ("tts", "embeds.*.flags"),
    ("patch", WEBHOOK + "/messages/{message_id}"): ("tts", "embeds.*.flags"),
    # a command's nsfw flag, which Discord's documentation lists for commands but the description's update omits
    ("put", COMMANDS): ("*.nsfw",),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"): ("*.nsfw",),
}
# Discord reads a snowflake sent as a JSON integer as well as a string (discord.py numbers a message's new
# attachments 0, 1, ... as integers); its answers always write them as strings.
SNOWFLAKE_IN_REQUESTS = {
    "anyOf": [{"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}, {"type": "integer", "minimum": 0}]
}


# Where Discord's documentation and its answers say otherwise than the description (its README: follow the docs):
# a field error's code in an Invalid Form Body (50035) is a string, "BASE_TYPE_REQUIRED", not a number.
FIELD_ERROR = {
    "type": "object",
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
    "required": ["code", "message"],
}


class SpecMissing(AssertionError):
    """Discord's description is missing: the test says how to get it back instead of skipping."""


@dataclass
class Operation:
    template: str
    method: str
    request: dict[str, Any] | None
    responses: dict[str, dict[str, Any] | None]


@dataclass
class Spec:
    source: str
    schemas: dict[str, Any]
    operations: list[tuple[re.Pattern[str], int, Operation]] = field(default_factory=list)
    validators: dict[str, jsonschema.protocols.Validator] = field(default_factory=dict)

    @property
    def request_schemas(self) -> dict[str, Any]:
        return {**self.schemas, "SnowflakeType": SNOWFLAKE_IN_REQUESTS}

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> Spec:
        schemas = dict(document["schemas"])
        schemas["InnerErrors"] = {
            **schemas["InnerErrors"],
            "properties": {"_errors": {"type": "array", "items": FIELD_ERROR}},
        }
        spec = cls(document["source"], _strict(schemas))
        for template, methods in document["paths"].items():
            pattern = re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)))
            literal = len(re.sub(r"\{\w+\}", "", template))
            for method, operation in methods.items():
                spec.operations.append(
                    (pattern, literal, Operation(template, method, operation["request"], operation["responses"]))
                )
        return spec

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation a concrete request path belongs to (the most literal template wins: ``@original``)."""
        found = [
            (literal, op)
            for pattern, literal, op in self.operations
            if op.method == method.lower() and pattern.fullmatch(path)
        ]
        return max(found, key=lambda item: item[0])[1] if found else None

    def problems(self, record: RequestRecord) -> list[str]:
        """How one exchange differs from Discord's description (empty: it does not)."""
        where = f"{record.method} {record.path} -> {record.status}"
        operation = self.operation(record.method, record.path)
        if operation is None:
            return [f"{where}: no such operation in Discord's API"]
        found: list[str] = []
        accepted = record.status is not None and record.status < 300
        if accepted and record.request_json is not None:
            body = record.request_json
            for extra in DISCORD_PY_EXTRAS.get((operation.method, operation.template), ()):
                body = _without(body, extra.split("."))
            if operation.request is None:
                found.append(f"{where}: a body, where Discord takes none")
            else:
                found += [f"{where} request {e}" for e in self._errors(operation.request, body, request=True)]
        if record.status is None or record.status >= 500:
            return found  # no answer (a dropped connection), or a server error, whose body Discord does not describe
        status = str(record.status)
        schema_key = status if status in operation.responses else f"{status[0]}XX"
        if schema_key not in operation.responses:
            return [*found, f"{where}: Discord does not answer this operation with {status}"]
        schema = operation.responses[schema_key]
        body = record.response_body or b""
        if schema is None:
            if body:
                found.append(f"{where}: a body, where Discord answers none")
            return found
        try:
            answer = json.loads(body)
        except ValueError:
            return [*found, f"{where}: the answer is not JSON: {body[:80]!r}"]
        return found + [f"{where} answer {e}" for e in self._errors(schema, answer)]

    def _errors(self, schema: dict[str, Any], instance: Any, *, request: bool = False) -> list[str]:
        key = f"{request}:{json.dumps(schema, sort_keys=True)}"
        validator = self.validators.get(key)
        if validator is None:  # one per operation body: it caches the references it resolved
            definitions = self.request_schemas if request else self.schemas
            validator = self.validators[key] = jsonschema.Draft202012Validator({**schema, "$defs": definitions})
        errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
        return [_describe(leaf) for error in errors for leaf in _leaves(error)]


def _without(body: Any, path: list[str]) -> Any:
    """A copy of ``body`` without the field at ``path`` ("*": every item of a list)."""
    head, rest = path[0], path[1:]
    if head == "*" and isinstance(body, list):
        return [_without(item, rest) for item in body]
    if not isinstance(body, dict) or head not in body:
        return body
    if not rest:
        return {key: value for key, value in body.items() if key != head}
    return {**body, head: _without(body[head], rest)}


def _leaves(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors that say what is wrong: for a union (``anyOf``/``oneOf``) those of the branch that got furthest
    (whose first error is deepest, since a wrong ``type`` discriminator fails at once), not "is not valid under
    any of the given schemas"."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    leaves = [[leaf for sub in errors for leaf in _leaves(sub)] for errors in branches.values()]
    return min(leaves, key=lambda found: (any(map(_wrong_kind, found)), -min(len(e.absolute_path) for e in found)))


def _wrong_kind(error: jsonschema.ValidationError) -> bool:
    """An error on a ``type`` discriminator: that branch describes another kind of object altogether."""
    return error.validator in ("const", "enum") and bool(error.absolute_path) and error.absolute_path[-1] == "type"


def _describe(error: jsonschema.ValidationError) -> str:
    path = "/".join(str(part) for part in error.absolute_path) or "(root)"
    return f"at {path}: {error.message[:300]}"


def _strict(schemas: dict[str, Any]) -> dict[str, Any]:
    """Every described object refuses fields it does not describe (``unevaluatedProperties: false``). An object
    made of parts (``allOf``) is closed as a whole, never its parts, which would refuse each other's fields; so
    are the named schemas that serve as such parts left open."""
    extended = set(re.findall(r'"allOf": \[[^\]]*?"\$ref": "#/\$defs/(\w+)"', json.dumps(schemas)))

    def visit(node: Any, *, part: bool = False) -> Any:
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {
            key: [visit(item, part=True) for item in value] if key == "allOf" else visit(value)
            for key, value in node.items()
        }
        described = "properties" in node or "allOf" in node
        closed = described and not part and not {"additionalProperties", "unevaluatedProperties"} & set(node)
        return {**node, "unevaluatedProperties": False} if closed else node

    return {name: visit(schema, part=name in extended) for name, schema in schemas.items()}


def _from_openapi(document: dict[str, Any], source: str) -> dict[str, Any]:
    """Discord's own OpenAPI document in the shape ``export_spec.mjs`` writes."""
    text = json.dumps(document).replace('"#/components/schemas/', '"#/$defs/')
    document = json.loads(text)
    named_responses = document.get("components", {}).get("responses", {})

    def body_schema(content: dict[str, Any] | None) -> dict[str, Any] | None:
        if not content:
            return None
        media = content.get("application/json") or next(iter(content.values()))
        return media.get("schema")

    paths: dict[str, Any] = {}
    for template, item in document["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            responses = {}
            for status, response in operation.get("responses", {}).items():
                if "$ref" in response:
                    response = named_responses[response["$ref"].rsplit("/", 1)[-1]]
                responses[status] = body_schema(response.get("content"))
            request = body_schema(operation.get("requestBody", {}).get("content"))
            paths.setdefault(template, {})[method] = {"request": request, "responses": responses}
    return {"source": source, "paths": paths, "schemas": document["components"]["schemas"]}


@cache
def load_spec() -> Spec:
    """Discord's description: the local document named by ``DISCORD_OPENAPI``, else the pinned export. Raises
    :class:`SpecMissing` (saying how to get it) when neither is there."""
    local = os.environ.get(LOCAL_SPEC)
    if local:
        path = Path(local)
        return Spec.from_document(_from_openapi(json.loads(path.read_text()), f"{path} (Discord's OpenAPI document)"))
    if not PINNED.is_file():
        raise SpecMissing(
            f"Discord's API description {PINNED} is missing: restore it from git, or rebuild it with "
            f"{SPEC_DIR / 'refresh.sh'} (or set {LOCAL_SPEC})"
        )
    with gzip.open(PINNED, "rt", encoding="utf-8") as pinned:
        return Spec.from_document(json.load(pinned))


def check(records: Iterable[RequestRecord], spec: Spec | None = None) -> list[str]:
    """Every difference from Discord's description in these exchanges."""
    spec = spec or load_spec()
    return [problem for record in records for problem in spec.problems(record)]
