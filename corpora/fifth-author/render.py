"""Rendering of lesson cores into the four reflection formats, in several voices."""
import json
import re

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def uc(s):
    return s[:1].upper() + s[1:] if s else s


def lc(s):
    if not s:
        return s
    if len(s) > 1 and s[1].isupper():
        return s
    if s.startswith("I ") or s.startswith("I'"):
        return s
    return s[:1].lower() + s[1:]


def pre(prefix, text):
    """Prefix a sentence; lower-case its first letter only when there is a prefix."""
    return prefix + lc(text) if prefix else text


def nodot(s):
    return s.rstrip().rstrip(".")


def dayphrase(d):
    # d: 'YYYY-MM-DD'
    return f"{int(d[8:10])} {MONTHS[int(d[5:7]) - 1]}"


def parse_core(s):
    parts = [p.strip() for p in s.split(" | ")]
    assert len(parts) == 6, s
    keys = ["title", "situation", "mistake", "cause", "trigger", "action"]
    return dict(zip(keys, parts))


def slug_words(title, maxw=5):
    words = [w for w in re.split(r"[^a-z0-9]+", title.lower()) if w]
    return words[:maxw]


def rule_sentence(core, rng, styles=(0, 1, 2, 3)):
    st = rng.choice(styles)
    t, a = nodot(core["trigger"]), nodot(core["action"])
    if st == 0:
        return f"When {t}, {a}."
    if st == 1:
        return f"If {t}, {a}."
    if st == 2:
        return f"Whenever {t}: {a}."
    return f"{uc(a)} when {t}."


def steps_from_action(action):
    parts = re.split(r",? and then |, then |; |, and |,\s(?=[a-z]+ )", nodot(action))
    parts = [uc(p.strip()) for p in parts if p.strip()]
    return parts


NARR_OPEN = ["On {day} I was on this: ", "This was on {day}. ", "", "Task from {day}. ", "{day}: "]
NARR_CLOSE = ["", "", "It felt routine at the time, which is exactly why it slipped.",
              "I only noticed when the reviewer asked about it.",
              "Nothing about it looked unusual until afterwards.",
              "The fix itself was quick; finding the problem was not."]
CAS_OPEN = ["Quick one from {day}. ", "", "So, {day}. ", "Noting this from {day}: "]
CAS_CLOSE = ["", "Annoying, but easy to avoid next time.", "Lesson learned the slow way.", "",
             "Cost me a fair bit of rework."]


def task_line(core):
    return uc(nodot(core["trigger"])) + "."


def story(core, voice, day, rng, outcome):
    sit = core["situation"] if outcome != "success" else task_line(core)
    if voice == "narrator":
        s = rng.choice(NARR_OPEN).format(day=day) + sit
        if outcome != "success":
            c = rng.choice(NARR_CLOSE)
            if c:
                s += " " + c
        return s
    if voice == "casual":
        s = rng.choice(CAS_OPEN).format(day=day) + sit
        if outcome != "success":
            c = rng.choice(CAS_CLOSE)
            if c:
                s += " " + c
        return s
    if voice == "formal":
        return f"Task ({day}). {sit} Outcome: {outcome}."
    if voice == "terse":
        return f"- {nodot(sit)} ({day})\n- outcome: {outcome}"
    # checklist
    return f"- Date: {day}\n- Task: {nodot(sit)}\n- Result: {outcome}"


def wrong(core, voice, rng):
    m = core["mistake"]
    if voice == "terse":
        return f"- {nodot(m)}"
    if voice == "checklist":
        return f"- {nodot(m)}."
    if voice == "formal":
        return rng.choice(["", "Error: "]) + m
    if voice == "casual":
        return pre(rng.choice(["", "Honestly, ", "Basically, "]), m)
    return m


def why(core, voice, rng):
    c = core["cause"]
    if voice == "terse":
        return f"- {nodot(c)}"
    if voice == "checklist":
        return f"- {nodot(c)}."
    if voice == "formal":
        return "Root cause: " + lc(c)
    if voice == "casual":
        return pre(rng.choice(["Thing is, ", "", "Turns out ", ""]), c)
    return pre(rng.choice(["Looking back, ", "", "In hindsight, ", ""]), c)


