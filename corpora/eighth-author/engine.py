"""Engine for corpus8: bank parsing, world simulation and format renderers.

Standard library only.  Every random draw comes from a random.Random seeded
with a string (seeded through SHA-512, so independent of PYTHONHASHSEED), and
every iteration is over lists or sorted keys.
"""
import datetime as dt
import hashlib
import json
import math
import random
import re

START = dt.date(2026, 4, 1)
END = dt.date(2026, 10, 1)          # exclusive
REVIEW_START = dt.date(2026, 7, 3)  # review window [REVIEW_START, END)
TOP_N = 100


# --------------------------------------------------------------------------
# bank parsing
# --------------------------------------------------------------------------

FIELD_KEYS = ("T", "H", "W", "Y", "D", "R", "DEC", "ALT", "WHY", "N")


def parse_bank(text):
    """Parse the hand-written bank text into a list of entry dicts.

    Header line:  == id agent task_type outcome fmt date-spec role [k=v ...]
    Body lines:   KEY: text   (continuation lines are appended)
    """
    entries = []
    cur = None
    last = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("=="):
            parts = line[2:].split()
            eid, agent, ttype, outcome, fmt, date_spec, role = parts[:7]
            extra = {}
            for kv in parts[7:]:
                k, v = kv.split("=", 1)
                extra[k] = v
            cur = {"id": eid, "agent": agent, "type": ttype, "outcome": outcome,
                   "fmt": fmt, "date_spec": date_spec, "role": role, "extra": extra}
            for k in FIELD_KEYS:
                cur[k] = ""
            entries.append(cur)
            last = None
            continue
        m = re.match(r"^(T|H|W|Y|D|R|DEC|ALT|WHY|N):\s?(.*)$", line)
        if m:
            last = m.group(1)
            cur[last] = m.group(2).strip()
        else:
            cur[last] = (cur[last] + " " + line.strip()).strip()
    for e in entries:
        if e["outcome"] != "decision" and e["R"]:
            if "||" not in e["R"]:
                raise ValueError("entry %s: rule needs 'trigger || action'" % e["id"])
            trig, act = [s.strip() for s in e["R"].split("||", 1)]
            e["trigger"], e["action"] = trig, act
        else:
            e["trigger"], e["action"] = "", ""
            ok = e["outcome"] == "decision" or (e["fmt"] == "P" and (
                e["outcome"] == "partial" and e["D"] or e["outcome"] == "success" and e["extra"].get("mars") != "1"))
            if not ok:
                raise ValueError("entry %s: needs a rule (R: trigger || action)" % e["id"])
        if e["fmt"] == "E" and e["outcome"] not in ("failure", "success"):
            raise ValueError("entry %s: episodic JSON is success or failure" % e["id"])
        if e["fmt"] == "H" and e["outcome"] not in ("failure", "success"):
            raise ValueError("entry %s: heuristic is success or failure" % e["id"])
        if e["outcome"] == "decision" and e["fmt"] != "P":
            raise ValueError("entry %s: decisions are protocol Markdown" % e["id"])
    ids = [e["id"] for e in entries]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate entry ids")
    return entries


# --------------------------------------------------------------------------
# small text helpers
# --------------------------------------------------------------------------

def sent(s):
    s = s.strip()
    if s and s[-1] not in ".!?":
        s += "."
    return s


def lc_first(s):
    s = s.strip()
    if len(s) > 1 and s[1].isupper():
        return s
    return s[:1].lower() + s[1:]


def uc_first(s):
    s = s.strip()
    return s[:1].upper() + s[1:]


def strip_period(s):
    return s.strip().rstrip(".")


def rule_sentence(e):
    return sent("%s, %s" % (strip_period(e["trigger"]), lc_first(strip_period(e["action"]))))


def if_then(e):
    trig = strip_period(e["trigger"])
    trig = re.sub(r"^(When|Whenever|If|Once|After|Before)\s+", "", trig)
    return "IF %s THEN %s" % (lc_first(trig), lc_first(strip_period(e["action"])))


