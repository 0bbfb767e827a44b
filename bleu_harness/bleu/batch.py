"""Sentence BLEU many times over: a reusable scorer, a batch call, and all pairs of a group.

Where sentence BLEU is spent -- a score per sentence for analysis, a reward per sample,
minimum-Bayes-risk decoding with BLEU as the utility -- a single ``score(..., level="sentence")``
call is mostly per-call Python: resolving the options, planning, the signature string, the
result object. Here the options are resolved, the preprocessing planned and the signature
made once (as SacreBLEU's reusable ``BLEU`` object does), and each sentence costs its count
and the convention's arithmetic -- both in C where the kernel takes the convention
(:mod:`bleu_harness.bleu.kernel`: a batch is one pass and one loop, and ``pairwise``
tokenizes each text once). Every score is the one ``score`` gives for the same pair, bit for
bit (``tests/test_batch.py``, ``tests/test_kernel.py``). The numbers below are SacreBLEU 2.6.0's
``sentence_bleu`` and NLTK 3.9's ``sentence_bleu`` with ``method1`` for the same pairs.

>>> from bleu_harness.bleu import Scorer, sentence_scores, pairwise, mbr_choice
>>> sentence_scores(["the cat sat", "a dog"], [["the cat sat"], ["the dog"]], "sacrebleu")
[100.00000000000004, 49.99999999999999]
>>> Scorer("nltk", smoothing="method1").score("the cat sat on the mat", ["the cat sat on a mat"])
0.537284965911771
>>> pairwise(["the cat sat", "the cat sat down", "a dog ran"], "sacrebleu")[0]
[None, 71.65313105737896, 0.0]
>>> mbr_choice(["the cat sat", "the cat sat down", "a dog ran"], "sacrebleu")
0
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from bleu_harness.bleu.api import Request, _finish, check_input, plan
from bleu_harness.bleu.conventions import get_convention
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.counting import clipping, preparer, segment_counter
from bleu_harness.bleu.kernel import kernel
from bleu_harness.bleu.options import FrozenOptions
from bleu_harness.bleu.result import BleuResult, ConventionDeclined, ConventionError
from bleu_harness.bleu.tokenizers import why_unavailable

LEVEL = "sentence"
#: How many distinct rows :func:`sentence_results` keeps to answer a repeated pair with
#: (memory bounded whatever the input).
RECENT_ROWS = 1024


class Scorer:
    """Sentence BLEU under one convention and its options, resolved once.

    ``Scorer("sacrebleu").score(hypothesis, references)`` is
    ``score([hypothesis], [references], "sacrebleu", level="sentence").score``, bit for bit,
    without the per-call work. Options are the library's own names, as for ``score``; a bad
    one is a ``ValueError`` here, at construction. Where the followed library raises on an
    input, ``score`` raises its :class:`ConventionError`.
    """

    def __init__(self, convention: str = "nltk", **options: Any) -> None:
        self.convention = get_convention(convention)
        self.options = FrozenOptions(self.convention.resolve(LEVEL, options))
        key = self.convention.preprocessing(self.options)
        reason = why_unavailable(key.tokenizer)
        if reason:
            raise ConventionDeclined(self.convention.name, reason)
        self.preprocessing = key
        self.order = self.convention.required_order(self.options)
        self._count = segment_counter(key, self.order)
        self._finish = self.convention.finish
        declared = self.convention.sentence_arithmetic
        #: The C kernel that scores a batch at once, where this convention and these options
        #: have one (:mod:`bleu_harness.bleu.kernel`); ``None``: each sentence in Python.
        self.kernel = kernel(declared and declared(self.options), key, self.order)
        #: The signature every score of this scorer has (as ``BleuResult.signature``).
        self.signature = self.convention.knobs(self.options, LEVEL).signature(
            self.convention.name)

    def statistics(self, hypothesis: str, references: Sequence[str]) -> CorpusStats:
        """The counts one sentence is scored from (``ValueError`` for a malformed pair)."""
        _check_pair(hypothesis, references)
        return self._count(hypothesis, references)

    def score(self, hypothesis: str, references: Sequence[str]) -> float:
        """The sentence score of ``hypothesis`` against ``references``, on the convention's
        own scale (SacreBLEU's 0-100, NLTK's 0-1)."""
        if self.kernel is None:
            return self.from_statistics(self.statistics(hypothesis, references))
        _check_pair(hypothesis, references)
        scores, left = self.kernel.scores((hypothesis,), (references,))
        return self.from_statistics(self._count(hypothesis, references)) if left else scores[0]

    def from_statistics(self, stats: CorpusStats) -> float:
        """The sentence score of counted statistics (:meth:`statistics`, :func:`pairwise`)."""
        return self._finish(stats, LEVEL, self.options).scores[0]

    def result(self, hypothesis: str, references: Sequence[str]) -> BleuResult:
        """Everything ``score(..., level="sentence")`` returns for this pair."""
        return _finish(self.convention, self.statistics(hypothesis, references), LEVEL,
                       self.options, self.signature)

    def scores(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               ) -> list[float]:
        """:meth:`score` of each pair (``references[i]`` are ``hypotheses[i]``'s)."""
        check_input(hypotheses, references, "corpus")
        if self.kernel is None:
            return [self._in_python(i, h, refs)
                    for i, (h, refs) in enumerate(zip(hypotheses, references))]
        scores, left = self.kernel.scores(hypotheses, references)
        for i in left:
            scores[i] = self._in_python(i, hypotheses[i], references[i])
        return scores

    def _in_python(self, i: int, hypothesis: str, references: Sequence[str]) -> float:
        """Pair ``i`` of a batch, counted and finished in Python."""
        try:
            return self._finish(self._count(hypothesis, references), LEVEL,
                                self.options).scores[0]
        except ConventionError as error:
            error.add_note(f"at sentence {i} of the batch")
            raise


def sentence_results(pairs: Iterable[tuple[str, Sequence[str]]], requests: Sequence[Request],
                     ) -> Iterator[list[BleuResult | ConventionError]]:
    """Each pair's outcome under each request, as ``score_many([h], [refs], requests,
    "sentence")`` gives it, one pair at a time (memory does not grow with the input): the
    options resolved and the signatures made once, and each sentence counted once per
    preprocessing the requests need. Bad options raise ``ValueError`` before any pair; a
    malformed pair raises it when reached. A pair with the statistics of one of the last
    :data:`RECENT_ROWS` distinct pairs gets that pair's row (the same objects: a row is
    read, never changed)."""
    scoring = plan(requests, LEVEL)
    conventions = [(convention, FrozenOptions(resolved), convention.preprocessing(resolved))
                   for convention, resolved in scoring.conventions]
    signatures = [None if i in scoring.declined else convention.knobs(options, LEVEL)
                  .signature(convention.name)
                  for i, (convention, options, _) in enumerate(conventions)]
    counters = {key: segment_counter(key, order) for key, order in scoring.needed.items()}
    recent: OrderedDict[tuple, list[BleuResult | ConventionError]] = OrderedDict()

    def rows() -> Iterator[list[BleuResult | ConventionError]]:
        for hypothesis, references in pairs:
            _check_pair(hypothesis, references)
            # A row is a function of the pair's statistics alone: a pair given, or counted,
            # as one of the last few was is answered with that row (empty lines, repeated
            # short ones: 200,000 empty lines were 22 conventions' counts and arithmetic
            # 200,000 times over).
            text = (hypothesis, *references)
            if text in recent:
                recent.move_to_end(text)
                yield recent[text]
                continue
            stats = {key: counted(hypothesis, references) for key, counted in counters.items()}
            seen = tuple(counted.value for counted in stats.values())
            if seen in recent:
                recent.move_to_end(seen)
                remember(text, recent[seen])
                yield recent[seen]
                continue
            row: list[BleuResult | ConventionError] = []
            for i, (convention, options, key) in enumerate(conventions):
                if i in scoring.declined:
                    row.append(scoring.declined[i])
                    continue
                try:
                    row.append(_finish(convention, stats[key], LEVEL, options, signatures[i]))
                except ConventionError as error:
                    row.append(error)
            remember(seen, row)
            remember(text, row)
            yield row

    def remember(key: tuple, row: list[BleuResult | ConventionError]) -> None:
        recent[key] = row
        if len(recent) > RECENT_ROWS:
            recent.popitem(last=False)

    return rows()


def sentence_scores(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                    convention: str = "nltk", *, statistics: bool = False,
                    **options: Any) -> list[float] | tuple[list[float], list[CorpusStats]]:
    """The sentence score of each of N (hypothesis, references) pairs in one call: the same
    bits as N calls of ``score([h], [refs], convention, level="sentence")``. With
    ``statistics=True``, also each sentence's counts. A plain list (``numpy.asarray`` takes
    it as it is)."""
    scorer = Scorer(convention, **options)
    if not statistics:
        return scorer.scores(hypotheses, references)
    check_input(hypotheses, references, "corpus")
    counted = [scorer._count(h, refs) for h, refs in zip(hypotheses, references)]
    return [scorer.from_statistics(stats) for stats in counted], counted


def pairwise(candidates: Sequence[str], convention: str = "nltk", *,
             references: Sequence[str] | None = None, **options: Any) -> list[list[float]]:
    """``utility[i][j]``: the sentence score of ``candidates[i]`` against ``references[j]``
    as its one reference -- by default the other candidates, where ``utility[i][i]`` is
    ``None`` (a candidate is not its own evidence). Each text is tokenized once for the
    whole group, not once per pair; each score is the one ``score`` gives for that pair,
    bit for bit."""
    scorer = Scorer(convention, **options)
    for what, texts in (("candidates", candidates), ("references", references)):
        if what == "references" and texts is None:
            continue
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise ValueError(f"{what} must be a list of strings")
        for j, text in enumerate(texts):
            if not isinstance(text, str):
                raise ValueError(f"{what}[{j}] must be a string, got {type(text).__name__}")
    evidence = list(candidates if references is None else references)
    if scorer.kernel is not None:
        return _pairwise_in_c(scorer, list(candidates), evidence, references is None)
    prepare = preparer(scorer.preprocessing)
    prepare_reference = preparer(scorer.preprocessing, reference=True)
    hypotheses = [prepare(text) for text in candidates]
    targets = [prepare_reference(text) for text in evidence]
    pair = _pair_in_python(scorer, references is None)
    return [[None if references is None and i == j else pair(i, j, hyp, ref, evidence[j] == "")
             for j, ref in enumerate(targets)] for i, hyp in enumerate(hypotheses)]


def _pairwise_in_c(scorer: Scorer, candidates: list[str], evidence: list[str],
                   among_themselves: bool) -> list[list[float | None]]:
    """:func:`pairwise` by the C kernel: each text tokenized and numbered once, every pair
    counted and scored in C; a pair the kernel leaves to Python is scored there."""
    in_c = scorer.kernel
    texts = candidates if among_themselves else candidates + evidence
    flat, left = in_c.pairwise(texts, len(candidates),
                               0 if among_themselves else len(candidates))
    width = len(evidence)
    if left:
        prepare = preparer(scorer.preprocessing)
        prepare_reference = preparer(scorer.preprocessing, reference=True)
        pair = _pair_in_python(scorer, among_themselves)
        for index in left:
            i, j = divmod(index, width)
            if not (among_themselves and i == j):
                flat[index] = pair(i, j, prepare(candidates[i]),
                                   prepare_reference(evidence[j]), evidence[j] == "")
    utility = [flat[i * width:(i + 1) * width] for i in range(len(candidates))]
    if among_themselves:
        for i, row in enumerate(utility):
            row[i] = None
    return utility


def _pair_in_python(scorer: Scorer, among_themselves: bool):
    """``pair(i, j, hyp, ref, empty)``: candidate ``i`` (tokens ``hyp``) against evidence
    ``j`` (tokens ``ref``, the text ``''`` where ``empty``) as its one reference, counted and
    finished in Python."""
    clip, order = clipping(scorer.preprocessing), scorer.order
    drop, keep = scorer.preprocessing.drop_empty_references, scorer.preprocessing.segments

    def pair(i: int, j: int, hyp, ref, empty: bool) -> float:
        dropped = drop and empty
        refs = [] if dropped else [ref]
        stats = CorpusStats.of_segment(order, len(hyp), [len(r) for r in refs],
                                       clip(hyp, refs, order), int(dropped), keep)
        try:
            return scorer.from_statistics(stats)
        except ConventionError as error:
            error.add_note(f"at candidate {i} against "
                           f"{'candidate' if among_themselves else 'reference'} {j}")
            raise

    return pair


def mbr_choice(candidates: Sequence[str], convention: str = "nltk", *,
               references: Sequence[str] | None = None, **options: Any) -> int:
    """The index of the minimum-Bayes-risk candidate: the highest mean :func:`pairwise`
    utility against the other candidates (or ``references``); the first on a tie."""
    utility = pairwise(candidates, convention, references=references, **options)
    if not utility:
        raise ValueError("mbr_choice needs at least one candidate")
    if references is not None and not references:
        raise ValueError("mbr_choice needs at least one reference to weigh the candidates by "
                         "(or none given: the candidates themselves)")
    means = [sum(u for u in row if u is not None) / max(1, sum(u is not None for u in row))
             for row in utility]
    return max(range(len(means)), key=lambda i: (means[i], -i))


def _check_pair(hypothesis: Any, references: Any) -> None:
    if not isinstance(hypothesis, str):
        raise ValueError(f"the hypothesis must be a string, got {type(hypothesis).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise ValueError("references must be a list of strings")
    for j, ref in enumerate(references):
        if not isinstance(ref, str):
            raise ValueError(f"references[{j}] must be a string, got {type(ref).__name__}")
