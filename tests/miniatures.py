"""Implementations under test that misbehave on purpose, to test the harness itself
(after Bowtie's ``tests/miniatures.py``). Each is ``fn(hypotheses, references, level,
**options)`` claiming the ``nltk`` convention, returning what NLTK returns.

The misbehaving ones answer the harness's startup request (hypothesis "a b c d" against
itself) like NLTK, so that the run starts, and misbehave on every other request; the
``*_always`` ones misbehave from the start (the run must stop with exit 2).

NLTK's ``bleu_score`` is imported by the first one that calls it (:func:`_bleu_score`), the
way the harness's own NLTK worker imports it (without the rest of NLTK: a quarter of a second
of every worker), and most misbehaving ones never do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings

from misbehaving import deeply_nested  # noqa: F401 -- a list nested past json's limit


def _bleu_score():
    """``nltk.translate.bleu_score``, imported on first use."""
    from bleu_harness.adapters.library_worker import nltk_bleu_score

    return nltk_bleu_score()


def _nltk(hypotheses, references, level, **options):
    bleu_score = _bleu_score()
    smoothing = options.pop("smoothing", None)
    if smoothing:
        options["smoothing_function"] = getattr(bleu_score.SmoothingFunction(), smoothing)
    if "weights" in options:
        weights = options["weights"]
        options["weights"] = ([tuple(w) for w in weights] if weights and
                              isinstance(weights[0], list) else tuple(weights))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # What NLTK returns: a float (or the int 0), or a list for a list of weight vectors.
        return bleu_score.corpus_bleu([[r.split() for r in rs] for rs in references],
                                      [h.split() for h in hypotheses], **options)


def _startup(hypotheses) -> bool:
    return list(hypotheses) == ["a b c d"]


def faithful(hypotheses, references, level, **options):
    return _nltk(hypotheses, references, level, **options)


def first_reference_wins_ties(hypotheses, references, level, **options):
    """NLTK, except that a length tie goes to the first-listed reference (torchmetrics)."""
    bleu_score = _bleu_score()
    original = bleu_score.closest_ref_length

    def first_listed(refs, hyp_len):
        lengths = [len(r) for r in refs]
        diffs = [abs(n - hyp_len) for n in lengths]
        return lengths[diffs.index(min(diffs))]

    bleu_score.closest_ref_length = first_listed
    try:
        return _nltk(hypotheses, references, level, **options)
    finally:
        bleu_score.closest_ref_length = original


def raises(hypotheses, references, level, **options):
    if _startup(hypotheses):
        return 1.0
    raise RuntimeError("this implementation always fails")


def raises_always(hypotheses, references, level, **options):
    raise RuntimeError("this implementation always fails")


def hangs(hypotheses, references, level, **options):
    if not _startup(hypotheses):
        time.sleep(60)
    return 1.0


def hangs_always(hypotheses, references, level, **options):
    time.sleep(60)


def returns_nan(hypotheses, references, level, **options):
    return 1.0 if _startup(hypotheses) else float("nan")


def wrong_scale(hypotheses, references, level, **options):
    score = _nltk(hypotheses, references, level, **options)
    return [100 * s for s in score] if isinstance(score, list) else 100 * score


def wrong_type(hypotheses, references, level, **options):
    """A dict, which ``float()`` does not take (a string of a number it does)."""
    if _startup(hypotheses):
        return 1.0
    return {"bleu": 1.0}


def wrong_type_always(hypotheses, references, level, **options):
    return {"bleu": _nltk(hypotheses, references, level, **options)}


def crashes_the_interpreter(hypotheses, references, level, **options):
    if not _startup(hypotheses):
        os._exit(3)
    return 1.0


def crashes_always(hypotheses, references, level, **options):
    os._exit(3)


def prints_to_stdout(hypotheses, references, level, **options):
    """Prints chatter, as debugging code does: it must not be taken for an answer."""
    print("computing BLEU ...")
    return _nltk(hypotheses, references, level, **options)


def spawns_a_child(hypotheses, references, level, **options):
    """Leaves a process behind that inherited stdout; the harness must end it."""
    subprocess.Popen(["sleep", "1000"])
    return _nltk(hypotheses, references, level, **options)


def spawns_a_setsid_child(hypotheses, references, level, **options):
    """Starts a process in a session of its own (out of the worker's process group), marked
    on its command line with ``$FUZZ_MARKER``, and answers like NLTK; the harness must still
    end it."""
    marker = os.environ.get("FUZZ_MARKER", "fuzz-marker")
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", marker],
                     start_new_session=True, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    return _nltk(hypotheses, references, level, **options)


class Unprintable:
    """Neither ``float()`` nor ``repr()`` of it works (both raise KeyError)."""

    def __float__(self):
        raise KeyError("no float")

    def __repr__(self):
        raise KeyError("no repr")


def unprintable(hypotheses, references, level, **options):
    return 1.0 if _startup(hypotheses) else Unprintable()


def scalar_as_list(hypotheses, references, level, **options):
    """NLTK's score, as a list of one where NLTK returns a number."""
    return [_nltk(hypotheses, references, level, **options)]


def returns_a_string(hypotheses, references, level, **options):
    """NLTK's score as a string, which ``float()`` takes."""
    return str(_nltk(hypotheses, references, level, **options))


def returns_nan_always(hypotheses, references, level, **options):
    return float("nan")


def huge_integer(hypotheses, references, level, **options):
    return 1.0 if _startup(hypotheses) else 10 ** 5000


def hostile_message(hypotheses, references, level, **options):
    """Raises with a lone surrogate, a NUL and an ESC in its message."""
    if _startup(hypotheses):
        return 1.0
    raise ValueError("bad \ud800 input \x00 \x1b[31mred\x1b[0m")


def sacrebleu_corpus(hypotheses, references, level, **options):
    """SacreBLEU's corpus_bleu on whitespace tokens, on its own 0-100 scale."""
    import sacrebleu

    width = max(len(r) for r in references)
    streams = [[refs[j] if j < len(refs) else None for refs in references] for j in range(width)]
    return sacrebleu.corpus_bleu(list(hypotheses), streams, tokenize="none").score


def _sacrebleu(hypotheses, references, level, **options):
    """SacreBLEU as the harness's library worker calls it, on its own 0-100 scale."""
    from bleu_harness.adapters.library_worker import sacrebleu_score

    return sacrebleu_score({"hypotheses": list(hypotheses), "references": list(references),
                            "level": level, "options": options})


def sacrebleu_over_100(hypotheses, references, level, **options):
    """SacreBLEU's score divided by 100: a wrapper that puts it on the 0-1 scale while
    claiming ``sacrebleu`` (0-100)."""
    return _sacrebleu(hypotheses, references, level, **options) / 100


def constant_half(hypotheses, references, level, **options):
    """0.5 whatever the input: follows no setting of any convention."""
    return 0.5


def nltk_without_clipping(hypotheses, references, level, **options):
    """NLTK's corpus BLEU, except that an n-gram's matches are not clipped to its count in
    the reference: each hypothesis n-gram that occurs in some reference counts as a match."""
    bleu_score = _bleu_score()
    original = bleu_score.modified_precision

    def unclipped(references_, hypothesis, n):
        from fractions import Fraction

        counts = bleu_score.Counter(bleu_score.ngrams(hypothesis, n)) if len(hypothesis) >= n \
            else bleu_score.Counter()
        seen = set()
        for reference in references_:
            seen.update(bleu_score.ngrams(reference, n) if len(reference) >= n else ())
        numerator = sum(count for gram, count in counts.items() if gram in seen)
        return Fraction(numerator, max(1, sum(counts.values())), _normalize=False)

    bleu_score.modified_precision = unclipped
    try:
        return _nltk(hypotheses, references, level, **options)
    finally:
        bleu_score.modified_precision = original


def multi_bleu_ignoring_lc(hypotheses, references, level, **options):
    """multi-bleu.perl's score (the engine's ``multi-bleu``), claiming ``multi-bleu``, except
    that ``-lc`` is ignored: case always counts."""
    from bleu_harness.bleu import score

    return score(hypotheses, references, "multi-bleu", level,
                 **{**options, "lc": False}).score


def fairseq_matching_unk(hypotheses, references, level, **options):
    """fairseq's score (the engine's ``fairseq``), claiming ``fairseq``, except that a
    reference ``<unk>`` matches a hypothesis ``<unk>`` (fairseq's ``Scorer.add`` makes it -999,
    which matches nothing)."""
    from bleu_harness.bleu import score

    def known(text: str) -> str:
        return " ".join("unk" if word == "<unk>" else word for word in text.split())

    return score([known(h) for h in hypotheses], [[known(r) for r in refs] for refs in references],
                 "fairseq", level, **options).score
