"""The npm-bleu-score convention against npm ``bleu-score`` 1.0.4 itself: its ``js/bleu.js``,
unmodified in ``tests/oracles/bleu_score/``, run by ``node`` (one process for the whole module,
``tests/bleu_score_oracle.js``), on generated sentences -- double, leading and trailing
spaces, empty strings, tabs, repeated words, punctuation, non-ASCII, the names of
``Object.prototype`` -- and every ``maxN`` from 1 to 6: the same float bit for bit (``NaN``
where it gives ``NaN``). V8's ``Math.exp`` and ``Math.pow`` (the engine's
:mod:`bleu_harness.bleu.fdlibm`) are held to node's own on generated arguments too.

Without ``node`` these tests are skipped with the reason; the case family
``cases/families/npm-bleu-score.yaml`` holds values recorded from the tool.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import WORDS, segment_text
from tiers import examples, exhaustive

from bleu_harness.bleu import ConventionDeclined, fdlibm, score
from bleu_harness.bleu.tokenizers.javascript import PROTOTYPE_KEYS
from bleu_harness.cases.loader import load

HERE = Path(__file__).parent
ORACLE = HERE / "oracles" / "bleu_score" / "bleu.js"
NAME = "npm-bleu-score"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (the npm "
                                "bleu-score oracle runs on Node.js)")

#: sha256 of ``package/js/bleu.js`` in the npm tarball ``bleu-score-1.0.4.tgz`` (npm's
#: dist.shasum 07c373e0cca5fdc077f74497626bd7e90fe7e773).
ORACLE_SHA256 = "41fafa659491083d2ed6a3a97e879211cb6aec1c6b8d1d03f4415301af3b54d2"

JS_WORDS = [*WORDS, *sorted(PROTOTYPE_KEYS), "", "a\tb", "A", "ǅ", "🙂", "0", "01"]
#: Single spaces mostly; two spaces make an empty token; a tab stays inside a token.
JS_SEPARATORS = [" ", " ", " ", "  ", "\t", "   "]
SENTENCE = st.one_of(
    segment_text(words=JS_WORDS, separators=JS_SEPARATORS),
    segment_text(words=["a", "b", "c"], separators=[" ", " ", "  "]),  # ties and repeats
    st.sampled_from(["", " ", "  ", " a", "a ", "constructor", "__proto__ __proto__"]))


def bits(value: float) -> str:
    return struct.pack(">d", value).hex()


def same(ours: float, theirs: float) -> bool:
    """Bit for bit; any NaN equals any NaN (V8's has the sign bit set, Python's not)."""
    return (math.isnan(ours) and math.isnan(theirs)) or bits(ours) == bits(theirs)


def test_the_vendored_file_is_the_tarballs():
    assert hashlib.sha256(ORACLE.read_bytes()).hexdigest() == ORACLE_SHA256


@pytest.fixture(scope="module")
def bleu():
    """npm bleu-score's ``bleu(reference, candidate, maxN)``, run by one node process."""
    if NODE is None:
        pytest.skip("node is not installed (the npm bleu-score oracle runs on Node.js)")
    process = subprocess.Popen([NODE, str(HERE / "bleu_score_oracle.js")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def call(reference: str, candidate: str, max_n: int) -> dict:
        process.stdin.write(json.dumps([reference, candidate, max_n]) + "\n")
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        if "bits" in answer:
            answer["score"] = struct.unpack(">d", bytes.fromhex(answer["bits"]))[0]
        return answer

    try:
        yield call
    finally:
        process.stdin.close()
        process.wait(timeout=10)


@settings(max_examples=examples(1000, 200), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(reference=SENTENCE, candidate=SENTENCE, max_n=st.integers(1, 6))
@example(reference="a b", candidate="constructor b", max_n=1)  # NaN
@example(reference="a __proto__", candidate="__proto__ a", max_n=1)  # __proto__ never matches
@example(reference="a __proto__ b", candidate="a __proto__ b", max_n=3)  # its bigrams do
@example(reference="", candidate="", max_n=1)
@example(reference="", candidate="", max_n=4)
@example(reference="the cat  sat", candidate="the cat sat on", max_n=2)
@example(reference="This is a sample reference sentence.",
         candidate="This is a sample candidate sentence.", max_n=4)  # the README's
def test_bleu_bit_for_bit(bleu, reference, candidate, max_n):
    theirs = bleu(reference, candidate, max_n)
    assert "error" not in theirs, theirs
    ours = score([candidate], [[reference]], NAME, "sentence", maxN=max_n).score
    assert same(ours, theirs["score"]), (reference, candidate, max_n, ours, theirs)


def test_what_the_tool_refuses_the_convention_refuses(bleu):
    """A negative or fractional ``maxN`` is ``Array(maxN)``'s ``RangeError``; the convention
    takes ``maxN`` from 1 (``maxN`` 0 is ``NaN`` there: ``Math.pow(1, Infinity)``)."""
    for max_n in (-1, 2.5):
        assert bleu("a b", "a b", max_n)["error"] == "RangeError"
        with pytest.raises(ValueError, match="maxN"):
            score(["a b"], [["a b"]], NAME, "sentence", maxN=max_n)
    assert math.isnan(bleu("a b", "a b", 0)["score"])
    with pytest.raises(ValueError, match="maxN"):
        score(["a b"], [["a b"]], NAME, "sentence", maxN=0)


def test_one_candidate_against_one_reference():
    with pytest.raises(ConventionDeclined, match="corpus level"):
        score(["a b"], [["a b"]], NAME, "corpus")
    for references in ([], ["a b", "a c"]):
        with pytest.raises(ConventionDeclined, match="one reference"):
            score(["a b"], [references], NAME, "sentence")


def test_several_conventions_in_one_pass_keep_the_object_key_counts():
    """The statistics pass counts npm-bleu-score's keys its own way beside the others' (one
    pass, shared tokens): ``constructor`` is NaN for it and a plain word for NLTK."""
    from bleu_harness.bleu.api import Request, score_many

    ours, nltk = score_many(["constructor b"], [["constructor b"]],
                            [Request(NAME, {"maxN": 2}), Request("nltk", {"weights": (0.5, 0.5)})],
                            "sentence")
    assert math.isnan(ours.score) and nltk.score == 1.0
    from bleu_harness.bleu import Scorer, pairwise

    assert math.isnan(Scorer(NAME).score("toString", ["toString"]))
    assert pairwise(["__proto__ a", "a __proto__"], NAME, maxN=1)[0][1] == 0.5


# --- V8's Math.exp and Math.pow ----------------------------------------------------------------

#: Runs on node: Math.exp or Math.pow of each argument (hex doubles), one line each.
MATH_SCRIPT = """
const b = Buffer.alloc(8);
const f = (h) => Buffer.from(h, "hex").readDoubleBE(0);
const out = [];
for (const line of require("fs").readFileSync(0, "utf8").trim().split("\\n")) {
  const [what, x, y] = line.split(" ");
  b.writeDoubleBE(what === "exp" ? Math.exp(f(x)) : Math.pow(f(x), f(y)));
  out.push(b.toString("hex"));
}
console.log(out.join("\\n"));
"""

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, math.inf, -math.inf, math.nan, 5e-324, -5e-324,
           2.2250738585072014e-308, 1.7976931348623157e308, 709.78, -745.2, 1e-300]


def arguments(seed: int, count: int) -> tuple[list[float], list[tuple[float, float]]]:
    """``count`` arguments of exp and of pow: any doubles (every bit pattern), the ranges a
    BLEU score reaches, the special values, negative bases with integer exponents."""
    rng = random.Random(seed)

    def anything() -> float:
        return struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]

    exps = [rng.choice((anything(), rng.uniform(-750, 710), rng.uniform(-1, 1) * 1e-9,
                        rng.choice(SPECIAL))) for _ in range(count)]
    pows = [rng.choice(((anything(), anything()), (rng.random(), 1 / rng.randint(1, 9)),
                        (rng.random() * 1e-300, rng.uniform(-4, 4)),
                        (-rng.uniform(0, 10), float(rng.randint(-5, 5))),
                        (rng.choice(SPECIAL), rng.choice(SPECIAL)),
                        (rng.uniform(0.999999, 1.000001), rng.uniform(-3e9, 3e9))))
            for _ in range(count)]
    return exps, pows


@needs_node
def test_fdlibm_is_v8s_math():
    """5000 arguments of each, and the length ratios and precision products a BLEU score
    reaches: the same bits (NaN as NaN)."""
    exps, pows = arguments(20261124, 20000 if exhaustive() else 5000)
    exps += [1 - r / c for c in range(1, 40) for r in range(c, c + 40)]
    pows += [((m / t) * (m2 / t), 1 / n) for n in range(1, 7) for t in range(1, 25)
             for m in range(t + 1) for m2 in range(0, t + 1, 5)]
    lines = [f"exp {bits(x)}" for x in exps] + [f"pow {bits(x)} {bits(y)}" for x, y in pows]
    done = subprocess.run([NODE, "-e", MATH_SCRIPT], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    theirs = [struct.unpack(">d", bytes.fromhex(h))[0] for h in done.stdout.split()]
    ours = [fdlibm.exp(x) for x in exps] + [fdlibm.pow(x, y) for x, y in pows]
    wrong = [(line, bits(o), bits(t)) for line, o, t in zip(lines, ours, theirs)
             if not same(o, t)]
    assert len(theirs) == len(lines) and not wrong, wrong[:5]


def test_fdlibm_is_not_the_c_library():
    """Why the port: the C library's exp and pow differ from V8's in the last bit (values
    node 20.20.2 gives)."""
    assert fdlibm.exp(1 - 11 / 1) == 4.539992976248485e-05 != math.exp(1 - 11 / 1)


# --- the case family and identify ------------------------------------------------------------


def test_the_case_files_values_come_from_the_tool():
    cases = [c for c in load(None).cases if c.id.startswith("nbs-")]
    assert len(cases) >= 10
    for case in cases:
        for e in case.expectations:
            assert (e.convention, e.provenance.kind) == (NAME, "computed"), case.id
            assert (e.provenance.library, e.provenance.version) == (NAME, "1.0.4"), case.id
            assert "bleu-score-1.0.4.tgz" in e.provenance.source, case.id


def test_identify_names_npm_bleu_score():
    """A number the real tool gave (case nbs-double-space-is-an-empty-token, 0.48892302...),
    printed to four digits: identify names npm-bleu-score, at the default maxN."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    cases = {c.id: c for c in load(None).cases}
    found = identify(from_case(cases["nbs-double-space-is-an-empty-token"]), "0.4889")
    ours = [m["options"] for m in found["matches"] if m["convention"] == NAME]
    assert ours and all(o["maxN"] == 4 for o in ours)
