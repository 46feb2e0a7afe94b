#!/usr/bin/env python3
"""corpus3: an independent Reflexion workspace with known truth for the review signals.

Standard library only, deterministic for a given --seed.

    python3 generate.py --seed 1 --out /work/corpus3/seed-1

writes <out>/workspace/ (memory/reflections, memory/reflexions, .aiwg/ralph/reflections,
heuristics/*.jsonl, logs/tasks.jsonl, logs/retrievals.jsonl) and <out>/truth.json.
The lesson texts live in dept_finance.py, dept_care.py and dept_procurement.py.
"""
import argparse
import datetime as dt
import json
import math
import os
import random
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dept_finance  # noqa: E402
import dept_care  # noqa: E402
import dept_procurement  # noqa: E402

START = dt.date(2026, 4, 1)
END = dt.date(2026, 10, 1)           # exclusive
NDAYS = (END - START).days           # 183
WIN_START = dt.datetime(2026, 7, 3)
WIN_END = dt.datetime(2026, 10, 1)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def D(s):
    return dt.date.fromisoformat(s)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def cap(s):
    return s[:1].upper() + s[1:]


def day_words(d):
    return f"{d.day} {MONTHS[d.month - 1]}"


# ----------------------------------------------------------------------------------------
# sentence shapes
# ----------------------------------------------------------------------------------------

def fp(act):
    """the action as it reads after 'I will' / 'I should'."""
    if act.startswith("do not "):
        return "not " + act[7:]
    if act.startswith("don't "):
        return "not " + act[6:]
    return act


RULE_SHAPES = [
    lambda c, a: f"When {c}, {a}.",
    lambda c, a: f"If {c}, {a}.",
    lambda c, a: f"{cap(a)} whenever {c}.",
    lambda c, a: f"Whenever {c}, I should {fp(a)}.",
    lambda c, a: f"{cap(a)} if {c}.",
    lambda c, a: f"As soon as {c}, {a}.",
    lambda c, a: f"In cases where {c}: {a}.",
    lambda c, a: f"Rule for myself: if {c}, {a}.",
    lambda c, a: f"{cap(a)} - that applies every time {c}.",
]
RULE_SHAPES_G = [
    lambda c, a: f"When {c}, {a}.",
    lambda c, a: f"{cap(a)} when {c}.",
    lambda c, a: f"While {c}: {a}.",
    lambda c, a: f"Rule for myself: when {c}, {a}.",
    lambda c, a: f"Whenever I am {c}, I should {fp(a)}.",
]
FIRST_PERSON = [
    lambda c, a: f"Next time {c}, I will {fp(a)}.",
    lambda c, a: f"I should {fp(a)} as soon as {c}.",
    lambda c, a: f"When {c} again, my first move is to {fp(a)}.",
    lambda c, a: f"I need to {fp(a)} whenever {c}.",
    lambda c, a: f"Going forward: when {c}, I {fp(a)}.",
    lambda c, a: f"If {c}, I am going to {fp(a)} rather than improvise.",
]
FIRST_PERSON_G = [
    lambda c, a: f"Next time I am {c}, I will {fp(a)}.",
    lambda c, a: f"When I am {c}, I should {fp(a)}.",
    lambda c, a: f"I need to {fp(a)} whenever I am {c}.",
    lambda c, a: f"Going forward, when {c}, I {fp(a)}.",
]
NOT_GERUND = {"nothing", "something", "anything", "everything", "thing", "pricing", "billing",
              "shipping", "spring", "during", "morning", "evening", "king", "ring", "string",
              "ceiling", "outstanding"}


def gerund(c):
    w = c.split()[0].lower()
    return w.endswith("ing") and w not in NOT_GERUND


def rule(c, a, rng, allow_if=True):
    shapes = RULE_SHAPES_G if gerund(c) else RULE_SHAPES
    if allow_if and rng.random() < 0.12:
        return ifthen(c, a)
    return rng.choice(shapes)(c, a)


def firstp(c, a, rng):
    return rng.choice(FIRST_PERSON_G if gerund(c) else FIRST_PERSON)(c, a)


def ifthen(c, a):
    if gerund(c):
        return f"IF I am {c} THEN {a}"
    return f"IF {c} THEN {a}"


def lower_first(s):
    if s.startswith("I ") or s.startswith("I'"):
        return s
    return s[:1].lower() + s[1:]


# ----------------------------------------------------------------------------------------
# world
# ----------------------------------------------------------------------------------------

class Task:
    __slots__ = ("id", "agent", "dept", "tt", "start", "finish", "outcome", "mode", "conf",
                 "tools", "inj", "pinned", "fed_echo", "idx")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


class Refl:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def gen_tasks(dep, rng):
    tasks = []
    for agent, a in dep["agents"].items():
        rate = a["n"] / (NDAYS * (5 + 2 * 0.35) / 7)
        types = list(a["types"].items())
        for di in range(NDAYS):
            day = START + dt.timedelta(days=di)
            r = rate * (0.35 if day.weekday() >= 5 else 1.0)
            # Poisson draw
            k, p, L = 0, 1.0, math.exp(-r)
            while True:
                p *= rng.random()
                if p <= L:
                    break
                k += 1
            for _ in range(k):
                x, tt = rng.random(), types[-1][0]
                for name, w in types:
                    if x < w:
                        tt = name
                        break
                    x -= w
                fin = dt.datetime.combine(day, dt.time(7, 30)) + dt.timedelta(
                    minutes=rng.randint(0, 12 * 60))
                start = fin - dt.timedelta(minutes=rng.randint(6, 55), seconds=rng.randint(0, 59))
                tasks.append(Task(agent=agent, dept=dep["slug"], tt=tt, start=start, finish=fin,
                                  inj=[], pinned=False, fed_echo=None))
    tasks.sort(key=lambda t: (t.finish, t.agent))
    seq = {}
    for i, t in enumerate(tasks):
        d = t.finish.date()
        seq[d] = seq.get(d, 0) + 1
        t.id = f"{dep['prefix']}-{d.strftime('%Y%m%d')}-{seq[d]:04d}"
        t.idx = i
    return tasks


