"""One run, end to end: load and lint the cases, start the backends, plan the distinct
requests, execute each once, judge every case as soon as its answers are in, and hand each
stream line to a sink as it is judged (docs/architecture.md, "Data flow of `bleu-harness run`").

It never aborts for one bad case or backend: a case-file problem becomes a ``problem`` line
(and that case does not run), a backend's crash an outcome, a bug in judging one case an
``error`` line for that case. An implementation under test that does not start is a
:class:`~bleu_harness.errors.StartupError` (exit 2) before anything runs. An interrupted run
(SIGINT, SIGTERM) still ends its stream with a footer that says so; once the judging has
stopped, further signals wait (:func:`bleu_harness.signals.hold`) until the footer is written.
"""

from __future__ import annotations

import fnmatch
import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bleu_harness.backends.base import Backend, BackendInfo
from bleu_harness.backends.own import answered_here
from bleu_harness.backends.registry import (
    engine_backend,
    implementation_under_test,
    reference_backends,
    require_asked_libraries,
    require_started,
)
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.tokenizers import get_tokenizer, tokenizer_name
from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import load
from bleu_harness.cases.model import Case, Problem
from bleu_harness.cases.retokenize import retokenize
from bleu_harness.checkplan import CasePlan, distinct_requests, plan_cases, roles_of
from bleu_harness.errors import StreamError
from bleu_harness.execute import DEFAULT_STARTUP_TIMEOUT, Executor
from bleu_harness.gate import (
    DIVERGED,
    NOTHING_KNOWN,
    Known,
    Tally,
    exit_code,
    from_baseline,
    mark,
    read_known_file,
    unmatched_entries,
)
from bleu_harness.judge import judge_case, summary_counts
from bleu_harness.map_pool import MapPool, map_pool
from bleu_harness.records import (
    ERROR,
    EXPECTATION,
    INTERNAL,
    BackendOutcome,
    BackendRequest,
    CheckRecord,
    HarnessError,
)
from bleu_harness.report import stream
from bleu_harness.report.causes import reconciled
from bleu_harness.report.diff import refuse_incomplete
from bleu_harness.report.map_cache import DamagedEntry, KeptMap, MapCache, map_records
from bleu_harness.signals import critical, exit_code_of, hold

Sink = Callable[[Mapping[str, Any]], None]
Progress = Callable[[int, int, int, int], None]  # requests done/total, cases judged/total


@dataclass(frozen=True)
class RunOptions:
    paths: tuple[str, ...] = ()
    backends: tuple[str, ...] = ()
    implementation: str | None = None
    implementation_cmd: str | None = None
    claims: str | None = None
    select: str | None = None
    tags: tuple[str, ...] = ()
    timeout: float = 10.0
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    jobs: int = 1
    strict_references: bool = False
    known: Known = NOTHING_KNOWN
    #: library -> the Python interpreter its worker runs on (the library installed there)
    library_python: Mapping[str, str] = field(default_factory=dict)
    #: ``--tokenizer``: a tokenizer name or the user's callable; every case is re-tokenized
    #: with it (``bleu_harness.cases.retokenize``)
    tokenizer: Any = None
    #: ``--maxfail``: stop after the case that brings the new failures to this many (0: never)
    maxfail: int = 0
    #: ``--no-map`` makes it False: the engine's conventions are not scored against each other
    divergence_map: bool = True


class MaxFailReached(Exception):
    """``--maxfail`` new failures were judged: the run stops there, as pytest's does."""


@dataclass
class RunResult:
    header: stream.Header
    records: list[CheckRecord]
    problems: list[Problem]
    footer: stream.Footer
    cases: tuple[Case, ...] = ()  # every case loaded (the HTML report shows their inputs)

    @property
    def exit_code(self) -> int:
        return self.footer.exit_code

    def run(self) -> stream.Run:
        return stream.Run(self.header, tuple(reconciled(self.records)), tuple(self.problems),
                          self.footer)


def select_cases(cases: Sequence[Case], pattern: str | None, tags: Sequence[str]) -> list[Case]:
    chosen = [c for c in cases if pattern is None or fnmatch.fnmatchcase(c.id, pattern)]
    if tags:
        wanted = set(tags)
        chosen = [c for c in chosen
                  if wanted & ({t.split("@")[0] for t in c.tags} | set(c.tags))]
    return chosen


