#!/usr/bin/env python3
"""Independent consistency check of a generated corpus: reads only DIR/workspace and DIR/truth.json."""
import datetime as dt
import glob
import json
import os
import re
import sys

out = sys.argv[1]
ws = os.path.join(out, "workspace")
truth = json.load(open(os.path.join(out, "truth.json")))
W0, W1 = dt.datetime(2026, 7, 3), dt.datetime(2026, 10, 1)
P = lambda s: dt.datetime.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")
errors = []

# ---- reflections: path -> (agent, dept, type, created datetime/date, outcome, text)
refl = {}
for f in glob.glob(os.path.join(ws, "memory/reflections/*/*.md")):
    rel = os.path.relpath(f, ws)
    txt = open(f).read()
    m = re.match(r"# (Reflection|Procedure|Decision): (\d{4}-\d\d-\d\d) - (\S+) - ", txt)
    kind = m.group(1)
    nsec = len([h for h in re.findall(r"^## (.*)$", txt.split("# MARS")[0], re.M) if not h.startswith(("Principle", "Procedure"))])
    outcome = "success" if kind == "Procedure" else None if kind == "Decision" else ("partial" if nsec == 3 else "failure")
    refl[rel] = {"agent": m.group(3), "created": dt.datetime.fromisoformat(m.group(2)), "dateonly": True, "outcome": outcome, "text": txt}
for f in glob.glob(os.path.join(ws, "memory/reflexions/*/*.md")):
    rel = os.path.relpath(f, ws)
    txt = open(f).read()
    fm = dict(re.findall(r"^(\w+): (.*)$", txt.split("---")[1], re.M))
    ym = rel.split("/")[2]
    dd = os.path.basename(rel)[:2]
    refl[rel] = {"agent": fm["agent"], "dept": fm["department"], "type": fm["task_type"], "outcome": fm["outcome"],
                 "created": dt.datetime.fromisoformat(f"{ym}-{dd}"), "dateonly": True, "text": txt,
                 "task_id": os.path.basename(rel)[3:-3]}
for f in glob.glob(os.path.join(ws, ".aiwg/ralph/reflections/*/*.json")):
    rel = os.path.relpath(f, ws)
    o = json.load(open(f))
    refl[rel] = {"agent": o["agent"], "dept": o["department"], "type": o["task_type"],
                 "outcome": "success" if o["evaluator_output"]["passed"] else "failure",
                 "created": P(o["timestamp"]), "dateonly": False, "text": json.dumps(o)}
for f in glob.glob(os.path.join(ws, "heuristics/*.jsonl")):
    relf = os.path.relpath(f, ws)
    for line in open(f):
        o = json.loads(line)
        refl[f"{relf}#{o['scenario_id']}"] = {"agent": o["agent"], "dept": o["department"], "type": o["task_type"],
                                              "outcome": o["reward"], "created": P(o["created_at"]), "dateonly": False, "text": line}
agent_dept = {r["agent"]: r["dept"] for r in refl.values() if r.get("dept")}
for r in refl.values():
    r.setdefault("dept", agent_dept.get(r["agent"]))
    if r["dept"] is None:
        errors.append(f"no department for agent {r['agent']}")

tasks = [json.loads(l) for l in open(os.path.join(ws, "logs/tasks.jsonl"))]
rets = [json.loads(l) for l in open(os.path.join(ws, "logs/retrievals.jsonl"))]
tbyid = {t["task_id"]: t for t in tasks}

# ---- tasks in range, injections consistent with retrieval lines
for t in tasks:
    fa = P(t["finished_at"])
    if not (dt.datetime(2026, 4, 1) <= fa < W1):
        errors.append(f"task out of range {t['task_id']}")
    if (t["outcome"] == "failure") != ("failure_mode" in t):
        errors.append(f"failure_mode mismatch {t['task_id']}")
rl = {}
for r in rets:
    rl.setdefault(r["task_id"], []).append(r)
    if r["reflection"] not in refl:
        errors.append(f"retrieval of unknown {r['reflection']}")
        continue
    c = refl[r["reflection"]]["created"]
    if P(r["retrieved_at"]).date() <= c.date():
        errors.append(f"retrieved on/before creation day {r['reflection']}")
for t in tasks:
    got = [x["reflection"] for x in sorted(rl.get(t["task_id"], []), key=lambda x: x["rank"])]
    if got != t["reflections_injected"]:
        errors.append(f"injection/retrieval mismatch {t['task_id']}")

# ---- each reflection has a source task: same agent (and type when known), same day, finished before, outcome matches
used = set()
for p, r in sorted(refl.items(), key=lambda kv: (0 if "task_id" in kv[1] else 1 if not kv[1]["dateonly"] else 2, kv[1]["created"])):
    cands = [t for t in tasks if t["agent"] == r["agent"] and P(t["finished_at"]).date() == r["created"].date()
             and (r.get("type") is None or t["task_type"] == r["type"]) and t["task_id"] not in used]
    if "task_id" in r:
        cands = [t for t in cands if t["task_id"] == r["task_id"]]
    if not r["dateonly"]:
        cands = [t for t in cands if P(t["finished_at"]) < r["created"] <= P(t["finished_at"]) + dt.timedelta(hours=2)]
    ok = [t for t in cands if r["outcome"] is None or t["outcome"] == r["outcome"] or (r["outcome"] == "failure" and t["outcome"] == "failure")]
    if not ok:
        errors.append(f"no source task for {p}")
    else:
        used.add(ok[0]["task_id"])

