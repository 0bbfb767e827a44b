"""``python -m bleu_harness.worker own`` (the engine), ``python -m bleu_harness.worker perl
CONVENTION`` (the Perl scripts), ``python -m bleu_harness.worker fairseq`` (fairseq's scorer)
and ``python -m bleu_harness.worker call MODULE:CALLABLE`` (a Python implementation under
test): the harness's own workers, serving
the worker protocol (:mod:`bleu_harness.protocol`) with the library adapters' loop
(``bleu_harness/adapters/library_worker.py``), so that every backend runs in its own process,
timed, and a crash or hang costs one request.

A callable is ``fn(hypotheses, references, level, **options)`` and returns what the library
it claims returns: a float (or anything ``float()`` accepts: numpy scalars, 0-d tensors), or
a list of them for NLTK's list of weight vectors.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from bleu_harness.adapters.library_worker import jsonable, python_version, score_answer, serve


def load_callable(target: str):
    """``MODULE:CALLABLE`` (the working directory is importable, as with ``python -m``)."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected MODULE:CALLABLE, got {target!r}")
    function: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        function = getattr(function, part)
    if not callable(function):
        raise TypeError(f"{target} is a {type(function).__name__}, not a callable")
    return function


def call_worker(target: str) -> int:
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    loaded: dict[str, Any] = {}

    def info() -> dict[str, Any]:
        loaded["fn"] = load_callable(target)
        return {"implementation": target, "python": python_version()}

    def score(request: dict[str, Any]) -> Any:
        function = loaded.get("fn") or load_callable(target)
        return function(request["hypotheses"], request["references"], request["level"],
                        **request.get("options", {}))

    return serve(info, score_answer(score))


def figures(result) -> dict[str, float]:
    """Every figure of an engine result a case may check: ``precision.N``, ``bp``,
    ``hyp_len``, ``ref_len``, ``ratio``, mteval's ``cumulative.N`` / ``individual.N``."""
    out: dict[str, float] = {"bp": float(result.bp), "hyp_len": result.hyp_len,
                             "ref_len": result.ref_len}
    if "ratio" in result.details:
        out["ratio"] = result.details["ratio"]
    elif result.ref_len:
        out["ratio"] = result.hyp_len / result.ref_len
    for n, p in enumerate(result.precisions, start=1):
        out[f"precision.{n}"] = float(p)
    for name in ("cumulative", "individual"):
        for n, v in enumerate(result.details.get(name, ()), start=1):
            out[f"{name}.{n}"] = float(v)
    return out


def own_answer(request: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to one request of the worker protocol (its ``id`` aside): what
    ``python -m bleu_harness.worker own`` writes back."""
    from bleu_harness.bleu import score as bleu_score
    from bleu_harness.bleu.result import ConventionDeclined, ConventionError

    try:
        result = bleu_score(request["hypotheses"], request["references"],
                            request["convention"], request["level"], **request["options"])
    except ConventionError as error:
        if isinstance(error, ConventionDeclined):
            return {"unsupported": str(error)}
        return {"error": str(error), "type": error.library_exception}
    scores = list(result.scores)
    return {"score": jsonable(scores if len(scores) > 1 else result.score),
            "figures": jsonable_figures(figures(result))}


def own_worker() -> int:
    def info() -> dict[str, Any]:
        from bleu_harness import __version__
        return {"library": "own", "version": __version__, "python": python_version()}

    return serve(info, own_answer)


def perl_worker(convention: str) -> int:
    """The Perl scripts of ``convention`` (:mod:`bleu_harness.adapters.perl_answers`): each
    request one run of the script its options name, a death answered as the exception the
    engine names it. Where the convention's default script cannot run, the start-up answer
    says why (the run header then names the backend not installed, with the reason)."""
    from bleu_harness.adapters.perl_answers import answer, died, script_file
    from bleu_harness.adapters.perl_scripts import (
        ScriptDied,
        perl_version,
        scripts_folder,
        why_unavailable,
    )
    from bleu_harness.bleu import CONVENTIONS

    def info() -> dict[str, Any]:
        missing = why_unavailable(script_file(convention, {}))
        if missing:
            raise RuntimeError(missing)
        return {"library": "perl", "version": perl_version(), "python": python_version(),
                "scripts": str(scripts_folder())}

    def score(request: dict[str, Any]) -> dict[str, Any]:
        asked, level = request["convention"], request["level"]
        try:
            options = CONVENTIONS[asked].resolve(level, dict(request.get("options", {})))
        except (KeyError, ValueError) as error:
            return {"unsupported": str(error)}
        try:
            value = answer(asked, level, request["hypotheses"], request["references"], options)
        except ScriptDied as error:
            return {"error": error.message or f"exit status {error.status}",
                    "type": died(error)}
        return {"score": jsonable(value)}

    return serve(info, score)


def fairseq_worker() -> int:
    """fairseq's ``bleu`` scorer (:mod:`bleu_harness.adapters.fairseq_scorer`): each request
    one ``Scorer`` fed line by line as ``fairseq-score`` feeds it; an exception it raises is
    answered by its name. Where the install built no ``libbleu``, the start-up answer says
    why (the run header then names the backend not installed, with the reason)."""
    from bleu_harness.adapters.fairseq_scorer import (
        VERSION,
        answer,
        built_libbleu,
        why_declined,
    )
    from bleu_harness.bleu import CONVENTIONS

    loaded: dict[str, Any] = {}

    def info() -> dict[str, Any]:
        loaded["fairseq"] = built_libbleu()
        return {"library": "fairseq", "version": VERSION, "python": python_version()}

    def score(request: dict[str, Any]) -> dict[str, Any]:
        asked, level = request["convention"], request["level"]
        if asked != "fairseq":
            return {"unsupported": "this backend runs fairseq's scorer only"}
        hypotheses, references = request["hypotheses"], request["references"]
        try:
            options = CONVENTIONS[asked].resolve(level, dict(request.get("options", {})))
        except (KeyError, ValueError) as error:
            return {"unsupported": str(error)}
        reason = why_declined(level, hypotheses, references)
        if reason:
            return {"unsupported": reason}
        fairseq = loaded.get("fairseq") or built_libbleu()
        value = answer(fairseq, hypotheses, references, level, options)
        if isinstance(value, str):
            return {"error": f"fairseq's Scorer raised {value}", "type": value}
        return {"score": jsonable(value)}

    return serve(info, score)


def jsonable_figures(values: dict[str, float]) -> dict[str, Any]:
    return {k: jsonable(v) for k, v in values.items()}


def main(argv: list[str]) -> int:
    if argv[:1] == ["own"] and len(argv) == 1:
        return own_worker()
    if argv[:1] == ["call"] and len(argv) == 2:
        return call_worker(argv[1])
    if argv[:1] == ["perl"] and len(argv) == 2 and argv[1] in ("multi-bleu", "mteval-v13a"):
        return perl_worker(argv[1])
    if argv == ["fairseq"]:
        return fairseq_worker()
    print("usage: python -m bleu_harness.worker own | perl multi-bleu|mteval-v13a | fairseq | "
          "call MODULE:CALLABLE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
