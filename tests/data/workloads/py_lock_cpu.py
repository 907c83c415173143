#!/usr/bin/env python3
"""py-lock-cpu workload: 5 threads contend one threading.Lock whose holder
computes on the CPU (pure Python) for ~3 ms before releasing it, then does
~1 ms of Python work outside the lock and takes the lock again.

True cause of the waiters' delay: the holder running Python code under the
lock (with the GIL held: the woken waiter's GIL waits time out and retry).

usage: py_lock_cpu.py [SECONDS]
"""
import ctypes
import sys
import threading
import time

_libc = ctypes.CDLL(None)


def set_comm(name):
    _libc.prctl(15, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)


def spin(n):
    x = 0
    for i in range(n):
        x += i * i
    return x


lock = threading.Lock()


def worker(idx, deadline):
    set_comm("pylc-w%d" % idx)
    while time.monotonic() < deadline:
        with lock:
            spin(60000)
        spin(20000)


def main():
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    set_comm("pylc-main")
    deadline = time.monotonic() + secs
    threads = [threading.Thread(target=worker, args=(i, deadline)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
