"""Where chunks are played: in this process (``InlineBackend``), on local worker processes
(``ProcessBackend``) or on an existing Dask cluster (``DaskBackend``). A backend submits a
function and its task and hands back a ``concurrent.futures.Future``; it says in one line what a
failure of its own (a dead worker, a lost scheduler) means.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future
from concurrent.futures import wait as wait_futures

from horde.errors import HordeError
from horde.lab.runner.store import code_digest
from horde.limits import quoted


def _start_worker(parent: int) -> None:
    """A local worker leaves Ctrl-C to the parent, and ends when the parent is gone (killed)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers: the command line's SIGTERM handler stops the
    # run in the parent, while a worker told to end (the pool's terminate) must simply end.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _worker(connection, parent: int) -> None:
    """A local worker's life: play each ``(function, task)`` the pool sends and send back
    ``(True, result)`` or ``(False, error)``, until the pool says ``None`` or is gone. A worker
    never prints a traceback: whatever stops it (the pool's terminate, its parent gone) ends it
    quietly, and the pool reads its death from its connection and its process."""
    _start_worker(parent)
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return  # the pool closed its end: nothing more to do
        if message is None:
            return
        function, task = message
        try:
            reply = (True, function(task))
        except Exception as error:  # noqa: BLE001 - handed to the caller through its future
            reply = (False, error)
        try:
            try:
                connection.send(reply)
            except (EOFError, OSError):
                raise
            except Exception as error:  # noqa: BLE001 - a result or an error that can't be pickled
                connection.send((False, RuntimeError(f"a chunk's result could not be sent back: "
                                                     f"{type(error).__name__}: {error}")))
        except (EOFError, OSError):
            return  # the pool is gone


class InlineBackend:
    """Chunks played in this process, one at a time (``--workers 1``)."""

    name = "inline"
    slots = 1
    window = 1  # each chunk is saved before the next starts

    def submit(self, function, task) -> Future:
        future: Future = Future()
        try:
            future.set_result(function(task))
        except Exception as error:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(error)
        return future

    def wait(self, futures) -> set:
        return set(futures)

    def failure(self, error: BaseException, chunk: str) -> str | None:
        return None  # the chunk's own error, raised as it is

    def close(self, cancel: bool = False) -> None:
        pass


class WorkerDied(Exception):
    """A local worker process ended without sending the result of the chunk it held (killed, out
    of memory): every chunk in the pool's hands fails with it."""


class _Slot:
    """One worker process, its end of the connection to it, and the chunk it plays (if any)."""

    def __init__(self, process, connection):
        self.process = process
        self.connection = connection
        self.future: Future | None = None


class ProcessBackend:
    """Chunks on local worker processes, each with a connection of its own.

    The results are read in the caller's thread (``wait``), never by a thread of the pool: a
    stopped run has no reader to join, and a worker killed halfway through sending a result is
    read as dead (its connection ends), never waited for. A worker dying fails every chunk in
    hand (``WorkerDied``); ``close(cancel=True)`` ends the workers at once."""

    name = "processes"

    def __init__(self, workers: int):
        import multiprocessing

        code_digest()  # computed once here, so forked workers agree with the parent
        self.slots = workers
        self.window = 2 * workers
        self.context = multiprocessing.get_context()
        self.workers: list[_Slot] = []
        self.queue: deque[tuple[Future, object, object]] = deque()
        self.broken: WorkerDied | None = None
        try:
            for _ in range(workers):
                self.workers.append(self._start())
        except BaseException:
            self.close(cancel=True)
            raise

    def _start(self) -> _Slot:
        mine, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(theirs, os.getpid()), daemon=True,
                                       name="horde-worker")
        try:
            process.start()
        finally:
            theirs.close()  # the worker's end lives in the worker only: its death ends the connection
        return _Slot(process, mine)

    def submit(self, function, task) -> Future:
        future: Future = Future()
        if self.broken is not None:
            future.set_exception(self.broken)
            return future
        self.queue.append((future, function, task))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        """Hand the chunks waiting to the idle workers."""
        for slot in self.workers:
            if not self.queue or self.broken is not None:
                return
            if slot.future is None:
                future, function, task = self.queue.popleft()
                future.set_running_or_notify_cancel()
                slot.future = future
                try:
                    slot.connection.send((function, task))
                except (EOFError, OSError):
                    self._break()

    def wait(self, futures) -> set:
        """The futures of ``futures`` that are done, reading results until one is."""
        from multiprocessing.connection import wait as wait_ready

        while True:
            done = {future for future in futures if future.done()}
            if done:
                return done
            busy = [slot for slot in self.workers if slot.future is not None]
            if not busy:
                raise RuntimeError("waiting on chunks no worker plays")
            ready = set(wait_ready([slot.connection for slot in busy] + [slot.process.sentinel for slot in busy]))
            for slot in busy:
                if self.broken is None and (slot.connection in ready or slot.process.sentinel in ready):
                    self._receive(slot)

    def _receive(self, slot: _Slot) -> None:
        try:
            ok, value = slot.connection.recv()
        except (EOFError, OSError):  # the worker died, perhaps halfway through sending
            self._break()
            return
        future, slot.future = slot.future, None
        if future is not None:
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def _break(self) -> None:
        """A worker died: the pool fails every chunk in hand and ends its other workers."""
        self.broken = WorkerDied("a worker process died")
        futures = [slot.future for slot in self.workers if slot.future is not None]
        futures += [future for future, _, _ in self.queue]
        self.queue.clear()
        for slot in self.workers:
            slot.future = None
        for future in futures:
            if not future.done():
                future.set_exception(self.broken)
        self._end_workers()

    def failure(self, error: BaseException, chunk: str) -> str | None:
        """One line for a pool that lost a worker (every chunk in hand fails with it), else None."""
        if isinstance(error, WorkerDied):
            return ("a worker process died (out of memory?): use a smaller --chunk-size or fewer --workers, "
                    "or give the machine more memory")
        return None

    def close(self, cancel: bool = False) -> None:
        """End the workers: idle ones are told to, and with ``cancel`` (a stopped run), or a worker
        still playing, they are terminated at once; either way none is left when this returns."""
        try:
            if not cancel:
                for slot in self.workers:
                    if slot.future is None and slot.process.is_alive():
                        with contextlib.suppress(OSError):
                            slot.connection.send(None)
                for slot in self.workers:
                    if slot.future is None:
                        slot.process.join(5)
        finally:
            for future, _, _ in self.queue:
                future.cancel()
            self.queue.clear()
            self._end_workers()

    def _end_workers(self) -> None:
        for slot in self.workers:
            if slot.process.is_alive():
                slot.process.terminate()
        for slot in self.workers:
            slot.process.join(5)
            if slot.process.is_alive():  # a worker that ignored its SIGTERM
                slot.process.kill()
                slot.process.join()
            slot.connection.close()
        self.workers = []


