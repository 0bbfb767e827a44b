"""The fairseq convention against fairseq itself (tests/fairseq_oracle.py): the C ``libbleu``
compiled here and driven by fairseq 0.12.2's own ``Scorer``, ``Dictionary`` and
``fairseq-score``, unmodified. On generated lines -- empty lines, short hypotheses, orders
without a match, the words ``<unk>``, ``<pad>``, ``</s>``, ``<s>`` (in any case, for
``--ignore-case``), Unicode whitespace -- the engine gives the same float bit for bit (or the
same exception), the same ``result_string`` line, the same percent precisions and the same
``bleu_stat`` (lengths, matches and n-gram counts; at sentence level less ``bleu_one_init``'s
seeds), at corpus level and at sentence level (``reset(one_init=True)``), for orders 1-4.

The live backend (``--backend fairseq``): the ``libbleu`` the install built answers as the one
built here; the engine agrees with it on the fairseq cases; a BLEU that lets ``<unk>`` match
fails against it; what fairseq-score cannot read is declined with the reason; an install
that built no ``libbleu`` says so in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fairseq_oracle import (
    build_libbleu,
    load,
    run_fairseq_score,
    run_scorer,
    why_no_compiler,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from runs import CORPUS, TESTS, case_file, checks, cli, one_case, run
from strategies import WORDS
from tiers import examples, exhaustive_only
from torch_python import TORCH_PYTHON
from torch_python import live as torch_live

from bleu_harness.adapters.fairseq_scorer import answer, built_libbleu, why_declined
from bleu_harness.backends import registry
from bleu_harness.backends.fairseq import fairseq_backend
from bleu_harness.bleu import ConventionDeclined, ConventionError, score
from bleu_harness.bleu.tokenizers.fairseq import tokenize_fairseq, tokenize_line
from bleu_harness.report.summary import unready_notes

pytestmark = pytest.mark.skipif(why_no_compiler() is not None,
                                reason=why_no_compiler() or "")

SPECIAL = ["<unk>", "<pad>", "</s>", "<s>", "<UNK>", "</S>", "<Pad>"]
FAIRSEQ_WORDS = ["a", "b", "c", "the", "The", "cat", "a", "b", "é", "Straße", "日本語"]
SEPARATORS = [" ", " ", "  ", "\t", "\x0b", "\x1c", "\u00a0", "\u2028", " \x0c "]


@st.composite
def line(draw, max_words: int = 7) -> str:
    """A line of ``fairseq-score``'s files (no ``\\n`` or ``\\r``: those end a line there)."""
    words = draw(st.lists(st.sampled_from(FAIRSEQ_WORDS * 3 + SPECIAL + WORDS[:6]),
                          max_size=max_words))
    text = draw(st.sampled_from(["", " ", "\t"]))
    for i, word in enumerate(words):
        text += (draw(st.sampled_from(SEPARATORS)) if i else "") + word
    return text + draw(st.sampled_from(["", "", " ", "\u3000"]))


PAIRS = st.lists(st.tuples(line(), line()), min_size=0, max_size=5)
ORDERS = st.sampled_from([4, 4, 1, 2, 3])


@pytest.fixture(scope="module")
def fairseq(tmp_path_factory):
    return load(build_libbleu(tmp_path_factory.mktemp("libbleu")))


def engine(hypotheses, references, level, order, ignore_case):
    try:
        return score(hypotheses, [[r] for r in references], "fairseq", level, order=order,
                     ignore_case=ignore_case)
    except ConventionError as error:
        return f"raises {error.library_exception}"


def assert_same(result, scored, order: int, seeds: tuple[int, ...]) -> None:
    """The engine's result against a ``Scored``: the float's bits, the printed line, the
    percent precisions and the ``bleu_stat`` less the seeds."""
    if isinstance(result, str):
        assert result == scored.score, (result, scored)
        return
    assert float(result.score).hex() == float(scored.score).hex(), (result.score, scored)
    assert result.report == scored.report
    assert result.precisions == tuple(p * 100 for p in scored.precision[:order])
    stat = scored.stat
    assert (result.hyp_len, result.ref_len) == (stat["predlen"], stat["reflen"])
    assert result.counts == tuple(stat[f"match{n}"] - seeds[n - 1] for n in range(1, order + 1))
    assert result.totals == tuple(stat[f"count{n}"] - seeds[n - 1] for n in range(1, order + 1))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(pairs=PAIRS, order=ORDERS, ignore_case=st.booleans())
