"""The divergence maps a run has not kept, computed in worker processes.

Computing a case's map is a search over knob subsets for every pair of disagreeing
conventions (``judge.divergence_map``): on the bundled corpus, the whole run's work but a
tenth when no map is kept. In the run's own process it kept one core busy while the other
waited, and kept the process that feeds the backends' workers from feeding them. So where a
run has many maps to compute, each case's map is computed in a pool of worker processes
(one per core, at most :data:`MOST_WORKERS`, forked from the run's process when it starts)
as soon as its answers are in, while the run's process goes on feeding and judging; the case
is judged, in its order, once its map is back. What comes back is the map
as it is kept (:class:`~bleu_harness.report.map_cache.KeptMap`), read as a kept map is: the
stream, every report and the exit code are those of a map computed in the run's own process
(``tests/test_map_cache.py``).

The pool is :func:`bleu_harness.bleu.shard.worker_pool`'s: its workers leave signals to the
run (an interrupted run ends them at once) and nothing they start outlives it. A map the
pool cannot give (an error in a worker, a worker killed) is computed in the run's own
process, as it would have been without a pool.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from bleu_harness.checkplan import CasePlan
from bleu_harness.judge import divergence_map
from bleu_harness.records import BackendOutcome, BackendRequest
from bleu_harness.report.map_cache import KeptMap

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

#: Below this many maps to compute, the run's own process computes them: starting the
#: workers costs more than a few maps (a seed file's map takes milliseconds).
FEW_MAPS = 32
#: Maps computed at most at a time per worker (the next one waits in the pool's queue).
IN_FLIGHT_PER_WORKER = 16
#: At most this many workers, however many cores: each holds the engine (some 50 MB).
MOST_WORKERS = 8


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


class MapPool:
    """Cases' maps computed in ``workers`` processes: :meth:`submit` a case whose answers
    are in, :meth:`take` its map back."""

    def __init__(self, pool: ProcessPoolExecutor, workers: int) -> None:
        self.pool, self.workers = pool, workers
        self.futures: dict[int, Future] = {}
        self.broken = False  # a worker was killed: the pool takes no more maps

    @property
    def room(self) -> bool:
        """Whether another map may be handed to the workers now."""
        return not self.broken and len(self.futures) < self.workers * IN_FLIGHT_PER_WORKER

    def submit(self, index: int, plan: CasePlan,
               outcomes: Mapping[BackendRequest, BackendOutcome]) -> None:
        answers = {request: outcomes[request] for _, request in plan.divergence}
        try:
            self.futures[index] = self.pool.submit(computed_map, replace(plan, checks=()),
                                                   answers)
        except Exception:  # BrokenProcessPool: the run's own process computes the rest
            self.broken = True

    def has(self, index: int) -> bool:
        return index in self.futures

    def ready(self, index: int) -> bool:
        return self.futures[index].done()

    def take(self, index: int) -> KeptMap | None:
        """Case ``index``'s map (waiting for it), or ``None`` where the pool could not
        compute it (the run's own process computes it then)."""
        try:
            return self.futures.pop(index).result()
        except Exception:  # an error in a worker, or a worker killed: BrokenProcessPool
            return None


@contextmanager
def map_pool(maps: int) -> Iterator[MapPool | None]:
    """A pool for ``maps`` maps to compute; ``None`` where they are too few to pay for one
    (:data:`FEW_MAPS`), the machine has one core, or this process runs threads (a run
    inside another program's: a process with threads is no process to fork)."""
    workers = min(cores(), MOST_WORKERS)
    if maps < FEW_MAPS or workers < 2 or threading.active_count() > 1:
        yield None
        return
    import multiprocessing
    from multiprocessing.reduction import ForkingPickler

    from bleu_harness.bleu.shard import worker_pool

    # a case's texts and options, and the answers' figures, are read-only mappings
    ForkingPickler.register(MappingProxyType, _as_mapping_proxy)
    with worker_pool(workers, multiprocessing.get_context("fork")) as pool:
        pool_of_maps = MapPool(pool, workers)
        pool_of_maps.broken = not _started_deaf_to_interrupts(pool)
        yield pool_of_maps


def _started_deaf_to_interrupts(pool: ProcessPoolExecutor) -> bool:
    """Fork the pool's workers now (forked, they hold the engine the run imported), with
    SIGINT ignored from their first instruction: they are in the run's process group, and a
    terminal's Ctrl-C reaches the whole group; one that came before a worker ignored it
    printed the worker's traceback. Meanwhile SIGINT is blocked here, so that one sent to
    the run then is not lost: Linux keeps a blocked signal pending even while it is
    ignored, and the run's handler is back before it is unblocked. Whether the workers
    answered."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool.submit(int).result(timeout=60)
        return True
    except Exception:  # a worker that cannot start: the run computes its maps itself
        return False
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _as_mapping_proxy(mapping: MappingProxyType) -> tuple:
    return _mapping_proxy, (dict(mapping),)


def _mapping_proxy(mapping: dict) -> MappingProxyType:
    return MappingProxyType(mapping)


def computed_map(plan: CasePlan, answers: Mapping[BackendRequest, BackendOutcome]) -> KeptMap:
    """In a worker: the case's divergence map as it is kept."""
    return KeptMap.of(divergence_map(plan, answers))
