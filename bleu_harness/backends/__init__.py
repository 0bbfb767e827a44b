"""Backends: one adapter per BLEU implementation behind one protocol (``base.Backend``)."""