def tools_for(dep, t, rng):
    ty = dep["types"][t.tt]
    tools = [x for x in ty["tools"] if rng.random() < 0.75]
    if not tools:
        tools = [ty["tools"][0]]
    d = t.finish.date()
    for r in dep["retired"]:
        if t.tt not in r["types"]:
            continue
        cut = D(r["cut"])
        if d < cut - dt.timedelta(days=14):
            if rng.random() < 0.88:
                tools.append(r["tool"])
        elif d < cut:
            if rng.random() < 0.8:
                tools.append(r["tool"])
            if rng.random() < 0.25:
                tools.append(r["succ"])
        else:
            if rng.random() < 0.9:
                tools.append(r["succ"])
    if rng.random() < 0.08:
        tools.append(rng.choice(dep["generic"]))
    out = []
    for x in tools:
        if x not in out:
            out.append(x)
    return out


def base_p(di):
    return 0.66 + 0.16 * di / (NDAYS - 1)


# ----------------------------------------------------------------------------------------
# rendering
# ----------------------------------------------------------------------------------------

def slug_words(text, n):
    stop = {"the", "a", "an", "to", "of", "on", "in", "for", "and", "or", "is", "it", "i",
            "when", "if", "with", "by", "at", "as", "be", "that", "this", "its", "my", "from",
            "before", "after", "than", "not", "do", "every", "any", "one", "was", "are"}
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in stop and not w.isdigit()]
    return "-".join(words[:n]) or "note"


def heading(rng_h, name, style):
    if style == 0:
        return f"## {name}"
    if style == 1:
        return f"## {name.lower().rstrip('?')}"
    if style == 2:
        return f"## **{name}**"
    return f"## {style - 2}. {name.rstrip('?')}"


def render_A(R, rng):
    L = R.lesson
    c, a = L["cond"], L["act"]
    style = 0 if rng.random() < 0.72 else rng.choice([1, 2, 3])
    sep = rng.random() < 0.12
    date = R.created.date().isoformat()
    summary = R.summary
    parts = []
    kind = R.kind
    if kind == "decision":
        parts.append(f"# Decision: {date} - {R.agent} - {summary}")
        secs = [("What was the decision?", L.get("decision") or cap(f"{fp(a)} when {c}.")),
                ("What alternatives existed?", L["alt"]),
                ("Why was this option chosen?", L["why"])]
    elif kind == "success":
        parts.append(f"# Procedure: {date} - {R.agent} - {summary}")
        strat = L["hap"]
        if rng.random() < 0.6:
            opts = [f"What I did on purpose: when {c}, I made sure to {fp(a)}.",
                    f"The habit behind it: {rule(c, a, rng, False)}"]
            if not gerund(c):
                opts.append(f"Main step - {fp(a)}, because {c}.")
            strat += " " + rng.choice(opts)
        secs = [("Strategy", strat), ("Why it worked", L["why"])]
    else:
        parts.append(f"# Reflection: {date} - {R.agent} - {summary}")
        hap = L["hap"]
        if rng.random() < 0.4:
            hap = f"Task: {R.task_desc}. " + hap
        wrong = L.get("wrong") or "The result was not accepted as it stood."
        diff = firstp(c, a, rng)
        if kind == "partial":
            secs = [("What happened?", hap), ("What went wrong?", wrong),
                    ("What should I do differently?", diff)]
        elif R.variant == 4:
            secs = [("What happened?", hap), ("What went wrong?", wrong + " " + L["why"]),
                    ("What should I do differently?", diff),
                    ("Tactical rule candidate", ifthen(c, a))]
        else:
            secs = [("What happened?", hap), ("What went wrong?", wrong),
                    ("Why did it go wrong?", L["why"]),
                    ("What should I do differently?", diff),
                    ("Tactical rule candidate", rule(c, a, rng))]
    if R.principle:
        secs.append(("Principle", f"I should follow this rule: {lower_first(rule(c, a, rng, False))}"))
    out = [parts[0], ""]
    if sep:
        out += ["---", ""]
    for i, (h, body) in enumerate(secs):
        if h == "Principle":
            out.append(f"## {h}")
        elif style == 3:
            out.append(f"## {i + 1}. {h.rstrip('?')}")
        else:
            out.append(heading(rng, h, style))
        out.append(body)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def yaml_str(s):
    if re.fullmatch(r"[a-z0-9][a-z0-9 ._-]*", s) and s not in ("yes", "no", "true", "false", "null", "on", "off"):
        return s
    return json.dumps(s)


def render_B(R, rng):
    L = R.lesson
    c, a = L["cond"], L["act"]
    fm = ["---", f"task_type: {R.tt}", f"outcome: {R.outcome}"]
    if R.conf is not None:
        fm.append(f"confidence_at_start: {R.conf}")
    fm.append(f"model_used: {R.model}")
    if R.salience is not None:
        fm.append(f"salience_score: {R.salience}")
    fm.append(f"department: {R.dept}")
    fm.append(f"agent: {R.agent}")
    fm.append("related_skills: [" + ", ".join(yaml_str(x) for x in R.skills) + "]")
    fm.append("tags: [" + ", ".join(yaml_str(x) for x in R.tags) + "]")
    fm.append("---")
    hap = L["hap"]
    if R.outcome != "success":
        hap += " " + (L.get("wrong") or "")
    if rng.random() < 0.3:
        hap = f"{R.task_desc}. " + hap
    why = L["why"]
    rl = rule(c, a, rng) if rng.random() < 0.75 else firstp(c, a, rng)
    if rng.random() < 0.2:
        rl += " " + rng.choice(["It costs a minute and saves a rework.",
                                  "This is cheap compared with redoing the step.",
                                  "No exceptions for rushed days."])
    body = ["## What happened?", hap.strip(), "", "## Why?", why, "",
            "## What rule should I remember?", rl, ""]
    return "\n".join(fm) + "\n" + "\n".join(body)


