"""Bulk actions on a cycle's items: one confirmation naming the count, each item audited as
its own Decision, one undo for the whole batch."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from bs4 import BeautifulSoup
from django.core.cache import cache
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.models import ActiveSetChange, Reflection, ReflectionHistory, State
from reflections.services.rollups import refresh_retrieval_rollup
from reviews.models import Decision, ReviewBatch
from reviews.services.bulk import bulk_assign, bulk_verdict, undo_batch
from reviews.services.cycles import ReviewError
from reviews.services.verdicts import NeedsConfirmation, decide
from tests.factories import RetrievalEventFactory
from tests.reviews.together_support import client_for, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return make_world(6)  # ana has ranks 1, 3, 5; ben 2, 4, 6


def ranks_with(cycle, **filters) -> list[int]:
    return sorted(cycle.items.filter(**filters).values_list("rank", flat=True))


def state(reflection) -> str:
    return Reflection.objects.get(pk=reflection.pk).state


class TestBulkVerdicts:
    def test_keep_all_records_one_decision_per_item_in_one_batch(self, world):
        cycle = world["cycle"]
        batch = bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 3, 5], action="keep")
        assert batch.count == 3
        assert ranks_with(cycle, verdict="keep") == [1, 3, 5]
        decisions = Decision.objects.filter(batch=batch.key)
        assert sorted(d.item.rank for d in decisions) == [1, 3, 5]
        assert {d.action for d in decisions} == {"verdict"}

    def test_duplicates_of_one_original_deprecate_each_and_name_it(self, world):
        cycle, original = world["cycle"], world["original"]
        bulk_verdict(
            cycle=cycle,
            user=world["ana"],
            ranks=[1, 3],
            action="duplicate",
            duplicate_of=original.pk,
            confirmed=True,  # the original is retrieved less than they are: the guard asks
        )
        items = cycle.items.filter(rank__in=[1, 3])
        assert {(i.verdict, i.duplicate_of_id) for i in items} == {("duplicate", original.pk)}
        assert {state(i.reflection) for i in items} == {State.DEPRECATED}

    def test_someone_elses_item_refuses_the_whole_batch(self, world):
        cycle = world["cycle"]
        with pytest.raises(ReviewError, match="#2 are assigned to another reviewer"):
            bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 2], action="keep")
        assert ranks_with(cycle, verdict="keep") == []
        assert ReviewBatch.objects.count() == 0

    def test_one_bad_item_refuses_every_item(self, world):
        cycle = world["cycle"]
        third = cycle.items.get(rank=3)
        Reflection.objects.filter(pk=third.reflection_id).update(state=State.QUARANTINED)
        with pytest.raises(ReviewError, match=r"#3: .*quarantined.*nothing recorded"):
            bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 3, 5], action="keep")
        assert ranks_with(cycle, verdict="keep") == []

    def test_undo_puts_every_item_back_in_one_step(self, world):
        cycle, original = world["cycle"], world["original"]
        before = {i.rank: state(i.reflection) for i in cycle.items.all()}
        batch = bulk_verdict(
            cycle=cycle,
            user=world["ana"],
            ranks=[1, 3, 5],
            action="duplicate",
            duplicate_of=original.pk,
            confirmed=True,  # the original is retrieved less than they are: the guard asks
        )
        result = undo_batch(batch_id=batch.pk, user=world["ana"])
        assert result.undone == [1, 3, 5] and result.skipped == []
        assert ranks_with(cycle, verdict="") == [1, 2, 3, 4, 5, 6]
        assert {i.rank: state(i.reflection) for i in cycle.items.all()} == before
        undos = Decision.objects.filter(batch=batch.key, action="undo")
        assert sorted(d.item.rank for d in undos) == [1, 3, 5]

    def test_undo_leaves_an_item_changed_since_alone_and_names_it(self, world):
        cycle = world["cycle"]
        batch = bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 3], action="keep")
        third = cycle.items.get(rank=3)
        decide(item_id=third.pk, user=world["ana"], verdict="outdated", version=third.version)
        result = undo_batch(batch_id=batch.pk, user=world["ana"])
        assert result.undone == [1] and result.skipped == [3]
        assert cycle.items.get(rank=3).verdict == "outdated"

    def test_undo_gives_back_a_verdict_the_batch_replaced(self, world):
        cycle = world["cycle"]
        first = cycle.items.select_related("reflection").get(rank=1)
        decide(item_id=first.pk, user=world["ana"], verdict="outdated", version=0, note="old API")
        batch = bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 3], action="keep")
        assert state(first.reflection) == State.ACTIVE
        undo_batch(batch_id=batch.pk, user=world["ana"])
        back = cycle.items.get(rank=1)
        assert (back.verdict, back.note) == ("outdated", "old API")
        assert state(first.reflection) == State.DEPRECATED
        assert cycle.items.get(rank=3).verdict == ""

    def test_a_duplicate_of_an_archived_original_asks_first_and_names_the_items(self, world):
        cycle, original = world["cycle"], world["original"]
        Reflection.objects.filter(pk=original.pk).update(state=State.ARCHIVED)
        with pytest.raises(NeedsConfirmation, match="#1: "):
            bulk_verdict(
                cycle=cycle, user=world["ana"], ranks=[1, 3], action="duplicate",
                duplicate_of=original.pk,
            )  # fmt: skip
        assert ranks_with(cycle, verdict="duplicate") == []
        bulk_verdict(
            cycle=cycle, user=world["ana"], ranks=[1, 3], action="duplicate",
            duplicate_of=original.pk, confirmed=True,
        )  # fmt: skip
        assert ranks_with(cycle, verdict="duplicate") == [1, 3]

    def test_the_guard_asks_only_about_the_items_more_used_than_the_original(self, world):
        cycle, original = world["cycle"], world["original"]
        for minute in range(5):  # ranks 1, 3, 5 were retrieved 8, 6 and 4 times
            RetrievalEventFactory(
                reflection=original, retrieved_at=datetime(2026, 6, 2, 0, minute, tzinfo=UTC)
            )
        refresh_retrieval_rollup()
        with pytest.raises(NeedsConfirmation) as asked:
            bulk_verdict(
                cycle=cycle, user=world["ana"], ranks=[1, 3, 5], action="duplicate",
                duplicate_of=original.pk,
            )  # fmt: skip
        assert [w.split(":")[0] for w in asked.value.warnings] == ["#1", "#3"]
        assert "5 retrievals in the window against this item's 8" in asked.value.warnings[0]

    def test_a_batch_is_undone_once(self, world):
        batch = bulk_verdict(cycle=world["cycle"], user=world["ana"], ranks=[1], action="keep")
        undo_batch(batch_id=batch.pk, user=world["ana"])
        with pytest.raises(ReviewError, match="already undone"):
            undo_batch(batch_id=batch.pk, user=world["ana"])

    def test_a_batch_costs_the_same_statements_for_three_items_as_for_one(self, world):
        # Set-based: a hundred items took ~1,200 statements and over a second one by one.
        def statements(ranks, action, **more):
            cache.clear()  # the window's figures are cached: each call reads them afresh
            with CaptureQueriesContext(connection) as queries:
                bulk_verdict(
                    cycle=world["cycle"], user=world["ana"], ranks=ranks, action=action, **more
                )
            return len(queries)

        dup = {"duplicate_of": world["original"].pk, "confirmed": True}
        assert statements([1], "keep") == statements([3, 5], "keep")
        undo_batch(batch_id=ReviewBatch.objects.latest("pk").pk, user=world["ana"])
        undo_batch(batch_id=ReviewBatch.objects.order_by("-pk")[1].pk, user=world["ana"])
        assert statements([1], "duplicate", **dup) == statements([3, 5], "duplicate", **dup)

    def test_each_deprecated_item_leaves_its_history_row_and_leaves_the_active_set(self, world):
        cycle, original = world["cycle"], world["original"]
        bulk_verdict(
            cycle=cycle, user=world["ana"], ranks=[1, 3], action="duplicate",
            duplicate_of=original.pk, confirmed=True,
        )  # fmt: skip
        for item in cycle.items.filter(rank__in=[1, 3]):
            (row,) = ReflectionHistory.objects.filter(reflection=item.reflection, change="state")
            assert (row.from_state, row.to_state, row.actor) == (
                "active",
                "deprecated",
                world["ana"],
            )
            assert row.reason == f"review 2026Q3: duplicate of {original.source_path}"
            changes = ActiveSetChange.objects.filter(reflection=item.reflection)
            assert changes.aggregate(now=Sum("change"))["now"] == 0  # joined, then left


class TestBulkAssign:
    def test_a_manager_assigns_many_and_undoes_it_whole(self, world):
        cycle = world["cycle"]
        batch = bulk_assign(cycle=cycle, user=world["mara"], ranks=[1, 3], to_reviewer=world["ben"])
        assert ranks_with(cycle, reviewer=world["ben"]) == [1, 2, 3, 4, 6]
        undo_batch(batch_id=batch.pk, user=world["mara"])
        assert ranks_with(cycle, reviewer=world["ana"]) == [1, 3, 5]
        moves = Decision.objects.filter(batch=batch.key, action="reassign").count()
        assert moves == 4  # two there, two back

    def test_a_reviewer_may_not_assign(self, world):
        with pytest.raises(ReviewError, match="only managers"):
            bulk_assign(
                cycle=world["cycle"], user=world["ana"], ranks=[1], to_reviewer=world["ben"]
            )


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


class TestBulkPages:
    def test_the_confirmation_names_the_count_and_changes_nothing_yet(self, world):
        cycle = world["cycle"]
        url = reverse("reviews:bulk", args=[cycle.pk])
        response = client_for(world["ana"]).post(
            url, {"action": "keep", "select": "hand", "ranks": ["1", "5"]}
        )
        page = soup(response)
        assert page.select_one("#confirm-title").get_text(strip=True) == "Keep all 2 items?"
        assert ranks_with(cycle, verdict="keep") == []

    def test_select_by_filter_takes_every_matching_item_one_may_see(self, world):
        cycle = world["cycle"]
        url = reverse("reviews:bulk", args=[cycle.pk])
        client = client_for(world["ana"])
        page = soup(client.post(url, {"action": "keep", "select": "filter", "status": "open"}))
        assert page.select_one("#confirm-title").get_text(strip=True) == "Keep all 3 items?"
        ranks = [i["value"] for i in page.select("#bulk-confirm input[name=ranks]")]
        assert ranks == ["1", "3", "5"]  # ana's own, never ben's
        response = client.post(
            url, {"action": "keep", "select": "hand", "ranks": ranks, "confirm": "1"}
        )
        assert response.status_code == 302
        assert ranks_with(cycle, verdict="keep") == [1, 3, 5]

    def test_the_duplicate_guard_asks_on_the_confirmation_page(self, world):
        cycle, original = world["cycle"], world["original"]
        url = reverse("reviews:bulk", args=[cycle.pk])
        client = client_for(world["ana"])
        form = {"action": "duplicate", "select": "hand", "ranks": ["3", "5"],
                "duplicate_of": original.pk, "confirm": "1"}  # fmt: skip
        asked = client.post(url, form)
        assert asked.status_code == 409
        warnings = soup(asked).select("#bulk-warnings li")
        assert [w.get_text()[:4] for w in warnings] == ["#3: ", "#5: "]
        assert soup(asked).select_one("#bulk-confirm input[name=guard_confirmed]") is not None
        # The page asking names the items by title and carries their ranks to the next post.
        named = soup(asked).select("#bulk-confirm li")
        assert [li.select_one("input[name=ranks]")["value"] for li in named] == ["3", "5"]
        for rank, li in zip((3, 5), named, strict=True):
            assert cycle.items.get(rank=rank).reflection.title in li.get_text()
        assert ranks_with(cycle, verdict="duplicate") == []
        client.post(url, {**form, "guard_confirmed": "1"})
        assert ranks_with(cycle, verdict="duplicate") == [3, 5]

    def test_the_cycle_page_offers_the_batchs_undo(self, world):
        cycle = world["cycle"]
        batch = bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1, 3], action="keep")
        client = client_for(world["ana"])
        page = soup(client.get(reverse("reviews:cycle", args=[cycle.pk])))
        button = page.select_one(f"#undo-batch-{batch.pk}")
        assert button.get_text(strip=True) == "Undo all 2"
        client.post(reverse("reviews:bulk-undo", args=[cycle.pk, batch.pk]))
        assert ranks_with(cycle, verdict="keep") == []

    def test_someone_else_cannot_undo_a_reviewers_batch(self, world):
        cycle = world["cycle"]
        batch = bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1], action="keep")
        client_for(world["mara"]).post(reverse("reviews:bulk-undo", args=[cycle.pk, batch.pk]))
        assert ranks_with(cycle, verdict="keep") == [1]

    def test_a_filter_narrows_the_item_list(self, world):
        cycle = world["cycle"]
        bulk_verdict(cycle=cycle, user=world["ana"], ranks=[1], action="keep")
        page = soup(
            client_for(world["mara"]).get(
                reverse("reviews:cycle", args=[cycle.pk]), {"status": "done"}
            )
        )
        assert [i["value"] for i in page.select("#bulk-form input[name=ranks]")] == ["1"]

    def test_the_original_alone_is_nothing_to_mark_and_says_so_beside_the_list(self, world):
        cycle = world["cycle"]
        first = cycle.items.get(rank=1)
        client = client_for(world["ana"])
        form = {"action": "duplicate", "select": "hand", "ranks": ["1"],
                "duplicate_of": first.reflection_id}  # fmt: skip
        response = client.post(reverse("reviews:bulk", args=[cycle.pk]), form, follow=True)
        said = soup(response).select_one("#items #bulk-result .messages")
        assert "the only item selected is the original itself" in said.get_text()
        assert len(soup(response).select(".messages")) == 1  # not at the top as well
        assert not ReviewBatch.objects.exists()

    def test_the_confirmation_carries_the_original_apart_so_the_outcome_names_it(self, world):
        cycle = world["cycle"]
        first = cycle.items.get(rank=1)
        client = client_for(world["ana"])
        url = reverse("reviews:bulk", args=[cycle.pk])
        form = {"action": "duplicate", "select": "hand", "ranks": ["1", "3", "5"],
                "duplicate_of": first.reflection_id}  # fmt: skip
        page = soup(client.post(url, form))
        assert page.select_one("#confirm-title").get_text(strip=True).startswith("Mark 2 items")
        ranks = [i["value"] for i in page.select("#bulk-confirm input[name=ranks]")]
        assert sorted(ranks) == ["1", "3", "5"]
        done = client.post(
            url, {**form, "ranks": ranks, "confirm": "1", "guard_confirmed": "1"}, follow=True
        )
        said = soup(done).select_one("#bulk-result").get_text(" ", strip=True)
        assert "Marked 2 items as duplicates of #1 Lesson 1." in said
        assert "#1, the original, stays as it is." in said
        assert ReviewBatch.objects.get().count == 2
