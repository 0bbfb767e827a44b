"""A request of the ``multi-bleu`` or ``mteval-v13a`` convention answered by the real Perl
script (:mod:`bleu_harness.adapters.perl_scripts`): the live backends ``multi-bleu-perl`` and
``mteval-perl`` (``bleu_harness/backends/perl.py``) ask it through the worker ``python -m
bleu_harness.worker perl CONVENTION``.

* ``multi-bleu``: ``script`` picks ``multi-bleu.perl``, ``multi-bleu-detok.perl`` or the WMT06
  script, ``lc`` its ``-lc``; the answer is ``100 * $bleu`` as the script handed it to
  ``printf``, at full precision (its fixed zero line exits with status 1).
* ``mteval-v13a``: ``script`` picks ``mteval-v13a.pl``, ``mteval-v14.pl`` (their score files,
  which hold 15 significant digits), ``mteval-v11b.pl`` or ``mteval-v12.pl`` (their ``printf``
  arguments, at full precision); the corpus is one document, a sentence its one segment
  (for v13a and v14 beside :data:`SURVIVOR`).

A request the scripts cannot be given as it is is declined with the reason
(:func:`why_declined`): for multi-bleu a line break in a segment (it reads lines; a carriage
return is text to Perl, and mteval's SGML holds line breaks), and references that cannot be
written as reference files: a segment without any (unless multi-bleu has none at all, on
which it dies), for mteval segments with different numbers of references, for multi-bleu a
segment with fewer references before one with more. A script that dies is answered as the
exception its message names, in the words the engine's conventions use for it
(:data:`DEATHS`), else ``exit status N``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bleu_harness.adapters.perl_scripts import (
    MTEVAL_SCRIPTS,
    MULTI_BLEU_SCRIPTS,
    ScriptDied,
    multi_bleu_figures,
    run_mteval,
    run_old_mteval,
    why_unavailable,
)
from bleu_harness.bleu import CONVENTIONS as ENGINE
from bleu_harness.bleu.conventions import mteval

#: The conventions the scripts answer for.
CONVENTIONS = ("multi-bleu", "mteval-v13a")
#: What a dying script says, as the engine's conventions name it (their
#: ``ConventionError.library_exception``).
DEATHS = ("Illegal division by zero", "ERROR: could not find reference file",
          "did not find any reference translations", "Can't take log of 0")
#: The segment put after a sentence for mteval-v13a.pl and v14: each segment is scored alone,
#: and with it the system line the script then prints cannot die on the sentence (an empty
#: one takes log(0) there).
SURVIVOR = "a b c d e"


def script_file(convention: str, options: Mapping[str, Any]) -> str:
    """The file of the script a request's ``script`` option names (the convention's default
    where it names none; a ``ValueError`` for options the convention does not take)."""
    script = ENGINE[convention].resolve("corpus", dict(options))["script"]
    return (MULTI_BLEU_SCRIPTS if convention == "multi-bleu" else MTEVAL_SCRIPTS)[script]


def why_declined(convention: str, hypotheses: Sequence[str],
                 references: Sequence[Sequence[str]], options: Mapping[str, Any]) -> str:
    """Why the script cannot be given this request as it is ('' if it can)."""
    if convention not in CONVENTIONS:
        return "the Perl scripts implement only the multi-bleu and mteval-v13a conventions"
    try:
        file = script_file(convention, options)
    except ValueError as error:
        return str(error)
    missing = why_unavailable(file)
    if missing:
        return f"{file} cannot run here: {missing}"
    texts = [*hypotheses, *(r for refs in references for r in refs)]
    if convention == "multi-bleu" and any("\n" in t for t in texts):
        return f"{file} reads one segment a line: a segment holds a line break"
    counts = [len(refs) for refs in references]
    no_file_at_all = convention == "multi-bleu" and counts and not any(counts)  # it dies so
    if not counts or (min(counts) == 0 and not no_file_at_all):
        return f"{file} reads references from files: a segment without references"
    if convention == "mteval-v13a":
        if len(set(counts)) > 1:
            return f"{file} needs every segment to have the same number of references"
    elif any(a < b for a, b in zip(counts, counts[1:])):
        return (f"{file} reads the j-th reference of every segment from file j: a segment "
                "with fewer references cannot come before one with more")
    return ""


def died(error: ScriptDied) -> str:
    """A script's death in the engine's words (:data:`DEATHS`), or its exit status."""
    return next((words for words in DEATHS if words in error.message),
                f"exit status {error.status}")


def answer(convention: str, level: str, hypotheses: Sequence[str],
           references: Sequence[Sequence[str]], options: Mapping[str, Any]) -> float:
    """The script's score of the request (its own scale; ``options`` resolved by the
    convention); a :class:`ScriptDied` where it dies."""
    file = script_file(convention, options)
    if convention == "multi-bleu":
        return multi_bleu_figures(hypotheses, references, bool(options.get("lc")),
                                  file).figures[0]
    corpus = [(list(hypotheses), [list(r) for r in references])]
    if mteval.old_script(options):  # -d 2 scores (and dies on) each segment
        sentence = level == "sentence"
        scores = run_old_mteval(corpus, bool(options.get("preserve_case")), file,
                                detail=2 if sentence else 0)
        return scores.segments[0][0] if sentence else scores.system
    if level == "sentence":  # a segment scored beside one the system line survives
        width = len(references[0])
        scores = run_mteval([(corpus[0][0] + [SURVIVOR], corpus[0][1] + [[SURVIVOR] * width])],
                            options, file)
        return float(scores.segments[0][0])
    return float(run_mteval(corpus, options, file).system)
