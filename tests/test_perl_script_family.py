"""The engine against the rest of the Moses/NIST BLEU scripts, unmodified
(tests/oracles/moses): multi-bleu-detok.perl and the WMT06 multi-bleu.perl (multi-bleu's
``script: detok | wmt06``), mteval-v14.pl, mteval-v11b.pl and mteval-v12.pl (mteval's
``script: v14 | v11b | v12``), on generated inputs (tests/perl_inputs.py).

Bit for bit: multi-bleu's scripts and the old mtevals print rounded numbers, so what they
hand to ``printf`` is read at full precision through a tied STDOUT
(``bleu_harness.adapters.perl_printf``) and compared with the engine's floats for equality;
mteval-v14 writes ``--metricsMATR`` score files as v13a does (Perl's ``%.15g``). Where a
script dies, the engine raises, naming the script's message.

Skipped, with the reason, where Perl or a module a script needs is missing (XML::Twig for
v13a and v14, Sort::Naturally for v14: Debian libxml-twig-perl, libsort-naturally-perl).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from perl_inputs import detok_corpus, mteval_corpus, multi_bleu_corpus, wmt06_corpus
from needs import needs_perl_scripts
from tiers import examples

from bleu_harness.adapters.perl_scripts import (
    ScriptDied,
    multi_bleu_figures,
    old_mteval_scores,
    run_mteval,
    run_multi_bleu,
    run_old_mteval,
    script_path,
)
from bleu_harness.bleu import score
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.conventions.mteval import V13A_VARIANTS
from bleu_harness.bleu.counting import count_in_c, count_in_python
from bleu_harness.bleu.result import ConventionError


def perl_number(value: float) -> str:
    return "%.15g" % value


# --- multi-bleu-detok.perl and the WMT06 multi-bleu.perl ------------------------------------

def assert_line_and_figures(hyps, refs, script: str, file: str, lc: bool = False) -> None:
    """The engine's line is the script's, and every number the line was printed from is the
    engine's float; where the script dies the engine raises with its message."""
    options = {"script": script, "lc": lc}
    try:
        printed = multi_bleu_figures(hyps, refs, lc, file)
    except ScriptDied as died:
        with pytest.raises(ConventionError) as raised:
            score(hyps, refs, "multi-bleu", **options)
        if died.status == 1 and died.stdout.startswith("BLEU = 0, 0/0/0/0"):
            assert raised.value.library_exception == "exit status 1"
        else:
            assert raised.value.library_exception in died.message, (hyps, refs)
        return
    result = score(hyps, refs, "multi-bleu", **options)
    assert result.report == printed.line, (hyps, refs)
    ours = (result.score, *result.precisions, result.bp, result.details["ratio"])
    if script != "wmt06":
        ours += (result.hyp_len, result.ref_len)
    assert ours == printed.figures, (hyps, refs)


@needs_perl_scripts("multi-bleu-detok.perl")
@pytest.mark.parametrize("lc", [False, True])
def test_multi_bleu_detok(lc):
    rng = random.Random(f"multi-bleu-detok {lc}")
    for _ in range(examples(150)):
        assert_line_and_figures(*detok_corpus(rng), "detok", "multi-bleu-detok.perl", lc)


@needs_perl_scripts("multi-bleu-wmt06.perl")
def test_wmt06_multi_bleu():
    rng = random.Random("multi-bleu wmt06")
    for _ in range(examples(200)):
        assert_line_and_figures(*wmt06_corpus(rng), "wmt06", "multi-bleu-wmt06.perl")
    for _ in range(examples(60)):  # short segments: orders without n-grams
        assert_line_and_figures(*multi_bleu_corpus(rng), "wmt06", "multi-bleu-wmt06.perl")


@needs_perl_scripts("multi-bleu.perl")
def test_moses_multi_bleu_figures_are_the_engines_floats():
    """The Moses script's numbers at full precision, beside test_perl_oracle's printed line."""
    rng = random.Random("multi-bleu figures")
    for lc in (False, True):
        for _ in range(examples(60)):
            assert_line_and_figures(*multi_bleu_corpus(rng), "moses", "multi-bleu.perl", lc)


