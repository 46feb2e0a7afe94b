"""Guard rails on duplicate verdicts, clusters resolved in one action and undone in one, and a
search for any reflection of the department to name as the original (DOMAIN §5)."""

from __future__ import annotations

import pytest

from reflections.models import Reflection, State
from reviews.models import Decision
from reviews.selectors.originals import cluster_threshold, item_cluster, search_originals
from reviews.services.cycles import Conflict, ReviewError
from reviews.services.duplicate_clusters import current_batch, resolve_cluster, undo_batch
from reviews.services.restore import restore_reflection
from reviews.services.verdicts import NeedsConfirmation, decide
from tests.factories import UserFactory
from tests.reviews.guard_support import near

pytestmark = pytest.mark.django_db


def fresh(item):
    item.refresh_from_db()
    return item


class TestTheGuard:
    def test_an_archived_original_asks_for_confirmation_and_records_nothing(self, world):
        _cycle, ana, _, r, items = world
        with pytest.raises(NeedsConfirmation) as asked:
            decide(
                item_id=items["C"].pk,
                user=ana,
                verdict="duplicate",
                version=0,
                duplicate_of=r["D"].pk,
            )
        assert "is archived" in asked.value.warnings[0]
        assert fresh(items["C"]).verdict == ""
        assert Reflection.objects.get(pk=r["C"].pk).state == State.ACTIVE
        assert not Decision.objects.exists()

    def test_confirmed_it_is_recorded_with_the_warnings_it_confirmed(self, world):
        _cycle, ana, _, r, items = world
        decide(
            item_id=items["C"].pk,
            user=ana,
            verdict="duplicate",
            version=0,
            duplicate_of=r["D"].pk,
            confirmed=True,
        )
        decision = Decision.objects.get()
        assert (decision.verdict, decision.duplicate_of_id) == ("duplicate", r["D"].pk)
        assert "is archived" in decision.confirmed

    def test_the_most_retrieved_item_as_a_duplicate_of_a_less_used_one_is_questioned(self, world):
        _cycle, ana, _, r, items = world
        with pytest.raises(NeedsConfirmation) as asked:
            decide(
                item_id=items["A"].pk,
                user=ana,
                verdict="duplicate",
                version=0,
                duplicate_of=r["B"].pk,
            )
        (warning,) = asked.value.warnings
        assert "most-retrieved item" in warning and "9 retrievals" in warning

    def test_a_less_used_original_is_questioned_for_any_item(self, world):
        _cycle, ana, _, r, items = world
        with pytest.raises(NeedsConfirmation, match="less used than this item"):
            decide(
                item_id=items["B"].pk,
                user=ana,
                verdict="duplicate",
                version=0,
                duplicate_of=r["C"].pk,
            )

    def test_a_live_more_used_original_needs_no_confirmation(self, world):
        _cycle, ana, _, r, items = world
        decide(
            item_id=items["C"].pk, user=ana, verdict="duplicate", version=0, duplicate_of=r["A"].pk
        )
        assert Decision.objects.get().confirmed == ""