def execute_run(options: RunOptions, sink: Sink, progress: Progress | None = None,
                notice: Callable[[str], None] | None = None) -> RunResult:
    loaded = load(options.paths or None)
    unmatched_entries(options.known.entries,  # a case with a problem still exists
                      [c.id for c in loaded.cases] + [p.case_id for p in loaded.problems])
    lint_problems = lint(loaded.cases)
    problems = list(loaded.problems) + lint_problems
    held_back = {(p.file, p.case_line) for p in lint_problems}
    cases = [c for c in select_cases(loaded.cases, options.select, options.tags)
             if (c.file, c.line) not in held_back]
    if options.tokenizer is not None:
        cases, untokenized = retokenize(cases, get_tokenizer(options.tokenizer),
                                        tokenizer_name(options.tokenizer), options.timeout)
        problems += untokenized
    subject = implementation_under_test(options.implementation, options.implementation_cmd,
                                        options.claims)
    backends = reference_backends(options.backends, options.library_python)
    engine_wanted = any(b.name == "own" for b in backends)

    def report(done: int, total: int) -> None:
        requests_done[:] = done, total
        if progress is not None:
            progress(done, total, state["judged"], len(cases))

    state, requests_done = {"judged": 0}, [0, 0]
    with Executor(options.timeout, options.jobs, options.startup_timeout, report,
                  notice) as executor:
        infos = executor.start_all(started_backends(subject, backends))
        under_test, claims, is_engine = who_is_under_test(infos, subject, options.claims)
        require_asked_libraries(infos, options.library_python)
        roles = roles_of(infos, under_test, claims, is_engine,
                         divergence_map=engine_wanted and options.divergence_map)
        header = stream.header_line(infos, loaded.corpus_hash, len(loaded.files),
                                    under_test.name, claims, options.known.describe(),
                                    sorted({c.root for c in loaded.cases}))
        records: list[CheckRecord] = []
        tally = Tally()
        status: KeyboardInterrupt | MaxFailReached | None = None
        try:
            with critical():
                sink(header)
                for problem in problems:
                    sink(stream.problem_line(problem))
            with _judged_records_kept_from_the_collector() as keep_apart:
                def settled() -> None:  # and the progress says so (maps may come after
                    keep_apart()        # the last answer)
                    report(*requests_done)

                _judge_as_answered(executor, plan_cases(cases, roles), is_engine, options.known,
                                   sink, state, records, tally, options.maxfail,
                                   MapCache.here() if roles.engine is not None else None,
                                   settled)
        except (KeyboardInterrupt, MaxFailReached) as stop:  # SIGINT, SIGTERM (Terminated)
            status = stop
        hold()  # what is left is bounded: a signal now must not cut the footer short
    complete = status is None
    stale = tally.no_longer_failing(options.known) if complete else []
    if complete:
        code, ending = exit_code(tally, len(problems), options.strict_references, stale), \
            stream.COMPLETE
    elif isinstance(status, MaxFailReached):
        code, ending = DIVERGED, stream.STOPPED
    else:
        code, ending = exit_code_of(status), stream.INTERRUPTED
    footer = stream.footer_line(summary_counts(records), len(records), len(problems), code,
                                ending, stale)
    sink(footer)
    return RunResult(stream.header_from_line(header), records, problems,
                     stream.footer_from_line(footer), tuple(cases) if options.tokenizer
                     is not None else loaded.cases)


def started_backends(subject: Backend | None, backends: Sequence[Backend]) -> list[Backend]:
    """What a run starts: the implementation under test first, then the reference
    backends, the engine first among them where nothing else is under test."""
    if subject is None and not any(b.name == "own" for b in backends):
        backends = [engine_backend(), *backends]
    return ([subject] if subject else []) + list(backends)