@needs_perl_scripts("multi-bleu-wmt06.perl", "multi-bleu.perl")
def test_wmt06_takes_the_first_listed_reference_on_a_tie_and_splits_references_on_spaces():
    """Hypothesis of 5 words, references of 6 and 4: the WMT06 script keeps the first (r=6,
    BP < 1); the Moses script the shorter (r=4, BP 1). Two spaces make an empty token."""
    hyps, refs = ["a b c d e"], [["a b c d e f", "a b c d"]]
    assert run_multi_bleu(hyps, refs, script="multi-bleu-wmt06.perl").endswith(
        "(BP=0.819, ration=0.833)")
    assert score(hyps, refs, "multi-bleu", script="wmt06").ref_len == 6
    assert score(hyps, refs, "multi-bleu").ref_len == 4
    hyps, refs = ["a b c d e"], [["a  b c d"]]  # tokens a, '', b, c, d: 5
    assert "ration=1.000" in run_multi_bleu(hyps, refs, script="multi-bleu-wmt06.perl")
    assert score(hyps, refs, "multi-bleu", script="wmt06").ref_len == 5


@needs_perl_scripts("multi-bleu-wmt06.perl")
def test_wmt06_dies_on_an_order_without_ngrams():
    with pytest.raises(ScriptDied, match="Illegal division by zero"):
        run_multi_bleu(["a b c"], [["a b c"]], script="multi-bleu-wmt06.perl")
    with pytest.raises(ConventionError, match="divides by zero"):
        score(["a b c"], [["a b c"]], "multi-bleu", script="wmt06")
    with pytest.raises(ScriptDied, match="did not find any reference translations"):
        run_multi_bleu(["a b c d"], [[]], script="multi-bleu-wmt06.perl")


def test_wmt06_has_no_lc():
    with pytest.raises(ValueError, match="no -lc"):
        score(["a"], [["a"]], "multi-bleu", script="wmt06", lc=True)


@needs_perl_scripts("multi-bleu-detok.perl", "multi-bleu-wmt06.perl", "multi-bleu.perl")
@pytest.mark.parametrize(("file", "chops"), [("multi-bleu-detok.perl", True),
                                             ("multi-bleu-wmt06.perl", True),
                                             ("multi-bleu.perl", False)])
def test_chop_loses_the_last_character_of_a_file_without_a_final_line_break(file, chops):
    """``chop`` removes the last character of every line, the line break or not; Moses'
    multi-bleu.perl ``chomp``s since 53da5f4 (2018). The engine scores segments: a caller
    that reads such files gets what the script reads by taking a character off."""
    hyps, refs = ["the cat sat on the mat", "a b c d"], [["the cat sat on a mat"], ["a b c d"]]
    without = run_multi_bleu(hyps, refs, script=file, final_newline=False)
    if chops:
        hyps, refs = hyps[:-1] + [hyps[-1][:-1]], refs[:-1] + [[refs[-1][0][:-1]]]
    assert without == run_multi_bleu(hyps, refs, script=file)


# --- mteval-v14.pl --------------------------------------------------------------------------

@needs_perl_scripts("mteval-v14.pl")
@pytest.mark.parametrize("options", V13A_VARIANTS, ids=lambda o: ",".join(
    k for k, v in sorted(o.items()) if v is True) + f",{o['brevity_penalty']}")
def test_mteval_v14_segment_document_and_system_scores(options):
    """test_perl_oracle's v13a test with mteval-v14.pl: no system line dies."""
    rng = random.Random(f"mteval-v14 {sorted(options.items())}")
    corpora = [mteval_corpus(rng) for _ in range(examples(30))]
    options = {**options, "script": "v14"}
    printed = run_mteval(corpora, options, script="mteval-v14.pl")
    for (hyps, refs), document, segments in zip(corpora, printed.documents, printed.segments):
        for hyp, seg_refs, segment in zip(hyps, refs, segments):
            ours = score([hyp], [seg_refs], "mteval-v13a", "sentence", **options).score
            assert perl_number(ours) == segment, (hyp, seg_refs)
        assert perl_number(score(hyps, refs, "mteval-v13a", **options).score) == document
    everything = ([h for c in corpora for h in c[0]], [r for c in corpora for r in c[1]])
    assert perl_number(score(*everything, "mteval-v13a", **options).score) == printed.system


@needs_perl_scripts("mteval-v14.pl", "mteval-v13a.pl")
@pytest.mark.parametrize(("hyps", "refs"), [([""], [["a b"]]), (["a b"], [[""]])])
def test_mteval_v14_scores_where_v13a_dies(hyps, refs):
    """v13a's system line prints log(BP) and c/r: it dies on an empty output and on an
    empty reference set; v14 prints no such line."""
    with pytest.raises(ScriptDied):
        run_mteval([(hyps, refs)], {})
    with pytest.raises(ConventionError):
        score(hyps, refs, "mteval-v13a")
    printed = run_mteval([(hyps, refs)], {}, script="mteval-v14.pl")
    assert perl_number(score(hyps, refs, "mteval-v13a", script="v14").score) == printed.system


