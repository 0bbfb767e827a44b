"""The keras-hub convention against keras-hub's own ``Bleu`` (``keras_hub/src/metrics/bleu.py``
and ``keras_hub/src/utils/tensor_utils.py`` at keras-team/keras-hub@71453d08f59e, unmodified in
``tests/oracles/keras_hub/``; TensorFlow and Keras stubbed by ``tests/keras_hub_oracle.py``):
the default tokenizer token for token, and the metric's float32 result bit for bit (NaN where
it is NaN, ``ValueError`` where it raises) on generated corpora fed to ``update_state`` in
several batches. The stub of ``tf.strings.regex_replace`` is held to the real RE2
(``RE2::GlobalReplace`` from Debian's ``libre2-dev``, driven by ``tests/re2_global_replace.cc``
compiled with ``g++``) where both are installed."""

from __future__ import annotations

import hashlib
import json
import math
import random
import shutil
import subprocess
import warnings
from pathlib import Path

import keras_hub_oracle as oracle
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy1_python import NUMPY1_PYTHON, needs_numpy1
from strategies import SEPARATORS, WORDS, corpus
from tiers import examples

from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.tokenizers.kerashub import tokenize_keras_13a, tokenize_tf_split
from bleu_harness.cases.loader import load

HERE = Path(__file__).parent
NAME = "keras-hub"
#: ``git rev-parse 71453d08:PATH`` of the two vendored files.
GIT_BLOBS = {"bleu.py": "bce9411ee25984858d9596c3785f028788467512",
             "tensor_utils.py": "aaa55a0477e2a82caa6efe1a447b88c03d365c17"}

