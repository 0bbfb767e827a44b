"""Run the real tool behind every ``recorded`` value of case files again, and say where it
disagrees.

    python tools/record_real.py [--every-release] [--envs DIR] [--torch-python PY] FILE [...]

A value whose provenance is ``kind: recorded`` is what a real implementation printed when it
ran on the case's input; the provenance's ``library`` and ``version`` name it. This script
runs that implementation on every such expectation and prints one line each, ``ok`` or
``DISAGREES`` with the tool's answer beside the recorded value (compared to its printed
digits). Exit status 0 when all agree, 1 on a disagreement, 2 when a tool cannot run here.
Nothing comes from the engine.

The tools, by convention:

* ``nltk``, ``sacrebleu``: the release ``version`` names, asked through the harness's own
  library worker (``bleu_harness/adapters/library_worker.py``), as a run asks it: this
  interpreter's library where it is that release, else the environment ``python
  tools/atlas.py prepare`` made (``.atlas/envs/<library>-<version>``; ``--envs`` for
  another folder). ``--every-release`` also runs every release of ``tools/atlas.py`` that
  the expectation's ``versions`` range admits;
* ``torchmetrics``: the library worker on ``--torch-python`` (default
  ``$BLEU_HARNESS_TORCH_PYTHON``), an interpreter with torch and torchmetrics;
* ``multi-bleu``, ``mteval-v13a``: the Perl scripts, unmodified (``tests/oracles/moses``,
  run by :mod:`bleu_harness.adapters.perl_scripts`): multi-bleu's printed score, or the
  message it dies with; mteval's segment score (sentence level) or system score (corpus
  level) from its ``--metricsMATR`` score files, or the message it dies with;
* ``tf-nmt``: tensorflow/nmt ``compute_bleu`` (``tests/oracles/tfnmt/bleu.py``) on
  whitespace tokens (the case is pre-tokenized);
* ``t2t``: Tensor2Tensor's ``bleu_hook.compute_bleu`` (``tests/oracles/t2t``, its imports
  stubbed by ``tests/t2t_oracle.py``) on text handled as ``bleu_wrapper`` handles it
  (lowercased unless ``case_sensitive``), whitespace tokens for a pre-tokenized case.

:func:`provenance` is the provenance each tool's values carry.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from atlas import RELEASES  # noqa: E402

from bleu_harness.adapters.perl_scripts import (  # noqa: E402
    MOSES_COMMIT,
    ScriptDied,
    perl_version,
    run_mteval,
    run_multi_bleu,
)
from bleu_harness.backends.registry import REFERENCE_BACKENDS  # noqa: E402
from bleu_harness.cases.loader import load_file  # noqa: E402
from bleu_harness.cases.model import Case, Expectation  # noqa: E402
from bleu_harness.checkplan import applies_version, request_for  # noqa: E402
from bleu_harness.compare import matches  # noqa: E402
from bleu_harness.execute import Executor  # noqa: E402
from bleu_harness.records import Raised, Value  # noqa: E402

ORACLES = ROOT / "tests" / "oracles"
#: tensorflow/nmt at the commit ``tests/oracles/tfnmt/bleu.py`` was taken from.
TFNMT_COMMIT = "0be864257a76c151eef20ea689755f08bc1faf4e"
#: The tensor2tensor release whose wheel ``tests/oracles/t2t/bleu_hook.py`` comes from.
T2T_RELEASE = "1.15.7"
WHERE = "run on this input by tools/record_real.py"
LIBRARIES = ("nltk", "sacrebleu", "torchmetrics")


def provenance(convention: str, level: str, version: str = "") -> dict[str, str]:
    """The provenance of a value ``convention``'s real tool printed on a case of ``level``
    (``version``: the library release, for the Python libraries)."""
    perl = f"Perl {perl_version().lstrip('v')}"
    sources = {
        "nltk": ("nltk.translate.bleu_score." + ("sentence_bleu" if level == "sentence"
                                                 else "corpus_bleu"), "nltk", version),
        "sacrebleu": ("sacrebleu.metrics.BLEU with the defaults of " + (
            "sentence_bleu (sentence_score)" if level == "sentence"
            else "corpus_bleu (corpus_score)"), "sacrebleu", version),
        "torchmetrics": ("torchmetrics.functional.text.bleu_score (CPU)", "torchmetrics",
                         version),
        "multi-bleu": (f"scripts/generic/multi-bleu.perl (tests/oracles/moses), {perl}",
                       "mosesdecoder", MOSES_COMMIT[:12]),
        "mteval-v13a": ("scripts/generic/mteval-v13a.pl -b --metricsMATR (tests/oracles/moses), "
                        f"{perl}: its " + ("segment" if level == "sentence" else "system")
                        + " score", "mosesdecoder", MOSES_COMMIT[:12]),
        "tf-nmt": ("nmt/scripts/bleu.py compute_bleu (tests/oracles/tfnmt)", "tensorflow/nmt",
                   TFNMT_COMMIT[:12]),
        "t2t": ("tensor2tensor/utils/bleu_hook.py compute_bleu (tests/oracles/t2t)",
                "tensor2tensor", T2T_RELEASE),
    }
    source, library, release = sources[convention]
    return {"kind": "recorded", "source": source, "where": WHERE, "library": library,
            "version": release}


# --- the tools ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """What a tool gave: a number (``printed``: as the tool printed it, where it prints
    text), or the exception (or death message) ``raised``."""

    value: float | None = None
    raised: str = ""
    printed: str = ""

    def shown(self) -> str:
        if self.raised:
            return f"raises {self.raised}"
        return self.printed or repr(self.value)


def agrees(expectation: Expectation, answer: Answer) -> bool:
    if expectation.raises is not None:
        return answer.raised == expectation.raises
    return not answer.raised and matches(answer.value, expectation.value, expectation.compare)


def died_with(died: ScriptDied) -> str:
    """A Perl script's last message without `` at FILE line N.`` (multi-bleu's ``exit 1``
    after printing a zero line: ``exit status 1``), as tools/perl_cases.py records it."""
    if died.status == 1 and died.stdout.startswith("BLEU = 0, 0/0/0/0"):
        return "exit status 1"
    return re.sub(r" at \S+ line \d+(, <\w+> line \d+)?\.?$", "", died.message)


def multi_bleu(case: Case, options: Mapping[str, Any]) -> Answer:
    try:
        line = run_multi_bleu(case.hypotheses, case.references, lc=bool(options.get("lc")))
    except ScriptDied as died:
        return Answer(raised=died_with(died))
    printed = re.match(r"BLEU = ([\d.]+),", line)[1]
    return Answer(float(printed), printed=printed)


#: A segment that keeps mteval's system line alive (a match of every order, a non-zero
#: reference length) where a one-segment run of the case dies: each segment's score is its
#: own, whatever else the document holds.
COMPANION = "a b c d"


def mteval(case: Case, options: Mapping[str, Any]) -> Answer:
    """The system score (corpus level) or the segment score (sentence level), as the score
    files print it (Perl's ``%.15g``)."""
    corpus = (case.hypotheses, case.references)
    try:
        scores = run_mteval([corpus], options)
    except ScriptDied as died:
        if case.level == "corpus":
            return Answer(raised=died_with(died))
        width = len(case.references[0])
        scores = run_mteval([(corpus[0] + [COMPANION], corpus[1] + [[COMPANION] * width])],
                            options)
    printed = scores.segments[0][0] if case.level == "sentence" else scores.system
    return Answer(float(printed), printed=printed)


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def whitespace_tokens(case: Case, convention: str, options: Mapping[str, Any]) -> None:
    tokenize = options.get("tokenize", "none" if case.tokenizer is None else case.tokenizer)
    if tokenize != "none":
        raise SystemExit(f"{case.id}: {convention} with tokenize={tokenize!r}: this script "
                         "runs the tool on pre-tokenized cases only")


def tf_nmt(case: Case, options: Mapping[str, Any]) -> Answer:
    whitespace_tokens(case, "tf-nmt", options)
    compute_bleu = _module("tfnmt_bleu", ORACLES / "tfnmt" / "bleu.py").compute_bleu
    try:
        result = compute_bleu([[r.split() for r in refs] for refs in case.references],
                              [h.split() for h in case.hypotheses],
                              max_order=options.get("max_order", 4),
                              smooth=options.get("smooth", False))
    except Exception as error:  # the tool's own exception is the answer
        return Answer(raised=type(error).__name__)
    return Answer(float(result[0]))


def t2t(case: Case, options: Mapping[str, Any]) -> Answer:
    from t2t_oracle import bleu_hook

    whitespace_tokens(case, "t2t", options)
    if any(len(refs) != 1 for refs in case.references):
        raise SystemExit(f"{case.id}: t2t takes one reference per segment")
    fold = (lambda text: text) if options.get("case_sensitive") else str.lower
    hook = bleu_hook()
    try:
        result = hook.compute_bleu([fold(refs[0]).split() for refs in case.references],
                                   [fold(h).split() for h in case.hypotheses],
                                   max_order=options.get("max_order", 4),
                                   use_bp=options.get("use_bp", True))
    except Exception as error:
        return Answer(raised=type(error).__name__)
    return Answer(float(result))


SCRIPTS: dict[str, Callable[[Case, Mapping[str, Any]], Answer]] = {
    "multi-bleu": multi_bleu, "mteval-v13a": mteval, "tf-nmt": tf_nmt, "t2t": t2t}


class Libraries:
    """The live-library workers, one executor per (library, interpreter)."""

    def __init__(self, envs: Path, torch_python: str) -> None:
        self.envs = envs
        self.torch_python = torch_python
        self.executors: dict[tuple[str, str], tuple[Executor, Any]] = {}

    def python(self, library: str, version: str) -> str:
        if library == "torchmetrics":
            if not self.torch_python:
                raise SystemExit("torchmetrics: give --torch-python (or set "
                                 "BLEU_HARNESS_TORCH_PYTHON)")
            return self.torch_python
        try:
            from importlib.metadata import version as installed
            if installed(library) == version:
                return sys.executable
        except ImportError:
            pass
        python = self.envs / f"{library}-{version}" / "bin" / "python"
        if not python.is_file():
            raise SystemExit(f"{library} {version}: no {python} (python tools/atlas.py "
                             f"prepare {library}-{version})")
        return str(python)

    def answer(self, case: Case, expectation: Expectation, library: str,
               version: str) -> tuple[Answer, str]:
        """The library's answer and the release that gave it."""
        python = self.python(library, version)
        key = (library, python)
        if key not in self.executors:
            executor = Executor(timeout=120)
            backend = REFERENCE_BACKENDS[library](python)
            info = executor.start_all([backend])[0]
            if not info.ready:
                raise SystemExit(f"{library} on {python}: {info.note or info.status}")
            self.executors[key] = (executor, info.version)
        executor, started = self.executors[key]
        request = request_for(case, library, expectation.convention, expectation.options)
        outcome = next(iter(executor.run([request])))[1]
        if isinstance(outcome, Value):
            return Answer(outcome.figure(expectation.figure)), started
        if isinstance(outcome, Raised):
            return Answer(raised=outcome.error_type), started
        raise SystemExit(f"{case.id}: {library} {started}: {outcome}")

    def close(self) -> None:
        for executor, _ in self.executors.values():
            executor.close()


def releases_in(library: str, spec: str) -> list[str]:
    return [v for lib, v, _ in RELEASES if lib == library and applies_version(spec, v)]


def checks(case: Case, expectation: Expectation, libraries: Libraries,
           every_release: bool) -> Iterator[tuple[str, Answer]]:
    """(the tool and release, its answer) for each run this expectation asks for."""
    p = expectation.provenance
    convention = expectation.convention
    if convention in LIBRARIES:
        versions = [p.version]
        if every_release:
            spec = expectation.versions.get(convention, "")
            versions += [v for v in releases_in(convention, spec) if v != p.version]
        for version in versions:
            answer, started = libraries.answer(case, expectation, convention, version)
            yield f"{convention} {started}", answer
        return
    expected = provenance(convention, case.level)
    if (p.library, p.version) != (expected["library"], expected["version"]):
        raise SystemExit(f"{case.id}: {convention} recorded with {p.library} {p.version}; "
                         f"this script runs {expected['library']} {expected['version']}")
    if expectation.figure != "score":
        raise SystemExit(f"{case.id}: {convention}: only scores are re-run, not "
                         f"{expectation.figure}")
    yield f"{p.library} {p.version}", SCRIPTS[convention](case, expectation.options)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--every-release", action="store_true")
    parser.add_argument("--envs", type=Path, default=ROOT / ".atlas" / "envs")
    parser.add_argument("--torch-python", default=os.environ.get("BLEU_HARNESS_TORCH_PYTHON", ""))
    args = parser.parse_args(argv)
    libraries = Libraries(args.envs, args.torch_python)
    disagreements = 0
    try:
        for path in args.files:
            cases, problems = load_file(path.resolve())
            if problems:
                raise SystemExit(f"{path}: {problems[0]}")
            for case in cases:
                for e in case.expectations:
                    if e.provenance.kind != "recorded":
                        continue
                    for tool, answer in checks(case, e, libraries, args.every_release):
                        ok = agrees(e, answer)
                        disagreements += not ok
                        options = dict(e.options) if e.options else ""
                        print(f"{'ok' if ok else 'DISAGREES':9} {case.id} {e.convention} "
                              f"{options} recorded {e.shown}; {tool}: {answer.shown()}",
                              flush=True)
    finally:
        libraries.close()
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
