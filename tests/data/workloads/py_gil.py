#!/usr/bin/env python3
"""py-gil workload: 4 threads run pure-Python CPU work with no lock of their
own; only the GIL serialises them (Python 3.11: a waiter's GIL wait times out
after the 5 ms switch interval, asks the holder to drop it, and waits again).

True cause of the threads' delay: the other threads running Python code
while holding the GIL.

usage: py_gil.py [SECONDS]
"""
import ctypes
import sys
import threading
import time

_libc = ctypes.CDLL(None)


def set_comm(name):
    _libc.prctl(15, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)


def worker(idx, deadline):
    set_comm("pygil-w%d" % idx)
    x = 0
    while time.monotonic() < deadline:
        for i in range(20000):
            x += i * i


def main():
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    set_comm("pygil-main")
    deadline = time.monotonic() + secs
    threads = [threading.Thread(target=worker, args=(i, deadline)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