@example(pairs=[("the cat sat on the mat", "the cat sat on a mat")], order=4, ignore_case=False)
@example(pairs=[], order=4, ignore_case=False)  # no line: brevity() divides by 0
@example(pairs=[("", "")], order=4, ignore_case=False)  # one </s> each: a unigram match
@example(pairs=[("a b", "x y")], order=4, ignore_case=False)  # no match
@example(pairs=[("a b c", "a b c")], order=4, ignore_case=False)  # no 4-gram: 0
@example(pairs=[("a <unk> b", "a <unk> b")], order=2, ignore_case=False)
@example(pairs=[("<pad> a </s> <pad>", "a")], order=1, ignore_case=False)
@example(pairs=[("</s> a", "</s> a </s>")], order=2, ignore_case=False)
@example(pairs=[("<UNK> A", "<unk> a")], order=1, ignore_case=True)
@example(pairs=[("a", "a b c d e f g h")], order=4, ignore_case=False)  # short: BP
def test_corpus_bit_for_bit(fairseq, pairs, order, ignore_case):
    hypotheses, references = [h for h, _ in pairs], [r for _, r in pairs]
    scored, = run_scorer(fairseq, hypotheses, references, order, ignore_case)
    assert_same(engine(hypotheses, references, "corpus", order, ignore_case), scored, order,
                (0, 0, 0, 0))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=st.tuples(line(), line()), order=ORDERS, ignore_case=st.booleans())
@example(pair=("the cat sat on the mat", "the cat sat on a mat"), order=4, ignore_case=False)
@example(pair=("", ""), order=4, ignore_case=False)  # seeds alone above the unigram
@example(pair=("a b", "x y"), order=4, ignore_case=False)  # no unigram match: 0
@example(pair=("a b", "a b c d"), order=4, ignore_case=False)  # short: 1/1 for 3, 4
@example(pair=("<unk>", "<unk>"), order=4, ignore_case=False)
@example(pair=("c a b", "a b c"), order=3, ignore_case=False)
def test_sentence_bit_for_bit(fairseq, pair, order, ignore_case):
    """``--sentence-bleu``: ``reset(one_init=True)``, then the line."""
    scored, = run_scorer(fairseq, [pair[0]], [pair[1]], order, ignore_case, sentence=True)
    assert_same(engine([pair[0]], [pair[1]], "sentence", order, ignore_case), scored, order,
                (0, 1, 1, 1))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(pairs=st.lists(st.tuples(line(), line()), min_size=1, max_size=4), order=ORDERS,
       ignore_case=st.booleans())
@example(pairs=[("The cat sat on the mat", "the cat sat on a mat")], order=4, ignore_case=True)
def test_fairseq_score_prints_the_report(fairseq, tmp_path, pairs, order, ignore_case):
    """``fairseq-score -s SYS -r REF [-o N] [--ignore-case]`` itself (files, ``cli_main``)
    prints the engine's ``report``."""
    hypotheses, references = [h for h, _ in pairs], [r for _, r in pairs]
    flags = ["-o", str(order)] + (["--ignore-case"] if ignore_case else [])
    printed = run_fairseq_score(fairseq, tmp_path, hypotheses, references, *flags)
    assert printed == score(hypotheses, [[r] for r in references], "fairseq", order=order,
                            ignore_case=ignore_case).report


def test_fairseq_score_sentence_bleu_raises_type_error(fairseq, tmp_path):
    """0.12.2's ``--sentence-bleu`` calls ``Scorer(pad, eos, unk)``, which takes one config
    (facebookresearch/fairseq#5056): the engine's sentence level is the ``Scorer`` API's."""
    assert run_fairseq_score(fairseq, tmp_path, ["a b"], ["a b"],
                             "--sentence-bleu") == "raises TypeError"


def test_every_unk_is_its_own_token():
    hyp, ref = tokenize_fairseq("a <unk> <unk>"), tokenize_fairseq("a <unk> <unk>")
    assert len(set(hyp + ref)) == 5 and hyp[0] == ref[0] == "a"
    assert tokenize_fairseq("") == tokenize_fairseq("<pad> </s> <pad>") == ["</s>"]


@settings(max_examples=examples(200), deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028"
                                                   "\u3000\u200b"))))
def test_tokenize_line_is_fairseqs(fairseq, text):
    assert tokenize_line(text) == fairseq.dictionary.tokenize_line(text)


def test_several_references_are_declined():
    with pytest.raises(ConventionDeclined, match="one reference"):
        score(["a b"], [["a b", "a c"]], "fairseq")


