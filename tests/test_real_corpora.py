"""The new conventions against the outputs published with the real corpora (cases/real/):
the tool's whole output line, not only the numbers the case files check one by one."""

from __future__ import annotations

from pathlib import Path

from bleu_harness.bleu import score
from bleu_harness.textfiles import read_parallel

DATA = Path(__file__).parents[1] / "cases" / "data"
WMT = DATA / "wmt15-enru-100"


def test_multi_bleu_prints_the_published_line():
    hyps, refs = read_parallel(str(WMT / "google.ru"), [str(WMT / "ref.ru")])
    assert score(hyps, refs, "multi-bleu").report == (
        "BLEU = 23.17, 53.8/29.6/17.6/10.3 (BP=1.000, ratio=1.074, hyp_len=1989, ref_len=1852)")


def test_mteval_prints_the_published_figures():
    hyps, refs = read_parallel(str(WMT / "newstest2015-100sents-enru-google.ru.sgm"),
                               [str(WMT / "newstest2015-100sents-enru-ref.ru.sgm")])
    report = score(hyps, refs, "mteval-v13a").report.splitlines()
    published = (WMT / "mteval-13a.output").read_text(encoding="utf-8").splitlines()
    assert report[0] == next(line for line in published if line.startswith("length ratio"))
    assert "BLEU score = 0.2318" in next(line for line in published if "BLEU score" in line)
    assert report[1] == "BLEU score = 0.2318"
    individual, cumulative = [line for line in published if line.startswith(" BLEU:")]
    assert individual.startswith(report[2].replace("Individual BLEU:", " BLEU:").rstrip())
    assert cumulative.startswith(report[3].replace("Cumulative BLEU:", " BLEU:").rstrip())


def test_tf_nmt_reproduces_the_published_deen_score_to_seven_places():
    hyps, refs = read_parallel(str(DATA / "nmt-deen-3000" / "deen_output"),
                               [str(DATA / "nmt-deen-3000" / "deen_ref_bpe")])
    refs = [[r.replace("@@ ", "") for r in rs] for rs in refs]
    assert round(100 * score(hyps, refs, "tf-nmt", tokenize="strip-split-space").score, 7) == round(
        22.5855084573, 7)
