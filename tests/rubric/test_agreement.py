"""Agreement statistics (DOMAIN §6) against values computed by hand in the comments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rubric.agreement import POOLED, REFERENCE_KAPPA, agreement, kappa, ordinal_alpha
from rubric.models import CRITERIA, LEVELS

SPEC, ACT = "specificity", "actionability"


def table_of(criterion: str, **raters: list[float | None]) -> dict:
    """{(item, rater, criterion): level} from one list of levels per rater (None: not rated)."""
    return {
        (item, rater, criterion): level
        for rater, levels in raters.items()
        for item, level in enumerate(levels)
        if level is not None
    }


def spec_of(result):
    return result.criteria[CRITERIA.index(SPEC)]


def test_identical_raters_agree_perfectly():
    # Same levels on 3 items: p_o = 1, so κ = (1 - p_e) / (1 - p_e) = 1; no disagreement in
    # the coincidence matrix, so alpha = 1 - 0 / D_e = 1.
    result = agreement(table_of(SPEC, ana=[0, 0.25, 1], ben=[0, 0.25, 1]))
    spec = spec_of(result)
    assert spec.kappa == pytest.approx(1.0)
    assert spec.weighted_kappa == pytest.approx(1.0)
    assert spec.alpha == pytest.approx(1.0)
    assert (spec.exact, spec.within_one) == (1.0, 1.0)
    assert [b.bias for b in spec.biases] == [0.0, 0.0]


def test_chance_level_agreement_is_kappa_zero():
    # ana 0 0 1 1, ben 0 1 0 1: p_o = 2/4 = 0.5; each gives 0 and 1 half the time, so
    # p_e = 0.5·0.5 + 0.5·0.5 = 0.5 and κ = (0.5 - 0.5) / (1 - 0.5) = 0 exactly.
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 0, 1, 1], ben=[0, 1, 0, 1])))
    assert spec.kappa == pytest.approx(0.0, abs=1e-12)
    assert spec.kappa is not None  # a real 0, not "undefined"
    assert spec.exact == 0.5


def test_fractional_kappa_of_a_two_by_two_table():
    # ana 0 0 0 1 1, ben 0 0 1 1 1: p_o = 4/5 = 0.8; ana gives 0 3/5, 1 2/5; ben 0 2/5, 1 3/5;
    # p_e = 3/5·2/5 + 2/5·3/5 = 12/25 = 0.48; κ = (0.8 - 0.48) / (1 - 0.48) = 0.32/0.52 = 8/13.
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 0, 0, 1, 1], ben=[0, 0, 1, 1, 1])))
    assert spec.kappa == pytest.approx(8 / 13)
    assert kappa([0, 0, 0, 1, 1], [0, 0, 1, 1, 1]) == pytest.approx(8 / 13)


def test_quadratic_weights_credit_near_misses():
    # Level indexes ana 0 2 4, ben 0 4 4 (levels 0, .5, 1 / 0, 1, 1).
    # Unweighted: p_o = 2/3; p_e = P(both 0) + P(both 4) = 1/3·1/3 + 1/3·2/3 = 1/3;
    #   κ = (2/3 - 1/3) / (1 - 1/3) = 0.5.
    # Quadratic, w = (i - j)²: observed Σw·o = (2-4)²·1/3 = 4/3; expected Σw·pa·pb =
    #   1/3·(2/3·16) + 1/3·(1/3·4 + 2/3·4) + 1/3·(1/3·16) = 32/9 + 12/9 + 16/9 = 20/3;
    #   κ_w = 1 - (4/3) / (20/3) = 1 - 0.2 = 0.8.
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 0.5, 1], ben=[0, 1, 1])))
    assert spec.kappa == pytest.approx(0.5)
    assert spec.weighted_kappa == pytest.approx(0.8)


def test_a_constant_rater_leaves_kappa_undefined_not_zero():
    # ben gives 0.5 throughout: κ is 0/0-like and measures nothing (see the module docstring).
    # Exact: 1 of 3 equal; alpha still has variation (ana's levels), so it is defined.
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 0.5, 1], ben=[0.5, 0.5, 0.5])))
    (pair,) = spec.pairs
    assert pair.kappa is None and pair.weighted_kappa is None
    assert spec.kappa is None and spec.weighted_kappa is None and spec.kappa_pairs == 0
    assert pair.undefined_reason == (
        "κ is undefined on the 3 items rated by both: ben gave 0.5 on all of them"
    )
    assert pair.exact == pytest.approx(1 / 3)
    assert spec.alpha is not None


def test_no_variation_at_all_leaves_alpha_undefined():
    spec = spec_of(agreement(table_of(SPEC, ana=[0.5, 0.5], ben=[0.5, 0.5])))
    assert spec.alpha is None
    assert spec.kappa is None
    assert spec.exact == 1.0  # agreement itself is still perfectly well defined


def test_alpha_from_pairable_values_with_missing_ratings():
    # Units (columns) rated by 3 raters, level indexes (0 = 0, 1 = 0.25, 2 = 0.5):
    #   u1 ana 0, ben 0           → o[0,0] += 2·1/(2-1) = 2
    #   u2 ana 1, ben 2, cid 2    → each ordered pair adds 1/(3-1): o[1,2] = o[2,1] = 1, o[2,2] = 1
    #   u3 ben 0, cid 2           → o[0,2] = o[2,0] = 1
    #   u4 ana 0 alone            → not pairable, dropped
    # Marginals n0 = 3, n1 = 1, n2 = 3, n = 7.  Ordinal δ²(c,k) = (Σ_{g=c..k} n_g - (n_c+n_k)/2)²:
    #   δ²(0,1) = (4 - 2)² = 4, δ²(1,2) = (4 - 2)² = 4, δ²(0,2) = (7 - 3)² = 16.
    # Observed Σ o·δ² = 1·4 + 1·4 + 1·16 + 1·16 = 40;  expected Σ n_c·n_k·δ² over ordered
    #   c ≠ k = 2·(3·1·4 + 1·3·4 + 3·3·16) = 336;  alpha = 1 - (n-1)·40/336 = 1 - 240/336 = 2/7.
    table = table_of(
        SPEC, ana=[0, 0.25, None, 0], ben=[0, 0.5, 0, None], cid=[None, 0.5, 0.5, None]
    )
    spec = spec_of(agreement(table))
    assert spec.alpha == pytest.approx(2 / 7)
    assert (spec.units, spec.pairable_units, spec.ratings) == (4, 3, 8)


def test_alpha_reproduces_krippendorffs_2011_ordinal_example():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers by 12
    # units example with missing values; published ordinal alpha = 0.815. Values 1..5 map to the
    # five levels in order, which the ordinal metric (ranks and frequencies only) ignores.
    raw = [
        "1 2 3 3 2 1 4 1 2 . . .",
        "1 2 3 3 2 2 4 1 2 5 . 3",
        ". 3 3 3 2 3 4 2 2 5 1 .",
        "1 2 3 3 2 4 4 1 2 5 1 .",
    ]
    rows = [[None if v == "." else LEVELS[int(v) - 1] for v in line.split()] for line in raw]
    assert ordinal_alpha(rows) == pytest.approx(0.815, abs=5e-4)


def test_alpha_is_undefined_without_pairable_values():
    # Every unit has one rating: nothing to compare.
    assert ordinal_alpha([[0, None], [None, 1]]) is None
    assert ordinal_alpha([[0.25, 0.75]]) is None


def test_exact_and_within_one_level():
    # Differences in levels: 0, 1 (0.5 vs 0.75), 2 (1 vs 0.5), 3 (0.25 vs 1).
    # Exact: 1 of 4 = 0.25; within one level: 2 of 4 = 0.5.
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 0.5, 1, 0.25], ben=[0, 0.75, 0.5, 1])))
    assert spec.exact == pytest.approx(0.25)
    assert spec.within_one == pytest.approx(0.5)


def test_exact_counts_every_pair_of_raters_on_an_item():
    # Item 0: ana 0.5, ben 0.5, cid 1 → pairs (a,b) equal, (a,c) and (b,c) differ by 2 levels.
    # Item 1: ana 0, ben 0.25 → one pair, one level apart.
    # Exact: 1 of 4 pairs = 0.25; within one: (a,b) on item 0 and (a,b) on item 1 = 2/4.
    spec = spec_of(agreement(table_of(SPEC, ana=[0.5, 0], ben=[0.5, 0.25], cid=[1, None])))
    assert spec.exact == pytest.approx(0.25)
    assert spec.within_one == pytest.approx(0.5)


def test_bias_is_leave_one_out_and_signed():
    # On both items ana 0.5, ben 0.5, cid 1.
    #   cid: 1 - mean(0.5, 0.5) = +0.5 on each item → +0.5 (rates higher);
    #   ana: 0.5 - mean(0.5, 1) = -0.25 on each item → -0.25; ben likewise.
    # (With cid in the mean, cid's bias would read 1 - 2/3 = +1/3 instead.)
    spec = spec_of(agreement(table_of(SPEC, ana=[0.5, 0.5], ben=[0.5, 0.5], cid=[1, 1])))
    biases = {b.rater: (b.bias, b.units) for b in spec.biases}
    assert biases["cid"] == (pytest.approx(0.5), 2)
    assert biases["ana"] == (pytest.approx(-0.25), 2)
    assert biases["ben"] == (pytest.approx(-0.25), 2)


def test_bias_is_undefined_for_a_rater_who_never_met_another():
    spec = spec_of(agreement(table_of(SPEC, ana=[0.5, None], ben=[0.5, None], cid=[None, 1])))
    biases = {b.rater: b for b in spec.biases}
    assert biases["cid"].bias is None and biases["cid"].units == 0
    assert biases["ana"].bias == 0.0


def test_mean_kappa_is_weighted_by_shared_items_and_skips_undefined_pairs():
    # ana & ben on items 0-3: 0 0 1 1 vs 0 1 0 1 → κ = 0 (the chance case), 4 shared.
    # ana & cid on items 4-5: 0 1 vs 0 1 → κ = 1, 2 shared.
    # ben & cid share nothing → undefined, left out.
    # Mean = (4·0 + 2·1) / (4 + 2) = 1/3 (an unweighted mean would say 0.5).
    table = table_of(
        SPEC,
        ana=[0, 0, 1, 1, 0, 1],
        ben=[0, 1, 0, 1, None, None],
        cid=[None, None, None, None, 0, 1],
    )
    spec = spec_of(agreement(table))
    assert spec.kappa == pytest.approx(1 / 3)
    assert spec.kappa_pairs == 2
    bc = spec.pair("cid", "ben")
    assert bc.kappa is None and bc.shared == 0
    assert bc.undefined_reason == "no items rated by both"
    # Exact over every (item, pair): 2 of 4 + 2 of 2 = 4/6.
    assert spec.exact == pytest.approx(4 / 6)


def test_pooled_treats_item_criterion_units_together():
    # specificity: ana 0 1, ben 0 1 → κ = 1.
    # actionability: ana 0 0 1, ben 0 1 1 → p_o = 2/3, p_e = 2/3·1/3 + 1/3·2/3 = 4/9,
    #   κ = (2/3 - 4/9) / (1 - 4/9) = (2/9)/(5/9) = 0.4.
    # Pooled over the 5 (item, criterion) units: ana 0 1 0 0 1, ben 0 1 0 1 1 — the 8/13 case
    # of test_fractional_kappa_of_a_two_by_two_table (not the mean of 1 and 0.4).
    table = {
        **table_of(SPEC, ana=[0, 1], ben=[0, 1]),
        **table_of(ACT, ana=[0, 0, 1], ben=[0, 1, 1]),
    }
    result = agreement(table)
    by_name = {a.criterion: a for a in result.all}
    assert by_name[SPEC].kappa == pytest.approx(1.0)
    assert by_name[ACT].kappa == pytest.approx(0.4)
    assert by_name[POOLED].kappa == pytest.approx(8 / 13)
    assert by_name[POOLED].units == 5
    # Criteria nobody rated are reported, all undefined.
    assert by_name["accuracy"].units == 0
    assert by_name["accuracy"].kappa is None and by_name["accuracy"].alpha is None


def test_the_matrix_is_symmetric_with_an_empty_diagonal():
    spec = spec_of(agreement(table_of(SPEC, ana=[0, 1, 1], ben=[0, 1, 0], cid=[1, 1, 0])))
    matrix = dict(spec.matrix())
    assert list(matrix) == ["ana", "ben", "cid"]
    assert [cell is None for cell in matrix["ben"]] == [False, True, False]
    assert matrix["ana"][1] is matrix["ben"][0]


def test_result_serialises_undefined_as_none():
    data = agreement(table_of(SPEC, ana=[0.5], ben=[0.5])).as_dict()
    assert data["pooled"]["kappa"] is None
    assert data["criteria"][0]["pairs"][0]["undefined_reason"] == "only 1 item rated by both"


def test_reference_values_are_the_studys():
    assert REFERENCE_KAPPA == {
        "specificity": 0.78,
        "actionability": 0.81,
        "transferability": 0.65,
        "accuracy": 0.72,
        "pooled": 0.74,
    }


def test_a_level_off_the_rubric_is_refused():
    with pytest.raises(ValueError, match="not a rubric level"):
        agreement({(1, "ana", SPEC): 0.3})


levels = st.sampled_from(LEVELS)


@given(st.lists(st.tuples(levels, levels), min_size=1, max_size=30))
def test_kappa_is_symmetric_in_the_two_raters(pairs):
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    for weights in (None, "quadratic"):
        forward, backward = kappa(a, b, weights=weights), kappa(b, a, weights=weights)
        assert (forward is None) == (backward is None)
        if forward is not None:
            assert forward == pytest.approx(backward)
    # The same two raters named the other way round: the pair and the mean are unchanged.
    mean = spec_of(agreement(table_of(SPEC, x=a, y=b))).kappa
    renamed = spec_of(agreement(table_of(SPEC, x=b, y=a))).kappa
    assert (mean is None) == (renamed is None)
    if mean is not None:
        assert renamed == pytest.approx(mean)


@given(
    st.lists(
        st.lists(st.one_of(st.none(), levels), min_size=5, max_size=5), min_size=2, max_size=5
    ),
    st.randoms(use_true_random=False),
)
def test_alpha_is_invariant_to_rater_order(rows, random):
    shuffled = list(rows)
    random.shuffle(shuffled)
    before, after = ordinal_alpha(rows), ordinal_alpha(shuffled)
    assert (before is None) == (after is None)
    if before is not None:
        assert after == pytest.approx(before)
        assert before <= 1.0 + 1e-9
