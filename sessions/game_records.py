"""Portable game records (issue 22): a game as a versioned JSON document, and reading one back.

In the spirit of PGN and SGF: tags (the game, where and when, the players, the options, the result) and every entry of
the move log, the dice the bot drew included, so that anyone with the engine can replay it. ``/<game> history``
exports one; ``/<game> replay record:`` and ``/<game> analyse record:`` read one, wherever it was played. The format
is described in docs/records.md; a change that an older reader could not follow gets a new ``version``.

Reading is strict and polite: every refusal is a :class:`UserError` saying what is wrong (not JSON, not a record, a
version this bot does not read, an unknown game, options the game does not have, an illegal move at ply N, too big).
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from datetime import UTC, datetime
from typing import Any

import games
from engines import IllegalMove, Phrase
from locales import N_
from sessions.model import TAKEBACK, Game, UserError, title_of
from sessions.model.records import MAX_RECORD_BYTES, TOO_BIG, Entry, GameRecord
from sessions.table import Table

FORMAT = "abstract-games-bot/game-record"
VERSION = 2
LEGACY_FORMAT = "abstract-games-bot/game-record/1"  # the first export: no version field, moves as plain strings
READABLE_VERSIONS = (1, 2)
MAX_ENTRIES = 5000  # log entries: far beyond any game (the engines' conformance bound is 2,000 plies)
MAX_NAME = 64  # characters of a player's name kept from a file
MEDIA_TYPE = "application/json"

NOT_JSON = N_("That file is not a game record: it is not JSON text.")
NOT_A_RECORD = N_("That file is not a game record of this bot (its format is {format}).")
WRONG_VERSION = N_("That record is version {version}; I read versions {versions}.")
UNKNOWN_GAME = N_("That record is of a game I do not know: {game}.")
OTHER_GAME = N_("That record is of {title}, not {wanted}: use /{game} instead.")
BAD_FIELD = N_("That record is damaged: {field} is missing or not what it should be.")
BAD_OPTIONS = N_("That record's options are not valid: {reason}")
ILLEGAL_AT = N_("That record breaks the rules at ply {ply} ({move}): {reason}")
TOO_LONG = N_("That record has too many moves ({count}; the limit is {limit}).")
NOTHING_TO_UNDO = N_("there is no move of that player to take back")
ALREADY_OVER = N_("the game was already over")


def _iso(moment: float | None) -> str | None:
    return None if moment is None else datetime.fromtimestamp(moment, tz=UTC).isoformat().replace("+00:00", "Z")


def export(game: Game, log: list[str], names: tuple[str, str], place: str = "Discord") -> dict[str, Any]:
    """The record of ``game`` (its log as stored: dice and takebacks included) as JSON-ready data."""
    entry = game.entry
    member_side = None if game.ai_side is None else 1 - game.ai_side
    entries, state, kept = [], entry.new_game(**game.options), []
    for move in log:
        if move == TAKEBACK:
            entries.append({"move": move, "side": member_side})
            while kept and kept.pop()[1] != member_side:
                pass
            state = entry.new_game(**game.options)
            for earlier, _ in kept:
                state.play(earlier)
            continue
        chance = state.chance and move.split(" ", 1)[0] in entry.chance_words
        entries.append({"move": move, "side": state.to_act, **({"chance": True} if chance else {})})
        kept.append((move, state.to_act))
        state.play(move)
    result = None
    if game.scores is not None:
        result = {"winner": game.winner, "reason": game.result_reason, "scores": list(game.scores)}
    players = [
        {
            "side": side,
            "side_name": entry.sides[side],
            "name": names[side],
            "user_id": str(game.players[side]),
            **({"bot_level": game.ai_level} if game.ai_side == side else {}),
        }
        for side in (0, 1)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "title": entry.title,
        "tags": {
            "site": place,
            "game_id": game.id,
            "date": (_iso(game.started_at or game.created_at) or "")[:10],
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "status": str(game.status),
            "rated": game.rated,
        },
        "players": players,
        "options": game.options,
        "result": result,
        "moves": entries,
    }


def dumps(record: dict[str, Any]) -> bytes:
    """The record as UTF-8 JSON text: indented, one move per line (a person can read it too)."""
    head = json.dumps({key: value for key, value in record.items() if key != "moves"}, ensure_ascii=False, indent=2)
    moves = ",\n    ".join(json.dumps(move, ensure_ascii=False) for move in record.get("moves", []))
    listed = f"[\n    {moves}\n  ]" if moves else "[]"
    return f'{head[:-2]},\n  "moves": {listed}\n}}\n'.encode()


def load(data: bytes, *, wanted: str | None = None) -> GameRecord:
    """Read a record (``data`` as the file's bytes); with ``wanted``, it must be of that game. Every move is
    replayed through the engine: a refusal names the first ply that breaks the rules."""
    if len(data) > MAX_RECORD_BYTES:
        raise UserError(TOO_BIG, size=-(-len(data) // 1024), limit=MAX_RECORD_BYTES // 1024)
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise UserError(NOT_JSON) from error
    if not isinstance(document, dict):
        raise UserError(NOT_A_RECORD, format="none")
    version = _version(document)
    name = document.get("game")
    if not isinstance(name, str):
        raise UserError(BAD_FIELD, field="game")
    try:
        entry = games.find(name)
    except KeyError:
        raise UserError(UNKNOWN_GAME, game=_shown(name)) from None
    if wanted is not None and wanted != entry.name:
        raise UserError(OTHER_GAME, title=title_of(entry.name), wanted=title_of(wanted), game=entry.name)
    options = document.get("options", {})
    if not isinstance(options, dict):
        raise UserError(BAD_FIELD, field="options")
    try:
        entry.new_game(**options)
    except (TypeError, ValueError) as error:
        raise UserError(BAD_OPTIONS, reason=_shown(str(error))) from error
    log = _log(document.get("moves"), version)
    names, member_side = _players(document, version)
    result = document.get("result") if isinstance(document.get("result"), dict) else None
    tags = document.get("tags") if isinstance(document.get("tags"), dict) else {}
    record = GameRecord(entry.name, options, log, names, tags, result, member_side)
    _check_rules(record)
    return record


def _version(document: dict[str, Any]) -> int:
    if document.get("format") == LEGACY_FORMAT:
        return 1
    if document.get("format") != FORMAT:
        raise UserError(NOT_A_RECORD, format=_shown(str(document.get("format", "none"))))
    version = document.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        versions = ", ".join(map(str, READABLE_VERSIONS))
        raise UserError(WRONG_VERSION, version=_shown(str(version)), versions=versions)
    return int(version)


def _log(moves: Any, version: int) -> list[Entry]:
    if not isinstance(moves, list):
        raise UserError(BAD_FIELD, field="moves")
    if len(moves) > MAX_ENTRIES:
        raise UserError(TOO_LONG, count=len(moves), limit=MAX_ENTRIES)
    log = []
    for ply, item in enumerate(moves, start=1):
        if version == 1 and isinstance(item, str):
            log.append(Entry(item, None))
        elif isinstance(item, dict) and isinstance(item.get("move"), str):
            side = item.get("side")
            log.append(Entry(item["move"], side if side in (0, 1) else None, bool(item.get("chance"))))
        else:
            raise UserError(BAD_FIELD, field=f"moves[{ply}]")
    return log


def _players(document: dict[str, Any], version: int) -> tuple[tuple[str, str], int | None]:
    """The players' names, and the member's side in a game against the bot (whose takebacks undo their moves)."""
    if version == 1:
        names = document.get("names")
        shown = [_name(n, i) for i, n in enumerate(names)] if isinstance(names, list) and len(names) == 2 else None
        return (shown[0], shown[1]) if shown else ("Player 1", "Player 2"), None
    players = document.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, dict) for p in players):
        raise UserError(BAD_FIELD, field="players")
    names = (_name(players[0].get("name"), 0), _name(players[1].get("name"), 1))
    bot_sides = [side for side in (0, 1) if "bot_level" in players[side]]
    return names, (1 - bot_sides[0]) if len(bot_sides) == 1 else None


def _name(value: Any, side: int) -> str:
    """A name from a file, fit to draw and to say: no control characters, no mention, a sensible length."""
    if not isinstance(value, str) or not value.strip():
        return f"Player {side + 1}"
    return _shown(value)[:MAX_NAME]


def _shown(text: str) -> str:
    kept = "".join(char for char in text if unicodedata.category(char) not in ("Cc", "Cf"))
    return kept.replace("@", "@\u200b")[:200]


def _check_rules(record: GameRecord) -> None:
    """Replay the whole log: the first entry the engine refuses is named by its ply."""
    entry = games.find(record.game)
    state = entry.new_game(**record.options)
    kept: list[tuple[str, int | None]] = []
    for ply, item in enumerate(record.log, start=1):
        if item.move == TAKEBACK:
            if record.member_side is None or not any(side == record.member_side for _, side in kept):
                raise UserError(ILLEGAL_AT, ply=ply, move=TAKEBACK, reason=Phrase(NOTHING_TO_UNDO))
            while kept and kept.pop()[1] != record.member_side:
                pass
            state = entry.new_game(**record.options)
            for move, _ in kept:
                state.play(move)
            continue
        if state.is_over:
            raise UserError(ILLEGAL_AT, ply=ply, move=_shown(item.move), reason=Phrase(ALREADY_OVER))
        try:
            kept.append((item.move, state.to_act))
            state.play(item.move)
        except IllegalMove as error:
            raise UserError(ILLEGAL_AT, ply=ply, move=_shown(item.move), reason=error) from error
        except (ValueError, TypeError, KeyError, IndexError) as error:  # an engine's own words for a malformed move
            raise UserError(ILLEGAL_AT, ply=ply, move=_shown(item.move), reason=_shown(str(error))) from error


class GameRecords:
    """The part that turns a stored game into a record file and reads a record file back."""

    def __init__(self, table: Table) -> None:
        self._table = table

    async def export(self, game: Game, names: tuple[str, str], place: str = "Discord") -> bytes:
        """The record file of ``game`` (its whole log, dice and takebacks included) as UTF-8 JSON."""
        return dumps(export(game, await self._table.moves(game.id), names, place))

    @staticmethod
    async def read(data: bytes, *, wanted: str | None = None) -> GameRecord:
        """A record file checked move by move against the engine (off the event loop: a long game takes a few
        milliseconds); every refusal is a :class:`UserError` saying what is wrong."""
        return await asyncio.to_thread(load, data, wanted=wanted)
