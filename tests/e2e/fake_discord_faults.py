"""Request log and switchable faults of the fake Discord server (see ``fake_discord.py``).

Every REST request becomes a :class:`RequestRecord`. Tests switch faults on per endpoint kind
with :meth:`FakeDiscord.inject`; each matching request consumes one use of the fault.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from tests.e2e.harness import FakeInteraction

# Endpoint kinds faults and request counts can be filtered by.
CALLBACK = "callback"  # POST /interactions/{id}/{token}/callback
FOLLOWUP = "followup"  # POST /webhooks/{app}/{token}
WEBHOOK_EDIT = "webhook_edit"  # PATCH /webhooks/{app}/{token}/messages/{id}
CHANNEL_MESSAGE = "channel_message"  # POST /channels/{id}/messages, PATCH /channels/{id}/messages/{id}
THREAD = "thread"  # POST /channels/{id}/threads, POST /channels/{id}/messages/{id}/threads
OTHER = "other"
ANY = "any"
ENDPOINTS = (CALLBACK, FOLLOWUP, WEBHOOK_EDIT, CHANNEL_MESSAGE, THREAD, OTHER, ANY)

FaultKind = Literal["rate_limit", "server_error", "applied_but_lost", "drop", "delay"]


@dataclass
class RequestRecord:
    """One REST request the bot made.

    ``route`` is the template (``"POST /channels/{channel_id}/messages"``), ``at`` a
    ``time.monotonic()`` stamp (``answered_at`` when the answer left), ``status`` the HTTP status
    answered (None for a dropped connection or while in flight), ``fault`` the kind of injected
    fault that hit it.
    """

    method: str
    path: str
    route: str = ""
    endpoint: str = OTHER
    at: float = field(default_factory=time.monotonic)
    interaction_id: int | None = None
    status: int | None = None
    fault: str | None = None
    answered_at: float | None = None
    # What was said, for checking against Discord's description (tests/e2e/discord_shapes.py): the JSON body
    # (a multipart request's ``payload_json``) as the fake read it, and the answer's bytes.
    request_json: Any = None
    response_body: bytes | None = None


class RequestWindow:
    """The requests made since a mark: ``with fake.count_requests() as log: ...; assert log.count(...) == 1``.

    Live while the block runs and frozen at its end (later requests are not counted).
    """

    def __init__(self, log: list[RequestRecord], start: int) -> None:
        self._log = log
        self._start = start
        self._end: int | None = None

    def close(self) -> None:
        self._end = len(self._log)

    @property
    def records(self) -> list[RequestRecord]:
        return self._log[self._start : self._end]

    def count(
        self, endpoint: str | None = None, *, method: str | None = None, route: str | None = None, **kw: Any
    ) -> int:
        return len(select_requests(self.records, endpoint=endpoint, method=method, route=route, **kw))

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Any:
        return iter(self.records)

    def __repr__(self) -> str:
        return f"<RequestWindow {[f'{r.method} {r.path} -> {r.status}' for r in self.records]}>"


def select_requests(
    records: list[RequestRecord],
    *,
    endpoint: str | None = None,
    method: str | None = None,
    route: str | None = None,
    interaction_id: int | None = None,
    exclude_faulted: bool = False,
) -> list[RequestRecord]:
    return [
        r
        for r in records
        if (endpoint in (None, ANY) or r.endpoint == endpoint)
        and (method is None or r.method == method.upper())
        and (route is None or r.route == route)
        and (interaction_id is None or r.interaction_id == interaction_id)
        and not (exclude_faulted and r.fault is not None)
    ]


@dataclass(frozen=True)
class Fault:
    """What goes wrong with a request. Build with the class methods or pass a name to ``inject``.

    - ``rate_limit``: 429 with ``retry_after`` and the headers discord.py reads; not applied.
    - ``server_error``: 500/502/503/504; not applied.
    - ``applied_but_lost``: applied, then answered with ``status`` (502 by default).
    - ``drop``: the connection is closed without an answer, after applying if ``applied``.
    - ``delay``: answered normally after ``seconds`` (interaction deadlines are checked
      after the delay, so a long one is a callback outage).
    """

    kind: FaultKind
    status: int = 0
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = "user"
    seconds: float = 0.0
    applied: bool = False

    @classmethod
    def rate_limit(cls, retry_after: float = 0.05, *, is_global: bool = False, scope: str = "user") -> Fault:
        return cls("rate_limit", status=429, retry_after=retry_after, is_global=is_global, scope=scope)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        if status < 500:
            raise ValueError("a server error has a 5xx status")
        return cls("server_error", status=status)

    @classmethod
    def applied_but_lost(cls, status: int = 502) -> Fault:
        return cls("applied_but_lost", status=status, applied=True)

    @classmethod
    def dropped(cls, *, applied: bool = True) -> Fault:
        return cls("drop", applied=applied)

    @classmethod
    def delay(cls, seconds: float) -> Fault:
        return cls("delay", seconds=seconds, applied=True)

    @classmethod
    def parse(cls, spec: Fault | str | int, *, outage_seconds: float) -> Fault:
        """A :class:`Fault` from a name: ``"429"``/``"rate_limit"``, ``"500"``... ``"504"``,
        ``"applied_but_lost"``, ``"drop"`` (not applied), ``"applied_then_drop"``, ``"outage"``."""
        if isinstance(spec, Fault):
            return spec
        name = str(spec)
        if name in ("429", "rate_limit"):
            return cls.rate_limit()
        if name.isdigit():
            return cls.server_error(int(name))
        named: dict[str, Callable[[], Fault]] = {
            "applied_but_lost": cls.applied_but_lost,
            "drop": lambda: cls.dropped(applied=False),
            "applied_then_drop": lambda: cls.dropped(applied=True),
            "outage": lambda: cls.delay(outage_seconds),
        }
        if name not in named:
            raise ValueError(f"unknown fault {spec!r}")
        return named[name]()


@dataclass
class InjectedFault:
    """A fault switched on by ``fake.inject``: ``hits`` lists the requests it hit."""

    endpoint: str
    fault: Fault
    times: int | None
    method: str | None = None
    interaction_id: int | None = None
    hits: list[RequestRecord] = field(default_factory=list)
    cancelled: bool = False

    @property
    def active(self) -> bool:
        return not self.cancelled and (self.times is None or len(self.hits) < self.times)

    def cancel(self) -> None:
        self.cancelled = True

    def matches(self, record: RequestRecord) -> bool:
        return (
            self.active
            and (self.endpoint == ANY or record.endpoint == self.endpoint)
            and (self.method is None or record.method == self.method)
            and (self.interaction_id is None or record.interaction_id == self.interaction_id)
        )


def fault_response(fault: Fault) -> web.Response:
    """The answer to a request a fault stops before it is applied (429 or 5xx)."""
    if fault.kind == "rate_limit":
        body = {
            "message": "You are being rate limited.",
            "code": 0,
            "retry_after": fault.retry_after,
            "global": fault.is_global,
        }
        headers = {
            # discord.py treats a 429 without ``Via`` as a Cloudflare ban and does not retry.
            "Via": "1.1 google",
            "Retry-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": fault.scope,
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        payload = json.dumps(body).encode()
        return web.Response(body=payload, status=429, content_type="application/json", headers=headers)
    return lost_response(fault.status)


def lost_response(status: int) -> web.Response:
    messages = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}
    body = {"message": messages.get(status, "Server Error"), "code": 0}
    return web.Response(body=json.dumps(body).encode(), status=status, content_type="application/json")


class RequestLogMixin:
    """Request counting and fault switches; mixed into :class:`~tests.e2e.fake_discord.FakeDiscord`."""

    request_log: list[RequestRecord]
    requests: list[tuple[str, str]]
    unknown_requests: list[tuple[str, str]]
    faults: list[InjectedFault]
    interaction_deadline: float

    def mark(self) -> int:
        """A point in :attr:`request_log` to count requests from (see :meth:`requests_since`)."""
        return len(self.request_log)

    def requests_since(
        self,
        mark: int = 0,
        *,
        endpoint: str | None = None,
        method: str | None = None,
        route: str | None = None,
        interaction: FakeInteraction | int | None = None,
        exclude_faulted: bool = False,
    ) -> list[RequestRecord]:
        """Requests logged after ``mark``, filtered by endpoint kind, method, route template or interaction."""
        iid = interaction.id if isinstance(interaction, FakeInteraction) else interaction
        return select_requests(
            self.request_log[mark:],
            endpoint=endpoint,
            method=method,
            route=route,
            interaction_id=iid,
            exclude_faulted=exclude_faulted,
        )

    @contextlib.contextmanager
    def count_requests(self) -> Iterator[RequestWindow]:
        """``with fake.count_requests() as log:`` records the requests made inside the block."""
        window = RequestWindow(self.request_log, len(self.request_log))
        try:
            yield window
        finally:
            window.close()

    def reset_requests(self) -> None:
        """Forget logged requests (``request_log``, ``requests`` and ``unknown_requests``)."""
        self.request_log.clear()
        self.requests.clear()
        self.unknown_requests.clear()

    def inject(
        self,
        endpoint: str = ANY,
        fault: Fault | str | int = "500",
        *,
        times: int | None = 1,
        method: str | None = None,
        interaction: FakeInteraction | int | None = None,
    ) -> InjectedFault:
        """Make the next ``times`` requests to ``endpoint`` fail with ``fault`` (``times=None``: until cleared).

        See the module docstring for endpoints and fault names. Faults are consumed in the
        order they were injected; the returned handle's ``hits`` lists the requests hit.
        """
        if endpoint not in ENDPOINTS:
            raise ValueError(f"unknown endpoint {endpoint!r}; one of {ENDPOINTS}")
        spec = Fault.parse(fault, outage_seconds=self.interaction_deadline + 0.25)
        iid = interaction.id if isinstance(interaction, FakeInteraction) else interaction
        injected = InjectedFault(
            endpoint=endpoint, fault=spec, times=times, method=method.upper() if method else None, interaction_id=iid
        )
        self.faults.append(injected)
        return injected

    def clear_faults(self) -> None:
        """Switch every injected fault off."""
        for injected in self.faults:
            injected.cancel()
        self.faults.clear()
