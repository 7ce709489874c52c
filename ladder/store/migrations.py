"""The ladder database's schema, version by version, and the step from each version to
the next: each kept as it was written for its version, never derived from today's.

Why: an upgrade must turn the database an older arena wrote into the one this arena
writes, and nothing else. A step computed from the current schema (sliced out of its text,
or a table rebuilt from today's CREATE TABLE with SELECT *) makes "version 3" out of
today's tables, and breaks the day a column is added: version 2's rows no longer fit the
table it builds. So each version's statements stay here as they were released and are
never edited: a new version adds its whole schema (what a new database is created with)
and one step from the version before, literally (ALTER TABLE ... ADD COLUMN, or a table
rebuilt with its columns named), and touches nothing above it.
tests/ladder/test_ladder_migrations.py holds the two together: each step turns its version's
tables into exactly the next version's (columns in order, CHECKs, keys, indexes), each
version's statements make word for word the tables its own arena made, and the databases
older arenas wrote (tests/fixtures/ladder_db) upgrade keeping every row.

ladder.store.database runs the steps: each in the writer's transaction together with its
user_version, so an interrupted upgrade leaves the version before it as it was, and a
database is always at some version's schema.

Version 2 here is the one read since 22cb66e: 2efb3fd first wrote version 2 without
games.sandboxed, and 22cb66e added the column five minutes later without a new number.
Version 1 (before the deal key) was never made readable, and nothing upgrades it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Step:
    """From version `version - 1` to `version`, as written when `version` was made."""

    version: int
    """The version it upgrades to."""
    why: str
    script: str
    """SQL statements, run in one transaction with the new user_version."""
    rebuilds: bool = False
    """It makes a table anew (SQLite cannot change a column's constraints in place): run
    with foreign keys off, as SQLite's procedure for such changes says, and every
    reference checked before it commits."""


# --- version 2 (22cb66e): the oldest a reader takes ----------------------------------

V2 = """
-- Euchre Arena ladder database, schema version 2 (PRAGMA user_version).

-- One row: the ladder and the settings every stored game was played under. A run whose
-- settings differ (seed, rules, duplicate, time control, fault policy) is refused.
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,   -- JSON, as LadderConfig.settings()
    created_ms  INTEGER NOT NULL,   -- Unix time in milliseconds
    deal_key    BLOB    NOT NULL    -- the secret every seed is drawn from (arena.deals):
                                    -- random, or derived from the file's seed
);

-- A bot version: the ladder's name for a bot and the digest of its manifest and files.
-- The first version of a name is rated as the name itself, later ones as "name@vN".
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,   -- the name in the ladder file
    version     INTEGER NOT NULL,   -- 1, 2, ... in order of first appearance
    label       TEXT    NOT NULL UNIQUE,  -- what standings and game records call it
    digest      TEXT    NOT NULL,   -- BotManifest.digest
    manifest_version TEXT NOT NULL, -- the manifest's own version string
    source      TEXT    NOT NULL,   -- manifest path, or the address of a remote bot
    added_ms    INTEGER NOT NULL,
    UNIQUE (name, version),
    UNIQUE (name, digest)
);

-- Each `ladder run`. 'interrupted': stopped by Ctrl-C, SIGTERM or an error; 'killed': it
-- ended without a word (kill -9, a crash, a power cut), as found by the next run. Either
-- way every game it finished is stored.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    status      TEXT    NOT NULL
                CHECK (status IN ('running', 'complete', 'interrupted', 'killed')),
    planned     INTEGER NOT NULL,   -- games in the plan
    to_play     INTEGER NOT NULL,   -- of which not yet stored when the run started
    played      INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL,
    arena_version TEXT  NOT NULL,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL
);

-- One finished game: its place in the schedule, its result, and its full record.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: a_team, a_team+2
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit')),
    winning_team INTEGER NOT NULL CHECK (winning_team IN (0, 1)),
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
CREATE INDEX games_by_seq ON games (seq, game_id);

