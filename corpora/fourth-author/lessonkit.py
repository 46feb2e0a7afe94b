"""Tiny helper to write lesson records compactly.

A lesson record is format-neutral; generate.py renders it as format A, B, C or D.
kind: F failure, P partial, S success, D decision.
h  what happened (for S: the strategy; for D: the decision)
w  what went wrong (for D: the alternatives)
y  why (root cause / why it worked / why chosen)
r  what to do next time (the rule)
k  trigger, "When ..." (used as the heuristic trigger and in tactical rules)
"""

REQUIRED = {"F": ("h", "w", "y", "r", "k"), "P": ("h", "w", "r", "k"),
            "S": ("h", "y", "r", "k"), "D": ("h", "w", "y")}


def L(id, a, tt, kind, task, h, w=None, y=None, r=None, k=None, **kw):
    if kind == "P" and k is None and r is not None:
        # partial lessons are usually written (h, w, r, k) positionally
        y, r, k = None, y, r
    d = {"id": id, "a": a, "tt": tt, "kind": kind, "task": task, "h": h}
    for key, val in (("w", w), ("y", y), ("r", r), ("k", k)):
        if val is not None:
            d[key] = val
    d.update(kw)
    for key in REQUIRED[kind]:
        if not d.get(key):
            raise ValueError("lesson %s (%s) lacks %s" % (id, kind, key))
    if kind == "D":
        d.setdefault("r", d["h"])
        d.setdefault("k", "When " + task[0].lower() + task[1:])
    return d