def who_is_under_test(infos: Sequence[BackendInfo], subject: Backend | None,
                      claims: str | None) -> tuple[BackendInfo, tuple[str, ...], bool]:
    """The started backend under test (:func:`started_backends`' order), the conventions
    it claims and whether it is the engine: the implementation, which must have started
    (:class:`~bleu_harness.errors.StartupError`), or else the engine, claiming every
    convention."""
    if subject is not None:
        require_started(subject, infos[0])
        return infos[0], (claims or "",), False
    return next(i for i in infos if i.role == "engine"), tuple(CONVENTIONS), True


def known_of(baseline: str | None, known_file: str | None,
             baseline_flag: str = "--baseline") -> Known:
    """What a run knows to fail: the failures (each with its cause) and drift of a stored
    run, read whole (``baseline``), and the entries of a known list (``known_file``)."""
    if not baseline and not known_file:
        return NOTHING_KNOWN
    keys, drift, causes = frozenset(), frozenset(), {}
    if baseline:
        try:
            run = stream.read_run(baseline)
        except StreamError as error:
            raise StreamError(f"{baseline_flag} {error}") from None
        refuse_incomplete(run, baseline_flag)
        keys, drift, causes = from_baseline(run.checks, baseline)
    entries = read_known_file(known_file) if known_file else ()
    return Known(keys, drift, entries, baseline or "", known_file or "", causes)


def _judge_as_answered(executor: Executor, plans: Sequence[CasePlan], is_engine: bool,
                       known: Known, sink: Sink, state: dict[str, int],
                       records: list[CheckRecord], tally: Tally, maxfail: int = 0,
                       map_cache: MapCache | None = None,
                       settled: Callable[[], None] = lambda: None) -> None:
    """Execute every distinct request once; judge each case, in order, as soon as all its
    answers are in, stream its lines, and add them to ``records`` and ``tally`` (a case's
    lines all or none: an interruption between two cases leaves both consistent). With
    ``maxfail``, :class:`MaxFailReached` once that many new failures are judged. With a
    ``map_cache``, a case whose divergence map is kept there is judged without it and its
    kept records follow its own (the engine is not asked for the map's answers); a map
    computed here is kept. Where many maps are to be computed, worker processes compute
    them (:mod:`bleu_harness.map_pool`). ``settled`` is called once a case's records are
    kept."""
    outcomes: dict[BackendRequest, BackendOutcome] = {}
    kept: dict[int, tuple[CasePlan, KeptMap]] = {}
    if map_cache is not None:
        plans = list(plans)
        for index, plan in enumerate(plans):
            found = map_cache.get(plan) if plan.divergence else None
            if found is not None:
                kept[index], plans[index] = (plan, found), replace(plan, divergence=())
    with map_pool(sum(1 for plan in plans if plan.divergence)) as pool:
        _CaseJudge(executor, plans, is_engine, known, sink, state, records, tally, maxfail,
                   map_cache, settled, outcomes, kept, pool).run()


