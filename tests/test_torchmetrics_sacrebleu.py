"""The torchmetrics-sacrebleu convention against torchmetrics' ``SacreBLEUScore`` itself.

torch is not installed where the tests run, so the real tool's answers are recorded:
``tests/data/torchmetrics_sacrebleu.json`` holds what torchmetrics 1.9.0 (torch 2.13.0, CPU)
gave on 2,000 generated inputs (tests/torchmetrics_inputs.py: empty and short segments,
length ties in both orders, repeated words, punctuation, entities, line breaks and trailing
whitespace, non-ASCII text whose lowercase tokenizes differently -- 'İ', 'ẞ', the Kelvin
sign --, every tokenizer and option), written by tools/record_torchmetrics_sacrebleu.py. The
engine must give, on every record:

* the tool's statistics exactly (``numerator``, ``denominator``, ``preds_len``,
  ``target_len``: the tokenization, lowercasing included);
* its score within float32 precision (1e-6 relative): the engine rounds each step to float32,
  but ``torch.log`` / ``torch.exp`` need not be correctly rounded (bit-equal counted, below);
* the same exception: ``ValueError`` where the tool raises it (a bad option is a
  ``ValueError`` of the engine's option checks; no reference, the tool's ``min()``).

Where ``BLEU_HARNESS_TORCH_PYTHON`` names an interpreter with torchmetrics, the same is
checked live on inputs Hypothesis generates, through the harness's own torchmetrics backend,
and torchmetrics' tokenizers are compared with the engine's code point by code point (every
one for ``zh``; every one whose lowercase differs, and a sample of the rest, for all four).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import tempfile
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from strategies import TORCHMETRICS_SACREBLEU_OPTIONS, corpus
from tiers import examples
from torch_python import PREPARE, TORCH_PYTHON
from torch_python import live as torch_live
from torchmetrics_inputs import SEPARATORS, WORDS

from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.bleu.tokenizers.torchmetrics import FLORES_MODELS, LowercasedAfter
from bleu_harness.cases.loader import load
from bleu_harness.explain.identify import identify
from bleu_harness.explain.inputs import from_case

DATA = Path(__file__).parent / "data"
RECORDED = json.loads((DATA / "torchmetrics_sacrebleu.json").read_text(encoding="utf-8"))
NAME = "torchmetrics-sacrebleu"
live = torch_live("torch and torchmetrics")


@pytest.fixture
def flores_models(tmp_path, monkeypatch):
    """The recording's SentencePiece model where torchmetrics reads its flores models
    (``tempfile.gettempdir()/torchmetrics-flores``), for the engine and any worker."""
    folder = tmp_path / "torchmetrics-flores"
    folder.mkdir()
    for name in FLORES_MODELS.values():
        shutil.copyfile(DATA / "torchmetrics_sacrebleu_spm.model", folder / name)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return tmp_path


def engine(record: dict):
    """The engine's result, its ``ConventionError``, or its ``ValueError`` (bad options)."""
    try:
        return score(record["hypotheses"], record["references"], NAME, record["level"],
                     **record["options"])
    except (ConventionError, ValueError) as error:
        return error


def test_the_recording_says_what_ran():
    versions = RECORDED["versions"]
    assert versions["torchmetrics"] == "1.9.0" and versions["torch"].startswith("2.13.0")
    assert "v1.9.0" in RECORDED["source"] and len(RECORDED["records"]) == 2000


def test_every_recorded_answer(flores_models):
    outcomes: Counter[str] = Counter()
    for record in RECORDED["records"]:
        ours = engine(record)
        what = f"{record['hypotheses']!r} {record['references']!r} {record['options']!r}"
        if isinstance(ours, ConventionDeclined):
            # a MeCab tokenizer whose package is missing here
            assert record["options"]["tokenize"].endswith("-mecab"), (what, ours)
            outcomes["declined here"] += 1
            continue
        if "error" in record:
            assert isinstance(ours, (ConventionError, ValueError)), (what, ours)
            kind = (ours.library_exception if isinstance(ours, ConventionError)
                    else type(ours).__name__)
            assert kind == record["error"], (what, ours, record["message"])
            outcomes["raises"] += 1
            continue
        assert not isinstance(ours, Exception), (what, ours, record)
        assert list(ours.counts) == record["numerator"], what
        assert list(ours.totals) == record["denominator"], what
        assert (ours.hyp_len, ours.ref_len) == (record["preds_len"], record["target_len"]), what
        theirs = record["score"]
        assert ours.score == theirs or math.isclose(ours.score, theirs,
                                                    rel_tol=FLOAT32_TOLERANCE), (what, ours.score,
                                                                                 theirs)
        outcomes["bit-equal" if ours.score.hex() == theirs.hex() else "within float32"] += 1
        outcomes["positive"] += theirs > 0
    print(dict(outcomes))
    assert outcomes["raises"] >= 30 and outcomes["positive"] >= 800


