"""Corpus 7 generator: three departments of Reflexion memory with planted truth.

usage: python generate.py --seed 1 --out /work/corpus7/seed-1

Deterministic: everything flows from random.Random(seed) instances created in a
fixed order; no set iteration, no hash(); dicts keep insertion order.
"""
import argparse
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import engine  # noqa: E402
import bank_rail  # noqa: E402
import bank_museum  # noqa: E402
import bank_crop  # noqa: E402

START = dt.date(2026, 4, 1)
END = dt.date(2026, 10, 1)          # exclusive
WIN_START = dt.date(2026, 7, 3)
WIN_END = dt.date(2026, 10, 1)      # exclusive
NDAYS = (END - START).days
DEPTS = [bank_rail.DEPT, bank_museum.DEPT, bank_crop.DEPT]

FORCED_P = {"echo": 0.88, "echof": 0.62, "hn_self": 0.85}


def d(s):
    return dt.date.fromisoformat(s)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


# ------------------------------------------------------------------ layout
def assign_dates(dept, rng):
    """Give undated bank entries a date, spread over the six months per agent."""
    by_agent = {}
    for e in dept["bank"]:
        by_agent.setdefault(e["agent"], []).append(e)
    for agent, es in by_agent.items():
        und = [e for e in es if e["date"] is None]
        n = len(und)
        for i, e in enumerate(und):
            base = 2 + int(i * 152 / max(1, n - 1)) if n > 1 else 60
            day = clamp(base + rng.randint(-3, 3), 1, 158)
            e["date"] = (START + dt.timedelta(days=day)).isoformat()


def role_kind(e):
    r = e["role"] or ""
    return r.split(":")[0] if r else ""


def role_arg(e):
    r = e["role"] or ""
    return r.split(":", 1)[1] if ":" in r else ""


