/// 0004: the figures of workout records and the stored training-load series.
///
/// - `users.lthr`: lactate-threshold heart rate, which HR-based load (HRSS) needs.
/// - `workout_metrics`: per-record metrics (HealthKit, Garmin), measured at one version of the record
///   (`workout_updated_at_ms`); they cascade from `workouts`, so a deleted record's figures go with it.
/// - `training_load`: per user per local day the day's load and CTL / ATL / TSB, ramp and ACWR after it
///   (`docs/metrics.md`, "Training load"), with the recursion's state after the day (`state_json`), so that the
///   nightly run updates the series from the first day new data changed, resuming from the stored day before.
///
/// Both dialects have the same columns in the same order and the same constraints.
package enum Migration0004TrainingLoad: StoreMigration {
    package static let identifier = "0004_training_load"

    // MARK: SQLite

    package static let sqlite = """
        ALTER TABLE users ADD COLUMN lthr INTEGER CHECK (lthr BETWEEN 60 AND 250);

        CREATE TABLE workout_metrics (
            user_id TEXT NOT NULL,
            workout_id TEXT NOT NULL,
            workout_updated_at_ms INTEGER NOT NULL,
            local_date TEXT NOT NULL CHECK (local_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            activity_type TEXT NOT NULL,
            basis TEXT NOT NULL CHECK (basis IN ('samples','summary')),
            duration_s REAL NOT NULL CHECK (duration_s >= 0),
            distance_m REAL,
            energy_kcal REAL,
            avg_hr_bpm REAL,
            tss REAL CHECK (tss >= 0),
            metrics_json TEXT NOT NULL,
            computed_at_ms INTEGER NOT NULL,
            PRIMARY KEY (user_id, workout_id),
            FOREIGN KEY (user_id, workout_id) REFERENCES workouts(user_id, workout_id) ON DELETE CASCADE
        );

        CREATE TABLE training_load (
            user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            local_date TEXT NOT NULL CHECK (local_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            daily_load REAL NOT NULL CHECK (daily_load >= 0),
            ctl REAL NOT NULL,
            atl REAL NOT NULL,
            tsb REAL NOT NULL,
            ramp_7d REAL,
            acwr_rolling REAL,
            acwr_uncoupled REAL,
            acwr_ewma REAL,
            convention TEXT NOT NULL CHECK (convention IN ('exp','inv_n')),
            state_json TEXT NOT NULL,
            computed_at_ms INTEGER NOT NULL,
            PRIMARY KEY (user_id, local_date)
        );
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        "ALTER TABLE users ADD COLUMN lthr INTEGER CHECK (lthr BETWEEN 60 AND 250)",
        """
        CREATE TABLE workout_metrics (
            user_id TEXT COLLATE "C" NOT NULL,
            workout_id TEXT COLLATE "C" NOT NULL,
            workout_updated_at_ms BIGINT NOT NULL,
            local_date TEXT COLLATE "C" NOT NULL CHECK (local_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            activity_type TEXT NOT NULL,
            basis TEXT NOT NULL CHECK (basis IN ('samples','summary')),
            duration_s DOUBLE PRECISION NOT NULL CHECK (duration_s >= 0),
            distance_m DOUBLE PRECISION,
            energy_kcal DOUBLE PRECISION,
            avg_hr_bpm DOUBLE PRECISION,
            tss DOUBLE PRECISION CHECK (tss >= 0),
            metrics_json TEXT NOT NULL,
            computed_at_ms BIGINT NOT NULL,
            PRIMARY KEY (user_id, workout_id),
            FOREIGN KEY (user_id, workout_id) REFERENCES workouts(user_id, workout_id) ON DELETE CASCADE
        )
        """,
        """
        CREATE TABLE training_load (
            user_id TEXT COLLATE "C" NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            local_date TEXT COLLATE "C" NOT NULL CHECK (local_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            daily_load DOUBLE PRECISION NOT NULL CHECK (daily_load >= 0),
            ctl DOUBLE PRECISION NOT NULL,
            atl DOUBLE PRECISION NOT NULL,
            tsb DOUBLE PRECISION NOT NULL,
            ramp_7d DOUBLE PRECISION,
            acwr_rolling DOUBLE PRECISION,
            acwr_uncoupled DOUBLE PRECISION,
            acwr_ewma DOUBLE PRECISION,
            convention TEXT NOT NULL CHECK (convention IN ('exp','inv_n')),
            state_json TEXT NOT NULL,
            computed_at_ms BIGINT NOT NULL,
            PRIMARY KEY (user_id, local_date)
        )
        """,
    ]
}
