#!/usr/bin/env python3
"""Generate the corpus8 workspace and its truth.json.

    python3 generate.py --seed 1 --out /work/corpus8/seed-1

Standard library only; the same seed gives the same bytes.
"""
import argparse
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import engine  # noqa: E402
import importlib  # noqa: E402

BANKS = []
for _name in ("bank_wafer_fab", "bank_municipal_permits", "bank_game_live_ops"):
    try:
        BANKS.append(importlib.import_module(_name))
    except ImportError:
        if not os.environ.get("CORPUS8_PARTIAL"):
            raise


def entry_path(e, cfg, src):
    d = e["date"]
    if e["fmt"] == "P":
        return "memory/reflections/%s/%s-%s.md" % (e["agent"], d.isoformat(), e["extra"].get("slug") or engine.slug_title(e["T"]))
    if e["fmt"] == "F":
        return "memory/reflexions/%s/%02d-%s.md" % (d.strftime("%Y-%m"), d.day, src["task_id"])
    if e["fmt"] == "E":
        return ".aiwg/ralph/reflections/ralph-%s/%03d.json" % (src["task_id"], int(e["extra"].get("iter", "0")) + 1)
    if e["fmt"] == "H":
        return "heuristics/%s.jsonl#%s" % (e["agent"], e["_sid"])
    raise ValueError(e["fmt"])


def scenario_id(seed, cfg, e):
    h = hashlib.sha256(("%s|%s|%s" % (seed, cfg["slug"], e["id"])).encode()).hexdigest()[:6]
    return "%s-%s-%s" % (cfg["sid_prefix"], e["type"].split("-")[0], h)


def behaviour_problems(cfg, entries, tasks):
    probs = []
    cs = chamber_stats(cfg, entries, tasks)
    for c in cfg["echo"]:
        st = cs[c["id"]]
        gap = 0.12 if c["strength"] == "strong" else 0.06
        if not (st["fed_success"] is not None and st["unfed_success"] is not None
                and st["fed_success"] <= st["unfed_success"] - gap):
            probs.append(c["id"])
        if st["confidence_fed_first_third"] is not None and \
                st["confidence_fed_last_third"] < st["confidence_fed_first_third"] + 0.08:
            probs.append(c["id"] + ":conf")
    for e in entries:
        b = e.get("_behave")
        if not b:
            continue
        st = lesson_stats(e, tasks)
        if b == "self_good" and not st["author_fed_success"] >= st["author_unfed_success"] + 0.08:
            probs.append(e["id"])
        if b == "popular" and not st["type_fed_success"] >= st["type_unfed_success"] + 0.05:
            probs.append(e["id"])
        if b == "self_neutral" and abs(st["author_fed_success"] - st["author_unfed_success"]) > 0.08:
            probs.append(e["id"])
    return probs


def planted_ids(entries):
    return [e["id"] for e in entries if e["role"] != "bg"]


def run_department(mod, seed):
    cfg = mod.CONFIG
    entries = engine.parse_bank(mod.BANK)
    engine.assign_dates(entries, seed, cfg["slug"])
    for e in entries:
        e["_sid"] = scenario_id(seed, cfg, e)
    boost = {}
    planted = planted_ids(entries)
    salt = 0
    for attempt in range(60):
        tasks, src = engine.simulate(cfg, entries, seed, boost, salt)
        order, counts, last = engine.window_ranking(tasks, lambda e: e["id"])
        cut = counts[order[engine.TOP_N]] if len(order) > engine.TOP_N else -1
        bad = [pid for pid in planted
               if pid not in counts or order.index(pid) >= engine.TOP_N - 8 or counts[pid] <= cut]
        if bad or len(order) <= engine.TOP_N:
            for pid in bad:
                boost[pid] = boost.get(pid, 1.0) * 1.5
            continue
        # the realised behaviour must show what was planted; otherwise draw the six months again
        if behaviour_problems(cfg, entries, tasks):
            salt += 1
            continue
        break
    else:
        raise SystemExit("%s: could not place planted items in the top %d: %s (retrieved: %d)"
                         % (cfg["slug"], engine.TOP_N, bad, len(order)))
    missing = [e["id"] for e in entries if e["id"] not in src]
    if missing:
        raise SystemExit("no source task for %s" % missing)
    for e in entries:
        e["path"] = entry_path(e, cfg, src[e["id"]])
    paths = [e["path"] for e in entries]
    if len(set(paths)) != len(paths):
        raise SystemExit("%s: duplicate source paths" % cfg["slug"])
    cfg["_draws"] = salt + 1
    return cfg, entries, tasks, src, boost


