"""The compiled parts; everything else is in pyproject.toml. Both are ``optional=True``: where
no compiler is found the build warns and goes on.

* The engine's C kernel (bleu_harness/bleu/_native.c); without it the pure-Python statistics
  pass runs instead (bleu_harness.bleu.native.AVAILABLE says which).
* fairseq's C ``libbleu`` (bleu_harness/adapters/vendored/fairseq, unmodified), built as
  fairseq's own setup.py builds ``fairseq.libbleu`` (facebookresearch/fairseq@4a388e64cd64
  setup.py:35-66: the same two sources, ``-std=c++11 -O3``), for the live ``fairseq``
  backend; without it that backend is not installed, with the reason.
"""

from setuptools import Extension, setup

FAIRSEQ = "bleu_harness/adapters/vendored/fairseq"

setup(ext_modules=[
    Extension("bleu_harness.bleu._native", ["bleu_harness/bleu/_native.c"],
              extra_compile_args=["-O2"], optional=True),
    Extension("bleu_harness.adapters.libbleu",
              [f"{FAIRSEQ}/libbleu.cpp", f"{FAIRSEQ}/module.cpp"],
              extra_compile_args=["-std=c++11", "-O3"], optional=True),
])
