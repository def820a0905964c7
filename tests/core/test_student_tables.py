"""core.tables: p-values, estimates and intervals formatted for student-facing tables (one line each)."""

import numpy as np
import pytest

from wordbias.core import tables
from wordbias.core.errors import InvalidParameterError


@pytest.mark.parametrize("p, text", [(1.4512e-9, "1.5e-09"), (0.015678, "0.0157"), (0.35917, "0.359"), (1.0, "1"),
                                     (0.001, "0.001"), (0.00099949, "1.0e-03"), (0.0, "0"), (np.nan, "-"),
                                     (None, "-")])
def test_p_text_fits_one_line(p, text):
    assert tables.p_text(p) == text
    assert "\n" not in tables.p_text(p) and len(tables.p_text(p)) <= 7


def test_p_text_refuses_what_is_not_a_probability():
    with pytest.raises(InvalidParameterError, match="must lie in"):
        tables.p_text(1.2)
    with pytest.raises(InvalidParameterError, match="must lie in"):
        tables.p_text(-0.001)
    # the ends of a Wald interval on p may leave [0, 1]: they have their own formatter
    assert tables.small_number_text(-0.00012) == "-1.2e-04"


def test_intervals_and_columns():
    assert tables.interval_column([1.0931, -0.0812, np.nan], [1.7544, 1.74, 2.0]) == \
        ["[1.09, 1.75]", "[-0.08, 1.74]", "-"]
    assert tables.number_text(1.50432) == "1.50" and tables.number_text(np.nan) == "-"
    assert tables.yes_no([True, False, None]) == ["yes", "no", "-"]
    with pytest.raises(InvalidParameterError, match="2 lower and 1 upper"):
        tables.interval_column([0, 1], [2])
