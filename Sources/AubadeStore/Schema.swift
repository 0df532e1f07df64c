import GRDB

/// Schema versions, applied in order and keyed on SQLite's `user_version` (R28). Each step runs in one
/// transaction together with the `user_version` bump, so a crash leaves the file at a whole version.
/// Never edit a released step: add the next one, and a test that migrates a file of every past version.
enum Schema {
    static let latestVersion = steps.count

    static let steps: [@Sendable (Database) throws -> Void] = [
        version1, version2, version3, version4, version5, version6, version7, version8, version9, version10,
        version11, version12,
    ]

    /// The file's `user_version`: 0 for a new or empty file.
    static func version(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    /// True for a file that holds none of our tables: new, emptied, or never migrated (R27 restores into it).
    static func isBlank(_ db: Database) throws -> Bool {
        try version(db) == 0 && !db.tableExists("clocks")
    }

    /// Brings `db` from its `user_version` to `latestVersion`. Throws if the file is newer than we know.
    /// Writes nothing when the file is current (R29). Each step is one IMMEDIATE transaction that reads the
    /// version again under the write lock, so two processes opening a new file at once run each step once.
    static func migrate(_ db: Database) throws {
        let found = try version(db)
        guard found <= latestVersion else { throw SchemaTooNew(found: found) }
        guard found < latestVersion else { return }
        var more = true
        while more {
            try db.inTransaction(.immediate) {
                let current = try version(db)
                guard current <= latestVersion else { throw SchemaTooNew(found: current) }
                if current < latestVersion { try applySteps(from: current, through: current + 1, db) }
                more = current + 1 < latestVersion
                return .commit
            }
        }
    }

    /// Runs the steps after `from` up to `through` with their `user_version` bumps, inside the caller's transaction.
    static func applySteps(from: Int, through: Int = latestVersion, _ db: Database) throws {
        for version in (from + 1)...through {
            try steps[version - 1](db)
            try db.execute(sql: "PRAGMA user_version = \(version)")
        }
    }

    struct SchemaTooNew: Error {
        let found: Int
    }

    /// Version 1: the original tables (`clocks`, `programs`, `appSet`) with their original column names,
    /// plus stations, alarm run-time state and the event history.
    static func version1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE stations (
                    stationId    INTEGER PRIMARY KEY AUTOINCREMENT,
                    name         TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
                    url          TEXT NOT NULL CHECK (length(url) BETWEEN 8 AND 2048),
                    alternateUrl TEXT CHECK (alternateUrl IS NULL OR length(alternateUrl) BETWEEN 8 AND 2048),
                    createdAt    TEXT NOT NULL,
                    updatedAt    TEXT NOT NULL
                );
                CREATE TABLE clocks (
                    clockId       INTEGER PRIMARY KEY AUTOINCREMENT,
                    clockName     TEXT NOT NULL CHECK (length(clockName) BETWEEN 1 AND 64),
                    startTime     TEXT NOT NULL CHECK (startTime GLOB '[0-2][0-9]:[0-5][0-9]'),
                    durationTime  INTEGER NOT NULL CHECK (durationTime BETWEEN 60 AND 14400),
                    repeated      TEXT NOT NULL,
                    onceDate      TEXT CHECK ((repeated = 'once') = (onceDate IS NOT NULL)),
                    isShaked      INTEGER NOT NULL DEFAULT 0 CHECK (isShaked IN (0, 1)),
                    isOpened      INTEGER NOT NULL DEFAULT 1 CHECK (isOpened IN (0, 1)),
                    clockMusic    TEXT NOT NULL,
                    volume        INTEGER NOT NULL CHECK (volume BETWEEN 10 AND 100),
                    fadeInSeconds INTEGER NOT NULL CHECK (fadeInSeconds BETWEEN 0 AND 600),
                    snoozeMinutes INTEGER NOT NULL CHECK (snoozeMinutes BETWEEN 1 AND 60),
                    maxSnoozes    INTEGER NOT NULL CHECK (maxSnoozes BETWEEN 0 AND 20),
                    skipNextDate  TEXT,
                    timeZone      TEXT,
                    createdAt     TEXT NOT NULL,
                    updatedAt     TEXT NOT NULL
                );
                CREATE TABLE programs (
                    progId       INTEGER PRIMARY KEY AUTOINCREMENT,
                    progName     TEXT NOT NULL CHECK (length(progName) BETWEEN 1 AND 64),
                    beginTime    TEXT NOT NULL CHECK (beginTime GLOB '[0-2][0-9]:[0-5][0-9]'),
                    endTime      TEXT NOT NULL CHECK (endTime GLOB '[0-2][0-9]:[0-5][0-9]'),
                    isOrdered    INTEGER NOT NULL DEFAULT 0 CHECK (isOrdered IN (0, 1)),
                    stationId    INTEGER REFERENCES stations(stationId) ON DELETE CASCADE,
                    weekday      INTEGER CHECK (weekday IS NULL OR weekday BETWEEN 1 AND 7),
                    date         TEXT,
                    host         TEXT,
                    description  TEXT,
                    importSource TEXT,
                    CHECK (weekday IS NULL OR date IS NULL)
                );
                CREATE INDEX programs_station ON programs(stationId);
                CREATE TABLE appSet (
                    id                   INTEGER PRIMARY KEY CHECK (id = 1),
                    isWifi               INTEGER NOT NULL DEFAULT 0 CHECK (isWifi IN (0, 1)),
                    defaultVolume        INTEGER NOT NULL DEFAULT 60,
                    snoozeMinutes        INTEGER NOT NULL DEFAULT 9,
                    maxSnoozes           INTEGER NOT NULL DEFAULT 3,
                    alarmDurationSeconds INTEGER NOT NULL DEFAULT 900,
                    fadeInSeconds        INTEGER NOT NULL DEFAULT 30,
                    fallbackTone         TEXT NOT NULL DEFAULT 'classic',
                    toneVolume           INTEGER NOT NULL DEFAULT 90,
                    catchUpSeconds       INTEGER NOT NULL DEFAULT 1800 CHECK (catchUpSeconds >= 60),
                    sleepSeconds         INTEGER NOT NULL DEFAULT 1800,
                    sleepFadeSeconds     INTEGER NOT NULL DEFAULT 60,
                    sleepVolume          INTEGER NOT NULL DEFAULT 30
                );
                INSERT INTO appSet (id) VALUES (1);
                CREATE TABLE alarmState (
                    clockId            INTEGER PRIMARY KEY REFERENCES clocks(clockId) ON DELETE CASCADE,
                    phase              TEXT NOT NULL CHECK (phase IN ('idle', 'ringing', 'snoozed')),
                    occurrence         TEXT,
                    ringingSince       TEXT,
                    snoozedUntil       TEXT,
                    snoozeCount        INTEGER NOT NULL DEFAULT 0,
                    lastHandled        TEXT,
                    updatedAt          TEXT NOT NULL
                );
                CREATE TABLE events (
                    eventId  INTEGER PRIMARY KEY AUTOINCREMENT,
                    at       TEXT NOT NULL,
                    clockId  INTEGER,
                    kind     TEXT NOT NULL,
                    detail   TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX events_at ON events(at);
                """)
    }

    /// Version 2: the HTTP API's device tokens (R30) — only each token's SHA-256 is stored, never the token.
    static func version2(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE tokens (
                    tokenId    INTEGER PRIMARY KEY AUTOINCREMENT,
                    name       TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
                    hash       TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
                    createdAt  TEXT NOT NULL,
                    lastUsedAt TEXT
                );
                """)
    }

