"""In CI (``CI=true``), a test skipped because an oracle that CI installs is missing fails
instead of passing quietly: ``.ci/run`` installs Perl's XML::Twig and Sort::Naturally,
RE2's headers (libre2-dev), Debian's libguava-java (for MultEval's Java sources), Chromium
(and the browser test's Playwright), the old library releases of ``tools/atlas.py prepare
--ci``, the interpreters of ``tools/tool_envs.py`` (torch, NumPy 1) and the test extra
(mkdocs, for the documentation site), so their absence there is a broken CI, not a machine without them. Elsewhere such a test is skipped with its reason
(``-rs`` in the pytest options shows it)."""

from __future__ import annotations

import os

import pytest

#: Words of the skip reasons that name an oracle CI installs.
CI_ORACLES = ("XML::Twig", "Sort::Naturally", "libre2-dev", "Chromium", "playwright",
              "tools/atlas.py prepare", "mkdocs", "libguava-java", "tools/tool_envs.py")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


def oracle_missing(reason: str) -> bool:
    return any(word.lower() in reason.lower() for word in CI_ORACLES)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skip (``skipif``, ``pytest.skip``, ``importorskip``, in a fixture or the test)
    whose reason names a CI oracle becomes a failure under ``CI=true``."""
    outcome = yield
    report = outcome.get_result()
    if (report.skipped and in_ci() and not hasattr(report, "wasxfail")
            and oracle_missing(skip_reason(report))):
        report.outcome = "failed"
        report.longrepr = (f"CI=true: an oracle CI installs is missing, so this test cannot "
                           f"run: {skip_reason(report)}")