@needs_perl_scripts("mteval-v14.pl", "mteval-v13a.pl")
def test_mteval_v14_international_tokenization_is_v13as_on_sgml_input():
    """v14 no longer joins hyphen + U+2028, but the SGML reader has made U+2028 a space."""
    corpus = (["a\u2028b-\u2028c well-\u2028known"], [["a b - c well - known"]])
    options = {"international_tokenization": True}
    assert run_mteval([corpus], options, script="mteval-v14.pl") == run_mteval([corpus],
                                                                              options)


def _xml(kind: str, segment_id: str, text: str) -> str:
    head = {"src": '<srcset setid="s" srclang="xx">',
            "ref": '<refset setid="s" srclang="xx" trglang="yy" refid="ref">',
            "tst": '<tstset setid="s" srclang="xx" trglang="yy" sysid="sys">'}[kind]
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n{head}\n<doc docid="d">'
            f'\n<seg id="{segment_id}">{text}</seg>\n</doc>\n</{kind}set>\n</mteval>\n')


def _sgml_with_unquoted_segment_id(kind: str) -> str:
    head = {"src": '<srcset setid="s" srclang="xx">',
            "ref": '<refset setid="s" srclang="xx" trglang="yy">',
            "tst": '<tstset setid="s" srclang="xx" trglang="yy">'}[kind]
    system = {"src": "", "ref": ' sysid="ref"', "tst": ' sysid="sys"'}[kind]
    return f'{head}\n<doc docid="d"{system}>\n<seg id=1>a b c</seg>\n</doc>\n</{kind}set>\n'


