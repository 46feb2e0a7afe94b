"""The mutation corpus the import fuzz tests run: ways a reflection file or a log line goes wrong,
from careless agents and from attackers (huge, deep, binary, absurd, secret-bearing values)."""

from __future__ import annotations

import json
from collections.abc import Callable

Mutation = tuple[str, Callable[[bytes], bytes]]

TOKEN = "ghp_" + "Zq8vT2mXk4Rw9Lp3Ns7Bd6Hf1Yc5Gj0UeA1b"
HUGE_NUMBER = "9" * 5000
DEEP = "[" * 50_000 + "]" * 50_000
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)
)

# Values that break a field: (name, raw JSON/YAML text of the value).
BAD_VALUES: list[tuple[str, str]] = [
    ("10k_chars", json.dumps("x" * 10_000)),
    ("100k_chars", json.dumps("y" * 100_000)),
    ("secret_token", json.dumps(TOKEN)),
    ("email", json.dumps("ops.lead@brightwell-gmbh.de")),
    ("invalid_slug", json.dumps("Not A Slug!")),
    ("unknown_slug", json.dumps("no-such-department")),
    ("huge_number", HUGE_NUMBER),
    ("float_overflow", "1e999"),
    ("negative", "-1"),
    ("nan_text", json.dumps("NaN")),
    ("list", '["a", ["b"]]'),
    ("object", '{"k": "v"}'),
    ("null", "null"),
    ("true", "true"),
    ("nul_escape", json.dumps("a\u0000b")),
    ("lone_surrogate", '"\\ud800"'),
    ("control_chars", json.dumps("a\u0007\u001bb")),
    ("year_9999", json.dumps("9999-12-31T00:00:00Z")),
    ("year_0001", json.dumps("0001-01-01")),
    ("month_13", json.dumps("2026-13-45")),
    ("deep", DEEP[:2000] + DEEP[-2000:]),
]


def _json_set(data: bytes, key: str, raw: str, *, line: int = 0) -> bytes:
    text = data.decode("utf-8-sig")
    lines = text.split("\n")
    obj = json.loads(lines[line]) if len(lines) > 1 and line >= 0 else json.loads(text)
    marker = "__FUZZ_VALUE__"
    obj[key] = marker
    dumped = json.dumps(obj).replace(json.dumps(marker), raw)
    if len(lines) > 1 and line >= 0:
        lines[line] = dumped
        return "\n".join(lines).encode()
    return dumped.encode()


def _yaml_set(data: bytes, key: str, raw: str) -> bytes:
    text = data.decode()
    head, rest = text.split("\n", 1)
    lines = rest.split("\n")
    for i, row in enumerate(lines):
        if row.startswith(f"{key}:"):
            lines[i] = f"{key}: {raw}"
            break
    else:
        lines.insert(0, f"{key}: {raw}")
    return (head + "\n" + "\n".join(lines)).encode()


def _replace(old: str, new: str) -> Callable[[bytes], bytes]:
    return lambda data: data.decode().replace(old, new, 1).encode()


