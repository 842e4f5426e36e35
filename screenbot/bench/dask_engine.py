"""The Dask distributed glue of ``screenbot bench --cluster``: connect to a scheduler, or start a
``LocalCluster`` of worker processes on this machine, and hand the benchmark a ``concurrent.futures``
executor that runs its shards there.

Dask distributed is an optional extra (``[cluster]``) and is imported only here, when ``--cluster`` is
given. The workers must have the same screenbot-minesweeper installed as the machine that submits: they
import ``solver.bench`` to play the shards (a shard's fingerprint shows when they play different games).
"""

from __future__ import annotations

import logging
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager
from typing import Iterator

from ..errors import ClusterError, MissingExtraError
from .engines import LOCAL, Engine

CONNECT_SECONDS = 10  # to reach the scheduler, and for it to have a worker


@contextmanager
def open_dask(cluster: str, workers: int) -> Iterator[Engine]:
    """An engine on the scheduler at ``cluster``, or on a LocalCluster of ``workers`` processes."""
    try:
        from distributed import Client, LocalCluster
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise MissingExtraError("--cluster", package="distributed", extra="cluster") from None
    # Dask logs its scheduler's and workers' comings and goings at INFO: show them with -v only.
    logging.getLogger("distributed").setLevel(logging.getLogger().getEffectiveLevel())
    with ExitStack() as stack:
        address = cluster
        if cluster == LOCAL:
            # One thread per worker process: the solver is pure Python and holds the GIL. Loopback only,
            # and the scheduler's web pages on a free port (8787 may belong to another cluster).
            local = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.getLogger().getEffectiveLevel(),
            )
            stack.enter_context(local)
            address = local.scheduler_address
        try:
            client = stack.enter_context(Client(address, timeout=CONNECT_SECONDS))
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot connect or no worker joined in {CONNECT_SECONDS} s ({exc})", address=address) from None
        slots = sum(client.nthreads().values())
        try:
            yield Engine("dask", client.get_executor(pure=False), slots, address)
        except (OSError, KilledWorker, CancelledError) as exc:  # OSError: also a connection closed
            raise ClusterError(f"the run failed: {type(exc).__name__}: {exc}", address=address) from None
        except ImportError as exc:
            raise ClusterError(
                f"a worker cannot import the benchmark ({exc}): install the same screenbot-minesweeper there",
                address=address,
            ) from None
