-- pg-dd workload (pgbench script): every client inserts one small row and
-- commits (synchronous_commit on: each commit flushes the WAL with
-- fdatasync), while a dd beside it writes 1 MiB blocks with O_DIRECT to
-- the same disk.  True cause of the commits' delay: the disk, the WAL
-- flush (fdatasync ← XLogFlush) queued behind dd's requests.
INSERT INTO commits (v) VALUES (1);