def test_the_case_files_values_come_from_the_tool():
    """Every expectation of the family file is the real tool's (provenance), or printed in
    torchmetrics' own docstring; never the engine's."""
    cases = [c for c in load(None).cases if c.id.startswith("tmsb-")]
    assert len(cases) >= 15
    for case in cases:
        for e in case.expectations:
            if e.provenance.kind == "documented":
                assert "torchmetrics/blob/v1.9.0" in e.provenance.url
                continue
            library = "torchmetrics" if e.convention == NAME else e.convention
            assert (e.provenance.library, e.provenance.kind) == (library, "computed")


@pytest.mark.parametrize(("case_id", "options"), [
    ("tmsb-intl-trailing-space", {"tokenize": "intl"}),
    ("tmsb-kelvin-sign-zh", {"tokenize": "zh", "lowercase": True}),
    ("tmsb-entity-lowercased-after", {"lowercase": True}),
])
def test_identify_answers_a_sacrebleuscore_number(case_id, options):
    """A SacreBLEUScore number where its tokens are not SacreBLEU's (recorded from the tool
    in the case file), printed to four digits: identify names torchmetrics-sacrebleu with its
    options."""
    case = next(c for c in load(None).cases if c.id == case_id)
    recorded = next(e for e in case.expectations
                    if e.convention == NAME and dict(e.options) == options)
    published = f"{float(recorded.value):.4f}"
    found = identify(from_case(case), published)
    ours = [m for m in found["matches"] if m["convention"] == NAME]
    assert any(options.items() <= m["options"].items() for m in ours), found["matches"]


@pytest.mark.parametrize(("text", "tokenize", "tokens"), [
    # what _SacreBLEUTokenizer.tokenize(text, tokenize, lowercase=True) returns (torchmetrics
    # 1.9.0, run): it tokenizes, then lowercases (sacre_bleu.py:166-168), so an upper-case
    # entity stays text and 'İ' (lowercase 'i' + U+0307) stays one char token
    ("&QUOT;a&QUOT;", "13a", ["&", "quot", ";", "a", "&", "quot", ";"]),
    ("İs", "char", ["i\u0307", "s"]),
])
def test_lowercased_after(text, tokenize, tokens):
    from bleu_harness.bleu.conventions.torchmetrics_sacrebleu import preprocessing

    key = preprocessing({"tokenize": tokenize, "lowercase": True})
    assert isinstance(key.tokenizer, LowercasedAfter) and not key.lowercase
    assert key.tokenizer(text) == tokens


@pytest.mark.parametrize(("text", "tokenize", "tokens"), [
    # _SacreBLEUTokenizer.tokenize(text, tokenize) (torchmetrics 1.9.0, run): no rstrip
    ("1990. ", "intl", ["1990", "."]),
    ("well-\n", "13a", ["well"]),
])
def test_no_rstrip(text, tokenize, tokens):
    from bleu_harness.bleu.conventions.torchmetrics_sacrebleu import preprocessing

    assert get_tokenizer(preprocessing({"tokenize": tokenize, "lowercase": False}).tokenizer)(
        text) == tokens


@pytest.mark.parametrize("case_id", ["tmsb-entity-lowercased-after", "tmsb-kelvin-sign-zh",
                                     "tmsb-dotted-capital-i-char"])
def test_explain_names_lowercasing_after_tokenizing(case_id):
    """Against SacreBLEU with the same tokenizer, lowercasing and no smoothing (2-grams, so
    no order lacks a match), the case knob alone -- lowercased after tokenizing -- makes
    them agree."""
    from bleu_harness.bleu import CONVENTIONS
    from bleu_harness.bleu.conventions import unit_score
    from bleu_harness.divergence.attribution import attribute
    from bleu_harness.divergence.scorer import Scorer

    case = next(c for c in load(None).cases if c.id == case_id)
    tokenize = next(e.options.get("tokenize", case.tokenizer) for e in case.expectations
                    if e.convention == NAME)
    ours = {"tokenize": tokenize, "lowercase": True, "n_gram": 2}
    theirs = {"tokenize": tokenize, "lowercase": True, "max_ngram_order": 2,
              "smooth_method": "none", "effective_order": False}
    answers = [unit_score(name, score(case.hypotheses, case.references, name, case.level,
                                      **options).score)
               for name, options in ((NAME, ours), ("sacrebleu", theirs))]
    attribution = attribute(Scorer(case.hypotheses, case.references, case.level),
                            NAME, CONVENTIONS[NAME].resolve(case.level, ours), answers[0],
                            "sacrebleu", CONVENTIONS["sacrebleu"].resolve(case.level, theirs),
                            answers[1])
    assert answers[0] != answers[1]
    assert attribution.explained and attribution.knobs == ("case",), attribution.sentence()
    assert "lowercased after tokenizing" in attribution.sentence()


