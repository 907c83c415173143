-- pg-rowlock workload (pgbench script): every client updates the same row,
-- then computes for a few ms while it holds the row lock, then commits.
-- True cause of the waiting backends' delay: the row-lock holder running
-- (postgres computing under the lock).
BEGIN;
UPDATE hot SET v = v + 1 WHERE id = 1;
SELECT count(*) FROM generate_series(1, 60000);
END;
