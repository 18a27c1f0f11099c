#!/usr/bin/env python3
"""Checks the schema PostgreSQL gets from `pipeline migrate` against the Citus layout of docs/SCALING.md.

    scripts/with-postgres.sh python3 scripts/citus-layout-check.py [--bin .build/debug/pipeline]

Citus itself is not in Debian's packages, so what can be checked on one plain PostgreSQL is the schema's side of the
layout: a fresh database is migrated with `pipeline migrate`, then the catalog is read (psql) and each table is
judged by the rules Citus sets for the role docs/SCALING.md gives it:

- **distributed by `user_id`**: the column exists and is NOT NULL; every primary key and unique constraint contains
  it; every foreign key to another distributed table includes `user_id` on both sides (colocated); a foreign key to
  a reference table is allowed; none to a coordinator-local table;
- **reference** and **coordinator-local**: no foreign key to a distributed table; none from a distributed table to a
  coordinator-local one;
- identity and serial columns of distributed tables are listed (Citus hands out their values per shard).

Every table of the schema must have a role in `LAYOUT` below (kept equal to the table in docs/SCALING.md): a table a
migration adds without a role fails the check. Exit 0 when every rule holds, 1 with the list of what does not.
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The roles of docs/SCALING.md's "Beyond one PostgreSQL" table.
DISTRIBUTED = {
    "users", "sessions", "workouts", "session_metrics", "workout_metrics", "user_stats", "plans",
    "pending_recompute", "work_leases", "training_load", "sync_log",
}
REFERENCE = {"work_runs"}
LOCAL = {"ingest_ledger", "job_runs", "deletion_audit", "schema_migrations", "pipeline_secrets", "quarantine"}


def psql(url, sql):
    out = subprocess.run(["psql", url, "-qAtX", "-F", "\t", "-c", sql], check=True, capture_output=True, text=True)
    return [line.split("\t") for line in out.stdout.splitlines() if line]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "pipeline"))
    a = p.parse_args()
    admin = os.environ.get("PIPELINE_TEST_POSTGRES_URL")
    if not admin:
        sys.exit("set PIPELINE_TEST_POSTGRES_URL (scripts/with-postgres.sh starts a server)")
    name = "citus_layout_check"
    psql(admin, f"DROP DATABASE IF EXISTS {name}")
    psql(admin, f"CREATE DATABASE {name}")
    url = admin.rsplit("/", 1)[0] + "/" + name
    try:
        with tempfile.TemporaryFile() as log:
            subprocess.run([a.bin, "migrate", "--db", url], check=True, stdout=log, stderr=log)
        problems = check(url)
    finally:
        psql(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    if problems:
        print("\n".join(problems))
        return 1
    print("every table has its role, and every rule of its role holds")
    return 0


def check(url):
    tables = {r[0] for r in psql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    problems = []
    roles = {}
    for t in sorted(tables):
        role = "distributed" if t in DISTRIBUTED else "reference" if t in REFERENCE else "local" if t in LOCAL else None
        if role is None:
            problems.append(f"{t}: no role in the Citus layout (docs/SCALING.md)")
        roles[t] = role
    for t in sorted((DISTRIBUTED | REFERENCE | LOCAL) - tables):
        problems.append(f"{t}: in the layout, not in the schema")
    columns = {}
    for t, c, nullable, identity, default in psql(url, """
            SELECT table_name, column_name, is_nullable, is_identity, coalesce(column_default, '')
            FROM information_schema.columns WHERE table_schema = 'public'"""):
        columns.setdefault(t, {})[c] = (nullable == "NO", identity == "YES" or default.startswith("nextval("))
    # Primary keys, unique constraints and unique indexes, with their columns.
    uniques = psql(url, """
        SELECT c.relname, i.relname, string_agg(a.attname, ',' ORDER BY k.ord)
        FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
        LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND x.indisunique GROUP BY c.relname, i.relname""")
    foreign = psql(url, """
        SELECT c.relname, f.relname, con.conname,
               (SELECT string_agg(a.attname, ',') FROM unnest(con.conkey) k JOIN pg_attribute a
                  ON a.attrelid = con.conrelid AND a.attnum = k),
               (SELECT string_agg(a.attname, ',') FROM unnest(con.confkey) k JOIN pg_attribute a
                  ON a.attrelid = con.confrelid AND a.attnum = k)
        FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class f ON f.oid = con.confrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND con.contype = 'f'""")
    for t in sorted(tables):
        if roles[t] != "distributed":
            continue
        col = columns.get(t, {}).get("user_id")
        if col is None:
            problems.append(f"{t}: distributed by user_id, but has no user_id column")
            continue
        if not col[0]:
            problems.append(f"{t}: user_id may be NULL (a distribution column cannot)")
        for c, (_, serial) in sorted(columns.get(t, {}).items()):
            if serial:
                print(f"note: {t}.{c} is an identity/serial column (values handed out per shard on Citus)")
    for t, index, cols in uniques:
        if roles.get(t) == "distributed" and "user_id" not in (cols or "").split(","):
            problems.append(f"{t}: unique index {index} ({cols}) lacks user_id (Citus requires it)")
    for t, ref, name, cols, refcols in foreign:
        src, dst = roles.get(t), roles.get(ref)
        if src == "distributed" and dst == "distributed":
            if "user_id" not in cols.split(",") or "user_id" not in refcols.split(","):
                problems.append(f"{t} -> {ref} ({name}: {cols} -> {refcols}): not on user_id, so not colocated")
        elif src == "distributed" and dst == "local":
            problems.append(f"{t} -> {ref} ({name}): a distributed table cannot refer to a coordinator-local one")
        elif src in ("reference", "local") and dst == "distributed":
            problems.append(f"{t} -> {ref} ({name}): a {src} table cannot refer to a distributed one")
    print(f"{len(tables)} tables: " + ", ".join(f"{r or 'none'} {sum(1 for v in roles.values() if v == r)}"
                                             for r in ("distributed", "reference", "local", None)))
    return problems


if __name__ == "__main__":
    sys.exit(main())
