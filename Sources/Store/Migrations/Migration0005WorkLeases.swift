/// 0005: shared runs and per-user leases.
///
/// Several workers join one run (`job`, `run_key`) and claim its users: inside `BEGIN IMMEDIATE` transactions on
/// SQLite, with `FOR UPDATE SKIP LOCKED` on PostgreSQL; a lease whose `lease_expires_at_ms` has passed is claimable
/// again (a dead worker's share). Lease rows reference the user, so a GDPR deletion removes them with the user.
package enum Migration0005WorkLeases: StoreMigration {
    package static let identifier = "0005_work_leases"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE work_runs (
            run_id INTEGER PRIMARY KEY AUTOINCREMENT,
            job TEXT NOT NULL CHECK (length(job) BETWEEN 1 AND 64),
            run_key TEXT NOT NULL CHECK (length(run_key) BETWEEN 1 AND 128),
            created_at_ms INTEGER NOT NULL,
            created_by TEXT NOT NULL,
            finished_at_ms INTEGER,
            UNIQUE (job, run_key)
        );
        CREATE TABLE work_leases (
            run_id INTEGER NOT NULL REFERENCES work_runs(run_id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            generation INTEGER NOT NULL DEFAULT 1 CHECK (generation >= 1),
            done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
            owner TEXT,
            lease_expires_at_ms INTEGER,
            attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            done_by TEXT,
            done_at_ms INTEGER,
            PRIMARY KEY (run_id, user_id),
            CHECK ((owner IS NULL) = (lease_expires_at_ms IS NULL)),
            CHECK (done = 0 OR owner IS NULL)
        );
        CREATE INDEX work_leases_open ON work_leases(run_id, user_id) WHERE done = 0;
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        CREATE TABLE work_runs (
            run_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            job TEXT COLLATE "C" NOT NULL CHECK (length(job) BETWEEN 1 AND 64),
            run_key TEXT COLLATE "C" NOT NULL CHECK (length(run_key) BETWEEN 1 AND 128),
            created_at_ms BIGINT NOT NULL,
            created_by TEXT NOT NULL,
            finished_at_ms BIGINT,
            UNIQUE (job, run_key)
        )
        """,
        """
        CREATE TABLE work_leases (
            run_id BIGINT NOT NULL REFERENCES work_runs(run_id) ON DELETE CASCADE,
            user_id TEXT COLLATE "C" NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            generation BIGINT NOT NULL DEFAULT 1 CHECK (generation >= 1),
            done BOOLEAN NOT NULL DEFAULT FALSE,
            owner TEXT,
            lease_expires_at_ms BIGINT,
            attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            done_by TEXT,
            done_at_ms BIGINT,
            PRIMARY KEY (run_id, user_id),
            CHECK ((owner IS NULL) = (lease_expires_at_ms IS NULL)),
            CHECK (NOT done OR owner IS NULL)
        )
        """,
        "CREATE INDEX work_leases_open ON work_leases(run_id, user_id) WHERE NOT done",
    ]
}
