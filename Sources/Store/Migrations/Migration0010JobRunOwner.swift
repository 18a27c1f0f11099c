/// 0010: `job_runs` records the process that started a run (host, pid, process start: `ProcessIdentity`) and accepts
/// the status `abandoned`, for a run whose process died without recording its end. SQLite cannot alter a CHECK
/// constraint: there the table is rebuilt with its rows and ids kept.
package enum Migration0010JobRunOwner: StoreMigration {
    package static let identifier = "0010_job_run_owner"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE job_runs_0010 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            job TEXT NOT NULL,
            started_at_ms INTEGER NOT NULL,
            ended_at_ms INTEGER,
            status TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','interrupted','abandoned')),
            counts_json TEXT NOT NULL DEFAULT '{}',
            watermark TEXT,
            host TEXT,
            pid INTEGER,
            process_start TEXT
        );
        INSERT INTO job_runs_0010 (id, job, started_at_ms, ended_at_ms, status, counts_json, watermark)
            SELECT id, job, started_at_ms, ended_at_ms, status, counts_json, watermark FROM job_runs;
        DROP TABLE job_runs;
        ALTER TABLE job_runs_0010 RENAME TO job_runs;
        CREATE INDEX job_runs_by_job ON job_runs(job, id DESC);
        CREATE INDEX job_runs_running ON job_runs(status) WHERE status = 'running';
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        "ALTER TABLE job_runs DROP CONSTRAINT job_runs_status_check",
        """
        ALTER TABLE job_runs ADD CONSTRAINT job_runs_status_check
            CHECK (status IN ('running','succeeded','failed','interrupted','abandoned'))
        """,
        "ALTER TABLE job_runs ADD COLUMN host TEXT, ADD COLUMN pid INTEGER, ADD COLUMN process_start TEXT",
        "CREATE INDEX job_runs_running ON job_runs(status) WHERE status = 'running'",
    ]
}
