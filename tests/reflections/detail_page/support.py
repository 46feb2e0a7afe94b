"""What the reflection-page tests share: its URL, the page as soup, its tables and summaries."""

from __future__ import annotations

from datetime import UTC, datetime

from bs4 import BeautifulSoup
from django.urls import reverse

T0 = datetime(2026, 3, 10, tzinfo=UTC)


def detail_url(reflection) -> str:
    return reverse("reflections:detail", args=[reflection.pk])


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def table_rows(page, selector: str) -> list[list[str]]:
    return [
        [td.get_text(" ", strip=True) for td in tr.find_all("td")]
        for tr in page.select(f"{selector} tbody tr")
    ]


def summary(page, section_id: str) -> dict[str, str]:
    return {
        div.dt.get_text(strip=True): div.dd.get_text(" ", strip=True)
        for div in page.select(f"#{section_id} dl.summary > div")
    }
