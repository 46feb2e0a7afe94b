#!/usr/bin/env python3
"""Consistency check of a generated corpus8 output.  Reads only the output.

    python3 check.py /work/corpus8/seed-1

Prints a table of figures and exits non-zero when a check fails.
"""
import collections
import datetime as dt
import hashlib
import json
import os
import re
import sys

TOP_N = 100


def fail(msgs, m):
    msgs.append(m)


def load_reflections(ws):
    """Return {path: record} for every reflection in the workspace."""
    refl = {}
    for root, dirs, files in os.walk(ws):
        dirs.sort()
        rel_root = os.path.relpath(root, ws)
        if rel_root.startswith("logs"):
            continue
        for fn in sorted(files):
            p = os.path.normpath(os.path.join(rel_root, fn))
            text = open(os.path.join(root, fn), encoding="utf-8").read()
            if p.startswith("heuristics/"):
                for i, line in enumerate(text.splitlines(), 1):
                    o = json.loads(line)
                    refl["%s#%s" % (p, o["scenario_id"])] = {
                        "fmt": "H", "agent": o["agent"], "department": o["department"], "task_type": o["task_type"],
                        "date": o["created_at"][:10], "outcome": o["reward"], "text": line,
                        "sid": o["scenario_id"], "hash": hashlib.sha256(line.encode()).hexdigest()}
            elif p.startswith("memory/reflections/"):
                _, _, agent, name = p.split("/")
                date = name[:10]
                h1 = text.splitlines()[0]
                m = re.match(r"^# (Reflection|Procedure|Decision): (\d{4}-\d\d-\d\d) - ([^ ]+) - (.+)$", h1)
                assert m, p
                assert m.group(2) == date and m.group(3) == agent, p
                assert len(name[11:-3].split("-")) <= 5, p
                kind = m.group(1)
                if kind == "Procedure":
                    outcome = "success"
                elif kind == "Decision":
                    outcome = "decision"
                elif re.search(r"^## .*(why did it go wrong|tactical rule candidate)", text, re.M | re.I):
                    outcome = "failure"
                else:
                    outcome = "partial"
                refl[p] = {"fmt": "P", "agent": agent, "department": None, "task_type": None, "date": date,
                           "outcome": outcome, "text": text, "hash": hashlib.sha256(text.encode()).hexdigest()}
            elif p.startswith("memory/reflexions/"):
                fm = text.split("---\n")[1]
                d = {}
                for line in fm.splitlines():
                    k, v = line.split(":", 1)
                    d[k.strip()] = v.strip()
                month = p.split("/")[2]
                day = p.split("/")[3][:2]
                task_id = p.split("/")[3][3:-3]
                refl[p] = {"fmt": "F", "agent": d["agent"], "department": d["department"],
                           "task_type": d["task_type"], "date": "%s-%s" % (month, day), "outcome": d["outcome"],
                           "task_id": task_id, "text": text, "hash": hashlib.sha256(text.encode()).hexdigest()}
            elif p.startswith(".aiwg/ralph/reflections/"):
                o = json.loads(text)
                loop = p.split("/")[3]
                refl[p] = {"fmt": "E", "agent": o["agent"], "department": o["department"],
                           "task_type": o["task_type"], "date": o["timestamp"][:10],
                           "outcome": "success" if o["evaluator_output"]["passed"] else "failure",
                           "task_id": loop[len("ralph-"):], "text": text,
                           "hash": hashlib.sha256(text.encode()).hexdigest()}
            else:
                raise SystemExit("unexpected file %s" % p)
    return refl


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "seed-1"
    ws = os.path.join(out, "workspace")
    truth = json.load(open(os.path.join(out, "truth.json")))
    errs = []
    refl = load_reflections(ws)
    tasks = [json.loads(l) for l in open(os.path.join(ws, "logs", "tasks.jsonl"), encoding="utf-8")]
    rets = [json.loads(l) for l in open(os.path.join(ws, "logs", "retrievals.jsonl"), encoding="utf-8")]
    by_task = {t["task_id"]: t for t in tasks}
    if len(by_task) != len(tasks):
        fail(errs, "duplicate task ids")

    # ---- agent -> department, protocol agents named elsewhere --------------------
    agent_dept = {}
    for t in tasks:
        if agent_dept.setdefault(t["agent"], t["department"]) != t["department"]:
            fail(errs, "agent %s in two departments" % t["agent"])
    named = set()
    for p, r in refl.items():
        if r["department"]:
            named.add(r["agent"])
            if agent_dept.get(r["agent"]) != r["department"]:
                fail(errs, "%s: department differs from the task log" % p)
        r["department"] = agent_dept.get(r["agent"])
    for p, r in refl.items():
        if r["fmt"] == "P" and r["agent"] not in named:
            fail(errs, "protocol agent %s is never named with its department" % r["agent"])

    # ---- references ---------------------------------------------------------------
    resolve = {}
    for p, r in refl.items():
        resolve[p] = p
        resolve[r["hash"]] = p
        if r["fmt"] == "H":
            resolve[r["sid"]] = p

    # ---- source tasks ----------------------------------------------------------------
    idx = collections.defaultdict(list)
    for t in tasks:
        idx[(t["agent"], t["finished_at"][:10])].append(t)
    for p, r in refl.items():
        want = "success" if r["outcome"] == "decision" else r["outcome"]
        if "task_id" in r:
            t = by_task.get(r["task_id"])
            ok = t and t["agent"] == r["agent"] and t["task_type"] == r["task_type"] and \
                t["finished_at"][:10] == r["date"] and t["outcome"] == want
        else:
            ok = any(t["outcome"] == want and (r["task_type"] is None or t["task_type"] == r["task_type"])
                     for t in idx[(r["agent"], r["date"])])
        if not ok:
            fail(errs, "%s: no matching source task" % p)

    # ---- retrievals vs reflections_injected -------------------------------------
    rt = collections.defaultdict(list)
    for x in rets:
        rt[x["task_id"]].append(x)
        if x["reflection"] not in resolve:
            fail(errs, "retrieval of unknown reference %s" % x["reflection"])
    for t in tasks:
        lines = sorted(rt.get(t["task_id"], []), key=lambda x: x["rank"])
        if [x["reflection"] for x in lines] != t["reflections_injected"]:
            fail(errs, "%s: retrievals differ from reflections_injected" % t["task_id"])
        for x in lines:
            if x["agent"] != t["agent"] or x["retrieved_at"] > t["finished_at"]:
                fail(errs, "%s: retrieval agent/time inconsistent" % t["task_id"])
            p = resolve.get(x["reflection"])
            if p and refl[p]["date"] >= x["retrieved_at"][:10]:
                fail(errs, "%s: retrieved on or before the day it was written" % p)
            if p and refl[p]["department"] != t["department"]:
                fail(errs, "%s: cross-department retrieval" % p)

    # ---- review window ranking ---------------------------------------------------------
    rv = truth["review"]
    counts = collections.Counter()
    last = {}
    for x in rets:
        if rv["window_start"] <= x["retrieved_at"][:10] < rv["window_end"]:
            p = resolve[x["reflection"]]
            counts[p] += 1
            last[p] = max(last.get(p, ""), x["retrieved_at"])
    table = []
    for dept, d in truth["departments"].items():
        paths = [p for p in counts if refl[p]["department"] == dept]
        paths.sort(key=lambda p: (-counts[p], tuple(-ord(c) for c in last[p]), p))
        rank = {p: i + 1 for i, p in enumerate(paths)}
        planted = list(d["echo"]) + [f for fs in d["echo_followers"].values() for f in fs] + list(d["outdated"]) + \
            [p for g in d["duplicates"].values() for p in g] + [p for g in d["hard_negatives"].values() for p in g]
        if len(set(planted)) != len(planted):
            fail(errs, "%s: a path is planted twice" % dept)
        for p in planted:
            if p not in refl:
                fail(errs, "%s: planted path %s does not exist" % (dept, p))
            elif refl[p]["department"] != dept:
                fail(errs, "%s: %s belongs to another department" % (dept, p))
        cut = counts[paths[TOP_N]] if len(paths) > TOP_N else 0
        worst = max(rank.get(p, 10 ** 6) for p in planted)
        tied = [p for p in planted if counts[p] <= cut]
        if worst > TOP_N:
            fail(errs, "%s: planted path outside the top %d (worst rank %d)" % (dept, TOP_N, worst))
        if len(paths) <= TOP_N:
            fail(errs, "%s: only %d reflections retrieved in the review window" % (dept, len(paths)))
        n_refl = sum(1 for r in refl.values() if r["department"] == dept)
        dtasks = [t for t in tasks if t["department"] == dept]
        drets = sum(1 for x in rets if refl[resolve[x["reflection"]]]["department"] == dept)
        hn = sum(len(v) for v in d["hard_negatives"].values())
        if not 110 <= n_refl <= 140:
            fail(errs, "%s: %d reflections" % (dept, n_refl))
        if not (2 <= len(d["echo"]) <= 4 and 3 <= len(d["outdated"]) <= 4 and 4 <= len(d["duplicates"]) <= 5
                and hn >= 10):
            fail(errs, "%s: planted counts out of range" % dept)
        fmts = collections.Counter(r["fmt"] for r in refl.values() if r["department"] == dept)
        if len(fmts) != 4:
            fail(errs, "%s: not all four formats" % dept)
        table.append((dept, n_refl, len(dtasks), drets, len(paths), len(planted), worst, cut, len(tied),
                      dict(sorted(fmts.items()))))

        # ---- echo chambers -----------------------------------------------------
        for seed in d["echo"]:
            fol = d["echo_followers"].get(seed, [])
            s = refl[seed]
            for f in fol:
                if refl[f]["agent"] != s["agent"] or refl[f]["date"] <= s["date"]:
                    fail(errs, "%s: follower %s not a later reflection by the same author" % (dept, f))
            if not 0 <= len(fol) <= 3:
                fail(errs, "%s: follower count" % seed)
            members = {seed, *fol}
            ttype = truth["details"][dept]["echo"][seed]["task_type"]
            fed, unfed, conf = [], [], []
            own = 0
            total = 0
            for t in dtasks:
                refs = {resolve[x] for x in t["reflections_injected"]}
                if refs & members:
                    total += 1
                    own += t["agent"] == s["agent"]
                if t["agent"] != s["agent"] or t["task_type"] != ttype or t["finished_at"][:10] <= s["date"]:
                    continue
                if refs & members:
                    fed.append(t["outcome"] == "success")
                    if "confidence_at_start" in t:
                        conf.append(t["confidence_at_start"])
                else:
                    unfed.append(t["outcome"] == "success")
            fr, ur = sum(fed) / max(1, len(fed)), sum(unfed) / max(1, len(unfed))
            if not fr < ur:
                fail(errs, "%s: fed success %.2f not below unfed %.2f" % (seed, fr, ur))
            if own / max(1, total) < 0.8:
                fail(errs, "%s: author share of its retrievals only %.2f" % (seed, own / max(1, total)))
            if conf and not (sum(conf[-10:]) / len(conf[-10:]) > sum(conf[:10]) / len(conf[:10])):
                fail(errs, "%s: confidence does not rise" % seed)
            if s["agent"] and any(refl[f]["agent"] != s["agent"] for f in fol):
                fail(errs, "%s: follower by another agent" % seed)

        # ---- outdated ------------------------------------------------------------
        for p in d["outdated"]:
            info = truth["details"][dept]["outdated"][p]
            tool, cut_over, succ = info["tool"], info["cut_over"], info["successor"]
            before = [t for t in dtasks if t["finished_at"][:10] < cut_over]
            after = [t for t in dtasks if t["finished_at"][:10] >= cut_over]
            if any(tool in t["tools_used"] for t in after) or not any(tool in t["tools_used"] for t in before):
                fail(errs, "%s: %s does not stop at %s" % (p, tool, cut_over))
            if any(succ in t["tools_used"] for t in before) or not any(succ in t["tools_used"] for t in after):
                fail(errs, "%s: %s does not take over at %s" % (p, succ, cut_over))
            if refl[p]["date"] >= cut_over:
                fail(errs, "%s: written after the cut-over" % p)
            txt = refl[p]["text"].lower()
            if not any(ph.lower() in txt for ph in info["tool_phrases"]):
                fail(errs, "%s: does not name the tool" % p)
            n_after = sum(1 for x in rets if resolve[x["reflection"]] == p and x["retrieved_at"][:10] >= cut_over)
            if n_after < 5:
                fail(errs, "%s: retrieved only %d times after the cut-over" % (p, n_after))
        # retired tools named only where truth says so
        retired = {v["tool"]: v for v in truth["details"][dept]["outdated"].values()}
        history = set(d["hard_negatives"].get("retired_tool_mentioned_as_history", []))
        for p, r in refl.items():
            if r["department"] != dept:
                continue
            low = r["text"].lower()
            for tool, v in retired.items():
                named_old = any(ph.lower() in low for ph in v["tool_phrases"])
                if named_old and p not in d["outdated"] and p not in history:
                    fail(errs, "%s names retired %s but is not planted as outdated" % (p, tool))
                if v["successor"].replace("-", " ") in low.replace("-", " ") or \
                        v["successor"].replace("-", "") in low.replace(" ", ""):
                    if r["date"] < v["cut_over"]:
                        fail(errs, "%s names successor %s before its cut-over" % (p, v["successor"]))

        # ---- duplicates -----------------------------------------------------------
        for gid, mem in d["duplicates"].items():
            if not 2 <= len(mem) <= 4:
                fail(errs, "%s: group size" % gid)
            dates = [refl[p]["date"] for p in mem]
            if dates != sorted(dates) or len(set(dates)) != len(dates):
                fail(errs, "%s: not ordered earliest first" % gid)

    # ---- tasks look ----------------------------------------------------------------------
    for t in tasks:
        for k in ("task_id", "agent", "department", "task_type", "finished_at", "outcome",
                  "reflections_injected", "tools_used"):
            if k not in t:
                fail(errs, "%s: missing %s" % (t["task_id"], k))
        if not ("2026-04-01" <= t["finished_at"][:10] < "2026-10-01"):
            fail(errs, "%s: outside the window" % t["task_id"])
    for x in rets:
        if not ("2026-04-01" <= x["retrieved_at"][:10] < "2026-10-01"):
            fail(errs, "retrieval outside the window")
    # nothing a scanner should find
    bad = re.compile(r"(https?://|www\.|@[a-z]|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|\b\d{3}[-. ]\d{3}[-. ]\d{4}\b|"
                     r"ignore (all |the )?previous|system prompt|<[a-z!/])", re.I)
    for p, r in refl.items():
        if bad.search(r["text"]):
            fail(errs, "%s: text a scanner would flag" % p)

    # monthly success
    month = collections.defaultdict(lambda: [0, 0])
    for t in tasks:
        k = (t["department"], t["finished_at"][:7])
        month[k][0] += 1
        month[k][1] += t["outcome"] == "success"

    print("| department | reflections | tasks | retrievals | retrieved in window | planted paths | worst planted rank | count at rank 101 | planted at or below it | formats |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(str(x) for x in row) + " |")
    print()
    for dept in truth["departments"]:
        print(dept, "success by month:",
              " ".join("%s %.2f" % (k[1][5:], v[1] / v[0]) for k, v in sorted(month.items()) if k[0] == dept))
    print()
    if errs:
        print("FAILED: %d problem(s)" % len(errs))
        for e in errs[:50]:
            print("  -", e)
        sys.exit(1)
    print("OK: all checks passed")


if __name__ == "__main__":
    main()