def differently(core, voice, rng):
    if voice == "terse":
        return "- " + nodot(rule_sentence(core, rng, (0, 1, 3)))
    if voice == "checklist":
        steps = steps_from_action(core["action"])
        out = [f"When {nodot(core['trigger'])}:"]
        out += [f"{i}. {s}." for i, s in enumerate(steps, 1)]
        return "\n".join(out)
    if voice == "formal":
        return "Corrective action: " + rule_sentence(core, rng, (0, 1))
    if voice == "casual":
        return rng.choice(["Note to self: ", "Next time: ", ""]) + rule_sentence(core, rng)
    return pre(rng.choice(["Next time, ", "From now on, "]), rule_sentence(core, rng, (0, 1, 2))) \
        if rng.random() < 0.5 else rule_sentence(core, rng)


# ------------------------------------------------------------------ format A
def render_A(agent, voice, date, core, outcome, rng):
    """Return (filename_words, text, kind)."""
    day = dayphrase(date)
    title = core["title"]
    lines = []
    numbered = voice == "formal"

    def h(n, name):
        return f"## {n}. {name}" if numbered else f"## {name}"

    if outcome == "failure":
        kind = "failure"
        lines.append(f"# Reflection: {date} - {agent} - {title}")
        lines.append("")
        four = voice in ("terse", "casual") and rng.random() < 0.5
        secs = [("What happened?", story(core, voice, day, rng, outcome)),
                ("What went wrong?", wrong(core, voice, rng))]
        if not four:
            secs.append(("Why did it go wrong?", why(core, voice, rng)))
        else:
            secs[1] = ("What went wrong?", wrong(core, voice, rng) + ("\n" if voice in ("terse",) else " ") + why(core, voice, rng))
        secs.append(("What should I do differently?", differently(core, voice, rng)))
        secs.append(("Tactical rule candidate", f"IF {nodot(core['trigger'])}, THEN {nodot(core['action'])}."))
        for i, (n, body) in enumerate(secs, 1):
            lines += [h(i, n), body, ""]
        if voice == "narrator" and rng.random() < 0.35:
            lines += ["## Principle", "I should follow this rule: " + lc(rule_sentence(core, rng, (0, 1))), ""]
    elif outcome == "partial":
        kind = "partial"
        lines.append(f"# Reflection: {date} - {agent} - {title}")
        lines.append("")
        w = wrong(core, voice, rng)
        if rng.random() < 0.6:
            w += ("\n" if voice in ("terse", "checklist") else " ") + why(core, voice, rng)
        secs = [("What happened?", story(core, voice, day, rng, outcome)),
                ("What went wrong?", w),
                ("What should I do differently?", differently(core, voice, rng))]
        for i, (n, body) in enumerate(secs, 1):
            lines += [h(i, n), body, ""]
    else:
        if rng.random() < (0.35 if voice in ("formal", "narrator") else 0.15):
            kind = "decision"
            lines.append(f"# Decision: {date} - {agent} - {title}")
            lines.append("")
            secs = [("What was the decision?", rng.choice([
                        f"When {nodot(core['trigger'])}, {nodot(core['action'])}. I took this route on {day}.",
                        f"On {day} I decided to {nodot(core['action'])}. The situation: {nodot(core['trigger'])}."])),
                    ("What alternatives existed?", rng.choice([
                        "Doing it the usual way, which had gone wrong before: " + lc(core["mistake"]),
                        "Keeping the old habit. Last time that meant: " + lc(core["mistake"])])),
                    ("Why was this option chosen?", core["cause"])]
        else:
            kind = "procedure"
            lines.append(f"# Procedure: {date} - {agent} - {title}")
            lines.append("")
            strat = rng.choice([f"Task on {day}: {lc(nodot(core['trigger']))}. ", ""]) + rule_sentence(core, rng, (0, 1, 3))
            if voice == "terse":
                strat = f"- {nodot(core['trigger'])} ({day})\n- " + nodot(rule_sentence(core, rng, (0, 1)))
            secs = [("Strategy", strat), ("Why it worked", core["cause"])]
        for i, (n, body) in enumerate(secs, 1):
            lines += [h(i, n), body, ""]
        if kind == "procedure" and voice == "checklist":
            steps = steps_from_action(core["action"])
            lines += ["## Procedure"] + [f"{i}. {s}." for i, s in enumerate(steps, 1)] + [""]
    text = "\n".join(lines).rstrip() + "\n"
    return slug_words(title), text, kind


