"""py-sqlite workload: one Python thread (the main one) inserts a row into
an SQLite database (the stdlib sqlite3 module, rollback journal,
synchronous=FULL) and commits, again and again: each commit syncs the
journal and the database file to the disk.

True cause of the program's delay: the disk — uninterruptible waits in
SQLite's fsync/fdatasync at commit.

usage: python3 py_sqlite.py SECONDS DBFILE"""
import sqlite3
import sys
import time


def main():
    deadline = time.monotonic() + float(sys.argv[1])
    db = sqlite3.connect(sys.argv[2], isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, body TEXT)")
    body = "x" * 200
    while time.monotonic() < deadline:
        db.execute("BEGIN")
        db.execute("INSERT INTO log (body) VALUES (?)", (body,))
        db.execute("COMMIT")


if __name__ == "__main__":
    main()
