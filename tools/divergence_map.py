"""The divergence map of the bundled corpus, as a page of the documentation
(docs/divergence-map.md).

    python tools/divergence_map.py               # run the corpus (the engine alone), write the page
    python tools/divergence_map.py RUN.jsonl     # the same from a stored run of the bundled corpus

For every pair of conventions (default options, each case's own tokenization): on how many
cases of the corpus they disagree, *why* (the knobs of the knob model whose switch makes
them agree: ``bleu_harness.divergence.attribution``; ``input_rules`` is an exception or a
death against a value) and *where* (the input families of those cases, the tags the
detectors read off each case). It rewrites only the page's generated block; the prose
around it is the page's own. ``tests/test_corpus_run.py`` checks that the committed block is
the one the session's whole-corpus run gives.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "divergence-map.md"
BLOCK = re.compile(r"(<!-- BEGIN GENERATED divergence-map by tools/divergence_map\.py: do not "
                   r"edit -->\n)(.*?)(<!-- END GENERATED divergence-map -->)", re.DOTALL)


def render(run) -> str:
    """The generated block of the page for a run of the bundled corpus."""
    from bleu_harness.report.summary import (
        divergence_causes,
        divergence_cases,
        divergence_map,
        divergences_phrase,
        ranked,
    )

    pairs, causes, cases = divergence_map(run), divergence_causes(run), divergence_cases(run)
    judged = len({record.case for record in run.checks})
    out = [f"Corpus {run.header.corpus_hash} ({run.header.case_files} case files, {judged} "
           f"cases): {divergences_phrase(run)}, between {len(pairs)} pairs of conventions.",
           "", "| conventions | cases | why: the knobs whose switch makes them agree (cases) "
           "| where: the input families (cases) |", "|---|---:|---|---|"]
    for a, b in sorted(pairs):
        why = ", ".join(f"{knob} ({n})" for knob, n in ranked(causes[(a, b)]))
        where = ", ".join(f"{tag} ({n})" for tag, n in ranked(pairs[(a, b)]))
        out.append(f"| {a} ≠ {b} | {cases[(a, b)]} | {why} | {where} |")
    return "\n".join(out) + "\n"


def block_of(text: str) -> str:
    """The generated block of the page's text."""
    found = BLOCK.search(text)
    if not found:
        raise SystemExit(f"{PAGE}: no generated divergence-map block")
    return found.group(2).strip("\n") + "\n"


def written(text: str, block: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + "\n" + block + "\n" + m.group(3), text)


def corpus_run(folder: Path):
    """A run of the bundled corpus with the engine alone (the map is the engine's)."""
    from bleu_harness.report.stream import read_run

    stream = folder / "corpus.jsonl"
    done = subprocess.run([sys.executable, "-m", "bleu_harness", "run", "--backend", "own",
                           "--format", "json", "--output", str(stream), "--quiet"],
                          cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"the corpus run exited {done.returncode}: fix it first")
    return read_run(stream)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", help="a stored run of the bundled corpus "
                        "(bleu-harness run --format json); default: run it now")
    args = parser.parse_args(argv)
    if args.run:
        from bleu_harness.report.stream import read_run

        run = read_run(args.run)
    else:
        with tempfile.TemporaryDirectory() as folder:
            run = corpus_run(Path(folder))
    text = PAGE.read_text(encoding="utf-8")
    PAGE.write_text(written(text, render(run)), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
