"""Corpus statistics in chunks: bounded memory, several processes, several machines.

:class:`~bleu_harness.bleu.corpus.CorpusStats` is additive: the statistics of a corpus are the
ordered sum of its chunks' statistics, bit for bit (every field is an integer sum, a
minimum or maximum, or a first or last). So a corpus of any size is read a chunk at a time
(:func:`count_chunks`, the memory of one chunk), its chunks counted in worker processes
(``jobs``; at most two chunks per worker in flight) or on a Dask cluster
(:func:`count_on_dask`; :func:`count_loaded_on_dask` where each worker reads its own line
ranges of the files), and the parts merged in order. ``tests/test_shard.py`` checks that
every way gives the unsharded statistics.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from bleu_harness.bleu.api import check_input
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.counting import count, count_in_order, counts_in_order, order_state

if TYPE_CHECKING:  # imported where used: a one-line score needs no process pool (5 ms)
    from concurrent.futures import Future, ProcessPoolExecutor

#: Segments per chunk: large enough that a chunk's fixed costs vanish, small enough that
#: a chunk of long segments with four references stays within a few MiB.
CHUNK_SEGMENTS = 10_000

Chunk = tuple[list[str], list[list[str]]]
Stats = dict[Preprocessing, CorpusStats]


def chunked(pairs: Iterable[tuple[str, Sequence[str]]], size: int | None = None) -> Iterator[Chunk]:
    """``(hypothesis, references)`` pairs as chunks of at most ``size`` segments
    (:data:`CHUNK_SEGMENTS`). An empty input is one empty chunk, so it scores (or fails) as
    an empty corpus does."""
    size = CHUNK_SEGMENTS if size is None else size
    if size < 1:
        raise ValueError(f"a chunk holds at least one segment, not {size}")
    iterator = iter(pairs)
    first = True
    while True:
        block = list(itertools.islice(iterator, size))
        if not block and not first:
            return
        first = False
        yield [hyp for hyp, _ in block], [refs for _, refs in block]
        if len(block) < size:
            return


def count_chunk(chunk: Chunk, needed: Mapping[Preprocessing, int], first: int = 0) -> Stats:
    """One chunk's statistics, validated as :func:`bleu_harness.bleu.score_many` validates (an
    error numbers segments from ``first``, the chunk's place in the corpus)."""
    hypotheses, references = chunk
    check_input(hypotheses, references, "corpus", first)
    return count(hypotheses, references, needed)


def merge(parts: Iterable[Mapping[Preprocessing, CorpusStats]],
          needed: Mapping[Preprocessing, int]) -> Stats:
    """The ordered sum of the parts' statistics (an empty corpus's when there are none)."""
    merged: Stats = {key: CorpusStats(order) for key, order in needed.items()}
    for part in parts:
        for key in needed:
            merged[key] = merged[key] + part[key]
    return merged


def count_chunks(chunks: Iterable[Chunk], needed: Mapping[Preprocessing, int],
                 jobs: int = 1) -> Stats:
    """Statistics of the chunks, counted here (``jobs`` 1) or in ``jobs`` worker processes,
    merged in order. Chunks are read only as workers free up: memory stays at a few chunks.
    A key whose statistics depend on the corpus before each segment (fairseq's ids:
    :func:`~bleu_harness.bleu.counting.counts_in_order`) is counted here, chunk after chunk,
    its state carried from one to the next."""
    needed = dict(needed)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    ordered = {key: order for key, order in needed.items() if counts_in_order(key)}
    if ordered:
        rest = {key: order for key, order in needed.items() if key not in ordered}
        states = {key: order_state(key) for key in ordered}
        parts: list[Stats] = []

        def tapped(chunks: Iterable[Chunk]) -> Iterator[Chunk]:
            for chunk, first in _numbered(chunks):
                hypotheses, references = chunk
                check_input(hypotheses, references, "corpus", first)
                parts.append({key: count_in_order(hypotheses, references, key, order,
                                                  states[key])
                              for key, order in ordered.items()})
                yield chunk

        counted = count_chunks(tapped(chunks), rest, jobs)
        counted.update(merge(parts, ordered))
        return {key: counted[key] for key in needed}
    if jobs == 1:
        return merge((count_chunk(chunk, needed, first)
                      for chunk, first in _numbered(chunks)), needed)
    with worker_pool(jobs) as pool:
        return merge(_in_order(pool, chunks, needed, window=2 * jobs), needed)


