"""bleu-harness: a reference-conformance harness for the BLEU metric."""

__version__ = "0.1.0"
