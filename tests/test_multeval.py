"""The multeval convention against MultEval's own BLEU.

MultEval's Java sources, unmodified (``tests/oracles/multeval/src``, jhclark/multeval@bd93ed16),
are compiled once per module with ``javac`` against Guava and run by the driver
``tests/multeval_driver/MultEvalOracle.java`` (tests/multeval_oracle.py): ``multeval eval``'s
reading of files (``HypothesisManager``) and ``BLEU.stats`` / ``sumStats`` / ``BLEU.score``, or
``BLEU.stats`` on the strings themselves (``entry="stats"``). Without a JDK, or without a
Guava jar (Debian's ``libguava-java``, which ``.ci/run`` installs), the live tests are skipped
with the reason, and the case family (``cases/families/multeval.yaml``, recorded from the
same oracle by tools/multeval_cases.py) still checks the engine.

On inputs Hypothesis generates (empty and blank lines, double, leading and trailing spaces,
tabs, Unicode spaces that Guava splits on and Java's ``\\s`` does not, U+00A0 that neither
does, control characters Java's ``trim()`` removes, repeated words, length ties, 0-3
references, both entries, both levels) the engine must give MultEval's summed statistics
exactly, its exceptions, and its double within a few ulps: Java's ``Math.log`` / ``Math.exp``
are not always correctly rounded (HotSpot's x86-64 stubs differ from glibc's in the last bit
for about 0.1-0.3 % of arguments), so a score is bit for bit unless one of them rounded
otherwise; on 300 seeded inputs at least 97 % must be bit for bit.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from multeval_oracle import HERE, Oracle, build, why_unavailable
from runs import assert_recorded_by_the_tool
from tiers import examples

from bleu_harness.bleu import ConventionDeclined, ConventionError, score
from bleu_harness.bleu.tokenizers.multeval import BREAKING_WHITESPACE
from bleu_harness.cases.loader import load_file

NAME = "multeval"
FAMILY = HERE.parent / "cases" / "families" / "multeval.yaml"
MISSING = why_unavailable()
live = pytest.mark.skipif(MISSING is not None, reason=str(MISSING))


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    running = Oracle(build(tmp_path_factory.mktemp("multeval")))
    try:
        yield running
    finally:
        running.close()


def test_the_vendored_files_are_multevals():
    """The git blobs of jhclark/multeval@bd93ed16's files (``git hash-object``)."""
    blobs = {
        "src/jbleu/JBLEU.java": "e2f958dcce920fd3f5962d8c4720b6cd6fe29c53",
        "src/jbleu/util/Ngram.java": "d2c32f3ac34003237de8d22dfd294a3cc09f017b",
        "src/jbleu/util/HashUtil.java": "446c17443aa0211b535545cc2c5b7eb0a4a21fe1",
        "src/multeval/metrics/BLEU.java": "76f81ff4663ded8cbd5504633f4094fa06735bd2",
        "src/multeval/metrics/Metric.java": "95d2c4ed06309bbab7cacf0eb93164f2e998ac84",
        "src/multeval/metrics/IntStats.java": "270482250c281fcb70bd128459ce0a979f278b44",
        "src/multeval/metrics/SuffStats.java": "d4148bc95deb2cd32b97a504055bae71dae88eec",
        "src/multeval/util/LibUtil.java": "ebca574c3ec146785b4f5eac42a95c9dbf7dacce",
        "src/multeval/util/ArrayUtils.java": "88d00eab041b91d99948c81b6d27fae8cdcfb7f8",
        "src/multeval/util/SuffStatUtils.java": "e9a743b36d9a1af7381212a4ad0f404163d9f624",
        "src/multeval/util/StringUtils.java": "6e002be37415f9348c3c8601c21293d4491ad462",
        "src/multeval/HypothesisManager.java": "81634be180e62e339ebc4ca81d408c12b4a5088b",
        "LICENSE.txt": "e7a19214f1f1efa1dd88525caa962b98b0c6fb7b",
    }
    for name, blob in blobs.items():
        data = (HERE / "oracles" / "multeval" / name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name


@pytest.mark.parametrize(("entry", "text", "tokens"), [
    ("stats", " a  b ", ["", "a", "", "b", ""]),
    ("eval", " a  b ", ["a", "b"]),
    ("eval", "", [""]),
    ("eval", " \t ", [""]),
    ("eval", "a\u3000\u3000b", ["a", "", "b"]),
    ("eval", "a\u00a0b", ["a\u00a0b"]),
    ("eval", "\x01a\x1cb\x1f", ["a\x1cb"]),
    ("stats", "\x01a\x1cb\x1f", ["\x01a\x1cb\x1f"]),
])
def test_the_tokens(entry, text, tokens):
    """``BLEU.stats``' split keeps empty strings; ``eval`` trims (every character up to
    U+0020) and folds Java's ``\\s`` runs first, not Unicode spaces."""
    result = score([text], [[text]], NAME, "sentence", entry=entry)
    assert result.hyp_len == len(tokens) and result.score == 100.0


def test_ragged_references_are_not_multeval_eval():
    with pytest.raises(ConventionDeclined):
        score(["a", "b"], [["a"], ["b", "c"]], NAME)
    assert score(["a", "b"], [["a"], ["b", "c"]], NAME, entry="stats").score == 100.0


def test_the_case_files_values_come_from_the_tool():
    """Every multeval expectation of the family is the compiled MultEval's, never the
    engine's."""
    assert_recorded_by_the_tool(FAMILY, NAME, "bd93ed16")


def test_identify_names_multeval():
    """A number MultEval gave (recorded in the case family), printed as its table does
    (``%2.1f``)."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    case = next(c for c in load_file(FAMILY)[0] if c.id == "mev-jbleu-main-example")
    value = next(e.value for e in case.expectations if e.convention == NAME and not e.options)
    found = identify(from_case(case), f"{float(value):.1f}")
    assert NAME in {m["convention"] for m in found["matches"]}


# --- live: MultEval itself, where a JDK and Guava are installed ------------------------------

WORDS = ["a", "b", "c", "a", "b", "the", "The", "cat", ".", "é", "日本", "x\u00a0y", "\x1c"]
#: Java's ``\\s`` and Guava's separators, the Unicode spaces only Guava splits on, and
#: characters neither splits on (U+00A0, U+2007, U+202F); no line break for ``eval`` (its
#: files are read line by line: U+000A, U+000D).
SEPARATORS = [" ", " ", " ", "  ", "\t", " \t ", "\x0b", "\x0c", "\u3000", "\u2003",
              "\u3000\u3000", "\x85", "\u2028", "\u1680", "\u2007", "\u202f", " \u3000 "]
EDGES = ["", "", "", " ", "  ", "\t", "\u3000", "\x01", " \x1f", "\u2003 "]


@st.composite
def line(draw, stats: bool) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), max_size=7))
    separators = SEPARATORS + (["\n", "\r\n", "\r"] if stats else [])
    text = ""
    for i, word in enumerate(words):
        text += (draw(st.sampled_from(separators)) if i else "") + word
    return draw(st.sampled_from(EDGES)) + text + draw(st.sampled_from(EDGES))


@st.composite
def multeval_input(draw) -> tuple[str, str, list[str], list[list[str]]]:
    entry = draw(st.sampled_from(["eval", "stats"]))
    level = draw(st.sampled_from(["corpus", "corpus", "sentence"]))
    n = 1 if level == "sentence" else draw(st.sampled_from([0, 1, 2, 3, 4, 2, 3]))
    k = draw(st.sampled_from([1, 1, 2, 3, 0]))
    ragged = entry == "stats" and draw(st.integers(0, 4)) == 0  # a Java caller's lists
    text = line(entry == "stats")
    hyps = [draw(text) for _ in range(n)]
    refs = [[draw(text) for _ in range(draw(st.integers(0, 3)) if ragged else k)]
            for _ in range(n)]
    for i in range(n):  # an identical reference, or a length tie around the hypothesis
        if refs[i] and draw(st.booleans()):
            refs[i][0] = hyps[i]
        if len(refs[i]) >= 2 and draw(st.booleans()):
            words = hyps[i].split() or ["a"]
            refs[i][0], refs[i][1] = " ".join(words + ["z"]), " ".join(words[:-1])
    return entry, level, hyps, refs


#: Java's ``Math.log`` / ``Math.exp`` against Python's (glibc): a few ulps, relative.
JAVA_LIBM = 1e-14


def compare(oracle, entry: str, level: str, hyps: list[str], refs: list[list[str]]) -> str:
    """The engine against MultEval on one input: how it agreed (or the exception both
    raise)."""
    theirs = oracle.ask(entry, hyps, refs)
    what = (entry, level, hyps, refs, theirs)
    try:
        ours = score(hyps, refs, NAME, level, entry=entry)
    except ConventionError as error:
        assert error.library_exception == theirs.get("error"), (what, error)
        return "raises " + error.library_exception
    assert "error" not in theirs, (what, ours)
    stats = [*ours.totals, *ours.counts, ours.ref_len]
    assert stats == theirs["stats"], what
    assert ours.score == theirs["score"] or math.isclose(ours.score, theirs["score"],
                                                         rel_tol=JAVA_LIBM), (what, ours.score)
    return "bit for bit" if ours.score.hex() == theirs["score"].hex() else "within ulps"


@live
def test_live_guava_splits_on_the_engines_characters(oracle):
    assert oracle.breaking_whitespace() == BREAKING_WHITESPACE


@live
@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=multeval_input())
@example(data=("eval", "corpus", [], []))
@example(data=("eval", "sentence", [""], [[""]]))
@example(data=("stats", "sentence", [" "], [[""]]))
@example(data=("eval", "corpus", ["a"], [[]]))
@example(data=("stats", "corpus", ["a b", "c"], [["a b"], []]))
@example(data=("eval", "corpus", ["This is a hypothesis sentence ."],
               [["This is the first reference sentence .",
                 "This is the second reference sentence ."]]))
@example(data=("eval", "sentence", [" ".join("a" * 12)],
               [[" ".join("a" * 13), " ".join("a" * 11)]]))
@example(data=("eval", "corpus", ["\u2003 ", "a a a", "a a a a a a a\u3000"],
               [["\u2003 "], ["a a a"], ["a b a b\u3000\u3000a\u2007a"]]))  # Math.exp 1 ulp up
def test_live_against_multeval(oracle, data):
    compare(oracle, *data)


def seeded_input(rng: random.Random) -> tuple[str, str, list[str], list[list[str]]]:
    """What :func:`multeval_input` draws, from a seeded generator."""
    entry, level = rng.choice(["eval", "stats"]), rng.choice(["corpus", "corpus", "sentence"])
    separators = SEPARATORS + (["\n", "\r\n", "\r"] if entry == "stats" else [])

    def text() -> str:
        words = rng.choices(WORDS, k=rng.randint(0, 7))
        return (rng.choice(EDGES) + "".join((rng.choice(separators) if i else "") + w
                                            for i, w in enumerate(words)) + rng.choice(EDGES))

    n = 1 if level == "sentence" else rng.choice([1, 2, 3, 4, 6])
    k = rng.choice([1, 1, 2, 3])
    hyps = [text() for _ in range(n)]
    refs = [[h if j == 0 and rng.random() < 0.3 else text() for j in range(k)] for h in hyps]
    return entry, level, hyps, refs


@live
def test_live_seeded_inputs_mostly_bit_for_bit(oracle):
    outcomes = Counter(compare(oracle, *seeded_input(random.Random(f"multeval {i}")))
                       for i in range(300))
    print(dict(outcomes))
    assert outcomes["bit for bit"] >= 0.97 * (outcomes["bit for bit"] + outcomes["within ulps"])
