"""The torchtext convention against torchtext's ``bleu_score`` itself (the file of the PyPI
torchtext 0.18.0 wheel, unmodified in ``tests/oracles/torchtext/``, loaded by
tests/torchtext_oracle.py: the torchtext package does not load with torch 2.13).

torch is not installed where the tests run, so the real function's answers are recorded:
``tests/data/torchtext.json`` holds what it gave (torch 2.13.0, CPU) on 500 generated inputs
(tests/torch_bleu_inputs.py: empty corpora, hypotheses and references, a segment without
references, hypotheses shorter than ``max_n``, orders without a match, length ties in both
orders, repeated words; ``max_n`` 1-6 with weights of that length, unnormalised ones, and
rarely the default weights with another ``max_n``), written by
tools/record_ignite_torchtext.py. The engine must give, on every record, the same exception
(``AssertionError``, ``ValueError``) or its score within float32 precision (1e-6 relative): the
engine rounds each float32 step, but ``torch.log`` / ``torch.exp`` need not be correctly
rounded (bit-equal ones are counted, and must be most).

Where ``BLEU_HARNESS_TORCH_PYTHON`` names an interpreter with torch, the same is checked live
on freshly generated inputs, the vendored function run there.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import torch_bleu_inputs as inputs
from torch_python import TORCH_PYTHON
from torch_python import live as torch_live

from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.cases.loader import load

HERE = Path(__file__).parent
RECORDED = json.loads((HERE / "data" / "torchtext.json").read_text(encoding="utf-8"))
NAME = "torchtext"
live = torch_live("torch")

#: The wheel's RECORD entries (``torchtext-0.18.0.dist-info/RECORD``: urlsafe base64 of the
#: sha256, no padding) of the two vendored files.
WHEEL_RECORD = {"metrics.py": "ORhAV_xDy2QlaoCLbmg4SyeEemOaAX2SMkyFOEgEoMo",
                "utils.py": "l189KITclAioCA064bAp5XuAQsdhp6RNoxCYarBz3Ao"}


def engine(record: dict):
    """The engine's result, its ``ConventionError``, or its ``ValueError`` (bad options)."""
    try:
        return score(record["hypotheses"], record["references"], NAME, record["level"],
                     **record["options"])
    except (ConventionError, ValueError) as error:
        return error


def compare(record: dict, outcomes: Counter) -> None:
    ours = engine(record)
    what = f"{record['hypotheses']!r} {record['references']!r} {record['options']!r}"
    if "error" in record:
        assert isinstance(ours, ConventionError), (what, ours, record["message"])
        assert ours.library_exception == record["error"], (what, ours, record["message"])
        outcomes["raises " + record["error"]] += 1
        return
    assert not isinstance(ours, Exception), (what, ours, record)
    assert record["type"] == "float" and type(ours.score) is float, (what, record["type"])
    theirs = record["score"]
    assert ours.score == theirs or math.isclose(ours.score, theirs, rel_tol=FLOAT32_TOLERANCE), (
        what, ours.score, theirs)
    outcomes["bit-equal" if ours.score.hex() == theirs.hex() else "within float32"] += 1
    outcomes["positive" if theirs > 0 else "0.0"] += 1


def test_the_vendored_files_are_the_wheels():
    for name, digest in WHEEL_RECORD.items():
        data = (HERE / "oracles" / "torchtext" / name).read_bytes()
        ours = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert ours == digest, name


def test_the_recording_says_what_ran():
    versions = RECORDED["versions"]
    assert versions["torchtext"] == "0.18.0" and versions["torch"].startswith("2.13.0")
    assert "a897aa927f94" in RECORDED["source"] and len(RECORDED["records"]) == 500


def test_every_recorded_answer():
    outcomes: Counter[str] = Counter()
    for record in RECORDED["records"]:
        compare(record, outcomes)
        hyps = [h.split() for h in record["hypotheses"]]
        if not hyps:
            outcomes["empty corpus"] += 1
        if any(len(h) < record["options"]["max_n"] for h in hyps):
            outcomes["short hypothesis"] += 1
    print(dict(outcomes))
    assert outcomes["raises AssertionError"] >= 5 and outcomes["raises ValueError"] >= 5
    assert outcomes["positive"] >= 150 and outcomes["0.0"] >= 100
    assert outcomes["bit-equal"] >= 0.9 * outcomes["positive"]
    assert outcomes["empty corpus"] >= 5 and outcomes["short hypothesis"] >= 100


@pytest.mark.parametrize(("hyp", "refs", "options", "expected"), [
    # The docstring's example (metrics.py:47-52): 0.8408964276313782, the whole float.
    (["My full pytorch test", "Another Sentence"],
     [["My full pytorch test", "Completely Different"], ["No Match"]], {}, 0.8408964276313782),
])
def test_the_docstring_example_bit_for_bit(hyp, refs, options, expected):
    assert score(hyp, refs, NAME, **options).score == expected


def test_a_float64_bp_times_a_float32_mean():
    """``bp * score.item()``: the score is not a float32 number (torchmetrics' would be)."""
    result = score(["the cat sat on the mat"], [["the cat sat on the mat today"]], NAME)
    assert result.score == math.exp(1 - 7 / 6)


def test_the_case_files_values_come_from_the_tool():
    """Every expectation of the family file is the real function's (provenance); never the
    engine's."""
    cases = [c for c in load(None).cases if c.id.startswith("tt-")]
    assert len(cases) >= 10
    for case in cases:
        for e in case.expectations:
            assert (e.provenance.library, e.provenance.kind) == (e.convention, "computed")


# --- live: the real function, where torch is installed ---------------------------------------

#: Runs on the torch interpreter: the vendored ``bleu_score``'s answer to each request.
ORACLE_SCRIPT = """
import json, os, sys
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]  # tests/ and the package beside it
import torchtext_oracle
for line in sys.stdin:
    print(json.dumps(torchtext_oracle.answer(json.loads(line))))
"""


@live
@pytest.mark.parametrize("seed", [101, 202])
def test_live_against_bleu_score(seed):
    """500 fresh inputs per seed, the vendored function run on the torch interpreter."""
    requests = inputs.requests(seed, 500, inputs.torchtext_options)
    done = subprocess.run([TORCH_PYTHON, "-c", ORACLE_SCRIPT, str(HERE)],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, check=True)
    outcomes: Counter[str] = Counter()
    for request, line in zip(requests, done.stdout.splitlines(), strict=True):
        compare({**request, **json.loads(line)}, outcomes)
    print(dict(outcomes))
    assert outcomes["bit-equal"] >= 0.9 * outcomes["positive"]