class TestClusters:
    @pytest.fixture
    def clustered(self, world):
        _cycle, _ana, _bob, r, _items = world
        at = cluster_threshold()  # the configured backend's scale
        near(r["A"], r["B"], at + 0.1)
        near(r["B"], r["C"], at + 0.05)
        near(r["B"], r["D"], at + 0.15)
        near(r["B"], r["E"], at - 0.01)  # a candidate, not a cluster member
        return world

    def test_the_cluster_is_the_item_and_its_close_neighbours_with_the_one_to_keep(self, clustered):
        _cycle, ana, _bob, r, items = clustered
        cluster = item_cluster(items["B"], ana)
        assert cluster.threshold == cluster_threshold()
        assert [m.facts.reflection.title for m in cluster.members] == [
            "Lesson B",
            "Lesson D",
            "Lesson A",
            "Lesson C",
        ]
        # D is earlier than B and C, but archived: A, the earliest live one, is kept.
        assert cluster.keep.reflection == r["A"]
        assert [m.facts.reflection.title for m in cluster.duplicates if m.selectable] == [
            "Lesson B",
            "Lesson D",
            "Lesson C",
        ]
        assert {m.facts.retrievals for m in cluster.members} == {12, 9, 7, 3}

    def test_members_assigned_to_someone_else_cannot_be_picked(self, clustered):
        _cycle, _ana, bob, _r, items = clustered
        assert item_cluster(items["B"], bob).duplicates[0].why_not == "assigned to ana"

    def test_an_item_without_close_neighbours_has_no_cluster(self, world):
        _cycle, ana, _, _r, items = world
        assert item_cluster(items["A"], ana) is None

    def test_resolving_a_cluster_records_one_decision_per_item_in_one_batch(self, clustered):
        cycle, ana, _, r, items = clustered
        picked = {items["B"].pk: 0, items["C"].pk: 0}
        resolve_cluster(cycle=cycle, user=ana, keep_id=r["A"].pk, versions=picked, note="same")
        decisions = list(Decision.objects.order_by("item__rank"))
        assert [(d.item_id, d.verdict, d.duplicate_of_id) for d in decisions] == [
            (items["B"].pk, "duplicate", r["A"].pk),
            (items["C"].pk, "duplicate", r["A"].pk),
        ]
        assert len({d.batch for d in decisions}) == 1 and decisions[0].batch
        assert {Reflection.objects.get(pk=r[n].pk).state for n in "BC"} == {"deprecated"}

    def test_one_undo_takes_back_the_whole_set(self, clustered):
        cycle, ana, _, r, items = clustered
        picked = {items["B"].pk: 0, items["C"].pk: 0}
        resolve_cluster(cycle=cycle, user=ana, keep_id=r["A"].pk, versions=picked)
        batch = current_batch(fresh(items["C"]))
        assert [i.pk for i in batch.items] == [items["B"].pk, items["C"].pk]

        undo_batch(item=fresh(items["C"]), user=ana, version=1)

        assert (fresh(items["B"]).verdict, fresh(items["C"]).verdict) == ("", "")
        assert {Reflection.objects.get(pk=r[n].pk).state for n in "BC"} == {"active"}
        assert Decision.objects.filter(action="undo").count() == 2

    def test_the_undo_leaves_alone_an_item_decided_again_since(self, clustered):
        cycle, ana, _, r, items = clustered
        picked = {items["B"].pk: 0, items["C"].pk: 0}
        resolve_cluster(cycle=cycle, user=ana, keep_id=r["A"].pk, versions=picked)
        decide(item_id=items["B"].pk, user=ana, verdict="outdated", version=1)

        undo_batch(item=fresh(items["C"]), user=ana, version=1)

        assert (fresh(items["B"]).verdict, fresh(items["C"]).verdict) == ("outdated", "")

    def test_a_stale_version_records_none_of_the_set(self, clustered):
        cycle, ana, _, r, items = clustered
        with pytest.raises(Conflict):
            resolve_cluster(
                cycle=cycle,
                user=ana,
                keep_id=r["A"].pk,
                versions={items["B"].pk: 0, items["C"].pk: 7},
            )
        assert not Decision.objects.exists()
        assert fresh(items["B"]).verdict == ""

    def test_a_cluster_with_a_warning_asks_once_for_all_its_items(self, clustered):
        cycle, ana, _, r, items = clustered
        with pytest.raises(NeedsConfirmation) as asked:
            resolve_cluster(
                cycle=cycle,
                user=ana,
                keep_id=r["D"].pk,
                versions={items["B"].pk: 0, items["C"].pk: 0},
            )
        assert [w.split(":")[0] for w in asked.value.warnings if "archived" in w] == [
            f"#{items['B'].rank}",
            f"#{items['C'].rank}",
        ]
        assert not Decision.objects.exists()

    def test_the_one_kept_cannot_be_its_own_duplicate(self, clustered):
        cycle, ana, _, r, items = clustered
        with pytest.raises(ReviewError, match="cannot also be marked"):
            resolve_cluster(cycle=cycle, user=ana, keep_id=r["A"].pk, versions={items["A"].pk: 0})


class TestSearch:
    def test_any_reflection_of_the_department_can_be_found_not_another_departments(self, world):
        _cycle, ana, _, _r, items = world
        found = [f.reflection.title for f in search_originals(ana, items["A"], "lesson")]
        # Most retrieved first; the item itself and Finance's F are not offered.
        assert found == ["Lesson B", "Lesson C", "Lesson D", "Lesson E"]

    def test_quarantined_reflections_are_found_by_admins_only(self, world):
        _cycle, ana, _, r, items = world
        Reflection.objects.filter(pk=r["E"].pk).update(state=State.QUARANTINED)
        admin = UserFactory(username="root", roles=["admin"])
        assert "Lesson E" not in [
            f.reflection.title for f in search_originals(ana, items["A"], "lesson")
        ]
        assert "Lesson E" in [
            f.reflection.title for f in search_originals(admin, items["A"], "lesson")
        ]

    def test_a_one_letter_query_finds_nothing(self, world):
        _cycle, ana, _, _r, items = world
        assert search_originals(ana, items["A"], "l") == []


def test_an_undo_of_the_set_leaves_alone_an_item_restored_since(world):
    cycle, ana, _, r, items = world
    near(r["A"], r["B"], 0.8)
    near(r["B"], r["C"], 0.7)
    resolve_cluster(
        cycle=cycle,
        user=ana,
        keep_id=r["A"].pk,
        versions={items["B"].pk: 0, items["C"].pk: 0},
    )
    restore_reflection(reflection_id=r["B"].pk, user=ana, note="not a duplicate after all")

    undo_batch(item=fresh(items["C"]), user=ana, version=1)

    assert fresh(items["B"]).verdict == "duplicate"  # restored since: not the set's to undo
    assert fresh(items["C"]).verdict == ""
    assert Reflection.objects.get(pk=r["B"].pk).state == State.ACTIVE
