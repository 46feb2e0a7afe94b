"""Rendering a reflection: its lesson, slots and sentences, before a format writes it."""

from __future__ import annotations

import hashlib
import math
import random
import re
from datetime import date, timedelta

from demo.library import Department, Entry, TaskType
from demo.wording import (
    CAUSE_LABEL,
    CURRENCIES,
    DETAILS,
    DO_FRAMES,
    FAIL_HAPPENED,
    FAIL_RESULT,
    MONTHS,
    PARTIAL_RESULT,
    PRINCIPLES,
    QUAL_FRAMES,
    RULE_FRAMES,
    VERIFY_STEPS,
    WEEKDAYS,
    WHY_FRAMES,
    WRONG_FRAMES,
    cap,
    reword_text,
)
from demo.workspace.formats import FORMAT_EPISODIC, FORMAT_FRONTMATTER, FORMAT_PROTOCOL
from demo.workspace.state import Refl, Stub

LESSON_FIELDS = ("wrong", "why", "trigger", "action", "strategy", "decision", "alternatives")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class RenderingMixin:
    """Step 7 of a day: a stub becomes a reflection with its lesson, slots and sentences."""

    # -- step 7 --------------------------------------------------------------------------------
    def _slots(self, dept: Department, tt: TaskType, day: date, rng: random.Random) -> dict:
        cp, cp2 = rng.sample(dept.cps, 2)
        n_total = rng.randint(12, 90)
        amount = int(math.exp(rng.uniform(5.3, 9.9)))
        amount = round(amount, -1) if amount < 1000 else round(amount, -2)
        slots = {
            "cp": cp,
            "cp2": cp2,
            "cur": rng.choice(CURRENCIES),
            "amt": f"{amount:,}",
            "n_total": str(n_total),
            "n_done": str(rng.randint(max(2, n_total // 3), n_total - 2)),
            "n": str(rng.choice((20, 25, 30, 40, 50, 60, 80, 100))),
            "k": str(rng.randint(2, 9)),
            "days": str(rng.choice((2, 3, 5, 7, 10, 14))),
            "hours": str(rng.choice((2, 3, 4, 6, 8, 12, 24, 36))),
            "mins": str(rng.choice((10, 15, 20, 25, 30, 40, 45))),
            "pct": str(rng.choice((5, 8, 10, 12, 15, 20, 25))),
            "step": str(rng.randint(2, 6)),
            "month": MONTHS[(day.month - 1 - rng.randint(0, 1)) % 12],
            "weekday": rng.choice(WEEKDAYS),
            # The day the task ran: two reflections on the same lesson for the same client
            # are still two cases when they were written after different tasks.
            "date": f"{day.day} {MONTHS[day.month - 1]}",
            "daypart": rng.choice(("morning", "afternoon", "evening")),
            "unit": tt.unit,
        }
        for name, values in dept.vocab.items():
            slots[name] = rng.choice(values)
        for slot, tool in dept.tools.items():
            retired = (
                tool.old_id
                and self.start + timedelta(days=self.retire_day[(dept.name, slot)]) > day
            )
            # Before the switch, normal lessons talk about the workflow, not the old tool:
            # only the planted outdated lessons name a tool that later disappears.
            slots[slot] = tool.generic if retired else f"`{tool.id}`"
        return slots

    def _render(self, stub: Stub, day: date, di: int) -> None:
        rng = self.rng
        task, tt, dept = stub.task, stub.task.tt, stub.task.dept
        rseed = rng.getrandbits(48)
        kind = stub.kind
        entry, qual = self._entry_for(stub)
        plant = stub.plant
        # A rewording ("same" format, or "cross": another format already frames it anew, so it
        # swaps fewer words); "" for everything else.
        slot_day, reword = day, ""
        if plant and plant[0] == "dup":
            original: Refl = plant[1]
            entry, qual, rseed = original.entry, original.qual, original.rseed
            reword = "same" if original.fmt == stub.fmt else "cross"
            slot_day = self.start + timedelta(days=original.day)
        elif plant and plant[0] == "outdated":
            entry, qual = plant[1]["entry"], ""
        elif plant and plant[0] in ("echo", "follower"):
            echo = plant[1]["entry"] if plant[0] == "echo" else plant[1]["seed_entry"]
            entry, qual = echo, ""
        r = random.Random(rseed)
        slots = self._slots(dept, tt, slot_day, r)
        ctx = self._lesson(entry, kind, slots, qual, r, tt, plant)
        weight_u = max(rng.random(), 1e-4)
        refl = Refl()
        refl.idx = len(self.refls)
        refl.agent, refl.dept, refl.tt, refl.kind, refl.fmt = task.agent, dept, tt, kind, stub.fmt
        refl.day, refl.entry, refl.qual, refl.rseed = di, entry, qual, rseed
        refl.planted = plant is not None
        refl.flawed = bool(plant and plant[0] in ("echo", "follower"))
        extra = plant[1] if plant and plant[0] == "unsafe" else None
        unsafe_text = self._unsafe_sentence(extra) if extra else ""
        if stub.fmt == FORMAT_PROTOCOL:
            rel, text = self._protocol(stub, ctx, r, day, reword, unsafe_text, extra)
            refl.ref, refl.alt = rel, hashlib.sha256(text.encode("utf-8")).hexdigest()
        elif stub.fmt == FORMAT_FRONTMATTER:
            rel, text = self._frontmatter(stub, ctx, r, day, reword, unsafe_text, extra, weight_u)
            refl.ref, refl.alt = rel, hashlib.sha256(text.encode("utf-8")).hexdigest()
        elif stub.fmt == FORMAT_EPISODIC:
            rel, text = self._episodic(stub, ctx, r, day, reword)
            refl.ref, refl.alt = rel, hashlib.sha256(text.encode("utf-8")).hexdigest()
        else:
            rel, sid = self._heuristic(stub, ctx, r, day, reword)
            refl.ref, refl.alt = f"{rel}#{sid}", sid
        self.refls.append(refl)
        self.retrieved.append(0)
        self.last_retrieved.append(None)
        self.counts[stub.fmt] += 1
        self.kinds[kind] += 1
        self.pending.append(refl)
        refl_weight = weight_u**-1.1
        self._record_plant(stub, refl)
        if plant is None:
            self.originals.setdefault((dept.name, tt.name, kind), []).append(refl)
            self._record_natural(stub, refl, self._case(entry, qual, ctx))
        elif plant[0] == "outdated":
            refl_weight = max(rng.uniform(0.003, 0.03), 1e-4) ** -1.1
        elif plant[0] == "dup":
            refl_weight = max(rng.uniform(0.005, 0.05), 1e-4) ** -1.1
        elif plant[0] == "follower":
            refl_weight = rng.uniform(0.05, 0.2) ** -1.1
        self._pending_weight[refl.idx] = refl_weight

    def _entry_for(self, stub: Stub) -> tuple[Entry, str]:
        task, tt, rng = stub.task, stub.task.tt, self.rng
        if stub.kind == "failure" and task.outcome == "failure" and task.mode and tt.learning:
            state = self._mode_state(task.dept, tt, "failure")
            entry, qual = state.mode_entry[task.mode]
            return entry, qual
        if stub.kind == "failure":
            return rng.choice(tt.fails), ""
        if stub.kind == "partial":
            state = self._mode_state(task.dept, tt, "partial")
            if task.mode in state.mode_entry:
                return state.mode_entry[task.mode]
            return rng.choice(tt.partials), ""
        if stub.kind == "decision":
            return rng.choice(tt.decisions), ""
        return rng.choice(tt.successes), ""

    def _lesson(
        self,
        entry: Entry,
        kind: str,
        slots: dict,
        qual: str,
        r: random.Random,
        tt: TaskType,
        plant: tuple | None,
    ) -> dict:
        """Every sentence a renderer may need, filled in from the entry and the slots."""
        ctx = dict(slots)
        ctx["task"] = self._task_text(tt, slots, r)
        ctx["qual"] = qual
        for name in LESSON_FIELDS:
            ctx[name] = getattr(entry, name).format_map(slots)
        ctx["cause"] = entry.cause
        ctx["label"] = CAUSE_LABEL.get(entry.cause, "Missing knowledge")
        ctx["title"] = entry.title
        if entry.code == "E":
            follower = bool(plant and plant[0] == "follower")
            if follower:
                ctx["strategy"] = r.choice(
                    (
                        "I applied the rule I rely on: when {trigger}, {action}",
                        "Once again I followed my rule: when {trigger}, {action}",
                        "As before, when {trigger}, I chose to {action}",
                    )
                ).format_map(ctx)
                ctx["why"] = f"{ctx['why']}, and it held again this time"
            else:
                ctx["strategy"] = "When {trigger}, I decided to {action}".format_map(ctx)
            ctx["rule"] = "When {trigger}, {action}.".format_map(ctx)
        else:
            ctx["rule"] = cap(r.choice(RULE_FRAMES).format_map(ctx))
        return ctx

    @staticmethod
    def _case(entry: Entry, qual: str, ctx: dict) -> tuple:
        """The lesson and the case it is about: the library entry, its qualifier, the task
        (what, for whom, on which day) and the figures the lesson itself names."""
        names = sorted({n for f in LESSON_FIELDS for n in _PLACEHOLDER.findall(getattr(entry, f))})
        figures = [str(ctx[n]) for n in names]
        return (entry.code, entry.mode, entry.title, qual, ctx["task"], *figures)

    @staticmethod
    def _task_text(tt: TaskType, slots: dict, r: random.Random) -> str:
        """What the task was and when it ran: the case a reflection is about."""
        return f"{r.choice(tt.tasks).format_map(slots)} on {slots['date']}"

    def _details(self, ctx: dict, r: random.Random) -> str:
        n = r.choice((0, 1, 1, 1, 2, 2))
        return "".join(" " + cap(d.format_map(ctx)) for d in r.sample(DETAILS, n))

    def _failure_sections(self, ctx: dict, r: random.Random, kind: str) -> dict[str, str]:
        ctx["result"] = r.choice(FAIL_RESULT if kind == "failure" else PARTIAL_RESULT).format_map(
            ctx
        )
        happened = cap(r.choice(FAIL_HAPPENED).format_map(ctx)) + self._details(ctx, r)
        wrong = cap(r.choice(WRONG_FRAMES).format_map(ctx))
        if ctx["qual"]:
            wrong += r.choice(QUAL_FRAMES).format_map(ctx)
        why = cap(r.choice(WHY_FRAMES).format_map(ctx)) if ctx["why"] else ""
        do = cap(r.choice(DO_FRAMES).format_map(ctx))
        return {"happened": happened, "wrong": wrong, "why": why, "do": do, "rule": ctx["rule"]}

    def _mars(self, ctx: dict, r: random.Random, sections: list[tuple[str, str]]) -> None:
        if r.random() < 0.1:
            sections.append(("Principle", f"I should follow this rule: {r.choice(PRINCIPLES)}."))
            if r.random() < 0.5:
                steps = [
                    f"Recognise the situation: {ctx['trigger']}.",
                    f"{cap(ctx['action'])}.",
                    r.choice(VERIFY_STEPS),
                ]
                if r.random() < 0.5:
                    steps.append("Write down anything left open in the run summary.")
                sections.append(
                    ("Procedure", "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1)))
                )

    def _finish_sections(
        self,
        sections: list[tuple[str, str]],
        reword: str,
        unsafe_text: str,
        unsafe_kind: str | None,
    ) -> list[tuple[str, str]]:
        if reword:
            r = random.Random(len(self.refls) * 7919 + self.seed)
            # MARS sections keep their fixed wording ("I should follow this rule: …").
            light = reword == "cross"
            sections = [
                (h, b if h in ("Principle", "Procedure") else reword_text(b, r, light))
                for h, b in sections
            ]
        if unsafe_text:
            # The injection sits where a future prompt would read it as a rule.
            i = len(sections) - 1 if unsafe_kind == "prompt_injection" else 0
            head, body = sections[i]
            sections[i] = (head, f"{body} {unsafe_text}")
        return sections
