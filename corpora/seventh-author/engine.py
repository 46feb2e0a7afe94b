"""Entry constructors and renderers for the four reflection formats.

Bank modules describe each reflection with one of the constructors below; the
renderers turn an entry into the file text an agent of that format would write.
Standard library only; no hashing of Python objects, so output does not depend on
PYTHONHASHSEED.
"""
import json
import re


def _entry(fmt, agent, tt, date, role, w, fm, **kw):
    e = {"fmt": fmt, "agent": agent, "tt": tt, "date": date, "role": role,
         "w": w, "fm": fm}
    e.update(kw)
    return e


# ---------------------------------------------------------------- constructors
def A(agent, kind, tt, date, slug, summary, secs, principle=None, procedure=None,
      role=None, w=None, fm=None, note=None):
    """Reflexion-protocol Markdown. kind: fail (5 sections), fail4, part, proc, dec."""
    need = {"fail": 5, "fail4": 4, "part": 3, "proc": 2, "dec": 3}[kind]
    assert len(secs) == need, (slug, kind, len(secs))
    outcome = {"fail": "failure", "fail4": "failure", "part": "partial",
               "proc": "success", "dec": "success"}[kind]
    return _entry("A", agent, tt, date, role, w, fm, note=note, kind=kind, slug=slug,
                  summary=summary, secs=secs, principle=principle,
                  procedure=procedure, outcome=outcome)


def B(agent, tt, date, outcome, happened, why, rule, tags, skills, conf=None,
      sal=None, role=None, w=None, fm=None, note=None):
    """Front-matter Markdown (memory/reflexions/YYYY-MM/DD-<task-id>.md)."""
    return _entry("B", agent, tt, date, role, w, fm, note=note, outcome=outcome,
                  happened=happened, why=why, rule=rule, tags=tags,
                  skills=skills, conf=conf, sal=sal)


def C(agent, tt, date, passed, desc, text, root, cat, causal, insights, lessons,
      errors, conf=0.7, reward=None, role=None, w=None, fm=None, note=None):
    """Episodic-memory JSON (.aiwg/ralph/reflections/<loop>/NNN.json)."""
    return _entry("C", agent, tt, date, role, w, fm, note=note,
                  outcome="success" if passed else "failure", passed=passed,
                  desc=desc, text=text, root=root, cat=cat, causal=causal,
                  insights=insights, lessons=lessons, errors=errors, conf=conf,
                  reward=reward)


def D(agent, tt, date, reward, task, analysis, trigger, action, role=None, w=None,
      fm=None, note=None):
    """Heuristic JSONL line (heuristics/<agent>.jsonl#<scenario_id>)."""
    return _entry("D", agent, tt, date, role, w, fm, note=note, outcome=reward,
                  reward=reward, task=task, analysis=analysis, trigger=trigger,
                  action=action)


# ------------------------------------------------------------------ renderers
A_HEADS = {
    "fail": ["What happened?", "What went wrong?", "Why did it go wrong?",
             "What should I do differently?", "Tactical rule candidate"],
    "fail4": ["What happened?", "What went wrong?", "What should I do differently?",
              "Tactical rule candidate"],
    "part": ["What happened?", "What went wrong?", "What should I do differently?"],
    "proc": ["Strategy", "Why it worked"],
    "dec": ["What was the decision?", "What alternatives existed?",
            "Why was this option chosen?"],
}
A_H1 = {"fail": "Reflection", "fail4": "Reflection", "part": "Reflection",
        "proc": "Procedure", "dec": "Decision"}


def render_A(e, style):
    """style 'plain' (bare headings) or 'numbered' (numbered, separators, MARS block)."""
    heads = A_HEADS[e["kind"]]
    out = ["# %s: %s - %s - %s" % (A_H1[e["kind"]], e["date"], e["agent"], e["summary"]), ""]
    for i, (h, body) in enumerate(zip(heads, e["secs"])):
        if style == "numbered":
            if h == "Why did it go wrong?":
                h = "Why did it go wrong? (root cause)"
            out += ["## %d. %s" % (i + 1, h.rstrip("?")), "", body.strip(), ""]
        else:
            out += ["## " + h, body.strip(), ""]
    if e["principle"] or e["procedure"]:
        if style == "numbered":
            out += ["---", "", "# MARS Extraction", ""]
            if e["principle"]:
                out += ["## Principle (Normative)", "", e["principle"].strip(), ""]
            if e["procedure"]:
                out += ["## Procedure (Descriptive)", ""]
                out += ["%d. %s" % (i + 1, s) for i, s in enumerate(e["procedure"])] + [""]
        else:
            if e["principle"]:
                out += ["## Principle", e["principle"].strip(), ""]
            if e["procedure"]:
                out += ["## Procedure"]
                out += ["%d. %s" % (i + 1, s) for i, s in enumerate(e["procedure"])] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def _yq(s):
    if re.fullmatch(r"[a-z0-9][a-z0-9._-]*", s) and s not in ("yes", "no", "true", "false", "null", "on", "off"):
        return s
    return json.dumps(s, ensure_ascii=False)


def render_B(e, dept, model, with_salience):
    fm = ["---", "task_type: " + e["tt"], "outcome: " + e["outcome"]]
    if e["conf"] is not None:
        fm.append("confidence_at_start: %.2f" % e["conf"])
    fm.append("model_used: " + _yq(model))
    if with_salience and e["sal"] is not None:
        fm.append("salience_score: %.2f" % e["sal"])
    fm.append("department: " + dept)
    fm.append("agent: " + e["agent"])
    fm.append("related_skills: [%s]" % ", ".join(_yq(s) for s in e["skills"]))
    fm.append("tags: [%s]" % ", ".join(_yq(s) for s in e["tags"]))
    fm.append("---")
    body = ["## What happened?", e["happened"].strip(), "", "## Why?", e["why"].strip(), "",
            "## What rule should I remember?", e["rule"].strip()]
    return "\n".join(fm + body) + "\n"


def render_C(e, dept, iteration, timestamp):
    obj = {
        "iteration": iteration,
        "timestamp": timestamp,
        "agent": e["agent"],
        "department": dept,
        "task_type": e["tt"],
        "task_description": e["desc"],
        "self_reflection": {
            "reflection_text": e["text"],
            "credit_assignment": {
                "failing_action_indices": e.get("fail_idx", [] if e["passed"] else [1]),
                "root_cause": e["root"],
                "failure_category": e["cat"],
            },
            "causal_reasoning": e["causal"],
            "actionable_insights": e["insights"],
            "lessons_learned": e["lessons"],
            "confidence": e["conf"],
            "related_reflections": e.get("related", []),
        },
        "evaluator_output": {
            "passed": e["passed"],
            "verification_type": "timetable_validation" if dept.startswith("rail") else
                                 ("registrar_check" if dept.startswith("museum") else "agronomist_review"),
            "reward_signal": e["reward"] if e["reward"] is not None else (1.0 if e["passed"] else 0.25),
            "errors": [{"type": t, "message": m} for t, m in e["errors"]],
        },
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def render_D(e, dept, scenario_id):
    obj = {"scenario_id": scenario_id, "agent": e["agent"], "department": dept,
           "task_type": e["tt"], "created_at": e["date"], "task": e["task"],
           "reward": e["reward"], "analysis": e["analysis"],
           "guideline": {"trigger": e["trigger"], "action": e["action"]}}
    return json.dumps(obj, ensure_ascii=False)
