"""The compiled parts; everything else is in pyproject.toml. Both are ``optional=True``: where
no compiler is found the build warns and goes on.

* The engine's C kernel (bleu_harness/bleu/_native.c, and _sentence.c's sentence arithmetic);
  without it the pure-Python statistics pass runs instead (bleu_harness.bleu.native.AVAILABLE
  says which).
* fairseq's C ``libbleu`` (bleu_harness/adapters/vendored/fairseq, unmodified), built as
  fairseq's own setup.py builds ``fairseq.libbleu`` (facebookresearch/fairseq@4a388e64cd64
  setup.py:35-66: the same two sources, ``-std=c++11 -O3``), for the live ``fairseq``
  backend; without it that backend is not installed, with the reason.
"""

from setuptools import Extension, setup

FAIRSEQ = "bleu_harness/adapters/vendored/fairseq"

setup(ext_modules=[
    # -ffp-contract=off: no a * b + c fused into one rounding, so _sentence.c's arithmetic
    # stays Python's, operation for operation, whatever -march a build is given
    Extension("bleu_harness.bleu._native",
              ["bleu_harness/bleu/_native.c", "bleu_harness/bleu/_sentence.c"],
              depends=["bleu_harness/bleu/_sentence.h"],
              extra_compile_args=["-O2", "-ffp-contract=off"], optional=True),
    Extension("bleu_harness.adapters.libbleu",
              [f"{FAIRSEQ}/libbleu.cpp", f"{FAIRSEQ}/module.cpp"],
              extra_compile_args=["-std=c++11", "-O3"], optional=True),
])
