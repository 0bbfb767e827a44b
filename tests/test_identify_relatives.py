"""``identify`` names the conventions the other tests of it do not: a number each real tool
gave (a case's recorded value: fairseq's libbleu, torchtext, the Model Garden's
``bleu_on_list``, Tensor2Tensor, and the Perl scripts' relatives), printed to four digits,
is found among the convention's settings -- the script variant included. The quick tier asks
for the first three."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import sampled

from bleu_harness.cases.loader import load
from bleu_harness.explain.identify import identify
from bleu_harness.explain.inputs import from_case

CASES = Path(__file__).resolve().parents[1] / "cases"
#: (convention, its ``script`` option or None, a case whose recorded value it gave, its file).
RECORDED = [
    ("fairseq", None, "fsq-empty-line-is-eos", "families/fairseq.yaml"),
    ("torchtext", None, "tt-tie-longer-first", "families/torchtext.yaml"),
    ("tf-models", None, "tfm-backslash-is-no-punctuation", "families/tf-models.yaml"),
    ("t2t", None, "b10-empty-reference-two-token-hypothesis",
     "documented/conventions-b-table.yaml"),
    ("multi-bleu", "detok", "perl-multi-bleu-detok-028", "oracles/multi-bleu-detok.yaml"),
    ("multi-bleu", "wmt06", "perl-multi-bleu-wmt06-004", "oracles/multi-bleu-wmt06.yaml"),
    ("mteval-v13a", "v11b", "perl-mteval-v11b-lc-doc08", "oracles/mteval-v11b.yaml"),
    ("mteval-v13a", "v12", "perl-mteval-v12-lc-doc05", "oracles/mteval-v12.yaml"),
]


@pytest.fixture(scope="module")
def cases():
    files = sorted({CASES / file for *_, file in RECORDED})
    return {case.id: case for case in load(files).cases}


@pytest.mark.parametrize("convention, script, case_id, file", sampled(RECORDED, 3),
                         ids=[f"{c}-{s}" if s else c for c, s, *_ in RECORDED])
def test_identify_names_the_convention_that_gave_the_number(cases, convention, script,
                                                            case_id, file):
    case = cases[case_id]
    value = next(float(e.value) for e in case.expectations
                 if e.convention == convention and (e.options or {}).get("script") == script
                 and set(e.options or {}) <= {"script"})
    found = identify(from_case(case), f"{value:.4f}")
    named = {(m["convention"], (m.get("options") or {}).get("script"))
             for m in found["matches"]}
    assert (convention, script) in named, sorted(named)[:10]
