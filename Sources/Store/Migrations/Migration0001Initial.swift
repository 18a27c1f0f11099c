/// 0001: the initial schema. Constraints live in the schema; every user-owned table is keyed by user id and cascades
/// from `users`, so deleting a user deletes everything of theirs.
///
/// Both dialects have the same tables, the same columns in the same order (so `contentDigest` reads rows alike) and the
/// same constraints. PostgreSQL's instants are BIGINT milliseconds, blobs BYTEA, reals DOUBLE PRECISION, the workout
/// tombstone a BOOLEAN; its key and ordering columns are `COLLATE "C"`: byte order, as SQLite sorts, whatever the
/// cluster's locale.
package enum Migration0001Initial: StoreMigration {
    package static let identifier = "0001_initial"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE users (
            user_id TEXT PRIMARY KEY NOT NULL CHECK (length(user_id) BETWEEN 1 AND 128),
            \(MigrationColumns.lines(MigrationColumns.userProfile)),
            threshold_pace_s_per_km REAL CHECK (threshold_pace_s_per_km > 0),
            \(MigrationColumns.lines(MigrationColumns.userPlanning)),
            created_at_ms INTEGER NOT NULL
        );

        CREATE TABLE sessions (
            \(MigrationColumns.lines(MigrationColumns.sessionHead)),
            raw_blob BLOB,
            \(MigrationColumns.lines(MigrationColumns.sessionTail)),
            PRIMARY KEY (user_id, session_id),
            CHECK (ended_at_ms >= started_at_ms)
        );
        CREATE INDEX sessions_by_user_start ON sessions(user_id, started_at_ms DESC);

        CREATE TABLE workouts (
            \(MigrationColumns.lines(MigrationColumns.workoutKey)),
            source TEXT NOT NULL CHECK (source IN ('apple_health','garmin','manual')),
            \(MigrationColumns.lines(MigrationColumns.workoutMeasures)),
            samples_json TEXT,
            \(MigrationColumns.lines(MigrationColumns.workoutTail)),
            PRIMARY KEY (user_id, workout_id)
        );
        CREATE INDEX workouts_by_user_start ON workouts(user_id, start_ms DESC);

        CREATE TABLE session_metrics (
            user_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            local_date TEXT NOT NULL CHECK (local_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            sport TEXT NOT NULL,
            duration_s REAL NOT NULL CHECK (duration_s >= 0),
            distance_m REAL,
            energy_kcal REAL,
            avg_power_w REAL,
            avg_hr_bpm REAL,
            tss REAL,
            metrics_json TEXT NOT NULL,
            flags TEXT NOT NULL DEFAULT '',
            computed_at_ms INTEGER NOT NULL,
            PRIMARY KEY (user_id, session_id),
            FOREIGN KEY (user_id, session_id) REFERENCES sessions(user_id, session_id) ON DELETE CASCADE
        );

        CREATE TABLE user_stats (
            user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            stats_json TEXT NOT NULL,
            computed_at_ms INTEGER NOT NULL,
            app_stats_json TEXT,
            app_reported_at_ms INTEGER
        );

        CREATE TABLE plans (
            user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            version INTEGER NOT NULL CHECK (version >= 1),
            generated_at_ms INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('ready','completed','error')),
            document_json TEXT NOT NULL,
            PRIMARY KEY (user_id, version)
        );

        CREATE TABLE quarantine (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT,
            source TEXT NOT NULL,
            source_key TEXT NOT NULL,
            record_id TEXT,
            reason_code TEXT NOT NULL CHECK (length(reason_code) > 0),
            message TEXT NOT NULL,
            payload BLOB NOT NULL,
            payload_sha256 TEXT NOT NULL,
            received_at_ms INTEGER NOT NULL,
            quarantined_at_ms INTEGER NOT NULL,
            UNIQUE (source_key, reason_code, payload_sha256)
        );
        CREATE INDEX quarantine_by_user ON quarantine(user_id);
        CREATE INDEX quarantine_by_reason ON quarantine(reason_code);

        CREATE TABLE ingest_ledger (
            ledger_key TEXT PRIMARY KEY NOT NULL,
            content_sha256 TEXT NOT NULL,
            processed_at_ms INTEGER NOT NULL,
            report_json TEXT
        );

        CREATE TABLE job_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            job TEXT NOT NULL,
            started_at_ms INTEGER NOT NULL,
            ended_at_ms INTEGER,
            status TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','interrupted')),
            counts_json TEXT NOT NULL DEFAULT '{}',
            watermark TEXT
        );
        CREATE INDEX job_runs_by_job ON job_runs(job, id DESC);

        CREATE TABLE deletion_audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_sha256 TEXT NOT NULL CHECK (length(user_sha256) = 64),
            requested_at_ms INTEGER NOT NULL,
            completed_at_ms INTEGER,
            status TEXT NOT NULL CHECK (status IN ('pending','completed','failed')),
            note TEXT
        );
        """

    // MARK: PostgreSQL

    /// One statement per element: the extended query protocol takes one statement at a time.
    package static let postgres: [String] = [
        """
        CREATE TABLE users (
            user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL CHECK (length(user_id) BETWEEN 1 AND 128),
            \(MigrationColumns.lines(MigrationColumns.userProfile)),
            threshold_pace_s_per_km DOUBLE PRECISION CHECK (threshold_pace_s_per_km > 0),
            \(MigrationColumns.lines(MigrationColumns.userPlanning)),
            created_at_ms BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE sessions (
            user_id TEXT COLLATE "C" NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            session_id TEXT COLLATE "C" NOT NULL,
            started_at_text TEXT NOT NULL,
            ended_at_text TEXT NOT NULL,
            started_at_ms BIGINT NOT NULL,
            ended_at_ms BIGINT NOT NULL,
            duration_s DOUBLE PRECISION NOT NULL CHECK (duration_s > 0 AND duration_s <= 86400),
            total_energy_kcal DOUBLE PRECISION NOT NULL CHECK (total_energy_kcal >= 0),
            total_distance_m DOUBLE PRECISION NOT NULL CHECK (total_distance_m >= 0),
            detail_json TEXT NOT NULL,
            raw_blob BYTEA,
            machine TEXT,
            blob_status TEXT NOT NULL CHECK (blob_status IN ('none','complete','truncated','corrupted')),
            blob_note TEXT,
            content_sha256 TEXT NOT NULL CHECK (length(content_sha256) = 64),
            source TEXT NOT NULL,
            received_at_ms BIGINT NOT NULL,
            PRIMARY KEY (user_id, session_id),
            CHECK (ended_at_ms >= started_at_ms)
        )
        """,
        "CREATE INDEX sessions_by_user_start ON sessions(user_id, started_at_ms DESC)",
        """
        CREATE TABLE workouts (
            user_id TEXT COLLATE "C" NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            workout_id TEXT COLLATE "C" NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('apple_health','garmin','manual')),
            activity_type TEXT NOT NULL,
            start_ms BIGINT NOT NULL,
            end_ms BIGINT NOT NULL,
            duration_s DOUBLE PRECISION NOT NULL CHECK (duration_s >= 0),
            distance_m DOUBLE PRECISION CHECK (distance_m >= 0),
            energy_kcal DOUBLE PRECISION CHECK (energy_kcal >= 0),
            avg_hr DOUBLE PRECISION CHECK (avg_hr > 0),
            max_hr DOUBLE PRECISION CHECK (max_hr > 0),
            elevation_gain_m DOUBLE PRECISION,
            time_zone TEXT,
            samples_json TEXT,
            updated_at_ms BIGINT NOT NULL,
            deleted BOOLEAN NOT NULL DEFAULT FALSE,
            content_sha256 TEXT NOT NULL,
            PRIMARY KEY (user_id, workout_id)
        )
        """,
        "CREATE INDEX workouts_by_user_start ON workouts(user_id, start_ms DESC)",
        """
        CREATE TABLE session_metrics (
            user_id TEXT COLLATE "C" NOT NULL,
            session_id TEXT COLLATE "C" NOT NULL,
            local_date TEXT COLLATE "C" NOT NULL CHECK (local_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            sport TEXT NOT NULL,
            duration_s DOUBLE PRECISION NOT NULL CHECK (duration_s >= 0),
            distance_m DOUBLE PRECISION,
            energy_kcal DOUBLE PRECISION,
            avg_power_w DOUBLE PRECISION,
            avg_hr_bpm DOUBLE PRECISION,
            tss DOUBLE PRECISION,
            metrics_json TEXT NOT NULL,
            flags TEXT NOT NULL DEFAULT '',
            computed_at_ms BIGINT NOT NULL,
            PRIMARY KEY (user_id, session_id),
            FOREIGN KEY (user_id, session_id) REFERENCES sessions(user_id, session_id) ON DELETE CASCADE
        )
        """,
        """
        CREATE TABLE user_stats (
            user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            stats_json TEXT NOT NULL,
            computed_at_ms BIGINT NOT NULL,
            app_stats_json TEXT,
            app_reported_at_ms BIGINT
        )
        """,
        """
        CREATE TABLE plans (
            user_id TEXT COLLATE "C" NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            version INTEGER NOT NULL CHECK (version >= 1),
            generated_at_ms BIGINT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('ready','completed','error')),
            document_json TEXT NOT NULL,
            PRIMARY KEY (user_id, version)
        )
        """,
        """
        CREATE TABLE quarantine (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            user_id TEXT COLLATE "C",
            source TEXT NOT NULL,
            source_key TEXT COLLATE "C" NOT NULL,
            record_id TEXT,
            reason_code TEXT COLLATE "C" NOT NULL CHECK (length(reason_code) > 0),
            message TEXT NOT NULL,
            payload BYTEA NOT NULL,
            payload_sha256 TEXT COLLATE "C" NOT NULL,
            received_at_ms BIGINT NOT NULL,
            quarantined_at_ms BIGINT NOT NULL,
            UNIQUE (source_key, reason_code, payload_sha256)
        )
        """,
        "CREATE INDEX quarantine_by_user ON quarantine(user_id)",
        "CREATE INDEX quarantine_by_reason ON quarantine(reason_code)",
        """
        CREATE TABLE ingest_ledger (
            ledger_key TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            content_sha256 TEXT NOT NULL,
            processed_at_ms BIGINT NOT NULL,
            report_json TEXT
        )
        """,
        """
        CREATE TABLE job_runs (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            job TEXT COLLATE "C" NOT NULL,
            started_at_ms BIGINT NOT NULL,
            ended_at_ms BIGINT,
            status TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','interrupted')),
            counts_json TEXT NOT NULL DEFAULT '{}',
            watermark TEXT
        )
        """,
        "CREATE INDEX job_runs_by_job ON job_runs(job, id DESC)",
        """
        CREATE TABLE deletion_audit (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            user_sha256 TEXT NOT NULL CHECK (length(user_sha256) = 64),
            requested_at_ms BIGINT NOT NULL,
            completed_at_ms BIGINT,
            status TEXT NOT NULL CHECK (status IN ('pending','completed','failed')),
            note TEXT
        )
        """,
    ]
}
