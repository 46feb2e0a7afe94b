"""The salience SQL that runs (reflections.services.policy_runs.SALIENCE_SQL) against the rule
in Python (reflections.policies.salience_reference), row by row, on random memories: the same
percentile of retrievals per day within each department, imported salience winning, nothing
under 14 days."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from reflections.models import Reflection
from reflections.policies import boundaries, salience_reference
from reflections.services.policy_runs import apply_salience
from reflections.services.rollups import refresh_retrieval_rollup
from tests.factories import AgentFactory, ReflectionFactory, RetrievalEventFactory

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 6, 1)
END = datetime(2026, 6, 2, tzinfo=UTC)  # the end of as_of


def percent_rank(value: float, values: list[float]) -> float:
    """SQL's PERCENT_RANK(): (the rows strictly below) ÷ (rows - 1); 0 alone."""
    if len(values) == 1:
        return 0.0
    return sum(v < value for v in values) / (len(values) - 1)


def random_memory(rng: random.Random) -> list[Reflection]:
    agents = [AgentFactory(), AgentFactory()]  # two departments
    made = []
    for _ in range(rng.randint(8, 20)):
        created = END - timedelta(days=rng.uniform(1, 90), hours=rng.randint(0, 23))
        salience = rng.choice([None, None, None, round(rng.random(), 2)])
        agent = rng.choice(agents)
        reflection = ReflectionFactory(agent=agent, created_at=created, salience=salience)
        for _ in range(rng.choice([0, 0, 1, 3, 8])):
            # Retrieved at any time since it was written, up to the end of as_of.
            moment = created + (END - created) * rng.random()
            RetrievalEventFactory(reflection=reflection, retrieved_at=moment)
        made.append(reflection)
    refresh_retrieval_rollup()
    return made


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_sql_computes_what_the_rule_says_for_every_reflection(seed):
    made = random_memory(random.Random(seed))
    apply_salience(as_of=AS_OF)

    old_enough = boundaries(AS_OF).salience_created_before
    per_day = {}
    for r in made:
        age = (END - r.created_at).total_seconds() / 86400
        per_day[r.pk] = r.retrievals.count() / age
    stored = {r.pk: r for r in Reflection.objects.filter(pk__in=[r.pk for r in made])}
    for r in made:
        peers = [
            per_day[o.pk]
            for o in made
            if o.department_id == r.department_id and o.created_at < old_enough
        ]
        percentile = percent_rank(per_day[r.pk], peers) if r.created_at < old_enough else None
        expected = salience_reference(
            imported=r.salience, created_at=r.created_at, as_of=AS_OF, percentile=percentile
        )
        got = stored[r.pk].effective_salience
        assert (got is None) == (expected is None), (seed, r.pk)
        if expected is not None:
            assert got == pytest.approx(expected), (seed, r.pk)
