"""The session layer's model: every type the Discord layer reads or names, in one place.

A game (:class:`Game`, carrying its registry entry), what an action did (:class:`Report`), the refusals
(:class:`UserError`, with the :class:`Mention` and :class:`ChannelLink` it may name), the typed vocabulary of a
game's life (``StrEnum``s equal to the stored strings), what the outbox owes (:class:`Notice`, :class:`Bulletin`),
and the views of the other parts (a tournament, a lesson page, a puzzle, a server's settings, a game record).

The model imports nothing of the service: its parts import it, and the cogs import it instead of the parts, so a
cog names a type without reaching into the module that produces it. The engine contract's and the registry's
types a cog needs (a state, an entry, the picker's steps) are named here too, so the Discord layer imports its
types from one module; and the few helpers it shares with the service: a game's entry by its stored name
(:func:`entry_of`), a score as players write it (:func:`shown`), the bounded memory a process keeps
(:class:`LruCache`).
"""

from __future__ import annotations

from competition.standings import shown
from engines import GameState, IllegalMove, Phrase
from games import GameEntry, Say
from games.move_picker import MAX_MENUS, RESERVED, Menu, Step, Text, Unavailable
from lessons import Judgement, Place, Said
from sessions.memory import LruCache
from sessions.model.games import Finish, Game, PlayedMove, ReplyTo, Report, entry_of, title_of
from sessions.model.lessons import LessonPage
from sessions.model.notices import Bulletin, Deliver, Notice
from sessions.model.puzzles import Answer, DailyJob, PuzzleView, day_of, due_at, theme_name, themes_of
from sessions.model.ratings import Rating
from sessions.model.records import MAX_RECORD_BYTES, TOO_BIG, GameRecord
from sessions.model.refusals import NO_PUZZLE_OPEN, STALE_BOARD, STALE_PUZZLE, ChannelLink, Mention, UserError
from sessions.model.settings import CHALLENGE_MINUTES, DAILY_HOURS, REMINDER_HOURS, GuildSettings
from sessions.model.tournaments import FORMATS, MOVE_TIMES, Board, Tournament, TournamentView
from sessions.model.vocabulary import (
    FOLLOW_THE_GAME,
    REPORTED,
    TAKEBACK,
    AnnouncementKind,
    Ending,
    GameStatus,
    MoveKind,
    ReportKind,
)
from storage.faults import DatabaseUnavailable
from storage.rows import OPEN_SEAT, AttemptStatus, TournamentFormat, TournamentStatus

__all__ = [
    "CHALLENGE_MINUTES",
    "DAILY_HOURS",
    "FOLLOW_THE_GAME",
    "FORMATS",
    "MAX_MENUS",
    "MAX_RECORD_BYTES",
    "MOVE_TIMES",
    "NO_PUZZLE_OPEN",
    "OPEN_SEAT",
    "REMINDER_HOURS",
    "REPORTED",
    "RESERVED",
    "STALE_BOARD",
    "STALE_PUZZLE",
    "TAKEBACK",
    "TOO_BIG",
    "AnnouncementKind",
    "Answer",
    "AttemptStatus",
    "Board",
    "Bulletin",
    "ChannelLink",
    "DailyJob",
    "DatabaseUnavailable",
    "Deliver",
    "Ending",
    "Finish",
    "Game",
    "GameEntry",
    "GameRecord",
    "GameState",
    "GameStatus",
    "GuildSettings",
    "IllegalMove",
    "Judgement",
    "LessonPage",
    "LruCache",
    "Mention",
    "Menu",
    "MoveKind",
    "Notice",
    "Phrase",
    "Place",
    "PlayedMove",
    "PuzzleView",
    "Rating",
    "ReplyTo",
    "Report",
    "ReportKind",
    "Said",
    "Say",
    "Step",
    "Text",
    "Tournament",
    "TournamentFormat",
    "TournamentStatus",
    "TournamentView",
    "Unavailable",
    "UserError",
    "day_of",
    "due_at",
    "entry_of",
    "shown",
    "theme_name",
    "themes_of",
    "title_of",
]