# ---- review ranks
summary = {}
for dept, T in truth["departments"].items():
    cnt = {}
    for r in rets:
        if r["department"] != dept:
            continue
        w = P(r["retrieved_at"])
        if W0 <= w < W1:
            c = cnt.setdefault(r["reflection"], [0, w])
            c[0] += 1
            c[1] = max(c[1], w)
    order = sorted(cnt.items(), key=lambda kv: (-kv[1][0], -kv[1][1].timestamp()))
    rank = {p: i + 1 for i, (p, _) in enumerate(order)}
    c101 = order[100][1][0] if len(order) > 100 else 0
    planted = list(T["echo"]) + [p for v in T["echo_followers"].values() for p in v] + list(T["outdated"]) + \
        [p for v in T["duplicates"].values() for p in v] + [p for v in T["hard_negatives"].values() for p in v]
    if len(planted) != len(set(planted)):
        errors.append(f"{dept}: a path is planted twice")
    for p in planted:
        if p not in refl:
            errors.append(f"{dept}: truth path missing {p}")
        elif refl[p]["dept"] != dept:
            errors.append(f"{dept}: wrong dept for {p}")
        if rank.get(p, 999) > 100 or cnt.get(p, [0])[0] <= c101:
            errors.append(f"{dept}: planted {p} rank {rank.get(p)}")
    for seed, fol in T["echo_followers"].items():
        for f in fol:
            if refl[f]["agent"] != refl[seed]["agent"] or refl[f]["created"] <= refl[seed]["created"]:
                errors.append(f"{dept}: follower {f} not after seed / same author")
    for g, mem in T["duplicates"].items():
        cs = [refl[p]["created"] for p in mem]
        if cs != sorted(cs) or len(set(c.date() for c in cs)) != len(cs):
            errors.append(f"{dept}: duplicate group {g} not ordered by creation")
    det = truth["details"][dept]
    for rt in det["retired_tools"]:
        cut = dt.datetime.fromisoformat(rt["cut_over"])
        dtasks = [t for t in tasks if t["department"] == dept]
        before = [t for t in dtasks if P(t["finished_at"]) < cut]
        after = [t for t in dtasks if P(t["finished_at"]) >= cut]
        if any(rt["tool"] in t["tools_used"] for t in after):
            errors.append(f"{dept}: {rt['tool']} used after cut-over")
        if any(rt["successor"] in t["tools_used"] for t in before):
            errors.append(f"{dept}: {rt['successor']} used before cut-over")
        if not any(rt["tool"] in t["tools_used"] for t in before):
            errors.append(f"{dept}: {rt['tool']} never used")
    for p in T["outdated"]:
        tool = det["outdated_tools"][p]
        cut = dt.datetime.fromisoformat([x for x in det["retired_tools"] if x["tool"] == tool][0]["cut_over"])
        if refl[p]["created"] >= cut:
            errors.append(f"{dept}: outdated {p} written after cut-over")
        n_after = sum(1 for r in rets if r["reflection"] == p and P(r["retrieved_at"]) >= cut)
        if n_after < 3:
            errors.append(f"{dept}: outdated {p} barely retrieved after cut-over")
    rare = det["rarely_used_current_tool"]["tool"]
    rare_uses = [P(t["finished_at"]) for t in tasks if t["department"] == dept and rare in t["tools_used"]]
    fmt = {}
    for p, r in refl.items():
        if r["dept"] == dept:
            k = "A" if p.startswith("memory/reflections/") else "B" if p.startswith("memory/reflexions/") else "C" if p.startswith(".aiwg") else "D"
            fmt.setdefault(r["agent"], {}).setdefault(k, 0)
            fmt[r["agent"]][k] += 1
    summary[dept] = {"reflections": sum(1 for r in refl.values() if r["dept"] == dept),
                     "tasks": sum(1 for t in tasks if t["department"] == dept),
                     "retrieved_in_window": len(order), "rank100_count": order[99][1][0], "rank101_count": c101,
                     "planted": len(planted), "worst_planted_rank": max(rank[p] for p in planted),
                     "rare_tool_uses": len(rare_uses), "rare_tool_last_use": str(max(rare_uses).date()) if rare_uses else None,
                     "formats_by_agent": fmt}

print(json.dumps(summary, indent=1))
print(f"{len(refl)} reflections, {len(tasks)} tasks, {len(rets)} retrievals")
print("ERRORS:" if errors else "OK: no errors")
for e in errors[:50]:
    print(" ", e)
sys.exit(1 if errors else 0)
