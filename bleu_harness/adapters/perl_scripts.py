"""The real Perl scripts as oracles: Moses ``multi-bleu.perl`` and NIST ``mteval-v13a.pl``,
their relatives (``multi-bleu-detok.perl``, the WMT06 ``multi-bleu.perl``, ``mteval-v14.pl``,
``mteval-v11b.pl``, ``mteval-v12.pl``), run unmodified on inputs written the way each script
reads them.

The scripts are vendored under ``tests/oracles/moses`` (mosesdecoder at the commit in
:data:`MOSES_COMMIT`; the WMT06 script from OpenNMT at :data:`WMT06_COMMIT`);
``BLEU_HARNESS_MOSES_SCRIPTS`` points elsewhere (the WMT06 script, no mosesdecoder file, is
always the vendored one). ``mteval-v13a.pl`` and ``mteval-v14.pl`` need Perl's ``XML::Twig``
(Debian: ``libxml-twig-perl``) even for SGML input, ``mteval-v14.pl`` also
``Sort::Naturally`` (``libsort-naturally-perl``).

* :func:`run_multi_bleu` writes reference streams ``ref0``, ``ref1``, ... and the hypotheses
  on stdin, as the script's usage line says, and returns its printed line;
  :func:`multi_bleu_figures` returns the numbers that line was printed from, at full
  precision (:mod:`bleu_harness.adapters.perl_printf`).
* :func:`run_mteval` writes one SGML source, reference and test file with one ``<doc>`` per
  corpus, runs ``-b --metricsMATR`` (BLEU only, score files) and returns the full-precision
  system, document and segment scores the script writes (Perl prints numbers ``%.15g``): each
  document is scored as a corpus of its own, each segment as a sentence. ``mteval-v14.pl``
  runs the same way.
* :func:`run_old_mteval` runs ``mteval-v11b.pl`` or ``mteval-v12.pl`` (no score files) with
  ``-b -d 2`` and returns the system, document and segment scores they hand to ``printf``, at
  full precision.

A script that dies is an :class:`ScriptDied` with its exit status and last message.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bleu_harness.adapters import perl_printf
from bleu_harness.adapters.perl_printf import PrintfCall

#: The mosesdecoder commit the vendored scripts were taken from (scripts/generic/; both
#: files last changed in 2018: multi-bleu.perl at 48fa6e9, mteval-v13a.pl at 5bbd5ca).
MOSES_COMMIT = "34452895f350bf097b21ee514a529a1dc542243c"
#: The OpenNMT/OpenNMT commit that added ``benchmark/3rdParty/multi-bleu.perl``, the WMT06
#: shared task's script (vendored as ``multi-bleu-wmt06.perl``).
WMT06_COMMIT = "72d4a5f153297d1dc78b49baea3871201bc7680f"
VENDORED = Path(__file__).resolve().parents[2] / "tests" / "oracles" / "moses"
#: The WMT06 script is no mosesdecoder file: always the vendored copy.
WMT06_SCRIPT = "multi-bleu-wmt06.perl"
#: The multi-bleu convention's ``script`` option -> the script it follows.
MULTI_BLEU_SCRIPTS = {"moses": "multi-bleu.perl", "detok": "multi-bleu-detok.perl",
                      "wmt06": WMT06_SCRIPT}
#: The mteval-v13a convention's ``script`` option -> the script it follows.
MTEVAL_SCRIPTS = {"v13a": "mteval-v13a.pl", "v14": "mteval-v14.pl", "v11b": "mteval-v11b.pl",
                  "v12": "mteval-v12.pl"}
#: Perl modules a script needs beyond Perl's own, with the Debian package that has each.
NEEDED_MODULES = {
    "mteval-v13a.pl": (("XML::Twig", "libxml-twig-perl"),),
    "mteval-v14.pl": (("XML::Twig", "libxml-twig-perl"),
                      ("Sort::Naturally", "libsort-naturally-perl")),
}


class ScriptDied(Exception):
    """The script exited with a non-zero status (Perl ``die``, or multi-bleu's ``exit 1``)."""

    def __init__(self, status: int, message: str, stdout: str = "",
                 printfs: tuple[PrintfCall, ...] = ()) -> None:
        super().__init__(f"exit status {status}: {message}")
        self.status = status
        self.message = message
        self.stdout = stdout
        #: What the script handed to ``printf`` before it died (when recorded).
        self.printfs = printfs


def scripts_folder() -> Path:
    return Path(os.environ.get("BLEU_HARNESS_MOSES_SCRIPTS", VENDORED))


def script_path(script: str) -> Path:
    return VENDORED / script if script == WMT06_SCRIPT else scripts_folder() / script


def why_unavailable(script: str) -> str | None:
    """None when ``script`` (a file name of :data:`MULTI_BLEU_SCRIPTS` or
    :data:`MTEVAL_SCRIPTS`) can run here."""
    if shutil.which("perl") is None:
        return "perl is not installed"
    path = script_path(script)
    if not path.is_file():
        return f"{path} does not exist (set BLEU_HARNESS_MOSES_SCRIPTS)"
    for module, package in NEEDED_MODULES.get(script, ()):
        if not _perl_has(module):
            return f"Perl's {module} is missing (Debian: apt-get install {package})"
    return None


@cache
def _perl_has(module: str) -> bool:
    """Whether ``perl -MMODULE`` loads (asked once a process: a run asks for every script)."""
    return subprocess.run(["perl", f"-M{module}", "-e", "1"], capture_output=True).returncode == 0


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


def _run_recording_printf(script: Path, arguments: list[str], cwd: Path,
                          stdin: bytes | None = None) -> tuple[str, tuple[PrintfCall, ...]]:
    """``perl SCRIPT ARGUMENTS`` with :mod:`~bleu_harness.adapters.perl_printf` loaded: its
    output and every ``printf`` it made (a :class:`ScriptDied` carries those made before)."""
    log = cwd / "printf-arguments.log"
    argv = ["perl", *perl_printf.install(cwd), str(script), *arguments]
    environment = {**os.environ, perl_printf.LOG_VARIABLE: str(log)}
    done = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=600,
                          env=environment)
    stdout = done.stdout.decode("utf-8", "replace")
    printfs = perl_printf.read_log(log)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines() or [""]
        message = next((line.strip() for line in reversed(lines) if line.strip()), "")
        raise ScriptDied(done.returncode, message, stdout, printfs)
    return stdout, printfs


