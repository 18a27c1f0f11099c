/// Which rows `contentDigest` covers where it is not every row of a table, the same statement on both backends.
///
/// `training_load`: each user's rows through their last day with load (`daily_load <> 0`). The days after it are rest
/// days, a function of that day's row and the days before it (CTL and ATL decaying by the same recurrence), which the
/// readers derive from the stored state when they are not stored (docs/training-load.md: the series is extended lazily,
/// only when the user's data changes). Left out of the digest, two stores holding the same data digest alike whether
/// their rows stop at the last change (the lazy nightly) or run on through the day of the last run (the eager nightly
/// before it, or a user recomputed on a later day): the digest stays a "same results" check, and does not depend on the
/// day a run happened. A user whose loads are all 0 has no row digested.
public enum DigestedRows {
    public static let trainingLoad = """
        WITH last_load AS (
            SELECT user_id, MAX(local_date) AS last_day FROM training_load WHERE daily_load <> 0 GROUP BY user_id
        )
        SELECT t.* FROM training_load t JOIN last_load l ON l.user_id = t.user_id AND t.local_date <= l.last_day
        ORDER BY t.user_id, t.local_date
        """
}
