"""Marian's ``BleuValidator`` (``src/training/validator.h`` at marian-nmt/marian-dev@46c94a58,
unmodified in ``tests/oracles/marian/`` with the ``common/regex.h``, ``common/utils.h``,
``common/utils.cpp``, ``3rd_party/CLI/StringTools.hpp`` and ``data/types.h`` it needs),
compiled with ``g++`` over stub headers for the rest of Marian (``tests/marian_stubs/``: the
graph, models, beam search and data pipeline, which the BLEU code never runs) and driven by
``tests/marian_bleu_driver.cc``, which lays the references out in a target sub-batch as
Marian's corpus does and calls the validator's own ``updateStats`` and ``calcBLEU``.

The build: ``g++ -std=c++11 -O0 -I tests/marian_stubs -I tests/oracles/marian
-I tests/oracles/marian/3rd_party tests/marian_bleu_driver.cc
tests/oracles/marian/common/utils.cpp`` (Marian v1.7 builds with ``-std=c++11`` and, from GCC
4.9 on, ``std::regex``: ``CMakeLists.txt``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from built import digest_of, kept_build

HERE = Path(__file__).resolve().parent
ORACLES = HERE / "oracles" / "marian"
COMMIT = "marian-nmt/marian-dev@46c94a58fd43e6490258073f61ff7ac1ce4f56f5"
VERSION = "1.7.8"


def why_no_compiler() -> str | None:
    return None if shutil.which("g++") else "g++ is not installed (Marian's validator.h is C++)"


def build_command(output: Path) -> list[str]:
    return ["g++", "-std=c++11", "-O0", "-I", str(HERE / "marian_stubs"), "-I", str(ORACLES),
            "-I", str(ORACLES / "3rd_party"), str(HERE / "marian_bleu_driver.cc"),
            str(ORACLES / "common" / "utils.cpp"), "-o", str(output)]


def build(directory: Path) -> Path:
    """Compile the driver with the vendored validator into ``directory``."""
    binary = directory / "marian_bleu"
    done = subprocess.run(build_command(binary), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("g++ failed:\n" + done.stderr[-3000:])
    return binary


SACREBLEU_ORACLES = ORACLES / "1.12.0"
SACREBLEU_STUBS = HERE / "marian_stubs" / "1.12.0"
SACREBLEU_COMMIT = "marian-nmt/marian-dev@65bf82ffce52f4854295d8b98482534f176d494e"
SACREBLEU_VERSION = "1.12.0"
SACREBLEU_SOURCES = (HERE / "marian_sacrebleu_driver.cc",  # includes training/validator.cpp
                     SACREBLEU_ORACLES / "common" / "utils.cpp")


#: The compiler's flags: CLI/StringTools.hpp of 3rd_party is the same blob in 1.12.0.
SACREBLEU_FLAGS = ("-std=c++17", "-O0", "-w", "-I", str(SACREBLEU_STUBS), "-I",
                   str(SACREBLEU_ORACLES), "-I", str(ORACLES / "3rd_party"))


def kept_sacrebleu() -> Path:
    """The driver, compiled once per content of its sources (tests/built.py)."""
    sources = [*SACREBLEU_SOURCES, SACREBLEU_STUBS, SACREBLEU_ORACLES, ORACLES / "3rd_party"]
    return kept_build("marian-sacrebleu", digest_of(sources, *SACREBLEU_FLAGS), build_sacrebleu)


def build_sacrebleu(directory: Path) -> Path:
    """Compile the driver with the vendored v1.12.0 validator into ``directory``: each
    translation unit in its own ``g++ -c`` at once, then the link."""
    flags = list(SACREBLEU_FLAGS)
    objects = [directory / f"{source.stem}.o" for source in SACREBLEU_SOURCES]
    running = [subprocess.Popen(["g++", *flags, "-c", str(source), "-o", str(obj)],
                                stderr=subprocess.PIPE, text=True)
               for source, obj in zip(SACREBLEU_SOURCES, objects)]
    errors = [process.communicate()[1] for process in running]
    binary = directory / "marian_sacrebleu"
    if any(process.returncode for process in running):
        raise RuntimeError("g++ failed:\n" + "".join(errors)[-3000:])
    done = subprocess.run(["g++", *map(str, objects), "-o", str(binary)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError("g++ failed:\n" + done.stderr[-3000:])
    return binary


def _hex(text: str) -> str:
    return "x" + text.encode("utf-8").hex()


class Validator:
    """One running driver; :meth:`bleu` scores a corpus (one reference per segment)."""

    def __init__(self, binary: Path) -> None:
        self.process = subprocess.Popen([str(binary)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def bleu(self, hypotheses: list[str], references: list[str], detok: bool
             ) -> tuple[float, list[float]]:
        """``calcBLEU`` after ``updateStats`` of every segment: the float32 score (0-100) and
        the nine float32 statistics (matches and n-grams of orders 1-4, reference length)."""
        lines = [f"C {int(detok)} {len(hypotheses)}"]
        lines += [f"{_hex(h)} {_hex(r)}" for h, r in zip(hypotheses, references)]
        self.process.stdin.write("\n".join(lines) + "\n")
        self.process.stdin.flush()
        values = [float.fromhex(v) for v in self.process.stdout.readline().split()]
        return values[0], values[1:]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


class SacreBleuValidator(Validator):
    """One running v1.12.0 driver; :meth:`bleu` scores a corpus (one reference per
    segment) as ``--valid-metrics METRIC`` with a target vocabulary of ``vocab_type``."""

    def bleu(self, hypotheses: list[str], references: list[str], metric: str = "bleu",
             vocab_type: str = "SentencePieceVocab") -> tuple[float, list[float]]:
        """``calcBLEU`` after ``updateStats`` of every segment: the float32 score (0-100) and
        the 13 float32 statistics (matches, hypothesis n-grams and, left at 0 for BLEU,
        reference n-grams of orders 1-4; the reference length)."""
        lines = [f"C {metric} {vocab_type} {len(hypotheses)}"]
        lines += [f"{_hex(h)} {_hex(r)}" for h, r in zip(hypotheses, references)]
        self.process.stdin.write("\n".join(lines) + "\n")
        self.process.stdin.flush()
        values = [float.fromhex(v) for v in self.process.stdout.readline().split()]
        return values[0], values[1:]
