#!/usr/bin/env python3
"""Synthetic held-out corpus for Reflexion Review (corpus6).

python3 generate.py --seed N --out DIR  ->  DIR/workspace/..., DIR/truth.json
Standard library only; deterministic for a given seed.
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
import content_ta  # noqa: E402
import content_ph  # noqa: E402
import content_gr  # noqa: E402
import render  # noqa: E402

MODULES = [m for m in (content_ta, content_ph, content_gr) if m]
START = dt.date(2026, 4, 1)
LAST = dt.date(2026, 9, 30)
WIN_START = dt.datetime(2026, 7, 3)
WIN_END = dt.datetime(2026, 10, 1)
NDAYS = (LAST - START).days + 1
MODELS = ["claude-sonnet-4-5", "gpt-4.1", "claude-haiku-4-5", "gpt-4o", "llama-3.3-70b", "mistral-large-2"]


def parse_core(line):
    parts = [p.strip() for p in line.split("|")]
    c = {"kind": parts[0], "title": parts[1], "summary": parts[2], "wrong": parts[3],
         "cause": parts[4], "trig": parts[5], "act": parts[6]}
    c["alt"] = parts[7] if len(parts) > 7 else None
    return c


def d2s(d):
    return d.strftime("%Y-%m-%d")


def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Dept:
    def __init__(self, mod, seed, boosts):
        self.mod = mod
        self.D = mod.DEPT
        self.slug = self.D["slug"]
        self.rng = random.Random(f"{seed}-{self.slug}")
        self.boosts = boosts  # key -> factor
        self.agents = {a["name"]: a for a in self.D["agents"]}
        for i, a in enumerate(self.D["agents"]):
            a["model"] = MODELS[(i + len(self.slug)) % len(MODELS)]
        self.bank = {t: [parse_core(l) for l in txt.strip().splitlines() if l.strip()] for t, txt in mod.BANK.items()}
        self.retired = [dict(r, cut=dt.date.fromisoformat(r["cut_over"])) for r in self.D["retired"]]

    # ------------------------------------------------------------ schedule
    def schedule(self):
        rng = self.rng
        tasks = []
        type_off = {t: rng.uniform(-0.04, 0.04) for t in self.D["types"]}
        agent_off = {a: rng.uniform(-0.03, 0.03) for a in self.agents}
        self.type_off, self.agent_off = type_off, agent_off
        for di in range(NDAYS):
            day = START + dt.timedelta(days=di)
            weekend = day.weekday() >= 5
            todays = []
            for a in self.D["agents"]:
                rate = a["rate"] * (0.45 if weekend else 1.12)
                u = rng.random()
                n = 0
                if u < rate:
                    n = 1
                    if rng.random() < 0.18:
                        n = 2
                for _ in range(n):
                    types, ws = zip(*a["types"].items())
                    t = rng.choices(types, weights=ws)[0]
                    minute = rng.randint(8 * 60, 17 * 60 + 30)
                    dur = rng.randint(15, 95)
                    fin = dt.datetime(day.year, day.month, day.day) + dt.timedelta(minutes=minute, seconds=rng.randint(0, 59))
                    todays.append({"agent": a["name"], "type": t, "finished": fin, "start": fin - dt.timedelta(minutes=dur), "day": day})
            todays.sort(key=lambda x: (x["finished"], x["agent"]))
            for i, tk in enumerate(todays):
                tk["task_id"] = f"{self.D['prefix']}-{day.strftime('%Y%m%d')}-{i + 1:04d}"
                tk["tools"] = self.tools_for(tk)
                tasks.append(tk)
        self.tasks = tasks

    def tools_for(self, tk):
        rng = self.rng
        t = tk["type"]
        out = []
        for r in self.retired:
            if t in r["types"]:
                out.append(r["tool"] if tk["day"] < r["cut"] else r["successor"])
        pool = list(self.D["types"][t]["tools"])
        k = rng.choice([1, 2, 2, 3])
        for x in rng.sample(pool, min(k, len(pool))):
            if x not in out:
                out.append(x)
        rare = self.D["rare"]
        if t == rare["type"] and rng.random() < rare["p"]:
            out.append(rare["tool"])
        return out

    # ------------------------------------------------------------ planning
    def plan(self):
        P = self.mod.PLANTED
        items = []
        for ch in P["echo"]:
            s = ch["seed"]
            items.append({"role": "echo_seed", "chamber": ch["id"], "agent": ch["author"], "type": ch["type"],
                          "date": s["date"], "fmt": s.get("fmt"), "core": parse_core(s["core"]), "pop": 0.35})
            for j, f in enumerate(ch["followers"]):
                items.append({"role": "echo_follower", "chamber": ch["id"], "agent": ch["author"], "type": ch["type"],
                              "date": f["date"], "fmt": f.get("fmt"), "core": parse_core(f["core"]), "pop": 0.35, "fidx": j})
        for o in P["outdated"]:
            items.append({"role": "outdated", "tool": o["tool"], "agent": o["agent"], "type": o["type"], "date": o["date"],
                          "fmt": o.get("fmt"), "core": parse_core(o["core"]), "pop": 2.3})
        for gid, mem in P["dups"].items():
            for j, m in enumerate(mem):
                items.append({"role": "dup", "group": gid, "gidx": j, "agent": m["agent"], "type": m["type"], "date": m["date"],
                              "fmt": m.get("fmt"), "core": parse_core(m["core"]), "pop": 2.0})
        for j, h in enumerate(P["hn"]):
            beh = h.get("behaviour")
            pop = {"popular": 0.8, "popular_mild": 1.6, "self_good": 0.6}.get(beh, 2.0)
            items.append({"role": "hn", "kind": h["kind"], "behaviour": beh, "hidx": j, "agent": h["agent"], "type": h["type"],
                          "date": h["date"], "fmt": h.get("fmt"), "core": parse_core(h["core"]), "pop": pop, "tool": h.get("tool")})
        for it in items:
            if it["type"] not in self.agents[it["agent"]]["types"]:
                raise SystemExit(f"{self.slug}: {it['agent']} does not do {it['type']}")
            if it.get("fmt") and it["fmt"] not in (self.agents[it["agent"]]["main"], self.agents[it["agent"]]["second"]):
                raise SystemExit(f"{self.slug}: {it['agent']} does not write format {it['fmt']} ({it['core']['title']})")
            it["key"] = self.item_key(it)
            it["date"] = dt.date.fromisoformat(it["date"])
        items.sort(key=lambda x: (x["date"], x["key"]))
        self.planned = items
        self.chambers = {ch["id"]: ch for ch in P["echo"]}

    @staticmethod
    def item_key(it):
        r = it["role"]
        if r in ("echo_seed",):
            return f"{it['chamber']}/seed"
        if r == "echo_follower":
            return f"{it['chamber']}/f{it['fidx']}"
        if r == "outdated":
            return f"outdated/{it['tool']}/{it['core']['title']}"
        if r == "dup":
            return f"{it['group']}/{it['gidx']}"
        return f"hn/{it['hidx']}"

    # ------------------------------------------------------------ simulation
    def simulate(self):
        rng = random.Random(f"sim-{self.rng.random()}")
        self.srng = rng
        self.refl = []
        self.by_key = {}
        self.retrievals = []
        pending = list(self.planned)
        used_tasks = set()
        bank_pos = {t: {"f": [c for c in cs if c["kind"] == "f"], "s": [c for c in cs if c["kind"] in ("s", "d")]}
                    for t, cs in self.bank.items()}
        remaining_by_type = {}
        for tk in self.tasks:
            remaining_by_type[tk["type"]] = remaining_by_type.get(tk["type"], 0) + 1
        fed_count = {cid: 0 for cid in self.chambers}
        self.acc = {}
        self.authors_types = {}
        for ch in self.chambers.values():
            self.authors_types.setdefault(ch["author"], set()).add(ch["type"])
        fmt_count = {a: {} for a in self.agents}
        self.loops = {}
        self.a_paths = set()
        by_day = {}
        for tk in self.tasks:
            by_day.setdefault(tk["day"], []).append(tk)
        for di in range(NDAYS):
            day = START + dt.timedelta(days=di)
            todays = by_day.get(day, [])
            prog = di / (NDAYS - 1)
            for tk in todays:
                remaining_by_type[tk["type"]] -= 1
                self.inject(tk, day, rng)
                self.outcome(tk, prog, rng, fed_count)
            # planned reflections due today
            for it in list(pending):
                if it["date"] > day:
                    continue
                cands = [tk for tk in todays if tk["agent"] == it["agent"] and tk["type"] == it["type"] and tk["task_id"] not in used_tasks]
                if it["role"] == "echo_follower":
                    cands = [tk for tk in cands if tk.get("fed_chamber") == it["chamber"]]
                if it["role"] == "outdated":
                    cut = [r["cut"] for r in self.retired if r["tool"] == it["tool"]][0]
                    if day >= cut - dt.timedelta(days=3):
                        raise SystemExit(f"{self.slug}: outdated item {it['key']} could not be placed before cut-over")
                if it.get("tool"):
                    pass
                if not cands:
                    continue
                want = self.want_outcome(it, rng)
                cands.sort(key=lambda tk: (0 if tk["outcome"] in want else 1, tk["finished"]))
                tk = cands[0]
                if tk["outcome"] not in want:
                    tk["outcome"] = want[0]
                    self.fix_failure_mode(tk, rng)
                if it.get("tool") and it["tool"] not in tk["tools"]:
                    tk["tools"].append(it["tool"])
                used_tasks.add(tk["task_id"])
                pending.remove(it)
                self.create(it["core"], tk, it["fmt"], it, rng, fmt_count)
            # background reflections
            for tk in todays:
                if tk["task_id"] in used_tasks:
                    continue
                t = tk["type"]
                ns = tk["outcome"] != "success"
                pool = bank_pos[t]["f" if ns else "s"]
                if not pool:
                    continue
                est_left = max(1.0, remaining_by_type[t] * (0.27 if ns else 0.7))
                p = min(0.95, 1.25 * len(pool) / est_left)
                if di < 5:
                    p *= 0.5
                if tk["outcome"] == "partial" and self.agents[tk["agent"]]["main"] in ("C", "D"):
                    p *= 0.3  # these formats cannot hold a partial; such agents rarely switch format for one

                if rng.random() < p:
                    core = pool.pop(0)
                    used_tasks.add(tk["task_id"])
                    self.create(core, tk, None, {"role": "background", "pop": math.exp(rng.gauss(-0.15, 0.55))}, rng, fmt_count)
        self.unplaced = [it["key"] for it in pending]
        self.bank_left = bank_pos

    def want_outcome(self, it, rng):
        k = it["core"]["kind"]
        if k in ("s", "d"):
            return ["success"]
        fmt = it["fmt"] or self.agents[it["agent"]]["main"]
        if fmt in ("C", "D"):
            return ["failure"]
        return ["failure", "partial"] if rng.random() < 0.55 else ["partial", "failure"]

    def fix_failure_mode(self, tk, rng):
        if tk["outcome"] == "failure":
            if not tk.get("failure_mode"):
                tk["failure_mode"] = rng.choice(self.D["types"][tk["type"]]["modes"])
        else:
            tk.pop("failure_mode", None)

    def inject(self, tk, day, rng):
        agent, t = tk["agent"], tk["type"]
        cands = [r for r in self.refl if r["day"] < day]
        forced = []
        fed = None
        for cid, ch in self.chambers.items():
            seed = self.by_key.get(f"{cid}/seed")
            if not seed or seed["day"] >= day or t != ch["type"]:
                continue
            if agent == ch["author"]:
                if rng.random() < ch["p_fed"]:
                    forced.append(seed)
                    fed = cid
                    for j in range(len(ch["followers"])):
                        f = self.by_key.get(f"{cid}/f{j}")
                        if f and f["day"] < day and rng.random() < min(0.95, 0.55 * self.boosts.get(f["key"], 1.0)):
                            forced.append(f)
                else:
                    for j in range(len(ch["followers"])):
                        f = self.by_key.get(f"{cid}/f{j}")
                        if f and f["day"] < day and rng.random() < 0.08:
                            forced.append(f)
                            fed = cid
            else:
                if rng.random() < ch["p_col"] * self.boosts.get(seed["key"], 1.0):
                    forced.append(seed)
                    fed = cid
        for r in cands:
            beh = r.get("behaviour")
            b = self.boosts.get(r["key"], 1.0)
            if beh == "popular" and rng.random() < 0.2 * b:
                forced.append(r)
            elif beh == "self_good" and t == r["type"]:
                if (agent == r["agent"] and rng.random() < 0.8) or (agent != r["agent"] and rng.random() < 0.06 * b):
                    forced.append(r)
        seen = set()
        forced = [r for r in forced if not (r["path"] in seen or seen.add(r["path"]))]
        k = rng.choice([2, 3, 3, 3, 4, 4, 5])
        rest = [r for r in cands if r["path"] not in seen]
        weights = []
        for r in rest:
            w = r["pop"] * self.boosts.get(r["key"], 1.0)
            w *= 1.0 if r["type"] == t else 0.05
            if r["agent"] == agent:
                w *= 1.25
            age = (day - r["day"]).days
            w *= 1.0 / (1.0 + age / 150.0)
            if r["role"] == "echo_seed" or r["role"] == "echo_follower":
                w *= 0.5
            weights.append(w)
        chosen = list(forced[:6])
        need = max(0, k - len(chosen))
        rest = list(rest)
        while need > 0 and rest:
            tot = sum(weights)
            if tot <= 0:
                break
            u = rng.random() * tot
            acc = 0
            for i, w in enumerate(weights):
                acc += w
                if acc >= u:
                    break
            chosen.append(rest.pop(i))
            weights.pop(i)
            need -= 1
        # ranking: forced echo items first, then others by a noisy score
        tk["injected"] = [r["path"] for r in chosen]
        tk["inj_refs"] = chosen
        tk["fed_chamber"] = fed
        base = dt.timedelta(seconds=rng.randint(5, 50))
        for i, r in enumerate(chosen):
            when = tk["start"] + base + dt.timedelta(seconds=i)
            score = round(max(0.3, 0.93 - 0.06 * i - rng.uniform(0, 0.04)), 3)
            self.retrievals.append({"reflection": r["path"], "retrieved_at": when, "task_id": tk["task_id"], "agent": agent,
                                    "department": self.slug, "rank": i + 1, "score": score})
            r["retrieved"].append((when, agent, tk["task_id"]))

    def outcome(self, tk, prog, rng, fed_count):
        p = 0.67 + 0.2 * prog + self.type_off[tk["type"]] + self.agent_off[tk["agent"]]
        good = 0
        for r in tk["inj_refs"]:
            beh = r.get("behaviour")
            if beh in ("popular", "self_good"):
                good += 1
            if r["role"] == "outdated":
                tool = r["tool"]
                cut = [x["cut"] for x in self.retired if x["tool"] == tool][0]
                if tk["day"] >= cut:
                    p -= 0.04
        p += min(good, 2) * 0.09
        cid = tk["fed_chamber"]
        if cid:
            p -= self.chambers[cid]["delta"]
            if tk["agent"] == self.chambers[cid]["author"]:
                fed_count[cid] += 1
        p = max(0.05, min(0.97, p))
        # feedback keeps each group's realised success near its expected rate (less small-sample noise)
        if cid and tk["agent"] == self.chambers[cid]["author"]:
            g = ("fed", cid)
        elif tk["agent"] in self.authors_types and tk["type"] in self.authors_types[tk["agent"]]:
            g = ("unfed", tk["agent"], tk["type"])
        else:
            g = ("type", tk["type"], tk["day"].month)
        acc = self.acc.setdefault(g, [0.0, 0])
        q = max(0.02, min(0.98, p + 0.6 * (acc[0] - acc[1])))
        acc[0] += p
        u = rng.random()
        if u < q:
            acc[1] += 1
            tk["outcome"] = "success"
        else:
            tk["outcome"] = "partial" if rng.random() < 0.4 else "failure"
        if tk["outcome"] == "failure":
            modes = self.D["types"][tk["type"]]["modes"]
            if cid and rng.random() < 0.75:
                tk["failure_mode"] = self.chambers[cid]["mode"]
            else:
                tk["failure_mode"] = rng.choice(modes)
        a = self.agents[tk["agent"]]
        if a["conf"]:
            c = rng.gauss(0.6, 0.07) + 0.05 * prog
            if cid and tk["agent"] == self.chambers[cid]["author"]:
                c = 0.66 + 0.26 * min(1.0, fed_count[cid] / 30.0) + rng.gauss(0, 0.03)
            elif any(r.get("behaviour") == "self_good" and r["agent"] == tk["agent"] for r in tk["inj_refs"]):
                c += 0.05
            tk["conf"] = round(max(0.3, min(0.97, c)), 2)

    # ------------------------------------------------------------ reflections
    def choose_fmt(self, agent, core, outcome, fmt, rng, fmt_count):
        a = self.agents[agent]
        if fmt is None:
            fmt = a["main"] if rng.random() < 0.74 else a["second"]
            # protocol-main agents need a record naming their department
            if a["main"] == "A" and fmt == "A" and fmt_count[agent].get(a["second"], 0) == 0 and sum(fmt_count[agent].values()) >= 2:
                fmt = a["second"]
        if outcome == "partial" and fmt in ("C", "D"):
            fmt = "A" if "A" in (a["main"], a["second"]) else "B"
        return fmt

    def create(self, core, tk, fmt, it, rng, fmt_count):
        agent = tk["agent"]
        fmt = self.choose_fmt(agent, core, tk["outcome"], fmt, rng, fmt_count)
        created = tk["finished"] + dt.timedelta(minutes=rng.randint(8, 55), seconds=rng.randint(0, 59))
        a = self.agents[agent]
        ctx = {"dept": self.D, "agent": a, "task": tk, "core": core, "created": created, "rng": rng,
               "unit": self.D["types"][tk["type"]]["unit"], "slug": self.slug}
        if fmt == "A":
            path = render.protocol_path(ctx)
            if path in self.a_paths:
                fmt = "B"
        if fmt == "A":
            self.a_paths.add(path)
            text = render.protocol(ctx)
        elif fmt == "B":
            path = f"memory/reflexions/{created.strftime('%Y-%m')}/{created.strftime('%d')}-{tk['task_id']}.md"
            text = render.frontmatter(ctx)
        elif fmt == "C":
            loop = f"{agent}-{tk['type']}"
            n = self.loops.get(loop, 0) + 1
            self.loops[loop] = n
            path = f".aiwg/ralph/reflections/{loop}/{n:03d}.json"
            ctx["iteration"] = n - 1
            text = render.episodic(ctx)
        else:
            sid = f"{self.D['prefix']}-{agent.split('-')[0]}-{created.strftime('%Y%m%d')}-{tk['task_id'][-4:]}"
            path = f"heuristics/{self.slug}-erl.jsonl#{sid}"
            ctx["sid"] = sid
            text = render.heuristic(ctx)
        fmt_count[agent][fmt] = fmt_count[agent].get(fmt, 0) + 1
        r = {"path": path, "fmt": fmt, "text": text, "agent": agent, "type": tk["type"], "created": created, "day": created.date(),
             "task_id": tk["task_id"], "outcome": tk["outcome"], "role": it["role"], "pop": it["pop"], "retrieved": [],
             "title": core["title"]}
        for k in ("behaviour", "kind", "tool", "chamber", "group", "gidx", "fidx"):
            if k in it:
                r[k] = it[k]
        r["key"] = it.get("key", path)
        self.refl.append(r)
        self.by_key[r["key"]] = r
        return r

    # ------------------------------------------------------------ checks
    def ranks(self):
        cnt = {}
        for r in self.refl:
            ws = [w for (w, _, _) in r["retrieved"] if WIN_START <= w < WIN_END]
            if ws:
                cnt[r["path"]] = (len(ws), max(ws))
        order = sorted(cnt.items(), key=lambda kv: (-kv[1][0], -kv[1][1].timestamp(), kv[0]))
        rank = {p: i + 1 for i, (p, _) in enumerate(order)}
        return rank, cnt, order

    def planted_refl(self):
        return [r for r in self.refl if r["role"] != "background"]


def run_dept(mod, seed):
    boosts = {}
    for attempt in range(12):
        d = Dept(mod, seed, dict(boosts))
        d.schedule()
        d.plan()
        d.simulate()
        if d.unplaced:
            raise SystemExit(f"{d.slug}: unplaced planted items {d.unplaced}")
        rank, cnt, order = d.ranks()
        bad = []
        c101 = order[100][1][0] if len(order) > 100 else 0
        for r in d.planted_refl():
            rk = rank.get(r["path"], 10 ** 6)
            if rk > 92 or cnt.get(r["path"], (0,))[0] <= c101:
                bad.append(r["key"])
        if not bad and len(order) > 100:
            d.attempts = attempt + 1
            return d
        for k in bad:
            boosts[k] = boosts.get(k, 1.0) * 1.7
    left = {t: len(v["f"]) + len(v["s"]) for t, v in d.bank_left.items()}
    print("DEBUG", d.slug, "refl", len(d.refl), "bank left", left, file=sys.stderr)
    raise SystemExit(f"{mod.DEPT['slug']}: could not place planted items in top 100: {bad}, retrieved={len(order)}")


def write_all(depts, out, seed):
    ws = os.path.join(out, "workspace")
    if os.path.exists(ws):
        shutil.rmtree(ws)
    os.makedirs(os.path.join(ws, "logs"))
    heur = {}
    for d in depts:
        for r in sorted(d.refl, key=lambda r: (r["created"], r["path"])):
            if r["fmt"] == "D":
                f = r["path"].split("#")[0]
                heur.setdefault(f, []).append(r["text"])
                continue
            p = os.path.join(ws, r["path"])
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(r["text"])
    for f, lines in sorted(heur.items()):
        p = os.path.join(ws, f)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(lines) + "\n")
    tasks, rets = [], []
    for d in depts:
        for tk in d.tasks:
            o = {"task_id": tk["task_id"], "agent": tk["agent"], "department": d.slug, "task_type": tk["type"],
                 "finished_at": ts(tk["finished"]), "outcome": tk["outcome"]}
            if tk["outcome"] == "failure":
                o["failure_mode"] = tk["failure_mode"]
            if "conf" in tk:
                o["confidence_at_start"] = tk["conf"]
            o["tools_used"] = tk["tools"]
            o["reflections_injected"] = tk["injected"]
            tasks.append((tk["finished"], tk["task_id"], o))
        for rt in d.retrievals:
            o = dict(rt)
            o["retrieved_at"] = ts(rt["retrieved_at"])
            rets.append((rt["retrieved_at"], rt["task_id"], rt["rank"], o))
    tasks.sort(key=lambda x: (x[0], x[1]))
    rets.sort(key=lambda x: (x[0], x[1], x[2]))
    with open(os.path.join(ws, "logs", "tasks.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for _, _, o in tasks:
            fh.write(json.dumps(o, ensure_ascii=False) + "\n")
    with open(os.path.join(ws, "logs", "retrievals.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for *_, o in rets:
            fh.write(json.dumps(o, ensure_ascii=False) + "\n")


def stats_and_truth(depts, seed):
    truth = {"window": {"start": "2026-04-01", "end": "2026-10-01"}, "departments": {},
             "review": {"quarter": "2026Q4", "window_start": "2026-07-03", "window_end": "2026-10-01"},
             "seed": seed, "details": {}}
    for d in depts:
        rank, cnt, order = d.ranks()
        echo, foll, outdated, dups, hn = [], {}, [], {}, {}
        for cid, ch in d.chambers.items():
            s = d.by_key[f"{cid}/seed"]
            echo.append(s["path"])
            foll[s["path"]] = [d.by_key[f"{cid}/f{j}"]["path"] for j in range(len(ch["followers"]))]
        for r in d.refl:
            if r["role"] == "outdated":
                outdated.append(r["path"])
            elif r["role"] == "dup":
                dups.setdefault(r["group"], []).append(r)
            elif r["role"] == "hn":
                hn.setdefault(r["kind"], []).append(r["path"])
        dups = {g: [r["path"] for r in sorted(m, key=lambda r: r["created"])] for g, m in sorted(dups.items())}
        truth["departments"][d.slug] = {"echo": echo, "echo_followers": foll, "outdated": sorted(outdated),
                                         "duplicates": dups, "hard_negatives": {k: sorted(v) for k, v in sorted(hn.items())}}
        # details / realised figures
        chambers = []
        for cid, ch in d.chambers.items():
            seed_r = d.by_key[f"{cid}/seed"]
            items = {seed_r["path"]} | set(foll[seed_r["path"]])
            mine = [tk for tk in d.tasks if tk["agent"] == ch["author"] and tk["type"] == ch["type"] and tk["day"] > seed_r["day"]]
            fed = [tk for tk in mine if items & set(tk["injected"])]
            unfed = [tk for tk in mine if not (items & set(tk["injected"]))]
            sr = lambda xs: round(sum(1 for x in xs if x["outcome"] == "success") / len(xs), 3) if xs else None
            cf = lambda xs: round(sum(x["conf"] for x in xs) / len(xs), 3) if xs and all("conf" in x for x in xs) else None
            self_ret = sum(1 for (_, ag, _) in seed_r["retrieved"] if ag == ch["author"])
            dept_tasks = [tk for tk in d.tasks if tk["type"] == ch["type"] and tk["day"] > seed_r["day"] and tk["agent"] != ch["author"]]
            chambers.append({"id": cid, "seed": seed_r["path"], "author": ch["author"], "task_type": ch["type"],
                             "strength": ch["strength"], "flawed_rule": ch["rule"], "author_logs_confidence": d.agents[ch["author"]]["conf"],
                             "followers": len(ch["followers"]), "author_tasks_after_seed": len(mine),
                             "fed_share": round(len(fed) / len(mine), 3), "seed_retrievals": len(seed_r["retrieved"]),
                             "self_retrieval_share": round(self_ret / max(1, len(seed_r["retrieved"])), 3),
                             "fed_success": sr(fed), "unfed_success": sr(unfed), "colleagues_same_type_success": sr(dept_tasks),
                             "fed_confidence": cf(fed), "unfed_confidence": cf(unfed)})
        planted = d.planted_refl()
        ranks_planted = {r["path"]: rank.get(r["path"]) for r in planted}
        hn_stats = []
        for r in planted:
            if r["role"] != "hn":
                continue
            inj = [tk for tk in d.tasks if r["path"] in tk["injected"]]
            hn_stats.append({"path": r["path"], "kind": r["kind"], "author": r["agent"], "retrievals": len(r["retrieved"]),
                             "self_share": round(sum(1 for x in r["retrieved"] if x[1] == r["agent"]) / max(1, len(r["retrieved"])), 3),
                             "fed_success": round(sum(1 for tk in inj if tk["outcome"] == "success") / max(1, len(inj)), 3)})
        monthly = {}
        for tk in d.tasks:
            m = tk["day"].strftime("%Y-%m")
            monthly.setdefault(m, [0, 0])
            monthly[m][0] += tk["outcome"] == "success"
            monthly[m][1] += 1
        fmts = {}
        for r in d.refl:
            fmts[r["fmt"]] = fmts.get(r["fmt"], 0) + 1
        truth["details"][d.slug] = {
            "retired_tools": [{"tool": r["tool"], "successor": r["successor"], "cut_over": r["cut_over"], "task_types": r["types"]} for r in d.retired],
            "rarely_used_current_tool": d.D["rare"],
            "outdated_tools": {r["path"]: r["tool"] for r in planted if r["role"] == "outdated"},
            "echo_chambers": chambers,
            "hard_negative_stats": hn_stats,
            "agents": {a["name"]: {"main_format": a["main"], "second_format": a["second"], "logs_confidence": a["conf"],
                                    "task_types": sorted(a["types"])} for a in d.D["agents"]},
            "task_types": sorted(d.D["types"]),
            "counts": {"tasks": len(d.tasks), "reflections": len(d.refl), "retrievals": len(d.retrievals),
                       "reflections_by_format": dict(sorted(fmts.items())),
                       "retrieved_in_review_window": len(order), "planted": len(planted)},
            "monthly_success": {m: round(v[0] / v[1], 3) for m, v in sorted(monthly.items())},
            "planted_review_ranks": dict(sorted(ranks_planted.items(), key=lambda kv: kv[1])),
            "worst_planted_rank": max(ranks_planted.values()),
            "rank_101_count": order[100][1][0] if len(order) > 100 else None,
            "rank_100_count": order[99][1][0],
            "fit_attempts": d.attempts,
        }
    return truth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    depts = [run_dept(m, a.seed) for m in MODULES]
    os.makedirs(a.out, exist_ok=True)
    write_all(depts, a.out, a.seed)
    truth = stats_and_truth(depts, a.seed)
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth, fh, indent=2, ensure_ascii=False, default=str)
        fh.write("\n")
    for slug, det in truth["details"].items():
        print(slug, json.dumps(det["counts"]), "worst planted rank", det["worst_planted_rank"])


if __name__ == "__main__":
    main()
