"""Helpers for writing lessons by hand.

A lesson is a dict: tt (task type), o (f failure, p partial, s success), hap (what happened,
first person), wrong (what went wrong; empty for a success), why, cond (the trigger, a clause
without 'when'), act (the action, an imperative starting in lower case), and optionally alt
(alternatives, for a Decision), summary, slug, tags.
"""


def L(tt, o, hap, wrong, why, cond, act, **kw):
    d = {"tt": tt, "o": o, "hap": hap.strip(), "wrong": wrong.strip(), "why": why.strip(),
         "cond": cond.strip(), "act": act.strip()}
    d.update(kw)
    return d


def block(text, abbrev):
    """one lesson a line: tt | o | hap | wrong | why | cond | act [| alt]"""
    out = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) not in (7, 8):
            raise ValueError(f"bad lesson line ({len(parts)} fields): {line[:80]}")
        tt = abbrev[parts[0]]
        kw = {"alt": parts[7]} if len(parts) == 8 else {}
        out.append(L(tt, parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], **kw))
    return out
