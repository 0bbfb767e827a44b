"""The JUnit XML view: failures of the implementation under test are ``failure``, crashes
and timeouts ``error``, unsupported and skipped checks ``skipped``; reference drift is a
failure only with ``--strict-references``. Test names are unique; class names are case files
relative to their corpus; every message says expected, actual, difference and cause."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from bleu_harness.records import (
    DIVERGENCE,
    DRIFT,
    ERROR,
    FAIL,
    SKIPPED,
    UNSUPPORTED,
    shown,
)
from bleu_harness.report.causes import reconciled
from bleu_harness.report.presentation import (
    comparison,
    difference_shown,
    expected_shown,
    origin_text,
    versus,
)
from bleu_harness.report.stream import Run
from bleu_harness.report.summary import cause_of, options_shown
from bleu_harness.text import one_line

# XML 1.0 has no place for most control characters, even as references.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_text(text: object) -> str:
    """One line (:func:`bleu_harness.text.one_line`: a CI that prints a message never sees a line
    of its own in it) that XML 1.0 can hold."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", one_line(text))


def render_junit(run: Run, strict_references: bool) -> str:
    checks = [c for c in reconciled(run.checks) if c.verdict != DIVERGENCE]
    suite = ElementTree.Element("testsuite", name="bleu-harness", tests=str(len(checks)))
    failures = errors = skipped = 0
    for problem in run.problems:
        case = ElementTree.SubElement(suite, "testcase", classname=xml_text(problem.file),
                                      name=xml_text(f"case file: line {problem.line}: "
                                                    f"{problem.case_id or '-'}"))
        ElementTree.SubElement(case, "error", message=xml_text(str(problem)))
        errors += 1
    names: dict[str, int] = {}
    for c in checks:
        name = f"{c.case} · {c.check} · {c.backend} as {c.convention}"
        if c.figure != "score":
            name += f" · {c.figure}"
        if c.options:
            name += f" ({options_shown(c.options)})"
        name += versus(c)
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:
            name += f" #{names[name]}"
        case = ElementTree.SubElement(suite, "testcase", classname=xml_text(c.file),
                                      name=xml_text(name))
        properties = ElementTree.SubElement(case, "properties")
        for key, value in (("expected", expected_shown(c)), ("actual", shown(c.actual)),
                           ("difference", difference_shown(c)), ("tags", ", ".join(c.tags)),
                           ("provenance", origin_text(c.provenance)),
                           ("line", c.line), ("known", c.known)):
            if value not in (None, ""):
                ElementTree.SubElement(properties, "property", name=key,
                                       value=xml_text(value))
        message = f"{comparison(c, ', ')}; cause: {cause_of(c)}"
        if c.verdict == FAIL or (c.verdict == DRIFT and strict_references):
            ElementTree.SubElement(case, "failure", message=xml_text(message),
                                   type=c.verdict)
            failures += 1
        elif c.verdict == ERROR:
            ElementTree.SubElement(case, "error", message=xml_text(message))
            errors += 1
        elif c.verdict in (SKIPPED, UNSUPPORTED):
            ElementTree.SubElement(case, "skipped", message=xml_text(c.message or c.verdict))
            skipped += 1
        elif c.verdict == DRIFT:
            out = ElementTree.SubElement(case, "system-out")
            out.text = xml_text(f"reference library drift: {message}")
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    ElementTree.indent(suite)
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