# ------------------------------------------------------------------ simulation
def simulate(dept, seed, wmult):
    """Build tasks and retrievals for one department. Returns (tasks, retrievals)."""
    rng = random.Random("%d:%s:sim" % (seed, dept["slug"]))
    slug, prefix = dept["slug"], dept["prefix"]
    refl = dept["_refl"]  # list of rendered reflections (dicts) in bank order
    agents = dept["agents"]
    types = dept["types"]
    retire = dept["retire"]
    chambers = dept["chambers"]

    # source tasks keyed by date
    src_by_day = {}
    for r in refl:
        src_by_day.setdefault(r["date"], []).append(r)

    tasks, retrievals = [], []
    day_counter = {}

    def new_tid(day):
        n = day_counter.get(day, 0) + 1
        day_counter[day] = n
        return "%s-%s-%04d" % (prefix, day.strftime("%Y%m%d"), n)

    def tools_for(tt, day):
        spec = types[tt]
        used = list(spec["tools"])
        for t in spec.get("opt_tools", []):
            if rng.random() < 0.45:
                used.append(t)
        for ret in retire:
            if tt in ret["types"]:
                used.append(ret["old"] if day < d(ret["cut"]) else ret["new"])
        return used

    for di in range(NDAYS):
        day = START + dt.timedelta(days=di)
        prog = di / (NDAYS - 1)
        jobs = []
        for agent, spec in agents.items():
            rate = spec["rate"] * (0.6 if day.weekday() >= 5 else 1.0)
            n = int(rate) + (1 if rng.random() < rate - int(rate) else 0)
            for _ in range(n):
                jobs.append((agent, rng.choice(spec["types"]), None))
        for r in src_by_day.get(day.isoformat(), []):
            jobs.append((r["agent"], r["tt"], r))
        # times of day
        timed = []
        for j in jobs:
            minute = rng.randint(7 * 60, 20 * 60)
            if j[2] is not None:
                minute = 9 * 60 + (int(j[2]["_key"][-8:], 16) % (8 * 60))
            timed.append((minute, j))
        timed.sort(key=lambda x: (x[0], x[1][0], x[1][1]))
        for minute, (agent, tt, src) in timed:
            fin = dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=minute)
            dur = rng.randint(15, 110)
            startt = fin - dt.timedelta(minutes=dur)
            tid = new_tid(day)
            if src is not None:
                src["task_id"] = tid
                src["_fin"] = fin
            # ---- retrieval
            avail = [r for r in refl if d(r["date"]) < day]
            chosen = []
            for r in avail:
                k = r["_mech"]
                if k and r["agent"] == agent and r["tt"] == tt:
                    p = min(0.97, FORCED_P[k] * wmult.get(r["_key"], 1.0) ** 0.5)
                    if rng.random() < p:
                        chosen.append(r)
            kmax = rng.choice([0, 1, 1, 2, 2, 2, 3, 3])
            pool = []
            for r in avail:
                if r in chosen:
                    continue
                w = r["w"] * wmult.get(r["_key"], 1.0)
                if r["tt"] != tt:
                    w *= 0.05
                if r["_mech"] in ("echo", "echof") and r["agent"] != agent:
                    w *= 0.15
                if r["agent"] == agent:
                    w *= 1.4
                pool.append([r, w])
            while len(chosen) < kmax and pool:
                tot = sum(w for _, w in pool)
                if tot <= 0:
                    break
                x = rng.random() * tot
                acc = 0.0
                for i, (r, w) in enumerate(pool):
                    acc += w
                    if acc >= x:
                        chosen.append(r)
                        pool.pop(i)
                        break
            # ---- outcome
            p = 0.62 + 0.22 * prog + 0.03 * min(len(chosen), 2)
            mode = None
            echo_hit = None
            for r in chosen:
                if r["_mech"] in ("echo", "echof") and r["agent"] == agent:
                    echo_hit = r
                if r["_mech"] == "hn_self":
                    p += 0.1
            stale = [r for r in chosen if r["_out"] and day >= d(r["_out"]["cut"])]
            if echo_hit:
                p -= 0.38
            if stale:
                p -= 0.15
            spec = agents[agent]
            if src is not None:
                outcome = src["outcome"]
            else:
                x = rng.random()
                outcome = "success" if x < p else ("partial" if x < p + (1 - p) * 0.45 else "failure")
            if outcome != "success":
                if src is not None and src.get("fm"):
                    mode = src["fm"]
                elif echo_hit and rng.random() < 0.8:
                    mode = chambers[echo_hit["_chamber"]]["mode"]
                elif stale and rng.random() < 0.7:
                    mode = types[tt]["stale_mode"]
                else:
                    modes = types[tt]["modes"]
                    # early on failures repeat known modes; later ones are more often novel
                    if rng.random() < 0.75 - 0.5 * prog:
                        mode = modes[min(int(rng.random() ** 2 * len(modes)), len(modes) - 1)]
                    else:
                        mode = "%s-%s" % (tt.split("-")[0], rng.choice(types[tt]["novel"]))
            task = {"task_id": tid, "agent": agent, "department": slug, "task_type": tt,
                    "finished_at": iso(fin), "outcome": outcome}
            if mode:
                task["failure_mode"] = mode
            if spec["conf"]:
                if src is not None and src.get("conf") is not None:
                    c = src["conf"]
                elif echo_hit:
                    seed_r = echo_hit["_seed_ref"]
                    since = (day - d(seed_r["date"])).days
                    c = 0.64 + 0.29 * min(1.0, since / 110) + rng.uniform(-0.03, 0.03)
                else:
                    c = 0.5 + 0.28 * rng.random() + 0.08 * prog
                task["confidence_at_start"] = round(clamp(c, 0.05, 0.99), 2)
            refs = []
            for i, r in enumerate(chosen):
                kind = "path"
                if r["fmt"] == "D" and rng.random() < 0.5:
                    kind = "sid"
                elif r["fmt"] in ("A", "B") and rng.random() < 0.04:
                    kind = "hash"
                refs.append((r, kind))
                retrievals.append({
                    "reflection": None, "retrieved_at": iso(startt + dt.timedelta(seconds=20 + i)),
                    "task_id": tid, "agent": agent, "department": slug, "rank": i + 1,
                    "score": round(0.93 - 0.07 * i - 0.12 * rng.random(), 3),
                    "_r": r, "_kind": kind, "_path": r["_key"]})
            task["reflections_injected"] = None
            task["_refs"] = refs
            task["tools_used"] = tools_for(tt, day)
            tasks.append(task)
    return tasks, retrievals