-- One bot's figures in one game, as arena.stats counts them from the record (a bot holds
-- both seats of its team). Sums over games give the report's per-bot figures.
CREATE TABLE game_bots (
    game        INTEGER NOT NULL REFERENCES games (id),
    bot         INTEGER NOT NULL REFERENCES bots (id),
    team        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    calls       INTEGER NOT NULL,   -- hands in which it made trump
    makes       INTEGER NOT NULL,   -- ... and took 3 tricks or more
    marches     INTEGER NOT NULL,   -- ... and took all 5
    euchred     INTEGER NOT NULL,   -- ... and was euchred
    euchres     INTEGER NOT NULL,   -- opponents' calls it euchred
    alone       INTEGER NOT NULL,   -- lone hands it played, either side
    alone_calls INTEGER NOT NULL,   -- lone hands on the makers' side
    alone_marches INTEGER NOT NULL, -- ... that took all 5 tricks
    faults      INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,   -- decisions it made (substituted ones excluded)
    think_us_total INTEGER NOT NULL,
    think_us_max INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- JSON object: kind -> count
    PRIMARY KEY (game, bot)
);

-- Rating history: standings as they stood at checkpoints of each run and at its end.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    run         INTEGER NOT NULL REFERENCES runs (id),
    taken_ms    INTEGER NOT NULL,
    games       INTEGER NOT NULL,   -- games stored when taken
    bot         INTEGER NOT NULL REFERENCES bots (id),
    elo         REAL    NOT NULL,   -- game-by-game Elo, in schedule order
    rating      REAL,               -- maximum-likelihood rating; NULL when not estimable
    low         REAL,               -- its 95% confidence interval
    high        REAL
);
CREATE INDEX rating_history_by_run ON rating_history (run, taken_ms);
"""


# --- version 3 (91e060a): a game may be drawn ---------------------------------------

V3 = """
-- Euchre Arena ladder database, schema version 3 (PRAGMA user_version).

-- One row: the ladder and the settings every stored game was played under. A run whose
-- settings differ (seed, rules, duplicate, time control, fault policy) is refused.
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,   -- JSON, as LadderConfig.settings()
    created_ms  INTEGER NOT NULL,   -- Unix time in milliseconds
    deal_key    BLOB    NOT NULL    -- the secret every seed is drawn from (arena.deals):
                                    -- random, or derived from the file's seed
);

-- A bot version: the ladder's name for a bot and the digest of its manifest and files.
-- The first version of a name is rated as the name itself, later ones as "name@vN".
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,   -- the name in the ladder file
    version     INTEGER NOT NULL,   -- 1, 2, ... in order of first appearance
    label       TEXT    NOT NULL UNIQUE,  -- what standings and game records call it
    digest      TEXT    NOT NULL,   -- BotManifest.digest
    manifest_version TEXT NOT NULL, -- the manifest's own version string
    source      TEXT    NOT NULL,   -- manifest path, or the address of a remote bot
    added_ms    INTEGER NOT NULL,
    UNIQUE (name, version),
    UNIQUE (name, digest)
);

-- Each `ladder run`. 'interrupted': stopped by Ctrl-C, SIGTERM or an error; 'killed': it
-- ended without a word (kill -9, a crash, a power cut), as found by the next run. Either
-- way every game it finished is stored.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    status      TEXT    NOT NULL
                CHECK (status IN ('running', 'complete', 'interrupted', 'killed')),
    planned     INTEGER NOT NULL,   -- games in the plan
    to_play     INTEGER NOT NULL,   -- of which not yet stored when the run started
    played      INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL,
    arena_version TEXT  NOT NULL,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL
);

-- One finished game: its place in the schedule, its result, and its full record.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
CREATE INDEX games_by_seq ON games (seq, game_id);

-- One bot's figures in one game, as arena.stats counts them from the record (a bot holds
-- both seats of its team). Sums over games give the report's per-bot figures.
CREATE TABLE game_bots (
    game        INTEGER NOT NULL REFERENCES games (id),
    bot         INTEGER NOT NULL REFERENCES bots (id),
    team        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    calls       INTEGER NOT NULL,   -- hands in which it made trump
    makes       INTEGER NOT NULL,   -- ... and took 3 tricks or more
    marches     INTEGER NOT NULL,   -- ... and took all 5
    euchred     INTEGER NOT NULL,   -- ... and was euchred
    euchres     INTEGER NOT NULL,   -- opponents' calls it euchred
    alone       INTEGER NOT NULL,   -- lone hands it played, either side
    alone_calls INTEGER NOT NULL,   -- lone hands on the makers' side
    alone_marches INTEGER NOT NULL, -- ... that took all 5 tricks
    faults      INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,   -- decisions it made (substituted ones excluded)
    think_us_total INTEGER NOT NULL,
    think_us_max INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- JSON object: kind -> count
    PRIMARY KEY (game, bot)
);

