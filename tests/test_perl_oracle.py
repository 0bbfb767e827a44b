"""The engine against the real Perl scripts: Moses multi-bleu.perl and NIST mteval-v13a.pl,
unmodified (tests/oracles/moses, or BLEU_HARNESS_MOSES_SCRIPTS), on generated inputs made of
what the two scripts treat differently from Python: Perl whitespace, U+001C-U+001F, line
breaks inside a segment, final sigma, entities, digits next to ``. , -``, empty lines.

Skipped, with the reason, where Perl or XML::Twig is missing (Debian: libxml-twig-perl).
"""

from __future__ import annotations

import random

import pytest
from perl_inputs import mteval_corpus, multi_bleu_corpus
from needs import needs_perl_scripts
from tiers import examples

from bleu_harness.adapters import perl_scripts
from bleu_harness.adapters.perl_scripts import (
    ScriptDied,
    perl_version,
    run_mteval,
    run_multi_bleu,
)
from bleu_harness.bleu import score
from bleu_harness.bleu.conventions.mteval import V13A_VARIANTS as MTEVAL_VARIANTS
from bleu_harness.bleu.result import ConventionError
from bleu_harness.textfiles import read_parallel


def perl_number(value: float) -> str:
    """How Perl prints a number: ``%.15g``."""
    return "%.15g" % value


@needs_perl_scripts("multi-bleu.perl")
@pytest.mark.parametrize("lc", [False, True])
def test_multi_bleu_engine_prints_the_scripts_line(lc):
    rng = random.Random(f"multi-bleu {lc}")
    for _ in range(examples(120)):
        hyps, refs = multi_bleu_corpus(rng)
        try:
            expected = run_multi_bleu(hyps, refs, lc=lc)
        except ScriptDied as died:  # ref_len 0 (prints a zero line, exit 1), or Perl dies
            with pytest.raises(ConventionError) as raised:
                score(hyps, refs, "multi-bleu", lc=lc)
            if died.status == 1:
                assert died.stdout.startswith("BLEU = 0, 0/0/0/0")
                assert raised.value.library_exception == "exit status 1"
            else:
                assert raised.value.library_exception in died.message
            continue
        result = score(hyps, refs, "multi-bleu", lc=lc)
        assert result.report == expected, (hyps, refs)


@needs_perl_scripts("multi-bleu.perl")
def test_multi_bleu_dies_when_every_reference_file_is_empty():
    with pytest.raises(ScriptDied, match="could not find reference file") as died:
        run_multi_bleu(["a b c"], [[]])
    assert died.value.status == 2
    with pytest.raises(ConventionError, match="could not find reference file"):
        score(["a b c"], [[]], "multi-bleu")


@needs_perl_scripts("mteval-v13a.pl")
@pytest.mark.parametrize("options", MTEVAL_VARIANTS, ids=lambda o: ",".join(
    k for k, v in sorted(o.items()) if v is True) + f",{o['brevity_penalty']}")
def test_mteval_segment_document_and_system_scores(options):
    """One run of the script per option setting: forty generated corpora as documents. Each
    segment score is the engine's sentence level, each document score its corpus level (the
    script prints the system line only, so only the system line can die), the system score
    the corpus level of everything."""
    rng = random.Random(f"mteval {sorted(options.items())}")
    corpora = [mteval_corpus(rng) for _ in range(examples(40))]
    try:
        printed = run_mteval(corpora, options)
    except ScriptDied:
        everything = ([h for c in corpora for h in c[0]], [r for c in corpora for r in c[1]])
        with pytest.raises(ConventionError):
            score(*everything, "mteval-v13a", **options)
        return
    for (hyps, refs), document, segments in zip(corpora, printed.documents, printed.segments):
        for hyp, seg_refs, segment in zip(hyps, refs, segments):
            ours = score([hyp], [seg_refs], "mteval-v13a", "sentence", **options).score
            assert perl_number(ours) == segment, (hyp, seg_refs)
        try:
            ours = score(hyps, refs, "mteval-v13a", **options).score
        except ConventionError:
            continue  # the report line would die; the document score is still printed
        assert perl_number(ours) == document, (hyps, refs)
    everything = ([h for c in corpora for h in c[0]], [r for c in corpora for r in c[1]])
    assert perl_number(score(*everything, "mteval-v13a", **options).score) == printed.system