def rank_window(refl, retrievals):
    cnt, last = {}, {}
    for x in retrievals:
        t = x["retrieved_at"][:10]
        if WIN_START.isoformat() <= t < WIN_END.isoformat():
            p = x["_path"]
            cnt[p] = cnt.get(p, 0) + 1
            if x["retrieved_at"] > last.get(p, ""):
                last[p] = x["retrieved_at"]
    order = sorted(cnt, key=lambda p: (-cnt[p], _neg(last[p]), p))
    ranks = {p: i + 1 for i, p in enumerate(order)}
    return ranks, cnt, last


def _neg(s):
    # sort key giving most recent first
    return tuple(-ord(c) for c in s)


# ------------------------------------------------------------------ rendering
def build_reflections(dept, seed, out_ws):
    rng = random.Random("%d:%s:render" % (seed, dept["slug"]))
    slug = dept["slug"]
    assign_dates(dept, rng)
    refl = []
    sal_agents = set()
    # date-ordered processing so ids and iterations are stable
    bank = sorted(dept["bank"], key=lambda e: (e["date"], e["agent"]))
    heur_lines = {}
    loops = {}
    a_names = {}
    for idx, e in enumerate(bank):
        e = dict(e)
        e["w"] = e["w"] if e["w"] is not None else round(rng.lognormvariate(0.0, 0.55), 3)
        if e["role"]:
            e["w"] = max(e["w"], 1.6)
        ag = dept["agents"][e["agent"]]
        if e["fmt"] == "A":
            if e["agent"] not in a_names:
                a_names[e["agent"]] = set()
            fn = "%s-%s.md" % (e["date"], e["slug"])
            assert len(e["slug"].split("-")) <= 5, e["slug"]
            assert fn not in a_names[e["agent"]], fn
            a_names[e["agent"]].add(fn)
            e["path"] = "memory/reflections/%s/%s" % (e["agent"], fn)
            e["text"] = engine.render_A(e, ag.get("style", "plain"))
        refl.append(e)
    dept["_refl"] = refl
    return heur_lines, loops


