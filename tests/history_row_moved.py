"""``python history_row_moved.py LIBRARY RULE SINCE VERSION``: the engine's answer to that
row's witness (``tests/history_witnesses.py``), following release VERSION, with the row taken
out of the history -- one JSON line, ``["value", [hex, ...]]`` or ``["raises", exception]``
(:func:`answer`; the test asks :func:`answer` for the history as it is).

A process of its own, the row taken out before anything is scored: the engine remembers each
release's rules and each convention's settings, so a history changed in the middle of a
process would answer from memory."""

from __future__ import annotations

import json
import sys


def answer(library: str, version: str, witness) -> list:
    from bleu_harness.bleu import ConventionError, score

    try:
        result = score(list(witness.hypotheses), [list(r) for r in witness.references],
                       library, witness.level, version=version, **witness.options)
    except ConventionError as error:
        return ["raises", error.library_exception]
    except ValueError as error:
        return ["raises", f"ValueError: {error}"]
    return ["value", [float(s).hex() for s in result.scores]]


def main(library: str, rule: str, since: str, version: str) -> None:
    from history_witnesses import WITNESSES

    from bleu_harness.bleu import history

    table = history.HISTORIES[library]
    object.__setattr__(table, "changes", tuple(
        c for c in table.changes if not (c.rule == rule and c.since == since)))
    print(json.dumps(answer(library, version, WITNESSES[library, rule, since])))


if __name__ == "__main__":
    main(*sys.argv[1:5])
