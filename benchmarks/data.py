"""Benchmark inputs: the real 3000-segment de-en set and generated 30k-segment corpora."""

from __future__ import annotations

import argparse
import itertools
import platform
import random
from pathlib import Path

#: The de-en set the repository ships with its real-corpus case (``cases/real/``): the test
#: data of tensorflow/nmt (``nmt/testdata/deen_output``, ``deen_ref_bpe``).
DEEN_3000 = Path(__file__).resolve().parents[1] / "cases" / "data" / "nmt-deen-3000"


def deen_3000() -> tuple[list[str], list[list[str]]]:
    """``nmt-deen-3000``: system output and the BPE reference with ``@@ `` joiners removed."""
    folder = DEEN_3000
    hyps = (folder / "deen_output").read_text(encoding="utf-8").split("\n")[:-1]
    refs = (folder / "deen_ref_bpe").read_text(encoding="utf-8").split("\n")[:-1]
    return hyps, [[r.replace("@@ ", "")] for r in refs]


def generated(segments: int, references: int, seed: int = 13) -> tuple[list[str], list[list[str]]]:
    """A Zipf-like vocabulary of 5000 words; segments of 5-40 tokens; references that share
    about half of their hypothesis's tokens, so every order has matches."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    cumulative = list(itertools.accumulate(1 / (i + 1) for i in range(len(vocab))))

    def sentence(length: int) -> list[str]:  # cum_weights: the same draws as weights, once
        return rng.choices(vocab, cum_weights=cumulative, k=length)

    hyps, refs = [], []
    for _ in range(segments):
        hyp = sentence(rng.randint(5, 40))
        hyps.append(" ".join(hyp))
        segment_refs = []
        for _ in range(references):
            ref = [w if rng.random() < 0.6 else rng.choice(vocab) for w in hyp]
            ref += sentence(rng.randint(0, 4))
            segment_refs.append(" ".join(ref))
        refs.append(segment_refs)
    return hyps, refs


def write_corpus(folder: Path, segments: int, references: int) -> list[str]:
    """:func:`generated` written to ``folder`` as files for the command line: ``hyp.txt`` and
    ``ref0.txt``... (one segment a line); their paths, the hypotheses' first."""
    hyps, refs = generated(segments, references)
    paths = [folder / "hyp.txt"] + [folder / f"ref{i}.txt" for i in range(references)]
    paths[0].write_text("\n".join(hyps) + "\n", encoding="utf-8")
    for i, path in enumerate(paths[1:]):
        path.write_text("\n".join(r[i] for r in refs) + "\n", encoding="utf-8")
    return [str(path) for path in paths]


def arguments(doc: str, runs: int, **numbers: int) -> argparse.Namespace:
    """A benchmark's command line: ``--runs`` and each whole-number option of ``numbers``
    (its name and default), described by the first paragraph of ``doc``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=runs)
    for name, default in numbers.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    return parser.parse_args()


def machine() -> str:
    """The interpreter and the machine a table was measured on."""
    return f"Python {platform.python_version()} on {platform.machine()}"
