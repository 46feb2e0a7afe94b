"""What the review announces to whoever listens (webhooks), as Django signals: the review
imports none of its listeners.

`cycle_closed` is sent inside the transaction that closed the cycle, with `cycle`; a listener
that keeps an outbox writes it in the same transaction and acts once it commits.
"""

from __future__ import annotations

from django.dispatch import Signal

cycle_closed = Signal()
