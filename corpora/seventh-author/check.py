"""Independent consistency check of a generated corpus (reads only the output).

usage: python check.py /work/corpus7/seed-1
"""
import datetime as dt
import hashlib
import json
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed-1")
ws = os.path.join(root, "workspace")
truth = json.load(open(os.path.join(root, "truth.json"), encoding="utf-8"))
errors = []


def err(msg):
    errors.append(msg)


# ---------------------------------------------------------------- reflections on disk
refl = {}      # path -> {"dept", "agent", "date", "text"}
alias = {}     # any reference -> path
for dirpath, dirnames, filenames in os.walk(ws):
    dirnames.sort()
    for fn in sorted(filenames):
        full = os.path.join(dirpath, fn)
        rel = os.path.relpath(full, ws).replace(os.sep, "/")
        if rel.startswith("logs/"):
            continue
        text = open(full, encoding="utf-8").read()
        if rel.startswith("heuristics/"):
            for line in text.splitlines():
                o = json.loads(line)
                p = "%s#%s" % (rel, o["scenario_id"])
                refl[p] = {"dept": o["department"], "agent": o["agent"], "date": o["created_at"][:10],
                           "text": o["analysis"] + " " + o["guideline"]["trigger"] + " " + o["guideline"]["action"]}
                alias[o["scenario_id"]] = p
                alias[hashlib.sha256(line.encode()).hexdigest()] = p
            continue
        info = {"text": text}
        if rel.startswith("memory/reflections/"):
            info["agent"] = rel.split("/")[2]
            info["date"] = fn[:10]
        elif rel.startswith("memory/reflexions/"):
            m = re.search(r"^agent: (.+)$", text, re.M)
            info["agent"] = m.group(1).strip()
            ym = rel.split("/")[2]
            info["date"] = "%s-%s" % (ym, fn[:2])
            info["dept"] = re.search(r"^department: (.+)$", text, re.M).group(1).strip()
        else:
            o = json.loads(text)
            info["agent"], info["date"], info["dept"] = o["agent"], o["timestamp"][:10], o["department"]
        refl[rel] = info
        alias[hashlib.sha256(text.encode()).hexdigest()] = rel
for p in refl:
    alias[p] = p
agent_dept = {}
for p, i in refl.items():
    if "dept" in i:
        agent_dept[i["agent"]] = i["dept"]
for p, i in refl.items():
    if "dept" not in i:
        i["dept"] = agent_dept.get(i["agent"])
        if i["dept"] is None:
            err("no department derivable for protocol agent %s" % i["agent"])

# ---------------------------------------------------------------- logs
tasks = [json.loads(x) for x in open(os.path.join(ws, "logs", "tasks.jsonl"), encoding="utf-8")]
retr = [json.loads(x) for x in open(os.path.join(ws, "logs", "retrievals.jsonl"), encoding="utf-8")]
task_by_id = {t["task_id"]: t for t in tasks}
if len(task_by_id) != len(tasks):
    err("duplicate task ids")
for t in tasks:
    if not ("2026-04-01" <= t["finished_at"][:10] < "2026-10-01"):
        err("task outside window %s" % t["task_id"])
    for r in t["reflections_injected"]:
        if r not in alias:
            err("task %s injects unknown reference %s" % (t["task_id"], r))
ws_, we = truth["review"]["window_start"], truth["review"]["window_end"]
cnt, last = {}, {}
for x in retr:
    if x["reflection"] not in alias:
        err("retrieval of unknown reference %s" % x["reflection"])
        continue
    p = alias[x["reflection"]]
    if x["task_id"] not in task_by_id:
        err("retrieval for unknown task %s" % x["task_id"])
    elif x["retrieved_at"] > task_by_id[x["task_id"]]["finished_at"]:
        err("retrieval after task finished %s" % x["task_id"])
    if x["retrieved_at"][:10] <= refl[p]["date"]:
        err("retrieval before/at creation %s %s" % (p, x["retrieved_at"]))
    if ws_ <= x["retrieved_at"][:10] < we:
        cnt[p] = cnt.get(p, 0) + 1
        last[p] = max(last.get(p, ""), x["retrieved_at"])