-- Rating history: standings as they stood at checkpoints of each run and at its end.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    run         INTEGER NOT NULL REFERENCES runs (id),
    taken_ms    INTEGER NOT NULL,
    games       INTEGER NOT NULL,   -- games stored when taken
    bot         INTEGER NOT NULL REFERENCES bots (id),
    elo         REAL    NOT NULL,   -- game-by-game Elo, in schedule order
    rating      REAL,               -- maximum-likelihood rating; NULL when not estimable
    low         REAL,               -- its 95% confidence interval
    high        REAL
);
CREATE INDEX rating_history_by_run ON rating_history (run, taken_ms);
"""

TO_V3 = Step(
    3,
    "a game may be drawn (league play of a fixed number of hands): winning_team NULL, "
    "score_a 0.5. The games table is rebuilt with version 3's CHECKs.",
    """
CREATE TABLE games_new (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
INSERT INTO games_new (
    id, game_id, seq, bot_a, bot_b, number, deal, seed, first_dealer, a_team, seats,
    outcome, winning_team, score_a, points_a, points_b, hands, faults, faults_a, faults_b,
    fault_kinds, started_ms, finished_ms, run, sandboxed, record
)
SELECT
    id, game_id, seq, bot_a, bot_b, number, deal, seed, first_dealer, a_team, seats,
    outcome, winning_team, score_a, points_a, points_b, hands, faults, faults_a, faults_b,
    fault_kinds, started_ms, finished_ms, run, sandboxed, record
FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_seq ON games (seq, game_id);
""",
    rebuilds=True,
)


# --- version 4 (8cbef87): a gauntlet's decided SPRT ----------------------------------

V4 = """
-- Euchre Arena ladder database, schema version 4 (PRAGMA user_version).

-- One row: the ladder and the settings every stored game was played under. A run whose
-- settings differ (seed, rules, duplicate, time control, fault policy) is refused.
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,   -- JSON, as LadderConfig.settings()
    created_ms  INTEGER NOT NULL,   -- Unix time in milliseconds
    deal_key    BLOB    NOT NULL    -- the secret every seed is drawn from (arena.deals):
                                    -- random, or derived from the file's seed
);

-- A bot version: the ladder's name for a bot and the digest of its manifest and files.
-- The first version of a name is rated as the name itself, later ones as "name@vN".
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,   -- the name in the ladder file
    version     INTEGER NOT NULL,   -- 1, 2, ... in order of first appearance
    label       TEXT    NOT NULL UNIQUE,  -- what standings and game records call it
    digest      TEXT    NOT NULL,   -- BotManifest.digest
    manifest_version TEXT NOT NULL, -- the manifest's own version string
    source      TEXT    NOT NULL,   -- manifest path, or the address of a remote bot
    added_ms    INTEGER NOT NULL,
    UNIQUE (name, version),
    UNIQUE (name, digest)
);

-- Each `ladder run`. 'interrupted': stopped by Ctrl-C, SIGTERM or an error; 'killed': it
-- ended without a word (kill -9, a crash, a power cut), as found by the next run. Either
-- way every game it finished is stored.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    status      TEXT    NOT NULL
                CHECK (status IN ('running', 'complete', 'interrupted', 'killed')),
    planned     INTEGER NOT NULL,   -- games in the plan
    to_play     INTEGER NOT NULL,   -- of which not yet stored when the run started
    played      INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL,
    arena_version TEXT  NOT NULL,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL
);

-- One finished game: its place in the schedule, its result, and its full record.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
CREATE INDEX games_by_seq ON games (seq, game_id);

