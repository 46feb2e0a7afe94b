"""Answers kept under an Idempotency-Key: a retried /retrieve gets the first answer back and
logs nothing twice (IdempotentAnswer)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from api.models import ApiToken, IdempotentAnswer

# How long a key is remembered: long enough for any runtime's retries, short enough that the
# table stays small (rows older than this are removed as the token makes new ones).
KEPT_FOR = timedelta(days=1)
MAX_KEY = 255


class KeyReused(Exception):
    """The key was used by this token for another question (answered 422)."""


def fingerprint(question: dict) -> str:
    return hashlib.sha256(json.dumps(question, sort_keys=True).encode()).hexdigest()


def answer_once(
    token: ApiToken, key: str, question: dict, compute: Callable[[], dict]
) -> tuple[dict, bool]:
    """(answer, replayed): the answer this token got for `key` within KEPT_FOR, or `compute()`'s,
    kept under it. Concurrent calls with one key wait for the first: the unique (token, key)
    row is written in the same transaction as what `compute` logs, so only one of them logs."""
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise ValueError(f"Idempotency-Key: 1 to {MAX_KEY} printable characters")
    wanted = fingerprint(question)
    now = timezone.now()
    with transaction.atomic():
        IdempotentAnswer.objects.filter(token=token, created_at__lt=now - KEPT_FOR).delete()
        row, created = IdempotentAnswer.objects.select_for_update().get_or_create(
            token=token, key=key, defaults={"fingerprint": wanted, "answer": {}, "created_at": now}
        )
        if not created:
            if row.fingerprint != wanted:
                raise KeyReused(
                    "Idempotency-Key: already used by this token for another question; "
                    "send a new key for a new question"
                )
            return row.answer, True
        row.answer = compute()
        row.save(update_fields=["answer"])
    return row.answer, False
