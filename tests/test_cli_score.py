"""``bleu-harness score`` as a user runs it: files in, a table or JSON out, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from libraries import nltk_bleu, sacrebleu_bleu

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.cli import main

EXAMPLES = Path(__file__).parents[1] / "bleu_harness" / "data" / "examples"
HYP, REF1, REF2 = (str(EXAMPLES / f) for f in ("hyp.txt", "ref1.txt", "ref2.txt"))


def run_json(capsys, *args: str) -> dict:
    assert main(["score", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def test_corpus_json_matches_the_libraries(capsys):
    document = run_json(capsys, HYP, REF1, REF2)
    results = {r["convention"]: r for r in document["results"]}
    assert set(results) == set(CONVENTIONS)
    hyps = lines(HYP)
    refs = [list(pair) for pair in zip(lines(REF1), lines(REF2))]
    assert results["nltk"]["score"] == nltk_bleu(hyps, refs, "corpus", {})
    assert results["sacrebleu"]["score"] == sacrebleu_bleu(hyps, refs, "corpus", {}).score


def test_options_reach_only_the_conventions_that_have_them(capsys):
    document = run_json(capsys, HYP, REF1, "-c", "nltk", "-c", "sacrebleu",
                        "-o", "smoothing=method1", "-o", "sacrebleu.tokenize=none",
                        "-o", "weights=[0.5, 0.5]")
    nltk, sacre = document["results"]
    refs = [[r] for r in lines(REF1)]
    assert nltk["score"] == nltk_bleu(lines(HYP), refs, "corpus",
                                      {"smoothing": "method1", "weights": (0.5, 0.5)})
    assert sacre["options"]["tokenize"] == "none"
    assert sacre["score"] == sacrebleu_bleu(lines(HYP), refs, "corpus", {"tokenize": "none"}).score


def test_sentence_mode_scores_every_line(capsys):
    document = run_json(capsys, HYP, REF1, REF2, "--sentence", "-c", "sacrebleu")
    assert len(document["segments"]) == len(lines(HYP))
    first = document["segments"][0]["results"][0]
    assert first["score"] == sacrebleu_bleu(lines(HYP)[:1], [[lines(REF1)[0], lines(REF2)[0]]],
                                            "sentence", {}).score


def test_terminal_output_marks_disagreement(capsys):
    assert main(["score", HYP, REF1, REF2]) == 0
    out = capsys.readouterr().out
    assert "conventions disagree" in out and "nltk|ref:closest" in out


@pytest.mark.parametrize("args, message", [
    (["--option", "nope=1"], "unknown option 'nope'"),
    (["--option", "weights"], "expected KEY=VALUE"),
    (["-c", "moses"], "unknown convention 'moses'"),
    (["-c", "sacreblue"], "unknown convention 'sacreblue' (did you mean 'sacrebleu'?"),
    (["-c", "NLTK"], "unknown convention 'NLTK' (did you mean 'nltk'?"),  # case aside
    (["-c", "SacreBLEU"], "unknown convention 'SacreBLEU' (did you mean 'sacrebleu'?"),
    (["--option", "smoothing=method9", "-c", "nltk"], "smoothing"),
])
def test_bad_arguments_are_one_line_errors(capsys, args, message):
    assert main(["score", HYP, REF1, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_line_count_mismatch_and_unreadable_file(tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    assert main(["score", HYP, str(short)]) == 2
    assert "has 1 lines but" in capsys.readouterr().err
    assert main(["score", HYP, str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("caf\xe9\n".encode("latin-1"))
    assert main(["score", str(latin1), str(latin1)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_python_dash_m_and_help():
    done = subprocess.run([sys.executable, "-m", "bleu_harness", "score", "--help"],
                          capture_output=True, text=True, check=True)
    assert "HYP_FILE" in done.stdout and "--option" in done.stdout


def test_a_declining_convention_is_no_disagreement(tmp_path, capsys):
    """T2T cannot take two references: it is shown as declined and left out of the
    agreement, in the table and line by line."""
    (tmp_path / "h").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r1").write_text("the cat is on the mat\n", encoding="utf-8")
    (tmp_path / "r2").write_text("the cat sat on the mat\n", encoding="utf-8")
    files = [str(tmp_path / name) for name in ("h", "r1", "r2")]
    assert main(["score", *files, "-c", "t2t", "-c", "sacrebleu", "-c", "nltk"]) == 0
    out = capsys.readouterr().out
    assert "declined" in out and "the conventions that answer agree" in out
    assert "disagree" not in out and "raises unsupported" not in out
    assert main(["score", *files, "-c", "t2t", "-c", "sacrebleu", "--sentence"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("yes")


def test_one_convention_is_no_agreement(capsys):
    """``score -c sacrebleu`` said "all conventions agree" of the one it was asked for: with
    one convention answering there is nothing to agree or disagree."""
    assert main(["score", HYP, REF1, "-c", "sacrebleu"]) == 0
    out = capsys.readouterr().out
    assert "agree" not in out and "sacrebleu" in out
    assert main(["score", HYP, REF1, "-c", "sacrebleu", "-c", "torchmetrics-sacrebleu"]) == 0
    assert "all conventions agree" in capsys.readouterr().out


def test_the_precisions_column_is_in_percent_for_every_convention(tmp_path, capsys):
    """MultEval reports its precisions as fractions beside a 0-100 score (JBLEU's precisions,
    ``BLEU.java:57-59`` scales the score alone): the table's "precisions %" showed 0.8/0.6/...
    where SacreBLEU's row showed 83.3/60.0/..."""
    (tmp_path / "h").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r").write_text("the cat sat on a mat\n", encoding="utf-8")
    files = [str(tmp_path / "h"), str(tmp_path / "r")]
    assert main(["score", *files, "-c", "multeval", "-c", "sacrebleu", "-c", "nltk"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("│ ") and "precisions" not in line]
    precisions = {row.split("│")[1].strip(): row.split("│")[4].strip() for row in rows}
    assert len(set(precisions.values())) == 1 and len(precisions) == 3, precisions


def test_the_sacrebleu_option_names_the_docs_give_are_those_of_its_bleu_class():
    """docs/tutorials/ci-gate.md says a claimed ``sacrebleu`` implementation receives the
    option names of SacreBLEU's ``BLEU`` class, which its functions do not all take (a user's
    ``sentence_bleu`` wrapper failed on ``effective_order``): held to the live library."""
    import inspect

    import sacrebleu

    from bleu_harness.bleu import CONVENTIONS

    said = {"lowercase", "tokenize", "smooth_method", "smooth_value", "effective_order",
            "max_ngram_order"}
    assert said <= set(CONVENTIONS["sacrebleu"].option_names)
    assert said <= set(inspect.signature(sacrebleu.metrics.BLEU.__init__).parameters)
    functions = set(inspect.signature(sacrebleu.sentence_bleu).parameters)
    assert "effective_order" not in functions and "use_effective_order" in functions
    docs = (Path(__file__).parents[1] / "docs" / "tutorials" / "ci-gate.md").read_text(
        encoding="utf-8")
    assert all(f"`{name}`" in docs for name in said) and "`use_effective_order`" in docs
