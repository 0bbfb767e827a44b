"""``tools/record_values.py`` fills ``value: COMPUTE`` from the live library (never the
engine): checked against NLTK called directly, and the library's version recorded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nltk
from nltk.translate.bleu_score import sentence_bleu

TOOL = Path(__file__).resolve().parents[1] / "tools" / "record_values.py"

CASES = """schema: 1
cases:
  - id: record-1
    description: a probe
    tags: [smoke]
    level: sentence
    segments:
      - hyp: "the cat sat on the mat"
        refs: ["the cat is on the mat"]
    expect:
      - convention: nltk
        value: COMPUTE
        provenance: {kind: computed, library: nltk, version: COMPUTE}
"""


def test_placeholders_become_the_librarys_values(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text(CASES, encoding="utf-8")
    done = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    expected = sentence_bleu(["the cat is on the mat".split()], "the cat sat on the mat".split())
    text = path.read_text(encoding="utf-8")
    assert f'value: "{expected!r}"' in text
    assert f'version: "{nltk.__version__}"' in text
    assert "COMPUTE" not in text
