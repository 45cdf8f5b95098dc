"""Running computations for the command line: a spinner with the elapsed time on stderr (on a
terminal; silent in pipes), and Ctrl-C that stops the query at once. A command of several
computations counts them with Steps: `3/11 log_loss (2.5s)`.

Python delivers Ctrl-C to the main thread only, between two bytecodes: a main thread inside a long
DuckDB query would notice it when DuckDB next checks for signals, between its tasks (seconds, even
minutes, into a large sort). So the computation runs in a worker thread and the main thread waits,
drawing the spinner; on Ctrl-C it calls `interrupt` (DuckDB's ``connection.interrupt()`` stops the
running query within milliseconds) and stops the worker's statement on any other connection (a
warehouse's of --url, lent for the call by its pool: ``interrupts.stop`` cancels it by its driver's
means), waits for the worker to end and raises KeyboardInterrupt.
"""
from __future__ import annotations

import sys
import threading
import time

from . import interrupts

_FRAMES = "|/-\\"


def interrupter(con):
    """What stops `con`'s running query from another thread (DuckDB's interrupt()), or None."""
    return getattr(con, "interrupt", None)


def run(label: str, fn, *, interrupt=None, stream=None, interval: float = 0.1):
    """``fn()``, in a worker thread; its exception, if any, is raised here."""
    stream = stream or sys.stderr
    outcome: dict = {}
    # Waited for by an event, not Thread.join: a join interrupted by Ctrl-C can take the thread for
    # ended (CPython before 3.12), and closing the connection under a running query aborts the
    # process. The join once the event is set only waits for the thread's last instructions.
    began, done = threading.Event(), threading.Event()

    def work():
        began.set()
        try:
            outcome["value"] = fn()
        except BaseException as e:  # raised in the main thread, never printed by the thread
            outcome["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name=f"sqlmetrics {label}", daemon=True)
    show = _is_terminal(stream)
    shown = 0  # width of the spinner line on screen
    start = time.perf_counter()
    try:
        worker.start()  # inside: a Ctrl-C while it waits for the thread must stop the thread too
        frame = 0
        while not done.wait(interval):
            if show:
                line = f"{_FRAMES[frame % len(_FRAMES)]} {label} ({time.perf_counter() - start:.1f}s)"
                show = _write(stream, "\r" + line)
                shown = max(shown, len(line)) if show else 0
                frame += 1
        worker.join()
    except KeyboardInterrupt:
        _stop(began, done, interrupt, worker)
        raise
    finally:
        if shown:
            _write(stream, "\r" + " " * shown + "\r")
    if "error" in outcome:
        raise outcome.pop("error")
    return outcome["value"]


class Steps:
    """The computations of one command, counted: each ``run`` shows `i/N label (elapsed)`. `total`
    is what the command plans; a step it turns out not to need is not run (i jumps past it)."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def run(self, label: str, fn, **kwargs):
        self.done += 1
        return run(f"{self.done}/{self.total} {label}", fn, **kwargs)

    def skip(self, n: int = 1) -> None:
        self.done += n


def _stop(began: threading.Event, done: threading.Event, interrupt, worker: threading.Thread) -> None:
    """Interrupt until the worker has ended (`done`): an interrupt that lands between two of its
    queries stops nothing, the next query has to be interrupted too; without `interrupt`, wait. A
    statement on a driver's connection is stopped once (interrupts.stop: the running one cancelled,
    else the next one stopped before it is sent). Another Ctrl-C meanwhile changes nothing: the
    worker's query must end before its connection is closed (DuckDB refuses, and the process aborts
    at exit); joined once `done`, so the thread has ended when run() raises. A worker that has not begun within a second never will (Ctrl-C
    came before its thread was created): there is nothing to stop."""
    if not began.wait(1.0):
        return
    stopped = False
    while True:
        try:
            if not stopped:
                interrupts.stop(worker)
                stopped = True
            if interrupt is not None:
                try:
                    interrupt()
                except Exception:  # e.g. the connection is gone: nothing left to stop but the worker
                    interrupt = None
            if done.wait(0.05):
                worker.join()
                return
        except KeyboardInterrupt:
            continue


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _write(stream, text: str) -> bool:
    """Write to the terminal; False once it cannot be written to (closed, hung up)."""
    try:
        stream.write(text)
        stream.flush()
        return True
    except (OSError, ValueError):
        return False
