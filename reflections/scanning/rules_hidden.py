"""Hidden text: HTML a person does not see (comments, hidden elements, scripts) and characters
that hide text from a person but not from a model (zero-width, bidi overrides, tag characters)."""

from __future__ import annotations

import re

from reflections.scanning.findings import INJECTION
from reflections.scanning.rule import Rule, gates
from reflections.scanning.rules_injection import IGNORECASE, phrase

# Also read in the normalised views of a text, as the other injection rules are.
HIDDEN_HTML_RULES: tuple[Rule, ...] = (
    phrase(
        "html_comment",
        "hidden HTML comment",
        r"<!--(?=(?:(?!-->)[\s\S]){0,500}?\b(?:ignore|disregard|forget|always|never|must|you|assistant|ai|"
        r"llm|model|agent|approve|instruction|system|prompt|secret|token|password|reviewer)\b)"
        r"[\s\S]*?(?:-->|\Z)",
        ("<!--",),
    ),
    Rule(
        "injection.script",
        INJECTION,
        re.compile(r"<\s*script\b[\s\S]*?(?:<\s*/\s*script\s*>|\Z)", IGNORECASE),
        "HTML script element",
        cues=(("<",), ("script",)),
    ),
    Rule(
        "injection.hidden_element",
        INJECTION,
        re.compile(
            r"<(?P<tag>[a-z][a-z0-9]*)\b[^>]*?(?:\shidden\b|display\s*:\s*none"
            r"|visibility\s*:\s*hidden|aria-hidden\s*=\s*[\"']?true|font-size\s*:\s*0(?![.\d])"
            r"|opacity\s*:\s*0(?![.\d])|color\s*:\s*(?:transparent|white|#fff(?:fff)?)\b)[^>]*>"
            r"[\s\S]*?(?:</(?P=tag)\s*>|\Z)",
            IGNORECASE,
        ),
        "hidden HTML element",
        cues=(("<",), ("hidden", "none", "font-size", "opacity", "transparent", "white", "#fff")),
    ),
)

# Characters that hide text from a person but not from a model.
_WORDY = r"[A-Za-z0-9]"
HIDDEN_TEXT_RULES: tuple[Rule, ...] = (
    Rule(
        "injection.zero_width",
        INJECTION,
        # Zero-width space and word joiner hide text anywhere (a byte order mark at the very
        # start is an encoding artefact); the joiners ZWJ/ZWNJ are ordinary in emoji sequences
        # and in Arabic or Indic script, and suspicious only next to Latin letters or digits.
        re.compile(
            rf"(?!\A\ufeff)[\u200b\u2060\ufeff]+|(?<={_WORDY})[\u200c\u200d]+|[\u200c\u200d]+(?={_WORDY})"
        ),
        "zero-width characters",
        cues=(("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"),),
        non_ascii=True,
    ),
    Rule(
        "injection.bidi_control",
        INJECTION,
        re.compile(r"[\u202a-\u202e]+"),
        "bidirectional override characters",
        cues=(("\u202a", "\u202b", "\u202c", "\u202d", "\u202e"),),
        non_ascii=True,
    ),
    Rule(
        "injection.tag_characters",
        INJECTION,
        re.compile("[\U000e0000-\U000e007f]+"),
        lambda m: None if _is_flag_sequence(m) else "invisible tag characters",
        non_ascii=True,
        gates=gates("[\U000e0000-\U000e007f]"),
    ),
)


def _is_flag_sequence(match: re.Match[str]) -> bool:
    """Tag characters spell invisible ASCII; after a black flag (🏴) and ending in the cancel
    tag they are a region flag's code (🏴󠁧󠁢󠁳󠁣󠁴󠁿 is Scotland), at most a few letters long."""
    run = match.group()
    return (
        match.start() > 0
        and match.string[match.start() - 1] == "\U0001f3f4"
        and run.endswith("\U000e007f")
        and len(run) <= 8
    )
