"""Explain divergences, identify the convention behind a score, fingerprint an implementation."""