-- One bot's figures in one game, as arena.stats counts them from the record (a bot holds
-- both seats of its team). Sums over games give the report's per-bot figures.
CREATE TABLE game_bots (
    game        INTEGER NOT NULL REFERENCES games (id),
    bot         INTEGER NOT NULL REFERENCES bots (id),
    team        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    calls       INTEGER NOT NULL,   -- hands in which it made trump
    makes       INTEGER NOT NULL,   -- ... and took 3 tricks or more
    marches     INTEGER NOT NULL,   -- ... and took all 5
    euchred     INTEGER NOT NULL,   -- ... and was euchred
    euchres     INTEGER NOT NULL,   -- opponents' calls it euchred
    alone       INTEGER NOT NULL,   -- lone hands it played, either side
    alone_calls INTEGER NOT NULL,   -- lone hands on the makers' side
    alone_marches INTEGER NOT NULL, -- ... that took all 5 tricks
    faults      INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,   -- decisions it made (substituted ones excluded)
    think_us_total INTEGER NOT NULL,
    think_us_max INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- JSON object: kind -> count
    PRIMARY KEY (game, bot)
);

-- Rating history: standings as they stood at checkpoints of each run and at its end.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    run         INTEGER NOT NULL REFERENCES runs (id),
    taken_ms    INTEGER NOT NULL,
    games       INTEGER NOT NULL,   -- games stored when taken
    bot         INTEGER NOT NULL REFERENCES bots (id),
    elo         REAL    NOT NULL,   -- game-by-game Elo, in schedule order
    rating      REAL,               -- maximum-likelihood rating; NULL when not estimable
    low         REAL,               -- its 95% confidence interval
    high        REAL
);
CREATE INDEX rating_history_by_run ON rating_history (run, taken_ms);

-- A gauntlet's SPRT once a run has decided it ([sprt] in the ladder file): frozen, so that
-- games stored after the decision (in flight when it was made) and a later --games never
-- reopen it. One row per challenger label: a new version of the challenger is a new test.
CREATE TABLE sprt (
    challenger  TEXT    PRIMARY KEY,  -- its label
    settings    TEXT    NOT NULL,   -- JSON: elo0, elo1, alpha, beta, model
    result      TEXT    NOT NULL CHECK (result IN ('H0', 'H1')),
    llr         REAL    NOT NULL,
    lower       REAL    NOT NULL,   -- the bounds the LLR left
    upper       REAL    NOT NULL,
    units       INTEGER NOT NULL,   -- pairs (games without duplicate) the test counted
    games       INTEGER NOT NULL,   -- the schedule's first this many games held them all
    decided_ms  INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id)
);
"""

TO_V4 = Step(
    4,
    "the sprt table of a gauntlet's decided test.",
    """
-- A gauntlet's SPRT once a run has decided it ([sprt] in the ladder file): frozen, so that
-- games stored after the decision (in flight when it was made) and a later --games never
-- reopen it. One row per challenger label: a new version of the challenger is a new test.
CREATE TABLE sprt (
    challenger  TEXT    PRIMARY KEY,  -- its label
    settings    TEXT    NOT NULL,   -- JSON: elo0, elo1, alpha, beta, model
    result      TEXT    NOT NULL CHECK (result IN ('H0', 'H1')),
    llr         REAL    NOT NULL,
    lower       REAL    NOT NULL,   -- the bounds the LLR left
    upper       REAL    NOT NULL,
    units       INTEGER NOT NULL,   -- pairs (games without duplicate) the test counted
    games       INTEGER NOT NULL,   -- the schedule's first this many games held them all
    decided_ms  INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id)
);
""",
)


# --- version 5 (8896b31): a bot version's files --------------------------------------

V5 = """
-- Euchre Arena ladder database, schema version 5 (PRAGMA user_version).

-- One row: the ladder and the settings every stored game was played under. A run whose
-- settings differ (seed, rules, duplicate, time control, fault policy) is refused.
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,   -- JSON, as LadderConfig.settings()
    created_ms  INTEGER NOT NULL,   -- Unix time in milliseconds
    deal_key    BLOB    NOT NULL    -- the secret every seed is drawn from (arena.deals):
                                    -- random, or derived from the file's seed
);