def finalize_paths(dept, seed):
    """Paths for B/C/D need the task id of the source task; C/D need ids."""
    rng = random.Random("%d:%s:ids" % (seed, dept["slug"]))
    slug = dept["slug"]
    heur_n = {}
    for e in dept["_refl"]:
        ag = dept["agents"][e["agent"]]
        if e["fmt"] == "B":
            day = d(e["date"])
            e["path"] = "memory/reflexions/%s/%s-%s.md" % (day.strftime("%Y-%m"), day.strftime("%d"), e["task_id"])
            e["text"] = engine.render_B(e, slug, ag.get("model", "claude-sonnet-4-5"),
                                        ag.get("salience", False))
        elif e["fmt"] == "C":
            loop = "%s-%s" % (e["agent"], e["task_id"].split("-", 1)[1])
            e["path"] = ".aiwg/ralph/reflections/%s/001.json" % loop
            ts = e["_fin"] + dt.timedelta(minutes=12)
            e["text"] = engine.render_C(e, slug, 0, iso(ts))
        elif e["fmt"] == "D":
            n = heur_n.get(e["agent"], 0) + 1
            heur_n[e["agent"]] = n
            sid = "scn_%s_%03d_%s" % (dept["prefix"], n,
                                      "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(6)))
            e["scenario_id"] = sid
            fname = "heuristics/%s.jsonl" % e["agent"]
            e["_file"] = fname
            e["path"] = "%s#%s" % (fname, sid)
            e["text"] = engine.render_D(e, slug, sid)
        e["hash"] = hashlib.sha256(e["text"].encode("utf-8")).hexdigest()


def prepare_mechanics(dept):
    chambers = dept["chambers"]
    rets = {r["key"]: r for r in dept["retire"]}
    seeds = {}
    for e in dept["_refl"]:
        k = role_kind(e)
        e["_mech"] = None
        e["_out"] = None
        e["_chamber"] = None
        if k == "echo":
            e["_mech"] = "echo"
            e["_chamber"] = role_arg(e)
            seeds[role_arg(e)] = e
        elif k == "echof":
            e["_mech"] = "echof"
            e["_chamber"] = role_arg(e)
        elif k == "hn" and role_arg(e) == "self_retrieved_good_lesson":
            e["_mech"] = "hn_self"
        elif k == "out":
            e["_out"] = rets[role_arg(e)]
    for e in dept["_refl"]:
        if e["_chamber"]:
            e["_seed_ref"] = seeds[e["_chamber"]]
            c = chambers[e["_chamber"]]
            assert e["agent"] == c["agent"] and e["tt"] == c["tt"], e["path"] if "path" in e else e["date"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    ws = os.path.join(out, "workspace")
    os.makedirs(os.path.join(ws, "logs"))

    all_tasks, all_retr = [], []
    truth = {"seed": a.seed,
             "window": {"start": "2026-04-01", "end": "2026-10-01"},
             "review": {"quarter": "2026Q4", "window_start": "2026-07-03", "window_end": "2026-10-01"},
             "departments": {}, "details": {}}
    files = {}
    heur_files = {}
    for dept in DEPTS:
        dept["bank"] = [dict(e) for e in dept["bank"]]
        build_reflections(dept, a.seed, ws)
        for e in dept["_refl"]:
            e["_key"] = id_key(e)
        prepare_mechanics(dept)
        wmult = {}
        for it in range(16):
            tasks, retr = simulate(dept, a.seed, wmult)
            ranks, cnt, last = rank_window(dept["_refl"], retr)
            planted = [e for e in dept["_refl"] if e["role"]]
            bad = [e for e in planted if ranks.get(e["_key"], 999) > 90]
            if not bad:
                break
            for e in bad:
                wmult[e["_key"]] = wmult.get(e["_key"], 1.0) * 1.6
        finalize_paths(dept, a.seed)
        for x in retr:
            r, kind = x.pop("_r"), x.pop("_kind")
            x["reflection"] = ref_of(r, kind)
            x["_path"] = r["path"]
        for tk in tasks:
            tk["reflections_injected"] = [ref_of(r, kind) for r, kind in tk.pop("_refs")]
        dept["_tasks"], dept["_retr"] = tasks, retr
        ranks, cnt, last = rank_window(dept["_refl"], retr)
        dept["_ranks"], dept["_cnt"] = ranks, cnt
        truth["departments"][dept["slug"]], truth["details"][dept["slug"]] = make_truth(dept)
        for e in dept["_refl"]:
            if e["fmt"] == "D":
                heur_files.setdefault(e["_file"], []).append(e["text"])
            else:
                files[e["path"]] = e["text"]
        all_tasks += tasks
        all_retr += retr

    for p in sorted(files):
        fp = os.path.join(ws, p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        with open(fp, "w", encoding="utf-8", newline="\n") as f:
            f.write(files[p])
    for p in sorted(heur_files):
        fp = os.path.join(ws, p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        with open(fp, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(heur_files[p]) + "\n")
    all_tasks.sort(key=lambda t: (t["finished_at"], t["task_id"]))
    all_retr.sort(key=lambda r: (r["retrieved_at"], r["task_id"], r["rank"]))
    with open(os.path.join(ws, "logs", "tasks.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for t in all_tasks:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    with open(os.path.join(ws, "logs", "retrievals.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for r in all_retr:
            r = {k: v for k, v in r.items() if not k.startswith("_")}
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(truth, indent=2, ensure_ascii=False) + "\n")
    n_refl = sum(len(dp["_refl"]) for dp in DEPTS)
    print("reflections %d, tasks %d, retrievals %d" % (n_refl, len(all_tasks), len(all_retr)))
    for dp in DEPTS:
        planted = [e for e in dp["_refl"] if e["role"]]
        worst = max(dp["_ranks"].get(e["path"], 999) for e in planted)
        print("  %-22s refl %3d  retrieved-in-window %3d  planted %2d  worst planted rank %d" % (
            dp["slug"], len(dp["_refl"]), len(dp["_cnt"]), len(planted), worst))


def ref_of(r, kind):
    if kind == "sid":
        return r["scenario_id"]
    if kind == "hash":
        return r["hash"]
    return r["path"]


def id_key(e):
    return "%s-%s-%s" % (e["date"], e["tt"], hashlib.sha256(json.dumps(
        {k: v for k, v in e.items() if not k.startswith("_") and k not in ("w", "path")},
        sort_keys=True, default=str).encode()).hexdigest()[:10])


def make_truth(dept):
    refl = dept["_refl"]
    ranks, cnt = dept["_ranks"], dept["_cnt"]
    t = {"echo": [], "echo_followers": {}, "outdated": [], "duplicates": {}, "hard_negatives": {}}
    det = {"outdated": {}, "echo_chambers": {}, "duplicates": {}, "hard_negatives": {},
           "retired_tools": dept["retire"], "ranks": {}, "agents": {},
           "counts": {"reflections": len(refl), "retrieved_in_window": len(cnt),
                      "tasks": len(dept["_tasks"]), "retrievals": len(dept["_retr"])}}
    for ag, spec in dept["agents"].items():
        det["agents"][ag] = {"format": spec["fmt"], "logs_confidence": spec["conf"],
                             "task_types": spec["types"]}
    by_chamber = {}
    dups = {}
    for e in refl:
        k, arg = role_kind(e), role_arg(e)
        if not k:
            continue
        det["ranks"][e["path"]] = {"rank": ranks.get(e["path"]), "window_retrievals": cnt.get(e["path"], 0),
                                   "role": e["role"], "agent": e["agent"], "created": e["date"],
                                   "format": e["fmt"]}
        if k == "echo":
            by_chamber.setdefault(arg, {"seed": None, "followers": []})["seed"] = e
        elif k == "echof":
            by_chamber.setdefault(arg, {"seed": None, "followers": []})["followers"].append(e)
        elif k == "out":
            rt = [r for r in dept["retire"] if r["key"] == arg][0]
            t["outdated"].append(e["path"])
            det["outdated"][e["path"]] = {"tool": rt["old"], "cut_over": rt["cut"],
                                          "replaced_by": rt["new"], "created": e["date"]}
        elif k == "dup":
            dups.setdefault(arg, []).append(e)
        elif k == "hn":
            t["hard_negatives"].setdefault(arg, []).append(e["path"])
            det["hard_negatives"][e["path"]] = {"kind": arg, "note": e.get("note") or ""}
    for cid, c in by_chamber.items():
        s = c["seed"]
        t["echo"].append(s["path"])
        fl = sorted(c["followers"], key=lambda x: x["date"])
        t["echo_followers"][s["path"]] = [f["path"] for f in fl]
        ch = dept["chambers"][cid]
        # measured effect of the flaw on the author's tasks that were injected with it
        inj = [x for x in dept["_tasks"] if x["agent"] == ch["agent"] and x["task_type"] == ch["tt"]
               and any(r in (s["path"], s["hash"]) for r in x["reflections_injected"])]
        other = [x for x in dept["_tasks"] if x["task_type"] == ch["tt"] and x not in inj
                 and x["finished_at"][:10] > s["date"]]
        sr = lambda xs: round(sum(1 for x in xs if x["outcome"] == "success") / len(xs), 3) if xs else None
        det["echo_chambers"][s["path"]] = {"chamber": cid, "agent": ch["agent"], "task_type": ch["tt"],
                                           "flaw": ch["flaw"], "failure_mode": ch["mode"],
                                           "followers": t["echo_followers"][s["path"]],
                                           "injected_tasks": len(inj),
                                           "success_rate_injected": sr(inj),
                                           "success_rate_same_type_others": sr(other)}
    for gid in sorted(dups, key=lambda g: (len(g), g)):
        g = sorted(dups[gid], key=lambda x: (x["date"], x["path"]))
        t["duplicates"][gid] = [x["path"] for x in g]
        det["duplicates"][gid] = {"lesson": dept["dup_notes"].get(gid, ""),
                                  "members": [{"path": x["path"], "agent": x["agent"], "format": x["fmt"],
                                               "created": x["date"]} for x in g]}
    return t, det


if __name__ == "__main__":
    main()
