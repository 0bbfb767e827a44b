"""fairseq's BLEU as fairseq runs it (:mod:`bleu_harness.adapters.fairseq_scorer`: fairseq
0.12.2's own ``Scorer``, ``Dictionary`` and ``fairseq-score``, unmodified, over a torch stub),
with a ``libbleu`` the tests build themselves from the same unmodified ``libbleu.cpp``
(``bleu_harness/adapters/vendored/fairseq``), with the compiler fairseq's ``setup.py`` uses --
not the one the package's install built -- and ``fairseq-score``'s command line.

The build: ``g++ -std=c++11 -O3 -shared -fPIC libbleu.cpp -o libbleu.so`` (``setup.py``'s
``extra_compile_args``; ``-shared -fPIC`` as setuptools builds the extension), in a temporary
directory; :func:`why_no_compiler` says why it cannot be built here.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from bleu_harness.adapters.fairseq_scorer import (  # noqa: F401  (the tests' names)
    SOURCES,
    VERSION,
    Fairseq,
    Scored,
    load,
    run_scorer,
)

SOURCE = SOURCES / "libbleu.cpp"
COMPILERS = ("g++", "c++", "clang++")


def compiler() -> str | None:
    return next((c for c in COMPILERS if shutil.which(c)), None)


def why_no_compiler() -> str | None:
    if compiler() is None:
        return f"no C++ compiler ({', '.join(COMPILERS)}) to build fairseq's libbleu.cpp"
    return None


def build_command(output: Path) -> list[str]:
    return [compiler(), "-std=c++11", "-O3", "-shared", "-fPIC", str(SOURCE), "-o", str(output)]


def build_libbleu(directory: Path) -> Path:
    """``libbleu.cpp`` compiled into ``directory``; the compiler's message on failure."""
    output = directory / "libbleu.so"
    done = subprocess.run(build_command(output), capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"building libbleu failed: {done.stderr.strip()}")
    return output


def run_fairseq_score(fairseq: Fairseq, directory: Path, hypotheses: Sequence[str],
                      references: Sequence[str], *flags: str) -> str:
    """``fairseq-score -s SYS -r REF FLAGS`` (``cli_main``) on files written with one segment a
    line: what it prints after its ``Namespace`` line, or ``raises X``."""
    sys_file, ref_file = directory / "sys.txt", directory / "ref.txt"
    sys_file.write_text("".join(f"{h}\n" for h in hypotheses), encoding="utf-8")
    ref_file.write_text("".join(f"{r}\n" for r in references), encoding="utf-8")
    argv, printed = sys.argv, io.StringIO()
    sys.argv = ["fairseq-score", "-s", str(sys_file), "-r", str(ref_file), *flags]
    try:
        with fairseq.active(), contextlib.redirect_stdout(printed):
            fairseq.score.cli_main()
    except Exception as error:
        return f"raises {type(error).__name__}"
    finally:
        sys.argv = argv
    return printed.getvalue().split("\n", 1)[1].rstrip("\n")