ranks = {}
for dept in truth["departments"]:
    ps = [p for p in cnt if refl[p]["dept"] == dept]
    ps.sort(key=lambda p: (-cnt[p], tuple(-ord(c) for c in last[p]), p))
    for i, p in enumerate(ps):
        ranks[p] = i + 1
    if len(ps) <= 100:
        err("%s: only %d reflections retrieved in window" % (dept, len(ps)))
    print("%-20s reflections %3d  retrieved in window %3d" % (
        dept, sum(1 for i in refl.values() if i["dept"] == dept), len(ps)))

# ---------------------------------------------------------------- truth
seen = {}
for dept, t in truth["departments"].items():
    det = truth["details"][dept]
    items = []
    for s in t["echo"]:
        items.append((s, "echo"))
        fl = t["echo_followers"].get(s, [])
        if not 1 <= len(fl) <= 3:
            err("echo %s has %d followers" % (s, len(fl)))
        for f in fl:
            items.append((f, "echo_follower"))
            if refl.get(f, {}).get("agent") != refl.get(s, {}).get("agent"):
                err("follower %s not by seed author" % f)
            if refl.get(f, {}).get("date", "") <= refl.get(s, {}).get("date", "~"):
                err("follower %s not after seed" % f)
        ec = det["echo_chambers"][s]
        if not (ec["success_rate_injected"] < ec["success_rate_same_type_others"]):
            err("echo %s: injected tasks not worse than others" % s)
        ag = refl[s]["agent"]
        own = [x for x in retr if alias.get(x["reflection"]) == s]
        if sum(1 for x in own if x["agent"] == ag) < 0.8 * len(own):
            err("echo %s is not mainly self-retrieved" % s)
    for p in t["outdated"]:
        items.append((p, "outdated"))
        o = det["outdated"][p]
        tool, cut = o["tool"], o["cut_over"]
        if not cut < we:
            err("cut-over %s not before window end" % cut)
        used_old = [x["finished_at"][:10] for x in tasks if x["department"] == dept and tool in x.get("tools_used", [])]
        used_new = [x["finished_at"][:10] for x in tasks if x["department"] == dept and o["replaced_by"] in x.get("tools_used", [])]
        if not used_old or max(used_old) >= cut:
            err("%s still used on/after cut-over" % tool)
        if not used_new or min(used_new) < cut:
            err("%s used before cut-over" % o["replaced_by"])
        stem = re.sub(r"[-_ ]?v?\d+$", "", tool).lower()
        words = re.sub(r"[^a-z0-9]", "", refl[p]["text"].lower())
        if re.sub(r"[^a-z0-9]", "", stem) not in words:
            err("outdated %s does not name %s" % (p, tool))
        if refl[p]["date"] >= cut:
            err("outdated lesson %s written after cut-over" % p)
        if not any(alias.get(x["reflection"]) == p and x["retrieved_at"][:10] >= cut for x in retr):
            err("outdated %s not retrieved after cut-over" % p)
    for gid, g in t["duplicates"].items():
        if not 2 <= len(g) <= 4:
            err("dup group %s size %d" % (gid, len(g)))
        dates = [refl[p]["date"] for p in g]
        if dates[0] != min(dates) or dates.count(dates[0]) > 1:
            err("dup group %s: first is not the unique earliest" % gid)
        items += [(p, "duplicate") for p in g]
    for kind, ps in t["hard_negatives"].items():
        items += [(p, "hn:" + kind) for p in ps]
    for p, role in items:
        if p not in refl:
            err("truth path missing on disk: %s" % p)
            continue
        if refl[p]["dept"] != dept:
            err("%s belongs to %s not %s" % (p, refl[p]["dept"], dept))
        if p in seen:
            err("%s listed twice (%s, %s)" % (p, seen[p], role))
        seen[p] = role
        r = ranks.get(p, 999)
        if r > 100:
            err("%s (%s) rank %s > 100" % (p, role, r))
        rec = det["ranks"].get(p, {}).get("rank")
        if rec != r:
            err("%s recorded rank %s, recomputed %s" % (p, rec, r))
    n = {k: len(v) for k, v in t.items() if k != "echo_followers"}
    n["followers"] = sum(len(v) for v in t["echo_followers"].values())
    n["hard_negatives"] = sum(len(v) for v in t["hard_negatives"].values())
    n["dup_members"] = sum(len(v) for v in t["duplicates"].values())
    print("  truth:", json.dumps(n))

print("tasks %d, retrievals %d, reflections %d" % (len(tasks), len(retr), len(refl)))
if errors:
    print("FAILED: %d problem(s)" % len(errors))
    for e in errors[:50]:
        print("  -", e)
    sys.exit(1)
print("OK")
