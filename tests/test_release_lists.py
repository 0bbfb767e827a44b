"""The library releases are listed once, in ``tools/atlas.py`` (``RELEASES``); tox.ini's atlas
environments and the releases CI prepares must be those (issue 27.10: three lists, nothing
checking that they agree)."""

from __future__ import annotations

import configparser
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _atlas():
    spec = importlib.util.spec_from_file_location("atlas_tool", ROOT / "tools" / "atlas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tox_has_one_atlas_environment_per_release():
    atlas = _atlas()
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    [section] = [s for s in tox.sections() if s.startswith("testenv:atlas-{")]
    factors = re.fullmatch(r"testenv:atlas-\{(.*)\}", section).group(1).split(",")
    assert [f"atlas-{f}" for f in factors] == [atlas.tox_name(lib, ver)
                                              for lib, ver, _ in atlas.RELEASES]


def test_ci_prepares_releases_of_the_list():
    atlas = _atlas()
    names = {atlas.name_of(lib, ver) for lib, ver, _ in atlas.RELEASES}
    assert set(atlas.CI_RELEASES) <= names
    assert "tools/atlas.py prepare --ci" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_history_change_has_a_ci_release_on_each_side():
    """A rule that changed at release X is checked against the last listed release before X
    and the first at or after it, so moving a row of the history fails a release test."""
    from packaging.version import Version

    from bleu_harness.bleu.history import HISTORIES

    atlas = _atlas()
    for library, history in HISTORIES.items():
        listed = sorted((v for lib, v, _ in atlas.RELEASES if lib == library), key=Version)
        for change in history.changes:
            before = [v for v in listed if Version(v) < Version(change.since)]
            after = [v for v in listed if Version(v) >= Version(change.since)]
            for side in (before[-1:], after[:1]):
                assert side, f"{library} {change.rule} {change.since}: no listed release there"
                assert atlas.name_of(library, side[0]) in atlas.CI_RELEASES, (
                    f"{library} {change.rule} changed in {change.since}: CI must prepare "
                    f"{library}-{side[0]}")
