"""Text rendering for the four reflection formats, with per-agent styles and per-item variation."""
import json
import re

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def cap(s):
    return s[:1].upper() + s[1:] if s else s


def low(s):
    # lower-case the first letter unless it starts an acronym / tool name
    if len(s) > 1 and s[1].isupper():
        return s
    return s[:1].lower() + s[1:]


def nodot(s):
    return s.rstrip(".")


def dayphrase(d):
    return f"{d.day} {MONTHS[d.month - 1]}"


def slug_title(title):
    words = re.sub(r"[^a-z0-9 ]+", " ", title.lower()).split()[:5]
    return "-".join(words)


def figures(ctx):
    rng = ctx["rng"]
    n2 = rng.randint(4, 30)
    n1 = rng.randint(1, max(1, n2 - 1))
    return n1, n2


def result_sentence(ctx, variant):
    out = ctx["task"]["outcome"]
    n1, n2 = figures(ctx)
    u = ctx["unit"]
    forms = {
        "failure": [f"It failed: {n1} of {n2} {u} had to be redone.", f"The task ended as a failure, with {n1} of {n2} {u} affected.",
                    f"Outcome: failure ({n1}/{n2} {u} wrong or missing).", f"Result was a fail; {n1} of the {n2} {u} came back.",
                    f"Failed. {n1} of {n2} {u} were not usable."],
        "partial": [f"I finished {n1} of {n2} {u}; the rest stayed open.", f"Partly done: {n1} of {n2} {u} complete.",
                    f"Outcome: partial, {n1}/{n2} {u} done.", f"Only {n1} of the {n2} {u} were finished in time.",
                    f"Partial result ({n1} of {n2} {u})."],
        "success": [f"All {n2} {u} were completed.", f"It went through cleanly: {n2} of {n2} {u} done.",
                    f"Outcome: success on all {n2} {u}.", f"Done, {n2} {u} and nothing sent back.", f"Completed ({n2} {u})."],
    }[out]
    return forms[variant % len(forms)]


def happened(ctx, variant):
    c, tk = ctx["core"], ctx["task"]
    dp = dayphrase(tk["day"])
    res = result_sentence(ctx, variant + ctx["agent"]["style"])
    s = c["summary"]
    forms = [
        f"{s}, {dp}. {res}",
        f"Task: {low(s)} ({dp}). {res}",
        f"I was asked to handle {low(s)} on {dp}. {res}",
        f"{dp}: {low(s)}. {res}",
        f"{s} on {dp}. {res}",
        f"Context: {low(s)} ({dp}). {res}",
    ]
    return forms[variant % len(forms)]


def rule(c, variant):
    t, a = nodot(c["trig"]), nodot(c["act"])
    forms = [
        f"When {t}, {a}.",
        f"{cap(a)} whenever {t}.",
        f"If {t}, I should {a}.",
        f"Next time {t}, {a}.",
        f"Rule: when {t}, {a}.",
        f"Before going further, check whether {t}; if so, {a}.",
        f"{cap(a)}, every time {t}.",
    ]
    return forms[variant % len(forms)]


def tactical(c, variant, ifthen=False):
    t, a = nodot(c["trig"]), nodot(c["act"])
    if ifthen:
        return [f"IF {t}, THEN {a}.", f"IF {t} THEN {a}", f"IF {t}\nTHEN {a}."][variant % 3]
    forms = [f"IF {t} THEN {a}.", f"When {t} -> {a}.", f"Trigger: {t}. Action: {a}.", f"Always {a} when {t}."]
    return forms[variant % len(forms)]


HEADINGS = {
    # style -> function(section name, index) -> heading line
    0: lambda s, i: f"## {s}",
    1: lambda s, i: "## " + s.rstrip("?").lower(),
    2: lambda s, i: f"## {s}" + {"What happened?": " (context)", "Why did it go wrong?": " (root cause)",
                                  "What should I do differently?": " (next time)", "Tactical rule candidate": " (draft)"}.get(s, ""),
    3: lambda s, i: f"## **{s}**",
    4: lambda s, i: f"## {i}. {s.rstrip('?')}",
    5: lambda s, i: f"## {s}",
}


def protocol_path(ctx):
    return f"memory/reflections/{ctx['agent']['name']}/{ctx['created'].strftime('%Y-%m-%d')}-{slug_title(ctx['core']['title'])}.md"


