"""Every convention's ``finish`` equals, bit for bit, its frozen copy in
``tests/legacy_conventions`` (issue 27, item 2: the conventions become declarations over one
arithmetic, and no answer may move). Compared: every score's float ``.hex()`` and type (NLTK's
int ``0`` is not ``0.0``), the precisions, counts, totals, BP, lengths, ``details``, the
report, and for a refusal its ``library_exception`` and rule.

Inputs: every bundled case with the defaults and every ``identify`` variant of every
convention, and generated corpora with generated options (every NLTK and SacreBLEU release,
smoothing values from -1 to 1e308)."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legacy_conventions import FINISHES
from strategies import NLTK_OPTIONS, SACREBLEU_OPTIONS, corpus

from bleu_harness.bleu import CONVENTIONS, ConventionError
from bleu_harness.bleu.api import Request, plan
from bleu_harness.bleu.counting import count
from bleu_harness.bleu.history import NLTK, SACREBLEU
from bleu_harness.cases.loader import load
from bleu_harness.plan import effective_options

CASES = Path(__file__).resolve().parent.parent / "cases"


def key(value: Any) -> Any:
    """``value`` with every float as its exact bits and every leaf with its type."""
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, (tuple, list)):
        return tuple(key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, key(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def outcome(finish, corpus_stats, level: str, options) -> Any:
    try:
        done = finish(corpus_stats, level, options)
    except ConventionError as error:
        return ("raises", error.library_exception, error.rule)
    return key((done.scores, done.precisions, tuple(done.counts), tuple(done.totals), done.bp,
                done.hyp_len, done.ref_len, dict(done.details), done.report))


def compare(hypotheses, references, name: str, level: str, options) -> bool:
    """Whether the convention's finish and its frozen copy agree (``False``: not comparable,
    the options are refused or the request is declined)."""
    try:
        prepared = plan([Request(name, options)], level)
    except ValueError:
        return False
    if prepared.declined:
        return False
    spec, resolved = prepared.conventions[0]
    stats = count(hypotheses, references, prepared.needed)[spec.preprocessing(resolved)]
    new = outcome(spec.finish, stats, level, resolved)
    old = outcome(FINISHES[name], stats, level, resolved)
    assert new == old, (name, level, resolved, hypotheses, references)
    return True


@functools.cache
def bundled_cases():
    return load([CASES]).cases


def _variant_groups(size: int = 6):
    """(convention, a group of at most ``size`` of its variants, the defaults first): small
    enough for a quick test each."""
    for name, spec in CONVENTIONS.items():
        variants = ({}, *spec.variants)
        for start in range(0, len(variants), size):
            yield pytest.param(name, variants[start:start + size], id=f"{name}-{start}")


@pytest.mark.parametrize(("name", "variants"), list(_variant_groups()))
def test_bundled_corpus_every_variant(name, variants):
    compared = 0
    for case in bundled_cases():
        for variant in variants:
            options = effective_options(case, name, dict(variant))
            compared += compare(case.hypotheses, case.references, name, case.level, options)
    assert compared >= 100


def _with_release(history, strategy):
    return st.tuples(strategy, st.sampled_from(list(history.releases))).map(
        lambda pair: {**pair[0], "version": pair[1]})


GENERATED_OPTIONS = {
    "nltk": _with_release(NLTK, NLTK_OPTIONS),
    "sacrebleu": st.tuples(_with_release(SACREBLEU, SACREBLEU_OPTIONS),
                           st.sampled_from([None, -1, 0, 0.5, 1e308])).map(
        lambda pair: {**pair[0], **({"smooth_value": pair[1]} if pair[1] is not None else {})}),
    "matlab": st.fixed_dictionaries({
        "ngram_weights": st.sampled_from([(1, 1, 1, 1), (0, 0, 1), (1, 0), (0.2, 0.3, 0.5),
                                          (3, 1)]),
        "ignore_case": st.booleans()}),
    "multi-bleu": st.fixed_dictionaries({"lc": st.booleans()}),
    "mteval-v13a": st.fixed_dictionaries({
        "preserve_case": st.booleans(), "brevity_penalty": st.sampled_from(["closest", "shortest"]),
        "no_smoothing": st.booleans(), "international_tokenization": st.booleans()}),
    "tf-nmt": st.fixed_dictionaries({
        "max_order": st.integers(0, 6), "smooth": st.booleans(),
        "tokenize": st.sampled_from(["13a", "none", "split-space", "char"])}),
    "torchmetrics": st.integers(1, 5).flatmap(lambda n: st.fixed_dictionaries({
        "n_gram": st.just(n), "smooth": st.booleans(),
        "weights": st.sampled_from([None, (1.0,) * n, tuple(range(n)), (0.5,) * n])})),
    "t2t": st.fixed_dictionaries({
        "max_order": st.integers(0, 6), "use_bp": st.booleans(),
        "case_sensitive": st.booleans(), "tokenize": st.sampled_from(["t2t", "none"])}),
}


def test_generated_options_cover_every_convention():
    assert set(GENERATED_OPTIONS) == set(CONVENTIONS)


@pytest.mark.parametrize("name", list(GENERATED_OPTIONS))
def test_generated_corpora(name):
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=corpus(), options=GENERATED_OPTIONS[name], sentence=st.booleans())
    def check(data, options, sentence):
        hypotheses, references = data
        level = "sentence" if sentence else "corpus"
        if sentence:
            hypotheses, references = hypotheses[:1], references[:1]
        compare(hypotheses, references, name, level, options)

    check()
