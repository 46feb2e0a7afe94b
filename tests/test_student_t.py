"""Student's t quantile: the same numbers as SciPy's stdtrit, without SciPy in a web worker."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reflexion_site.student_t import t_quantile


@settings(max_examples=300, deadline=None)
@given(
    df=st.one_of(st.integers(1, 5_000), st.floats(0.5, 5_000)),
    p=st.floats(1e-6, 1 - 1e-6).filter(lambda p: abs(p - 0.5) > 1e-3),
)
def test_the_quantile_is_scipys(df, p):
    # (Within 1e-3 of the middle, SciPy loses digits: the next test checks those.)
    from scipy.special import stdtrit

    assert t_quantile(df, p) == pytest.approx(float(stdtrit(df, p)), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.706204736), (2, 4.302652730), (10, 2.228138852), (29, 2.045229642), (1000, 1.962339)],
)
def test_the_975_percent_points_of_the_printed_tables(df, expected):
    assert t_quantile(df, 0.975) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("df", [1, 4, 30, 1000])
def test_just_above_the_middle_the_quantile_is_the_offset_over_the_density_at_zero(df):
    # F(t) ≈ 1/2 + f(0)·t for tiny t, f(0) = Γ((df+1)/2) / (√(df·π)·Γ(df/2)).
    density = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    assert t_quantile(df, 0.5 + 1e-7) == pytest.approx(1e-7 / density, rel=1e-6)


def test_the_distribution_is_symmetric_about_zero():
    assert t_quantile(7, 0.5) == 0.0
    assert t_quantile(7, 0.1) == -t_quantile(7, 0.9)


@pytest.mark.parametrize(("df", "p"), [(0, 0.9), (-1, 0.9), (5, 0.0), (5, 1.0), (5, 1.5)])
def test_impossible_arguments_are_refused(df, p):
    with pytest.raises(ValueError, match="must be"):
        t_quantile(df, p)