-- A bot version: the ladder's name for a bot and the digest of its manifest and files.
-- The first version of a name is rated as the name itself, later ones as "name@vN".
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,   -- the name in the ladder file
    version     INTEGER NOT NULL,   -- 1, 2, ... in order of first appearance
    label       TEXT    NOT NULL UNIQUE,  -- what standings and game records call it
    digest      TEXT    NOT NULL,   -- BotManifest.digest
    manifest_version TEXT NOT NULL, -- the manifest's own version string
    source      TEXT    NOT NULL,   -- manifest path, or the address of a remote bot
    added_ms    INTEGER NOT NULL,
    files       TEXT,               -- JSON {path: digest}: BotManifest.file_digests
                                    -- (NULL for versions stored before schema 5)
    UNIQUE (name, version),
    UNIQUE (name, digest)
);

-- Each `ladder run`. 'interrupted': stopped by Ctrl-C, SIGTERM or an error; 'killed': it
-- ended without a word (kill -9, a crash, a power cut), as found by the next run. Either
-- way every game it finished is stored.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    status      TEXT    NOT NULL
                CHECK (status IN ('running', 'complete', 'interrupted', 'killed')),
    planned     INTEGER NOT NULL,   -- games in the plan
    to_play     INTEGER NOT NULL,   -- of which not yet stored when the run started
    played      INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL,
    arena_version TEXT  NOT NULL,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL
);

-- One finished game: its place in the schedule, its result, and its full record.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
CREATE INDEX games_by_seq ON games (seq, game_id);

-- One bot's figures in one game, as arena.stats counts them from the record (a bot holds
-- both seats of its team). Sums over games give the report's per-bot figures.
CREATE TABLE game_bots (
    game        INTEGER NOT NULL REFERENCES games (id),
    bot         INTEGER NOT NULL REFERENCES bots (id),
    team        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    calls       INTEGER NOT NULL,   -- hands in which it made trump
    makes       INTEGER NOT NULL,   -- ... and took 3 tricks or more
    marches     INTEGER NOT NULL,   -- ... and took all 5
    euchred     INTEGER NOT NULL,   -- ... and was euchred
    euchres     INTEGER NOT NULL,   -- opponents' calls it euchred
    alone       INTEGER NOT NULL,   -- lone hands it played, either side
    alone_calls INTEGER NOT NULL,   -- lone hands on the makers' side
    alone_marches INTEGER NOT NULL, -- ... that took all 5 tricks
    faults      INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,   -- decisions it made (substituted ones excluded)
    think_us_total INTEGER NOT NULL,
    think_us_max INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- JSON object: kind -> count
    PRIMARY KEY (game, bot)
);

-- Rating history: standings as they stood at checkpoints of each run and at its end.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    run         INTEGER NOT NULL REFERENCES runs (id),
    taken_ms    INTEGER NOT NULL,
    games       INTEGER NOT NULL,   -- games stored when taken
    bot         INTEGER NOT NULL REFERENCES bots (id),
    elo         REAL    NOT NULL,   -- game-by-game Elo, in schedule order
    rating      REAL,               -- maximum-likelihood rating; NULL when not estimable
    low         REAL,               -- its 95% confidence interval
    high        REAL
);
CREATE INDEX rating_history_by_run ON rating_history (run, taken_ms);

-- A gauntlet's SPRT once a run has decided it ([sprt] in the ladder file): frozen, so that
-- games stored after the decision (in flight when it was made) and a later --games never
-- reopen it. One row per challenger label: a new version of the challenger is a new test.
CREATE TABLE sprt (
    challenger  TEXT    PRIMARY KEY,  -- its label
    settings    TEXT    NOT NULL,   -- JSON: elo0, elo1, alpha, beta, model
    result      TEXT    NOT NULL CHECK (result IN ('H0', 'H1')),
    llr         REAL    NOT NULL,
    lower       REAL    NOT NULL,   -- the bounds the LLR left
    upper       REAL    NOT NULL,
    units       INTEGER NOT NULL,   -- pairs (games without duplicate) the test counted
    games       INTEGER NOT NULL,   -- the schedule's first this many games held them all
    decided_ms  INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id)
);
"""

TO_V5 = Step(
    5,
    "a bot version's files, each with its digest, so that a changed bot's message can name "
    "what changed (NULL for the versions already stored).",
    """