def _lines(texts: Sequence[str], final_newline: bool = True) -> bytes:
    text = "".join(f"{text}\n" for text in texts)
    return (text if final_newline else text[:-1]).encode("utf-8")


def _multi_bleu_folder(work: Path, references: Sequence[Sequence[str]],
                       final_newline: bool) -> None:
    width = max((len(refs) for refs in references), default=0)
    for j in range(width):
        stream = [refs[j] for refs in references if len(refs) > j]
        (work / f"ref{j}").write_bytes(_lines(stream, final_newline))


def run_multi_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                   lc: bool = False, script: str = "multi-bleu.perl",
                   final_newline: bool = True) -> str:
    """``SCRIPT [-lc] ref < hyp``: its output line. Segment ``i``'s j-th reference is line
    ``i`` of file ``ref{j}``; a segment with fewer references than another must come last
    (the script cannot skip a line in the middle of a file). ``final_newline=False`` leaves
    the line break off the last line of every file (the scripts that ``chop`` lose a
    character there)."""
    return multi_bleu_figures(hypotheses, references, lc, script, final_newline).line


@dataclass(frozen=True)
class MultiBleuPrinted:
    """multi-bleu's output line and the numbers its ``printf`` made it from (``100*$bleu``,
    the four percent precisions, BP, ratio, and the lengths where the script prints them);
    none where it printed the fixed zero line."""

    line: str
    figures: tuple[float, ...]


def multi_bleu_figures(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                       lc: bool = False, script: str = "multi-bleu.perl",
                       final_newline: bool = True) -> MultiBleuPrinted:
    """:func:`run_multi_bleu`, with the full-precision numbers of the line."""
    with tempfile.TemporaryDirectory(prefix="multi-bleu-") as folder:
        work = Path(folder)
        _multi_bleu_folder(work, references, final_newline)
        arguments = (["-lc"] if lc else []) + [str(work / "ref")]
        output, printfs = _run_recording_printf(script_path(script), arguments, work,
                                                _lines(hypotheses, final_newline))
    line = [call for call in printfs if call.format.startswith("BLEU = ")]
    return MultiBleuPrinted(output.strip(), tuple(float(a) for a in line[0].arguments)
                            if line else ())


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


