-- pg-advisory workload (pgbench script): every client takes the same
-- transaction-level advisory lock, then sleeps 3 ms holding it (a session
-- that waits on something slow inside its critical section), then commits.
-- True cause of the waiting backends' delay: the lock holder sleeping
-- (pg_sleep), not the lock itself.
BEGIN;
SELECT pg_advisory_xact_lock(8);
SELECT pg_sleep(0.003);
END;