def slug_title(t, maxw=5):
    words = re.findall(r"[a-z0-9]+", t.lower())
    stop = {"a", "an", "the", "of", "for", "on", "in", "to", "and", "with", "at", "by"}
    keep = [w for w in words if w not in stop] or words
    return "-".join(keep[:maxw])


def sha256_text(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------
# renderers
# --------------------------------------------------------------------------

PROTO_HEAD = {
    "plain": lambda h: "## %s" % h,
    "numbered": None,   # handled below
    "bold": lambda h: "## **%s**" % h,
    "lower": lambda h: "## %s" % h.lower().rstrip("?"),
}


def render_protocol(e, agent_cfg, date):
    style = agent_cfg.get("style", "plain")
    sep = agent_cfg.get("separators", False)
    out = e["outcome"]
    if out == "decision":
        kind = "Decision"
        secs = [("What was the decision?", e["DEC"]), ("What alternatives existed?", e["ALT"]),
                ("Why was this option chosen?", e["WHY"])]
    elif out == "success":
        kind = "Procedure"
        secs = [("Strategy", e["H"]), ("Why it worked", e["W"])]
    elif out == "partial":
        kind = "Reflection"
        secs = [("What happened?", e["H"]), ("What went wrong?", e["W"]),
                ("What should I do differently?", e["D"] or rule_sentence(e))]
    else:
        kind = "Reflection"
        if e["Y"]:
            secs = [("What happened?", e["H"]), ("What went wrong?", e["W"]),
                    ("Why did it go wrong?", e["Y"]),
                    ("What should I do differently?", e["D"] or (rule_sentence(e) if agent_cfg.get("ifthen", True)
                                                                 else sent(uc_first(e["action"])))),
                    ("Tactical rule candidate", if_then(e) if agent_cfg.get("ifthen", True) else rule_sentence(e))]
        else:
            secs = [("What happened?", e["H"]), ("What went wrong?", e["W"]),
                    ("What should I do differently?", e["D"] or rule_sentence(e)),
                    ("Tactical rule candidate", if_then(e))]
    lines = ["# %s: %s - %s - %s" % (kind, date.isoformat(), e["agent"], e["T"]), ""]
    if sep:
        lines += ["---", ""]
    for i, (head, body) in enumerate(secs):
        if style == "numbered":
            h = "## %d. %s" % (i + 1, head.rstrip("?"))
        else:
            h = PROTO_HEAD[style](head)
        lines += [h, sent(body) if body else body, ""]
        if sep and i < len(secs) - 1:
            lines += ["---", ""]
    if e["extra"].get("mars") == "1" and out != "decision":
        if agent_cfg.get("mars_block"):
            lines += ["# MARS Extraction", ""]
            lines += ["## Principle (Normative)", "I should follow this rule: %s" % lc_first(rule_sentence(e)), ""]
        else:
            lines += ["## Principle", "I should follow this rule: %s" % lc_first(rule_sentence(e)), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def yaml_scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    s = str(v)
    if re.fullmatch(r"[a-z0-9][a-z0-9._-]*", s) and s not in ("true", "false", "null", "yes", "no", "on", "off"):
        return s
    return json.dumps(s, ensure_ascii=False)


def render_frontmatter(e, agent_cfg, date, task, dept_slug, rng):
    fm = []
    fm.append(("task_type", e["type"]))
    fm.append(("outcome", e["outcome"]))
    if task.get("confidence_at_start") is not None:
        fm.append(("confidence_at_start", task["confidence_at_start"]))
    fm.append(("model_used", agent_cfg["model"]))
    if agent_cfg.get("salience") and rng.random() < 0.7:
        fm.append(("salience_score", round(rng.uniform(0.35, 0.9), 2)))
    fm.append(("department", dept_slug))
    fm.append(("agent", e["agent"]))
    skills = [s for s in e["extra"].get("skills", "").split(",") if s]
    tags = [s for s in e["extra"].get("tags", "").split(",") if s]
    fm.append(("related_skills", skills))
    fm.append(("tags", tags))
    lines = ["---"]
    for k, v in fm:
        if isinstance(v, list):
            lines.append("%s: [%s]" % (k, ", ".join(yaml_scalar(x) for x in v)))
        else:
            lines.append("%s: %s" % (k, yaml_scalar(v)))
    lines.append("---")
    if e["outcome"] == "success":
        happened = e["H"]
        why = e["W"] if not e["Y"] else e["W"] + " " + e["Y"]
    else:
        happened = e["H"] + " " + e["W"]
        why = e["Y"] or e["W"]
    lines += ["## What happened?", sent(happened), "", "## Why?", sent(why), "",
              "## What rule should I remember?", e["D"] and sent(e["D"]) or rule_sentence(e)]
    return "\n".join(lines) + "\n"


def render_episodic(e, agent_cfg, date, task, dept_slug, iteration, rng, related):
    passed = e["outcome"] == "success"
    if passed:
        text = "%s %s %s" % (sent(e["H"]), sent(e["W"]), "Worth keeping: " + lc_first(rule_sentence(e)))
        ca = {"failing_action_indices": [], "root_cause": "", "failure_category": "none"}
        errors = []
        reward = round(rng.uniform(0.85, 1.0), 2)
    else:
        nxt = e["D"] or ("In my next attempt, I will " + lc_first(sent(e["action"])))
        text = "%s %s %s" % (sent(e["H"]), sent(e["W"]), sent(nxt))
        n_actions = rng.randint(3, 9)
        idx = sorted(rng.sample(range(n_actions), rng.randint(1, 2)))
        ca = {"failing_action_indices": idx, "root_cause": sent(e["Y"] or e["W"]),
              "failure_category": (task.get("failure_mode") or "unclassified").replace("-", "_")}
        errors = [{"type": "EvaluatorCheck", "message": sent(e["W"])}]
        reward = round(rng.uniform(0.0, 0.55), 2)
    insights = [sent(uc_first(e["action"]))]
    if e["D"]:
        insights.append(sent(e["D"]))
    obj = {
        "iteration": iteration,
        "timestamp": task["reflection_ts"],
        "agent": e["agent"],
        "department": dept_slug,
        "task_type": e["type"],
        "task_description": sent(e["T"]),
        "self_reflection": {
            "reflection_text": text,
            "credit_assignment": ca,
            "causal_reasoning": sent(e["Y"] or e["W"]),
            "actionable_insights": insights,
            "lessons_learned": [rule_sentence(e)],
            "confidence": task.get("confidence_at_start") if task.get("confidence_at_start") is not None
            else round(rng.uniform(0.55, 0.85), 2),
            "related_reflections": related,
        },
        "evaluator_output": {
            "passed": passed,
            "verification_type": agent_cfg.get("verification", "checklist"),
            "reward_signal": reward,
            "errors": errors,
        },
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def render_heuristic(e, date, task, dept_slug, scenario_id, with_time):
    analysis = sent(e["H"]) + " " + sent(e["W"])
    if e["Y"]:
        analysis += " " + sent(e["Y"])
    obj = {
        "scenario_id": scenario_id,
        "agent": e["agent"],
        "department": dept_slug,
        "task_type": e["type"],
        "created_at": task["reflection_ts"] if with_time else date.isoformat(),
        "task": sent(e["T"]),
        "reward": "success" if e["outcome"] == "success" else "failure",
        "analysis": analysis,
        "guideline": {"trigger": sent(e["trigger"]).rstrip("."), "action": sent(uc_first(e["action"]))},
    }
    return json.dumps(obj, ensure_ascii=False)


# --------------------------------------------------------------------------
# simulation
# --------------------------------------------------------------------------

def daterange(a, b):
    d = a
    while d < b:
        yield d
        d += dt.timedelta(days=1)


def parse_date(s):
    return dt.date.fromisoformat(s)


def assign_dates(entries, seed, slug):
    rng = random.Random("%s:%s:dates" % (seed, slug))
    lo_all, hi_all = dt.date(2026, 4, 2), dt.date(2026, 9, 24)
    for e in entries:
        ds = e["date_spec"]
        if re.fullmatch(r"\d{4}-\d\d-\d\d", ds):
            e["date"] = parse_date(ds)
            continue
        lo, hi = lo_all, hi_all
        if ds.startswith("after:"):
            lo = parse_date(ds.split(":")[1])
        elif ds.startswith("before:"):
            hi = parse_date(ds.split(":")[1]) - dt.timedelta(days=1)
        elif ds.startswith("between:"):
            _, a, b = ds.split(":")
            lo, hi = parse_date(a), parse_date(b)
        span = (hi - lo).days
        u = rng.random()
        if e["outcome"] in ("failure", "partial"):
            u = 1 - math.sqrt(1 - u * 0.9)   # failures lean early (the agents learn)
        else:
            u = math.sqrt(u)                  # procedures lean late
        e["date"] = lo + dt.timedelta(days=int(round(u * span)))


def weighted_order(rng, items, weights):
    """Efraimidis-Spirakis: an order without replacement by weight."""
    keyed = []
    for it, w in zip(items, weights):
        if w <= 0:
            continue
        u = rng.random()
        keyed.append((math.log(max(u, 1e-12)) / w, it))
    keyed.sort(key=lambda x: -x[0])
    return [it for _, it in keyed]


def simulate(cfg, entries, seed, boost, salt=0):
    """Run six months of tasks and retrievals for one department.

    Returns tasks (list of dicts), retrievals (list of dicts) and per-entry
    source task ids.  `boost` maps entry id -> retrieval weight multiplier.
    """
    slug = cfg["slug"]
    rng = random.Random("%s:%s:sim:%d" % (seed, slug, salt))
    agents = cfg["agents"]
    types = cfg["task_types"]
    chambers = {c["id"]: c for c in cfg["echo"]}
    retired = cfg["retired"]
    by_id = {e["id"]: e for e in entries}

    # entries scheduled per (day, agent)
    sched = {}
    for e in entries:
        sched.setdefault((e["date"], e["agent"]), []).append(e)

    # per-entry retrieval behaviour
    for e in entries:
        role = e["role"]
        if "pop" in e["extra"]:
            pop = float(e["extra"]["pop"])
        else:
            # each lesson has its own pull (how often its wording matches later queries)
            pop = math.exp(random.Random("%s:%s:pop:%s" % (seed, slug, e["id"])).gauss(0.0, 0.5))
        e["_pop"] = pop * boost.get(e["id"], 1.0)
        e["_chamber"] = role.split(":")[1] if role.startswith("echo:") else None
        e["_behave"] = e["extra"].get("behave")

    tasks = []
    retrievals = []
    counters = {}
    fed_count = {c: 0 for c in chambers}
    source_task = {}
    available = []   # entries whose date < current day

    for day in daterange(START, END):
        progress = (day - START).days / 182.0
        available = [e for e in entries if e["date"] < day]
        avail_by_type = {}
        for e in available:
            avail_by_type.setdefault(e["type"], []).append(e)
        day_tasks = []
        for aname in sorted(agents):
            a = agents[aname]
            r = rng.random()
            n = 0 if r < a.get("p_idle", 0.12) else (2 if r > 1 - a.get("p_double", 0.18) else 1)
            forced = sched.get((day, aname), [])
            n = max(n, len(forced))
            for i in range(n):
                t = {"agent": aname}
                if i < len(forced):
                    t["_entry"] = forced[i]
                    t["task_type"] = forced[i]["type"]
                else:
                    tt = rng.choices(list(a["types"].keys()), weights=list(a["types"].values()))[0]
                    t["task_type"] = tt
                hour = rng.uniform(6.5, 21.5)
                secs = int(hour * 3600)
                t["_dt"] = dt.datetime(day.year, day.month, day.day) + dt.timedelta(seconds=secs)
                day_tasks.append(t)
        day_tasks.sort(key=lambda t: (t["_dt"], t["agent"]))
        for t in day_tasks:
            aname, tt = t["agent"], t["task_type"]
            a = agents[aname]
            key = day.strftime("%Y%m%d")
            counters[key] = counters.get(key, 0) + 1
            t["task_id"] = "%s-%s-%04d" % (cfg["prefix"], key, counters[key])
            fe = t.get("_entry")
            # ---- retrieval -------------------------------------------------
            forced_refs = []
            # echo chambers: the author keeps pulling its own lesson
            for cid, c in chambers.items():
                if c["author"] != aname or c["type"] != tt:
                    continue
                members = [e for e in available if e["_chamber"] == cid]
                if not members:
                    continue
                must = fe is not None and fe["_chamber"] == cid and fe["role"].endswith("follower")
                if must or rng.random() < c["p_inject"]:
                    seed_e = [e for e in members if e["role"].endswith("seed")][0]
                    forced_refs.append(seed_e)
                    foll = [e for e in members if not e["role"].endswith("seed")]
                    for f in foll:
                        if rng.random() < c.get("p_follower", 0.55):
                            forced_refs.append(f)
            # self-retrieved lessons (hard negatives)
            for e in avail_by_type.get(tt, []):
                if e["_behave"] in ("self_good", "self_neutral") and e["agent"] == aname:
                    if rng.random() < float(e["extra"].get("p_self", "0.6")):
                        forced_refs.append(e)
            forced_ids = [e["id"] for e in forced_refs]
            k = a["k"] + rng.choice([-1, 0, 0, 1])
            k = max(k, len(forced_refs))
            cands, weights = [], []
            for e in available:
                if e["id"] in forced_ids:
                    continue
                w = e["_pop"]
                w *= 1.0 if e["type"] == tt else cfg.get("cross_type", 0.07)
                if e["agent"] == aname:
                    w *= 1.4
                if e["_chamber"]:
                    c = chambers[e["_chamber"]]
                    w *= 0.25 if (c["author"] == aname) else c.get("cross_agent", 0.08)
                if e["_behave"] in ("self_good", "self_neutral") and e["agent"] != aname:
                    w *= 0.3
                age = (day - e["date"]).days
                w *= 1.0 / (1.0 + age / 160.0)
                cands.append(e)
                weights.append(w)
            order = weighted_order(rng, cands, weights)
            n_more = max(0, k - len(forced_refs))
            # only retrieve what is reasonably relevant
            picked = list(forced_refs) + order[:n_more]
            # rank: forced echo lessons usually first, otherwise by score
            scored = []
            for e in picked:
                base = 0.88 if e["type"] == tt else 0.55
                if e["id"] in forced_ids:
                    base = 0.9
                scored.append((base + rng.uniform(-0.12, 0.08), e))
            scored.sort(key=lambda x: -x[0])
            injected = [e for _, e in scored]
            # ---- outcome -------------------------------------------------------
            fed_chambers = sorted({e["_chamber"] for e in injected if e["_chamber"]})
            p = cfg["base0"] + cfg["gain"] * progress + a.get("offset", 0.0) + types[tt].get("offset", 0.0)
            for cid in fed_chambers:
                if chambers[cid]["author"] == aname and chambers[cid]["type"] == tt:
                    p -= chambers[cid]["delta"]
                else:
                    p -= chambers[cid]["delta"] * 0.4
            for e in injected:
                if e["_behave"] == "self_good" and e["agent"] == aname:
                    p += 0.20
                elif e["_behave"] == "popular":
                    p += 0.15
                elif e["role"].startswith("out:"):
                    tool = e["role"].split(":", 1)[1]
                    if day >= parse_date(retired[tool]["cut_over"]):
                        p -= 0.06
            p = min(0.95, max(0.08, p))
            t["_p"] = p
            if fe is not None:
                outcome = {"decision": "success"}.get(fe["outcome"], fe["outcome"])
            else:
                r = rng.random()
                if r < p:
                    outcome = "success"
                elif r < p + (1 - p) * types[tt].get("p_partial", 0.3):
                    outcome = "partial"
                else:
                    outcome = "failure"
            t["outcome"] = outcome
            if outcome != "success":
                mode = None
                for cid in fed_chambers:
                    c = chambers[cid]
                    if c["author"] == aname and c["type"] == tt and rng.random() < 0.75:
                        mode = c["failure_mode"]
                if fe is not None and fe["extra"].get("mode"):
                    mode = fe["extra"]["mode"]
                if mode is None and rng.random() < 0.93:
                    mode = rng.choice(types[tt]["failure_modes"])
                if mode:
                    t["failure_mode"] = mode
            # ---- confidence ----------------------------------------------------
            if a.get("conf"):
                c0 = a.get("conf_base", 0.62)
                conf = c0 + 0.05 * progress + rng.gauss(0, 0.045)
                for cid in fed_chambers:
                    c = chambers[cid]
                    if c["author"] == aname and c["type"] == tt:
                        fed_count[cid] += 1
                        conf = c0 + c["conf_rise"] * min(1.0, fed_count[cid] / 45.0) + rng.gauss(0, 0.035)
                t["confidence_at_start"] = round(min(0.97, max(0.2, conf)), 2)
            else:
                for cid in fed_chambers:
                    if chambers[cid]["author"] == aname and chambers[cid]["type"] == tt:
                        fed_count[cid] += 1
            # ---- tools -----------------------------------------------------------
            tools = []
            for tool, prob in types[tt]["tools"]:
                if tool in retired:
                    info = retired[tool]
                    use = info["successor"] if day >= parse_date(info["cut_over"]) else tool
                    if rng.random() < prob:
                        tools.append(use)
                elif rng.random() < prob:
                    tools.append(tool)
            if fe is not None:
                for tool in fe["extra"].get("tools", "").split(","):
                    if tool and tool not in tools:
                        tools.append(tool)
            if not tools:
                tools.append(types[tt]["tools"][0][0] if types[tt]["tools"][0][0] not in retired else
                             (retired[types[tt]["tools"][0][0]]["successor"]
                              if day >= parse_date(retired[types[tt]["tools"][0][0]]["cut_over"])
                              else types[tt]["tools"][0][0]))
            t["tools_used"] = tools
            t["_injected"] = injected
            t["_scores"] = [round(s, 3) for s, _ in scored]
            t["_fed_chambers"] = fed_chambers
            if fe is not None:
                source_task[fe["id"]] = t
                t["reflection_ts"] = (t["_dt"] + dt.timedelta(minutes=rng.randint(3, 25))).strftime("%Y-%m-%dT%H:%M:%SZ")
            tasks.append(t)
            # retrieval time stamps
            t["_ret_dt"] = [t["_dt"] - dt.timedelta(minutes=rng.randint(6, 40), seconds=rng.randint(0, 59))
                            for _ in injected]
    return tasks, source_task


def window_ranking(tasks, refkey):
    """Top-N by retrievals in the review window; ties: most recently retrieved, then path."""
    counts, last = {}, {}
    for t in tasks:
        for e, rdt in zip(t["_injected"], t["_ret_dt"]):
            if REVIEW_START <= rdt.date() < END:
                p = refkey(e)
                counts[p] = counts.get(p, 0) + 1
                if p not in last or rdt > last[p]:
                    last[p] = rdt
    order = sorted(counts, key=lambda p: (-counts[p], -last[p].timestamp(), p))
    return order, counts, last
