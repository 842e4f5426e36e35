"""Where ``screenbot bench`` plays its shards: in this process, in a pool of local worker processes, or
on a Dask cluster (``dask_engine``). Each is a ``concurrent.futures`` executor, or none for this
process, so the benchmark has one way to run shards whatever plays them."""

from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Iterator

# ``--cluster local``: a Dask cluster of worker processes started on this machine for the run.
LOCAL = "local"


@dataclass(frozen=True, slots=True)
class Engine:
    name: str  # "process" (this one or a local pool) or "dask"
    executor: Executor | None  # None: the shards are played in this process
    slots: int  # shards played at the same time
    address: str | None = None  # the Dask scheduler's


@contextmanager
def open_engine(workers: int, cluster: str | None = None) -> Iterator[Engine]:
    """The engine for ``workers`` local processes, or for ``cluster`` (``local`` or a scheduler address;
    with ``local`` the Dask cluster gets ``workers`` processes)."""
    if cluster is not None:
        from .dask_engine import open_dask

        with open_dask(cluster, workers) as engine:
            yield engine
    elif workers == 1:
        yield Engine("process", None, 1)
    else:
        # spawn: each worker starts a fresh interpreter, as on a cluster, with nothing forked from this one.
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            try:
                yield Engine("process", pool, workers)
            except BaseException:
                _stop_workers(pool)
                raise


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now: on Ctrl-C, SIGTERM or an error the shards they play are not wanted,
    and leaving the pool would wait for them to finish (SIGTERM reaches this process only, not its
    workers, which would play on). The executor has no public way to end its workers before Python
    3.14's ``terminate_workers``, hence its process table.

    The pool's manager thread is then waited for too: it closes its wake-up pipe as it ends, and the
    executor's own exit hook writes to that pipe without a lock, so an exit racing that thread printed
    "OSError: [Errno 9] Bad file descriptor" with a traceback after "interrupted" (CPython 3.11, now
    and then under load)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)
    if manager is not None:
        manager.join(5)
