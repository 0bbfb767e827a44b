"""Record what jury's ``bleu`` gives on its quirks, as cases.

    python tools/jury_cases.py      # writes cases/families/jury.yaml

Runs jury 2.3.1's own metric (obss/jury@c8d32259, vendored unmodified in
``tests/oracles/jury/`` and loaded by ``tests/jury_oracle.py``: ``evaluate`` and
``datasets`` stubbed, its downloaded ``compute_bleu`` the vendored TF-NMT file) with
``Bleu.construct().compute(predictions, references, **options)``, and writes its score, BP
and lengths, or the exception's name. The case's segments are the flattened pairs: each
prediction with its item's references. Nothing comes from the engine.
"""

from __future__ import annotations

import sys
from copy import deepcopy
from pathlib import Path

from family_file import write_family  # tools/ is on the path of a script run from it

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jury_oracle  # noqa: E402

OUT = ROOT / "cases" / "families" / "jury.yaml"
VERSION = "2.3.1"
SOURCE = ("obss/jury@c8d32259 jury/metrics/bleu/bleu_for_language_generation.py "
          "Bleu.construct().compute(predictions, references) (tests/oracles/jury, with the "
          "TF-NMT compute_bleu it downloads: tests/oracles/tfnmt/bleu.py)")

README_ITEMS = [(["the cat is on the mat", "There is cat playing on the mat"],
                 ["the cat is playing on the mat.", "The cat plays on the mat."]),
                (["Look! a wonderful day."],
                 ["Today is a wonderful day", "The weather outside is wonderful."])]

#: (id, description, tags, items [(predictions, references)], option sets, figures).
CASES = [
    ("jury-readme-example", "The README's and the metric docstring's example: two "
     "predictions for the first item, one for the second; the docstring prints 0.4237... "
     "(bleu_for_language_generation.py:90-112).", ["documented"],
     README_ITEMS, [{}], True),
    ("jury-punctuation-splits-words", "Every ASCII punctuation mark becomes a space: "
     "\"don't\" is don t, \"e-mail\" is e mail, the full stop a separator.",
     ["tokenization"], [(["Don't e-mail me, it's late."], ["do not email me it is late"])],
     [{}, {"max_order": 2}], False),
    ("jury-lowercases", "DefaultTokenizer lowercases every text.", ["case"],
     [(["The Cat SAT on the Mat"], ["the cat sat on the mat"])], [{}], False),
    ("jury-non-ascii-punctuation-stays", "Only string.punctuation is split off: « » and — "
     "stay inside their words.", ["tokenization"],
     [(["«the cat» sat — on the mat"], ["the cat sat on the mat"])], [{}, {"max_order": 1}],
     False),
    ("jury-shortest-reference", "TF-NMT's compute_bleu: the shortest reference sets the BP.",
     ["closest-vs-shortest"], [(["the cat sat on the mat"],
                                ["the cat sat", "the cat sat on the mat today"])], [{}], True),
    ("jury-smooth", "smooth=True: (m + 1) / (l + 1) for every order.", ["smoothing",
                                                                        "zero-overlap"],
     [(["a b x c d y"], ["a b z c d w"])], [{}, {"smooth": True}], False),
    ("jury-adjusted-bp", "Two predictions of 3 and 2 words for a 4-word reference: the "
     "flattened ratio is 5/8, and the score is re-scaled by exp(1 - 4/3) / exp(1 - 8/5), "
     "the BP of the item's longest prediction.", ["short-hypothesis"],
     [(["a b c", "a b"], ["a b c d"])], [{"max_order": 1}], True),
    ("jury-adjusted-bp-above-one", "Predictions of 6 and 1 words for a 4-word reference: "
     "the flattened ratio 7/8 is below 1, the item's longest prediction (6) above its "
     "reference, so the factor exp(1 - 4/6) / exp(1 - 8/7) is above 1 and so is the BP.",
     ["short-hypothesis"], [(["a b c d e f", "a"], ["a b c d"])], [{"max_order": 1}], True),
    ("jury-long-flattened-skips-adjustment", "Predictions of 3 and 6 words for a 4-word "
     "reference: the flattened ratio 9/8 is above 1, so the score stands with BP 1, though "
     "no item's length is below its reference's.", ["short-hypothesis"],
     [(["a b c", "a b c d e f"], ["a b c d"])], [{"max_order": 1}], True),
    ("jury-first-prediction-without-tokens", "A first prediction of punctuation only: no "
     "token, and Collator.collapse reads its first one: IndexError.",
     ["raises", "empty-hypothesis"], [(["!!!"], ["a b c"]), (["a b c"], ["a b c"])], [{}],
     False),
    ("jury-first-item-without-references", "Collator reads references[0][0]: a first item "
     "without references is an IndexError.", ["raises", "empty-reference"],
     [(["a b c"], []), (["a b c"], ["a b c"])], [{}], False),
    ("jury-later-item-without-references", "A later item without references: compute_bleu's "
     "min() of no lengths, ValueError.", ["raises", "empty-reference"],
     [(["a b c"], ["a b c"]), (["a b c"], [])], [{}], False),
]



def expectations(items, options: dict, figures: bool) -> list[dict]:
    sizes = [len(predictions) for predictions, _ in items]
    recorded = dict(options)
    if any(size != 1 for size in sizes):
        recorded["predictions_per_item"] = sizes
    def provenance() -> dict:  # one dictionary each: the YAML has no anchors
        return {"kind": "computed", "source": SOURCE, "library": "jury", "version": VERSION}

    def head() -> dict:
        return {"convention": "jury", **({"options": deepcopy(recorded)} if recorded else {})}

    try:
        result = jury_oracle.compute([list(p) for p, _ in items], [list(r) for _, r in items],
                                     **options)
    except Exception as error:
        return [{**head(), "raises": type(error).__name__, "provenance": provenance()}]
    out = [{**head(), "value": repr(float(result["score"])), "provenance": provenance()}]
    if figures:
        for figure, key in (("bp", "brevity_penalty"), ("hyp_len", "translation_length"),
                            ("ref_len", "reference_length")):
            out.append({**head(), "figure": figure, "value": repr(result[key]),
                        "provenance": provenance()})
    return out


def main() -> int:
    cases = []
    for case_id, description, tags, items, option_sets, figures in CASES:
        expect = [e for options in option_sets for e in expectations(items, options, figures)]
        cases.append({"id": case_id, "description": description, "tags": tags,
                      "level": "corpus",
                      "segments": [{"hyp": h, "refs": list(refs)} for preds, refs in items
                                   for h in preds], "expect": expect})
    write_family(OUT, "tools/jury_cases.py", (
            f"jury {VERSION}'s bleu (Bleu.construct().compute): TF-NMT's compute_bleu on "
            "DefaultTokenizer tokens (ASCII punctuation to spaces, lowercased); several "
            "predictions per item are paired with its references and the BP re-scaled by "
            "each item's longest prediction and shortest reference, unless the flattened "
            "corpus is the longer; Collator's IndexErrors. The segments are the flattened "
            "pairs (predictions_per_item groups them). Values from jury's own files run by "
            "tools/jury_cases.py."),
                 cases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
