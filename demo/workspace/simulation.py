"""A simulated day: tasks, retrievals, outcomes, which tasks reflect, the task log, pools."""

from __future__ import annotations

import bisect
import math
from datetime import timedelta

from demo.library import Department, TaskType
from demo.scales import (
    ARCHIVED_MULTIPLIER,
    CROSS_AGENT,
    DAY,
    ECHO_PENALTY,
    ECHO_RETRIEVAL,
    LESSON_HELP,
    LESSON_WEIGHT,
    RECENCY_HALF_LIFE_DAYS,
    RELATED,
    ROUTINE_RETRIEVAL,
    repeat_failure_target,
    saturation,
    write_factor,
)
from demo.workspace.formats import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
)
from demo.workspace.state import Pool, Stub, Task


class SimulationMixin:
    """A day, step by step; steps 4, 6 and 7 are in planting.py, modes.py and rendering.py.

    Like every mixin here it works on the state Generator (generator.py) sets up.
    """

    def _day(self, di: int) -> None:
        self.today = di
        if di % 7 == 0:
            self._reweigh_pools(di)
        day = self.start + timedelta(days=di)
        week = di // 7
        rng = self.rng
        weekend = day.weekday() >= 5
        factor = 0.625 if weekend else 1.15
        day_iso = day.isoformat()
        stamp = day.strftime("%Y%m%d")

        # 1. Tasks: department, type, agent, finish time.
        tasks: list[Task] = []
        for dept in self.depts:
            mean = self.cfg.tasks_per_dept_day * factor
            n = max(0, round(rng.gauss(mean, math.sqrt(mean))))
            types, cum = self.type_pick[dept.name]
            total = cum[-1]
            for _ in range(n):
                tt = types[bisect.bisect_right(cum, rng.random() * total)]
                names, acum = self.type_agents[(dept.name, tt.name)]
                agent = names[bisect.bisect_right(acum, rng.random() * acum[-1])]
                sec = rng.randint(6 * 3600, 22 * 3600 - 1)
                tasks.append(Task(dept, tt, agent, sec, sec - rng.randint(120, 2700)))
        tasks.sort(key=lambda t: t.sec)
        for i in range(1, len(tasks)):  # unique finish times: "earlier" is never a tie
            if tasks[i].sec <= tasks[i - 1].sec:
                tasks[i].sec = tasks[i - 1].sec + 1
        for task in tasks:
            key = (task.dept.abbr, di)
            self.task_counter[key] = self.task_counter.get(key, 0) + 1
            task.id = f"{task.dept.abbr}-{stamp}-{self.task_counter[key]:04d}"

        # 2. Retrievals (from reflections created before today), outcome, confidence, tools.
        level = min(saturation(week), 1.19) / 1.19
        in_csv = di < self.csv_days
        for task in tasks:
            self._retrieve(task, day_iso, week, in_csv)
        # A lesson learnt from a failure of the same kind of task helps: of the day's tasks of a
        # department (learning or routine), the helped gain LESSON_HELP * (1 - their share) and
        # the others lose LESSON_HELP * the share, so the two differ by LESSON_HELP and the
        # department stays on its planted curve.
        day_tasks: dict[tuple[str, bool], list[int]] = {}
        for task in tasks:
            counts = day_tasks.setdefault((task.dept.name, task.tt.learning), [0, 0])
            counts[0] += 1
            counts[1] += task.helped and not task.echo
        for task in tasks:
            routine_s, routine_p, learning_s, learning_p = self.curve[(task.dept.name, week)]
            p_s, p_p = (learning_s, learning_p) if task.tt.learning else (routine_s, routine_p)
            share_key = (task.dept.name, task.tt.learning)
            share = self.echo_share[share_key]
            if task.echo:
                p_s -= ECHO_PENALTY
            else:  # keep the department on its curve despite the echo chambers' damage
                p_s += ECHO_PENALTY * share / max(1e-6, 1 - share)
            self.echo_share[share_key] = share * 0.97 + 0.03 * task.echo
            n, n_helped = day_tasks[share_key]
            helped = n_helped / n
            if task.helped and not task.echo:
                p_s += LESSON_HELP * (1 - helped)
            else:
                p_s -= LESSON_HELP * helped
            # A task helped above its curve takes its extra success out of the partial share.
            p_s = min(max(p_s, 0.03), 0.997)
            p_p = min(p_p, 0.997 - p_s)
            u = rng.random()
            task.outcome = "success" if u < p_s else "partial" if u < p_s + p_p else "failure"
            task.conf = self._confidence(task, level)
            task.tools = self._tools(task, di)

        # 3. Which tasks get a reflection today, in which format.
        stubs: list[Stub] = []
        by_dept: dict[str, list[Task]] = {}
        for task in tasks:
            by_dept.setdefault(task.dept.name, []).append(task)
        for dept in self.depts:
            stubs += self._select(dept, by_dept.get(dept.name, []), factor, di)

        # 4. Planted items take over some of today's stubs (or add one).
        self._plant(di, stubs, tasks)

        # 5. Eligibility: the earliest failure or partial reflection per department and type,
        #    dated as the importer will date it (day precision, or the episodic timestamp).
        for stub in stubs:
            stub.created = di * DAY + (
                stub.task.sec + 60 + 300 * stub.iteration if stub.fmt == FORMAT_EPISODIC else 0
            )
            if stub.kind in ("failure", "partial") and stub.fmt != FORMAT_PROTOCOL:
                key = (stub.task.dept.name, stub.task.tt.name)
                if stub.created < self.first_fail_reflection.get(key, 1 << 62):
                    self.first_fail_reflection[key] = stub.created

        # 6. Failure modes, in finish order, steering the repeat-failure rate (DOMAIN §7).
        target = repeat_failure_target(week)
        for task in tasks:
            self._assign_mode(task, di, week, target)

        # 7. Render and write today's reflections; they become retrievable tomorrow.
        for stub in stubs:
            self._render(stub, day, di)

        # 8. The task log.
        for task in tasks:
            self._write_task(task, day_iso)
        self.n_tasks += len(tasks)
        self._flush_pending()

    # -- step 2 --------------------------------------------------------------------------------
    def _retrieve(self, task: Task, day_iso: str, week: int, in_csv: bool) -> None:
        rng = self.rng
        u = rng.random()
        k, acc = 0, 0.0
        for i, p in enumerate(self.cfg.k_weights):
            acc += p
            if u < acc:
                k = i
                break
        else:
            k = len(self.cfg.k_weights) - 1
        if not task.tt.learning:  # a routine task seldom matches a lesson
            k = sum(rng.random() < ROUTINE_RETRIEVAL for _ in range(k))
        chosen: list[int] = []
        # The agent's own flawed lesson for this kind of task comes back first, most times.
        held = self.echo_held.get((task.agent, task.tt.name))
        if held is not None and rng.random() < ECHO_RETRIEVAL:
            chosen.append(held)
        if k == 0 and not chosen:
            return
        own = self.pools_type.get((task.agent, task.tt.name))
        if own is None or not own.items:
            own = self.pools_agent[task.agent]
        for _ in range(max(0, k - len(chosen))):
            pool = self._cross_pool(task) if rng.random() < CROSS_AGENT else own
            if pool is None or not pool.items:
                continue
            idx = pool.draw(rng.random())
            if idx in chosen:
                idx = pool.draw(rng.random())
                if idx in chosen:
                    continue
            chosen.append(idx)
        if not chosen:
            return
        h, rem = divmod(task.start, 3600)
        ts = f"{day_iso}T{h:02d}:{rem // 60:02d}:{rem % 60:02d}Z"
        score = rng.uniform(0.78, 0.95)
        out = self.f_csv if in_csv else self.f_ret
        dept_name = task.dept.name
        for rank, idx in enumerate(chosen, start=1):
            refl = self.refls[idx]
            r = rng.random()
            ref = (
                refl.alt
                if refl.alt and r < (0.25 if refl.fmt == FORMAT_HEURISTIC else 0.03)
                else refl.ref
            )
            task.refs.append(ref)
            if refl.flawed:
                task.echo = True
            elif refl.tt is task.tt and refl.kind in ("failure", "partial"):
                task.helped = True
            if refl.agent != task.agent:
                self.n_cross += 1
            self.retrieved[idx] += 1
            self.last_retrieved[idx] = self.today
            if in_csv:
                out.write(f"{ref},{ts},{task.id},{task.agent},{dept_name},{rank},{score:.2f}\n")
            else:
                out.write(
                    f'{{"reflection": "{ref}", "retrieved_at": "{ts}", "task_id": "{task.id}", '
                    f'"agent": "{task.agent}", "department": "{dept_name}", "rank": {rank}, '
                    f'"score": {score:.2f}}}\n'
                )
            score = max(0.3, score - rng.uniform(0.02, 0.12))
        n = len(chosen)
        self.n_retrievals += n
        self.weekly["retrievals"][week] += n
        if in_csv:
            self.n_csv += n

    def _reweigh_pools(self, di: int) -> None:
        """Once a week: every pool draws by weight * recency * the decay state's multiplier."""
        factor = []
        for refl, last in zip(self.refls, self.last_retrieved, strict=True):
            age = di - refl.day
            archived = age > 90 and (last is None or di - last > 30)
            recency = 2 ** (-age / RECENCY_HALF_LIFE_DAYS)
            factor.append(recency * (ARCHIVED_MULTIPLIER if archived else 1.0))
        for pool in (*self.pools_type.values(), *self.pools_agent.values()):
            pool.reweigh(factor)

    def _cross_pool(self, task: Task) -> Pool | None:
        rng = self.rng
        dept = task.dept.name
        peers = [
            self.pools_type[(a, task.tt.name)]
            for a in self.type_agents[(dept, task.tt.name)][0]
            if a != task.agent and self.pools_type[(a, task.tt.name)].items
        ]
        if peers and rng.random() < 0.5:
            return rng.choice(peers)
        related = [d for d in RELATED[dept] if d in self.agents] or [
            d for d in self.agents if d != dept
        ]
        if not related:
            return None
        other = rng.choice(related)
        return self.pools_agent[rng.choice(self.agents[other])]

    def _confidence(self, task: Task, level: float) -> float:
        rng = self.rng
        if not task.tt.learning:
            value = min(0.99, max(0.78, rng.gauss(0.9, 0.04)))
        else:
            mu = {"success": 0.71, "partial": 0.62, "failure": 0.56}[task.outcome] + 0.05 * level
            # An echo chamber makes the agent surer of itself, not better.
            mu += 0.07 if task.echo else 0.0
            value = min(0.84, max(0.2, rng.gauss(mu, 0.08)))
        return round(value, 2)

    def _tools(self, task: Task, di: int) -> list[str]:
        rng = self.rng
        used = []
        for i, slot in enumerate(task.tt.tools):
            if i and rng.random() > 0.7:
                continue
            tool = task.dept.tools[slot]
            if tool.old_id and di < self.retire_day[(task.dept.name, slot)]:
                used.append(tool.old_id)
            else:
                used.append(tool.id)
        return used

    # -- step 3 --------------------------------------------------------------------------------
    def _select(self, dept: Department, tasks: list[Task], factor: float, di: int) -> list[Stub]:
        rng = self.rng
        rate = self.cfg.reflections_per_dept_day * factor
        if self.cfg.taper:
            rate *= write_factor(di // 7)
        self.quota_target[dept.name] += rate
        quota = round(self.quota_target[dept.name]) - self.quota_done[dept.name]
        if quota <= 0:
            return []
        failing = [t for t in tasks if t.tt.learning and t.outcome != "success"]
        rng.shuffle(failing)
        failing = [t for t in failing if rng.random() < 0.9]
        failing = failing[: max(1, round(quota * self.cfg.fail_share))]
        # Agents reflect more on the task types they still find hard (the trigger gate's spirit).
        succeeded = sorted(
            (t for t in tasks if t.outcome == "success"),
            key=lambda t: rng.random() ** (0.5 if t.tt.learning else 1.0),
            reverse=True,
        )
        stubs: list[Stub] = []
        for task in failing + succeeded:
            if len(stubs) >= quota:
                break
            kind = task.outcome
            if kind == "success" and rng.random() < 0.06:
                kind = "decision"
            stubs += self._stubs_for(task, kind)
        self.quota_done[dept.name] += len(stubs)
        return stubs

    def _stubs_for(self, task: Task, kind: str) -> list[Stub]:
        rng = self.rng
        task.has_stub = True
        fmt = self._pick_format(task.tt, kind)
        if fmt != FORMAT_EPISODIC:
            return [Stub(task, kind, fmt)]
        loop = f"ralph-{task.id}"
        if kind == "failure":
            n = 2 if rng.random() < 0.3 else 1
            return [Stub(task, "failure", fmt, i, loop) for i in range(n)]
        if task.tt.learning and rng.random() < 0.3:
            return [Stub(task, "failure", fmt, 0, loop), Stub(task, "success", fmt, 1, loop)]
        return [Stub(task, "success", fmt, 0, loop)]

    def _pick_format(self, tt: TaskType, kind: str) -> str:
        u = self.rng.random()
        if kind == "decision":
            return FORMAT_PROTOCOL
        if kind == "partial":
            return FORMAT_PROTOCOL if u < 0.5 else FORMAT_FRONTMATTER
        episodic = tt.tech if kind == "failure" else tt.tech * 0.6
        if u < episodic:
            return FORMAT_EPISODIC
        u = (u - episodic) / (1 - episodic)
        if kind == "failure":
            weights = ((FORMAT_PROTOCOL, 0.40), (FORMAT_FRONTMATTER, 0.36))
        else:
            weights = ((FORMAT_PROTOCOL, 0.42), (FORMAT_FRONTMATTER, 0.40))
        acc = 0.0
        for fmt, w in weights:
            acc += w
            if u < acc:
                return fmt
        return FORMAT_HEURISTIC

    # -- step 8 --------------------------------------------------------------------------------
    def _write_task(self, task: Task, day_iso: str) -> None:
        h, rem = divmod(task.sec, 3600)
        finished = f"{day_iso}T{h:02d}:{rem // 60:02d}:{rem % 60:02d}Z"
        mode = f'"failure_mode": "{task.mode}", ' if task.mode else ""
        refs = ", ".join(f'"{ref}"' for ref in task.refs)
        tools = ", ".join(f'"{tool}"' for tool in task.tools)
        self.f_tasks.write(
            f'{{"task_id": "{task.id}", "agent": "{task.agent}", "department": '
            f'"{task.dept.name}", "task_type": "{task.tt.name}", "finished_at": "{finished}", '
            f'"outcome": "{task.outcome}", {mode}"confidence_at_start": {task.conf}, '
            f'"reflections_injected": [{refs}], "tools_used": [{tools}]}}\n'
        )

    def _flush_pending(self) -> None:
        for refl in self.pending:
            weight = self._pending_weight.pop(refl.idx)
            if not refl.flawed and refl.kind in ("failure", "partial"):
                weight *= LESSON_WEIGHT  # the retriever ranks a lesson from a failure higher
            own = self.pools_type.get((refl.agent, refl.tt.name))
            if refl.idx in self.echo_by_idx:
                # From tomorrow its author's retriever keeps handing it back (_retrieve); in
                # the pools, where other agents may draw it, it weighs like a follower.
                self.echo_held[(refl.agent, refl.tt.name)] = refl.idx
                weight = self.rng.uniform(0.05, 0.2) ** -1.1
            if own is not None:
                own.add(refl.idx, weight)
            self.pools_agent[refl.agent].add(refl.idx, weight)
        self.pending = []
