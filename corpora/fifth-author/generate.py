#!/usr/bin/env python3
"""Synthetic Reflexion memory corpus with planted memory rot and known truth.

python3 generate.py --seed 1 --out DIR  ->  DIR/workspace/..., DIR/truth.json
Stdlib only, deterministic for a given seed.
"""
import argparse
import datetime as dt
import json
import math
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import render  # noqa: E402
import extra_cores  # noqa: E402
import world_claims  # noqa: E402
import world_pay  # noqa: E402
import world_sec  # noqa: E402

WORLDS = [world_sec, world_pay, world_claims]
START = dt.date(2026, 4, 1)
END = dt.date(2026, 10, 1)          # exclusive
REVIEW_START = dt.date(2026, 7, 3)
QUARTER = "2026Q4"
MODELS = ["claude-sonnet-4-5", "gpt-4.1", "claude-haiku-4-5", "gemini-2.5-pro"]
REDRAWS = {}
TOP_MARGIN = 90                     # planted items must rank at or above this


def d(s):
    return dt.date.fromisoformat(s)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Refl:
    __slots__ = ("key", "dept", "agent", "task_type", "core", "role", "pop", "planned", "created",
                 "created_ts", "path", "fmt", "outcome", "meta", "source_task", "text", "ref")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


# ---------------------------------------------------------------------------------------------
def build_specs(world, rng, boosts):
    """All reflections to be written in a department, before simulation (unattached)."""
    specs = []
    agents = world.AGENTS
    by_type = {}
    for a, (fmt, types, _, _) in sorted(agents.items()):
        for t, w in types.items():
            by_type.setdefault(t, []).append((a, w))
    # ordinary cores: spread over the window
    all_cores = extra_cores.merged_cores(world.DEPT, world.CORES)
    for t in sorted(all_cores):
        cores = list(all_cores[t])
        rng.shuffle(cores)
        n = len(cores)
        for i, c in enumerate(cores):
            frac = (i + rng.random()) / n
            frac = frac ** 1.15
            day = START + dt.timedelta(days=int(2 + frac * 150))
            authors = by_type[t]
            a = rng.choices([x for x, _ in authors], weights=[w for _, w in authors])[0]
            key = f"{world.PREFIX}-ord-{t}-{i:02d}"
            specs.append(Refl(key=key, dept=world.DEPT, agent=a, task_type=t, core=render.parse_core(c),
                              role="ordinary", pop=math.exp(rng.gauss(0, 0.8)) * boosts.get(key, 1.0),
                              planned=day, meta={}))
    for e in world.ECHO:
        specs.append(Refl(key=e["key"], dept=world.DEPT, agent=e["agent"], task_type=e["task_type"],
                          core=render.parse_core(e["core"]), role="echo_seed", pop=1.2 * boosts.get(e["key"], 1.0),
                          planned=d(e["date"]), meta=dict(e)))
        for j, (fd, fc) in enumerate(e["followers"]):
            k = f"{e['key']}-f{j + 1}"
            specs.append(Refl(key=k, dept=world.DEPT, agent=e["agent"], task_type=e["task_type"],
                              core=render.parse_core(fc), role="echo_follower", pop=1.2 * boosts.get(k, 1.0),
                              planned=d(fd), meta={"seed": e["key"], "delta": e["delta"]}))
    retired = {r[0]: r for r in world.RETIRED}
    for o in world.OUTDATED:
        r = retired[o["tool"]]
        specs.append(Refl(key=o["key"], dept=world.DEPT, agent=o["agent"], task_type=o["task_type"],
                          core=render.parse_core(o["core"]), role="outdated", pop=1.4 * boosts.get(o["key"], 1.0),
                          planned=d(o["date"]),
                          meta={"tool": o["tool"], "spelling": o["spelling"], "successor": r[1], "cut_over": r[2]}))
    for g in world.DUPLICATES:
        for j, (a, md, mc) in enumerate(g["members"]):
            k = f"{g['name']}-{j}"
            specs.append(Refl(key=k, dept=world.DEPT, agent=a, task_type=g["task_type"],
                              core=render.parse_core(mc), role="duplicate", pop=(1.3 if j == 0 else 1.5) * boosts.get(k, 1.0),
                              planned=d(md), meta={"group": g["name"], "index": j}))
    for j, h in enumerate(world.HARD_NEGATIVES):
        k = f"{world.PREFIX}-hn-{j:02d}-{h['kind']}"
        specs.append(Refl(key=k, dept=world.DEPT, agent=h["agent"], task_type=h["task_type"],
                          core=render.parse_core(h["core"]), role="hn:" + h["kind"],
                          pop=(1.6 if h["kind"] in ("popular_effective", "bad_luck") else 1.3) * boosts.get(k, 1.0),
                          planned=d(h["date"]), meta=dict(h)))
    for s in sorted(specs, key=lambda x: x.key):
        s.core["_task_type"] = s.task_type
        s.meta["want_fail"] = rng.random() < (0.5 if s.role == "echo_follower" else 0.75)
        if s.role == "outdated":
            s.meta["want_fail"] = False
    return specs