BYTE_MUTATIONS: list[Mutation] = [
    ("nul_middle", lambda d: d[: len(d) // 2] + b"\x00" + d[len(d) // 2 :]),
    ("nul_start", lambda d: b"\x00" + d),
    ("invalid_utf8", lambda d: d[: len(d) // 3] + b"\xff\xfe\xc3" + d[len(d) // 3 :]),
    ("truncated", lambda d: d[: len(d) // 2]),
    ("empty", lambda d: b""),
    ("only_bom", lambda d: b"\xef\xbb\xbf"),
    ("bom_crlf", lambda d: b"\xef\xbb\xbf" + d.replace(b"\n", b"\r\n")),
    ("huge", lambda d: d + b"\n" + b"z" * 300_000),
    ("binary", lambda d: bytes(range(256)) * 4),
    ("whitespace", lambda d: b"   \n\t\n"),
]


def reflection_mutations(target: str) -> list[Mutation]:
    out = list(BYTE_MUTATIONS)
    if target.endswith(".md") and "reflexions" in target:
        keys = ("department", "agent", "task_type", "confidence_at_start", "salience_score",
                "tags", "related_skills", "outcome", "created_at", "model_used")  # fmt: skip
        out += [
            (f"{key}={name}", lambda d, k=key, r=raw: _yaml_set(d, k, r))
            for key in keys
            for name, raw in BAD_VALUES
        ][:150]
        out += [
            ("alias_bomb", lambda d: _replace("---\n", "---\n" + ALIAS_BOMB)(d)),
            ("python_tag", _replace("---\n", "---\nx: !!python/object/apply:os.system ['id']\n")),
            ("unterminated_front_matter", lambda d: d.replace(b"\n---\n", b"\n", 1)),
            ("duplicate_keys", _replace("---\n", "---\noutcome: failure\noutcome: success\n")),
            ("heading_10k", _replace("## Why?", "## " + "W" * 10_000)),
        ]
    elif target.endswith(".md"):
        out += [
            ("h1_agent_10k", _replace("researcher-agent", "r" * 10_000)),
            ("h1_agent_secret", _replace(" - researcher-agent - ", f" - {TOKEN} - ")),
            ("h1_date_9999", _replace("2026-03-12", "9999-03-12")),
            ("h1_missing", lambda d: b"\n".join(d.split(b"\n")[1:])),
            ("h1_only", lambda d: d.split(b"\n")[0]),
            ("extra_h1", lambda d: d + b"\n# MARS Extraction\n## Principle\nI should test.\n"),
            ("section_10k", lambda d: d + b"\n## Notes\n" + b"n" * 30_000),
            ("section_nul", lambda d: d + b"\n## Notes\nbad\x00byte\n"),
            ("deep_list", lambda d: d + b"\n## Notes\n" + b"".join(
                b" " * i + b"- x\n" for i in range(2000))),
        ]  # fmt: skip
    elif target.endswith(".json"):
        keys = ("department", "agent", "task_type", "timestamp", "iteration", "task_description")
        out += [
            (f"{key}={name}", lambda d, k=key, r=raw: _json_set(d, k, r, line=-1))
            for key in keys
            for name, raw in BAD_VALUES
        ]
        out += [
            ("deep_50k", lambda d: _json_set(d, "deep", DEEP, line=-1)),
            ("array", lambda d: b"[" + d + b"]"),
            ("trailing_garbage", lambda d: d + b"}}}"),
        ]
    else:  # heuristic JSONL: the broken line is the first; the others must still import
        keys = ("department", "agent", "task_type", "created_at", "scenario_id", "reward")
        out += [
            (f"{key}={name}", lambda d, k=key, r=raw: _json_set(d, k, r, line=0))
            for key in keys
            for name, raw in BAD_VALUES
        ]
        out += [("deep_50k", lambda d: _json_set(d, "deep", DEEP, line=0))]
    return out


def log_mutations(kind: str) -> list[tuple[str, Callable[[str], str | bytes]]]:
    keys = (
        ("task_id", "agent", "department", "task_type", "finished_at", "outcome", "failure_mode",
         "confidence_at_start", "reflections_injected")
        if kind == "tasks"
        else ("reflection", "retrieved_at", "task_id", "agent", "department", "rank", "score")
    )  # fmt: skip
    out: list[tuple[str, Callable[[str], str | bytes]]] = [
        (f"{key}={name}", lambda line, k=key, r=raw: _json_set(line.encode(), k, r).decode())
        for key in keys
        for name, raw in BAD_VALUES
    ]
    out += [
        ("nul", lambda line: line[:10] + "\x00" + line[10:]),
        ("invalid_utf8", lambda line: line.encode()[:10] + b"\xff\xfe" + line.encode()[10:]),
        ("deep_50k", lambda line: _json_set(line.encode(), "deep", DEEP).decode()),
        ("not_json", lambda line: line[: len(line) // 2]),
        ("array", lambda line: "[" + line + "]"),
        ("huge_line", lambda line: line[:-1] + ', "x": "' + "q" * 2_000_000 + '"}'),
    ]
    return out
