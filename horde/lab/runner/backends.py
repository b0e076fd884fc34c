"""Where chunks are played: in this process (``InlineBackend``), on local worker processes
(``ProcessBackend``) or on an existing Dask cluster (``DaskBackend``). A backend submits a
function and its task and hands back a ``concurrent.futures.Future``; it says in one line what a
failure of its own (a dead worker, a lost scheduler) means.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool

from horde.errors import HordeError
from horde.lab.runner.store import code_digest
from horde.limits import quoted


def _start_worker() -> None:
    """A local worker leaves Ctrl-C to the parent, and ends when the parent is gone (killed)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers: the command line's SIGTERM handler stops the
    # run in the parent, while a worker told to end (the pool's terminate) must simply end.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


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


class ProcessBackend:
    """Chunks on local worker processes (``concurrent.futures``)."""

    name = "processes"

    def __init__(self, workers: int):
        code_digest()  # computed once here, so forked workers agree with the parent
        self.slots = workers
        self.window = 2 * workers
        self.pool = ProcessPoolExecutor(workers, initializer=_start_worker)

    def submit(self, function, task) -> Future:
        return self.pool.submit(function, task)

    def wait(self, futures) -> set:
        return wait_futures(futures, return_when=FIRST_COMPLETED).done

    def failure(self, error: BaseException, chunk: str) -> str | None:
        """One line for a pool that lost a worker (every chunk in hand fails with it), else None."""
        if isinstance(error, BrokenProcessPool):
            return ("a worker process died (out of memory?): use a smaller --chunk-size or fewer --workers, "
                    "or give the machine more memory")
        return None

    def close(self, cancel: bool = False) -> None:
        if cancel:
            processes = list(getattr(self.pool, "_processes", {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a stopped run should stop now, not after the chunks in hand
                process.terminate()
        else:
            self.pool.shutdown()


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
