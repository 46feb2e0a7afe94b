"""Text similarity for retrieval: how well a reflection's text matches a task description.

Retrieval asks a similarity backend two things (the ``TextSimilarity`` protocol):

* ``matches(scope, task, limit)``: the ids of the reflections in ``scope`` whose text best
  matches the task, best first, at most ``limit`` of them. This is candidate generation: it
  must be served by an index, because the scope can hold 100,000 reflections.
* ``scores(task, reflections)``: a raw score per reflection (higher is closer, 0 for no match)
  for a bounded candidate list. Retrieval divides by the best score of the list, so only the
  order of magnitude within one answer matters.

Two backends ship: PostgreSQL full text (``ts_rank_cd`` on the search document the list's
search box already indexes) and, on SQLite, BM25 over the candidates' texts. Embeddings would
be a third class with the same two methods: ``matches`` from a vector index, ``scores`` as
cosine similarity; pass it as ``similarity=`` to ``reflections.selectors.retrieval.rank``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from django.db import connection
from django.db.models import BooleanField, FloatField, Q, QuerySet
from django.db.models.expressions import RawSQL

from reflections.models import Reflection
from reflections.search import SEARCH_DOCUMENT_SQL
from reflections.similarity.text import ENGLISH_STOP_WORDS

# A task description is short; more words than this add noise, not recall.
MAX_QUERY_WORDS = 24
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")


def query_words(text: str) -> list[str]:
    """The task's content words, lowercase, first occurrence order, stop words dropped."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if len(word) >= 2 and word not in ENGLISH_STOP_WORDS:
            seen.setdefault(word, None)
    return list(seen)[:MAX_QUERY_WORDS]


def document_words(reflection: Reflection) -> list[str]:
    """What BM25 reads: the path's words, the title and the body (as the PostgreSQL document)."""
    path = re.sub(r"[/._]", " ", reflection.source_path)
    return _WORD.findall(f"{path} {reflection.title} {reflection.body}".lower())


class TextSimilarity(Protocol):
    name: str

    def matches(self, scope: QuerySet[Reflection], task: str, limit: int) -> list[int]: ...

    def scores(self, task: str, reflections: Sequence[Reflection]) -> dict[int, float]: ...


# Matches one pass of FullTextSimilarity.matches reads from the index, at most.
MATCH_POOL = 500


class FullTextSimilarity:
    """PostgreSQL: any of the task's words against the GIN-indexed search document (migration
    0004), ranked by cover density (``ts_rank_cd``: words that appear close together count
    more), normalised by document length (flag 1: long reflections do not win by size)."""

    name = "PostgreSQL full text (ts_rank_cd)"

    @staticmethod
    def _query(task: str) -> str:
        # websearch_to_tsquery parses anything a person types without raising; "or" joins.
        return " or ".join(query_words(task))

    def _rank_sql(self, query: str) -> RawSQL:
        return RawSQL(  # noqa: S611 - the query is a bound parameter; the SQL is a constant
            f"ts_rank_cd({SEARCH_DOCUMENT_SQL}, websearch_to_tsquery('english'::regconfig, %s), 1)",
            [query],
            output_field=FloatField(),
        )

    def matches(self, scope: QuerySet[Reflection], task: str, limit: int) -> list[int]:
        """Matching is the GIN index's (a subquery of its own, so the planner cannot trade it
        for a department index and tokenise every text of the department); the order among
        matches is ts_rank_cd on the title alone, because ranking on the whole document
        tokenises every matching text again (~0.15 ms each: 0.3 s for one department of the
        default demo). ``scores`` ranks the bounded candidate list on the whole document.

        Reflections holding every word of the task come first; only when they are fewer than
        `limit` do the ones holding any word fill up. Each pass reads at most MATCH_POOL
        matches of the scope from the index: common words match a large share of a big store,
        and ranking them all cost seconds at 100,000 reflections."""
        words = query_words(task)
        if not words:
            return []
        passes = [" ".join(words), " or ".join(words)] if len(words) > 1 else [words[0]]
        found: list[int] = []
        for query in passes:
            found += self._ranked_matches(scope, query, limit - len(found), exclude=found)
            if len(found) >= limit:
                break
        return found

    def _ranked_matches(
        self, scope: QuerySet[Reflection], query: str, limit: int, *, exclude: list[int]
    ) -> list[int]:
        table = connection.ops.quote_name(Reflection._meta.db_table)
        hit = RawSQL(
            # Unqualified: the subquery's own row (Django aliases its table), not the outer's.
            "search_document @@ websearch_to_tsquery('english'::regconfig, %s)",
            [query],
            output_field=BooleanField(),
        )
        # The pool is drawn from the scope (the departments asked for), not the installation:
        # drawn from every department, a word common in one (7,296 finance lessons on
        # "ledger") filled it, and another department's 14 matches were never candidates.
        # LIMIT keeps the subquery whole (evaluated once) and bounded.
        matching = scope.filter(hit).values("pk")[:MATCH_POOL]
        title_rank = RawSQL(  # noqa: S611 - the query is a bound parameter; the SQL is a constant
            "ts_rank_cd(to_tsvector('english'::regconfig, "
            f"{table}.\"title\"), websearch_to_tsquery('english'::regconfig, %s), 1)",
            [query],
            output_field=FloatField(),
        )
        return list(
            scope.filter(pk__in=matching)
            .exclude(pk__in=exclude)
            .annotate(text_rank=title_rank)
            .order_by("-text_rank", "-created_at", "-id")
            .values_list("id", flat=True)[:limit]
        )

    def scores(self, task: str, reflections: Sequence[Reflection]) -> dict[int, float]:
        query = self._query(task)
        if not query or not reflections:
            return {}
        rows = (
            Reflection.objects.filter(pk__in=[r.pk for r in reflections])
            .annotate(text_rank=self._rank_sql(query))
            .values_list("id", "text_rank")
        )
        return {pk: float(rank or 0.0) for pk, rank in rows}


