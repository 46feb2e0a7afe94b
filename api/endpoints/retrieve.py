"""GET /retrieve: the top-k reflections an agent gets for a task now; each answer is logged
as retrieval events, as if the agent's runtime had posted them."""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse
from ninja import Header, Router

from api.schemas import REFUSALS, RetrieveAnswer
from api.security import RETRIEVE, BadBody
from api.services.idempotency import KeyReused, answer_once
from reflections.selectors.retrieval import MAX_K, RetrievalError, retrieve
from reflections.services.retrieval_log import MAX_TASK_ID, log_retrievals

router = Router(tags=["retrieve"], auth=RETRIEVE)
MAX_TASK_CHARS = 4000


class Unprocessable(Exception):
    """A well-formed request the server will not carry out (answered 422)."""


@router.get(
    "/retrieve",
    summary="The top-k reflections for a task",
    response={200: RetrieveAnswer, **REFUSALS},
)
def retrieve_reflections(
    request: HttpRequest,
    response: HttpResponse,
    task: str,
    task_type: str = "",
    agent: str = "",
    department: str = "",
    k: int = 3,
    task_id: str = "",
    log: bool = True,
    idempotency_key: str | None = Header(None, alias="Idempotency-Key"),
):
    """Ranked by the protocol's relevance rules blended with text similarity and weighted by
    the state multiplier (promoted 1.5, active 1, archived 0.3; deprecated and quarantined
    never). The answer is logged as retrieval events for `agent` under `task_id` (or an id
    the server makes up, returned as `task_id`) unless `log=false`.

    With an `Idempotency-Key` header, a call repeated with the same key and question (a
    retry after a timeout) gets the first answer back, marked `Idempotent-Replayed: true`,
    and logs nothing again; the same key for another question is a 422. Keys are the
    token's own and are kept for a day."""
    if not task.strip() or len(task) > MAX_TASK_CHARS:
        raise BadBody(f"task: required, at most {MAX_TASK_CHARS:,} characters")
    if not 1 <= k <= MAX_K:
        raise BadBody(f"k: expected a whole number from 1 to {MAX_K}")
    if log and not agent.strip():
        raise BadBody("agent: required to log the answer (or pass log=false)")
    if len(task_id) > MAX_TASK_ID:
        raise BadBody(f"task_id: at most {MAX_TASK_ID} characters")
    question = {
        "task": task,
        "task_type": task_type,
        "agent": agent,
        "department": department,
        "k": k,
        "task_id": task_id,
        "log": log,
    }

    def answer() -> dict:
        return _answer(question, task_id or f"retrieval-{uuid.uuid4().hex}")

    if idempotency_key is None:
        return answer()
    try:
        found, replayed = answer_once(request.api_token, idempotency_key, question, answer)
    except ValueError as exc:
        raise BadBody(str(exc)) from None
    except KeyReused as exc:
        raise Unprocessable(str(exc)) from None
    if replayed:
        response["Idempotent-Replayed"] = "true"
        return {**found, "logged": 0}
    return found


def _answer(question: dict, task_id: str) -> dict:
    try:
        results = retrieve(
            task=question["task"],
            task_type=question["task_type"] or None,
            agent=question["agent"] or None,
            department=question["department"] or None,
            k=question["k"],
        )
    except RetrievalError as exc:
        raise BadBody(str(exc)) from None
    log = question["log"]
    logged = log_retrievals(results, agent=question["agent"], task_id=task_id) if log else 0
    return {
        "task_id": task_id,
        "reflections": [
            {
                "rank": rank,
                "id": r.reflection.pk,
                "source_path": r.reflection.source_path,
                "external_id": r.reflection.external_id,
                "content_hash": r.reflection.content_hash,
                "state": r.reflection.state,
                "score": r.score,
                "multiplier": r.multiplier,
                "reasons": r.reasons,
                "title": r.reflection.title,
                "body": r.reflection.body,
                "department": r.reflection.department.slug,
                "agent": r.reflection.agent.name if r.reflection.agent_id else "",
            }
            for rank, r in enumerate(results, start=1)
        ],
        "logged": logged,
    }
