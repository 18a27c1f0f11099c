/// 0010: `job_runs` records the process that started a run (host, pid, process start: `ProcessIdentity`) and accepts
/// the status `abandoned`, for a run whose process died without recording its end. The twin of
/// `StoreSQLite/Migrations/Migration0010JobRunOwner.swift`.
enum Migration0010JobRunOwner {
    static let identifier = "0010_job_run_owner"
    static let statements: [String] = [
        "ALTER TABLE job_runs DROP CONSTRAINT job_runs_status_check",
        """
        ALTER TABLE job_runs ADD CONSTRAINT job_runs_status_check
            CHECK (status IN ('running','succeeded','failed','interrupted','abandoned'))
        """,
        "ALTER TABLE job_runs ADD COLUMN host TEXT, ADD COLUMN pid INTEGER, ADD COLUMN process_start TEXT",
        "CREATE INDEX job_runs_running ON job_runs(status) WHERE status = 'running'",
    ]
}