def test_order_is_one_to_four():
    with pytest.raises(ValueError, match="order"):
        score(["a b"], [["a b"]], "fairseq", order=5)


# --- the live backend (--backend fairseq, bleu_harness/backends/fairseq.py) --------------------

FAMILY = str(CORPUS / "families" / "fairseq.yaml")


@pytest.fixture(scope="module")
def installed():
    return built_libbleu()


@settings(max_examples=examples(40), deadline=None)
@given(pairs=st.lists(st.tuples(line(), line()), min_size=1, max_size=4),
       order=st.sampled_from([4, 1, 2, 3]), ignore_case=st.booleans(),
       sentence=st.booleans())
def test_the_installed_libbleu_answers_as_the_fairseq(fairseq, installed, pairs, order,
                                                          ignore_case, sentence):
    hyps, refs = [h for h, _ in pairs[:1 if sentence else None]], [r for _, r in pairs]
    refs = refs[:len(hyps)]
    level = "sentence" if sentence else "corpus"
    theirs = run_scorer(fairseq, hyps, refs, order, ignore_case, sentence)[-1].score
    mine = answer(installed, hyps, [[r] for r in refs], level,
                  {"order": order, "ignore_case": ignore_case})
    assert (mine.hex() if isinstance(mine, float) else mine) == (
        theirs.hex() if isinstance(theirs, float) else theirs.removeprefix("raises "))


def test_the_engine_agrees_with_the_live_scorer_on_its_cases():
    result, _ = run(paths=(FAMILY,), backends=("own", "fairseq"), divergence_map=False)
    assert result.exit_code == 0
    assert {r.other for r in checks(result, "differential", "pass")} == {"fairseq"}
    assert {r.backend for r in checks(result, "drift", "pass")} == {"fairseq"}
    assert not checks(result, "drift", "fail") and not checks(result, "differential", "fail")


def test_a_bleu_that_lets_unk_match_fails_against_the_scorer(monkeypatch, tmp_path, installed):
    """The value comes from fairseq's own scorer: a reference ``<unk>`` never matches."""
    hyps, refs = ["the <unk> sat on the mat"], [["the <unk> sat on the mat"]]
    value = answer(installed, hyps, refs, "sentence", {"order": 4, "ignore_case": False})
    assert value < 100
    path = case_file(tmp_path, "unk.yaml", one_case(
        "unk-never-matches", hyp=hyps[0], refs=f"['{refs[0][0]}']",
        expect=f"{{convention: fairseq, value: '{value!r}', provenance: {{kind: computed, "
               "source: fairseq.scoring.bleu.Scorer, library: fairseq, version: 0.12.2}}"))
    monkeypatch.chdir(TESTS)  # --implementation imports the miniatures here
    result, _ = run(paths=(str(path),), implementation="miniatures:fairseq_matching_unk",
                    claims="fairseq", backends=("fairseq",), divergence_map=False)
    assert result.exit_code == 1
    [failed] = checks(result, "differential", "fail")
    assert failed.other == "fairseq"
    assert checks(result, "expectation", "fail")


def test_what_fairseq_score_cannot_read_is_declined_with_the_reason():
    assert "one reference" in why_declined("corpus", ["a", "b"], [["a"], ["b", "c"]])
    assert "one reference" in why_declined("corpus", ["a"], [[]])
    assert why_declined("corpus", ["a"], [["a"]]) == ""
    assert "only the fairseq convention" in fairseq_backend().decline(
        type("R", (), {"convention": "nltk"})())


@pytest.fixture
def without_libbleu(tmp_path):
    """An interpreter on which the install's ``libbleu`` cannot be imported."""
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c 'import sys; "
        "sys.modules[\"bleu_harness.adapters.libbleu\"] = None; "
        "from bleu_harness.worker import main; sys.exit(main([\"fairseq\"]))'\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def test_an_install_without_libbleu_is_named_in_the_header(monkeypatch, without_libbleu):
    monkeypatch.setitem(registry.REFERENCE_BACKENDS, "fairseq",
                        lambda python=None: fairseq_backend(without_libbleu))
    result, _ = run(paths=(FAMILY,), select="fsq-basic", backends=("own", "fairseq"),
                    divergence_map=False)
    [fairseq] = [b for b in result.header.backends if b.name == "fairseq"]
    assert not fairseq.ready and "libbleu was not built" in fairseq.note
    assert result.exit_code == 0 and not checks(result, "differential")
    assert any("libbleu was not built" in note for note in unready_notes(result.header.backends))


