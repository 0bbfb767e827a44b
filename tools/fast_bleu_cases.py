"""Record what fast-bleu gives on its quirks, as cases, with NLTK's value beside.

    python tools/fast_bleu_cases.py      # writes cases/families/fast-bleu.yaml

Runs the installed ``fast_bleu.BLEU`` (PyPI fast-bleu 0.0.90, its C++ compiled at install)
on each case's ``str.split()`` tokens, ``BLEU(references, {'w': weights},
smoothing_func=...).get_score([hypothesis])``, and NLTK's ``sentence_bleu`` with the
smoothing fast-bleu follows (method1, or method0), and writes each float as the library
returned it (or the exception's name). Nothing comes from the engine.
"""

from __future__ import annotations

from copy import deepcopy
from importlib.metadata import version
from pathlib import Path

from family_file import with_versions, write_family  # tools/ is on a script's path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "cases" / "families" / "fast-bleu.yaml"

#: The fast-bleu releases that give every recorded fast-bleu value (``versions:``), measured
#: on 2026-11-25: each PyPI release (0.0.6 to 0.0.90, sdists) built here with gcc for Python
#: 3.11 and asked for every fast-bleu expectation by ``bleu-harness run
#: cases/families/fast-bleu.yaml --backend fast-bleu --library-python fast-bleu=PYTHON`` (the
#: drift check: the value bit for bit). 0.0.85 to 0.0.90 give every value. 0.0.6 to 0.0.84
#: could not be run here: they build (0.0.6-0.0.89 only with CFLAGS "-include limits", as
#: their nltk.cpp uses std::numeric_limits without <limits>; 0.0.87 and 0.0.89 also with
#: -Wno-error=range-loop-construct), but ``get_score`` crashes (SIGSEGV): their C++ makes
#: Python objects without the GIL, which ctypes releases; 0.0.85 takes it
#: (Danial-Alh/fast-bleu@18f73379b350 fast_bleu/cpp_sources/sources/fastbleu_module.cpp).
FAST_BLEU_RANGE = {"fast-bleu": ">=0.0.85"}

DOCSTRING_HYP = ("It is a guide to action which ensures that the military always obeys the "
                 "commands of the party")
DOCSTRING_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party",
    "It is the practical guide for the army always to heed the directions of the party"]

#: (id, description, tags, hypothesis, references, [fast-bleu options], NLTK too).
CASES = [
    ("fb-docstring-bigram", "The BLEU docstring's hyp1 against its three references, weights "
     "(1/2, 1/2): it prints 0.7453559924999299 (fast_bleu/__python_wrapper__.py:40-44).",
     ["documented"], DOCSTRING_HYP, DOCSTRING_REFS, [{"weights": [0.5, 0.5]}], True),
    ("fb-docstring-trigram", "The same with weights (1/3, 1/3, 1/3): it prints "
     "0.6240726901657495; each third is the C float 0.3333333432674408.",
     ["documented", "weights"], DOCSTRING_HYP, DOCSTRING_REFS,
     [{"weights": [1 / 3, 1 / 3, 1 / 3]}], True),
    ("fb-default-is-method1", "smoothing_func defaults to 1 (NLTK's method1, epsilon 0.1): "
     "no 4-gram matches, and the score is NLTK method1's but for its last bits (-2 ulps).",
     ["smoothing", "zero-overlap"], "f d i d c d g e", ["f g c c"], [{}, {"smoothing_func": 0}],
     True),
    ("fb-ulps-from-nltk", "Every order matches and weights 1/4 are exact floats: the long "
     "double log sum is still 4 ulps from NLTK's math.fsum.", [],
     "i e d h a d h e c e e h", ["i j b a c e e i f j e"], [{}], True),
    ("fb-method0-underflows", "smoothing_func 0: a zero order counts as log(LDBL_MIN) = "
     "-11355.14, so the score underflows to 0.0 where NLTK's method0 (sys.float_info.min) "
     "gives a tiny float.", ["zero-overlap", "tiny-float"], "a b c d", ["a b c e"],
     [{"smoothing_func": 0}, {}], True),
    ("fb-int-weights-weigh-nothing", "Weights (0, 0, 0, 1) as ints: PyFloat_AS_DOUBLE reads "
     "the int objects as tiny denormals, 0.0 as floats, and the score is the brevity penalty "
     "alone; as floats (0.0, 0.0, 0.0, 1.0) the 4-gram precision counts.",
     ["weights", "short-hypothesis"], "a b c", ["a b c d"],
     [{"weights": [0, 0, 0, 1]}, {"weights": [0.0, 0.0, 0.0, 1.0]}], False),
    ("fb-no-unigram-match", "No word matches: 0.0 before any smoothing.", ["zero-overlap"],
     "p q r s", ["a b c d"], [{}, {"smoothing_func": 0}], True),
    ("fb-empty-hypothesis", "An empty hypothesis: BP 0 and no match, 0.0.",
     ["empty-hypothesis"], "", ["a b c d"], [{}], True),
    ("fb-no-references", "An empty reference set: nothing matches, 0.0 (NLTK raises).",
     ["empty-reference"], "a b c d", [], [{}], False),
    ("fb-length-tie-takes-the-shorter", "References of 5 and 3 words for 4: the shorter (3), "
     "so no brevity penalty.", ["ref-length-tie"], "a b c d", ["a b c d e", "a b c"], [{}],
     True),
    ("fb-nul-ends-a-token", "The C++ reads each token as a C string: 'a\\x00x' is 'a', and the "
     "sentence is identical to its reference.", ["tokenization"], "a\x00x b c", ["a b c"],
     [{"weights": [0.5, 0.5]}], False),
    ("fb-short-hypothesis", "Two words, four orders: the floor of method1 for the empty orders "
     "(1 / (10 * 1)).", ["short-hypothesis", "smoothing"], "a b", ["a b c d"], [{}], True),
    ("fb-auto-reweight-does-nothing", "auto_reweight compares the weights with {0.25, 0, 0, "
     "0}, which no weights summing to 1 equal: unlike NLTK's, it changes nothing.",
     ["effective-order", "short-hypothesis"], "a b", ["a b c d"],
     [{"auto_reweight": True}], True),
    ("fb-one-weight-asserts", "One weight: the wrapper asserts 2 <= min_n.", ["raises"],
     "a b", ["a b"], [{"weights": [1.0]}], False),
    ("fb-weights-must-sum-to-one", "Weights that do not sum to 1 within 1e-15: an "
     "AssertionError (NLTK scores them).", ["raises", "weights"], "a b", ["a b"],
     [{"weights": [0.5, 0.6]}], False),
]


