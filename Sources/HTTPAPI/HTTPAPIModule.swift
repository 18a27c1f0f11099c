/// The HTTP API the apps call (being written; see issue 7).
enum HTTPAPIModule {}
