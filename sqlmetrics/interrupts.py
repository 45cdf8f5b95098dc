"""Ctrl-C during a statement on a driver's connection (a DB-API driver's, sqlite3's, psycopg's): the
statement is cancelled on the server by the driver's own means (``drivers.Driver.canceller``), the driver
reads the server's answer to that, so the connection stays usable and in the call's transaction, and only
then is KeyboardInterrupt raised, for the call's own framing (its rollback, its settings restored) to run
as it passes. DuckDB stops its queries itself (engine._interruptible); Spark's and chDB's run as they are.

Python runs a signal's handler in the main thread only, between two bytecodes. A driver blocked in C
(psycopg2's libpq, sqlite3) would see Ctrl-C once its statement had ended; one reading in Python
(PyMySQL) sees it in the middle of the server's answer, and its connection is dead. So while the main
thread runs a statement, SIGINT's handler only records it, and signal.set_wakeup_fd hands it at once
(from C, whatever the main thread is doing) to a thread of ours, which cancels the statement. The
statement stays in the calling thread, where every driver expects it (sqlite3's connections refuse any
other): per statement that is four calls into `signal` and no thread switch, about 10 microseconds
(measured on 2 cores, where a local SELECT 1 through psycopg2 takes 13; 1 in other threads). Two
exceptions: a program that handles SIGINT its own way, or
watches signals itself (an asyncio loop's handlers, through the wakeup fd), keeps them, and its
statements run as they are; ADBC's driver manager takes SIGINT itself during a call in the main thread,
so its statements run in a thread of their own while the main thread waits.

Other threads never receive SIGINT: their statements run as they are, each known by its thread so that
``stop(thread)`` cancels it (the command line computes in a worker thread: progress.run).
"""
from __future__ import annotations

import functools
import os
import signal
import socket
import threading
import weakref

_lock = threading.Lock()  # guards _running and _stopped
#: each thread's running statement
_running: dict[threading.Thread, _Statement] = {}
#: threads whose computation is to stop (stop()): at the end of the running statement, or the start of the next
_stopped: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def cancellable(method):
    """An engine's `method` that runs a statement on the engine's connection (``engine.con``), made
    interruptible by its driver's means (``engine.driver``)."""
    @functools.wraps(method)
    def interruptible(engine, *args):
        return run(lambda: method(engine, *args), engine.driver, engine.con)
    return interruptible


def run(fn, driver, con):
    """``fn()``, which runs a statement on `con`, cancelled on Ctrl-C (in the main thread) or stop()."""
    cancel = driver.canceller(con)
    thread = threading.current_thread()
    if cancel is None or thread in _running:  # no means to cancel; or inside a statement known already
        return fn()
    if thread is not threading.main_thread():
        return _known(fn, _Statement(cancel), thread)
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:  # the program handles Ctrl-C its own way
        return fn()
    return _watched(fn, _Statement(cancel), driver.takes_sigint)


def stop(thread: threading.Thread) -> None:
    """Stop `thread`'s computation: its running statement is cancelled, and KeyboardInterrupt raised in
    the thread once the driver has the server's answer; without one running, its next statement raises
    KeyboardInterrupt before it is sent. The cancel goes from a thread of its own, so that the caller
    (progress.run, on Ctrl-C) is not kept waiting for the server."""
    with _lock:
        _stopped.add(thread)
        statement = _running.get(thread)
    if statement is not None:
        threading.Thread(target=statement.stop, name="sqlmetrics cancel", daemon=True).start()


class _Statement:
    """A statement running on a connection, and what cancels it."""

    def __init__(self, cancel):
        self.cancel = cancel
        self.lock = threading.Lock()  # held while a cancel is sent
        self.cancelled = self.over = False
        self.signalled = False  # SIGINT came while it ran (in the main thread)
        self.force = False  # another SIGINT raises KeyboardInterrupt at once

    def stop(self) -> None:
        with self.lock:
            if self.over or self.cancelled:
                return
            try:
                self.cancel()
            except Exception:  # the server cannot be reached, or refused: the statement runs to its end
                pass
            self.cancelled = True

    def end(self) -> None:
        with self.lock:  # a cancel under way has reached the server: it cannot stop the connection's next statement
            self.over = True


