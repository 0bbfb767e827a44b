"""Your own tokenizer: ``score(..., tokenize=callable)`` for the conventions that take one
(Hugging Face's ``bleu`` takes ``tokenizer=``; its README uses ``nltk.word_tokenize``), and
``--tokenizer MODULE:CALLABLE`` on the command line."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path

import pytest
import sacrebleu
from nltk.tokenize import wordpunct_tokenize
from tiers import sampled

from bleu_harness.bleu import score
from bleu_harness.cli import main

CORPUS = Path(__file__).parents[1] / "cases"

ORACLES = Path(__file__).parent / "oracles"


def words(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text)


def compute_bleu():
    spec = importlib.util.spec_from_file_location("tfnmt_bleu", ORACLES / "tfnmt" / "bleu.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.compute_bleu


TEXTS = ["the cat sat.", "hello, world!", "it's 3.5 km", "Don't stop", "a-b c", "", "x y z w"]


def test_tf_nmt_with_a_callable_is_hugging_faces_bleu_with_tokenizer():
    """evaluate's bleu: references and predictions through tokenizer=, then compute_bleu
    (tensorflow/nmt, vendored): the same float."""
    oracle = compute_bleu()
    rng = random.Random(3)
    for tokenizer in (wordpunct_tokenize, words, str.split):
        for _ in range(50):
            hyps = [rng.choice(TEXTS) for _ in range(3)]
            refs = [[rng.choice(TEXTS), rng.choice(TEXTS)] for _ in range(3)]
            try:
                expected = oracle([[tokenizer(r) for r in rs] for rs in refs],
                                  [tokenizer(h) for h in hyps])[0]
            except ZeroDivisionError:
                continue
            assert score(hyps, refs, "tf-nmt", tokenize=tokenizer).score == expected


def test_sacrebleu_with_a_callable_is_sacrebleu_on_the_tokens():
    rng = random.Random(4)
    for _ in range(50):
        hyps = [rng.choice(TEXTS) for _ in range(3)]
        refs = [[rng.choice(TEXTS)] for _ in range(3)]
        joined = [" ".join(words(h)) for h in hyps], [[" ".join(words(r)) for r in rs]
                                                      for rs in refs]
        theirs = sacrebleu.corpus_bleu(joined[0], [[rs[0] for rs in joined[1]]],
                                       tokenize="none")
        assert score(hyps, refs, "sacrebleu", tokenize=words).score == theirs.score


def test_the_signature_names_the_tokenizer():
    assert "tokenizer:test_custom_tokenizer:words" in score(["a"], [["a"]], "tf-nmt",
                                                       tokenize=words).signature


def test_a_convention_without_a_tokenize_option_refuses_it():
    with pytest.raises(ValueError, match="unknown option 'tokenize'"):
        score(["a"], [["a"]], "nltk", tokenize=words)


@pytest.fixture
def files(tmp_path, monkeypatch):
    (tmp_path / "hyp").write_text("the cat sat.\nhello, world!\n", encoding="utf-8")
    (tmp_path / "ref").write_text("the cat sat .\nhello world !\n", encoding="utf-8")
    (tmp_path / "mytok.py").write_text(
        "import re\ndef words(text):\n    return re.findall(r'\\w+|[^\\w\\s]', text)\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_score_with_your_tokenizer(files, capsys):
    assert main(["score", "hyp", "ref", "--tokenizer", "mytok:words", "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["convention"] for r in results] == ["sacrebleu", "tf-nmt", "t2t", "tf-models",
                                                        "keras-hub", "pycocoevalcap"]
    assert results[1]["score"] == score(["the cat sat.", "hello, world!"],
                                        [["the cat sat ."], ["hello world !"]], "tf-nmt",
                                        tokenize=words).score
    assert results[1]["options"]["tokenize"] == "mytok:words"


@pytest.mark.parametrize(("argv", "message"), [
    (["--tokenizer", "mytok:nope"], "cannot load 'mytok:nope'"),
    (["--tokenizer", "nomodule:f"], "cannot load 'nomodule:f'"),
    (["--tokenizer", "words"], "MODULE:CALLABLE"),
    (["--tokenizer", "mytok:words", "-c", "nltk"], "nltk takes no tokenizer"),
])
def test_score_tokenizer_mistakes_are_named(files, capsys, argv, message):
    try:
        code = main(["score", "hyp", "ref", *argv])
    except SystemExit as done:  # argparse's own error exit
        code = done.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_identify_with_your_tokenizer(files, capsys):
    expected = score(["the cat sat.", "hello, world!"], [["the cat sat ."], ["hello world !"]],
                     "tf-nmt", tokenize=words).score
    code = main(["identify", "hyp", "ref", "--tokenizer", "mytok:words", "--score",
                 f"{expected:.4f}", "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert code == 0 and any(m["convention"] == "tf-nmt" for m in found["matches"])
    assert all(m["convention"] in ("sacrebleu", "tf-nmt", "t2t", "tf-models", "keras-hub",
                                   "pycocoevalcap")
               for m in found["matches"])


def test_explain_names_your_tokenizer(files, capsys):
    assert main(["explain", "--hyp", "the cat sat.", "--ref", "the cat sat .", "--tokenizer",
                 "mytok:words"]) == 0
    out = capsys.readouterr().out
    assert "mytok:words tokens: hypothesis length 4" in out and "<function" not in out


# --- run --tokenizer -------------------------------------------------------------------------

TOKENIZERS_MODULE = '''
import re

def words(text):
    return re.findall(r"\\w+|[^\\w\\s]", text)

def no_cats(text):
    if "cat" in text:
        raise RuntimeError("no cats")
    return text.split()

def with_space(text):
    return [text]

def hangs_on_cats(text):
    if "cat" in text:
        import time
        time.sleep(60)
    return text.split()

def _probe(text):
    return text.startswith("A tokenizer, tried once")

def an_int(text):
    return 7

def nested(text):
    answer = "a"
    for _ in range(100_000):
        answer = [answer]
    return [answer]

def a_set(text):
    return set(text.split())

def numbers_later(text):
    return text.split() if _probe(text) else [1, 2]

def nested_later(text):
    return text.split() if _probe(text) else nested(text)

def none_later(text):
    return text.split() if _probe(text) else None

def words_then_a_generator(text):
    return text.split() if _probe(text) else iter(text.split())
'''

#: Tokenizers whose answer is no list of tokens (issue 41.9: score, explain and run crashed
#: on an int or a list nested 100,000 deep), on the probe or only on the files' text.
NO_TOKENS = ["usertok:an_int", "usertok:numbers_later", "usertok:nested", "usertok:nested_later",
             "usertok:a_set", "usertok:none_later",
             "usertok:words_then_a_generator"]


@pytest.fixture
def user_tokenizers(tmp_path, monkeypatch):
    (tmp_path / "usertok.py").write_text(TOKENIZERS_MODULE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))


def _run_records(tmp_path, *flags) -> tuple[int, list[dict]]:
    from bleu_harness.cli import main

    out = tmp_path / "run.json"
    code = main(["run", str(CORPUS / "families" / "tokenization.yaml"), "--backend", "own",
                 "--backend", "nltk", "--backend", "sacrebleu", "--format", "json", "--output",
                 str(out), "-q", "--no-map", *flags])  # the map is no tokenizer's
    return code, [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_run_scores_the_corpus_in_the_users_tokens(tmp_path, user_tokenizers):
    code, lines = _run_records(tmp_path, "--tokenizer", "usertok:words")
    checks = [line for line in lines if line.get("type") == "check"]
    assert code == 0
    recorded = [c for c in checks if c["check"] in ("expectation", "drift")]
    assert recorded and all(c["verdict"] == "skipped" and "--tokenizer usertok:words"
                            in c["message"] for c in recorded)
    differential = [c for c in checks if c["check"] == "differential"]
    assert differential and all(c["verdict"] == "pass" for c in differential)
    # the libraries were asked on the user's tokens: SacreBLEU with tokenize=none
    assert all(c["options"].get("tokenize", "none") == "none" for c in differential
               if c["convention"] == "sacrebleu")


def test_a_users_tokens_are_what_the_engine_scores():
    from bleu_harness.cases.loader import load
    from bleu_harness.cases.retokenize import retokenize

    case = next(c for c in load([str(CORPUS / "families" / "tokenization.yaml")]).cases
                if any("," in s.hyp or "." in s.hyp for s in c.segments))
    [done], problems = retokenize([case], lambda text: text.replace(",", " , ").split(), "t")
    assert not problems and done.tokenizer is None and done.retokenized_by == "t"
    assert done.hypotheses == [" ".join(h.replace(",", " , ").split()) for h in case.hypotheses]


@pytest.mark.parametrize("name, message", sampled([
    ("usertok:hangs_on_cats", "took longer than 0.3 s"),
    ("usertok:no_cats", "raised RuntimeError: no cats"),
    ("usertok:with_space", "must be a non-empty string without whitespace"),
]))
def test_a_tokenizer_that_fails_on_a_case_names_it_and_the_rest_run(tmp_path, user_tokenizers,
                                                                   name, message):
    """A tokenizer that hangs is stopped after --timeout on one text (it ran in-process with
    no limit: the whole run hung)."""
    code, lines = _run_records(tmp_path, "--tokenizer", name, "--timeout", "0.3")
    problems = [line for line in lines if line.get("type") == "problem"]
    assert code == 2 and problems and all(message in p["message"] for p in problems)
    assert all(p["case"] for p in problems)
    if name != "usertok:with_space":
        assert any(line.get("type") == "check" for line in lines)  # cats aside, cases ran


def test_a_tokenizer_that_fails_at_once_is_one_line_before_anything_runs(tmp_path,
                                                                         user_tokenizers,
                                                                         capsys):
    """A new user's --tokenizer that raised on every text printed a 40-line traceback under
    score, and under run turned every case into a case-file problem (NLTK's word_tokenize
    without its punkt_tab data: LookupError). It is tried once first: one line, exit 2."""
    from bleu_harness.cli import main

    (tmp_path / "failingtok.py").write_text(  # a module of its own: usertok is imported
        "def always(text):\n    raise LookupError('\\n****\\n"
        "  Resource punkt_tab not found.\\n****')\n", encoding="utf-8")
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_text("the cat sat\nzzz\n", encoding="utf-8")
    ref.write_text("the cat sat\nzzz\n", encoding="utf-8")
    for command in (["score", str(hyp), str(ref), "-c", "sacrebleu"], ["run"]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--tokenizer", "failingtok:always"])
        assert stop.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert err.endswith("LookupError: Resource punkt_tab not found.")
    # failing on some text only: score says so in one line, with the text
    assert main(["score", str(hyp), str(ref), "-c", "sacrebleu", "--tokenizer",
                 "usertok:no_cats"]) == 2
    assert capsys.readouterr().err.strip() == (
        "bleu-harness score: error: --tokenizer usertok:no_cats fails on 'the cat sat': "
        "RuntimeError: no cats")


def test_identify_searches_every_setting_in_the_users_tokens(tmp_path, monkeypatch, capsys):
    """identify --tokenizer MODULE:CALLABLE kept each searched setting's own tokenize (13a,
    intl, none...), so it matched numbers the user's tokens never give, and named none."""
    import json

    from bleu_harness.cli import main

    (tmp_path / "firsttwo.py").write_text("def first2(text):\n    return text.split()[:2]\n",
                                          encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref.write_text("the cat lay on a mat\n", encoding="utf-8")
    assert main(["identify", str(hyp), str(ref), "--tokenizer", "firsttwo:first2",
                 "--score", "100", "--format", "json"]) == 0
    matches = json.loads(capsys.readouterr().out)["matches"]
    assert matches and all(m["options"]["tokenize"] == "firsttwo:first2" for m in matches)
    assert main(["identify", str(hyp), str(ref), "--tokenizer", "firsttwo:first2",
                 "--score", "100"]) == 0
    assert "tokenize: firsttwo:first2" in capsys.readouterr().out


@pytest.mark.parametrize("command", [
    ["score", "hyp.txt", "ref.txt", "-c", "sacrebleu"],
    ["score", "hyp.txt", "ref.txt", "-c", "sacrebleu", "--sentence"],
    ["explain", "--hyp", "the cat", "--ref", "the cat", "-c", "sacrebleu", "-c", "tf-nmt"],
    ["identify", "hyp.txt", "ref.txt", "--score", "10"],
    ["run", str(CORPUS / "families" / "tokenization.yaml"), "--backend", "own", "-q", "--no-map"],
], ids=["score", "score-sentence", "explain", "identify", "run"])
@pytest.mark.parametrize("tokenizer", sampled(NO_TOKENS, quick=3, one_argument=True))
def test_a_tokenizer_that_answers_no_tokens_is_one_line(tmp_path, capsys, user_tokenizers,
                                                        command, tokenizer):
    """One rule for a tokenizer's answer (``tokens_problem``), in every command: exit 2 and
    one line naming the tokenizer and what it returned, never a traceback."""
    from bleu_harness.cli import main

    for name in ("hyp.txt", "ref.txt"):
        (tmp_path / name).write_text("the cat sat\non the mat\n", encoding="utf-8")
    try:
        code = main([*command, "--tokenizer", tokenizer])
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    said = (err + out).strip().splitlines()
    assert "Traceback" not in err and tokenizer in "\n".join(said), said
    assert any("not a list of tokens" in line or "a token is a string" in line
               for line in said), said


def test_score_jobs_takes_the_users_tokenizer(tmp_path, capsys, user_tokenizers):
    """``score --jobs 2 --tokenizer MODULE:CALLABLE`` failed to pickle the guarded callable
    for its workers: the same table as one process."""
    from bleu_harness.cli import main

    lines = "".join(f"the cat sat on mat {i}\n" for i in range(12_000))
    for name in ("hyp.txt", "ref.txt"):
        (tmp_path / name).write_text(lines, encoding="utf-8")
    shown = []
    for jobs in ("1", "2"):
        assert main(["score", "hyp.txt", "ref.txt", "-c", "sacrebleu", "--tokenizer",
                     "usertok:words", "--jobs", jobs, "--format", "json"]) == 0
        shown.append(json.loads(capsys.readouterr().out))
    assert shown[0] == shown[1]