def _run_files(tmp_path, script: str, suffix: str, files: dict[str, str]) -> None:
    import subprocess
    for kind, content in files.items():
        (tmp_path / f"{kind}{suffix}").write_text(content, encoding="utf-8")
    done = subprocess.run(["perl", str(script_path(script)), "-b", "-r", f"ref{suffix}",
                           "-s", f"src{suffix}", "-t", f"tst{suffix}"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise ScriptDied(done.returncode, done.stderr.strip().splitlines()[-1])


@needs_perl_scripts("mteval-v14.pl", "mteval-v13a.pl")
def test_mteval_v14_reads_segment_id_0_from_xml_and_needs_quoted_sgml_attributes(tmp_path):
    """Facts of the readers, none a score: the engine reads SGML as v13a does."""
    xml = {kind: _xml(kind, "0", "a b c") for kind in ("src", "ref", "tst")}
    with pytest.raises(ScriptDied, match="No segment 'id' attribute value"):
        _run_files(tmp_path, "mteval-v13a.pl", ".xml", xml)
    _run_files(tmp_path, "mteval-v14.pl", ".xml", xml)
    # In SGML reference and test files both die on id 0 ("FATAIL", their spelling).
    sgml_0 = {kind: _sgml_with_unquoted_segment_id(kind).replace("id=1", 'id="0"')
              for kind in ("src", "ref", "tst")}
    for script in ("mteval-v13a.pl", "mteval-v14.pl"):
        with pytest.raises(ScriptDied, match="no tag attribute 'id'"):
            _run_files(tmp_path, script, ".sgm", sgml_0)
    # An unquoted attribute: v13a's "?([^"]*)"? takes the rest of the tag (right only for
    # the last attribute), v14's "([^"]*)" finds none.
    sgml = {kind: _sgml_with_unquoted_segment_id(kind) for kind in ("src", "ref", "tst")}
    _run_files(tmp_path, "mteval-v13a.pl", ".sgm", sgml)
    with pytest.raises(ScriptDied, match="no attribute 'id'"):
        _run_files(tmp_path, "mteval-v14.pl", ".sgm", sgml)


# --- mteval-v11b.pl and mteval-v12.pl -------------------------------------------------------

def _engine(hyps: Sequence[str], refs: Sequence[Sequence[str]], level: str,
            options) -> float | ConventionError:
    try:
        return score(hyps, refs, "mteval-v13a", level, **options).score
    except ConventionError as error:
        return error


def check_old_mteval(corpora, options, file: str) -> int:
    """Runs ``file`` on ``corpora`` (one document each) and walks through what it scores,
    in its order: each document's segments, then the document. Every printed score is the
    engine's float; where the engine raises, the script died right there (with the
    engine's message). After a death the documents not yet scored are run again. Returns
    how many deaths were checked."""
    deaths, remaining = 0, list(corpora)
    while remaining:
        try:
            printed, died = run_old_mteval(remaining, options["preserve_case"], file), None
        except ScriptDied as error:
            printed, died = old_mteval_scores(error.printfs), error
        seen = [value for document in printed.segments for value in document]
        events = 0
        stopped = None
        for d, (hyps, refs) in enumerate(remaining):
            for hyp, seg_refs in zip(hyps, refs):
                ours = _engine([hyp], [seg_refs], "sentence", options)
                if isinstance(ours, ConventionError):
                    stopped = d
                    break
                assert ours == seen[events], (file, hyp, seg_refs)
                events += 1
            if stopped is None:
                ours = _engine(hyps, refs, "corpus", options)
                if isinstance(ours, ConventionError):
                    stopped = d
                else:
                    assert ours == printed.documents[d], (file, hyps, refs)
            if stopped is not None:
                assert died is not None, (file, remaining[d])
                assert ours.library_exception in died.message
                assert len(seen) == events and len(printed.documents) == d
                deaths += 1
                remaining = remaining[d + 1:]
                break
        else:
            assert died is None, died
            everything = ([h for c in remaining for h in c[0]],
                          [r for c in remaining for r in c[1]])
            result = score(*everything, "mteval-v13a", **options)
            assert result.score == printed.system
            assert result.details["individual"] == printed.individual
            assert result.details["cumulative"] == printed.cumulative
            remaining = []
    return deaths


@needs_perl_scripts("mteval-v11b.pl", "mteval-v12.pl")
@pytest.mark.parametrize("script", ["v11b", "v12"])
@pytest.mark.parametrize("preserve_case", [False, True])
def test_old_mteval_segment_document_and_system_scores(script, preserve_case):
    rng = random.Random(f"mteval {script} {preserve_case}")
    corpora = [mteval_corpus(rng) for _ in range(examples(60))]
    options = {"script": script, "preserve_case": preserve_case}
    deaths = check_old_mteval(corpora, options, f"mteval-{script}.pl")
    assert deaths  # the generated inputs do reach the divisions by zero


@needs_perl_scripts("mteval-v11b.pl", "mteval-v13a.pl")
@pytest.mark.parametrize("separator", ["\xa0", "\u2028", "\u3000", "\x85", "\x1f"])
def test_mteval_v11b_splits_on_ascii_whitespace_only(separator):
    """v11b reads bytes: Unicode whitespace stays inside a token (v13a splits there, but
    for U+001F, which no Perl splits at)."""
    corpus = ([f"a{separator}b c d e"], [["a b c d e"]])
    old = run_old_mteval([corpus], script="mteval-v11b.pl")
    assert score(*corpus, "mteval-v13a", script="v11b").score == old.system
    assert score(*corpus, "mteval-v13a", script="v11b").hyp_len == 4
    if separator != "\x1f":
        assert score(*corpus, "mteval-v13a", brevity_penalty="shortest",
                     no_smoothing=True).hyp_len == 5


@needs_perl_scripts("mteval-v12.pl")
def test_mteval_v12_prints_the_length_ratio_line_the_engine_reports():
    corpus = (["the cat sat on the mat", "a b"], [["the cat sat on a mat"], ["a b c"]])
    old = run_old_mteval([corpus], script="mteval-v12.pl")
    line = score(*corpus, "mteval-v13a", script="v12").report.splitlines()[0]
    assert old.stdout.splitlines().count(line) == 2  # the document's and the system's


def test_old_mteval_options_are_fixed():
    with pytest.raises(ValueError, match="no --brevity-penalty"):
        score(["a"], [["a"]], "mteval-v13a", script="v11b", brevity_penalty="closest")
    with pytest.raises(ValueError, match="no --international-tokenization"):
        score(["a"], [["a"]], "mteval-v13a", script="v12", international_tokenization=False)
    with pytest.raises(ValueError, match="no --no-smoothing"):
        score(["a"], [["a"]], "mteval-v13a", script="v12", no_smoothing=False)


# --- the statistics pass ---------------------------------------------------------------------

def test_a_pass_with_a_tokenization_by_role_counts_in_python():
    """The C pass tokenizes both sides alike, so it hands a pass that needs the WMT06 or the
    detok -lc tokenization to Python: the same statistics either way."""
    rng = random.Random("by role")
    keys = {Preprocessing(t): 4 for t in ("multibleu-wmt06", "multibleu-detok-lc", "none",
                                          "mteval-13a", "mteval-11b-lc")}
    for _ in range(examples(100)):
        hyps, refs = wmt06_corpus(rng)
        assert count_in_c(hyps, refs, keys) == count_in_python(hyps, refs, keys)
    stats = count_in_python(["a b"], [["a  b"]], {Preprocessing("multibleu-wmt06"): 2})
    wmt06 = stats[Preprocessing("multibleu-wmt06")]
    assert (wmt06.matches, wmt06.ref_sums[0]) == ((2, 0), 3)  # a, '', b