# --- live: the real tool, where it is installed ----------------------------------------------

@pytest.fixture(scope="module")
def torchmetrics_worker(tmp_path_factory):
    from bleu_harness.backends.optional import torchmetrics_backend
    from bleu_harness.execute import Executor

    with Executor(timeout=60) as running:
        info, = running.start_all([torchmetrics_backend(TORCH_PYTHON)])
        if not info.ready:
            pytest.skip(f"torchmetrics does not start on {TORCH_PYTHON} ({PREPARE}): {info.note}")
        yield running


def library_answer(executor, hyps, refs, level, options):
    from bleu_harness.records import BackendRequest

    request = BackendRequest.make("torchmetrics", NAME, level, hyps, refs, options)
    return next(iter(executor.run([request])))[1]


@live
@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=corpus(words=WORDS, separators=SEPARATORS), options=TORCHMETRICS_SACREBLEU_OPTIONS)
def test_live_against_sacrebleuscore(torchmetrics_worker, data, options):
    from bleu_harness.records import Raised, Unsupported, Value

    hyps, refs = data
    theirs = library_answer(torchmetrics_worker, hyps, refs, "corpus", options)
    assume(not isinstance(theirs, Unsupported))
    ours = engine({"hypotheses": hyps, "references": refs, "level": "corpus",
                   "options": options})
    if isinstance(theirs, Raised):
        assert isinstance(ours, ConventionError), (ours, theirs)
        assert ours.library_exception == theirs.error_type, (ours, theirs)
        return
    assert isinstance(theirs, Value) and not isinstance(ours, Exception), (ours, theirs)
    assert ours.score == theirs.score or math.isclose(
        ours.score, theirs.score, rel_tol=FLOAT32_TOLERANCE), (hyps, refs, options, ours, theirs)


#: Runs on the torch interpreter: torchmetrics' tokens of each line of stdin (JSON lines).
TOKENS_SCRIPT = """
import json, sys
from torchmetrics.functional.text.sacre_bleu import _SacreBLEUTokenizer as T
for line in sys.stdin:
    text, tokenize, lowercase = json.loads(line)
    print(json.dumps(list(T.tokenize(text, tokenize, lowercase)) if text else []))
"""


@cache
def code_points() -> list[int]:
    """Every code point but the surrogates."""
    return [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]


@cache
def sampled_code_points() -> list[int]:
    """Every code point whose lowercase differs, all below U+3400, every 7th above in the BMP
    and every 97th beyond (worked out when the test runs, not while collecting)."""
    return sorted({c for c in code_points() if chr(c).lower() != chr(c)}
                  | {c for c in code_points() if c < 0x3400 or (c < 0x10000 and c % 7 == 0)
                     or c % 97 == 0})


def torchmetrics_tokens(texts: list[str], tokenize: str, lowercase: bool) -> list[list[str]]:
    lines = "".join(json.dumps([t, tokenize, lowercase]) + "\n" for t in texts)
    done = subprocess.run([TORCH_PYTHON, "-c", TOKENS_SCRIPT], input=lines,
                          capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@live
@pytest.mark.parametrize("tokenize", ["zh", "13a", "intl", "char"])
def test_live_tokens_at_every_code_point(tokenize):
    """torchmetrics' tokens against the engine's, with and without lowercasing, for
    :func:`code_points` in a context where each rule can fire (after a letter, before a digit
    and a full stop, at the end before a space); for ``zh`` every code point alone too (its
    ranges)."""
    from bleu_harness.bleu.conventions.torchmetrics_sacrebleu import preprocessing

    runs = [([f"a{chr(c)}1.{chr(c)} " for c in sampled_code_points()], lowercase)
            for lowercase in (0, 1)]
    if tokenize == "zh":
        runs.append(([chr(c) for c in code_points()], 0))
    for texts, lowercase in runs:
        theirs = torchmetrics_tokens(texts, tokenize, bool(lowercase))
        key = preprocessing({"tokenize": tokenize, "lowercase": bool(lowercase)})
        ours = get_tokenizer(key.tokenizer)
        prepare = (lambda t: ours(t.lower())) if key.lowercase else ours
        wrong = [(t, their, prepare(t)) for t, their in zip(texts, theirs) if prepare(t) != their]
        assert not wrong, wrong[:5]
