#!/usr/bin/env python3
"""Synthetic Reflexion-memory corpus with known truth (echo chambers, outdated
lessons, duplicates, hard negatives) for three departments.

Usage: python3 generate.py --seed 1 --out DIR
Writes DIR/workspace/ (reflections in four formats + logs) and DIR/truth.json.
Standard library only; deterministic for a given --seed.
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

import importlib  # noqa: E402

DEPARTMENT_MODULES = ["dept_clinical", "dept_field", "dept_marketing"]
DEPARTMENTS = []

WINDOW_START = dt.datetime(2026, 4, 1, tzinfo=dt.timezone.utc)
WINDOW_END = dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc)
REVIEW_START = dt.datetime(2026, 7, 3, tzinfo=dt.timezone.utc)
REVIEW_END = dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc)
NDAYS = (WINDOW_END - WINDOW_START).days  # 183
TOP_N = 100
UTC = dt.timezone.utc


class CorpusError(Exception):
    pass


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def day_of(mmdd):
    parts = [int(x) for x in mmdd.split("-")]
    if len(parts) == 3:
        return dt.datetime(parts[0], parts[1], parts[2], tzinfo=UTC)
    return dt.datetime(2026, parts[0], parts[1], tzinfo=UTC)


def first_sentence(text):
    m = re.match(r"(.+?[.!?])(\s|$)", text.strip())
    return m.group(1) if m else text.strip()


def lower_first(s):
    if len(s) > 1 and s[0].isupper() and not s[1].isupper():
        return s[0].lower() + s[1:]
    return s


STOP = {"a", "an", "the", "for", "of", "to", "and", "in", "on", "with", "at", "from", "by", "into"}


def slugify(task):
    words = [w for w in re.findall(r"[a-z0-9]+", task.lower()) if w not in STOP]
    return "-".join(words[:5])


# ---------------------------------------------------------------------------
# Department simulation
# ---------------------------------------------------------------------------

class Task:
    __slots__ = ("tid", "agent", "tt", "start", "finished", "outcome", "fm", "conf",
                 "injected", "scores", "tools", "fixed", "lesson", "handed", "forced_outcome")

    def __init__(self, agent, tt, start, finished):
        self.tid = None
        self.agent = agent
        self.tt = tt
        self.start = start
        self.finished = finished
        self.outcome = None
        self.fm = None
        self.conf = None
        self.injected = []
        self.scores = []
        self.tools = []
        self.fixed = False
        self.lesson = None
        self.handed = {}
        self.forced_outcome = None


class Refl:
    def __init__(self, lesson):
        self.l = lesson
        self.id = lesson["id"]
        self.agent = lesson["a"]
        self.tt = lesson["tt"]
        self.kind = lesson["kind"]
        self.fmt = None
        self.created = None
        self.task = None
        self.path = None
        self.appeal = 0.0
        self.retrievals = []  # (time, agent, task)


KIND_OUTCOME = {"F": "failure", "P": "partial", "S": "success", "D": "success"}


def base_success(day_index):
    return 0.62 + 0.36 * (1 - 2 ** (-day_index / 55.0))


def simulate(mod, seed):
    D = mod.DEPT
    slug = D["slug"]
    rng = random.Random("%s|%s|tasks" % (seed, slug))
    types = D["types"]
    agents = D["agents"]
    lessons = mod.LESSONS
    plant = mod.PLANT

    ids = [l["id"] for l in lessons]
    if len(ids) != len(set(ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise CorpusError("%s: duplicate lesson ids %s" % (slug, dup))
    by_id = {l["id"]: l for l in lessons}

    # ---- role bookkeeping -------------------------------------------------
    role = {}
    for ch in plant["echo"]:
        role[ch["seed"]] = ("echo_seed", ch)
        for f in ch["followers"]:
            role[f] = ("echo_follower", ch)
    for oid in plant["outdated"]:
        role[oid] = ("outdated", plant["outdated"][oid])
    for gid in plant["duplicates"]:
        for m in plant["duplicates"][gid]:
            role[m] = ("duplicate", gid)
    for kind_, members in plant["hard_negatives"].items():
        for m in members:
            if m in role:
                raise CorpusError("%s: %s planted twice" % (slug, m))
            role[m] = ("hard_negative", kind_)
    for k in role:
        if k not in by_id:
            raise CorpusError("%s: planted id %s has no lesson" % (slug, k))
    for l in lessons:
        if l["id"] in role and "day" not in l:
            raise CorpusError("%s: planted lesson %s needs a day" % (slug, l["id"]))

    # ---- reflections: days, formats --------------------------------------
    refls = [Refl(l) for l in lessons]
    rmap = {r.id: r for r in refls}
    fmt_rng = random.Random("%s|%s|fmt" % (seed, slug))
    day_rng = random.Random("%s|%s|days" % (seed, slug))
    for r in refls:
        ag = agents[r.agent]
        if r.tt not in ag["types"]:
            raise CorpusError("%s: lesson %s type %s not done by %s" % (slug, r.id, r.tt, r.agent))
        if "fmt" in r.l:
            r.fmt = r.l["fmt"]
        else:
            r.fmt = ag["fmt"] if fmt_rng.random() > ag.get("sec_share", 0.12) else ag["sec"]
        if r.kind == "D":
            r.fmt = "A"
        if "day" in r.l:
            day = day_of(r.l["day"])
        else:
            lo, hi = r.l.get("between", ("04-02", "09-27"))
            a, b = (day_of(lo) - WINDOW_START).days, (day_of(hi) - WINDOW_START).days
            u = day_rng.random() ** 1.25  # more lessons early (more failures early)
            day = WINDOW_START + dt.timedelta(days=a + int(u * (b - a + 1)))
        r.day = day
    # every protocol (A) agent needs a record naming its department
    for name in sorted(agents):
        ag = agents[name]
        mine = [r for r in refls if r.agent == name]
        if ag["fmt"] == "A" and not any(r.fmt != "A" for r in mine):
            cands = [r for r in mine if r.id not in role and r.kind != "D"]
            cands[0].fmt = ag["sec"]
    for r in refls:
        if r.fmt in ("C", "D") and r.kind == "P":
            r.kind = "F"
        if r.fmt == "B" and r.kind == "D":
            raise CorpusError("decision in B")

    # ---- base task stream -------------------------------------------------
    tasks = []
    for name in sorted(agents):
        ag = agents[name]
        tnames = sorted(ag["types"])
        weights = [ag["types"][t] for t in tnames]
        for d in range(NDAYS):
            day = WINDOW_START + dt.timedelta(days=d)
            rate = ag["rate"] * (0.3 if day.weekday() >= 5 else 1.0)
            n = 0
            for _ in range(3):
                if rng.random() < rate / 2.0:
                    n += 1
            for _ in range(n):
                tt = rng.choices(tnames, weights)[0]
                fin = day + dt.timedelta(minutes=rng.randint(7 * 60, 19 * 60))
                dur = dt.timedelta(minutes=rng.randint(15, 140))
                tasks.append(Task(name, tt, fin - dur, fin))
    # lesson source tasks
    for r in sorted(refls, key=lambda x: (x.day, x.id)):
        fin = r.day + dt.timedelta(minutes=rng.randint(8 * 60, 17 * 60))
        dur = dt.timedelta(minutes=rng.randint(20, 120))
        t = Task(r.agent, r.tt, fin - dur, fin)
        t.fixed = True
        t.lesson = r
        t.outcome = KIND_OUTCOME[r.kind]
        fms = types[r.tt]["fms"]
        if t.outcome == "failure":
            t.fm = r.l.get("fm") or rng.choice(fms)
        elif t.outcome == "partial":
            t.fm = r.l.get("fm") or (rng.choice(fms) if rng.random() < 0.5 else None)
        r.task = t
        r.created = fin + dt.timedelta(minutes=rng.randint(6, 45))
        tasks.append(t)
    tasks.sort(key=lambda t: (t.finished, t.agent, t.tt))
    counters = {}
    for t in tasks:
        key = t.finished.strftime("%Y%m%d")
        counters[key] = counters.get(key, 0) + 1
        t.tid = "%s-%s-%04d" % (D["prefix"], key, counters[key])

    # ---- tools used ---------------------------------------------------------
    tool_rng = random.Random("%s|%s|tools" % (seed, slug))
    for t in tasks:
        spec = types[t.tt]
        used = []
        for tool in spec["tools"]:
            if tool_rng.random() < 0.85 or not used:
                used.append(tool)
        for ret in D["retired"]:
            if ret["type"] != t.tt:
                continue
            cut = day_of(ret["cut_over"])
            pilot = cut - dt.timedelta(days=14)
            if t.start < pilot:
                used.append(ret["tool"])
            elif t.start < cut:
                used.append(ret["successor"] if tool_rng.random() < 0.15 else ret["tool"])
            else:
                used.append(ret["successor"])
        t.tools = sorted(used)

    # ---- echo planning: which author tasks are handed the lesson ----------
    echo_rng = random.Random("%s|%s|echo" % (seed, slug))
    chambers = []
    for ch in plant["echo"]:
        seedr = rmap[ch["seed"]]
        fols = [rmap[f] for f in ch["followers"]]
        for f in fols:
            if f.agent != seedr.agent or f.tt != seedr.tt or f.created <= seedr.created:
                raise CorpusError("%s: follower %s inconsistent with seed" % (slug, f.id))
        ch2 = dict(ch)
        ch2["seed_r"] = seedr
        ch2["fol_r"] = fols
        ch2["handed"] = {}
        for t in tasks:
            if t.agent == seedr.agent and t.tt == seedr.tt and t.start > seedr.created:
                if t.lesson in fols:
                    h = True
                else:
                    h = echo_rng.random() < ch["p_hand"]
                ch2["handed"][t.tid] = h
        chambers.append(ch2)

    # unlucky hard negatives: a handful of author tasks handed, outcomes forced
    unlucky = {}
    for lid in plant["hard_negatives"].get("unlucky_not_restated", []):
        r = rmap[lid]
        spec = plant["behaviour"].get(lid, {})
        cand = [t for t in tasks if t.agent == r.agent and t.tt == r.tt and t.start > r.created
                and not t.fixed]
        n = spec.get("n", 6)
        step = max(1, len(cand) // (n + 1))
        chosen = [cand[min(len(cand) - 1, step * (i + 1))] for i in range(n)]
        outs = spec.get("outcomes", ["failure", "success", "failure", "partial", "success", "failure"])
        for t, o in zip(chosen, outs):
            t.forced_outcome = o
        unlucky[lid] = {"r": r, "tasks": {t.tid for t in chosen}}

    beh = dict(plant.get("behaviour", {}))
    for rid in sorted(role):
        if role[rid][0] in ("duplicate", "hard_negative") and rid not in beh:
            beh[rid] = {"p_type": 0.12}
    for r in refls:
        b = beh.get(r.id, {})
        r.appeal = b.get("appeal", 0.0)
        if r.id in role and "appeal" not in b:
            r.appeal = 0.9
    app_rng = random.Random("%s|%s|appeal" % (seed, slug))
    for r in refls:
        r.appeal += app_rng.gauss(0, 0.45)

    # ---- retrievals -----------------------------------------------------
    ret_rng = random.Random("%s|%s|retrieval" % (seed, slug))
    refls_by_created = sorted(refls, key=lambda x: x.created)
    echo_items = {}
    for ch in chambers:
        echo_items[ch["seed_r"].id] = ch
        for f in ch["fol_r"]:
            echo_items[f.id] = ch
    out_ids = set(plant["outdated"])
    for t in tasks:
        avail = [r for r in refls_by_created if r.created < t.start - dt.timedelta(minutes=5)]
        if not avail:
            continue
        forced, excluded = [], set()
        for ch in chambers:
            sr = ch["seed_r"]
            items = [sr] + [f for f in ch["fol_r"] if f.created < t.start]
            if sr.created >= t.start:
                continue
            if t.agent == sr.agent and t.tt == sr.tt:
                if ch["handed"].get(t.tid):
                    forced.append(sr)
                    for f in items[1:]:
                        if t.lesson is f:
                            continue
                        if ret_rng.random() < ch.get("p_follow", 0.55):
                            forced.append(f)
                    t.handed[sr.id] = True
                else:
                    excluded.update(x.id for x in items)
            elif t.agent == sr.agent:
                excluded.update(x.id for x in items)
            else:
                p = ch["p_coll"] if t.tt == sr.tt else ch["p_coll"] * 0.25
                if ret_rng.random() < p:
                    forced.append(sr)
                    t.handed[sr.id] = True
                else:
                    excluded.add(sr.id)
                for f in items[1:]:
                    if ret_rng.random() < p * 0.3:
                        forced.append(f)
                    else:
                        excluded.add(f.id)
        for lid, u in unlucky.items():
            r = u["r"]
            if r.created >= t.start:
                continue
            if t.agent == r.agent and t.tt == r.tt:
                if t.tid in u["tasks"]:
                    forced.append(r)
                else:
                    excluded.add(r.id)
        for lid, b in sorted(beh.items()):
            r = rmap[lid]
            if r.created >= t.start or lid in unlucky or lid in echo_items:
                continue
            p = 0.0
            if t.tt == r.tt:
                p = b.get("p_type", 0.0)
                if t.agent == r.agent:
                    p = b.get("p_self", p)
            else:
                p = b.get("p_other", 0.0)
            if lid in out_ids:
                cut = day_of(plant["outdated"][lid]["cut_over"])
                if t.start >= cut and t.tt == r.tt:
                    p = b.get("p_after", p)
            if p and ret_rng.random() < p:
                forced.append(r)
        # de-duplicate forced, keep order
        seen = set()
        fl = []
        for r in forced:
            if r.id not in seen and r.id not in excluded:
                seen.add(r.id)
                fl.append(r)
        k = ret_rng.choice([3, 3, 4, 4, 4, 5])
        scored = []
        for r in avail:
            if r.id in seen or r.id in excluded:
                continue
            age = (t.start - r.created).total_seconds() / 86400.0
            s = 0.0
            s += 2.6 if r.tt == t.tt else 0.0
            s += 0.5 if r.agent == t.agent else 0.0
            s += 0.9 * 2 ** (-age / 75.0)
            s += r.appeal
            g = -math.log(-math.log(ret_rng.random() or 1e-12))
            scored.append((s + g * 0.9, r.id, r))
        scored.sort(key=lambda x: (-x[0], x[1]))
        chosen = [(s, r) for s, _, r in scored[: max(0, k - len(fl))]]
        allsel = []
        for r in fl:
            age = (t.start - r.created).total_seconds() / 86400.0
            s = (2.6 if r.tt == t.tt else 0.0) + 0.9 * 2 ** (-age / 75.0) + 0.6 + ret_rng.random()
            allsel.append((s, r))
        allsel.extend(chosen)
        allsel.sort(key=lambda x: (-x[0], x[1].id))
        t.injected = [r for _, r in allsel]
        hi = allsel[0][0] if allsel else 1.0
        t.scores = [round(max(0.05, min(0.99, 0.45 + 0.5 * s / max(hi, 1e-6) - 0.02 * i)), 3)
                    for i, (s, _) in enumerate(allsel)]
        rt = t.start - dt.timedelta(seconds=ret_rng.randint(20, 300))
        for r in t.injected:
            r.retrievals.append((rt, t.agent, t))

    # ---- outcomes ------------------------------------------------------
    out_rng = random.Random("%s|%s|outcomes" % (seed, slug))
    pop = {lid for lid in plant["hard_negatives"].get("popular_effective", [])}
    selfe = {lid for lid in plant["hard_negatives"].get("self_retrieved_effective", [])}
    for t in tasks:
        d = (t.finished - WINDOW_START).days
        p = base_success(d) + types[t.tt].get("adj", 0.0)
        inj = {r.id for r in t.injected}
        for ch in chambers:
            sr = ch["seed_r"]
            if sr.id in inj or any(f.id in inj for f in ch["fol_r"]):
                if t.agent == sr.agent:
                    p -= ch["gap"]
                else:
                    p -= ch["gap"] * 0.5
        for oid in out_ids:
            if oid in inj:
                cut = day_of(plant["outdated"][oid]["cut_over"])
                if t.start >= cut:
                    p -= 0.10
        for lid in pop | selfe:
            if lid in inj:
                p += 0.08
        p = max(0.05, min(0.97, p))
        u = out_rng.random()
        v = out_rng.random()
        w = out_rng.random()
        c = out_rng.gauss(0, 0.07)
        fmr = out_rng.random()
        if not t.fixed:
            if t.forced_outcome:
                t.outcome = t.forced_outcome
            elif u < p:
                t.outcome = "success"
            else:
                t.outcome = "partial" if v < 0.38 else "failure"
            fms = types[t.tt]["fms"]
            if t.outcome == "failure" and w < 0.92:
                t.fm = fms[int(fmr * len(fms))]
            elif t.outcome == "partial" and w < 0.45:
                t.fm = fms[int(fmr * len(fms))]
        if agents[t.agent].get("conf"):
            conf = 0.52 + 0.2 * min(1.0, d / 183.0) + c
            for ch in chambers:
                sr = ch["seed_r"]
                if t.agent == sr.agent and t.handed.get(sr.id):
                    conf += ch.get("conf_boost", 0.0)
            if t.fixed and t.outcome == "failure":
                conf -= 0.02
            t.conf = round(max(0.2, min(0.97, conf)), 2)

    return {"mod": mod, "tasks": tasks, "refls": refls, "rmap": rmap, "role": role,
            "chambers": chambers, "unlucky": unlucky}


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def tactical(l):
    if l.get("t"):
        return l["t"]
    rule = first_sentence(l["r"])
    if re.match(r"(When|If|For|Before|After|On|Once|Over|In|Whenever|Past|Any|Never|Always)\b", rule):
        return rule
    k = l["k"].rstrip(".")
    return "%s, %s" % (k, lower_first(rule))


def render_a(r, D):
    l = r.l
    date = r.created.strftime("%Y-%m-%d")
    head = {"F": "Reflection", "P": "Reflection", "S": "Procedure", "D": "Decision"}[r.kind]
    lines = ["# %s: %s - %s - %s" % (head, date, r.agent, l["task"]), ""]

    def sec(title, body):
        lines.extend(["## " + title, body.strip(), ""])

    if r.kind == "F":
        sec("What happened?", l["h"])
        sec("What went wrong?", l["w"])
        sec("Why did it go wrong?", l["y"])
        sec("What should I do differently?", l["r"])
        sec("Tactical rule candidate", tactical(l))
    elif r.kind == "P":
        sec("What happened?", l["h"])
        sec("What went wrong?", l["w"])
        body = l["r"]
        if l.get("y"):
            body = l["y"] + " " + l["r"]
        sec("What should I do differently?", body)
    elif r.kind == "S":
        sec("Strategy", l["h"])
        sec("Why it worked", l["y"])
    else:
        sec("What was the decision?", l["h"])
        sec("What alternatives existed?", l["w"])
        sec("Why was this option chosen?", l["y"])
    if l.get("principle") or (r.kind == "S" and l.get("r")):
        p = l.get("principle") or lower_first(l["r"])
        sec("Principle", "I should follow this rule: " + p)
    if l.get("steps"):
        sec("Procedure", "\n".join("%d. %s" % (i + 1, s) for i, s in enumerate(l["steps"])))
    return "\n".join(lines).rstrip() + "\n"


def yaml_list(items):
    return "[" + ", ".join(items) + "]"


def render_b(r, D, agent_spec, salience):
    l = r.l
    t = r.task
    fm = ["---", "task_type: %s" % r.tt, "outcome: %s" % KIND_OUTCOME[r.kind]]
    if t.conf is not None:
        fm.append("confidence_at_start: %.2f" % t.conf)
    fm.append("model_used: %s" % agent_spec["model"])
    if salience is not None:
        fm.append("salience_score: %.2f" % salience)
    fm.append("department: %s" % D["slug"])
    fm.append("agent: %s" % r.agent)
    skills = l.get("skills") or D["types"][r.tt]["skills"]
    fm.append("related_skills: %s" % yaml_list(skills))
    tags = l.get("tags") or [w for w in [t.fm, r.tt] if w]
    fm.append("tags: %s" % yaml_list(tags))
    fm.append("created_at: %s" % iso(r.created))
    fm.append("---")
    if r.kind in ("F", "P"):
        happened = l["h"] + " " + l["w"] if l.get("y") else l["h"]
        why = l.get("y") or l["w"]
    else:
        happened, why = l["h"], l["y"]
    body = ["## What happened?", happened.strip(), "", "## Why?", why.strip(), "",
            "## What rule should I remember?", l["r"].strip()]
    return "\n".join(fm + body) + "\n"


def render_c(r, D, iteration, crng):
    l = r.l
    t = r.task
    passed = r.kind in ("S", "D")
    if passed:
        text = l["h"] + " " + l["r"]
        ca = {"failing_action_indices": [], "root_cause": "none",
              "failure_category": "none"}
        errors = []
        reward = round(crng.uniform(0.85, 1.0), 2)
        causal = l["y"]
    else:
        text = "%s %s %s" % (l["h"], l["w"], l["r"])
        why = l.get("y") or l["w"]
        ca = {"failing_action_indices": sorted(crng.sample(range(1, 7), crng.choice([1, 1, 2]))),
              "root_cause": l.get("rc") or first_sentence(why),
              "failure_category": (t.fm or "unspecified").replace("-", "_")}
        errors = [{"type": (t.fm or "check_failed").replace("-", "_"),
                   "message": l.get("err") or first_sentence(l["w"])}]
        reward = round(crng.uniform(0.0, 0.45), 2)
        causal = why
    obj = {
        "iteration": iteration,
        "timestamp": iso(r.created),
        "agent": r.agent,
        "department": D["slug"],
        "task_type": r.tt,
        "task_description": l["task"],
        "self_reflection": {
            "reflection_text": text,
            "credit_assignment": ca,
            "causal_reasoning": causal,
            "actionable_insights": [l["r"]] + ([l["k"] + ": check this first."] if False else []),
            "lessons_learned": [tactical(l)],
            "confidence": round(crng.uniform(0.55, 0.9), 2),
            "related_reflections": [],
        },
        "evaluator_output": {
            "passed": passed,
            "verification_type": D["types"][r.tt].get("verifier", "checklist"),
            "reward_signal": reward,
            "errors": errors,
        },
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def render_d(r, D):
    l = r.l
    passed = r.kind in ("S", "D")
    analysis = (l["h"] + " " + l["y"]) if passed else (l["w"] + " " + (l.get("y") or ""))
    obj = {
        "scenario_id": r.sid,
        "agent": r.agent,
        "department": D["slug"],
        "task_type": r.tt,
        "created_at": iso(r.created),
        "task": l["task"],
        "reward": "success" if passed else "failure",
        "analysis": analysis.strip(),
        "guideline": {"trigger": l["k"], "action": l["r"]},
    }
    return json.dumps(obj, ensure_ascii=False)


def assign_paths(sim):
    D = sim["mod"].DEPT
    refls = sorted(sim["refls"], key=lambda r: (r.created, r.id))
    loops = {}
    sids = {}
    seen = set()
    for r in refls:
        if r.fmt == "A":
            slug = r.l.get("slug") or slugify(r.l["task"])
            r.path = "memory/reflections/%s/%s-%s.md" % (r.agent, r.created.strftime("%Y-%m-%d"), slug)
        elif r.fmt == "B":
            r.path = "memory/reflexions/%s/%s-%s.md" % (r.created.strftime("%Y-%m"),
                                                      r.created.strftime("%d"), r.task.tid)
        elif r.fmt == "C":
            loop = "%s-%s" % (r.agent.replace("-agent", ""), r.tt)
            loops[loop] = loops.get(loop, 0) + 1
            r.iteration = loops[loop] - 1
            r.path = ".aiwg/ralph/reflections/%s/%03d.json" % (loop, loops[loop])
        else:
            short = r.agent.replace("-agent", "")
            sids[short] = sids.get(short, 0) + 1
            r.sid = "%s-%s-%03d" % (D["prefix"], short, sids[short])
            r.path = "heuristics/%s.jsonl#%s" % (D["slug"], r.sid)
        if r.path in seen:
            raise CorpusError("path collision %s" % r.path)
        seen.add(r.path)


def write_dept(sim, ws, seed):
    D = sim["mod"].DEPT
    agents = D["agents"]
    refls = sorted(sim["refls"], key=lambda r: (r.created, r.id))
    crng = random.Random("%s|%s|render" % (seed, D["slug"]))
    heur = []
    for r in refls:
        if r.fmt == "A":
            txt = render_a(r, D)
        elif r.fmt == "B":
            sal = round(crng.uniform(0.3, 0.9), 2) if crng.random() < 0.3 else None
            txt = render_b(r, D, agents[r.agent], sal)
        elif r.fmt == "C":
            txt = render_c(r, D, r.iteration, crng)
        else:
            heur.append(render_d(r, D))
            continue
        p = os.path.join(ws, r.path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(txt)
    if heur:
        p = os.path.join(ws, "heuristics", "%s.jsonl" % D["slug"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(heur) + "\n")


def task_line(t, D):
    o = {"task_id": t.tid, "agent": t.agent, "department": D["slug"], "task_type": t.tt,
         "finished_at": iso(t.finished), "outcome": t.outcome}
    if t.fm and t.outcome != "success":
        o["failure_mode"] = t.fm
    if t.conf is not None:
        o["confidence_at_start"] = t.conf
    o["reflections_injected"] = [r.path for r in t.injected]
    o["tools_used"] = t.tools
    return o


def retrieval_lines(t, D):
    out = []
    rt = None
    for r in t.injected:
        for (when, ag, tk) in r.retrievals:
            if tk is t:
                rt = when
                break
    for i, r in enumerate(t.injected):
        out.append({"reflection": r.path, "retrieved_at": iso(rt), "task_id": t.tid,
                    "agent": t.agent, "department": D["slug"], "rank": i + 1,
                    "score": t.scores[i]})
    return out


# ---------------------------------------------------------------------------
# Analysis (realised figures, ranks)
# ---------------------------------------------------------------------------

def rate(xs):
    return round(sum(1 for x in xs if x == "success") / len(xs), 3) if xs else None


def mean(xs):
    return round(sum(xs) / len(xs), 3) if xs else None


def review_ranks(sim):
    counts = []
    for r in sim["refls"]:
        inwin = [w for (w, _, _) in r.retrievals if REVIEW_START <= w < REVIEW_END]
        if inwin:
            counts.append((len(inwin), max(inwin), r))
    counts.sort(key=lambda x: (-x[0], -x[1].timestamp(), x[2].path))
    ranks = {}
    for i, (n, last, r) in enumerate(counts):
        ranks[r.id] = (i + 1, n)
    return ranks, len(counts)


def echo_figures(sim, ch):
    sr = ch["seed_r"]
    fol = ch["fol_r"]
    items = {sr.id} | {f.id for f in fol}
    tasks = [t for t in sim["tasks"] if t.agent == sr.agent and t.tt == sr.tt and t.start > sr.created]
    handed = [t for t in tasks if any(r.id in items for r in t.injected)]
    unfed = [t for t in tasks if not any(r.id in items for r in t.injected)]
    # comparison excluding the lessons' own source tasks (fixed outcomes)
    h2 = [t for t in handed if not t.fixed]
    u2 = [t for t in unfed if not t.fixed]
    all_ret = sr.retrievals
    by_author = sum(1 for (_, a, _) in all_ret if a == sr.agent)
    fig = {
        "author": sr.agent,
        "task_type": sr.tt,
        "seed_written": iso(sr.created),
        "seed_source_outcome": sr.task.outcome,
        "author_tasks_of_type_after_seed": len(tasks),
        "handed": len(handed),
        "not_handed": len(unfed),
        "handed_share": round(len(handed) / len(tasks), 3) if tasks else None,
        "planned_p_hand": ch["p_hand"],
        "success_rate_handed": rate([t.outcome for t in handed]),
        "success_rate_not_handed": rate([t.outcome for t in unfed]),
        "success_rate_handed_excl_lesson_sources": rate([t.outcome for t in h2]),
        "success_rate_not_handed_excl_lesson_sources": rate([t.outcome for t in u2]),
        "planned_success_gap": ch["gap"],
        "author_logs_confidence": bool(sim["mod"].DEPT["agents"][sr.agent].get("conf")),
        "mean_confidence_handed": mean([t.conf for t in handed if t.conf is not None]),
        "mean_confidence_not_handed": mean([t.conf for t in unfed if t.conf is not None]),
        "seed_retrievals_total": len(all_ret),
        "seed_retrievals_by_author": by_author,
        "seed_retrievals_by_colleagues": len(all_ret) - by_author,
        "colleague_agents": sorted({a for (_, a, _) in all_ret if a != sr.agent}),
        "followers": [
            {"path": f.path, "written": iso(f.created), "source_task": f.task.tid,
             "source_outcome": f.task.outcome,
             "source_task_handed_seed": any(r.id == sr.id for r in f.task.injected)}
            for f in fol
        ],
        "rule": ch["rule"],
    }
    return fig


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def build(seed, out):
    ws = os.path.join(out, "workspace")
    if os.path.exists(ws):
        shutil.rmtree(ws)
    truth_path = os.path.join(out, "truth.json")
    if os.path.exists(truth_path):
        os.remove(truth_path)
    os.makedirs(os.path.join(ws, "logs"), exist_ok=True)
    truth = {"window": {"start": "2026-04-01", "end": "2026-10-01"}, "departments": {},
             "review": {"quarter": "2026Q4", "window_start": "2026-07-03", "window_end": "2026-10-01"},
             "seed": seed, "details": {}}
    all_tasks = []
    problems = []
    for mod in DEPARTMENTS:
        D = mod.DEPT
        sim = simulate(mod, seed)
        assign_paths(sim)
        write_dept(sim, ws, seed)
        for t in sim["tasks"]:
            all_tasks.append((t, D))
        ranks, n_in_window = review_ranks(sim)
        rmap = sim["rmap"]
        plant = mod.PLANT
        P = lambda i: rmap[i].path  # noqa: E731
        dept_truth = {
            "echo": [P(ch["seed"]) for ch in plant["echo"]],
            "echo_followers": {P(ch["seed"]): [P(f) for f in ch["followers"]] for ch in plant["echo"]},
            "outdated": [P(o) for o in plant["outdated"]],
            "duplicates": {},
            "hard_negatives": {k: [P(x) for x in v] for k, v in plant["hard_negatives"].items()},
        }
        for gid, members in plant["duplicates"].items():
            ms = sorted(members, key=lambda i: rmap[i].created)
            days = [rmap[i].created.date() for i in ms]
            if len(set(days)) != len(days):
                problems.append("%s: duplicate group %s has two members on one day" % (D["slug"], gid))
            dept_truth["duplicates"][gid] = [P(i) for i in ms]
        truth["departments"][D["slug"]] = dept_truth
        # checks: planted in top 100
        if n_in_window <= TOP_N:
            problems.append("%s: only %d reflections retrieved in the review window" % (D["slug"], n_in_window))
        planted_rank = {}
        for pid in sorted(sim["role"]):
            if pid not in ranks or ranks[pid][0] > TOP_N:
                problems.append("%s: planted %s (%s) ranks %s" % (
                    D["slug"], pid, sim["role"][pid][0], ranks.get(pid, ("not retrieved",))[0]))
            planted_rank[P(pid)] = {"rank": ranks.get(pid, (None, 0))[0],
                                    "retrievals_in_window": ranks.get(pid, (None, 0))[1],
                                    "role": sim["role"][pid][0]}
        # outdated checks
        out_det = {}
        for oid, spec in plant["outdated"].items():
            r = rmap[oid]
            cut = day_of(spec["cut_over"])
            if r.created >= cut:
                problems.append("%s: outdated %s written after cut-over" % (D["slug"], oid))
            spelled = spec["spelling"]
            text = json.dumps(r.l)
            if spelled not in text:
                problems.append("%s: outdated %s does not contain spelling %r" % (D["slug"], oid, spelled))
            after = [w for (w, _, _) in r.retrievals if w >= cut]
            inwin = [w for w in after if REVIEW_START <= w < REVIEW_END]
            if not inwin:
                problems.append("%s: outdated %s not retrieved after cut-over in window" % (D["slug"], oid))
            if cut >= dt.datetime(2026, 9, 1, tzinfo=UTC):
                problems.append("%s: cut-over too late" % D["slug"])
            out_det[r.path] = {"tool": spec["tool"], "spelling": spelled, "successor": spec["successor"],
                               "cut_over": spec["cut_over"], "written": iso(r.created),
                               "retrievals_after_cut_over": len(after),
                               "retrievals_after_cut_over_in_review_window": len(inwin)}
        # retired tools must not be named by any non-planted lesson (except history HNs)
        allowed = set(plant["outdated"]) | set(plant.get("names_retired_ok", []))
        for r in sim["refls"]:
            if r.id in allowed:
                continue
            text = json.dumps(r.l).lower()
            for ret in D["retired"]:
                for form in ret["forms"]:
                    if form.lower() in text:
                        problems.append("%s: lesson %s names retired tool %s" % (D["slug"], r.id, form))
        # every reflection's source task consistent
        for r in sim["refls"]:
            t = r.task
            if not (t.agent == r.agent and t.tt == r.tt and t.finished < r.created
                    and t.finished.date() == r.created.date()):
                problems.append("%s: source task mismatch for %s" % (D["slug"], r.id))
        echo_det = {P(ch["seed_r"].id): echo_figures(sim, ch) for ch in sim["chambers"]}
        for seedp, fig in echo_det.items():
            if not (fig["success_rate_handed"] < fig["success_rate_not_handed"]):
                problems.append("%s: echo %s handed tasks do not do worse" % (D["slug"], seedp))
            if fig["author_logs_confidence"] and not (
                    fig["mean_confidence_handed"] > fig["mean_confidence_not_handed"]):
                problems.append("%s: echo %s handed tasks not more confident" % (D["slug"], seedp))
            for f in fig["followers"]:
                if not f["source_task_handed_seed"]:
                    problems.append("%s: follower %s source task not handed the seed" % (D["slug"], f["path"]))
        unl = {}
        for lid, u in sim["unlucky"].items():
            r = u["r"]
            ts = [t for t in sim["tasks"] if t.tid in u["tasks"]]
            others = [t for t in sim["tasks"] if t.agent == r.agent and t.tt == r.tt and t.start > r.created
                      and t.tid not in u["tasks"]]
            unl[r.path] = {"handed_to_author": len(ts), "success_rate_handed": rate([t.outcome for t in ts]),
                           "success_rate_author_not_handed": rate([t.outcome for t in others])}
        hn_fig = {}
        for kind_, ids in plant["hard_negatives"].items():
            for i in ids:
                r = rmap[i]
                inj = [t for t in sim["tasks"] if r in t.injected]
                hn_fig[r.path] = {"kind": kind_, "retrievals": len(r.retrievals),
                                  "retrieval_by_author_share": round(
                                      sum(1 for t in inj if t.agent == r.agent) / len(inj), 3) if inj else None,
                                  "success_rate_injected": rate([t.outcome for t in inj]),
                                  "note": plant.get("notes", {}).get(i, "")}
        fmt_counts = {}
        for r in sim["refls"]:
            fmt_counts[r.fmt] = fmt_counts.get(r.fmt, 0) + 1
        succ_by_month = {}
        for t in sim["tasks"]:
            m = t.finished.strftime("%Y-%m")
            succ_by_month.setdefault(m, []).append(t.outcome)
        truth["details"][D["slug"]] = {
            "outdated": out_det,
            "echo": echo_det,
            "duplicates_rules": plant.get("duplicate_rules", {}),
            "hard_negative_figures": hn_fig,
            "unlucky": unl,
            "review_ranks": planted_rank,
            "reflections_retrieved_in_review_window": n_in_window,
            "counts": {
                "reflections": len(sim["refls"]),
                "reflections_by_format": dict(sorted(fmt_counts.items())),
                "tasks": len(sim["tasks"]),
                "retrievals": sum(len(t.injected) for t in sim["tasks"]),
                "retrievals_in_review_window": sum(
                    1 for r in sim["refls"] for (w, _, _) in r.retrievals if REVIEW_START <= w < REVIEW_END),
            },
            "success_rate_by_month": {m: rate(v) for m, v in sorted(succ_by_month.items())},
            "agents": {a: {"main_format": s["fmt"], "secondary_format": s["sec"],
                           "logs_confidence": bool(s.get("conf")), "task_types": s["types"]}
                       for a, s in sorted(D["agents"].items())},
            "tools": {tt: {"stable": s["tools"]} for tt, s in sorted(D["types"].items())},
            "retired_tools": [{k: v for k, v in ret.items() if k != "forms"} for ret in D["retired"]],
        }
    # logs
    all_tasks.sort(key=lambda x: (x[0].finished, x[0].tid))
    with open(os.path.join(ws, "logs", "tasks.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for t, D in all_tasks:
            fh.write(json.dumps(task_line(t, D), ensure_ascii=False) + "\n")
    rlines = []
    for t, D in all_tasks:
        rlines.extend(retrieval_lines(t, D))
    rlines.sort(key=lambda o: (o["retrieved_at"], o["task_id"], o["rank"]))
    with open(os.path.join(ws, "logs", "retrievals.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for o in rlines:
            fh.write(json.dumps(o, ensure_ascii=False) + "\n")
    with open(truth_path, "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    if problems:
        for p in problems:
            print("PROBLEM:", p, file=sys.stderr)
        raise SystemExit("corpus checks failed (%d problems)" % len(problems))
    return truth


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    DEPARTMENTS[:] = [importlib.import_module(m) for m in DEPARTMENT_MODULES]
    build(a.seed, a.out)
    print("wrote %s" % a.out)


if __name__ == "__main__":
    main()