def render_all(cfg, entries, src, seed):
    """Return {file path: text} for file reflections and the heuristic lines per file."""
    rng = random.Random("%s:%s:render" % (seed, cfg["slug"]))
    files, heur = {}, {}
    by_id = {e["id"]: e for e in entries}
    for e in sorted(entries, key=lambda x: (x["date"], x["id"])):
        a = cfg["agents"][e["agent"]]
        t = src[e["id"]]
        if e["fmt"] == "P":
            files[e["path"]] = engine.render_protocol(e, a, e["date"])
        elif e["fmt"] == "F":
            files[e["path"]] = engine.render_frontmatter(e, a, e["date"], t, cfg["slug"], rng)
        elif e["fmt"] == "E":
            rel = []
            for rid in e["extra"].get("related", "").split(","):
                if rid:
                    rel.append(by_id[rid]["path"])
            files[e["path"]] = engine.render_episodic(e, a, e["date"], t, cfg["slug"],
                                                      int(e["extra"].get("iter", "0")), rng, rel)
        elif e["fmt"] == "H":
            fname = e["path"].split("#")[0]
            line = engine.render_heuristic(e, e["date"], t, cfg["slug"], e["_sid"], a.get("ts_created", False))
            heur.setdefault(fname, []).append(line)
    return files, heur


def window_stats(tasks, entries):
    order, counts, last = engine.window_ranking(tasks, lambda e: e["path"])
    return order, counts, last


def rate(xs):
    return round(sum(1 for x in xs if x == "success") / len(xs), 3) if xs else None