def build_tasks(world, rng):
    tasks = []
    nag = len(world.AGENTS)
    per_agent = 6.4 / nag
    seq = {}
    day = START
    while day < END:
        wk = day.weekday()
        for a, (fmt, types, logs_conf, voice) in sorted(world.AGENTS.items()):
            lam = per_agent * (1.0 if wk < 5 else 0.3)
            n = 0
            # poisson
            L, p = math.exp(-lam), 1.0
            while True:
                p *= rng.random()
                if p <= L:
                    break
                n += 1
            for _ in range(n):
                tt = rng.choices(sorted(types), weights=[types[t] for t in sorted(types)])[0]
                start = dt.datetime.combine(day, dt.time(0)) + dt.timedelta(minutes=rng.randint(7 * 60, 19 * 60))
                dur = dt.timedelta(minutes=rng.randint(12, 95))
                tasks.append({"agent": a, "task_type": tt, "start": start, "finish": start + dur, "day": day})
        day += dt.timedelta(days=1)
    tasks.sort(key=lambda x: (x["finish"], x["agent"]))
    for t in tasks:
        k = t["finish"].strftime("%Y%m%d")
        seq[k] = seq.get(k, 0) + 1
        t["task_id"] = f"{world.PREFIX}-{k}-{seq[k]:04d}"
    return tasks


def wsample(rng, items, weights, k):
    items, weights = list(items), list(weights)
    out = []
    for _ in range(min(k, len(items))):
        tot = sum(weights)
        if tot <= 0:
            break
        x = rng.random() * tot
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if x <= acc:
                break
        out.append(items.pop(i))
        weights.pop(i)
    return out


