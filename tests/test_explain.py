"""explain, identify and fingerprint, their answers checked against live NLTK and SacreBLEU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from libraries import nltk_bleu, sacrebleu_bleu
from strategies import corpus
from tiers import examples, exhaustive_only

from bleu_harness.bleu.agreement import same_score
from bleu_harness.cli import main
from bleu_harness.explain.explain import explain
from bleu_harness.explain.inputs import Input, from_text

EXAMPLES = Path(__file__).parents[1] / "bleu_harness" / "data" / "examples"
HYP, REF1, REF2 = (str(EXAMPLES / f) for f in ("hyp.txt", "ref1.txt", "ref2.txt"))


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=corpus(max_segments=1))
def test_attribution_ends_on_the_live_library_score(data):
    """Switching NLTK's knobs toward SacreBLEU's ends on what SacreBLEU itself gives, and
    starts from what NLTK itself gives."""
    hyps, refs = data
    try:
        theirs_nltk = nltk_bleu(hyps, refs, "sentence", {})
        theirs_sacre = sacrebleu_bleu(hyps, refs, "sentence", {"tokenize": "none"}).score / 100
    except Exception:  # noqa: BLE001 - inputs a library refuses have nothing to explain
        return
    document = explain(Input(tuple(hyps), tuple(tuple(r) for r in refs), "sentence"),
                       ["nltk", "sacrebleu"])
    for pair in document["disagreements"]:
        assert pair["score_a"] == theirs_nltk
        assert same_score(pair["score_b"], theirs_sacre)
        if pair["explained"]:
            assert same_score(pair["steps"][-1]["score"], theirs_sacre)


def test_explain_names_the_reference_length_rule(capsys):
    assert main(["explain", "b07-tf-nmt-issue-450", "-c", "nltk", "-c", "tf-nmt"]) == 0
    out = capsys.readouterr().out
    assert "shortest reference length" in out and "Switching it makes them agree" in out


def test_explain_inline_json(capsys):
    assert main(["explain", "--hyp", "you are ready ?", "--ref", "are you ready ?",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    results = {r["convention"]: r for r in document["results"]}
    assert results["nltk"]["score"] == nltk_bleu(["you are ready ?"], [["are you ready ?"]],
                                                 "sentence", {})
    smoothing = [d for d in document["disagreements"] if {d["a"], d["b"]} == {"nltk", "sacrebleu"}]
    assert smoothing and smoothing[0]["knobs"] == ["smoothing"]
    assert "zero-overlap@3" in document["tags"]


def test_explain_rejects_an_unknown_case(capsys):
    assert main(["explain", "no-such-case"]) == 2
    assert "no case 'no-such-case'" in capsys.readouterr().err


def test_identify_finds_the_live_sacrebleu_setting(capsys):
    hyps, refs = lines(HYP), [list(p) for p in zip(lines(REF1), lines(REF2))]
    live = sacrebleu_bleu(hyps, refs, "corpus", {"tokenize": "intl", "lowercase": True}).score
    assert main(["identify", HYP, REF1, REF2, "--score", f"{live:.2f}", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert any(m["convention"] == "sacrebleu" and m["options"].get("tokenize") == "intl"
               and m["options"].get("lowercase") for m in document["matches"])


def test_identify_finds_nltk_smoothing_on_inline_text(capsys):
    live = nltk_bleu(["the cat"], [["the cat sat"]], "sentence", {"smoothing": "method1"})
    assert main(["identify", "--hyp", "the cat", "--ref", "the cat sat", "--score",
                 f"{live:.4f}", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert any(m["convention"] == "nltk" and m["options"]["smoothing"] == "method1"
               for m in document["matches"])


def test_identify_says_when_nothing_matches(capsys):
    assert main(["identify", "--hyp", "a b c d", "--ref", "a b c e", "--score", "42.42"]) == 1
    out = capsys.readouterr().out
    assert "Nothing produces 42.42. Closest:" in out


@pytest.fixture()
def in_tests(monkeypatch):
    monkeypatch.chdir(Path(__file__).parent)  # the worker imports miniatures from here


def test_fingerprint_of_live_nltk_is_nltk(capsys, in_tests):
    assert main(["fingerprint", "--implementation", "miniatures:faithful", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert all("nltk" in f["like"] for f in document["families"])
    assert document["closest_overall"] == ["nltk"] and not document["inconsistent"]


def test_fingerprint_of_live_sacrebleu_finds_its_scale_and_zero_rule(capsys, in_tests):
    assert main(["fingerprint", "--implementation", "miniatures:sacrebleu_corpus", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    families = {f["family"]: f for f in document["families"]}
    assert document["scale"] == "0-100"
    assert "sacrebleu" in families["zero-overlap"]["like"]
    assert "nltk" not in families["zero-overlap"]["like"]


@exhaustive_only  # the quick tier's: test_reports' fingerprint of the same implementation
def test_fingerprint_catches_first_reference_ties(capsys, in_tests):
    assert main(["fingerprint", "--implementation", "miniatures:first_reference_wins_ties"]) == 0
    out = capsys.readouterr().out
    tie_line = next(line for line in out.splitlines() if "ref-length-tie" in line)
    assert "like torchmetrics" in tie_line and "first-listed on a tie" in tie_line


@exhaustive_only  # the quick tier's: the SacreBLEU fingerprint above reads a 0-100 scale
def test_fingerprint_reads_through_a_0_100_scale(capsys, in_tests):
    assert main(["fingerprint", "--implementation", "miniatures:wrong_scale", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["scale"] == "0-100" and document["closest_overall"] == ["nltk"]


def test_fingerprint_reports_an_inconsistent_family(capsys, in_tests):
    assert main(["fingerprint", "--implementation", "miniatures:returns_nan"]) == 0
    out = capsys.readouterr().out
    assert "INCONSISTENT" in out


def test_text_input_needs_a_reference():
    from bleu_harness.errors import InputError

    with pytest.raises(InputError):
        from_text(["a b"], [], None)


def test_identify_takes_a_truncated_score(capsys):
    """A score quoted with its last digits cut, not rounded, is the score (the quick tier's
    form of the published TF-NMT score below): live SacreBLEU's score on the 100 en-ru
    lines, cut (where rounding would differ), is found as SacreBLEU's; with its last kept digit changed
    it is not, and the closest is printed with every digit."""
    data = Path(__file__).parents[1] / "cases" / "data" / "wmt15-enru-100"
    hyps = (data / "google.ru").read_text(encoding="utf-8").splitlines()
    refs = (data / "ref.ru").read_text(encoding="utf-8").splitlines()
    live = sacrebleu_bleu(hyps, [[r] for r in refs], "corpus", {}).score
    whole, fraction = repr(live).split(".")
    places = next(n for n in range(8, len(fraction)) if fraction[n] >= "5")
    cut = f"{whole}.{fraction[:places]}"
    assert float(cut) != round(live, places)  # cut, not rounded
    assert main(["identify", str(data / "google.ru"), str(data / "ref.ru"), "--score",
                 cut]) == 0
    assert "sacrebleu" in capsys.readouterr().out
    changed = cut[:-1] + str((int(cut[-1]) + 5) % 10)
    assert main(["identify", str(data / "google.ru"), str(data / "ref.ru"), "--score",
                 changed]) == 1
    assert repr(live) in capsys.readouterr().out


def test_identify_removes_bpe_joiners_as_score_does_on_a_few_lines(tmp_path, capsys):
    """The quick tier's form of the test below: on the first 100 de-en lines,
    ``--remove-from-references '@@ '`` gives what the joined references give."""
    data = Path(__file__).parents[1] / "cases" / "data" / "nmt-deen-3000"
    hyp, bpe, joined = tmp_path / "hyp", tmp_path / "bpe", tmp_path / "joined"
    lines = (data / "deen_ref_bpe").read_text(encoding="utf-8").splitlines(keepends=True)[:100]
    hyp.write_text("".join((data / "deen_output").read_text(encoding="utf-8")
                           .splitlines(keepends=True)[:100]), encoding="utf-8")
    bpe.write_text("".join(lines), encoding="utf-8")
    joined.write_text("".join(lines).replace("@@ ", ""), encoding="utf-8")
    live = sacrebleu_bleu(hyp.read_text(encoding="utf-8").splitlines(),
                          [[r] for r in joined.read_text(encoding="utf-8").splitlines()],
                          "corpus", {}).score
    said = []
    for arguments in ([str(hyp), str(joined)],
                      [str(hyp), str(bpe), "--remove-from-references", "@@ "]):
        assert main(["identify", *arguments, "--score", repr(live)]) == 0
        said.append(capsys.readouterr().out)
    assert said[0] == said[1] and "sacrebleu" in said[0]


@exhaustive_only
def test_identify_takes_a_truncated_published_score(tmp_path, capsys):
    """TF-NMT's de-en score, 22.585508457350..., is quoted as 22.5855084573 (cut, not
    rounded): identify said "Nothing produces" it, and printed the closest to 10 digits, so
    the refusal looked like a match."""
    data = Path(__file__).parents[1] / "cases" / "data" / "nmt-deen-3000"
    refs = tmp_path / "deen_ref"
    refs.write_text((data / "deen_ref_bpe").read_text(encoding="utf-8").replace("@@ ", ""),
                    encoding="utf-8")
    assert main(["identify", str(data / "deen_output"), str(refs), "--score",
                 "22.5855084573"]) == 0
    assert "tf-nmt" in capsys.readouterr().out
    assert main(["identify", str(data / "deen_output"), str(refs), "--score",
                 "22.5855084579"]) == 1
    assert "22.585508457350354" in capsys.readouterr().out  # the closest, every digit


def test_why_they_disagree_speaks_each_conventions_scale(capsys):
    """explain's table showed SacreBLEU's 77.88007830714052 and its reasons 'sacrebleu gives
    0.778801' (the knob model's 0-1 scale)."""
    assert main(["explain", "b07-tf-nmt-issue-450", "-c", "sacrebleu", "-c", "tf-nmt"]) == 0
    out = capsys.readouterr().out
    assert "sacrebleu gives 77.8801 and tf-nmt gives 1." in out


@exhaustive_only
def test_identify_removes_bpe_joiners_as_score_does(capsys):
    """identify had no --remove-from-references, so on the bundled BPE references it could
    only answer 'Nothing produces' (score has the option)."""
    data = Path(__file__).parents[1] / "cases" / "data" / "nmt-deen-3000"
    assert main(["identify", str(data / "deen_output"), str(data / "deen_ref_bpe"),
                 "--remove-from-references", "@@ ", "--score", "22.5855084573"]) == 0
    assert "tf-nmt" in capsys.readouterr().out


def test_identify_warns_of_subword_pieces_as_score_does(tmp_path, capsys):
    """A new user gave identify BPE references: 'Nothing produces 22.59', with no hint (score
    warned of the same files)."""
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_text("the republican party\na cat\n", encoding="utf-8")
    ref.write_text("the re@@ public@@ an party\na cat\n", encoding="utf-8")
    main(["identify", str(hyp), str(ref), "--score", "0.5"])
    err = capsys.readouterr().err
    assert f"bleu-harness identify: warning: {ref} looks split into subword pieces" in err
    assert "--remove-from-references '@@ '" in err and str(hyp) not in err
    main(["identify", str(hyp), str(ref), "--score", "0.5", "--remove-from-references", "@@ "])
    assert "warning" not in capsys.readouterr().err


def test_identify_scores_every_setting_in_one_pass_with_the_answers_of_one_by_one(
        monkeypatch):
    """``identify`` counted the input once per convention (22 statistics passes of the
    same tokenizations); every setting of every convention is one ``score_many`` call now,
    one pass per distinct tokenization -- with the answers the conventions give one by
    one (the search's convention-by-convention path, kept for an input one tokenizer
    refuses)."""
    from bleu_harness.explain import identify as identify_module

    data = from_text(["the cat sat on the mat ."], ["a cat sat on the mat ."], None)
    calls = []
    real = Input.score
    monkeypatch.setattr(Input, "score", lambda self, requests: calls.append(len(requests))
                        or real(self, requests))
    settings = identify_module.searched_settings(data)
    together = identify_module.outcomes_of_all(data, settings)
    assert len(calls) == 1 and calls[0] == sum(map(len, settings.values()))
    for name, unique in settings.items():
        alone, _ = identify_module.outcomes_of(data, [identify_module.Request(name, o)
                                                      for o in unique])
        for ours, theirs in zip(together[name][0], alone):
            assert type(ours) is type(theirs)
            if hasattr(theirs, "score"):
                assert same_score(ours.score, theirs.score, 0.0), (name, ours, theirs)


#: A caption PTB tokenizes by what follows it (``A.`` before a capital or a small letter):
#: pycocoevalcap's pipeline is refused on it, the other tokenizations are not.
REFUSED_BY_PTB = ("the water is warming to 23 ° C.", "the water is warming to 23 ° c .")


@pytest.mark.needs(lambda: __import__("bleu_harness.bleu.tokenizers", fromlist=["x"])
                   .why_unavailable("ptb"))
def test_a_tokenization_refused_costs_only_its_own_settings(monkeypatch):
    """identify scores every setting in one pass per distinct tokenization; where a
    tokenizer refuses the input (PTB here) the other tokenizations are still counted once
    each -- not every setting on its own -- and only the refused one's settings are left
    out, with why. The answers are each setting's own, scored alone; with --jobs 2 the same."""
    from bleu_harness.explain import identify as identify_module

    data = Input((REFUSED_BY_PTB[0],), ((REFUSED_BY_PTB[1],),), "corpus")
    settings = identify_module.searched_settings(data)
    passes = []
    real = Input.score_each
    monkeypatch.setattr(Input, "score_each", lambda self, requests: passes.append(
        len(requests)) or real(self, requests))
    told = identify_module.outcomes_of_all(data, settings)
    assert passes == [sum(map(len, settings.values()))]  # one call for every setting
    left_out = {name: reasons for name, (_, reasons) in told.items() if reasons}
    assert list(left_out) == ["pycocoevalcap"] and "PTBTokenizer" in left_out[
        "pycocoevalcap"][0]
    for name, unique in settings.items():
        for options, outcome in zip(unique, told[name][0]):
            try:
                [alone] = data.score([identify_module.Request(name, options)])
            except Exception:  # noqa: BLE001 -- refused alone too
                assert outcome is None, (name, options)
                continue
            assert type(outcome) is type(alone), (name, options)
            if hasattr(alone, "score"):
                assert same_score(outcome.score, alone.score, 0.0), (name, options)
    spread = Input(data.hypotheses, data.references, "corpus", jobs=2)
    assert _as_said(identify_module.outcomes_of_all(spread, settings)) == _as_said(told)