# ------------------------------------------------------------------ format B
def yaml_str(s):
    if re.match(r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$", s) and s.lower() not in ("yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"):
        return s
    return json.dumps(s)


def render_B(agent, voice, dept, date, core, outcome, conf, model, skills, rng, salience=None):
    day = dayphrase(date)
    fm = ["---", f"task_type: {yaml_str(core['_task_type'])}", f"outcome: {outcome}"]
    if conf is not None:
        fm.append(f"confidence_at_start: {conf}")
    fm.append(f"model_used: {model}")
    if salience is not None:
        fm.append(f"salience_score: {salience}")
    fm.append(f"department: {dept}")
    fm.append(f"agent: {agent}")
    fm.append("related_skills: [" + ", ".join(yaml_str(x) for x in skills) + "]")
    stop = {"a", "an", "the", "on", "no", "of", "to", "in", "for", "with", "and", "is", "not", "by", "at", "off", "before", "after", "first", "again", "it"}
    tags = [w for w in slug_words(core["title"], 8) if w not in stop][:3]
    fm.append("tags: [" + ", ".join(yaml_str(x) for x in tags) + "]")
    fm.append("---")
    happened = story(core, voice, day, rng, outcome)
    if outcome != "success":
        happened += ("\n" if voice in ("terse", "checklist") else " ") + wrong(core, voice, rng)
    body = ["## What happened?", happened, "", "## Why?", why(core, voice, rng) if voice not in ("terse", "checklist") else nodot(core["cause"]) + ".", "",
            "## What rule should I remember?", rule_sentence(core, rng, (0, 1, 3) if voice != "formal" else (0, 1))]
    if voice == "checklist" and rng.random() < 0.6:
        steps = steps_from_action(core["action"])
        if len(steps) > 1:
            body += [""] + [f"{i}. {s}." for i, s in enumerate(steps, 1)]
    return "\n".join(fm + body).rstrip() + "\n"


# ------------------------------------------------------------------ format C
def render_C(agent, voice, dept, ts, iteration, core, outcome, conf, failure_mode, rng):
    passed = outcome == "success"
    if passed:
        txt = rng.choice([
            "This attempt passed. {sit} What made the difference: {cause_lc} I will keep doing it: {rule}",
            "Passed on this iteration. {sit} {cause} Keep: {rule}",
        ])
    else:
        txt = rng.choice([
            "In my previous attempt, {mis_lc} {cause} In my next attempt: {rule}",
            "The attempt did not pass. {sit} {mis} {cause} Going forward, {rule_lc}",
            "{sit} {mis} The underlying reason: {cause_lc} Next iteration: {rule}",
        ])
    rule = rule_sentence(core, rng, (0, 1))
    txt = txt.format(sit=core["situation"] if not passed else task_line(core), mis=core["mistake"], mis_lc=lc(core["mistake"]),
                     cause=core["cause"], cause_lc=lc(core["cause"]), rule=rule, rule_lc=lc(rule))
    obj = {
        "iteration": iteration,
        "timestamp": ts,
        "agent": agent,
        "department": dept,
        "task_type": core["_task_type"],
        "task_description": nodot(core["situation"] if not passed else task_line(core)),
        "self_reflection": {
            "reflection_text": txt,
            "credit_assignment": {
                "failing_action_indices": [] if passed else sorted(rng.sample(range(1, 7), rng.choice([1, 1, 2]))),
                "root_cause": "none" if passed else nodot(core["cause"]),
                "failure_category": "none" if passed else failure_mode,
            },
            "causal_reasoning": core["cause"],
            "actionable_insights": [uc(nodot(core["action"])) + "."],
            "lessons_learned": [rule],
            "confidence": conf if conf is not None else round(rng.uniform(0.55, 0.85), 2),
            "related_reflections": [],
        },
        "evaluator_output": {
            "passed": passed,
            "reward_signal": 1.0 if passed else (0.5 if outcome == "partial" else round(rng.uniform(0.0, 0.3), 2)),
            "errors": [] if passed else [{"type": failure_mode, "message": nodot(core["mistake"])}],
        },
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ format D
def render_D(agent, voice, dept, date, scenario_id, core, outcome, rng):
    reward = "success" if outcome == "success" else "failure"
    if reward == "success":
        analysis = core["cause"] + " " + rng.choice(["That is why it went smoothly.", "It held up this time.", ""])
    else:
        analysis = core["mistake"] + " " + core["cause"]
    obj = {
        "scenario_id": scenario_id,
        "agent": agent,
        "department": dept,
        "task_type": core["_task_type"],
        "created_at": date,
        "task": f"{nodot(core['situation'] if reward == 'failure' else task_line(core))} (on {dayphrase(date)})",
        "reward": reward,
        "analysis": analysis.strip(),
        "guideline": {"trigger": f"When {nodot(core['trigger'])}.", "action": uc(nodot(core["action"])) + "."},
    }
    return json.dumps(obj, ensure_ascii=False)
