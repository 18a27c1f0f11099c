/// PostgreSQL implementation of `PipelineStore` (being written; see issue 8).
enum StorePostgresModule {}