def simulate(world, seed, boosts, attempt=0):
    rng = random.Random(f"{seed}-{world.DEPT}-{attempt}")
    specs = build_specs(world, rng, boosts)
    tasks = build_tasks(world, rng)
    retired = world.RETIRED
    echo_by_key = {e["key"]: e for e in world.ECHO}
    pending = sorted(specs, key=lambda s: (s.planned, s.key))
    store = []
    badluck_uses = {}
    total_days = (END - START).days
    for t in tasks:
        a, tt, day = t["agent"], t["task_type"], t["day"]
        fmt, types, logs_conf, voice = world.AGENTS[a]
        frac = (day - START).days / total_days
        cands = [r for r in store if r.created < day]
        forced = []
        excluded = set()
        for r in cands:
            if r.role == "echo_seed" and r.agent == a and r.task_type == tt:
                excluded.add(r.key)
                if rng.random() < r.meta["p_inject"]:
                    forced.append(r)
            elif r.role == "hn:bad_luck" and r.agent == a:
                excluded.add(r.key)
                if r.task_type == tt and badluck_uses.get(r.key, 0) < 3:
                    badluck_uses[r.key] = badluck_uses.get(r.key, 0) + 1
                    forced.append(r)
                    t["bad_luck"] = True
            elif r.role == "hn:popular_effective" and r.agent == a and r.task_type == tt:
                excluded.add(r.key)
                if rng.random() < r.meta["p_self"]:
                    forced.append(r)
        pool, weights = [], []
        for r in cands:
            if r.key in excluded:
                continue
            w = r.pop
            w *= 1.0 if r.task_type == tt else 0.04
            if r.agent == a:
                w *= 2.0
                if r.role == "echo_follower" and r.task_type == tt:
                    w *= 3.0
            age = (day - r.created).days
            w *= 1.0 / (1.0 + age / 110.0)
            pool.append(r)
            weights.append(w)
        k = rng.choice([3, 3, 4, 4, 5])
        chosen = forced + wsample(rng, pool, weights, max(0, k - len(forced)))
        rng.shuffle(chosen)
        n_extra = rng.choice([0, 0, 0, 1, 1, 2])
        rest_pool = [(r, w) for r, w in zip(pool, weights) if r not in chosen]
        extra = wsample(rng, [r for r, _ in rest_pool], [w for _, w in rest_pool], n_extra)
        t["injected"] = chosen
        t["extra"] = extra
        # outcome
        ps = 0.64 + 0.15 * frac + rng.gauss(0, 0.0)
        ps += {"A": 0.0, "B": 0.02, "C": -0.02, "D": 0.01}[fmt]
        conf_boost = 0.0
        for r in chosen:
            if r.role == "echo_seed":
                if r.agent == a:
                    ps -= r.meta["delta"]
                    conf_boost += r.meta["conf_boost"]
                else:
                    ps -= r.meta["delta"] * 0.4
            elif r.role == "echo_follower":
                e = echo_by_key[r.meta["seed"]]
                ps -= e["delta"] * (0.35 if r.agent == a else 0.25)
                if r.agent == a:
                    conf_boost += e["conf_boost"] * 0.5
            elif r.role == "hn:popular_effective":
                ps += r.meta["lift"]
                conf_boost += 0.03
            elif r.role == "hn:bad_luck" and r.agent != a:
                ps += 0.06          # a sound lesson: it helps the others who retrieve it
            elif r.role == "outdated" and day >= d(r.meta["cut_over"]):
                ps -= 0.06
        ps = min(0.95, max(0.08, ps))
        u = rng.random()
        if t.get("bad_luck"):
            outcome = "failure" if u < 0.75 else "partial"
        elif u < ps:
            outcome = "success"
        elif rng.random() < 0.4:
            outcome = "partial"
        else:
            outcome = "failure"
        t["outcome"] = outcome
        t["failure_mode"] = None if outcome == "success" else rng.choice(world.FAILURE_MODES[tt])
        if logs_conf:
            c = 0.58 + 0.08 * frac + rng.gauss(0, 0.085) + conf_boost
            t["conf"] = round(min(0.97, max(0.2, c)), 2)
        else:
            t["conf"] = None
        # tools
        tools = sorted(rng.sample(world.TOOLS[tt], rng.choice([1, 2, 2, 3])))
        for old, new, cut, ttypes in retired:
            if tt in ttypes:
                cutd = d(cut)
                if day < cutd:
                    if rng.random() < 0.75:
                        tools.append(old)
                    if (cutd - day).days <= 14 and rng.random() < 0.15:
                        tools.append(new)
                else:
                    if rng.random() < 0.75:
                        tools.append(new)
        t["tools"] = tools
        # attach pending reflections to this task
        for s in list(pending):
            if s.agent != a or s.task_type != tt or s.planned > day:
                continue
            if s.role == "echo_follower":
                seed_inj = any(r.key == s.meta["seed"] for r in chosen)
                if not seed_inj and (day - s.planned).days < 25:
                    continue
            if outcome == "success" and s.meta.get("want_fail") and (day - s.planned).days < 12:
                continue
            if s.role == "outdated":
                if s.meta["tool"] not in t["tools"]:
                    t["tools"].append(s.meta["tool"])
            if s.role == "hn:bad_luck" and outcome == "success" and (day - s.planned).days < 10:
                pass
            pending.remove(s)
            s.source_task = t
            s.outcome = outcome
            s.created_ts = t["finish"] + dt.timedelta(minutes=rng.randint(4, 55))
            s.created = s.created_ts.date()
            store.append(s)
            t.setdefault("wrote", []).append(s)
            break
        t["tools"] = sorted(set(t["tools"]))
    for r in store:
        if r.role == "outdated":
            assert r.created < d(r.meta["cut_over"]), (r.key, r.created)
        if r.role in ("hn:retired_history", "hn:successor_tool"):
            cuts = [d(x[2]) for x in world.RETIRED if r.task_type in x[3]]
            assert all(r.created >= c for c in cuts), (r.key, r.created)
    return specs, tasks, store, pending


