"""The ``bleu-harness`` console script: SIGINT and SIGTERM are handled before anything else
is imported, so a signal while the command line loads (a few tenths of a second) ends it with
one line and 130 / 143, never a traceback (:mod:`bleu_harness.signals`)."""

from __future__ import annotations

import sys

from bleu_harness import signals


def main(argv: list[str] | None = None) -> int:
    signals.install()
    try:
        try:
            from bleu_harness import reaper
            from bleu_harness.cli import main as command_line

            reaper.adopt_every_orphan()  # this process starts no process but its workers
        except KeyboardInterrupt as stop:
            signals.hold()
            code = signals.exit_code_of(stop)
            print(f"bleu-harness: {'terminated' if code == signals.TERMINATED else 'interrupted'}",
                  file=sys.stderr)
            return code
        return command_line(argv)
    finally:
        # The process ends with the code the command chose: a signal from now on stays
        # pending (the interpreter's own shutdown gives SIGINT and SIGTERM back their default
        # action, which would end the process by the signal instead).
        signals.block()


if __name__ == "__main__":
    sys.exit(main())