def _as_said(told: dict) -> dict:
    """Outcomes as values: a result's score and signature, an error's type and words."""
    return {name: ([(type(o).__name__, getattr(o, "score", None), getattr(o, "signature", None)
                     or str(o)) for o in outcomes], reasons)
            for name, (outcomes, reasons) in told.items()}


@pytest.mark.needs(lambda: __import__("bleu_harness.bleu.tokenizers", fromlist=["x"])
                   .why_unavailable("ptb"))
def test_identify_in_worker_processes_leaves_no_file_and_no_process(tmp_path):
    """``identify --jobs 2`` (and ``score --jobs``) count in a process pool whose workers
    start PTB's JVM and write the captions to a temporary file: the workers ended without
    their exit handlers, leaving a folder of the user's text and a JVM per worker behind.
    Now every worker's temporary files live in the pool's folder and its JVM in its process
    group: after the command, the temporary directory is empty and no process it started
    is left."""
    import os
    import subprocess
    import sys

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat .\n" + REFUSED_BY_PTB[0] + "\n", encoding="utf-8")
    ref.write_text("a cat sat on the mat .\n" + REFUSED_BY_PTB[1] + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bleu_harness", "identify", str(hyp), str(ref),
                           "--score", "50", "--jobs", "2", "--format", "json"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode in (0, 1), done.stderr
    assert list(scratch.iterdir()) == []
    marker = f"TMPDIR={scratch}".encode()
    left = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if marker in environ.read_bytes().split(b"\0"):
                left.append(environ.parent.name)
        except OSError:
            continue
    assert not left, left


def test_identify_takes_typed_text_as_it_takes_files(tmp_path, capsys):
    """--remove-from-references applies to a reference typed inline as to a file's (it was
    ignored: '@@ ' left in, nothing matched); files and typed text together are refused
    (the files were dropped without a word)."""
    typed = ["identify", "--hyp", "the cat sat on the mat", "--format", "json"]
    assert main([*typed, "--ref", "the c@@ at sat on the mat", "--remove-from-references",
                 "@@ ", "--score", "100"]) == 0
    joined = json.loads(capsys.readouterr().out)
    assert main([*typed, "--ref", "the cat sat on the mat", "--score", "100"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == joined["matches"]
    (tmp_path / "h.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a b\n", encoding="utf-8")
    assert main(["identify", str(tmp_path / "h.txt"), str(tmp_path / "r.txt"), "--hyp",
                 "a b", "--ref", "a b", "--score", "100"]) == 2
    assert "not both" in capsys.readouterr().err


def test_fingerprint_without_answers_is_unknown_not_inconsistent():
    """A family whose every probe timed out (or crashed) has no evidence: it was reported
    INCONSISTENT, as if the implementation matched no convention. Now it is UNKNOWN and left
    out of the inconsistent families; a 0-100 scale says its answers are shown on 0-1."""
    from bleu_harness.explain import fingerprint as fingerprint_module
    from bleu_harness.records import Timeout, Value

    probes = fingerprint_module.probe_cases()
    nothing = fingerprint_module.fingerprint("slow", probes, {i: Timeout(1.0) for i in probes})
    assert nothing["inconsistent"] == [] and all(f["unanswered"] for f in nothing["families"])
    assert "UNKNOWN: no answer to compare" in fingerprint_module.render(nothing)
    answers = {i: Value(50.0) for i in probes}
    answers.update({i: Timeout(1.0) for i in fingerprint_module.PROBES["case"][1]})
    some = fingerprint_module.fingerprint("constant", probes, answers)
    families = {f["family"]: f for f in some["families"]}
    assert families["case"]["unanswered"] and "case" not in some["inconsistent"]
    assert not families["zero-overlap"]["unanswered"]
    assert "0-100 scale, shown on 0-1" in fingerprint_module.render(some)


def test_an_id_in_other_letters_is_hinted(capsys, in_tests):
    """Case ids are case-sensitive; one typed in capitals named no similar id."""
    assert main(["explain", "B07-TF-NMT-ISSUE-450", "-c", "nltk"]) == 2
    assert "similar: b07-tf-nmt-issue-450" in capsys.readouterr().err


def test_identify_groups_name_only_combinations_that_give_the_score():
    """A group's options were listed value by value, which reads as every combination:
    ignite's micro average with the default smoothing was shown among settings that give
    another score. Settings that are not every combination are named one by one."""
    from bleu_harness.explain.identify import _settings_text

    assert _settings_text([{"n": 1}, {"n": 2}], "ignite") == "n: 1 | 2"
    # the defaults are a value beside the others ("defaults; script: wmt06" read as one)
    assert _settings_text([{"smooth": True}], "ignite", with_defaults=True) == (
        "smooth: true | default")
    both = [{"average": "micro", "smooth": "smooth1"}, {"average": "micro"},
            {"smooth": "smooth1"}]
    assert _settings_text(both, "ignite", with_defaults=True) == (
        "average: micro | default; smooth: smooth1 | default")
    some = both[1:]
    assert _settings_text(both, "ignite") == (
        "average: micro, smooth: smooth1; or average: micro; or smooth: smooth1")
    assert _settings_text(some, "ignite", with_defaults=True) == (
        "the library's defaults; or average: micro; or smooth: smooth1")
    many = [{"smoothing": f"method{i}", "weights": [1.0] * (i % 2 + 1)} for i in range(7)]
    assert _settings_text(many, "nltk").endswith(
        "; or 3 more settings (--format json lists every one)")  # not 15 unranked settings


@pytest.mark.parametrize("printed", ["1_0", " 22", "inf", "74.21%", "nan", "0x10"])
def test_identify_takes_a_score_as_a_paper_prints_it(printed, capsys):
    """``float`` takes ``1_0`` (as 10), spaces and ``inf``: none is a printed score."""
    assert main(["identify", "--hyp", "a b c d", "--ref", "a b c d", "--score", printed]) == 2
    assert "not a number as a paper prints one" in capsys.readouterr().err


@pytest.mark.parametrize("printed", ["2918", "100.01", "-3"])
def test_identify_refuses_a_score_no_scale_holds_before_reading_the_files(printed, tmp_path,
                                                                          capsys):
    """A score of 2918 was searched among 1,159 settings and answered with the closest: BLEU
    is printed on a 0-1 or a 0-100 scale, and a score on neither is one usage error, said
    before the files are read."""
    missing = str(tmp_path / "missing.txt")
    assert main(["identify", missing, missing, "--score", printed]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--score '{printed}'" in err and "missing" not in err


def test_a_tokenizer_given_with_a_case_is_a_usage_error(capsys, in_tests):
    """A case is scored in its own tokenization: ``--tokenizer`` beside a CASE_ID was ignored
    without a word."""
    assert main(["explain", "b24-case", "--tokenizer", "13a", "-c", "nltk"]) == 2
    assert "its own tokenization" in capsys.readouterr().err