def fast_bleu_value(hypothesis: str, references: list[str], options: dict) -> dict:
    from fast_bleu import BLEU

    weights = tuple(options.get("weights", (0.25, 0.25, 0.25, 0.25)))
    try:
        bleu = BLEU([r.split() for r in references], {"w": weights},
                    smoothing_func=options.get("smoothing_func", 1),
                    auto_reweight=options.get("auto_reweight", False))
    except AssertionError:
        return {"raises": "AssertionError"}
    return {"value": repr(bleu.get_score([hypothesis.split()])["w"][0])}


def nltk_value(hypothesis: str, references: list[str], options: dict) -> tuple[dict, dict]:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method = "method0" if options.get("smoothing_func", 1) == 0 else "method1"
    nltk_options = {"smoothing": method}
    if "weights" in options:
        nltk_options["weights"] = list(options["weights"])
    if options.get("auto_reweight"):
        nltk_options["auto_reweigh"] = True
    value = sentence_bleu([r.split() for r in references], hypothesis.split(),
                          weights=tuple(options.get("weights", (0.25,) * 4)),
                          smoothing_function=getattr(SmoothingFunction(), method),
                          auto_reweigh=options.get("auto_reweight", False))
    return nltk_options, {"value": repr(float(value))}



def main() -> int:
    fast, nltk = version("fast-bleu"), version("nltk")
    cases = []
    for case_id, description, tags, hypothesis, references, option_sets, with_nltk in CASES:
        expect = []
        for options in option_sets:
            expect.append(with_versions({
                "convention": "fast-bleu", **({"options": deepcopy(options)} if options else {}),
                **fast_bleu_value(hypothesis, references, options),
                "provenance": {"kind": "computed", "source": (
                    "fast_bleu.BLEU(references, {'w': weights}, smoothing_func)"
                    ".get_score([hypothesis]) on str.split() tokens"),
                    "library": "fast-bleu", "version": fast}}, FAST_BLEU_RANGE))
            if with_nltk:
                nltk_options, outcome = nltk_value(hypothesis, references, options)
                expect.append({"convention": "nltk", "options": nltk_options, **outcome,
                               "provenance": {"kind": "computed", "source": "sentence_bleu",
                                              "library": "nltk", "version": nltk}})
        cases.append({"id": case_id, "description": description, "tags": tags,
                      "level": "sentence",
                      "segments": [{"hyp": hypothesis, "refs": list(references)}],
                      "expect": expect})
    write_family(OUT, "tools/fast_bleu_cases.py", (
            f"fast-bleu {fast} (fast_bleu.BLEU, C++): NLTK's sentence BLEU against a reference "
            "set, method1 by default, weights held as C floats (an int weight as 0.0), "
            "method0's zero orders as log(LDBL_MIN) (0.0 where NLTK gives a tiny float), a "
            "long double log sum a few ulps from NLTK's, tokens read as C strings, the wrapper's "
            f"assertions. Values from the installed fast-bleu, NLTK {nltk}'s beside, written "
            "by tools/fast_bleu_cases.py."),
                 cases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
