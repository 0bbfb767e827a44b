"""The optional C kernel (bleu_harness/bleu/_native.c); everything else is in pyproject.toml.

``optional=True``: where no C compiler is found the build warns and goes on, and the
pure-Python statistics pass runs instead (bleu_harness.bleu.native.AVAILABLE says which).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bleu_harness.bleu._native", ["bleu_harness/bleu/_native.c"],
                             extra_compile_args=["-O2"], optional=True)])