@contextmanager
def worker_pool(jobs: int, context: Any = None) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` worker processes (started the way of the multiprocessing ``context``; the
    platform's default where none is given) that leave signals to this process: SIGINT ignored (a
    terminal's Ctrl-C reaches the whole process group, and the workers would each print a
    traceback) and SIGTERM's default action. Each worker leads a process group of its own,
    so that what it starts (the PTB tokenizer's JVM) ends with it, and keeps its temporary
    files in a folder of the pool's, removed when the pool ends: nothing a worker makes
    outlives the pool, however it ends. When the work here is interrupted or fails, the
    workers are ended at once, not after the chunks they hold."""
    import shutil
    import tempfile
    from concurrent.futures import ProcessPoolExecutor

    scratch = tempfile.mkdtemp(prefix="bleu-harness-workers-")
    pool = ProcessPoolExecutor(jobs, mp_context=context,
                               initializer=_leave_signals_to_the_parent, initargs=(scratch,))
    try:
        yield pool
    except BaseException:
        # ProcessPoolExecutor has no public way to end its workers before Python 3.14
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            try:
                os.killpg(process.pid, signal.SIGTERM)  # the worker and what it started
            except OSError:
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _leave_signals_to_the_parent(scratch: str) -> None:
    import tempfile

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.setpgid(0, 0)
    except OSError:  # not allowed here: the worker stays in its parent's group
        pass
    tempfile.tempdir = scratch


def _numbered(chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, int]]:
    """Each chunk with the number of its first segment (for error messages; a chunk that is
    a Dask future or delayed loader is not counted, as its length is not known here)."""
    first = 0
    for chunk in chunks:
        yield chunk, first
        if isinstance(chunk, tuple):
            first += len(chunk[0])


def _in_order(pool: ProcessPoolExecutor, chunks: Iterable[Chunk], needed: dict,
              window: int) -> Iterator[Stats]:
    return _results_in_order(pool, ((count_chunk, chunk, needed, first)
                                    for chunk, first in _numbered(chunks)), window)


def _results_in_order(pool: ProcessPoolExecutor, calls: Iterable[tuple],
                      window: int) -> Iterator[Any]:
    """Each call ``(function, *arguments)`` run in the pool, at most ``window`` at a time,
    its result yielded in the calls' order (the first error raised in that order)."""
    pending: deque[Future] = deque()
    for function, *arguments in calls:
        pending.append(pool.submit(function, *arguments))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def count_each(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               needed: Mapping[Preprocessing, int], jobs: int = 1,
               ) -> tuple[Stats, dict[Preprocessing, ValueError]]:
    """Each preprocessing of ``needed`` counted over the whole corpus on its own: its
    statistics, or the ``ValueError`` its tokenizer raised on this input (pycocoevalcap's PTB
    pipeline refuses a caption whose tokens depend on the next one), so that a tokenizer
    that refuses costs its own statistics alone. With ``jobs`` worker processes, the
    preprocessings are shared among them (each a whole pass: the same statistics as one
    process's). The caller checks the input first (``api.check_input``)."""
    needed = dict(needed)
    calls = [(_count_one, hypotheses, references, key, order) for key, order in needed.items()]
    if jobs == 1 or len(calls) < 2:
        answers = [function(*arguments) for function, *arguments in calls]
    else:
        with worker_pool(jobs) as pool:
            answers = list(_results_in_order(pool, calls, len(calls)))
    stats = {k: a for k, a in zip(needed, answers) if isinstance(a, CorpusStats)}
    return stats, {k: a for k, a in zip(needed, answers) if not isinstance(a, CorpusStats)}


def _count_one(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               key: Preprocessing, order: int) -> CorpusStats | ValueError:
    try:
        return count(hypotheses, references, {key: order})[key]
    except ValueError as error:
        return error


def count_loaded(loaders: Iterable[Callable[[], Chunk]], needed: Mapping[Preprocessing, int],
                 jobs: int) -> Stats:
    """Statistics of chunks that the worker processes read themselves (``jobs`` 1: here, one
    after another): each loader (a picklable callable, such as
    :class:`bleu_harness.line_ranges.LineRange`, whose ``first`` is its first segment's
    number) is called in a worker, its chunk counted there; only the statistics come back,
    merged in order. The keys must not count in order (fairseq's ids
    depend on every earlier segment: :func:`count_chunks` carries them)."""
    needed = dict(needed)
    if any(counts_in_order(key) for key in needed):
        raise ValueError("statistics that depend on every earlier segment are counted in "
                         "order (count_chunks), not from loaders")
    if jobs == 1:
        return merge((_count_loaded(loader, needed) for loader in loaders), needed)
    with worker_pool(jobs) as pool:
        calls = ((_count_loaded, loader, needed) for loader in loaders)
        return merge(_results_in_order(pool, calls, 2 * jobs), needed)


def _count_loaded(loader: Callable[[], Chunk], needed: Mapping[Preprocessing, int]) -> Stats:
    return count_chunk(loader(), needed, getattr(loader, "first", 0))


def count_on_dask(client: Any, chunks: Iterable[Chunk],
                  needed: Mapping[Preprocessing, int]) -> Stats:
    """The same on a Dask ``distributed`` cluster (``pip install 'bleu-harness[dask]'``):
    one task per chunk, the merge on the cluster too; only the small statistics travel back.

    ``chunks`` may be anything Dask can ship or compute -- lists of lines, or futures and
    delayed loaders that read each chunk on a worker -- e.g. for sentence- or corpus-BLEU
    over a parallel corpus that no single machine holds.
    """
    needed = _clusterable(needed)
    return _merged_on(client, [client.submit(count_chunk, chunk, needed, first, pure=False)
                               for chunk, first in _numbered(chunks)], needed)


def count_loaded_on_dask(client: Any, loaders: Iterable[Callable[[], Chunk]],
                         needed: Mapping[Preprocessing, int]) -> Stats:
    """:func:`count_loaded` on a Dask cluster: each loader travels to a worker and is called
    there -- a :class:`bleu_harness.line_ranges.LineRange` is the files' paths and byte
    offsets, so each worker reads its own lines from a file system the cluster shares, and
    neither the lines nor the files pass through this process. One task per loader; the
    merge on the cluster; the statistics of ``count`` of the whole files, bit for bit."""
    needed = _clusterable(needed)
    return _merged_on(client, [client.submit(_count_loaded, loader, needed, pure=False)
                               for loader in loaders], needed)


def _clusterable(needed: Mapping[Preprocessing, int]) -> dict[Preprocessing, int]:
    """``needed``, where none of its statistics depend on the segments before (fairseq's
    ids: ``ValueError``, they are counted chunk after chunk by :func:`count_chunks`)."""
    ordered = [key for key in needed if counts_in_order(key)]
    if ordered:
        raise ValueError(f"the {ordered[0].tokenizer} statistics depend on every earlier "
                         "segment (its dictionary's ids): count them with count_chunks, "
                         "chunk after chunk, not on a cluster")
    return dict(needed)


def _merged_on(client: Any, counted: list, needed: dict[Preprocessing, int]) -> Stats:
    """The ordered merge of the counted parts, on the cluster (an empty corpus's
    statistics where there are none)."""
    if not counted:
        counted = [client.submit(count_chunk, ([], []), needed, pure=False)]
    return client.submit(merge, counted, needed).result()