def protocol(ctx):
    c, tk, a, rng = ctx["core"], ctx["task"], ctx["agent"], ctx["rng"]
    style = a["style"] % 6
    v = rng.randint(0, 20)
    date = ctx["created"].strftime("%Y-%m-%d")
    summary = c["summary"]
    out = tk["outcome"]
    if out == "success" and c["kind"] == "d" and c["alt"]:
        head = f"# Decision: {date} - {a['name']} - {summary}"
        secs = [("What was the decision?", c["wrong"]), ("What alternatives existed?", c["alt"]),
                ("Why was this option chosen?", c["cause"])]
    elif out == "success":
        head = f"# Procedure: {date} - {a['name']} - {summary}"
        strat = c["wrong"] if v % 3 else f"{c['wrong']} {rule(c, v)}"
        secs = [("Strategy", strat), ("Why it worked", c["cause"])]
    elif out == "partial":
        head = f"# Reflection: {date} - {a['name']} - {summary}"
        secs = [("What happened?", happened(ctx, v)), ("What went wrong?", c["wrong"]),
                ("What should I do differently?", rule(c, v + style))]
    else:
        head = f"# Reflection: {date} - {a['name']} - {summary}"
        if v % 4 == 0:
            secs = [("What happened?", happened(ctx, v)), ("What went wrong?", c["wrong"]),
                    ("What should I do differently?", rule(c, v + style)), ("Tactical rule candidate", tactical(c, v, True))]
        else:
            secs = [("What happened?", happened(ctx, v)), ("What went wrong?", c["wrong"]),
                    ("Why did it go wrong?", c["cause"]), ("What should I do differently?", rule(c, v + style)),
                    ("Tactical rule candidate", tactical(c, v + 1))]
    hf = HEADINGS[style]
    lines = [head, ""]
    if style == 5:
        lines += ["---", ""]
    for i, (name, body) in enumerate(secs, 1):
        lines += [hf(name, i), body, ""]
        if style == 5 and i < len(secs):
            lines += ["---", ""]
    mars = (v % 5 == 0) or (style == 3 and v % 2 == 0)
    if mars and out != "success" or (mars and c["kind"] == "s"):
        t, act = nodot(c["trig"]), nodot(c["act"])
        if v % 2 == 0:
            lines += ["# MARS Extraction", ""]
            lines += ["## Principle (Normative)", f"I should follow this rule: when {t}, {act}.", ""]
            lines += ["## Procedure (Descriptive)", f"1. Check whether {t}.", f"2. If so, {act}.", "3. Note what was done in the task record.", ""]
        else:
            lines += ["## Principle", f"I should follow this rule: {act} when {t}.", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


SKILLS = {
    0: ["triage", "checklist-discipline"], 1: ["verification", "handoff"], 2: ["planning", "escalation"],
}


def yaml_str(s):
    if re.match(r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$", s) and not re.match(r"^(yes|no|true|false|null|on|off)$", s, re.I):
        return s
    return json.dumps(s)


def tags_for(c):
    stop = {"the", "a", "an", "of", "for", "to", "on", "in", "and", "or", "not", "no", "with", "by", "at", "from", "before", "after", "is", "as", "every", "first", "again"}
    words = [w for w in re.sub(r"[^a-z0-9 ]", " ", c["title"].lower()).split() if w not in stop and len(w) > 2]
    return words[:3]


def frontmatter(ctx):
    c, tk, a, rng = ctx["core"], ctx["task"], ctx["agent"], ctx["rng"]
    v = rng.randint(0, 20)
    skills = ctx["dept"]["types"][tk["type"]].get("skills") or [tk["type"].split("-")[0] + "-review"]
    fm = ["---", f"task_type: {tk['type']}", f"outcome: {tk['outcome']}"]
    if "conf" in tk:
        fm.append(f"confidence_at_start: {tk['conf']}")
    fm.append(f"model_used: {a['model']}")
    if v % 6 == 0:
        fm.append(f"salience_score: {round(0.4 + rng.random() * 0.5, 2)}")
    fm.append(f"department: {ctx['slug']}")
    fm.append(f"agent: {a['name']}")
    sk = skills[: 1 + v % max(1, len(skills))]
    if v % 2:
        fm.append("related_skills: [" + ", ".join(sk) + "]")
    else:
        fm.append("related_skills:")
        fm += [f"  - {s}" for s in sk]
    tg = tags_for(c) + [tk["outcome"]]
    fm.append("tags: [" + ", ".join(yaml_str(t) for t in tg) + "]")
    fm.append("---")
    if tk["outcome"] == "success":
        hap = f"{happened(ctx, v)} {c['wrong']}"
    else:
        hap = f"{happened(ctx, v)} {c['wrong']}" if v % 3 else f"{c['wrong']} {happened(ctx, v + 1)}"
    r = rule(c, v + a["style"])
    body = ["## What happened?", hap, "", "## Why?", c["cause"], "", "## What rule should I remember?", r]
    return "\n".join(fm + body) + "\n"


CATEGORIES = ["wrong_assumption", "missing_check", "stale_data", "sequencing", "tool_misuse", "edge_case_miss", "communication_gap"]


def episodic(ctx):
    c, tk, a, rng = ctx["core"], ctx["task"], ctx["agent"], ctx["rng"]
    v = rng.randint(0, 20)
    passed = tk["outcome"] == "success"
    t, act = nodot(c["trig"]), nodot(c["act"])
    if passed:
        text = [f"{happened(ctx, v)} {c['wrong']} {c['cause']} I will keep doing this: when {t}, {act}.",
                f"This attempt at {low(c['summary'])} passed. {c['wrong']} It worked because {low(c['cause'])}"][v % 2]
    else:
        text = [f"In my previous attempt at {low(c['summary'])}, the evaluation failed. {c['wrong']} {c['cause']} In my next attempt, when {t}, I will {act}.",
                f"{happened(ctx, v)} {c['wrong']} Root of it: {low(c['cause'])} Next time {t}, I will {act}."][v % 2]
    n_actions = rng.randint(3, 7)
    obj = {
        "iteration": ctx["iteration"],
        "timestamp": ctx["created"].strftime("%Y-%m-%dT%H:%M:%SZ"),
        "agent": a["name"],
        "department": ctx["slug"],
        "task_type": tk["type"],
        "task_description": f"{c['summary']} ({dayphrase(tk['day'])})",
        "self_reflection": {
            "reflection_text": text,
            "credit_assignment": {
                "failing_action_indices": [] if passed else sorted(rng.sample(range(n_actions), rng.randint(1, 2))),
                "root_cause": "none; the run passed" if passed else nodot(c["cause"]),
                "failure_category": "none" if passed else CATEGORIES[(v + len(c["title"])) % len(CATEGORIES)],
            },
            "causal_reasoning": c["cause"],
            "actionable_insights": [f"{cap(act)}.", f"Check early whether {t}."] if v % 2 else [f"{cap(act)} when {t}."],
            "lessons_learned": [rule(c, v + 2)],
            "confidence": round(0.55 + rng.random() * 0.35, 2),
            "related_reflections": [],
        },
        "evaluator_output": {
            "passed": passed,
            "reward_signal": 1.0 if passed else round(rng.choice([0.0, 0.2, 0.25, 0.4, 0.5]), 2),
            "errors": [] if passed else [{"type": tk.get("failure_mode", "task-failed"), "message": nodot(c["wrong"])[:160]}],
        },
    }
    indent = 2 if a["style"] % 2 == 0 else 4
    return json.dumps(obj, indent=indent, ensure_ascii=False) + "\n"


def heuristic(ctx):
    c, tk, a, rng = ctx["core"], ctx["task"], ctx["agent"], ctx["rng"]
    v = rng.randint(0, 20)
    t, act = nodot(c["trig"]), nodot(c["act"])
    trig = [f"When {t}.", f"When {t}", f"Whenever {t}."][v % 3]
    obj = {
        "scenario_id": ctx["sid"],
        "agent": a["name"],
        "department": ctx["slug"],
        "task_type": tk["type"],
        "created_at": ctx["created"].strftime("%Y-%m-%dT%H:%M:%SZ"),
        "task": f"{c['summary']} on {dayphrase(tk['day'])}.",
        "reward": "success" if tk["outcome"] == "success" else "failure",
        "analysis": f"{c['wrong']} {c['cause']}" if v % 2 else f"{c['cause']} {c['wrong']}",
        "guideline": {"trigger": trig, "action": f"{cap(act)}."},
    }
    return json.dumps(obj, ensure_ascii=False)
