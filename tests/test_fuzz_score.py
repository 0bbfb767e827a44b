"""``score``, ``identify`` and ``explain`` fuzzed with what a user's files and flags can hold:
bytes that are not UTF-8, NUL, lone ``\\r``, Unicode separators, empty and unequal files,
SGML fragments, option assignments of every shape. Each call ends with exit 0, 1 (identify:
no match) or 2 and a one-line error; nothing else escapes (in-process, so a traceback would
be an exception here)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiers import examples

from bleu_harness.cli import main

FUZZ = settings(max_examples=examples(60, 25), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

PIECES = st.sampled_from([
    b"the cat sat", b"on the mat", b" ", b"\n", b"\r\n", b"\r", b"\x00", b"\xff\xfe",
    "\u2028".encode(), "\u00a0".encode(), b"&amp;", b"@@ ", "\u2581".encode(), b"\t",
    b"<doc docid=\"d\">", b"<seg id=1>", b"</seg>", b"</doc>", "€ 5.".encode(), b"\xe9",
])
FILE = st.lists(PIECES, max_size=30).map(b"".join)
KEYS = st.sampled_from(["weights", "smoothing", "tokenize", "lowercase", "max_ngram_order",
                        "nltk.weights", "sacrebleu.tokenize", "nope", "", "k", "epsilon"])
#: Option values a YAML reader builds into what no option is (issue 41.8: an alias that
#: contains itself was a RecursionError traceback): each one line and exit 2.
HOSTILE_VALUES = ["&a [*a, *a]", "&a {k: *a}", "[&a [*a]]",
                  "!!python/object/apply:os.system [echo]", "!!set {1}", "!!binary aGk=",
                  "2001-12-14", "[.nan, .nan, .nan, .nan]", "[1, .inf]", "-.inf", "{1: 2}",
                  "&a [" + ", ".join(["*a"] * 50) + "]"]
VALUES = st.sampled_from(["[0.5,0.5]", "method1", "13a", "true", "4", "-1", "nan", "1e999",
                          "[[0.5]]", "{a: 1}", "!!set {1}", "[" * 20, "", "null", "'x'",
                          "[0, 0, 0, 1]", "intl", "zh", "char", "spm", *HOSTILE_VALUES])
OPTION = st.builds(lambda k, v: f"{k}={v}", KEYS, VALUES) | st.sampled_from(["x", "=", "=="])
CONVENTION = st.sampled_from(["all", "nltk", "sacrebleu", "mteval-v13a", "t2t", "moses"])


def exit_code(argv: list[str]) -> int:
    """``main``'s exit code; argparse's own usage errors exit (2) from inside it."""
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code)


@FUZZ
@given(hyp=FILE, refs=st.lists(FILE, min_size=1, max_size=2), options=st.lists(OPTION,
       max_size=2), convention=CONVENTION, sentence=st.booleans(), as_json=st.booleans(),
       suffix=st.sampled_from([".txt", ".sgm"]))
def test_score_on_anything_is_a_result_or_one_line(tmp_path, capsys, hyp, refs, options,
                                                   convention, sentence, as_json, suffix):
    paths = []
    for i, data in enumerate([hyp, *refs]):
        path = tmp_path / f"f{i}{suffix}"
        path.write_bytes(data)
        paths.append(str(path))
    argv = ["score", *paths, "-c", convention]
    for option in options:
        argv += ["--option", option]
    argv += ["--sentence"] * sentence + ["--format", "json"] * as_json
    code = exit_code(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("bleu-harness score: error: "), err
    elif as_json:
        json.loads(out)


@FUZZ
@given(hyp=st.text(max_size=40), refs=st.lists(st.text(max_size=40), max_size=3),
       value=st.sampled_from(["23.17", "0.2318", "abc", "nan", "-1", "1e999", "", "100"]))
def test_identify_on_typed_text_is_an_answer_or_one_line(capsys, hyp, refs, value):
    argv = ["identify", f"--hyp={hyp}", f"--score={value}", *(f"--ref={ref}" for ref in refs)]
    code = exit_code(argv)
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), err
    if code == 2:
        assert err.strip().splitlines()[-1].startswith("bleu-harness identify: error:"), err
        assert "Traceback" not in err


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_an_option_value_that_is_no_plain_value_is_one_line(tmp_path, capsys, value):
    """Every option value is read by the case files' safe YAML reader and held to JSON data:
    each member of the class is exit 2 with one line naming the value."""
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    code = exit_code(["score", str(hyp), str(hyp), "-c", "nltk", "--option",
                      f"weights={value}"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("bleu-harness score: error: --option weights:"), err