def _mteval_files(work: Path,
                  corpora: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]]) -> None:
    """``src.sgm``, ``ref.sgm`` and ``tst.sgm`` in ``work``: each corpus one document."""
    width = max(len(refs) for _, corpus_refs in corpora for refs in corpus_refs)
    if any(len(refs) != width for _, corpus_refs in corpora for refs in corpus_refs):
        raise ValueError("mteval needs every segment to have the same number of references")
    hypotheses = [hyps for hyps, _ in corpora]
    (work / "src.sgm").write_bytes(_sgml("src", [(None, hypotheses)]))
    (work / "ref.sgm").write_bytes(_sgml("ref", [
        (f"ref{j}", [[refs[j] for refs in corpus_refs] for _, corpus_refs in corpora])
        for j in range(width)]))
    (work / "tst.sgm").write_bytes(_sgml("tst", [("sys", hypotheses)]))


def run_mteval(corpora: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]],
               options: Mapping[str, Any], script: str = "mteval-v13a.pl") -> MtevalScores:
    """Each ``(hypotheses, references)`` of ``corpora`` as one document of one system; every
    segment of a corpus must have the same number of references (one reference set each).
    ``script``: ``mteval-v13a.pl`` or ``mteval-v14.pl`` (the same command line)."""
    with tempfile.TemporaryDirectory(prefix="mteval-") as folder:
        work = Path(folder)
        _mteval_files(work, corpora)
        argv = ["perl", str(script_path(script)), "-b", "--metricsMATR",
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


@dataclass(frozen=True)
class OldMtevalScores:
    """What ``mteval-v11b.pl``/``mteval-v12.pl -b -d 2`` handed to ``printf``, at full
    precision: per document its segment scores (document order), the document scores, the
    system score and its nine individual and cumulative scores. Whatever was printed before
    the script died, when read from a :class:`ScriptDied`."""

    system: float | None
    documents: tuple[float, ...]
    segments: tuple[tuple[float, ...], ...]
    individual: tuple[float, ...]
    cumulative: tuple[float, ...]
    stdout: str = ""


def old_mteval_scores(printfs: Sequence[PrintfCall], stdout: str = "") -> OldMtevalScores:
    """The scores among ``printfs`` (in the order the script printed them: each document's
    segments, then the document, then the system and its n-gram tables)."""
    segments: list[list[float]] = [[]]
    documents, columns = [], []
    system = None
    for call in printfs:
        if " on segment %d of document " in call.format:
            segments[-1].append(call.number())
        elif " on document " in call.format:
            documents.append(call.number())
            segments.append([])
        elif call.format.startswith("\nBLEU score = "):
            system = call.number()
        elif call.format == "  %2.4f ":
            columns.append(call.number())
    if not segments[-1]:
        segments.pop()
    return OldMtevalScores(system, tuple(documents), tuple(map(tuple, segments)),
                           tuple(columns[:9]), tuple(columns[9:18]), stdout)


def run_old_mteval(corpora: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]],
                   preserve_case: bool = False, script: str = "mteval-v11b.pl",
                   detail: int = 2) -> OldMtevalScores:
    """``SCRIPT -b -d DETAIL [-c]`` on ``corpora`` (each one document, as :func:`run_mteval`
    writes them). With ``-d 2`` the scripts score every segment and document with the
    function that scores the system, so a segment that function refuses ends the run: the
    :class:`ScriptDied` carries the ``printf`` calls made until then
    (:func:`old_mteval_scores` reads them); ``-d 0`` scores the system alone."""
    with tempfile.TemporaryDirectory(prefix="mteval-old-") as folder:
        work = Path(folder)
        _mteval_files(work, corpora)
        arguments = ["-b", "-d", str(detail), "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm"]
        arguments += ["-c"] if preserve_case else []
        stdout, printfs = _run_recording_printf(script_path(script), arguments, work)
    return old_mteval_scores(printfs, stdout)
