-- Games, their append-only move logs, and per-server ratings.
-- The live state of a game is never stored: it is the replay of its moves through the engine.

CREATE TABLE games (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id             INTEGER NOT NULL,
    channel_id           INTEGER NOT NULL,
    game                 TEXT    NOT NULL,
    options              TEXT    NOT NULL DEFAULT '{}',
    player0_id           INTEGER NOT NULL,
    player1_id           INTEGER NOT NULL,
    challenger_id        INTEGER NOT NULL,
    rated                INTEGER NOT NULL DEFAULT 1,
    status               TEXT    NOT NULL DEFAULT 'challenge'
        CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'cancelled', 'expired')),
    ply                  INTEGER NOT NULL DEFAULT 0,
    winner               INTEGER CHECK (winner IN (0, 1)),
    result_reason        TEXT,
    score0               INTEGER,
    score1               INTEGER,
    challenge_message_id INTEGER,
    board_message_id     INTEGER,
    created_at           REAL    NOT NULL,
    expires_at           REAL,
    started_at           REAL,
    last_move_at         REAL,
    reminded_at          REAL,
    finished_at          REAL,
    CHECK (player0_id <> player1_id)
);

CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_player0 ON games (player0_id, status);
CREATE INDEX games_by_player1 ON games (player1_id, status);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,
    move       TEXT    NOT NULL,
    player     INTEGER,
    user_id    INTEGER,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE TABLE records (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    wins     INTEGER NOT NULL DEFAULT 0,
    losses   INTEGER NOT NULL DEFAULT 0,
    draws    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    before  REAL    NOT NULL,
    after   REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