@exhaustive_only
def test_asking_for_it_on_an_interpreter_without_libbleu_stops_the_run(without_libbleu):
    done = cli("run", "--backend", "fairseq", "--library-python", f"fairseq={without_libbleu}",
               FAMILY)
    assert done.code == 2
    [message] = [line for line in done.err.splitlines() if line.strip()]
    assert "libbleu was not built" in message


# --- libbleu's hash: n-grams of different ids that fairseq counts as one ---------------------

#: The words ``w4``..``w250`` take the ids 4-250 (a new dictionary's next ids), and fairseq's
#: bigrams of ids (126, 250) and (128, 4) have one ``bleu_hash`` (found by a search).
FILLER = " ".join(f"w{i}" for i in range(4, 251))


def test_a_hash_collision_counts_as_a_match(fairseq):
    """Within one line (a sentence: a file of one line) and across two lines of a corpus,
    whose dictionary carries the ids from the first to the second: libbleu matches the
    reference bigram ``w126 w250`` with the hypothesis bigram ``w128 w4``, and so does the
    engine."""
    corpus = ([FILLER, "w128 w4"], ["w0", "w126 w250"])
    sentence = ([f"{FILLER} w128 w4"], ["w126 w250"])
    for (hyps, refs), level in ((corpus, "corpus"), (sentence, "sentence")):
        [scored] = run_scorer(fairseq, hyps, refs, sentence=level == "sentence")[-1:]
        mine = score(hyps, [[r] for r in refs], "fairseq", level)
        assert (mine.counts[1], mine.totals[1]) == (
            scored.stat["match2"] - (level == "sentence"),
            scored.stat["count2"] - (level == "sentence")), level
        assert mine.counts[1] >= 1 and "w126 w250" not in " ".join(hyps)  # no equal bigram
        assert mine.score.hex() == scored.score.hex()


def test_chunks_carry_the_dictionary(fairseq):
    """Counted in chunks of one line (``score --jobs``), the ids go on from chunk to chunk."""
    from bleu_harness.bleu.conventions import get_convention
    from bleu_harness.bleu.shard import chunked, count_chunks, count_on_dask

    convention = get_convention("fairseq")
    key = convention.preprocessing(convention.resolve("corpus", {}))
    pairs = list(zip([FILLER, "w128 w4"], [["w0"], ["w126 w250"]]))
    whole = count_chunks(chunked(pairs), {key: 4})[key]
    assert count_chunks(chunked(pairs, 1), {key: 4}, jobs=2)[key] == whole
    assert whole.matches[1] == run_scorer(fairseq, *zip(*[(h, r[0]) for h, r in pairs])
                                          )[0].stat["match2"]
    with pytest.raises(ValueError, match="every earlier segment"):
        count_on_dask(None, chunked(pairs), {key: 4})


# --- the torch stub against torch -------------------------------------------------------------

#: Run by the torch interpreter: each line's ``bleu_stat`` through fairseq's ``Scorer`` with
#: the stub and with torch's own ``IntTensor`` (``load(..., real_torch=True)``).
STUB_AGAINST_TORCH = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bleu_harness.adapters.fairseq_scorer import load, run_scorer
hyps, refs = json.load(sys.stdin)
print(json.dumps([[s.stat for s in run_scorer(load(sys.argv[2], real_torch=real), hyps, refs,
                                              sentence=True)] for real in (False, True)]))
"""


@torch_live("torch")
def test_the_torch_stub_counts_as_torch_does(tmp_path):
    """The stub stands in for ``torch.IntTensor`` in ``encode_line`` and ``Scorer.add``: with
    torch's own, every line's statistics are the same (``<unk>``, ``<pad>``, ``</s>`` words
    included, which ``Scorer.add`` masks and ``libbleu`` trims)."""
    libbleu = build_libbleu(tmp_path)
    hyps = ["the cat sat on the mat", "<unk> a <unk> b", "", "<pad> a b </s>", "a b c d e f"]
    refs = ["the cat sat on a mat", "<unk> a <unk> b", "x", "a b", "f e d c b a"]
    done = subprocess.run([TORCH_PYTHON, "-c", STUB_AGAINST_TORCH, str(TESTS.parent),
                           str(libbleu)], input=json.dumps([hyps, refs]), capture_output=True,
                          text=True, timeout=120, check=True)
    stub, torch = json.loads(done.stdout)
    assert stub == torch and len(stub) == len(hyps)
