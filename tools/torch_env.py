"""The torch interpreter of the torch-based tools' live tests (``tests/torch_python.py``).

    python tools/torch_env.py            # prepare .atlas/torch (a minute or two)
    python tools/torch_env.py --python   # print its interpreter

A virtual environment beside the atlas's releases with a CPU build of torch and the releases
the conventions follow: pytorch-ignite (the ``ignite`` convention), torchmetrics
(``torchmetrics-sacrebleu``), and torch itself for the vendored torchtext and allennlp metrics
(``tests/oracles/``). torch is pinned exactly, so that no resolver picks another build.
Prepared already, it is left as it is. ``.ci/run`` prepares it, and the exhaustive tier then
runs those tools live.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / ".atlas" / "torch"
PYTHON = FOLDER / "bin" / "python"
#: What the live tests import on that interpreter, at the releases the conventions cite.
REQUIREMENTS = ("torch==2.13.0", "pytorch-ignite==0.5.5", "torchmetrics==1.9.0",
                "sacrebleu==2.6.0", "nltk==3.10.4", "numpy", "regex")


def prepared() -> bool:
    """Whether the environment imports every requirement."""
    if not PYTHON.is_file():
        return False
    done = subprocess.run([str(PYTHON), "-c", "import torch, ignite, torchmetrics, sacrebleu"],
                          capture_output=True, check=False)
    return done.returncode == 0


def prepare() -> str:
    if prepared():
        return f"{PYTHON}: ready"
    venv.EnvBuilder(with_pip=True, clear=True).create(FOLDER)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--only-binary", ":all:",
                    *REQUIREMENTS], check=True)
    if not prepared():
        raise SystemExit(f"{PYTHON}: prepared, but torch, ignite or torchmetrics do not import")
    return f"{PYTHON}: prepared"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="store_true", help="print the interpreter")
    args = parser.parse_args(argv)
    if args.python:
        print(PYTHON)
        return 0 if PYTHON.is_file() else 1
    print(prepare(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
