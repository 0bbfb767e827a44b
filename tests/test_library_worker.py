"""The NLTK worker imports ``nltk.translate.bleu_score`` without NLTK's ``__init__``
(``library_worker.nltk_bleu_score``): the same module, the same answers and the same version
as after ``import nltk``, in every installed release; a release whose modules need the
``__init__`` gets the usual import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.version import Version
from runs import TESTS
from tiers import sampled

WORKER = TESTS.parent / "bleu_harness" / "adapters" / "library_worker.py"
ENVS = TESTS.parent / ".atlas" / "envs"
REQUESTS = [
    {"id": 1, "info": True},
    {"id": 2, "level": "sentence", "hypotheses": ["the cat sat on a mat"],
     "references": [["the cat sat on the mat", "a cat sat"]], "options": {"smoothing": "method4"}},
    {"id": 3, "level": "corpus", "hypotheses": ["a b c", "x"],
     "references": [["a b c d"], ["y"]], "options": {"weights": [0.5, 0.5]}},
]
#: The same requests answered after a plain ``import nltk`` (the package's ``__init__`` run).
USUAL = """
import json, sys
import nltk
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
print(json.dumps([nltk.__version__,
    sentence_bleu([r.split() for r in REFS2], HYP2.split(),
                  smoothing_function=SmoothingFunction().method4),
    corpus_bleu([[r.split() for r in rs] for rs in REFS3], [h.split() for h in HYPS3],
                weights=(0.5, 0.5))]))
"""


def worker(python: str, env: dict[str, str] | None = None) -> tuple[list[dict], list[str]]:
    """The worker's answers to :data:`REQUESTS`, and the NLTK modules it had loaded."""
    probe = ("import runpy, sys, json; sys.argv = ['library_worker.py', 'nltk'];"
             "\ntry:\n    runpy.run_path(%r, run_name='__main__')\nfinally:\n"
             "    sys.stderr.write(json.dumps(sorted(sys.modules)))" % str(WORKER))
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=60,
                          input="".join(json.dumps(r) + "\n" for r in REQUESTS), env=env)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stderr.splitlines()[-1])
    return [json.loads(line) for line in done.stdout.splitlines()], modules


def usual(python: str) -> list:
    program = USUAL.replace("REFS2", repr(REQUESTS[1]["references"][0])).replace(
        "HYP2", repr(REQUESTS[1]["hypotheses"][0])).replace(
        "REFS3", repr(REQUESTS[2]["references"])).replace(
        "HYPS3", repr(REQUESTS[2]["hypotheses"]))
    done = subprocess.run([python, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


#: This interpreter's NLTK, then the prepared releases oldest first (tools/atlas.py; the
#: quick tier takes the oldest, NLTK 3.2.2 on Python 3.6).
PYTHONS = [sys.executable, *(str(env / "bin" / "python") for env in sorted(
    ENVS.glob("nltk-*"), key=lambda env: Version(env.name.split("-", 1)[1])))]


@pytest.mark.parametrize("python", sampled(PYTHONS, quick=2, one_argument=True))
def test_the_worker_answers_as_after_import_nltk_without_loading_the_rest(python):
    answers, modules = worker(python)
    version, sentence, corpus = usual(python)
    assert answers[0]["info"]["version"] == version
    assert [answers[1]["score"], answers[2]["score"]] == [sentence, corpus]
    assert "numpy" not in modules and "nltk.tokenize" not in modules, [
        m for m in modules if m.startswith("nltk")]


def test_a_release_that_needs_its_init_is_imported_as_usual(tmp_path: Path):
    """A stand-in NLTK whose ``bleu_score`` reads a name only the package's ``__init__``
    defines: the bare package fails, the worker imports NLTK as usual and answers."""
    package = tmp_path / "nltk"
    (package / "translate").mkdir(parents=True)
    (package / "__init__.py").write_text("__version__ = '0.0-standin'\nFACTOR = 0.5\n")
    (package / "translate" / "__init__.py").write_text("")
    (package / "translate" / "bleu_score.py").write_text(
        "from nltk import FACTOR\n"
        "class SmoothingFunction:\n"
        "    def __init__(self, **kw): pass\n"
        "    def method0(self, *a, **kw): pass\n"
        "    method4 = method0\n"
        "def sentence_bleu(refs, hyp, **kw): return FACTOR\n"
        "def corpus_bleu(refs, hyps, **kw): return FACTOR / 2\n")
    answers, modules = worker(sys.executable, env={"PYTHONPATH": str(tmp_path),
                                                   "PATH": "/usr/bin:/bin"})
    assert answers[1]["score"] == 0.5 and answers[2]["score"] == 0.25
    assert answers[0]["info"]["version"]  # the installed distribution's, or the stand-in's