def _known(fn, statement: _Statement, thread: threading.Thread):
    """``fn()``, known as `thread`'s running statement for the span of it."""
    with _lock:
        if thread in _stopped:
            _stopped.discard(thread)
            raise KeyboardInterrupt
        _running[thread] = statement
    try:
        return fn()
    finally:
        statement.end()
        with _lock:
            del _running[thread]
            if thread in _stopped:
                _stopped.discard(thread)
                raise KeyboardInterrupt from None  # in place of the driver's error for the cancelled statement


def _watched(fn, statement: _Statement, elsewhere: bool):
    """``fn()`` in the main thread, SIGINT recorded and handed to the watcher, which cancels it; `elsewhere`:
    in a thread of its own, the main thread waiting."""
    main = threading.main_thread()
    watcher = _watcher()
    found = signal.set_wakeup_fd(watcher.writer.fileno(), warn_on_full_buffer=False)
    if found != -1:  # the program watches signals itself
        signal.set_wakeup_fd(found)
        return fn()
    # a second Ctrl-C stops waiting for the cancelled statement (a server out of reach never answers):
    # KeyboardInterrupt where the main thread is, the connection as the driver then leaves it. Not from a
    # thread of its own, which would go on using the connection
    statement.force = not elsewhere
    try:
        with _lock:
            _running[main] = statement
        signal.signal(signal.SIGINT, functools.partial(_record, statement, watcher))
        return _elsewhere(fn) if elsewhere else fn()
    finally:
        statement.force = False  # first, before a signal's handler can run: the rest of the block runs whole
        statement.end()
        with _lock:
            _running.pop(main, None)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # runs _record first for a SIGINT pending
        signal.set_wakeup_fd(-1)
        if statement.signalled:
            watcher.caught_up()
            raise KeyboardInterrupt from None  # in place of the driver's error for the cancelled statement


def _record(statement: _Statement, watcher: _Watcher, signum, frame) -> None:
    """SIGINT's handler in the main thread while a statement runs."""
    if statement.signalled and statement.force:
        statement.force = False
        raise KeyboardInterrupt
    statement.signalled = True
    watcher.recorded += 1


def _elsewhere(fn):
    """``fn()`` in a thread of its own, the calling thread waiting for it (never interrupted: SIGINT's
    handler only records)."""
    outcome = {}

    def work():
        try:
            outcome["value"] = fn()
        except BaseException as e:  # raised in the calling thread
            outcome["error"] = e
    thread = threading.Thread(target=work, name="sqlmetrics statement", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class _Watcher(threading.Thread):
    """The thread SIGINT's wakeup fd writes to, which cancels the main thread's running statement."""

    def __init__(self):
        super().__init__(name="sqlmetrics Ctrl-C", daemon=True)
        self.reader, self.writer = socket.socketpair()
        self.writer.setblocking(False)  # as set_wakeup_fd requires
        self.recorded = 0  # SIGINTs the main thread's handler recorded (_record)
        self.read = 0  # SIGINTs read here
        self.condition = threading.Condition()
        self.start()

    def run(self):
        while True:
            for number in self.reader.recv(64):
                if number == signal.SIGINT:
                    with _lock:
                        statement = _running.get(threading.main_thread())
                    if statement is not None:
                        statement.stop()
                    with self.condition:
                        self.read += 1
                        self.condition.notify_all()

    def caught_up(self) -> None:
        """Wait until each SIGINT recorded has been read here: one read late could cancel the next statement."""
        with self.condition:
            self.condition.wait_for(lambda: self.read >= self.recorded, timeout=1.0)


@functools.cache
def _watcher() -> _Watcher:
    return _Watcher()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_watcher.cache_clear)  # the thread does not live on in a child process
