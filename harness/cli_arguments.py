"""Command-line arguments that several subcommands share."""

from __future__ import annotations


def add_implementation_arguments(group) -> None:
    """``--implementation`` / ``--implementation-cmd``: a black-box BLEU implementation."""
    group.add_argument("--implementation", metavar="MODULE:CALLABLE",
                       help="a Python callable fn(hypotheses, references, level, **options) "
                       "-> float on its native scale")
    group.add_argument("--implementation-cmd", metavar="COMMAND",
                       help="a program speaking JSON lines on stdin/stdout: "
                       '{"hypotheses", "references", "level", "options"} -> '
                       '{"score": x} or {"error": "..."}')