def chamber_stats(cfg, entries, tasks):
    out = {}
    for c in cfg["echo"]:
        seed_e = [e for e in entries if e["role"] == "echo:%s:seed" % c["id"]][0]
        fed, unfed, conf_fed = [], [], []
        for t in tasks:
            if t["agent"] != c["author"] or t["task_type"] != c["type"]:
                continue
            if t["_dt"].date() <= seed_e["date"]:
                continue
            if c["id"] in t["_fed_chambers"]:
                fed.append(t["outcome"])
                if "confidence_at_start" in t:
                    conf_fed.append((t["_dt"], t["confidence_at_start"]))
            else:
                unfed.append(t["outcome"])
        conf_fed.sort()
        third = max(1, len(conf_fed) // 3)
        first = [c_ for _, c_ in conf_fed[:third]]
        lastc = [c_ for _, c_ in conf_fed[-third:]]
        out[c["id"]] = {
            "fed_tasks": len(fed), "fed_success": rate(fed),
            "unfed_tasks": len(unfed), "unfed_success": rate(unfed),
            "confidence_fed_first_third": round(sum(first) / len(first), 3) if conf_fed else None,
            "confidence_fed_last_third": round(sum(lastc) / len(lastc), 3) if conf_fed else None,
        }
    return out


def lesson_stats(e, tasks):
    """Fed vs unfed success for the author's tasks of the lesson's type after it was written."""
    fed, unfed, others = [], [], 0
    for t in tasks:
        if t["_dt"].date() <= e["date"]:
            continue
        inj = [x["id"] for x in t["_injected"]]
        if t["agent"] == e["agent"] and t["task_type"] == e["type"]:
            (fed if e["id"] in inj else unfed).append(t["outcome"])
        elif e["id"] in inj:
            others += 1
    allfed, allunfed = [], []
    for t in tasks:
        if t["_dt"].date() <= e["date"] or t["task_type"] != e["type"]:
            continue
        (allfed if e["id"] in [x["id"] for x in t["_injected"]] else allunfed).append(t["outcome"])
    return {"author_fed": len(fed), "author_fed_success": rate(fed), "author_unfed": len(unfed),
            "author_unfed_success": rate(unfed), "retrievals_by_other_agents": others,
            "type_fed": len(allfed), "type_fed_success": rate(allfed), "type_unfed": len(allunfed),
            "type_unfed_success": rate(allunfed)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    seed = args.seed
    out = os.path.abspath(args.out)
    ws = os.path.join(out, "workspace")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(ws, "logs"))

    truth = {"window": {"start": "2026-04-01", "end": "2026-10-01"}, "departments": {},
             "review": {"quarter": "2026Q4", "window_start": "2026-07-03", "window_end": "2026-10-01"},
             "seed": seed, "details": {}}
    all_tasks, all_rets = [], []
    ref_rng = random.Random("%s:refs" % seed)
    summary = {}
    for mod in BANKS:
        cfg, entries, tasks, src, boost = run_department(mod, seed)
        slug = cfg["slug"]
        files, heur = render_all(cfg, entries, src, seed)
        for p, text in files.items():
            fp = os.path.join(ws, p)
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        for fname, lines in heur.items():
            fp = os.path.join(ws, fname)
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, "w", encoding="utf-8", newline="\n") as f:
                f.write("\n".join(lines) + "\n")
        # references used in the logs: mostly the path, sometimes a content hash or a bare scenario id
        def ref_of(e):
            r = ref_rng.random()
            if e["fmt"] == "H":
                return e["_sid"] if r < 0.3 else e["path"]
            if r < 0.05:
                return engine.sha256_text(files[e["path"]])
            return e["path"]
        for t in tasks:
            refs = [ref_of(e) for e in t["_injected"]]
            line = {"task_id": t["task_id"], "agent": t["agent"], "department": slug,
                    "task_type": t["task_type"], "finished_at": t["_dt"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "outcome": t["outcome"]}
            if "failure_mode" in t:
                line["failure_mode"] = t["failure_mode"]
            if "confidence_at_start" in t:
                line["confidence_at_start"] = t["confidence_at_start"]
            line["reflections_injected"] = refs
            line["tools_used"] = t["tools_used"]
            all_tasks.append((t["_dt"], t["task_id"], json.dumps(line, ensure_ascii=False)))
            for rank, (e, ref, rdt, sc) in enumerate(zip(t["_injected"], refs, t["_ret_dt"], t["_scores"]), 1):
                rl = {"reflection": ref, "retrieved_at": rdt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                      "task_id": t["task_id"], "agent": t["agent"]}
                if ref_rng.random() < 0.9:
                    rl["department"] = slug
                rl["rank"] = rank
                rl["score"] = round(min(0.99, max(0.05, sc)), 3)
                all_rets.append((rdt, t["task_id"], rank, json.dumps(rl, ensure_ascii=False)))

        # ---------------- truth -------------------------------------------------
        order, counts, last = window_stats(tasks, entries)
        rank_of = {p: i + 1 for i, p in enumerate(order)}
        by_role = {}
        for e in entries:
            by_role.setdefault(e["role"], []).append(e)
        dtruth = {"echo": [], "echo_followers": {}, "outdated": [], "duplicates": {}, "hard_negatives": {}}
        det = {"outdated": {}, "echo": {}, "duplicates": {}, "hard_negatives": {}, "planted_in_review_window": {}}
        cstats = chamber_stats(cfg, entries, tasks)
        for c in cfg["echo"]:
            seed_e = by_role["echo:%s:seed" % c["id"]][0]
            foll = sorted(by_role.get("echo:%s:follower" % c["id"], []), key=lambda x: (x["date"], x["id"]))
            dtruth["echo"].append(seed_e["path"])
            dtruth["echo_followers"][seed_e["path"]] = [f["path"] for f in foll]
            det["echo"][seed_e["path"]] = dict(
                chamber=c["id"], agent=c["author"], task_type=c["type"], strength=c["strength"],
                rule=c["rule"], seed_date=seed_e["date"].isoformat(),
                followers=[{"path": f["path"], "date": f["date"].isoformat(), "format": f["fmt"]} for f in foll],
                confidence_logged=bool(cfg["agents"][c["author"]].get("conf")),
                failure_mode=c["failure_mode"], **cstats[c["id"]])
        for e in sorted([e for e in entries if e["role"].startswith("out:")], key=lambda x: (x["date"], x["id"])):
            tool = e["role"].split(":", 1)[1]
            info = cfg["retired"][tool]
            dtruth["outdated"].append(e["path"])
            after = sum(1 for t in tasks for x, rdt in zip(t["_injected"], t["_ret_dt"])
                        if x["id"] == e["id"] and rdt.date() >= engine.parse_date(info["cut_over"]))
            det["outdated"][e["path"]] = {"tool": tool, "cut_over": info["cut_over"], "successor": info["successor"],
                                          "tool_phrases": info["phrases"], "written": e["date"].isoformat(),
                                          "retrievals_after_cut_over": after, "note": e["N"]}
        groups = {}
        for e in entries:
            if e["role"].startswith("dup:"):
                groups.setdefault(e["role"].split(":", 1)[1], []).append(e)
        for gid in sorted(groups):
            mem = sorted(groups[gid], key=lambda x: (x["date"], x["id"]))
            if len(set(m["date"] for m in mem)) != len(mem):
                raise SystemExit("duplicate group %s has two members on one day" % gid)
            name = "%s-%s" % (slug, gid.lower())
            dtruth["duplicates"][name] = [m["path"] for m in mem]
            det["duplicates"][name] = {"keep": mem[0]["path"], "note": mem[0]["N"],
                                       "members": [{"path": m["path"], "agent": m["agent"], "format": m["fmt"],
                                                    "date": m["date"].isoformat()} for m in mem]}
        for e in sorted([e for e in entries if e["role"].startswith("hn:")], key=lambda x: (x["date"], x["id"])):
            kind = e["role"].split(":", 1)[1]
            dtruth["hard_negatives"].setdefault(kind, []).append(e["path"])
            d = {"kind": kind, "agent": e["agent"], "format": e["fmt"], "date": e["date"].isoformat(), "note": e["N"]}
            if e["_behave"]:
                d["behaviour"] = e["_behave"]
                d.update(lesson_stats(e, tasks))
            if e["extra"].get("like"):
                d["resembles"] = [x["path"] for x in entries if x["id"] in e["extra"]["like"].split(",")]
            det["hard_negatives"][e["path"]] = d
        cut = counts[order[engine.TOP_N]] if len(order) > engine.TOP_N else 0
        for e in sorted([e for e in entries if e["role"] != "bg"], key=lambda x: x["path"]):
            det["planted_in_review_window"][e["path"]] = {"rank": rank_of.get(e["path"]),
                                                          "retrievals": counts.get(e["path"], 0)}
        truth["departments"][slug] = dtruth
        truth["details"][slug] = det
        summary[slug] = {
            "reflections": len(entries), "tasks": len(tasks),
            "retrievals": sum(len(t["_injected"]) for t in tasks),
            "retrieved_in_window": len(order), "count_at_rank_101": cut,
            "worst_planted_rank": max(rank_of[e["path"]] for e in entries if e["role"] != "bg"),
            "formats": {f: sum(1 for e in entries if e["fmt"] == f) for f in "PFEH"},
            "boosted": len(boost), "draws": cfg["_draws"],
        }
    all_tasks.sort()
    all_rets.sort()
    with open(os.path.join(ws, "logs", "tasks.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(x[2] + "\n" for x in all_tasks))
    with open(os.path.join(ws, "logs", "retrievals.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(x[3] + "\n" for x in all_rets))
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(truth, f, indent=2, ensure_ascii=False, sort_keys=False)
        f.write("\n")
    for slug, s in summary.items():
        print(slug, json.dumps(s, sort_keys=True))


if __name__ == "__main__":
    main()