    /// Version 3: night dimming of the kiosk (`dimFrom`, `dimUntil` as "HH:MM" or 'off'; `dimLevel` the
    /// backlight's percent while dimmed, never 0 — a screen at 0 is dark on many panels).
    static func version3(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE appSet ADD COLUMN dimFrom TEXT NOT NULL DEFAULT 'off';
                ALTER TABLE appSet ADD COLUMN dimUntil TEXT NOT NULL DEFAULT '07:00';
                ALTER TABLE appSet ADD COLUMN dimLevel INTEGER NOT NULL DEFAULT 10 CHECK (dimLevel BETWEEN 1 AND 100);
                """)
    }

    /// Version 4: calendars (issue 13). Programmes get their imported form — a list of airing dates, their own
    /// zone, a stable key within their import source, location, URL — and a reminder lead for reservations;
    /// alarms may skip days off and follow a programme (its id, its name when last seen, whether it is gone,
    /// and the dates of a programme that airs on a list of dates); the days off; and the calendar sources
    /// (a file or URL, its content's hash, when it was imported and how far its recurrences were expanded).
    static func version4(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE programs ADD COLUMN airDates TEXT;
                ALTER TABLE programs ADD COLUMN timeZone TEXT;
                ALTER TABLE programs ADD COLUMN importKey TEXT;
                ALTER TABLE programs ADD COLUMN location TEXT;
                ALTER TABLE programs ADD COLUMN url TEXT;
                ALTER TABLE programs ADD COLUMN remindSeconds INTEGER
                    CHECK (remindSeconds IS NULL OR remindSeconds BETWEEN 0 AND 86400);
                CREATE UNIQUE INDEX programs_import ON programs(importSource, importKey);
                ALTER TABLE clocks ADD COLUMN skipDaysOff INTEGER NOT NULL DEFAULT 0 CHECK (skipDaysOff IN (0, 1));
                ALTER TABLE clocks ADD COLUMN airDates TEXT;
                ALTER TABLE clocks ADD COLUMN programId INTEGER;
                ALTER TABLE clocks ADD COLUMN programName TEXT;
                ALTER TABLE clocks ADD COLUMN programGone INTEGER NOT NULL DEFAULT 0 CHECK (programGone IN (0, 1));
                CREATE TABLE daysOff (
                    dayOffId     INTEGER PRIMARY KEY AUTOINCREMENT,
                    firstDate    TEXT NOT NULL,
                    lastDate     TEXT NOT NULL CHECK (lastDate >= firstDate),
                    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
                    importSource TEXT,
                    importKey    TEXT,
                    createdAt    TEXT NOT NULL
                );
                CREATE INDEX daysOff_import ON daysOff(importSource);
                CREATE TABLE calendarSources (
                    sourceId        INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind            TEXT NOT NULL CHECK (kind IN ('programmes', 'daysOff')),
                    location        TEXT NOT NULL CHECK (length(location) BETWEEN 1 AND 2048),
                    stationId       INTEGER REFERENCES stations(stationId) ON DELETE SET NULL,
                    format          TEXT NOT NULL,
                    contentHash     TEXT NOT NULL,
                    importedAt      TEXT NOT NULL,
                    expandedThrough TEXT,
                    UNIQUE (kind, location)
                );
                """)
    }

    /// Version 5: a station saved from the public directory keeps where it was found (its directory id, codec,
    /// bitrate, homepage, country) and its logo's file name, and when its click was last counted there.
    static func version5(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE stations ADD COLUMN directoryId TEXT CHECK (directoryId IS NULL OR length(directoryId) = 36);
                ALTER TABLE stations ADD COLUMN codec TEXT;
                ALTER TABLE stations ADD COLUMN bitrate INTEGER CHECK (bitrate IS NULL OR bitrate BETWEEN 0 AND 10000);
                ALTER TABLE stations ADD COLUMN homepage TEXT;
                ALTER TABLE stations ADD COLUMN country TEXT;
                ALTER TABLE stations ADD COLUMN logo TEXT;
                ALTER TABLE stations ADD COLUMN clickedOn TEXT;
                """)
    }

    /// Version 6: the podcasts followed, each with its newest episodes as last read from its feed (JSON).
    static func version6(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE podcasts (
                    podcastId   INTEGER PRIMARY KEY AUTOINCREMENT,
                    name        TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
                    feedUrl     TEXT NOT NULL CHECK (length(feedUrl) BETWEEN 8 AND 2048),
                    title       TEXT NOT NULL,
                    episodes    TEXT NOT NULL,
                    refreshedAt TEXT NOT NULL,
                    createdAt   TEXT NOT NULL
                );
                """)
    }

    /// Version 7: where listening to a podcast stopped (its episode's feed id and the byte of its file), so the
    /// sleep timer continues there the next night.
    static func version7(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE podcasts ADD COLUMN resumeEpisode TEXT;
                ALTER TABLE podcasts ADD COLUMN resumeByte INTEGER CHECK (resumeByte IS NULL OR resumeByte >= 0);
                """)
    }

    /// Version 8: an alarm's sunrise, how many seconds before it the kiosk's face starts to brighten (0: none).
    static func version8(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE clocks ADD COLUMN sunriseSeconds INTEGER NOT NULL DEFAULT 0
                    CHECK (sunriseSeconds BETWEEN 0 AND 7200);
                """)
    }

    /// Version 9: an alarm's own ladder, how it climbs when nobody answers (`AlarmLadder`'s text; NULL follows the
    /// clock's `[alarm] ladder`), its wake-up check's delay after a Stop (0: none), and the rests its ladder took in the
    /// occurrence being handled.
    static func version9(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE clocks ADD COLUMN ladder TEXT CHECK (ladder IS NULL OR length(ladder) BETWEEN 1 AND 80);
                ALTER TABLE clocks ADD COLUMN wakeCheckSeconds INTEGER NOT NULL DEFAULT 0
                    CHECK (wakeCheckSeconds = 0 OR wakeCheckSeconds BETWEEN 60 AND 3600);
                ALTER TABLE alarmState ADD COLUMN restCount INTEGER NOT NULL DEFAULT 0 CHECK (restCount BETWEEN 0 AND 1000);
                """)
    }

    /// Version 10: when an alarm's bed shaker and lamp come on while it rings (`OutputTiming`'s text: "now",
    /// "after:2m", "off"; NULL: at its ladder's top step only).
    static func version10(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE clocks ADD COLUMN shaker TEXT CHECK (shaker IS NULL OR length(shaker) BETWEEN 2 AND 20);
                ALTER TABLE clocks ADD COLUMN lamp TEXT CHECK (lamp IS NULL OR length(lamp) BETWEEN 2 AND 20);
                """)
    }

    /// Version 11: "vibrate first, sound after" (`--sound-after`): how many seconds after its ring begins an alarm's
    /// sound starts (1–600); NULL (every row before it): with the ring.
    static func version11(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE clocks ADD COLUMN sound_after INTEGER CHECK (sound_after IS NULL OR sound_after BETWEEN 1 AND 600);
                """)
    }

    /// Version 12: when a pending wake-up check asks "Are you up?" (NULL: none), so that it survives a restart.
    static func version12(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE alarmState ADD COLUMN wakeCheckAt TEXT;")
    }
}
