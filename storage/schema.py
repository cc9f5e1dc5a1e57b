"""The tables at the newest migration, as SQLAlchemy Core objects: what the repositories' queries use.

Alembic revisions under ``storage/alembic/versions`` create and change the real tables; this module must describe
their result (a test compares it with a migrated database on SQLite and PostgreSQL).

Types are chosen to be right on both databases:

- Discord snowflakes and row ids are ``BigInteger`` (64-bit on PostgreSQL; SQLite integers are 64-bit anyway). The
  ``games`` and ``announcements`` primary keys are plain ``INTEGER`` on SQLite, because only ``INTEGER PRIMARY KEY``
  is SQLite's auto-numbered rowid.
- Timestamps are float epoch seconds in the Python API and ``Double`` (8-byte float) in the database, as SQLite's
  ``REAL`` already was: exact round trips of the values the service compares (``claim_reminder`` matches
  ``last_move_at`` exactly), no time zone to get wrong, and plain ``<=`` against ``now``. PostgreSQL's ``REAL``
  would be 4 bytes (about two minutes of resolution at today's epoch), so it is never used.
- Options and announcement payloads are ``JSON`` (``jsonb`` on PostgreSQL).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from storage.rows import AttemptStatus, GameStatus, TournamentFormat, TournamentStatus

metadata = sa.MetaData()

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


class Time(sa.TypeDecorator[float]):
    """Epoch seconds as an 8-byte float. Reads always give a float: SQLite's RETURNING hands back a whole-number
    REAL as an integer."""

    impl = sa.Double
    cache_ok = True

    def process_result_value(self, value: float | None, dialect: sa.Dialect) -> float | None:
        return None if value is None else float(value)


STATUSES = tuple(status.value for status in GameStatus)


class pair_low(FunctionElement[int]):
    """The smaller of two ids: ``LEAST`` on PostgreSQL, the scalar ``min`` on SQLite."""

    type = sa.BigInteger()
    inherit_cache = True


class pair_high(FunctionElement[int]):
    """The larger of two ids: ``GREATEST`` on PostgreSQL, the scalar ``max`` on SQLite."""

    type = sa.BigInteger()
    inherit_cache = True


@compiles(pair_low)
def _least(element: pair_low, compiler: sa.sql.compiler.SQLCompiler, **kw: object) -> str:
    return f"LEAST({compiler.process(element.clauses, **kw)})"


@compiles(pair_low, "sqlite")
def _min(element: pair_low, compiler: sa.sql.compiler.SQLCompiler, **kw: object) -> str:
    return f"min({compiler.process(element.clauses, **kw)})"


@compiles(pair_high)
def _greatest(element: pair_high, compiler: sa.sql.compiler.SQLCompiler, **kw: object) -> str:
    return f"GREATEST({compiler.process(element.clauses, **kw)})"


@compiles(pair_high, "sqlite")
def _max(element: pair_high, compiler: sa.sql.compiler.SQLCompiler, **kw: object) -> str:
    return f"max({compiler.process(element.clauses, **kw)})"


games = sa.Table(
    "games",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("options", Json, nullable=False),
    sa.Column("player0_id", sa.BigInteger, nullable=False),
    sa.Column("player1_id", sa.BigInteger, nullable=False),
    sa.Column("challenger_id", sa.BigInteger, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer),
    sa.Column("result_reason", sa.Text),
    sa.Column("score0", sa.Integer),
    sa.Column("score1", sa.Integer),
    sa.Column("challenge_message_id", sa.BigInteger),
    # The game's own thread (started from the challenge message), where it is announced; NULL: its channel.
    sa.Column("thread_id", sa.BigInteger),
    # The finished game this challenge is a rematch of (at most one rematch per game: a unique index).
    sa.Column("rematch_of", sa.BigInteger),
    sa.Column("created_at", Time, nullable=False),
    sa.Column("expires_at", Time),
    sa.Column("started_at", Time),
    sa.Column("last_move_at", Time),
    sa.Column("reminded_at", Time),
    sa.Column("finished_at", Time),
    # A game against the bot itself: the side it plays and its level (1-4); NULL for a game between members.
    sa.Column("ai_side", sa.Integer),
    sa.Column("ai_level", sa.Integer),
    # A tournament's game (tournaments.id) and its correspondence clock: seconds for each move (NULL: no clock).
    sa.Column("tournament_id", sa.BigInteger),
    sa.Column("move_seconds", Time),
    # An open challenge (its open seat is player id 0, OPEN_SEAT): the ratings a member must have to take it.
    sa.Column("rating_min", sa.Integer),
    sa.Column("rating_max", sa.Integer),
    sa.CheckConstraint(f"status IN ({', '.join(repr(s) for s in STATUSES)})", name="games_status"),
    sa.CheckConstraint("winner IN (0, 1)", name="games_winner"),
    sa.CheckConstraint("player0_id <> player1_id", name="games_two_players"),
    sqlite_autoincrement=True,
)

# Autocomplete and find_game (a channel's games), a member's games, expiry and reminders.
sa.Index("games_by_guild_channel", games.c.guild_id, games.c.channel_id, games.c.status)
sa.Index("games_by_player0", games.c.player0_id, games.c.status)
sa.Index("games_by_player1", games.c.player1_id, games.c.status)
sa.Index("games_by_expiry", games.c.status, games.c.expires_at)
sa.Index("games_by_idle", games.c.status, games.c.last_move_at)
# A command used in a game's thread, and the server's game lists.
sa.Index("games_by_thread", games.c.thread_id, games.c.status)
sa.Index("games_by_guild_status", games.c.guild_id, games.c.status, games.c.id)
sa.Index("games_by_tournament", games.c.tournament_id, games.c.status)
REMATCH_INDEX = "games_one_rematch"
sa.Index(REMATCH_INDEX, games.c.rematch_of, unique=True)
# One open challenge per pair of members in a server, whoever challenged whom; with the open seat (0) as the
# second player, one open challenge to anyone per member.
OPEN_CHALLENGE_INDEX = "games_one_open_challenge_per_pair"
sa.Index(
    OPEN_CHALLENGE_INDEX,
    games.c.guild_id,
    pair_low(games.c.player0_id, games.c.player1_id),
    pair_high(games.c.player0_id, games.c.player1_id),
    unique=True,
    sqlite_where=games.c.status == GameStatus.CHALLENGE.value,
    postgresql_where=games.c.status == GameStatus.CHALLENGE.value,
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("move", sa.Text, nullable=False),
    sa.Column("player", sa.Integer),
    sa.Column("user_id", sa.BigInteger),
    sa.Column("created_at", Time, nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False),
)

records = sa.Table(
    "records",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("draws", sa.Integer, nullable=False),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("before", sa.Double, nullable=False),
    sa.Column("after", sa.Double, nullable=False),
)

# The transactional outbox: every public message an action owes is written with the action, then delivered (and
# retried) by whoever claims it. See docs/storage.md for the claim protocol.
announcements = sa.Table(
    "announcements",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    # NULL: a server's announcement about no one game (a tournament's round or standings, a season's end).
    sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE")),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("ply", sa.Integer),
    sa.Column("payload", Json, nullable=False),
    sa.Column("created_at", Time, nullable=False),
    sa.Column("delivered_at", Time),
    sa.Column("claimed_by", sa.Text),
    sa.Column("claimed_until", Time),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_attempt_at", Time, nullable=False),
    sa.Column("message_id", sa.BigInteger),
    sa.Column("last_error", sa.Text),
    sqlite_autoincrement=True,
)

sa.Index(
    "announcements_pending",
    announcements.c.next_attempt_at,
    announcements.c.id,
    sqlite_where=announcements.c.delivered_at.is_(None),
    postgresql_where=announcements.c.delivered_at.is_(None),
)
sa.Index("announcements_by_game", announcements.c.game_id, announcements.c.id)

# Per-server settings chosen by the server's admins; NULL in a column means the operator's default (see
# sessions/server_settings.py, which merges the two).
guild_settings = sa.Table(
    "guild_settings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("disabled_games", Json),  # registry names; a game registered later is enabled
    sa.Column("allowed_channels", Json),  # channel ids where challenges may start; NULL or empty: any
    sa.Column("threads", sa.Boolean),
    sa.Column("challenge_minutes", sa.Integer),
    sa.Column("reminder_hours", sa.Integer),
    sa.Column("updated_at", Time, nullable=False),
    sa.Column("daily_puzzles", Json),  # {game: [channel id, hour in UTC]}: where and when its daily puzzle is posted
    sa.CheckConstraint("challenge_minutes BETWEEN 1 AND 1440", name="guild_settings_challenge_minutes"),
    sa.CheckConstraint("reminder_hours BETWEEN 1 AND 168", name="guild_settings_reminder_hours"),
)

# Every admin action, for the server's admins to review (/admin audit).
admin_audit = sa.Table(
    "admin_audit",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("user_id", sa.BigInteger, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("details", Json, nullable=False),
    sa.Column("created_at", Time, nullable=False),
    sqlite_autoincrement=True,
)
sa.Index("admin_audit_by_guild", admin_audit.c.guild_id, admin_audit.c.id)

# --- tournaments and seasons (docs/tournaments.md) ----------------------------------------------------------------

TOURNAMENT_FORMATS = tuple(kind.value for kind in TournamentFormat)
TOURNAMENT_STATUSES = tuple(status.value for status in TournamentStatus)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),  # where it is announced, and its games' threads open
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("options", Json, nullable=False),
    sa.Column("format", sa.Text, nullable=False),
    sa.Column(
        "rounds", sa.Integer, nullable=False
    ),  # Swiss: as chosen (fewer if the players are few); else set at start
    sa.Column("legs", sa.Integer, nullable=False),  # round robin: 1 or 2
    sa.Column("move_seconds", Time, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("signup_deadline", Time, nullable=False),
    sa.Column("max_players", sa.Integer, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("round", sa.Integer, nullable=False),  # the round being played; 0 before the start
    # Bumped by every change of the players: a round paired from an older list is not stored.
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("winner_role_id", sa.BigInteger),
    sa.Column("message_id", sa.BigInteger),  # the sign-up message, with Join and Leave
    sa.Column("created_by", sa.BigInteger, nullable=False),
    sa.Column("created_at", Time, nullable=False),
    sa.Column("started_at", Time),
    sa.Column("finished_at", Time),
    sa.CheckConstraint(f"format IN ({', '.join(repr(f) for f in TOURNAMENT_FORMATS)})", name="tournaments_format"),
    sa.CheckConstraint(f"status IN ({', '.join(repr(s) for s in TOURNAMENT_STATUSES)})", name="tournaments_status"),
    sqlite_autoincrement=True,
)
sa.Index("tournaments_by_status", tournaments.c.status, tournaments.c.guild_id)

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", Id, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("joined_at", Time, nullable=False),
    sa.Column("seed", sa.Integer),  # 1 for the best rating at the start
    sa.Column("rating", sa.Double),  # the rating the seed was taken from
    sa.Column("removed_at", Time),  # removed by an organiser: no more pairings, remaining games forfeited
)

# A round's boards. player1_id NULL is a bye; a board without a game (a bye, a forfeit of a removed player) has
# its points (in half points) here; a played board's result is its game's.
tournament_pairings = sa.Table(
    "tournament_pairings",
    metadata,
    sa.Column("tournament_id", Id, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("player0_id", sa.BigInteger, nullable=False),
    sa.Column("player1_id", sa.BigInteger),
    sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="SET NULL")),
    sa.Column("points0", sa.Integer),
    sa.Column("points1", sa.Integer),
)
sa.Index("tournament_pairings_by_game", tournament_pairings.c.game_id)

# Who may organise tournaments in a server besides its admins (a role an admin names).
competition_settings = sa.Table(
    "competition_settings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("organiser_role_id", sa.BigInteger),
    sa.Column("updated_at", Time, nullable=False),
)

# A server's seasons, numbered from 1; the open one (closed_at NULL) is the one rated games count in.
seasons = sa.Table(
    "seasons",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),  # where its end is announced
    sa.Column("months", sa.Integer, nullable=False),
    sa.Column("starts_at", Time, nullable=False),
    sa.Column("ends_at", Time, nullable=False),
    sa.Column("closed_at", Time),
)
OPEN_SEASON_INDEX = "seasons_one_open"
sa.Index(
    OPEN_SEASON_INDEX,
    seasons.c.guild_id,
    unique=True,
    sqlite_where=seasons.c.closed_at.is_(None),
    postgresql_where=seasons.c.closed_at.is_(None),
)

season_ratings = sa.Table(
    "season_ratings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True),
    sa.Column("season", sa.Integer, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False),
)
# Where each member is in each game's course (/<game> learn), per server: the lesson's key (or "done") and the step.
lesson_progress = sa.Table(
    "lesson_progress",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("lesson", sa.Text, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("completed_at", Time),
    sa.Column("updated_at", Time, nullable=False),
)

# Puzzles (issue 20): positions mined from finished games and the bot's self-play where one move keeps the win.
# A puzzle is rated like a player (mu, sigma); ``guild_id`` is the server whose game it came from (offered only
# there), NULL for the bot's self-play and the shipped set (offered everywhere). ``position_key`` keeps one copy of a
# position. ``themes``: its theme keys (a JSON list, docs/puzzles.md); NULL when not known (a server's own puzzle).
puzzles = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("position_key", sa.Text, nullable=False, unique=True),
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("source_game_id", sa.BigInteger),
    sa.Column("seed", sa.BigInteger),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("options", Json, nullable=False),
    sa.Column("moves", Json, nullable=False),
    sa.Column("solver", sa.Integer, nullable=False),
    sa.Column("solution", Json, nullable=False),
    sa.Column("steps", Json, nullable=False),
    sa.Column("margin", sa.Double, nullable=False),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("created_at", Time, nullable=False),
    sa.Column("themes", Json),
    sqlite_autoincrement=True,
)
sa.Index("puzzles_by_game_rating", puzzles.c.game, puzzles.c.mu)

# A member's go at a puzzle: ``step`` solution moves played so far; open -> solved (no mistake), failed (a
# mistake, or given up) or left (another puzzle started before any move: unrated). One per member and puzzle.
# ``streak_id``: the streak (``puzzle_streaks``) whose puzzle it is; NULL for a puzzle on its own.
ATTEMPT_STATUSES = tuple(status.value for status in AttemptStatus)
puzzle_attempts = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("user_id", sa.BigInteger, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("puzzle_id", Id, sa.ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("mistakes", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("started_at", Time, nullable=False),
    sa.Column("finished_at", Time),
    sa.Column("streak_id", Id),
    sa.CheckConstraint(f"status IN ({', '.join(repr(s) for s in ATTEMPT_STATUSES)})", name="puzzle_attempts_status"),
    sqlite_autoincrement=True,
)
sa.Index(
    "puzzle_attempts_once",
    puzzle_attempts.c.guild_id,
    puzzle_attempts.c.user_id,
    puzzle_attempts.c.puzzle_id,
    unique=True,
)
sa.Index(
    "puzzle_attempts_open",
    puzzle_attempts.c.guild_id,
    puzzle_attempts.c.user_id,
    puzzle_attempts.c.game,
    puzzle_attempts.c.status,
)
sa.Index("puzzle_attempts_by_puzzle", puzzle_attempts.c.puzzle_id, puzzle_attempts.c.guild_id)

# A member's puzzle rating in a server and game (the puzzles' own ratings are on ``puzzles``).
puzzle_ratings = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
)

# Which finished games were mined for puzzles: claimed under a lease, so two processes never mine one game.
puzzle_mining = sa.Table(
    "puzzle_mining",
    metadata,
    sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("claimed_by", sa.Text),
    sa.Column("claimed_until", Time),
    sa.Column("mined_at", Time),
    sa.Column("found", sa.Integer),
)

# A server's daily puzzle of a game: chosen once per UTC day, posted once and its solution revealed once (each a
# claim under a lease, as the outbox's), whichever process gets there first.
daily_puzzles = sa.Table(
    "daily_puzzles",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("day", sa.Integer, primary_key=True),
    sa.Column("puzzle_id", Id, sa.ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("post_claimed_by", sa.Text),
    sa.Column("post_claimed_until", Time),
    sa.Column("posted_at", Time),
    sa.Column("message_id", sa.BigInteger),
    sa.Column("reveal_claimed_by", sa.Text),
    sa.Column("reveal_claimed_until", Time),
    sa.Column("revealed_at", Time),
    sa.Column("created_at", Time, nullable=False),
)
# Not unique: a server's daily puzzle may come back after a year (never within one: the service's rule).
sa.Index("daily_puzzles_by_puzzle", daily_puzzles.c.guild_id, daily_puzzles.c.puzzle_id, daily_puzzles.c.day)

# A member's puzzle streak (issue 29): puzzles of rising difficulty until the first miss. ``solved`` counts its
# puzzles solved; ``attempt_id`` is its latest puzzle's attempt and ``rating`` that puzzle's rating when it was
# picked (the next one is rated higher). Open while ``ended_at`` is NULL: one open streak per server, member and game.
puzzle_streaks = sa.Table(
    "puzzle_streaks",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("user_id", sa.BigInteger, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("rating", sa.Double),
    sa.Column("attempt_id", Id),
    sa.Column("started_at", Time, nullable=False),
    sa.Column("ended_at", Time),
    sqlite_autoincrement=True,
)
sa.Index(
    "puzzle_streaks_one_open",
    puzzle_streaks.c.guild_id,
    puzzle_streaks.c.user_id,
    puzzle_streaks.c.game,
    unique=True,
    sqlite_where=puzzle_streaks.c.ended_at.is_(None),
    postgresql_where=puzzle_streaks.c.ended_at.is_(None),
)
sa.Index("puzzle_streaks_by_game", puzzle_streaks.c.guild_id, puzzle_streaks.c.game, puzzle_streaks.c.solved)