@needs_perl_scripts("mteval-v13a.pl")
@pytest.mark.parametrize(("hyp", "ref", "options"), [
    ("a\x1fb c d e", "a b c d e", {}),  # U+001F is no Perl whitespace
    ("ΟΔΟΣ ΑΣ x", "οδοσ ασ x", {"international_tokenization": True}),  # lc has no final sigma
    ("well-\nknown fact", "well - known fact", {}),  # the reader makes \n a space first
    ("a\u2028b-\u2028c", "a b - c", {"international_tokenization": True}),
    ("3.5-4 km, e-mail &amp; x", "3.5 - 4 km , e-mail & x", {"preserve_case": True}),
])
def test_mteval_measured_mismatches(hyp, ref, options):
    printed = run_mteval([([hyp], [[ref]])], options)
    assert perl_number(score([hyp], [[ref]], "mteval-v13a", **options).score) == printed.system
    assert perl_number(score([hyp], [[ref]], "mteval-v13a", "sentence", **options).score) == \
        printed.segments[0][0]


@needs_perl_scripts("mteval-v13a.pl")
def test_mteval_scores_a_segment_where_the_system_line_dies():
    """An empty hypothesis: the segment scores 0, the system line takes log(0) and dies."""
    with pytest.raises(ScriptDied, match="Can't take log of 0"):
        run_mteval([([""], [["a b"]])], {})
    with pytest.raises(ConventionError, match="log"):
        score([""], [["a b"]], "mteval-v13a")
    assert score([""], [["a b"]], "mteval-v13a", "sentence").score == 0.0
    printed = run_mteval([(["", "a b"], [["a b"], ["a b"]])], {})
    assert printed.segments[0][0] == "0"


@needs_perl_scripts("multi-bleu.perl")
def test_perl_version_is_recorded():
    assert perl_version().startswith("v5.")


#: Characters Python's ``str.split``/``\s`` and Perl's ``\s`` disagree on, and ones both see
#: as whitespace (mteval reads its SGML as UTF-8 characters).
READER_SPACES = ["\x1c", "\x1d", "\x1e", "\x1f", "\xa0", "\u3000", "\u2028", "\x0b", "\x85",
                 "  ", " ", " ", "\t", "\u200b", "\ufeff"]


@needs_perl_scripts("mteval-v13a.pl")
@pytest.mark.parametrize("options", [{}, {"international_tokenization": True}])
def test_reading_the_sgml_files_gives_what_the_script_reads(tmp_path, options):
    """``score``/``run`` on ``.sgm`` files: the segments the reader takes from the script's
    own input files score what the script prints for them (issue: U+001C-U+001F are no Perl
    whitespace, so the reader must not make them spaces)."""
    rng = random.Random("sgml reader")
    words = ["a", "b", "cat", "the", "mat", ".", "x"]

    def segment() -> str:
        return "".join(rng.choice(words) + rng.choice(READER_SPACES)
                       for _ in range(rng.randint(1, 6))).strip(" ")

    corpora = [([segment() for _ in range(3)], [[segment()] for _ in range(3)])
               for _ in range(examples(40))]
    (tmp_path / "tst.sgm").write_bytes(
        perl_scripts._sgml("tst", [("sys", [hyps for hyps, _ in corpora])]))
    (tmp_path / "ref.sgm").write_bytes(perl_scripts._sgml(
        "ref", [("ref0", [[refs[0] for refs in corpus_refs] for _, corpus_refs in corpora])]))
    hyps, refs = read_parallel(str(tmp_path / "tst.sgm"), [str(tmp_path / "ref.sgm")])
    printed = run_mteval(corpora, options)
    assert perl_number(score(hyps, refs, "mteval-v13a", **options).score) == printed.system