SCHEDULER_RE = re.compile(r"(tcp|tls|ucx|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]{1,253}):\d{1,5}")


class DaskBackend:
    """Chunks on an existing Dask distributed cluster, given by its scheduler's address."""

    name = "dask"

    def __init__(self, address: str, timeout: float = 10):
        if not SCHEDULER_RE.fullmatch(address):
            raise HordeError(f"--scheduler {quoted(address)}: expected a Dask scheduler address like tcp://HOST:PORT")
        try:
            from distributed import Client
        except ImportError:
            raise HordeError("--scheduler needs Dask: install the optional extra with pip install "
                             "'horde[dask]'") from None
        scheme, _, rest = address.partition("://")
        if scheme in ("tls", "wss"):
            from distributed.security import Security

            if Security().get_connection_args("client").get("ssl_context") is None:
                raise HordeError(f"--scheduler {address}: {scheme}:// needs Dask's TLS settings (a certificate and "
                                 "key under distributed.comm.tls in the Dask configuration); none are set")
        if scheme != "ucx":
            host, _, port = rest.rpartition(":")
            try:  # a quick look first: Dask itself retries a refused connection until its timeout
                socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
            except (OSError, ValueError, OverflowError) as error:
                reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
                raise HordeError(f"--scheduler {address}: cannot reach a Dask scheduler there ({reason})") from None
        # Dask's own log lines (a lost connection, its retries, with tracebacks) would come on top of
        # the one line this backend gives for each failure: quiet while the backend is open.
        self.levels = quiet_dask_logs()
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except Exception as error:  # noqa: BLE001 - whatever Dask raises for an address it can't use, one line
            restore_levels(self.levels)
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise HordeError(f"--scheduler {address}: cannot reach a Dask scheduler there ({reason})") from None
        self.address = address
        try:
            self.client.wait_for_workers(1, timeout=60)
        except (OSError, TimeoutError):
            self.close(cancel=True)
            raise HordeError(f"--scheduler {address}: no Dask worker joined the cluster within 60 s") from None
        self.slots = max(1, sum(self.client.nthreads().values()))
        self.window = 2 * self.slots
        self.executor = self.client.get_executor(pure=False)  # concurrent.futures on the cluster

    def submit(self, function, task) -> Future:
        return self.executor.submit(function, task)

    def wait(self, futures) -> set:
        return wait_futures(futures, return_when=FIRST_COMPLETED).done

    def failure(self, error: BaseException, chunk: str) -> str | None:
        """One line for a chunk that killed its workers, or a scheduler gone away; else None."""
        from distributed import KilledWorker
        from distributed.client import ClosedClientError
        from distributed.comm import CommClosedError

        if isinstance(error, KilledWorker):
            tries = getattr(error, "allowed_failures", 0)
            each = f"; each of the {tries + 1} workers that tried it died" if isinstance(tries, int) and tries else ""
            return (f"a Dask worker died playing {chunk}{each} (out of memory?): use a smaller --chunk-size or "
                    "give the workers more memory (dask worker --memory-limit)")
        if isinstance(error, (CancelledError, ClosedClientError, CommClosedError)):
            # the client cancels every future in hand when it loses the scheduler (an error of the
            # chunk itself, an OSError say, comes back as it was raised and is not one of these)
            return (f"lost the connection to the Dask scheduler at {self.address}: check that the scheduler is "
                    "still running and reachable at that address")
        return None

    def close(self, cancel: bool = False) -> None:
        try:
            if hasattr(self, "executor"):
                self.executor.shutdown(wait=not cancel)
            self.client.close()
        except Exception:  # noqa: BLE001 - a run already stopping by its own error: that error is the one to report
            if not cancel:
                raise
        finally:
            restore_levels(self.levels)


def quiet_dask_logs() -> dict:
    """Silence the ``distributed`` loggers (those with a level of their own too); returns their levels."""
    levels = {}
    for name in ["distributed"] + [n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed.")]:
        logger = logging.getLogger(name)
        if name == "distributed" or logger.level != logging.NOTSET:
            levels[name] = logger.level
            logger.setLevel(logging.CRITICAL)
    return levels


def restore_levels(levels: dict) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def open_backend(workers: int | None = None, scheduler: str | None = None):
    """The Dask cluster at ``scheduler``, else ``workers`` local processes (default: one per
    core; one worker plays in this process)."""
    if scheduler:
        return DaskBackend(scheduler)
    workers = workers or os.cpu_count() or 1
    return InlineBackend() if workers == 1 else ProcessBackend(workers)
