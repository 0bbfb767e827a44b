"""The real Perl scripts as oracles: Moses ``multi-bleu.perl`` and NIST ``mteval-v13a.pl``,
run unmodified on inputs written the way each script reads them.

The scripts are vendored under ``tests/oracles/moses`` (mosesdecoder at the commit in
:data:`MOSES_COMMIT`); ``BLEU_HARNESS_MOSES_SCRIPTS`` points elsewhere. ``mteval-v13a.pl``
needs Perl's ``XML::Twig`` (Debian: ``libxml-twig-perl``) even for SGML input.

* :func:`run_multi_bleu` writes reference streams ``ref0``, ``ref1``, ... and the hypotheses
  on stdin, as the script's usage line says, and returns its printed line.
* :func:`run_mteval` writes one SGML source, reference and test file with one ``<doc>`` per
  corpus, runs ``-b --metricsMATR`` (BLEU only, score files) and returns the full-precision
  system, document and segment scores the script writes (Perl prints numbers ``%.15g``): each
  document is scored as a corpus of its own, each segment as a sentence.

A script that dies is an :class:`ScriptDied` with its exit status and last message.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The mosesdecoder commit the vendored scripts were taken from (scripts/generic/; both
#: files last changed in 2018: multi-bleu.perl at 48fa6e9, mteval-v13a.pl at 5bbd5ca).
MOSES_COMMIT = "34452895f350bf097b21ee514a529a1dc542243c"
VENDORED = Path(__file__).resolve().parents[2] / "tests" / "oracles" / "moses"


class ScriptDied(Exception):
    """The script exited with a non-zero status (Perl ``die``, or multi-bleu's ``exit 1``)."""

    def __init__(self, status: int, message: str, stdout: str = "") -> None:
        super().__init__(f"exit status {status}: {message}")
        self.status = status
        self.message = message
        self.stdout = stdout


def scripts_folder() -> Path:
    return Path(os.environ.get("BLEU_HARNESS_MOSES_SCRIPTS", VENDORED))


def why_unavailable(script: str) -> str | None:
    """None when ``script`` (``multi-bleu.perl`` or ``mteval-v13a.pl``) can run here."""
    if shutil.which("perl") is None:
        return "perl is not installed"
    path = scripts_folder() / script
    if not path.is_file():
        return f"{path} does not exist (set BLEU_HARNESS_MOSES_SCRIPTS)"
    if script.startswith("mteval"):
        probe = subprocess.run(["perl", "-MXML::Twig", "-e", "1"], capture_output=True)
        if probe.returncode != 0:
            return "Perl's XML::Twig is missing (Debian: apt-get install libxml-twig-perl)"
    return None


def perl_version() -> str:
    out = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True)
    return out.stdout.strip()


def _run(argv: list[str], cwd: Path, stdin: bytes | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=600)
    stdout = done.stdout.decode("utf-8", "replace")
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines() or [""]
        message = next((line.strip() for line in reversed(lines) if line.strip()), "")
        raise ScriptDied(done.returncode, message, stdout)
    return stdout


def _lines(texts: Sequence[str]) -> bytes:
    return "".join(f"{text}\n" for text in texts).encode("utf-8")


def run_multi_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                   lc: bool = False) -> str:
    """``multi-bleu.perl [-lc] ref < hyp``: its output line. Segment ``i``'s j-th reference is
    line ``i`` of file ``ref{j}``; a segment with fewer references than another must come
    last (the script cannot skip a line in the middle of a file)."""
    width = max((len(refs) for refs in references), default=0)
    with tempfile.TemporaryDirectory(prefix="multi-bleu-") as folder:
        work = Path(folder)
        for j in range(width):
            stream = [refs[j] for refs in references if len(refs) > j]
            (work / f"ref{j}").write_bytes(_lines(stream))
        argv = ["perl", str(scripts_folder() / "multi-bleu.perl")]
        argv += ["-lc"] if lc else []
        output = _run(argv + [str(work / "ref")], work, _lines(hypotheses))
    return output.strip()


@dataclass(frozen=True)
class MtevalScores:
    """What ``mteval-v13a.pl -b --metricsMATR`` wrote, as Perl printed the numbers."""

    system: str
    documents: tuple[str, ...]
    segments: tuple[tuple[str, ...], ...]


MTEVAL_FLAGS = {
    "preserve_case": "-c",
    "international_tokenization": "--international-tokenization",
    "no_smoothing": "--no-smoothing",
}


def mteval_arguments(options: Mapping[str, Any]) -> list[str]:
    """The command-line flags of the mteval-v13a convention's options."""
    argv = [flag for key, flag in MTEVAL_FLAGS.items() if options.get(key)]
    return argv + ["--brevity-penalty", options.get("brevity_penalty", "closest")]


def _sgml(kind: str, systems: Sequence[tuple[str | None, Sequence[Sequence[str]]]]) -> bytes:
    """One SGML set: a ``<doc>`` per document of each system (``None``: the source set, whose
    documents carry no ``sysid``). The text goes in as it is: the script unescapes entities."""
    head = {"src": '<srcset setid="s" srclang="xx">',
            "ref": '<refset setid="s" srclang="xx" trglang="yy">',
            "tst": '<tstset setid="s" srclang="xx" trglang="yy">'}[kind]
    parts = [head]
    for system, documents in systems:
        for d, segments in enumerate(documents, start=1):
            parts.append(f'<doc docid="d{d:05d}"' + (f' sysid="{system}">' if system else ">"))
            parts += [f'<seg id="{i}">{text}</seg>' for i, text in enumerate(segments, start=1)]
            parts.append("</doc>")
    parts.append(f"</{kind}set>")
    return ("\n".join(parts) + "\n").encode("utf-8")


def run_mteval(corpora: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]],
               options: Mapping[str, Any]) -> MtevalScores:
    """Each ``(hypotheses, references)`` of ``corpora`` as one document of one system; every
    segment of a corpus must have the same number of references (one reference set each)."""
    width = max(len(refs) for _, corpus_refs in corpora for refs in corpus_refs)
    if any(len(refs) != width for _, corpus_refs in corpora for refs in corpus_refs):
        raise ValueError("mteval needs every segment to have the same number of references")
    with tempfile.TemporaryDirectory(prefix="mteval-") as folder:
        work = Path(folder)
        hypotheses = [hyps for hyps, _ in corpora]
        (work / "src.sgm").write_bytes(_sgml("src", [(None, hypotheses)]))
        (work / "ref.sgm").write_bytes(_sgml("ref", [
            (f"ref{j}", [[refs[j] for refs in corpus_refs] for _, corpus_refs in corpora])
            for j in range(width)]))
        (work / "tst.sgm").write_bytes(_sgml("tst", [("sys", hypotheses)]))
        argv = ["perl", str(scripts_folder() / "mteval-v13a.pl"), "-b", "--metricsMATR",
                "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", *mteval_arguments(options)]
        _run(argv, work)
        system = (work / "BLEU-sys.scr").read_text("utf-8").split("\t")[-1].strip()
        documents = tuple(line.split("\t")[-1] for line in
                          (work / "BLEU-doc.scr").read_text("utf-8").splitlines())
        per_document: dict[str, list[str]] = {}
        for line in (work / "BLEU-seg.scr").read_text("utf-8").splitlines():
            _, _, doc, _, value = line.split("\t")
            per_document.setdefault(doc, []).append(value)
    return MtevalScores(system, documents, tuple(tuple(per_document[d])
                                                 for d in sorted(per_document)))
