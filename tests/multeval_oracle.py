"""MultEval's BLEU as MultEval runs it: its own Java sources, unmodified
(``tests/oracles/multeval/src``, jhclark/multeval@bd93ed16, MultEval 0.5.1 / jBLEU 0.1.1),
compiled here with ``javac`` against Guava, and driven by ``tests/multeval_driver/
MultEvalOracle.java`` the way ``multeval eval`` scores one optimizer run
(``HypothesisManager.loadSentences`` / ``loadRefs`` on files, ``BLEU.stats`` per segment,
``SuffStatUtils.sumStats``, ``BLEU.score``), or ``BLEU.stats`` on the strings themselves.

Stubbed: jannopts (``lib/jannopts.jar``, MultEval's option parser: the annotation, the
``Configurator`` and its exception, ``tests/multeval_driver/jannopts``), which ``BLEU`` and
``Metric`` only declare options with. Guava: ``$BLEU_HARNESS_GUAVA_JAR``, else Debian's
``libguava-java`` (``/usr/share/java/guava.jar``, 31.1); MultEval ships 11.0
(``lib/guava-11.0.jar``), which matches the same ``BREAKING_WHITESPACE`` characters and splits
the same way (checked over every UTF-16 unit; ``tests/test_multeval.py`` checks the jar in use
against the engine's set). ``.ci/run`` installs ``libguava-java``.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "oracles" / "multeval" / "src"
DRIVER = HERE / "multeval_driver"
COMMIT = "jhclark/multeval@bd93ed16197af93dce6ff3273efa04b9cc9d13ce"
VERSION = "0.5.1"
DEBIAN_GUAVA = Path("/usr/share/java/guava.jar")


def guava_jar() -> Path | None:
    named = os.environ.get("BLEU_HARNESS_GUAVA_JAR", "")
    if named:
        return Path(named) if Path(named).is_file() else None
    return DEBIAN_GUAVA if DEBIAN_GUAVA.is_file() else None


def why_unavailable() -> str | None:
    """None when the oracle can be built and run here; otherwise what is missing."""
    missing = [tool for tool in ("javac", "java") if shutil.which(tool) is None]
    if missing:
        return f"no {' or '.join(missing)} (a JDK) to build MultEval's BLEU classes"
    if guava_jar() is None:
        return ("no Guava jar for MultEval's BLEU classes: Debian's libguava-java "
                "(/usr/share/java/guava.jar) or BLEU_HARNESS_GUAVA_JAR")
    return None


def build(directory: Path) -> Path:
    """The sources and the driver compiled into ``directory``; javac's message on failure."""
    sources = sorted(str(p) for p in (*SOURCES.rglob("*.java"), *DRIVER.rglob("*.java")))
    done = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-cp", str(guava_jar()),
                           "-d", str(directory), *sources],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"javac failed: {done.stderr.strip()}")
    return directory


class Oracle:
    """The driver running on the JVM, asked one request at a time."""

    def __init__(self, classes: Path) -> None:
        self.process = subprocess.Popen(
            ["java", "-cp", f"{classes}{os.pathsep}{guava_jar()}", "MultEvalOracle"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, encoding="utf-8")

    def ask(self, entry: str, hypotheses: list[str], references: list[list[str]]) -> dict:
        """``{"score", "stats"}`` or ``{"error", "message"}``; with ``entry="eval"`` every
        segment must have the same number of references (one file each)."""
        if entry == "eval" and len({len(refs) for refs in references}) > 1:
            raise ValueError("multeval eval reads the same number of references per segment")
        fields = [entry, str(len(hypotheses)), ",".join(str(len(r)) for r in references)]
        fields += [_b64(h) for h in hypotheses]
        fields += [_b64(r) for refs in references for r in refs]
        self.process.stdin.write("\t".join(fields) + "\n")
        self.process.stdin.flush()
        kind, rest = self.process.stdout.readline().rstrip("\n").split(" ", 1)
        if kind == "ERR":
            error, _, message = rest.partition(" ")
            return {"error": error, "message": message}
        bits, stats = rest.split(" ")
        score = float.fromhex(_hex_float(int(bits, 16)))
        return {"score": score, "stats": [int(v) for v in stats.split(",")]}

    def breaking_whitespace(self) -> str:
        """The characters the Guava jar in use splits on (``BREAKING_WHITESPACE``)."""
        self.process.stdin.write("breaking-whitespace\n")
        self.process.stdin.flush()
        kind, rest = self.process.stdout.readline().rstrip("\n").split(" ", 1)
        return "".join(chr(int(c, 16)) for c in rest.split(","))

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _hex_float(bits: int) -> str:
    """The ``float.hex`` of a double's raw bits."""
    import struct

    return struct.unpack("<d", struct.pack("<Q", bits))[0].hex()
