"""The Perl scripts as live backends (``--backend multi-bleu-perl``, ``--backend mteval-perl``,
``bleu_harness/backends/perl.py``): the engine agrees with the real scripts on their recorded
cases, a BLEU that ignores ``-lc`` fails against ``multi-bleu.perl`` with the cause named,
what the scripts cannot be given is declined with the reason, and a default run does not
start them."""

from __future__ import annotations

import pytest
from needs import needs_perl_scripts
from runs import CORPUS, TESTS, case_file, checks, one_case, run
from tiers import sampled

from bleu_harness.adapters.perl_answers import answer, died, why_declined
from bleu_harness.adapters.perl_scripts import ScriptDied
from bleu_harness.backends.registry import ON_REQUEST, reference_backends
from bleu_harness.bleu import ConventionError, score
from bleu_harness.report.summary import unready_notes

PERL = ("own", "multi-bleu-perl", "mteval-perl")
ORACLES = CORPUS / "oracles"


#: The cases the quick tier asks the scripts (a process a request); the exhaustive tier asks
#: every case of the scripts' files.
QUICK_CASES = "perl-m*-00[-0-2]*"


@needs_perl_scripts("multi-bleu.perl", "mteval-v13a.pl", "mteval-v12.pl")
@pytest.mark.parametrize("select", sampled([QUICK_CASES, None], one_argument=True))
def test_the_engine_agrees_with_the_live_scripts_on_their_cases(select):
    result, _ = run(paths=(str(ORACLES / "multi-bleu.yaml"), str(ORACLES / "mteval-v13a.yaml"),
                           str(ORACLES / "mteval-v12.yaml")),
                    select=select, backends=PERL, divergence_map=False)
    assert result.exit_code == 0
    asked = {r.other for r in checks(result, "differential", "pass")}
    assert asked == {"multi-bleu-perl", "mteval-perl"}
    drift = checks(result, "drift", "pass")
    assert {r.backend for r in drift} == {"multi-bleu-perl", "mteval-perl"}


@needs_perl_scripts("multi-bleu.perl")
def test_a_bleu_that_ignores_lc_fails_against_the_script(monkeypatch, tmp_path):
    """A case whose words differ only in case, its -lc value from the script itself: the
    implementation that ignores -lc fails the expectation and the live script alike."""
    hyps, refs = ["The Cat sat on The Mat"], [["the cat sat on the mat"]]
    value = answer("multi-bleu", "corpus", hyps, refs, {"lc": True})
    path = case_file(tmp_path, "lc.yaml", one_case(
        "lc-folds-case", hyp=hyps[0], refs=f"[{refs[0][0]}]",
        expect=f"{{convention: multi-bleu, options: {{lc: true}}, value: '{value!r}', "
               "provenance: {kind: computed, source: multi-bleu.perl -lc, library: perl, "
               "version: '5'}}"))
    monkeypatch.chdir(TESTS)  # --implementation imports the miniatures here
    result, _ = run(paths=(str(path),), implementation="miniatures:multi_bleu_ignoring_lc",
                    claims="multi-bleu", backends=("multi-bleu-perl",), divergence_map=False)
    assert result.exit_code == 1
    [failed] = checks(result, "differential", "fail")
    assert failed.other == "multi-bleu-perl" and failed.options.get("lc") is True
    assert checks(result, "expectation", "fail")


@needs_perl_scripts("multi-bleu.perl")
def test_what_multi_bleu_cannot_read_is_declined_with_the_reason():
    assert "line break" in why_declined("multi-bleu", ["a\nb"], [["a b"]], {})
    assert "fewer references" in why_declined("multi-bleu", ["a", "b"], [["a"], ["b", "c"]],
                                               {})


@needs_perl_scripts("mteval-v13a.pl")
def test_what_mteval_cannot_read_is_declined_with_the_reason():
    assert why_declined("mteval-v13a", ["a\nb"], [["a b"]], {}) == ""  # SGML holds them
    assert "same number" in why_declined("mteval-v13a", ["a", "b"], [["a"], ["b", "c"]], {})
    assert "without references" in why_declined("mteval-v13a", ["a"], [[]], {})


def test_a_script_that_cannot_run_here_is_declined_with_what_to_install(monkeypatch):
    """A machine without Perl's XML::Twig (or without Perl) declines every mteval request
    with the reason and the package to install, as the tests that need it skip with it."""
    from bleu_harness.adapters import perl_answers

    assert "only" in why_declined("nltk", ["a"], [["a"]], {})
    assert "script" in why_declined("multi-bleu", ["a"], [["a"]], {"script": "nosuch"})
    monkeypatch.setattr(perl_answers, "why_unavailable",
                        lambda script: "Perl's XML::Twig is missing (Debian: apt-get install "
                                       "libxml-twig-perl)")
    reason = why_declined("mteval-v13a", ["a"], [["a"]], {})
    assert "XML::Twig" in reason and "libxml-twig-perl" in reason


def test_a_missing_scripts_folder_is_said_once_in_the_header(monkeypatch, tmp_path):
    monkeypatch.setenv("BLEU_HARNESS_MOSES_SCRIPTS", str(tmp_path))
    reason = why_declined("multi-bleu", ["a b"], [["a b"]], {})
    assert "multi-bleu.perl cannot run here" in reason and "BLEU_HARNESS_MOSES_SCRIPTS" in reason
    result, _ = run(paths=(str(ORACLES / "multi-bleu.yaml"),), select="perl-multi-bleu-000",
                    backends=("own", "multi-bleu-perl"), divergence_map=False)
    [perl] = [b for b in result.header.backends if b.name == "multi-bleu-perl"]
    assert not perl.ready and "multi-bleu.perl does not exist" in perl.note
    assert result.exit_code == 0 and not checks(result, "differential")
    assert any("multi-bleu.perl does not exist" in note
               for note in unready_notes(result.header.backends))


@needs_perl_scripts("multi-bleu.perl")
def test_a_death_is_named_as_the_engine_names_it():
    with pytest.raises(ScriptDied) as dying:
        answer("multi-bleu", "corpus", ["a b c"], [[]], {"script": "moses"})
    with pytest.raises(ConventionError) as raised:
        score(["a b c"], [[]], "multi-bleu")
    assert died(dying.value) == raised.value.library_exception


def test_a_default_run_starts_no_script():
    started = {b.name for b in reference_backends([], {})}
    assert started and not started & set(ON_REQUEST)
    assert {b.name for b in reference_backends(["mteval-perl"], {})} == {"mteval-perl"}
