"""The four reflection formats: protocol and front matter Markdown, episodic and heuristic."""

from __future__ import annotations

import json
import random
from datetime import date

from demo.scales import DAY, TODAY
from demo.wording import (
    EPISODIC_CATEGORY,
    GENERIC_INSIGHTS,
    MODELS,
    PARTIAL_WHY,
    STRATEGY_FRAMES,
    SUCCESS_HAPPENED,
    SUCCESS_SUFFIX,
    VERIFICATION,
    WORKED_FRAMES,
    cap,
    reword_text,
    slug,
)
from demo.workspace.state import Stub

FORMAT_PROTOCOL = "protocol_md"
FORMAT_FRONTMATTER = "frontmatter_md"
FORMAT_EPISODIC = "episodic_json"
FORMAT_HEURISTIC = "heuristic_jsonl"
FORMATS = (FORMAT_PROTOCOL, FORMAT_FRONTMATTER, FORMAT_EPISODIC, FORMAT_HEURISTIC)


class FormatsMixin:
    """Writes a rendered reflection in its format; returns its path and text (or scenario id)."""

    def _protocol(
        self,
        stub: Stub,
        ctx: dict,
        r: random.Random,
        day: date,
        reword: str,
        unsafe_text: str,
        unsafe_kind: str | None,
    ) -> tuple[str, str]:
        task, kind = stub.task, stub.kind
        sections: list[tuple[str, str]]
        if kind in ("failure", "partial"):
            s = self._failure_sections(ctx, r, kind)
            if kind == "failure":
                label = "Reflection"
                sections = [
                    ("What happened?", s["happened"]),
                    ("What went wrong?", s["wrong"]),
                    ("Why did it go wrong?", s["why"]),
                    ("What should I do differently?", s["do"]),
                    ("Tactical rule candidate", s["rule"]),
                ]
                self._mars(ctx, r, sections)
            else:
                label = "Reflection"
                sections = [
                    ("What happened?", s["happened"]),
                    ("What went wrong?", s["wrong"]),
                    ("What should I do differently?", s["do"]),
                ]
            summary = cap(ctx["task"])
        elif kind == "success":
            label = "Procedure"
            strategy = self._details(ctx, r).lstrip()
            strategy = f"{strategy} {cap(r.choice(STRATEGY_FRAMES).format_map(ctx))}".lstrip()
            worked = cap(r.choice(WORKED_FRAMES).format_map(ctx)) + r.choice(SUCCESS_SUFFIX)
            sections = [("Strategy", strategy), ("Why it worked", worked)]
            self._mars(ctx, r, sections)
            summary = cap(ctx["task"])
        else:
            label = "Decision"
            context = f" It came up while I had to {ctx['task']}." + self._details(ctx, r)
            sections = [
                ("What was the decision?", cap(ctx["decision"]) + "." + context),
                ("What alternatives existed?", cap(ctx["alternatives"]) + "."),
                ("Why was this option chosen?", cap(ctx["why"]) + "."),
            ]
            summary = cap(ctx["title"])
        sections = self._finish_sections(sections, reword, unsafe_text, unsafe_kind)
        words = slug(ctx["title"])
        base = f"memory/reflections/{task.agent}/{day.isoformat()}-"
        name = "-".join(words)
        n = 2
        while base + name + ".md" in self.protocol_names:
            name = "-".join([*words[:4], str(n)])
            n += 1
        rel = base + name + ".md"
        self.protocol_names.add(rel)
        body = "\n\n".join(f"## {h}\n{b}" for h, b in sections)
        text = f"# {label}: {day.isoformat()} - {task.agent} - {summary}\n\n{body}\n"
        self._write(rel, text)
        return rel, text

    def _frontmatter(
        self,
        stub: Stub,
        ctx: dict,
        r: random.Random,
        day: date,
        reword: str,
        unsafe_text: str,
        unsafe_kind: str | None,
        weight_u: float,
    ) -> tuple[str, str]:
        task, tt, kind = stub.task, stub.task.tt, stub.kind
        if kind in ("failure", "partial"):
            s = self._failure_sections(ctx, r, kind)
            happened = f"{s['happened']} {s['wrong']}"
            why = s["why"] if kind == "failure" else r.choice(PARTIAL_WHY).format_map(ctx)
        else:
            happened = cap(r.choice(SUCCESS_HAPPENED).format_map(ctx)) + self._details(ctx, r)
            happened += " " + cap(r.choice(STRATEGY_FRAMES).format_map(ctx))
            why = cap(r.choice(WORKED_FRAMES).format_map(ctx))
        sections = [
            ("What happened?", happened),
            ("Why?", why),
            ("What rule should I remember?", ctx["rule"]),
        ]
        sections = self._finish_sections(sections, reword, unsafe_text, unsafe_kind)
        model = r.choices([m for m, _ in MODELS], weights=[w for _, w in MODELS])[0]
        tags = r.sample(tt.tags, min(len(tt.tags), r.randint(2, 3)))
        skills = r.sample(tt.skills, min(len(tt.skills), r.randint(1, 2)))
        lines = [
            "---",
            f"task_type: {tt.name}",
            f"outcome: {kind}",
            f"confidence_at_start: {task.conf}",
            f"model_used: {model}",
        ]
        # Salience is computed after 14 days; older files carry it, most recent ones not yet.
        if (TODAY - day).days > 14 and r.random() < 0.45:
            lines.append(f"salience_score: {min(0.99, max(0.01, round(1 - weight_u, 2)))}")
        lines += [
            f"department: {task.dept.name}",
            f"agent: {task.agent}",
            f"related_skills: [{', '.join(skills)}]",
            f"tags: [{', '.join(tags)}]",
            "---",
        ]
        body = "\n\n".join(f"## {h}\n{b}" for h, b in sections)
        text = "\n".join(lines) + "\n" + body + "\n"
        rel = f"memory/reflexions/{day.strftime('%Y-%m')}/{day.strftime('%d')}-{task.id}.md"
        self._write(rel, text)
        return rel, text

    def _episodic(
        self, stub: Stub, ctx: dict, r: random.Random, day: date, reword: str
    ) -> tuple[str, str]:
        task, tt, kind = stub.task, stub.task.tt, stub.kind
        sec = stub.created - (stub.created // DAY) * DAY
        h, rem = divmod(sec, 3600)
        timestamp = f"{day.isoformat()}T{h:02d}:{rem // 60:02d}:{rem % 60:02d}Z"
        rel_dir = f".aiwg/ralph/reflections/{stub.loop}"
        if kind == "failure":
            why = ctx["why"] or "I did not plan for it"
            text_of = (
                f"In my previous attempt, I tried to {ctx['task']}, but {ctx['wrong']}."
                f"{self._details(ctx, r)} {cap(why)}. In my next attempt, I will {ctx['action']}."
            )
            credit = {
                "failing_action_indices": sorted(r.sample(range(1, 7), r.choice((1, 1, 2)))),
                "root_cause": cap(why),
                "failure_category": EPISODIC_CATEGORY.get(ctx["cause"], "missing_knowledge"),
            }
            causal = cap(
                r.choice(("{wrong}, because {why}.", "Because {why}, {wrong}.")).format_map(
                    {**ctx, "why": why}
                )
            )
            insights = [f"{cap(ctx['action'])}.", r.choice(GENERIC_INSIGHTS)]
            if tt.errors:
                etype, message = r.choice(tt.errors)
                error: dict = {"type": etype, "message": message.format_map(ctx)}
                if tt.name == "programming":
                    error["file"] = r.choice(
                        ("src/exporter/invoice.ts", "src/auth/login.ts", "app/reports/job.py",
                         "pkg/sync/worker.go", "src/search/handler.ts")
                    )  # fmt: skip
                    error["line"] = r.randint(12, 240)
            else:
                error = {"type": "CheckFailed", "message": cap(ctx["wrong"])}
            evaluator = {
                "passed": False,
                "verification_type": VERIFICATION.get(
                    tt.name, VERIFICATION.get(task.dept.name, "reviewer_check")
                ),
                "reward_signal": r.choice((0.0, 0.25, 0.4, 0.5, 0.6)),
                "errors": [error],
            }
        else:
            text_of = (
                f"This attempt passed. I was asked to {ctx['task']}.{self._details(ctx, r)} "
                f"{cap(ctx['strategy'])}. {cap(ctx['why'])}."
            )
            credit = {
                "failing_action_indices": [],
                "root_cause": "No failure in this attempt",
                "failure_category": "none",
            }
            causal = f"{cap(ctx['why'])}."
            insights = [f"{cap(ctx['action'])}."]
            evaluator = {
                "passed": True,
                "verification_type": VERIFICATION.get(
                    tt.name, VERIFICATION.get(task.dept.name, "reviewer_check")
                ),
                "reward_signal": 1.0,
                "errors": [],
            }
        if reword:
            rr = random.Random(len(self.refls) * 7919 + self.seed)
            light = reword == "cross"
            text_of, causal = reword_text(text_of, rr, light), reword_text(causal, rr, light)
            insights = [reword_text(i, rr, light) for i in insights]
        related = [f"{rel_dir}/{stub.iteration:03d}.json"] if stub.iteration else []
        data = {
            "iteration": stub.iteration,
            "timestamp": timestamp,
            "agent": task.agent,
            "department": task.dept.name,
            "task_type": tt.name,
            "task_description": cap(ctx["task"]),
            "self_reflection": {
                "reflection_text": text_of,
                "credit_assignment": credit,
                "causal_reasoning": causal,
                "actionable_insights": insights,
                "lessons_learned": [ctx["rule"]],
                "confidence": round(r.uniform(0.5, 0.9), 2),
                "related_reflections": related,
            },
            "evaluator_output": evaluator,
        }
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        rel = f"{rel_dir}/{stub.iteration + 1:03d}.json"
        self._write(rel, text)
        return rel, text

    def _heuristic(
        self, stub: Stub, ctx: dict, r: random.Random, day: date, reword: str
    ) -> tuple[str, str]:
        task, tt = stub.task, stub.task.tt
        details = self._details(ctx, r)
        if stub.kind == "failure":
            analysis = f"{cap(ctx['wrong'])}. {cap(ctx['why'])}.{details}"
        else:
            analysis = f"{cap(ctx['strategy'])}. {cap(ctx['why'])}.{details}"
        trigger, action = f"When {ctx['trigger']}.", f"{cap(ctx['action'])}."
        if reword:
            rr = random.Random(len(self.refls) * 7919 + self.seed)
            light = reword == "cross"
            analysis, action = reword_text(analysis, rr, light), reword_text(action, rr, light)
        while True:
            suffix = "".join(r.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=6))
            sid = f"scenario_{task.dept.abbr}_{day.strftime('%Y%m%d')}_{suffix}"
            if sid not in self.scenario_ids:
                break
        self.scenario_ids.add(sid)
        quarter = (day.month - 1) // 3 + 1
        rel = f"heuristics/{task.agent}-{day.year}q{quarter}.jsonl"
        record = {
            "scenario_id": sid,
            "agent": task.agent,
            "department": task.dept.name,
            "task_type": tt.name,
            "created_at": day.isoformat(),
            "task": f"{cap(ctx['task'])}.",
            "reward": "failure" if stub.kind == "failure" else "success",
            "analysis": analysis,
            "guideline": {"trigger": trigger, "action": action},
        }
        self.heuristic_lines.setdefault(rel, []).append(
            json.dumps(record, ensure_ascii=False) + "\n"
        )
        return rel, sid