#: Pieces around keras-hub's rules: ASCII punctuation (its class and what is outside it),
#: digits beside ``.`` ``,`` ``-``, every kind of whitespace (RE2's ``\\s``, C ``isspace``,
#: Unicode spaces neither knows), the literal substitutions, non-ASCII letters.
PIECES = list(".,-0123456789 \t\n\v\f\r\x1c\x85\u00a0\u2028\u3000&;<>\"'()/:@[]{}~`^_\\|$#!?*+=%") \
    + ["a", "b", "é", "日本", "<skipped>", "&quot;", "&amp;", "&lt;", "&gt;", "-\n", "5.", ".5"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
#: Words for whole corpora: the usual ones, and the tokens only keras-hub's port keeps whole.
KERAS_WORDS = WORDS + ["5.", ".5", "1,000", "2,", "a\u00a0b", "x\vy", "<skipped>", "1-2"]


def test_the_vendored_files_are_the_commits():
    for name, blob in GIT_BLOBS.items():
        data = (HERE / "oracles" / "keras_hub" / name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name


@settings(max_examples=examples(300), deadline=None)
@given(text=TEXT)
@example(text="It costs 5.")
@example(text=".5 and 5, and 5.")
@example(text="a\u00a0b\vc\x1cd")
def test_the_default_tokenizer(text):
    """keras-13a is ``Bleu()._tokenizer`` token for token, tf-split is
    ``Bleu(tokenizer=tf.strings.split)``'s."""
    assert tokenize_keras_13a(text) == oracle.tokens(text)
    assert tokenize_tf_split(text) == oracle.tokens(text, oracle.tf_split)


def test_a_final_number_keeps_its_period():
    """What the brief of this convention is about: no padding, and ``[\\.,]$`` does
    nothing under RE2, so ``5.`` ends a line as one token (SacreBLEU's 13a: ``5 .``)."""
    assert oracle.tokens("It costs 5.") == ["It", "costs", "5."]
    assert oracle.tokens("It costs 5. Or 6,") == ["It", "costs", "5", ".", "Or", "6,"]


@pytest.mark.parametrize(("hyps", "refs", "options", "theirs"), [
    # keras_hub/src/metrics/bleu_test.py at 71453d08: test_scalar_input (0.212),
    # test_1d_list_input (0.243), test_different_order (0.188), each within delta=1e-3.
    (["He He He eats sweet apple which is a fruit."],
     [["He eats a sweet apple.", "He is eating a tasty apple, isn't he?"]], {"smooth": True},
     0.212),
    (["He He He eats sweet apple which is a fruit.",
      "I love Silicon Valley, it's one of my favourite shows."],
     [["He eats a sweet apple."], ["Silicon Valley is one of my favourite shows!"]], {}, 0.243),
    (["He He He eats sweet apple which is a fruit.",
      "I love Silicon Valley, it's one of my favourite shows."],
     [["He eats a sweet apple."], ["Silicon Valley is one of my favourite shows!"]],
     {"max_order": 5}, 0.188),
])
def test_keras_hubs_own_expectations(hyps, refs, options, theirs):
    assert score(hyps, refs, NAME, **options).score == pytest.approx(theirs, abs=1e-3)


def engine(hyps, refs, options):
    try:
        return score(hyps, refs, NAME, "corpus", **options).score
    except ConventionError as error:
        return f"raises {error.library_exception}"


def keras(batches, options):
    tokenizer = oracle.tf_split if options.get("tokenize") == "none" else None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's 1/0 and 0/0
            return oracle.corpus_bleu(batches, options["max_order"], options["smooth"],
                                      tokenizer)
    except ValueError:
        return "raises ValueError"


def same(ours, theirs) -> bool:
    if isinstance(ours, str) or isinstance(theirs, str):
        return ours == theirs
    return (math.isnan(ours) and math.isnan(theirs)) or ours.hex() == theirs.hex()


OPTIONS = st.fixed_dictionaries({"max_order": st.sampled_from([4, 4, 1, 2, 3, 5, 0]),
                                 "smooth": st.booleans(),
                                 "tokenize": st.sampled_from(["13a", "13a", "none"])})


@settings(max_examples=80, deadline=None)
@given(data=corpus(min_segments=0, max_segments=5, words=KERAS_WORDS,
                   separators=SEPARATORS + ["\u00a0", "\v"]),
       options=OPTIONS, cuts=st.lists(st.integers(0, 5), max_size=3))
@example(data=([""], [[""]]), options={"max_order": 4, "smooth": True, "tokenize": "13a"},
         cuts=[])
@example(data=([], []), options={"max_order": 4, "smooth": False, "tokenize": "13a"},
         cuts=[])
@example(data=(["a b", ""], [["a b"], [""]]), options={"max_order": 4, "smooth": False,
                                                        "tokenize": "none"}, cuts=[1])
@example(data=(["w"], [[" ".join(["w"] * 800)]]),
         options={"max_order": 1, "smooth": False, "tokenize": "none"}, cuts=[])
def test_the_metric(data, options, cuts):
    """The engine's corpus score is ``Bleu(...)``'s ``result()`` after ``update_state`` on
    the corpus cut into batches, bit for bit as a float32 (or both NaN, or both raise)."""
    hyps, refs = data
    bounds = sorted({0, len(hyps), *(c for c in cuts if c < len(hyps))})
    batches = [(hyps[a:b], refs[a:b]) for a, b in zip(bounds, bounds[1:])] or [([], [])]
    ours, theirs = engine(hyps, refs, options), keras(batches, options)
    assert same(ours, theirs), (hyps, refs, options, bounds, ours, theirs)


# --- the stub of tf.strings.regex_replace against the real RE2 -------------------------------

#: keras-hub's patterns and rewrites, and others that tell RE2's rules from Python's: an
#: empty match after a match, ``$`` before a final line break, ``\\s`` and ``\\v``, a rewrite
#: naming a missing group, ``\\0``, a backslash rewrite, a class range of escapes.
EXTRA_PATTERNS = [("x*", "-"), ("$", "!"), ("a$", "<\\0>"), (r"\s", "_"), (r"(\d)(\d)?", "[\\2]"),
                  ("([a-c])", "\\\\\\1"), ("[.,]", "\\q\\0"), (r"[\w\-]+", "{\\0}")]


def why_no_re2() -> str | None:
    if shutil.which("g++") is None:
        return "g++ is not installed"
    if not Path("/usr/include/re2/re2.h").is_file():
        return "RE2's headers are not installed (Debian: apt-get install libre2-dev)"
    return None


@pytest.fixture(scope="module")
def re2_driver(tmp_path_factory) -> Path:
    why = why_no_re2()
    if why is not None:
        pytest.skip(why)
    binary = tmp_path_factory.mktemp("re2") / "re2_global_replace"
    subprocess.run(["g++", "-std=c++17", "-O1", str(HERE / "re2_global_replace.cc"), "-lre2",
                    "-o", str(binary)], check=True, capture_output=True)
    return binary


def test_the_regex_stub_is_re2(re2_driver):
    """Every keras-hub pattern and a few that tell RE2 from Python, on 300 random strings
    of the characters that matter: the stub's ``GlobalReplace`` is RE2's, byte for byte."""
    bleu = oracle.bleu_module()
    patterns = [*bleu.REPLACE_SUBSTRINGS, *bleu.REGEX_PATTERNS, *EXTRA_PATTERNS]
    rng = random.Random(20260821)
    texts = ["", "5.", "a 5.\n", "x", "axxb"] + [
        "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) for _ in range(300)]
    lines, expected = [], []
    for pattern, rewrite in patterns:
        regex = oracle._compiled(pattern)
        for text in texts:
            lines.append(" ".join("x" + s.encode("utf-8").hex() for s in (pattern, rewrite, text)))
            expected.append(oracle.global_replace(text, regex, rewrite).encode("utf-8").hex())
    done = subprocess.run([str(re2_driver)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    got = done.stdout.splitlines()
    assert len(got) == len(expected)
    wrong = [(lines[i], e, g) for i, (e, g) in enumerate(zip(expected, got)) if e != g]
    assert not wrong, wrong[:5]


# --- identify, and the case family -----------------------------------------------------------

@pytest.fixture(scope="module")
def family():
    return {c.id: c for c in load(None).cases if c.id.startswith("khub-")}


def test_identify_names_keras_hub(family):
    """A number the real metric gave on a raw-text case (recorded in the case family),
    printed to four digits: ``identify`` names keras-hub, which alone keeps a final '5.'
    whole."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    found = identify(from_case(family["khub-final-number-keeps-its-period"]), "0.5475")
    assert NAME in {m["convention"] for m in found["matches"]}


def test_the_case_files_values_come_from_the_tool(family):
    assert len(family) >= 15
    for case in family.values():
        for e in case.expectations:
            assert e.convention == NAME
            assert (e.provenance.library, e.provenance.kind) == ("keras-hub", "computed")


# --- under NumPy 1 (numpy=1) ----------------------------------------------------------------

def numpy1_requests(count: int, seed: int = 7) -> list[dict]:
    """Generated corpora in batches: empty and short segments, one or two references,
    punctuation keras-hub's 13a splits or keeps, every option."""
    rng = random.Random(seed)
    words = ["a", "b", "c", "the", "cat", "5.", "x,", "It", "Hello", "(x)", "é", ""]
    requests = [{"batches": [[["the cat sat on the mat", "a b c"],
                              [["the cat sat on a mat"], ["a b d"]]]],
                 "max_order": 4, "smooth": False, "tokenize": "13a"},
                {"batches": [[[""], [[""]]]], "max_order": 4, "smooth": True,
                 "tokenize": "13a"}]
    while len(requests) < count:
        batches = []
        for _ in range(rng.randint(1, 3)):
            hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
                    for _ in range(rng.randint(0, 3))]
            refs = [[" ".join(w if rng.random() < 0.6 else rng.choice(words)
                              for w in h.split() + ["z"] * rng.randint(0, 2))
                     for _ in range(rng.randint(1, 2))] for h in hyps]
            batches.append([hyps, refs])
        requests.append({"batches": batches, "max_order": rng.choice([4, 4, 1, 2, 3]),
                         "smooth": rng.random() < 0.4, "tokenize": rng.choice(["13a", "none"])})
    return requests


def engine_hex(request: dict, numpy: int) -> dict:
    hyps = [h for hypotheses, _ in request["batches"] for h in hypotheses]
    refs = [r for _, references in request["batches"] for r in references]
    try:
        value = score(hyps, refs, NAME, "corpus", max_order=request["max_order"],
                      smooth=request["smooth"], tokenize=request["tokenize"],
                      numpy=numpy).score
    except ConventionError as error:
        return {"raises": error.library_exception}
    return {"value": "nan" if math.isnan(value) else value.hex()}


@needs_numpy1
def test_under_numpy_1_bit_for_bit():
    """keras-hub's ``Bleu`` run on NumPy 1.26.4 (value-based casting: float64 precisions and
    ratio, the score rounded to float32) gives what the engine gives with ``numpy=1``, bit
    for bit, and not what it gives under NumPy 2 on the first input."""
    requests = numpy1_requests(examples(400, 120))
    driver = Path(__file__).parent / "keras_hub_numpy1_driver.py"
    done = subprocess.run([NUMPY1_PYTHON, str(driver)],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=120, check=True)
    version, *answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert version["numpy"].startswith("1.") and len(answers) == len(requests)
    for request, theirs in zip(requests, answers):
        assert engine_hex(request, 1) == theirs, request
    assert engine_hex(requests[0], 2) != answers[0]