def window_ranking(tasks):
    cnt, last = {}, {}
    for t in tasks:
        if t["day"] < REVIEW_START or t["day"] >= END:
            continue
        for r in t["injected"] + t["extra"]:
            cnt[r.key] = cnt.get(r.key, 0) + 1
            last[r.key] = max(last.get(r.key, t["start"]), t["start"])
    order = sorted(cnt, key=lambda k: (-cnt[k], -last[k].timestamp(), k))
    return order, cnt


def planted_keys(store):
    return [r.key for r in store if r.role != "ordinary"]


def design_checks(world, tasks, store):
    """The properties the truth promises; a draw that misses one is redrawn (deterministically)."""
    problems = []
    by = {r.key: r for r in store}

    def rate(ts):
        return sum(t["outcome"] == "success" for t in ts) / max(1, len(ts))

    def mconf(ts):
        c = [t["conf"] for t in ts if t["conf"] is not None]
        return sum(c) / len(c) if c else None

    for e in world.ECHO:
        s = by[e["key"]]
        later = [t for t in tasks if t["day"] > s.created]
        inj, no = injected_stats(later, s.key, e["agent"], e["task_type"])
        margin = 0.10 if e["delta"] >= 0.25 else 0.03
        if not rate(inj) < rate(no) - margin:
            problems.append(f"echo {s.key}: success {rate(inj):.2f} vs {rate(no):.2f}")
        if e["conf_boost"] > 0 and world.AGENTS[e["agent"]][2] and not mconf(inj) > mconf(no):
            problems.append(f"echo {s.key}: confidence")
    for r in store:
        if r.role == "hn:popular_effective":
            later = [t for t in tasks if t["day"] > r.created]
            inj, no = injected_stats(later, r.key, r.agent, r.task_type)
            inj_all, no_all = injected_stats([t for t in later if t["task_type"] == r.task_type], r.key)
            if not (rate(inj) > rate(no) + 0.05 and rate(inj_all) > rate(no_all)):
                problems.append(f"popular {r.key}")
        if r.role == "hn:bad_luck":
            later = [t for t in tasks if t["day"] > r.created]
            others = [t for t in later if t["agent"] != r.agent and any(x.key == r.key for x in t["injected"])]
            base = rate([t for t in later if t["task_type"] == r.task_type])
            if abs(rate(others) - base) > 0.10:
                problems.append(f"bad_luck {r.key}: others {rate(others):.2f} vs {base:.2f}")
    return problems


def run_world(world, seed):
    boosts = {}
    problems = []
    for attempt in range(40):
        specs, tasks, store, pending = simulate(world, seed, boosts, attempt)
        if pending:
            problems = [f"unattached {[x.key for x in pending]}"]
            continue
        order, cnt = window_ranking(tasks)
        rank = {k: i + 1 for i, k in enumerate(order)}
        bad = [k for k in planted_keys(store) if rank.get(k, 10 ** 6) > TOP_MARGIN]
        problems = design_checks(world, tasks, store)
        if not bad and not problems:
            REDRAWS[world.DEPT] = {"attempt": attempt, "popularity_boosts": dict(sorted(boosts.items()))}
            return specs, tasks, store, order, cnt
        for k in bad:
            boosts[k] = boosts.get(k, 1.0) * 1.4
    raise SystemExit(f"{world.DEPT}: could not meet the design: {bad} {problems}")