ALTER TABLE bots ADD COLUMN files TEXT;
""",
)


# --- version 6 (204f6fb): a game may end stalled ------------------------------------

V6 = """
-- Euchre Arena ladder database, schema version 6 (PRAGMA user_version).

-- One row: the ladder and the settings every stored game was played under. A run whose
-- settings differ (seed, rules, duplicate, time control, fault policy) is refused.
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,   -- JSON, as LadderConfig.settings()
    created_ms  INTEGER NOT NULL,   -- Unix time in milliseconds
    deal_key    BLOB    NOT NULL    -- the secret every seed is drawn from (arena.deals):
                                    -- random, or derived from the file's seed
);

-- A bot version: the ladder's name for a bot and the digest of its manifest and files.
-- The first version of a name is rated as the name itself, later ones as "name@vN".
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,   -- the name in the ladder file
    version     INTEGER NOT NULL,   -- 1, 2, ... in order of first appearance
    label       TEXT    NOT NULL UNIQUE,  -- what standings and game records call it
    digest      TEXT    NOT NULL,   -- BotManifest.digest
    manifest_version TEXT NOT NULL, -- the manifest's own version string
    source      TEXT    NOT NULL,   -- manifest path, or the address of a remote bot
    added_ms    INTEGER NOT NULL,
    files       TEXT,               -- JSON {path: digest}: BotManifest.file_digests
                                    -- (NULL for versions stored before schema 5)
    UNIQUE (name, version),
    UNIQUE (name, digest)
);

-- Each `ladder run`. 'interrupted': stopped by Ctrl-C, SIGTERM or an error; 'killed': it
-- ended without a word (kill -9, a crash, a power cut), as found by the next run. Either
-- way every game it finished is stored.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    status      TEXT    NOT NULL
                CHECK (status IN ('running', 'complete', 'interrupted', 'killed')),
    planned     INTEGER NOT NULL,   -- games in the plan
    to_play     INTEGER NOT NULL,   -- of which not yet stored when the run started
    played      INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL,
    arena_version TEXT  NOT NULL,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL
);

-- One finished game: its place in the schedule, its result, and its full record.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit', 'stalled')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
CREATE INDEX games_by_seq ON games (seq, game_id);

-- One bot's figures in one game, as arena.stats counts them from the record (a bot holds
-- both seats of its team). Sums over games give the report's per-bot figures.
CREATE TABLE game_bots (
    game        INTEGER NOT NULL REFERENCES games (id),
    bot         INTEGER NOT NULL REFERENCES bots (id),
    team        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    calls       INTEGER NOT NULL,   -- hands in which it made trump
    makes       INTEGER NOT NULL,   -- ... and took 3 tricks or more
    marches     INTEGER NOT NULL,   -- ... and took all 5
    euchred     INTEGER NOT NULL,   -- ... and was euchred
    euchres     INTEGER NOT NULL,   -- opponents' calls it euchred
    alone       INTEGER NOT NULL,   -- lone hands it played, either side
    alone_calls INTEGER NOT NULL,   -- lone hands on the makers' side
    alone_marches INTEGER NOT NULL, -- ... that took all 5 tricks
    faults      INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,   -- decisions it made (substituted ones excluded)
    think_us_total INTEGER NOT NULL,
    think_us_max INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- JSON object: kind -> count
    PRIMARY KEY (game, bot)
);

-- Rating history: standings as they stood at checkpoints of each run and at its end.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    run         INTEGER NOT NULL REFERENCES runs (id),
    taken_ms    INTEGER NOT NULL,
    games       INTEGER NOT NULL,   -- games stored when taken
    bot         INTEGER NOT NULL REFERENCES bots (id),
    elo         REAL    NOT NULL,   -- game-by-game Elo, in schedule order
    rating      REAL,               -- maximum-likelihood rating; NULL when not estimable
    low         REAL,               -- its 95% confidence interval
    high        REAL
);
CREATE INDEX rating_history_by_run ON rating_history (run, taken_ms);