class BM25Similarity:
    """Okapi BM25 over the candidates' texts, for databases without full-text search (SQLite).

    Candidates are the newest reflections naming one of the task's longest words (a
    substring match: SQLite has no index for it, which is fine for a development database).
    Document frequencies are taken over the candidate list, not the whole store: an
    approximation that keeps the cost bounded by the list, and is what the tests and the demo
    on SQLite need.
    """

    name = "BM25 over the candidates (SQLite)"
    k1 = 1.2
    b = 0.75
    # Words used to find candidates: the longest (most specific) ones.
    CANDIDATE_WORDS = 8

    def matches(self, scope: QuerySet[Reflection], task: str, limit: int) -> list[int]:
        words = sorted(query_words(task), key=len, reverse=True)[: self.CANDIDATE_WORDS]
        if not words:
            return []
        named = Q()
        for word in words:
            named |= Q(title__icontains=word) | Q(body__icontains=word)
        ids = list(
            scope.filter(named).order_by("-created_at", "-id").values_list("id", flat=True)[:limit]
        )
        # Best first, as the protocol asks: score what was found.
        found = Reflection.objects.filter(pk__in=ids).only("id", "source_path", "title", "body")
        scored = self.scores(task, list(found))
        return sorted(ids, key=lambda pk: (-scored.get(pk, 0.0), -pk))

    def scores(self, task: str, reflections: Sequence[Reflection]) -> dict[int, float]:
        words = query_words(task)
        if not words or not reflections:
            return {}
        docs = {r.pk: Counter(document_words(r)) for r in reflections}
        n = len(docs)
        average = sum(sum(c.values()) for c in docs.values()) / n or 1.0
        df = {w: sum(1 for c in docs.values() if w in c) for w in words}
        out: dict[int, float] = {}
        for pk, counts in docs.items():
            length = sum(counts.values())
            total = 0.0
            for word in words:
                tf = counts.get(word, 0)
                if not tf:
                    continue
                idf = math.log(1 + (n - df[word] + 0.5) / (df[word] + 0.5))
                norm = tf + self.k1 * (1 - self.b + self.b * length / average)
                total += idf * tf * (self.k1 + 1) / norm
            out[pk] = total
        return out


def default_similarity() -> TextSimilarity:
    """Full text on PostgreSQL, BM25 elsewhere."""
    if connection.vendor == "postgresql":
        return FullTextSimilarity()
    return BM25Similarity()