# ---------------------------------------------------------------------------------------------
def assign_paths_and_render(world, store, seed):
    rng = random.Random(f"render-{seed}-{world.DEPT}")
    files = {}            # relpath -> text
    heur = {}             # relpath -> list of (created, line)
    used_a = set()
    models = {a: MODELS[i % len(MODELS)] for i, a in enumerate(sorted(world.AGENTS))}
    secondary_B = {}
    for r in sorted(store, key=lambda r: (r.created_ts, r.key)):
        fmt, types, logs_conf, voice = world.AGENTS[r.agent]
        # format-A agents write their first two ordinary reflections in front-matter format too
        if fmt == "A" and r.role == "ordinary" and secondary_B.get(r.agent, 0) < 2:
            secondary_B[r.agent] = secondary_B.get(r.agent, 0) + 1
            fmt = "B"
        r.fmt = fmt
        t = r.source_task
        date = r.created.isoformat()
        conf = t["conf"]
        if fmt == "A":
            words, text, kind = render.render_A(r.agent, voice, date, r.core, r.outcome, rng)
            w = list(words)
            name = "-".join(w)
            n = 2
            while (r.agent, date, name) in used_a:
                name = "-".join(w[:4] + [str(n)])
                n += 1
            used_a.add((r.agent, date, name))
            r.path = f"memory/reflections/{r.agent}/{date}-{name}.md"
            r.meta["kind"] = kind
            files[r.path] = text
        elif fmt == "B":
            retired_names = {x[0] for x in world.RETIRED}
            skills = sorted(x for x in set(t["tools"]) if x not in retired_names or r.role == "outdated")[:3]
            sal = None if rng.random() < 0.6 else round(rng.uniform(0.3, 0.9), 2)
            text = render.render_B(r.agent, voice, world.DEPT, date, r.core, r.outcome, conf,
                                   models[r.agent], skills, rng, sal)
            r.path = f"memory/reflexions/{date[:7]}/{date[8:10]}-{t['task_id']}.md"
            assert r.path not in files, r.path
            files[r.path] = text
        elif fmt == "C":
            loop = t["task_id"]
            r.path = f".aiwg/ralph/reflections/{loop}/001.json"
            assert r.path not in files
            files[r.path] = render.render_C(r.agent, voice, world.DEPT, iso(r.created_ts), 1, r.core, r.outcome,
                                            conf, t["failure_mode"] or "none", rng)
        else:
            fname = f"heuristics/{r.agent}.jsonl"
            sid = f"{r.agent.split('-')[0]}-{t['task_id']}"
            line = render.render_D(r.agent, voice, world.DEPT, date, sid, r.core, r.outcome, rng)
            heur.setdefault(fname, []).append((r.created_ts, line))
            r.path = f"{fname}#{sid}"
        r.ref = r.path
    for fname, lines in heur.items():
        lines.sort(key=lambda x: x[0])
        files[fname] = "\n".join(line for _, line in lines) + "\n"
    return files


