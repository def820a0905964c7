"""What the tests of the lessons' checks share: a fresh start for every test, and one way to assert a check's
result. Import both into a test module (``from check_helpers import assert_status, fresh_checks``): the fixture is
autouse there."""

import pytest

from wordbias.teaching import checks
from wordbias.teaching.checks import CheckResult


@pytest.fixture(autouse=True)
def fresh_checks(monkeypatch):
    """Each test starts with no wrong tries counted and the solutions switch unset."""
    monkeypatch.delenv(checks.SOLUTIONS_ENV, raising=False)
    monkeypatch.delenv(checks.STRICT_ENV, raising=False)
    checks.reset_tries()
    yield
    checks.reset_tries()


def assert_status(result, status, *fragments):
    """``result`` is a CheckResult of ``status`` (true exactly when correct) whose message holds each fragment."""
    assert isinstance(result, CheckResult)
    assert result.status == status, result.message
    assert bool(result) is (status == "correct")
    for fragment in fragments:
        assert fragment in result.message, (fragment, result.message)
