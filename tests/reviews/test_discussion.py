"""Discussing a review item: a thread with mentions, the mentions list, unsure → resolved,
and the discussion in the audit trail and the cycle's report."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from reflections.models import Comment, Mention
from reflections.services.discussion import mentioned_names
from reviews.models import Decision
from reviews.selectors.cycles import cycle_report
from reviews.services.cycles import Conflict, ReviewError
from reviews.services.item_discussion import comment_on_item, mark_unsure, resolve_unsure
from reviews.services.verdicts import decide
from tests.factories import DepartmentFactory, UserFactory
from tests.reviews.together_support import client_for, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return make_world()


def item(world, rank):
    return world["cycle"].items.select_related("reflection", "cycle__department").get(rank=rank)


def url(world, rank, name="reviews:item"):
    return reverse(name, kwargs={"pk": world["cycle"].pk, "rank": rank})


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


class TestMentions:
    def test_names_are_read_from_at_signs_but_not_from_email_addresses(self):
        text = "@ben see this, and ask @mara. Not a@b.com nor @ben again"
        assert mentioned_names(text) == ["ben", "mara"]

    def test_a_manager_who_may_see_the_item_is_mentioned(self, world):
        comment_on_item(item=item(world, 1), user=world["ana"], body="@mara is this outdated?")
        assert [m.user.username for m in Mention.objects.all()] == ["mara"]

    def test_a_colleague_who_may_not_open_the_item_stays_plain_text(self, world):
        # Rank 1 is ana's; ben opens only his own items until ana marks it unsure.
        comment_on_item(item=item(world, 1), user=world["ana"], body="@ben what do you think?")
        assert Mention.objects.count() == 0

    def test_once_unsure_the_cycles_other_reviewer_may_be_mentioned(self, world):
        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        comment_on_item(item=item(world, 1), user=world["ana"], body="@ben what do you think?")
        assert [m.user.username for m in Mention.objects.all()] == ["ben"]

    def test_people_of_another_department_and_unknown_names_are_not_mentioned(self, world):
        finance = DepartmentFactory(slug="finance")
        UserFactory(username="fred", roles=["reviewer"], departments=[finance])
        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        comment_on_item(item=item(world, 1), user=world["ana"], body="@fred @nobody @ana look")
        assert Mention.objects.count() == 0  # not a colleague, no such person, oneself

    def test_the_mentioned_colleague_sees_it_in_their_list_and_the_count(self, world):
        comment_on_item(item=item(world, 1), user=world["ana"], body="@mara **please** look")
        mara = client_for(world["mara"])
        page = soup(mara.get(reverse("reflections:mentions")))
        assert page.select_one("#nav-mentions .badge-count").get_text(strip=True) == "1"
        entry = page.select_one(".mention")
        assert "Sales 2026Q3 #1" in entry.get_text()
        assert entry.select_one("strong").get_text() == "ana"
        assert entry.select_one(".prose strong").get_text() == "please"  # Markdown rendered
        link = entry.select_one("a")["href"]
        assert link.startswith(url(world, 1))

    def test_opening_the_item_marks_its_mentions_seen(self, world):
        comment_on_item(item=item(world, 1), user=world["ana"], body="@mara look")
        mara = client_for(world["mara"])
        before = soup(mara.get(reverse("reflections:mention-count")))
        assert before.select_one(".badge-count").get_text(strip=True) == "1"
        mara.get(url(world, 1))
        page = soup(mara.get(reverse("reflections:mentions")))
        assert page.select_one("#nav-mentions .badge-count") is None
        assert soup(mara.get(reverse("reflections:mention-count"))).select(".badge-count") == []
        assert Mention.objects.get().seen_at is not None

    def test_other_pages_ask_for_the_count_after_loading(self, world):
        page = soup(client_for(world["mara"]).get(reverse("reviews:list")))
        badge = page.select_one("#nav-mentions #mention-count")
        assert badge["hx-get"] == reverse("reflections:mention-count")
        assert badge["hx-trigger"] == "load"


class TestThread:
    def test_a_comment_is_markdown_sanitised(self, world):
        client = client_for(world["ana"])
        body = 'Looks **stale** <u>under</u> <span style="color:red" class="big">styled</span>'
        response = client.post(url(world, 1, "reviews:comment"), {"body": body})
        assert response.status_code == 302
        page = soup(client.get(url(world, 1)))
        thread = page.select_one("#discussion .thread")
        assert thread.select_one(".prose strong").get_text() == "stale"
        assert thread.select(".prose u, .prose span, .prose [style]") == []

    def test_a_comment_the_scanner_flags_as_injection_is_stored_masked(self, world):
        body = "Looks **stale**<script>alert(1)</script>"
        comment_on_item(item=item(world, 1), user=world["ana"], body=body)
        assert "<script>" not in Comment.objects.get().body

    def test_a_secret_pasted_in_a_comment_is_stored_masked(self, world):
        key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
        comment_on_item(item=item(world, 1), user=world["ana"], body=f"the key was {key}")
        assert key not in Comment.objects.get().body

    def test_an_empty_comment_is_refused_with_a_reason(self, world):
        with pytest.raises(ReviewError, match="empty"):
            comment_on_item(item=item(world, 1), user=world["ana"], body="   ")

    def test_htmx_gets_the_thread_back_in_place(self, world):
        client = client_for(world["ana"])
        response = client.post(
            url(world, 1, "reviews:comment"), {"body": "first"}, headers={"HX-Request": "true"}
        )
        page = soup(response)
        assert page.select_one("section#discussion") is not None
        assert page.select_one("#discussion .comment .prose").get_text(strip=True) == "first"

    def test_a_reviewer_cannot_comment_on_someone_elses_item(self, world):
        response = client_for(world["ben"]).post(url(world, 1, "reviews:comment"), {"body": "x"})
        assert response.status_code == 404
        assert Comment.objects.count() == 0

    def test_a_comment_needs_the_csrf_token(self, world):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(world["ana"])
        assert client.post(url(world, 1, "reviews:comment"), {"body": "x"}).status_code == 403

    def test_a_closed_cycle_takes_no_more_comments(self, world):
        cycle = world["cycle"]
        cycle.closed_at = cycle.opened_at
        cycle.save()
        with pytest.raises(ReviewError, match="closed"):
            comment_on_item(item=item(world, 1), user=world["ana"], body="late")


class TestUnsure:
    def test_unsure_keeps_the_item_open_and_audits_it(self, world):
        first = item(world, 1)
        marked = mark_unsure(item_id=first.pk, user=world["ana"], version=first.version, note="hm")
        assert marked.is_unsure and not marked.verdict
        assert list(marked.decisions.values_list("action", "note")) == [("unsure", "hm")]
        assert Comment.objects.get().body == "hm"  # the note opens the thread

    def test_the_cycles_manager_sees_the_unsure_items_listed(self, world):
        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        page = soup(
            client_for(world["mara"]).get(reverse("reviews:cycle", args=[world["cycle"].pk]))
        )
        listed = [a.get_text(strip=True) for a in page.select("#unsure li a")]
        assert listed == ["#1 Lesson 1"]

    def test_a_colleague_of_the_cycle_may_read_an_unsure_item_but_not_decide(self, world):
        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        ben = client_for(world["ben"])
        page = soup(ben.get(url(world, 1)))
        assert page.select_one("#comment-form") is not None
        assert page.select("button[name=verdict]") == []
        assert page.select_one("#resolve-form") is None  # the reviewer or a manager resolves
        assert page.select("#queue-prev, #queue-next") == []  # ana's queue is not his to walk

    def test_a_verdict_resolves_the_discussion(self, world):
        first = item(world, 1)
        first = mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        decided = decide(item_id=first.pk, user=world["ana"], verdict="keep", version=first.version)
        assert not decided.is_unsure

    def test_a_manager_resolves_it_back_to_an_open_item(self, world):
        first = item(world, 1)
        first = mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        resolved = resolve_unsure(item_id=first.pk, user=world["mara"], version=first.version)
        assert not resolved.is_unsure and not resolved.verdict
        actions = list(resolved.decisions.values_list("action", flat=True))
        assert actions == [Decision.Action.UNSURE, Decision.Action.RESOLVED]

    def test_a_stale_resolve_is_a_conflict(self, world):
        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)
        with pytest.raises(Conflict, match="marked it unsure"):
            resolve_unsure(item_id=first.pk, user=world["ana"], version=first.version)

    def test_a_decided_item_cannot_be_marked_unsure(self, world):
        first = item(world, 1)
        first = decide(item_id=first.pk, user=world["ana"], verdict="keep", version=first.version)
        with pytest.raises(ReviewError, match="undo it first"):
            mark_unsure(item_id=first.pk, user=world["ana"], version=first.version)

    def test_unsure_and_resolve_through_the_page(self, world):
        ana = client_for(world["ana"])
        ana.post(url(world, 1, "reviews:unsure"), {"version": 0, "note": "@mara help"})
        assert item(world, 1).is_unsure
        mara = client_for(world["mara"])
        response = mara.post(url(world, 1, "reviews:resolve"), {"version": 1})
        assert response.status_code == 302
        assert not item(world, 1).is_unsure


class TestReport:
    def test_the_report_lists_comments_and_unsure_items(self, world):
        first, second = item(world, 1), item(world, 2)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version, note="not sure")
        comment_on_item(item=second, user=world["ben"], body="keep, still used")
        data = cycle_report(world["cycle"]).as_dict()
        assert [(u["rank"], u["reviewer"]) for u in data["unsure"]] == [(1, "ana")]
        assert [(c["rank"], c["author"], c["body"]) for c in data["comments"]] == [
            (1, "ana", "not sure"),
            (2, "ben", "keep, still used"),
        ]

    def test_the_report_page_shows_a_reviewer_only_the_threads_they_may_read(self, world):
        comment_on_item(item=item(world, 2), user=world["ben"], body="bens own thoughts")
        page = client_for(world["ana"]).get(reverse("reviews:report", args=[world["cycle"].pk]))
        assert b"bens own thoughts" not in page.content
        page = client_for(world["mara"]).get(reverse("reviews:report", args=[world["cycle"].pk]))
        assert b"bens own thoughts" in page.content

    def test_the_report_command_prints_them(self, world):
        from io import StringIO

        from django.core.management import call_command

        first = item(world, 1)
        mark_unsure(item_id=first.pk, user=world["ana"], version=first.version, note="not sure")
        out = StringIO()
        call_command("review_report", cycle=world["cycle"].pk, stdout=out)
        assert "unsure: #1" in out.getvalue()
        assert "comment on #1 by ana" in out.getvalue()