def write_logs(all_tasks):
    tl, rl = [], []
    for world, tasks in all_tasks:
        for t in tasks:
            rec = {"task_id": t["task_id"], "agent": t["agent"], "department": world.DEPT,
                   "task_type": t["task_type"], "finished_at": iso(t["finish"]), "outcome": t["outcome"]}
            if t["failure_mode"]:
                rec["failure_mode"] = t["failure_mode"]
            if t["conf"] is not None:
                rec["confidence_at_start"] = t["conf"]
            rec["reflections_injected"] = [r.ref for r in t["injected"]]
            rec["tools_used"] = t["tools"]
            tl.append((t["finish"], t["task_id"], json.dumps(rec, ensure_ascii=False)))
            score = 0.93 - 0.02 * (hash_unit(t["task_id"]))
            for i, r in enumerate(t["injected"] + t["extra"], 1):
                sc = round(max(0.3, score - 0.06 * i - 0.03 * hash_unit(t["task_id"] + r.key)), 3)
                rr = {"reflection": r.ref, "retrieved_at": iso(t["start"]), "task_id": t["task_id"],
                      "agent": t["agent"], "department": world.DEPT, "rank": i, "score": sc}
                rl.append((t["start"], t["task_id"], i, json.dumps(rr, ensure_ascii=False)))
    tl.sort()
    rl.sort()
    return "\n".join(x[-1] for x in tl) + "\n", "\n".join(x[-1] for x in rl) + "\n"


def hash_unit(s):
    import hashlib
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


# ---------------------------------------------------------------------------------------------
def injected_stats(tasks, key, agent=None, task_type=None):
    inj, not_inj = [], []
    for t in tasks:
        if agent and t["agent"] != agent:
            continue
        if task_type and t["task_type"] != task_type:
            continue
        (inj if any(r.key == key for r in t["injected"]) else not_inj).append(t)
    return inj, not_inj


def summarize(ts):
    n = len(ts)
    if not n:
        return {"n": 0}
    s = sum(1 for t in ts if t["outcome"] == "success")
    confs = [t["conf"] for t in ts if t["conf"] is not None]
    out = {"n": n, "success_rate": round(s / n, 3)}
    if confs:
        out["mean_confidence"] = round(sum(confs) / len(confs), 3)
    return out


