"""The interpreters of the real tools' live tests that the project's own environment cannot
hold: each a virtual environment under ``.atlas/`` beside the atlas's releases.

    python tools/tool_envs.py                  # prepare every one (a minute or two)
    python tools/tool_envs.py torch            # prepare one
    python tools/tool_envs.py --python torch   # print its interpreter

* ``torch`` (``.atlas/torch``): a CPU build of torch and the releases the conventions follow,
  pytorch-ignite (``ignite``) and torchmetrics (``torchmetrics-sacrebleu``), and torch for
  the vendored torchtext and allennlp metrics (``tests/oracles/``); torch is pinned exactly,
  so that no resolver picks another build (``tests/torch_python.py``);
* ``numpy1`` (``.atlas/numpy1``): NumPy 1.26.4, the last NumPy 1, on which keras-hub's
  ``Bleu`` computes its float32 state under NumPy 1's promotion rules (the ``keras-hub``
  convention's ``numpy=1``; ``tests/numpy1_python.py``).

Prepared already, an environment is left as it is. ``.ci/run`` prepares them all, and the
tests then run those tools live.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ToolEnv:
    """A virtual environment: what it installs, and the import that says it is ready."""

    name: str
    requirements: tuple[str, ...]
    probe: str

    @property
    def folder(self) -> Path:
        return ROOT / ".atlas" / self.name

    @property
    def python(self) -> Path:
        return self.folder / "bin" / "python"

    def prepared(self) -> bool:
        """Whether the environment imports what it is for."""
        if not self.python.is_file():
            return False
        done = subprocess.run([str(self.python), "-c", self.probe], capture_output=True,
                              check=False)
        return done.returncode == 0

    def prepare(self) -> str:
        if self.prepared():
            return f"{self.python}: ready"
        venv.EnvBuilder(with_pip=True, clear=True).create(self.folder)
        subprocess.run([str(self.python), "-m", "pip", "install", "--quiet", "--only-binary",
                        ":all:", *self.requirements], check=True)
        if not self.prepared():
            raise SystemExit(f"{self.python}: prepared, but `{self.probe}` fails")
        return f"{self.python}: prepared"


ENVS = {env.name: env for env in (
    ToolEnv("torch", ("torch==2.13.0", "pytorch-ignite==0.5.5", "torchmetrics==1.9.0",
                      "sacrebleu==2.6.0", "nltk==3.10.4", "numpy", "regex"),
            "import torch, ignite, torchmetrics, sacrebleu"),
    ToolEnv("numpy1", ("numpy==1.26.4", "packaging", "regex"),
            "import numpy, packaging; assert numpy.__version__ == '1.26.4'"),
)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"the environments to prepare ({', '.join(ENVS)}; default all)")
    parser.add_argument("--python", metavar="NAME", choices=list(ENVS),
                        help="print that environment's interpreter")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in ENVS]
    if unknown:
        parser.error(f"unknown environment {unknown[0]!r} (known: {', '.join(ENVS)})")
    if args.python:
        print(ENVS[args.python].python)
        return 0 if ENVS[args.python].python.is_file() else 1
    for name in args.names or list(ENVS):
        print(ENVS[name].prepare(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
