"""A spinner with elapsed time on stderr while a query runs; silent when stderr is not a terminal."""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

_FRAMES = "|/-\\"


@contextmanager
def spinner(label: str, stream=None, interval: float = 0.1):
    stream = stream or sys.stderr
    if not stream.isatty():
        yield
        return
    done = threading.Event()
    start = time.perf_counter()

    def spin():
        i = 0
        while not done.wait(interval):
            stream.write(f"\r{_FRAMES[i % len(_FRAMES)]} {label} {time.perf_counter() - start:5.1f}s")
            stream.flush()
            i += 1

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        stream.write("\r" + " " * (len(label) + 12) + "\r")
        stream.flush()
