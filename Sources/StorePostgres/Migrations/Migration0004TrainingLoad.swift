/// 0004: the figures of workout records and the stored training-load series (the twin of
/// `StoreSQLite/Migrations/Migration0004TrainingLoad.swift`: same columns in the same order, same constraints).
enum Migration0004TrainingLoad {
    static let identifier = "0004_training_load"
    static let statements: [String] = [
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