FAIL_CATS = ["wrong_assumption", "missed_check", "stale_data", "scope_error", "ordering_error",
             "tool_misuse"]


def render_C(R, rng):
    L = R.lesson
    c, a = L["cond"], L["act"]
    passed = R.outcome == "success"
    if passed:
        text = (f"This attempt passed. {L['hap']} {L['why']} "
                f"{firstp(c, a, rng)}")
        credit = {"failing_action_indices": [],
                  "root_cause": "none; the evaluator accepted the result",
                  "failure_category": "none"}
        ev = {"passed": True, "verification_type": R.verif, "reward_signal": 1.0, "errors": []}
    else:
        text = (f"{rng.choice(['In my previous attempt', 'Last attempt', 'In this attempt'])}, "
                f"{L['hap'][0].lower() + L['hap'][1:]} {L.get('wrong') or ''} "
                f"{firstp(c, a, rng)}").replace("  ", " ")
        credit = {"failing_action_indices": sorted(rng.sample(range(1, 7), rng.randint(1, 2))),
                  "root_cause": L["why"].split(". ")[0].rstrip("."),
                  "failure_category": R.fail_cat}
        ev = {"passed": False, "verification_type": R.verif,
              "reward_signal": round(rng.uniform(0.0, 0.6), 2),
              "errors": [{"type": "CheckFailed", "message": R.errmsg}]}
    insights = [rule(c, a, rng)]
    if rng.random() < 0.5:
        insights.append(cap(fp(a)) + ".")
    lessons = [firstp(c, a, rng)] if rng.random() < 0.6 else [cap(a) + "."]
    obj = {
        "iteration": R.iteration,
        "timestamp": iso(R.created),
        "agent": R.agent,
        "department": R.dept,
        "task_type": R.tt,
        "task_description": R.task_desc,
        "self_reflection": {
            "reflection_text": text,
            "credit_assignment": credit,
            "causal_reasoning": L["why"],
            "actionable_insights": insights,
            "lessons_learned": lessons,
            "confidence": R.self_conf,
            "related_reflections": [],
        },
        "evaluator_output": ev,
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def render_D(R, rng):
    L = R.lesson
    c, a = L["cond"], L["act"]
    analysis = L["hap"]
    if R.outcome != "success" and L.get("wrong"):
        analysis += " " + L["wrong"]
    analysis += " " + L["why"]
    if gerund(c):
        trig = rng.choice([f"When {c}.", f"{cap(c)}.", f"While {c}."])
    else:
        trig = rng.choice([f"When {c}.", f"{cap(c)}.", f"If {c}.", f"Whenever {c}."])
    obj = {"scenario_id": R.scenario, "agent": R.agent, "department": R.dept,
           "task_type": R.tt, "created_at": iso(R.created), "task": R.task_desc + ".",
           "reward": "success" if R.outcome == "success" else "failure",
           "analysis": analysis, "guideline": {"trigger": trig, "action": cap(a) + "."}}
    return json.dumps(obj, ensure_ascii=False)


# ----------------------------------------------------------------------------------------
# department build
# ----------------------------------------------------------------------------------------

def build_dept(dep, seed):
    slug = dep["slug"]
    rng = random.Random(f"{seed}-{slug}-tasks")
    tasks = gen_tasks(dep, rng)
    for t in tasks:
        t.tools = tools_for(dep, t, rng)
    by_agent_type = {}
    for t in tasks:
        by_agent_type.setdefault((t.agent, t.tt), []).append(t)

    rng = random.Random(f"{seed}-{slug}-plan")
    refls = []
    used_tasks = set()
    used_A = set()

    def pick_task(agent, tt, target, outcome, lo=None, hi=None, need=None):
        """a task of the agent and type near target, not used as a source yet."""
        cands = [t for t in by_agent_type.get((agent, tt), []) if t.id not in used_tasks
                 and (lo is None or t.finish.date() >= lo) and (hi is None or t.finish.date() <= hi)
                 and (need is None or need(t))]
        if not cands:
            raise SystemExit(f"no task for {agent} {tt} near {target}")
        cands.sort(key=lambda t: (abs((t.finish.date() - target).days), t.idx))
        t = cands[0]
        used_tasks.add(t.id)
        t.pinned = True
        t.outcome = outcome
        return t

    def add(lesson, agent, target, role, outcome=None, fmt=None, lo=None, hi=None, need=None,
            extra=None):
        tt = lesson["tt"]
        o = lesson["o"]
        if outcome is None:
            outcome = {"f": "failure", "p": "partial", "s": "success"}[o]
        ag = dep["agents"][agent]
        if fmt is None:
            fmt = ag["main"] if rng.random() < 0.8 else ag["second"]
        if fmt in ("C", "D") and outcome == "partial":
            outcome = "failure"
        t = pick_task(agent, tt, target, outcome, lo, hi, need)
        R = Refl(lesson=lesson, agent=agent, dept=slug, tt=tt, fmt=fmt, outcome=outcome,
                 task=t, role=role, created=t.finish + dt.timedelta(minutes=rng.randint(3, 40)),
                 extra=extra or {})
        refls.append(R)
        return R

    def rdate(a, b):
        a, b = D(a), D(b)
        return a + dt.timedelta(days=rng.randint(0, (b - a).days))

    planted = {"echo": [], "follower": [], "outdated": [], "dup": [], "hn": []}

    # --- echo chambers ---
    chambers = []
    for ch in dep["echo"]:
        seed_R = add(ch["seed"], ch["author"], D(ch["seed_date"]), "echo_seed", outcome="failure",
                     fmt=ch.get("seed_fmt"))
        chambers.append({"spec": ch, "seed": seed_R, "followers": []})
    # --- outdated ---
    for od in dep["outdated"]:
        R = add(od["lesson"], od["author"], D(od["date"]), "outdated", fmt=od.get("fmt"),
                hi=D(next(r["cut"] for r in dep["retired"] if r["tool"] == od["tool"])) - dt.timedelta(days=3),
                extra={"tool": od["tool"], "spelled": od["spelled"]})
    # --- duplicates ---
    for g in dep["dups"]:
        for m in g["members"]:
            add(m["lesson"], m["author"], D(m["date"]), "dup", fmt=m.get("fmt"),
                extra={"gid": g["gid"]})
    # --- hard negatives ---
    for kind, items in dep["hard_negatives"].items():
        for h in items:
            lo = D(h["lo"]) if h.get("lo") else None
            add(h["lesson"], h["author"], D(h["date"]), "hn", fmt=h.get("fmt"), lo=lo,
                extra={"kind": kind, "note": h.get("note", "")})
    # --- background ---
    echo_zone = {(ch["author"], ch["seed"]["tt"]): D(ch["seed_date"]) for ch in dep["echo"]}
    type_agents = {}
    for agent, a in dep["agents"].items():
        for tt, w in a["types"].items():
            type_agents.setdefault(tt, []).append((agent, w))
    for i, L in enumerate(dep["background"]):
        tt = L["tt"]
        cands = sorted(type_agents[tt], key=lambda x: -x[1])
        if rng.random() < 0.72 or len(cands) == 1:
            agent = cands[0][0]
        else:
            agent = rng.choice(cands[1:])[0]
        # dates: spread over the half-year, leaning early so lessons can be retrieved
        x = rng.random() ** 1.25
        target = START + dt.timedelta(days=2 + int(x * (NDAYS - 8)))
        zone = echo_zone.get((agent, tt))
        if zone is not None and target >= zone - dt.timedelta(days=3) and len(cands) > 1:
            agent = rng.choice([a for a, _ in cands if a != agent])
            zone = echo_zone.get((agent, tt))
        need = None
        if zone is not None:
            need = (lambda z: (lambda t: t.finish.date() < z))(zone)
            if target >= zone:
                target = zone - dt.timedelta(days=rng.randint(1, 20))
        add(L, agent, target, "bg", need=need)

    # echo followers (after background so they take tasks still free)
    # decided later, when fed tasks are known

    # ------------------------------------------------------------------------------
    # retrieval plan
    # ------------------------------------------------------------------------------
    rng = random.Random(f"{seed}-{slug}-retr")

    def day0(R):
        return R.created.date()

    # pre-pass: echo fed decisions and follower sources
    forced = {}
    for chi, C in enumerate(chambers):
        ch = C["spec"]
        strong = ch["strength"] == "strong"
        sd = day0(C["seed"])
        mine = [t for t in by_agent_type[(ch["author"], C["seed"].tt)] if t.finish.date() > sd]
        p = ch["p_fed"]
        fed = {}
        for t in mine:
            if t.pinned:
                continue
            if rng.random() < p:
                fed[t.id] = t
        # followers: choose source tasks among the author's later tasks, force them fed
        n_f = len(ch["followers"])
        last = D(ch["last_follower"])
        span = (last - sd).days
        for k, F in enumerate(ch["followers"]):
            target = sd + dt.timedelta(days=int(span * (k + 1) / n_f))
            outcome = F.get("outcome", "failure")
            fmt = F.get("fmt")
            cands = [t for t in mine if not t.pinned and t.finish.date() <= last
                     and t.finish.date() > sd + dt.timedelta(days=6)]
            cands.sort(key=lambda t: (abs((t.finish.date() - target).days), t.idx))
            t = cands[0]
            used_tasks.add(t.id)
            t.pinned = True
            t.outcome = outcome
            fed[t.id] = t
            ag = dep["agents"][ch["author"]]
            if fmt is None:
                fmt = ag["main"]
            R = Refl(lesson=F["lesson"], agent=ch["author"], dept=slug, tt=F["lesson"]["tt"],
                     fmt=fmt, outcome=outcome, task=t, role="echo_follower",
                     created=t.finish + dt.timedelta(minutes=rng.randint(3, 40)),
                     extra={"seed": C["seed"], "chamber": chi})
            refls.append(R)
            C["followers"].append(R)
            forced[t.id] = R
        C["fed"] = fed
        C["mine"] = mine

    for R in refls:
        R.day = R.created.date()
    refl_by_role = {}
    for R in refls:
        refl_by_role.setdefault(R.role, []).append(R)

    # members of each chamber; colleague retrieval plan
    for C in chambers:
        C["members"] = [C["seed"]] + C["followers"]
        ch = C["spec"]
        n_self = 0
        C["take"] = {}
        for tid, t in C["fed"].items():
            d = t.start.date()
            avail = [m for m in C["members"] if m.day < d]
            if tid in forced:
                # the follower's source task was handed the seed or an earlier follower
                avail = [m for m in avail if m is not forced[tid]]
            if not avail:
                continue
            k = 2 if (len(avail) > 1 and rng.random() < ch.get("p_two", 0.3)) else 1
            # prefer the seed and the newest follower
            w = [1.6 if m is C["seed"] else 1.0 + 0.5 * j for j, m in enumerate(avail)]
            chosen = []
            pool = list(zip(avail, w))
            for _ in range(k):
                tot = sum(x[1] for x in pool)
                r = rng.random() * tot
                for j, (m, ww) in enumerate(pool):
                    r -= ww
                    if r <= 0:
                        chosen.append(m)
                        pool.pop(j)
                        break
            C["take"][tid] = chosen
            n_self += len(chosen)
        s = ch["self_share"]
        n_col = round(n_self * (1 - s) / s)
        sd = C["seed"].day
        col = [t for t in tasks if t.agent != ch["author"] and t.start.date() > sd]
        same = [t for t in col if t.tt == C["seed"].tt]
        other = [t for t in col if t.tt != C["seed"].tt]
        picks = []
        for _ in range(n_col):
            src = same if (same and rng.random() < 0.65) else other
            t = src.pop(rng.randrange(len(src)))
            picks.append(t)
        for t in picks:
            avail = [m for m in C["members"] if m.day < t.start.date()]
            if avail:
                C["take"][t.id] = [rng.choice(avail)]
        C["n_self"] = n_self

    # rate items: planted lessons other than echo
    rate_items = []
    for R in refls:
        if R.role in ("bg", "echo_seed", "echo_follower"):
            continue
        if R.role == "outdated":
            tool = R.extra["tool"]
            types = next(r["types"] for r in dep["retired"] if r["tool"] == tool)
            rate_items.append((R, lambda t, R=R, types=types: 0.17 if t.tt in types else 0.0))
        elif R.role == "hn" and R.extra["kind"] == "popular_sound":
            rate_items.append((R, lambda t, R=R: 0.15))
        elif R.role == "hn" and R.extra["kind"] == "self_retrieved_good":
            rate_items.append((R, lambda t, R=R: (0.6 if (t.agent == R.agent and t.tt == R.tt)
                                                  else (0.03 if t.tt == R.tt else 0.0))))
        else:
            rate_items.append((R, lambda t, R=R: 0.14 if t.tt == R.tt else 0.012))

    bg = refl_by_role.get("bg", [])
    appeal = {id(R): rng.lognormvariate(0, 0.5) for R in bg}
    for R in bg:
        R.appeal = appeal[id(R)]

    kdist = [(0, 0.07), (1, 0.18), (2, 0.33), (3, 0.27), (4, 0.15)]
    for t in tasks:
        d = t.start.date()
        inj = []
        echo_hit = None
        for C in chambers:
            if t.id in C["take"]:
                for m in C["take"][t.id]:
                    if m not in inj:
                        inj.append(m)
                if t.agent == C["spec"]["author"] and t.tt == C["seed"].tt:
                    echo_hit = C
        t.fed_echo = echo_hit
        for R, f in rate_items:
            if R.day < d and len(inj) < 4 and rng.random() < f(t):
                inj.append(R)
        x = rng.random()
        k = 4
        for kk, w in kdist:
            if x < w:
                k = kk
                break
            x -= w
        need = k - len(inj)
        if need > 0:
            pool = [R for R in bg if R.day < d and R not in inj]
            wts = []
            for R in pool:
                w = R.appeal * (5.0 if R.tt == t.tt else 0.6)
                age = (d - R.day).days
                w *= 1.0 if age < 45 else (0.75 if age < 100 else 0.55)
                wts.append(w)
            for _ in range(min(need, len(pool))):
                tot = sum(wts)
                r = rng.random() * tot
                for j, w in enumerate(wts):
                    r -= w
                    if r <= 0:
                        inj.append(pool.pop(j))
                        wts.pop(j)
                        break
        t.inj = inj

    # ranking check and boost
    planted_R = [R for R in refls if R.role != "bg"]

    def window_counts():
        cnt, last = {}, {}
        for t in tasks:
            if WIN_START <= t.start < WIN_END:
                for R in t.inj:
                    cnt[id(R)] = cnt.get(id(R), 0) + 1
                    last[id(R)] = max(last.get(id(R), t.start), t.start)
        order = sorted(refls, key=lambda R: (-cnt.get(id(R), 0),
                                             -(last[id(R)].timestamp() if id(R) in last else 0)))
        order = [R for R in order if cnt.get(id(R), 0) > 0]
        rank = {id(R): i + 1 for i, R in enumerate(order)}
        return cnt, rank, len(order)

    boosts = 0
    for _ in range(400):
        cnt, rank, n_in = window_counts()
        worst = max(planted_R, key=lambda R: rank.get(id(R), 10 ** 6))
        if rank.get(id(worst), 10 ** 6) <= 85:
            break
        # hand it to one more window task of its type (a colleague for echo items)
        cands = [t for t in tasks if WIN_START <= t.start < WIN_END and t.start.date() > worst.day
                 and worst not in t.inj and t.tt == worst.tt and not t.pinned
                 and not (worst.role.startswith("echo") and t.agent == worst.agent)
                 and any(R.role == "bg" for R in t.inj)]
        if not cands:
            break
        t = cands[rng.randrange(len(cands))]
        j = max(i for i, R in enumerate(t.inj) if R.role == "bg")
        t.inj[j] = worst
        boosts += 1
    cnt, rank, n_in = window_counts()
    # make sure the top-100 cut is real: give a window retrieval to idle background lessons
    idle = [R for R in bg if cnt.get(id(R), 0) == 0 and R.day < dt.date(2026, 9, 26)]
    for R in idle:
        if n_in > 108:
            break
        cands = [t for t in tasks if WIN_START <= t.start < WIN_END and t.start.date() > R.day
                 and len(t.inj) < 4 and t.tt == R.tt]
        if cands:
            cands[rng.randrange(len(cands))].inj.append(R)
            cnt, rank, n_in = window_counts()

    # ------------------------------------------------------------------------------
    # outcomes
    # ------------------------------------------------------------------------------
    rng = random.Random(f"{seed}-{slug}-outcome")
    pop = [R for R in refls if R.role == "hn" and R.extra["kind"] == "popular_sound"]
    good = [R for R in refls if R.role == "hn" and R.extra["kind"] == "self_retrieved_good"]
    outd = [R for R in refls if R.role == "outdated"]
    cut_of = {r["tool"]: D(r["cut"]) for r in dep["retired"]}
    for t in tasks:
        if t.pinned:
            continue
        di = (t.finish.date() - START).days
        p = base_p(di)
        C = t.fed_echo
        for Cx in chambers:
            if t.agent == Cx["spec"]["author"] and t.tt == Cx["seed"].tt and t.start.date() > Cx["seed"].day:
                p = Cx["spec"]["p_fed_success"] if C is Cx else min(0.92, p + 0.08)
        if any(R in t.inj for R in pop):
            p = min(0.94, p + 0.15)
        if any(R in t.inj for R in good) and any(t.agent == R.agent for R in good):
            p = min(0.96, p + 0.2)
        if any(R in t.inj and t.finish.date() >= cut_of[R.extra["tool"]] for R in outd):
            p = max(0.2, p - 0.08)
        if rng.random() < p:
            t.outcome = "success"
        else:
            t.outcome = "partial" if rng.random() < 0.33 else "failure"

    def flip(fed, unfed, gap, rng, worse=True):
        """fed tasks must do worse (or better) than unfed by gap; flip unpinned outcomes."""
        def rate(ts):
            return sum(t.outcome == "success" for t in ts) / max(1, len(ts))
        for _ in range(500):
            rf, ru = rate(fed), rate(unfed)
            ok = (rf <= ru - gap) if worse else (rf >= ru + gap)
            if ok or not fed or not unfed:
                return
            if worse:
                a = [t for t in fed if not t.pinned and t.outcome == "success"]
                b = [t for t in unfed if not t.pinned and t.outcome != "success"]
                if a and (rng.random() < 0.5 or not b):
                    rng.choice(a).outcome = rng.choice(["failure", "failure", "partial"])
                elif b:
                    rng.choice(b).outcome = "success"
                else:
                    return
            else:
                a = [t for t in fed if not t.pinned and t.outcome != "success"]
                b = [t for t in unfed if not t.pinned and t.outcome == "success"]
                if a and (rng.random() < 0.5 or not b):
                    rng.choice(a).outcome = "success"
                elif b:
                    rng.choice(b).outcome = rng.choice(["failure", "partial"])
                else:
                    return

    for C in chambers:
        ch = C["spec"]
        sd = C["seed"].day
        mine = [t for t in by_agent_type[(ch["author"], C["seed"].tt)] if t.start.date() > sd]
        fed = [t for t in mine if t.fed_echo is C]
        unfed = [t for t in mine if t.fed_echo is not C]
        # every 30-day block, then overall
        d0 = sd
        while d0 < END:
            d1 = d0 + dt.timedelta(days=30)
            f = [t for t in fed if d0 <= t.start.date() < d1]
            u = [t for t in unfed if d0 <= t.start.date() < d1]
            if len(f) >= 3 and len(u) >= 3:
                flip(f, u, 0.12, rng)
            d0 = d1
        flip(fed, unfed, ch["gap"], rng)
    for R in pop:
        fed = [t for t in tasks if R in t.inj]
        unfed = [t for t in tasks if R not in t.inj and t.start.date() > R.day]
        flip(fed, unfed, 0.12, rng, worse=False)
    for R in good:
        mine = [t for t in by_agent_type[(R.agent, R.tt)] if t.start.date() > R.day]
        fed = [t for t in mine if R in t.inj]
        unfed = [t for t in mine if R not in t.inj]
        flip(fed, unfed, 0.18, rng, worse=False)

    # failure modes and confidence
    for t in tasks:
        modes = dep["types"][t.tt]["modes"]
        if t.outcome == "failure" or (t.outcome == "partial" and rng.random() < 0.5):
            if t.fed_echo is not None and t.outcome == "failure" and rng.random() < 0.7:
                t.mode = t.fed_echo["spec"]["mode"]
            else:
                t.mode = rng.choice(modes)
        if dep["agents"][t.agent]["conf"]:
            c = rng.gauss(0.6, 0.07) + (0.04 if t.outcome == "success" else 0.0)
            if t.fed_echo is not None:
                C = t.fed_echo
                nf = sum(1 for F in C["followers"] if F.day <= t.start.date())
                c += 0.09 + 0.025 * nf
            t.conf = round(min(0.97, max(0.2, c)), 2)

    # ------------------------------------------------------------------------------
    # reflection metadata, paths, texts
    # ------------------------------------------------------------------------------
    rng = random.Random(f"{seed}-{slug}-text")
    refls.sort(key=lambda R: (R.created, R.agent))
    heur_lines = []
    loop_n = {}
    for R in refls:
        t = R.task
        assert t.outcome == R.outcome or (R.outcome == "partial" and t.outcome == "partial"), (R.role, t.id)
        R.dept = slug
        R.model = dep["model"]
        ty = dep["types"][R.tt]
        R.task_desc = rng.choice(ty["desc"]) + " on " + day_words(t.finish.date())
        R.summary = R.lesson.get("summary") or rng.choice(ty["desc"])
        R.conf = t.conf
        R.salience = round(rng.uniform(0.3, 0.95), 2) if rng.random() < 0.25 else None
        sk = [x for x in ty["tools"] if rng.random() < 0.5] or [ty["tools"][0]]
        if R.role == "outdated" and rng.random() < 0.6:
            sk.append(R.extra["tool"])
        R.skills = sk[:3]
        R.tags = R.lesson.get("tags") or [R.tt] + rng.sample(ty["tags"], 2)
        R.kind = {"failure": "failure", "partial": "partial", "success": "success"}[R.outcome]
        if R.fmt == "A" and R.outcome == "success" and R.lesson.get("alt") and rng.random() < 0.6:
            R.kind = "decision"
        R.variant = 4 if rng.random() < 0.25 else 5
        R.principle = R.fmt == "A" and rng.random() < 0.2
        R.iteration = rng.choice([0, 0, 1, 1, 2])
        R.self_conf = round(rng.uniform(0.55, 0.9), 2)
        R.verif = ty.get("verif", "checklist")
        R.fail_cat = rng.choice(FAIL_CATS)
        R.errmsg = rng.choice(ty["errors"])
        d = R.created.date()
        if R.fmt == "A":
            base = slug_words(R.lesson.get("slug") or R.lesson["cond"] + " " + R.lesson["act"], rng.randint(3, 5))
            path = f"memory/reflections/{R.agent}/{d.isoformat()}-{base}.md"
            n = 2
            while path in used_A:
                path = f"memory/reflections/{R.agent}/{d.isoformat()}-{base}-{n}.md"
                n += 1
            used_A.add(path)
            R.path = path
            R.text = render_A(R, rng)
        elif R.fmt == "B":
            R.path = f"memory/reflexions/{d.strftime('%Y-%m')}/{d.day:02d}-{t.id}.md"
            R.text = render_B(R, rng)
        elif R.fmt == "C":
            loop = f"{R.agent}-{t.id.split('-')[1]}-{t.id.split('-')[2]}"
            R.path = f".aiwg/ralph/reflections/{loop}/{R.iteration + 1:03d}.json"
            R.text = render_C(R, rng)
        else:
            R.scenario = f"h-{t.id}"
            R.path = f"heuristics/{slug}.jsonl#{R.scenario}"
            R.text = render_D(R, rng)
            heur_lines.append(R.text)
    return {"dep": dep, "tasks": tasks, "refls": refls, "chambers": chambers,
            "heur": heur_lines, "rank": window_counts(), "boosts": boosts}


# ----------------------------------------------------------------------------------------
# checks
# ----------------------------------------------------------------------------------------

BAD = [r"@", r"\bkey\b", r"password", r"secret", r"token", r"https?://", r"\b\d{6,}\b",
       r"\.(internal|corp|local|lan)\b", r"ignore previous"]


def check_texts(res):
    dep = res["dep"]
    retired = []
    for r in dep["retired"]:
        tool = r["tool"]
        pats = {tool, tool.replace("-", " "), tool.replace("-", "")}
        retired.append((tool, [p.lower() for p in pats], r["succ"]))
    for R in res["refls"]:
        low = R.text.lower()
        scrub = re.sub(r"[a-z]+-\d{8}-\d{4}", "", re.sub(r"\d{4}-\d{2}-\d{2}t[\d:]+z", "", low))
        for b in BAD:
            if re.search(b, scrub):
                raise SystemExit(f"unsafe-looking text {b!r} in {R.path}")
        for tool, pats, succ in retired:
            hit = any(p in low for p in pats)
            if hit and R.role not in ("outdated",) and not (R.role == "hn" and R.extra["kind"] == "retired_tool_named_as_history"):
                raise SystemExit(f"{R.path} ({R.role}) names retired tool {tool}")
            if R.role == "outdated" and R.extra["tool"] == tool and not hit:
                raise SystemExit(f"{R.path} does not name {tool}")
            if succ.lower() in low and R.role == "bg":
                raise SystemExit(f"{R.path} (bg) names successor {succ}")


def stats(res):
    tasks = res["tasks"]
    out = {}
    for C in res["chambers"]:
        ch = C["spec"]
        sd = C["seed"].day
        mine = [t for t in tasks if t.agent == ch["author"] and t.tt == C["seed"].tt and t.start.date() > sd]
        fed = [t for t in mine if t.fed_echo is C]
        unfed = [t for t in mine if t.fed_echo is not C]
        members = C["members"]
        self_n = sum(1 for t in tasks for R in t.inj if R in members and t.agent == ch["author"])
        all_n = sum(1 for t in tasks for R in t.inj if R in members)

        def sr(ts):
            return round(sum(t.outcome == "success" for t in ts) / max(1, len(ts)), 3)

        def mc(ts):
            cs = [t.conf for t in ts if t.conf is not None]
            return round(sum(cs) / len(cs), 3) if cs else None
        out[C["seed"].path] = {
            "rule": ch["rule"], "author": ch["author"], "task_type": C["seed"].tt,
            "strength": ch["strength"], "seed_created": C["seed"].day.isoformat(),
            "followers": [F.path for F in C["followers"]],
            "follower_source_tasks": [F.task.id for F in C["followers"]],
            "fed_share": round(len(fed) / max(1, len(mine)), 3),
            "self_retrieval_share": round(self_n / max(1, all_n), 3),
            "retrievals_total": all_n,
            "fed_tasks": len(fed), "unfed_tasks": len(unfed),
            "fed_success": sr(fed), "unfed_success": sr(unfed),
            "fed_conf_mean": mc(fed), "unfed_conf_mean": mc(unfed),
        }
    return out


# ----------------------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    ws = os.path.join(out, "workspace")
    if os.path.isdir(ws):
        shutil.rmtree(ws)
    os.makedirs(os.path.join(ws, "logs"))
    os.makedirs(os.path.join(ws, "heuristics"))
    truth = {"window": {"start": START.isoformat(), "end": END.isoformat()}, "departments": {},
             "review": {"quarter": "2026Q4", "window_start": "2026-07-03", "window_end": "2026-10-01"},
             "seed": args.seed, "details": {}}
    all_tasks, all_retr = [], []
    for mod in (dept_finance, dept_care, dept_procurement):
        dep = mod.DEPT
        res = build_dept(dep, args.seed)
        check_texts(res)
        slug = dep["slug"]
        refls, tasks = res["refls"], res["tasks"]
        paths = [R.path for R in refls]
        assert len(paths) == len(set(paths)), "duplicate path"
        for R in refls:
            if R.fmt == "D":
                continue
            p = os.path.join(ws, R.path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(R.text)
        with open(os.path.join(ws, "heuristics", f"{slug}.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(res["heur"]) + "\n")
        rng = random.Random(f"{args.seed}-{slug}-score")
        for t in tasks:
            line = {"task_id": t.id, "agent": t.agent, "department": slug, "task_type": t.tt,
                    "finished_at": iso(t.finish), "outcome": t.outcome}
            if t.mode:
                line["failure_mode"] = t.mode
            if t.conf is not None:
                line["confidence_at_start"] = t.conf
            line["reflections_injected"] = [R.path for R in t.inj]
            line["tools_used"] = t.tools
            all_tasks.append((t.finish, line))
            scores = sorted((round(rng.uniform(0.48, 0.93), 2) for _ in t.inj), reverse=True)
            for i, R in enumerate(t.inj):
                all_retr.append((t.start, {"reflection": R.path,
                                           "retrieved_at": iso(t.start + dt.timedelta(seconds=2 + i)),
                                           "task_id": t.id, "agent": t.agent, "department": slug,
                                           "rank": i + 1, "score": scores[i]}))
        # truth
        cnt, rank, n_in = res["rank"]
        dtruth = {"echo": [], "echo_followers": {}, "outdated": [], "duplicates": {},
                  "hard_negatives": {}}
        det = {"agents": {a: {"main_format": v["main"], "second_format": v["second"],
                              "logs_confidence": v["conf"], "task_types": v["types"]}
                          for a, v in dep["agents"].items()},
               "retired_tools": [{"tool": r["tool"], "successor": r["succ"], "cut_over": r["cut"],
                                  "task_types": r["types"]} for r in dep["retired"]],
               "echo": stats(res), "outdated": {}, "duplicates": {}, "hard_negatives": {},
               "planted_in_review_window": {}}
        for C in res["chambers"]:
            dtruth["echo"].append(C["seed"].path)
            dtruth["echo_followers"][C["seed"].path] = [F.path for F in C["followers"]]
        for R in refls:
            if R.role == "outdated":
                r = next(x for x in dep["retired"] if x["tool"] == R.extra["tool"])
                dtruth["outdated"].append(R.path)
                det["outdated"][R.path] = {"tool": r["tool"], "spelled": R.extra["spelled"],
                                           "successor": r["succ"], "cut_over": r["cut"],
                                           "written": R.day.isoformat()}
            elif R.role == "dup":
                dtruth["duplicates"].setdefault(R.extra["gid"], []).append(R.path)
            elif R.role == "hn":
                dtruth["hard_negatives"].setdefault(R.extra["kind"], []).append(R.path)
                if R.extra.get("note"):
                    det["hard_negatives"][R.path] = R.extra["note"]
        for gid, ps in dtruth["duplicates"].items():
            det["duplicates"][gid] = {"keep": ps[0]}
        worst = 0
        for R in refls:
            if R.role != "bg":
                rk = rank.get(id(R))
                det["planted_in_review_window"][R.path] = {"rank": rk, "retrievals": cnt.get(id(R), 0)}
                worst = max(worst, rk or 10 ** 6)
        fmts = {}
        for R in refls:
            fmts[R.fmt] = fmts.get(R.fmt, 0) + 1
        nret = sum(len(t.inj) for t in tasks)
        det["counts"] = {"reflections": len(refls), "tasks": len(tasks), "retrievals": nret,
                         "formats": dict(sorted(fmts.items())),
                         "retrieved_in_review_window": n_in, "worst_planted_rank": worst,
                         "planted_paths": sum(1 for R in refls if R.role != "bg"), "rank_boost_retrievals": res["boosts"],
                         "task_success_rate": round(sum(t.outcome == "success" for t in tasks) / len(tasks), 3)}
        truth["departments"][slug] = dtruth
        truth["details"][slug] = det
        print(f"{slug}: reflections {len(refls)} {dict(sorted(fmts.items()))}, tasks {len(tasks)}, "
              f"retrievals {nret}, in window {n_in}, planted {det['counts']['planted_paths']}, "
              f"worst planted rank {worst}, success {det['counts']['task_success_rate']}")
        for sp, e in det["echo"].items():
            print(f"   echo {e['strength']:8s} fed {e['fed_share']:.2f} self {e['self_retrieval_share']:.2f} "
                  f"succ fed {e['fed_success']:.2f} unfed {e['unfed_success']:.2f} "
                  f"conf {e['fed_conf_mean']} / {e['unfed_conf_mean']} n={e['fed_tasks']}/{e['unfed_tasks']} {sp}")
        if worst > 100 or n_in <= 100:
            raise SystemExit(f"{slug}: review window check failed (worst {worst}, retrieved {n_in})")
    all_tasks.sort(key=lambda x: (x[0], x[1]["task_id"]))
    all_retr.sort(key=lambda x: (x[0], x[1]["task_id"], x[1]["rank"]))
    with open(os.path.join(ws, "logs", "tasks.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for _, line in all_tasks:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
    with open(os.path.join(ws, "logs", "retrievals.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for _, line in all_retr:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
    truth["review"]["note"] = ("open_review_cycle --quarter 2026Q4 starts on 2026-10-01 and ranks the "
                               "retrievals of 2026-07-03..2026-09-30; every planted path ranks within the top 100")
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1, sort_keys=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