@dataclass
class _CaseJudge:
    """The state of :func:`_judge_as_answered`: the answers so far, the next case to judge,
    the maps read back and those handed to the pool."""

    executor: Executor
    plans: Sequence[CasePlan]
    is_engine: bool
    known: Known
    sink: Sink
    state: dict[str, int]
    records: list[CheckRecord]
    tally: Tally
    maxfail: int
    map_cache: MapCache | None
    settled: Callable[[], None]
    outcomes: dict[BackendRequest, BackendOutcome]
    kept: dict[int, tuple[CasePlan, KeptMap]]
    pool: MapPool | None
    next_case: int = 0
    #: the first case not yet looked at for the pool
    next_for_pool: int = 0
    #: how many of a case's requests are known to be answered (from the first on)
    answered: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.needed = [plan.requests for plan in self.plans]

    def run(self) -> None:
        self.judge_ready()
        for request, outcome in self.executor.run(distinct_requests(self.plans)):
            self.outcomes[request] = outcome
            self.judge_ready()
        self.judge_ready(finished=True)

    def all_answered(self, index: int) -> bool:
        """Whether every request of case ``index`` is answered: each request is looked up
        until it is (answers only accumulate), not again on every answer of the run."""
        requests, done = self.needed[index], self.answered.get(index, 0)
        while done < len(requests) and requests[done] in self.outcomes:
            done += 1
        self.answered[index] = done
        return done == len(requests)

    def hand_out(self) -> None:
        """Hand the pool the maps of the cases whose answers are in, in the cases' order."""
        pool = self.pool
        if pool is None:
            return
        self.next_for_pool = max(self.next_for_pool, self.next_case)
        while self.next_for_pool < len(self.plans) and pool.room:
            index = self.next_for_pool
            plan = self.plans[index]
            if plan.divergence:
                if not self.all_answered(index):
                    return
                pool.submit(index, plan, self.outcomes)
            self.next_for_pool += 1

    def judge_ready(self, finished: bool = False) -> None:
        """Judge the cases whose answers (and maps) are in, in order; ``finished``: every
        answer is in, and a map still being computed is waited for."""
        while self.next_case < len(self.plans) and self.all_answered(self.next_case):
            index = self.next_case
            self.hand_out()
            if (self.pool is not None and self.pool.has(index) and not finished
                    and not self.pool.ready(index)):
                return
            judged, written = self.judged_case(index)
            judged = mark(judged, self.known)
            with critical():
                self.tally.add(judged, self.known)
                self.records.extend(judged)
                for record in judged:
                    self.sink(_line_of(record, written))
                self.next_case += 1
                self.answered.pop(index, None)
                self.state["judged"] = self.next_case
            self.settled()
            if self.maxfail and self.tally.new_failures >= self.maxfail:
                raise MaxFailReached

    def judged_case(self, index: int) -> tuple[list[CheckRecord], dict[int, tuple]]:
        """The case's records, and the stream lines of those read from a kept map or one
        the pool computed (by the record's identity: a record the gate marks is a new one,
        written anew)."""
        whole, found = self.kept.pop(index, (self.plans[index], None))
        computed = found is None and self.pool is not None and self.pool.has(index)
        if computed:
            found = self.pool.take(index)
        if found is not None:
            try:
                lines = found.lines(whole)
            except DamagedEntry:  # the map is computed here after all, by the engine
                self.outcomes.update({request: answered_here(request)
                                      for _, request in whole.divergence
                                      if request not in self.outcomes})
            else:
                judged = _judge_one(replace(whole, divergence=()), self.outcomes, self.is_engine)
                if _failed(judged):  # as judging the case with its map would have
                    return judged, {}
                if computed and self.map_cache is not None:
                    self.map_cache.put(whole, found, self.outcomes)
                return judged + [r for r, _ in lines], {id(r): (r, line) for r, line in lines}
        judged = _judge_one(whole, self.outcomes, self.is_engine)
        if self.map_cache is not None and whole.divergence and not _failed(judged):
            self.map_cache.put(whole, KeptMap.of(map_records(judged)), self.outcomes)
        return judged, {}


def _failed(judged: Sequence[CheckRecord]) -> bool:
    """Whether judging a case failed (its one record is the harness's error)."""
    return any(r.backend == "harness" for r in judged)


def _line_of(record: CheckRecord, written: dict[int, tuple]) -> Mapping[str, Any]:
    same = written.get(id(record))
    return same[1] if same is not None and same[0] is record else stream.check_line(record)


@contextmanager
def _judged_records_kept_from_the_collector() -> Iterator[Callable[[], None]]:
    """A function to call once a case's records are kept: what is alive then (the run's
    records, plans and cases, all of them until the run ends) is set apart from Python's
    cyclic garbage collector (:func:`gc.freeze`) until the run ends. The records hold no
    reference cycle, yet each full collection walked all of them again: with the divergence
    map read back (79,027 records of several dicts each) that was a third of the time the
    records took to read. A process whose objects are frozen already (it manages the
    collector itself) is left as it is."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield lambda: None
        return
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def _judge_one(plan: CasePlan, outcomes: Mapping[BackendRequest, BackendOutcome],
               is_engine: bool) -> list[CheckRecord]:
    try:
        return judge_case(plan, outcomes, is_engine)
    except Exception as error:  # a harness bug must not cost the other cases
        case = plan.case
        return [CheckRecord(case.id, case.relative_file, case.line, EXPECTATION, "harness", "",
                            {}, None,
                            HarnessError(INTERNAL, repr(error)), ERROR,
                            message=f"judging failed: {error!r}")]
