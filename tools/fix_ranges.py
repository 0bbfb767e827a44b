"""Give every expectation the version range the atlas measured for it.

    bleu-harness atlas reports/atlas/*.jsonl --format json -o /tmp/atlas.json
    python tools/fix_ranges.py /tmp/atlas.json [--dry-run]

For each finding of the atlas with a suggested range, the expectation at its ``file:line``
gets ``versions: {library: "range"}`` (other libraries' ranges kept); the line is edited in
place, so comments and layout stay. Findings without a single range (a value that holds,
stops and holds again, or holds for no release) are printed for a person to decide.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

CORPUS = Path(__file__).resolve().parents[1] / "cases"


def expectation_node(root: yaml.Node, line: int) -> yaml.MappingNode | None:
    """The expectation mapping that starts on ``line`` (1-based)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            keys = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
            if "convention" in keys and node.start_mark.line + 1 == line:
                return node
            stack.extend(v for _, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return None


def _ranges_text(ranges: dict[str, str]) -> str:
    return "{" + ", ".join(f'{lib}: "{spec}"' for lib, spec in ranges.items()) + "}"


def apply(path: Path, line: int, library: str, spec: str) -> str:
    """Set ``versions[library] = spec`` on the expectation at ``line``; returns a note."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    node = expectation_node(yaml.compose(text, Loader=yaml.SafeLoader), line)
    if node is None:
        return f"{path}:{line}: no expectation starts here"
    values = {k.value: v for k, v in node.value}
    ranges = {}
    if "versions" in values:
        ranges = {k.value: v.value for k, v in values["versions"].value}
    ranges[library] = spec
    index = line - 1
    if node.flow_style:
        source = lines[index]
        if "versions" in values:
            versions = values["versions"]
            start, end = versions.start_mark.column, versions.end_mark.column
            lines[index] = source[:start] + _ranges_text(ranges) + source[end:]
        else:
            at = source.find("provenance:")
            at = at if at >= 0 else source.rstrip().rfind("}")
            lines[index] = source[:at] + f"versions: {_ranges_text(ranges)}, " + source[at:]
    else:
        if "versions" in values:
            row = values["versions"].start_mark.line
            lines[row] = re.sub(r"versions:.*", f"versions: {_ranges_text(ranges)}", lines[row])
        else:
            indent = node.start_mark.column
            lines.insert(index + 1, " " * indent + f"versions: {_ranges_text(ranges)}")
    path.write_text("\n".join(lines), encoding="utf-8")
    return ""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("atlas", help="bleu-harness atlas ... --format json")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    document = json.loads(Path(args.atlas).read_text(encoding="utf-8"))
    undecided = 0
    # bottom-up within a file, so an inserted line moves nothing still to be edited
    findings = [(library, f) for library, data in document["libraries"].items()
                for f in data["ranges"]]
    findings.sort(key=lambda item: (item[1]["where"].rsplit(":", 1)[0],
                                    -int(item[1]["where"].rsplit(":", 1)[1])))
    for library, finding in findings:
        file, line = finding["where"].rsplit(":", 1)
        if not finding["suggested"]:
            undecided += 1
            print(f"decide: {finding['where']} {finding['case']} {finding['value']}: recorded "
                  f"for {finding['recorded_range']}, holds for "
                  f"{', '.join(finding['holds_for']) or 'no release'}")
            continue
        print(f"{finding['where']}: {library} {finding['recorded_range']} -> "
              f"{finding['suggested']}")
        if not args.dry_run:
            note = apply(CORPUS / file, int(line), library, finding["suggested"])
            if note:
                print(note, file=sys.stderr)
    print(f"{len(findings) - undecided} ranges set, {undecided} to decide", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