-- A gauntlet's SPRT once a run has decided it ([sprt] in the ladder file): frozen, so that
-- games stored after the decision (in flight when it was made) and a later --games never
-- reopen it. One row per challenger label: a new version of the challenger is a new test.
CREATE TABLE sprt (
    challenger  TEXT    PRIMARY KEY,  -- its label
    settings    TEXT    NOT NULL,   -- JSON: elo0, elo1, alpha, beta, model
    result      TEXT    NOT NULL CHECK (result IN ('H0', 'H1')),
    llr         REAL    NOT NULL,
    lower       REAL    NOT NULL,   -- the bounds the LLR left
    upper       REAL    NOT NULL,
    units       INTEGER NOT NULL,   -- pairs (games without duplicate) the test counted
    games       INTEGER NOT NULL,   -- the schedule's first this many games held them all
    decided_ms  INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id)
);
"""

TO_V6 = Step(
    6,
    "a game may end stalled (outcome 'stalled', a draw: hands thrown in without end). The "
    "games table is rebuilt with version 6's CHECKs.",
    """
CREATE TABLE games_new (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,  -- "A~B~00012": a game is stored at most once
    seq         INTEGER NOT NULL,   -- place in the schedule: Elo is replayed in this order
    bot_a       INTEGER NOT NULL REFERENCES bots (id),  -- name-sorted first of the pairing
    bot_b       INTEGER NOT NULL REFERENCES bots (id),
    number      INTEGER NOT NULL,   -- the game's number within its pairing
    deal        INTEGER NOT NULL,   -- duplicate mode: the two games of a deal share it
    seed        INTEGER NOT NULL,   -- the deal seed (with the rules it fixes every card)
    first_dealer INTEGER NOT NULL,
    a_team      INTEGER NOT NULL CHECK (a_team IN (0, 1)),  -- bot_a's seats: those of this parity
    seats       TEXT    NOT NULL,   -- the bots by seat, comma-separated labels
    outcome     TEXT    NOT NULL CHECK (outcome IN ('completed', 'forfeit', 'stalled')),
    winning_team INTEGER CHECK (winning_team IN (0, 1)),  -- NULL: a draw
    score_a     REAL    NOT NULL CHECK (score_a IN (0, 0.5, 1)),  -- 1: bot_a's team won
    points_a    INTEGER NOT NULL,   -- final game score of bot_a's team
    points_b    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    faults      INTEGER NOT NULL,   -- all faults in the game
    faults_a    INTEGER NOT NULL,   -- of which bot_a's
    faults_b    INTEGER NOT NULL,
    fault_kinds TEXT    NOT NULL,   -- e.g. "timeout" or "crashed,timeout"; '' when none
    started_ms  INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL,
    run         INTEGER NOT NULL REFERENCES runs (id),
    sandboxed   INTEGER NOT NULL CHECK (sandboxed IN (0, 1)),  -- 0: a seat ran unsealed
    record      BLOB    NOT NULL    -- euchre.v1.GameRecord (proto/euchre/v1/record.proto)
);
INSERT INTO games_new (
    id, game_id, seq, bot_a, bot_b, number, deal, seed, first_dealer, a_team, seats,
    outcome, winning_team, score_a, points_a, points_b, hands, faults, faults_a, faults_b,
    fault_kinds, started_ms, finished_ms, run, sandboxed, record
)
SELECT
    id, game_id, seq, bot_a, bot_b, number, deal, seed, first_dealer, a_team, seats,
    outcome, winning_team, score_a, points_a, points_b, hands, faults, faults_a, faults_b,
    fault_kinds, started_ms, finished_ms, run, sandboxed, record
FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_seq ON games (seq, game_id);
""",
    rebuilds=True,
)


SCHEMAS: dict[int, str] = {2: V2, 3: V3, 4: V4, 5: V5, 6: V6}
"""Each version's whole schema, as a new database of that version was created."""
STEPS: dict[int, Step] = {2: TO_V3, 3: TO_V4, 4: TO_V5, 5: TO_V6}
"""By the version each step upgrades from."""
CURRENT = max(SCHEMAS)
"""The version a new database is created at, and every older one upgraded to."""
