"""The review pages' presentation helpers."""

from __future__ import annotations

from django.utils.html import escape, format_html
from hypothesis import given
from hypothesis import strategies as st

from reflections.similarity import DiffSegment, diff_words
from reviews.templatetags.review_tags import diff_marks


def test_a_diff_is_marked_where_it_changed_and_escaped_everywhere():
    segments = [
        DiffSegment("Reply to <all> ", False),
        DiffSegment("& cc the lead", True),
        DiffSegment(" <b>now</b>", False),
    ]
    assert diff_marks(segments) == (
        "Reply to &lt;all&gt; <mark>&amp; cc the lead</mark> &lt;b&gt;now&lt;/b&gt;"
    )


def test_the_marked_text_reads_back_as_the_text():
    _, theirs = diff_words("Retry the payout twice, then page", "Retry the payout once, then page")
    assert "<mark>" in diff_marks(theirs)
    assert diff_marks(theirs).replace("<mark>", "").replace("</mark>", "") == (
        "Retry the payout once, then page"
    )
    assert diff_marks([]) == ""


@given(st.lists(st.tuples(st.text(), st.booleans()), max_size=8))
def test_every_segment_is_escaped_as_django_escapes_text(parts):
    segments = [DiffSegment(text, changed) for text, changed in parts]
    assert diff_marks(segments) == "".join(
        format_html("<mark>{}</mark>", s.text) if s.changed else escape(s.text) for s in segments
    )
