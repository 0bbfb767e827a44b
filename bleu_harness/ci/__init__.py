"""Glue for CI services around ``bleu-harness run``: each module drives the gate as a
subprocess, the way the service's users call it, and imports nothing else of the harness."""