def build_truth(seed, results):
    truth = {
        "window": {"start": START.isoformat(), "end": END.isoformat()},
        "review": {"quarter": QUARTER, "window_start": REVIEW_START.isoformat(), "window_end": END.isoformat()},
        "seed": seed,
        "departments": {},
        "details": {},
    }
    for world, specs, tasks, store, order, cnt in results:
        by = {r.key: r for r in store}
        rank = {k: i + 1 for i, k in enumerate(order)}
        dep = {"echo": [], "echo_followers": {}, "outdated": [], "duplicates": {}, "hard_negatives": {}}
        det = {"outdated": {}, "echo": {}, "duplicates": {}, "hard_negatives": {}, "retired_tools": [],
               "agents": {}, "review_top100_count_at_100": None, "planted_ranks": {}}
        for a, (fmt, types, lc, voice) in sorted(world.AGENTS.items()):
            det["agents"][a] = {"primary_format": fmt, "task_types": sorted(types), "logs_confidence": lc, "voice": voice}
        for old, new, cut, ttypes in world.RETIRED:
            det["retired_tools"].append({"tool": old, "successor": new, "cut_over": cut, "task_types": ttypes})
        for e in world.ECHO:
            s = by[e["key"]]
            dep["echo"].append(s.path)
            fl = [by[f"{e['key']}-f{j + 1}"].path for j in range(len(e["followers"]))]
            dep["echo_followers"][s.path] = fl
            inj, not_inj = injected_stats([t for t in tasks if t["day"] > s.created], e["key"], e["agent"], e["task_type"])
            det["echo"][s.path] = {
                "agent": e["agent"], "task_type": e["task_type"], "written": s.created.isoformat(),
                "flawed_rule": render.nodot(s.core["action"]), "trigger": s.core["trigger"],
                "design": {"p_inject": e["p_inject"], "success_penalty": e["delta"], "confidence_boost": e["conf_boost"]},
                "agent_logs_confidence": world.AGENTS[e["agent"]][2],
                "observed_author_tasks_injected": summarize(inj),
                "observed_author_tasks_not_injected": summarize(not_inj),
                "followers_written": [by[f"{e['key']}-f{j + 1}"].created.isoformat() for j in range(len(e["followers"]))],
                "followers_source_task_had_seed_injected": [
                    any(r.key == e["key"] for r in by[f"{e['key']}-f{j + 1}"].source_task["injected"])
                    for j in range(len(e["followers"]))],
            }
        for o in world.OUTDATED:
            s = by[o["key"]]
            dep["outdated"].append(s.path)
            after = sum(1 for t in tasks if t["day"] >= d(s.meta["cut_over"]) and any(r.key == s.key for r in t["injected"] + t["extra"]))
            det["outdated"][s.path] = {"tool": o["tool"], "spelling": o["spelling"], "successor": s.meta["successor"],
                                       "cut_over": s.meta["cut_over"], "written": s.created.isoformat(),
                                       "retrievals_after_cut_over": after}
        for g in world.DUPLICATES:
            members = sorted((by[f"{g['name']}-{j}"] for j in range(len(g["members"]))), key=lambda r: (r.created_ts, r.key))
            dep["duplicates"][g["name"]] = [m.path for m in members]
            det["duplicates"][g["name"]] = {"keep": members[0].path, "rule": render.nodot(members[0].core["action"]),
                                            "members": [{"path": m.path, "agent": m.agent, "written": m.created.isoformat(),
                                                         "format": m.fmt} for m in members]}
        for j, h in enumerate(world.HARD_NEGATIVES):
            k = f"{world.PREFIX}-hn-{j:02d}-{h['kind']}"
            s = by[k]
            dep["hard_negatives"].setdefault(h["kind"], []).append(s.path)
            info = {"kind": h["kind"], "agent": h["agent"], "written": s.created.isoformat()}
            if h["kind"] in ("popular_effective", "bad_luck"):
                inj, not_inj = injected_stats([t for t in tasks if t["day"] > s.created], k, h["agent"], h["task_type"])
                info["observed_author_tasks_injected"] = summarize(inj)
                info["observed_author_tasks_not_injected"] = summarize(not_inj)
                inj_all, _ = injected_stats([t for t in tasks if t["day"] > s.created], k)
                info["observed_all_tasks_injected"] = summarize(inj_all)
            det["hard_negatives"][s.path] = info
        truth["departments"][world.DEPT] = dep
        det["review_top100_count_at_100"] = cnt[order[99]] if len(order) >= 100 else None
        det["reflections_retrieved_in_review_window"] = len(order)
        det["simulation"] = REDRAWS.get(world.DEPT)
        det["planted_ranks"] = {by[k].path: rank.get(k) for k in sorted(by) if by[k].role != "ordinary"}
        truth["details"][world.DEPT] = det
    return truth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = args.out
    ws = os.path.join(out, "workspace")
    if os.path.exists(ws):
        shutil.rmtree(ws)
    results = []
    all_files = {}
    for world in WORLDS:
        specs, tasks, store, order, cnt = run_world(world, args.seed)
        files = assign_paths_and_render(world, store, args.seed)
        for p in files:
            assert p not in all_files, p
        all_files.update(files)
        results.append((world, specs, tasks, store, order, cnt))
    tlog, rlog = write_logs([(w, t) for w, _, t, _, _, _ in results])
    all_files["logs/tasks.jsonl"] = tlog
    all_files["logs/retrievals.jsonl"] = rlog
    for p in sorted(all_files):
        fp = os.path.join(ws, p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        with open(fp, "w", encoding="utf-8", newline="\n") as f:
            f.write(all_files[p])
    truth = build_truth(args.seed, results)
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, indent=2, sort_keys=False)
        f.write("\n")
    for world, specs, tasks, store, order, cnt in results:
        fmts = {}
        for r in store:
            fmts[r.fmt] = fmts.get(r.fmt, 0) + 1
        nret = sum(len(t["injected"]) + len(t["extra"]) for t in tasks)
        print(f"{world.DEPT}: reflections={len(store)} formats={dict(sorted(fmts.items()))} tasks={len(tasks)} "
              f"retrievals={nret} retrieved_in_review_window={len(order)} count_at_100={cnt[order[99]] if len(order) >= 100 else None}")


if __name__ == "__main__":
    main()
