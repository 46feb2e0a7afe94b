"""Which tools and APIs a reflection names: the evidence for flagging outdated lessons."""

from __future__ import annotations

import re

MAX_TOOLS = 12

# A tool name is missed rather than invented: every invented name is a false "outdated" flag
# on a reflection nobody should have to review. So each pattern needs a strong signal.
_BACKTICKED = re.compile(r"`([^`\n]{1,80})`")
_IDENTIFIER = re.compile(r"\.?([A-Za-z_][\w.:-]*?)(?:\([^()]*\))?")
_ENDPOINT = re.compile(r"/[\w/{}:.-]+")
_TOOL = re.compile(r"\b([A-Za-z][\w.-]*[A-Za-z0-9_])\s+tool\b")
_API = re.compile(r"(?<![\w/])([A-Za-z][\w.-]*[A-Za-z0-9_]|/[\w/{}:.-]+)\s+(?:APIs?|endpoints?)\b")
_PRODUCT = re.compile(
    r"\b([A-Z][\w.-]*[A-Za-z0-9_])\s+(?:exports?|webhooks?|SDK|integration|connector)\b"
)
# "CLI" is signal enough on its own: "gh CLI", "the Stripe CLI".
_CLI = re.compile(r"\b([A-Za-z][\w.-]*[A-Za-z0-9_])\s+CLI\b")
_CALL = re.compile(r"(?<![\w.])(\.?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\(([^()\n]{0,40})\)")
_CAMEL = re.compile(r"\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b")
_PLAIN_WORD = re.compile(r"[A-Z]?[a-z]+")
_FILE_NAME = re.compile(
    r".*\.(?:py|ts|tsx|js|jsx|md|json|jsonl|ya?ml|csv|txt|html|css|sql|sh|go|rs|java|rb|toml)"
)

# Determiners, adjectives and protocol names that sit where a tool name would.
_STOP_WORDS_TEXT = """
    a an the this that these those same other another any each every no one some such
    which what whose my our your their its his her it is was be to of for with in on by via
    and or not using use used call called calls right wrong correct different new old
    existing appropriate proper relevant specific given following above below whole only
    first second last next previous main default internal external public private rest web
    http https graphql json xml rpc cli tool tools api apis endpoint endpoints fallback backup
    alternative alternate third-party generic custom standard simple single separate
    null none true false undefined nan
    get set run init call len print str int list dict test tests self this
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def extract_tools(text: str) -> list[str]:
    """Tool and API names in `text`, lowercased, deduplicated, in order of first mention."""
    found: list[tuple[int, str]] = []
    # Most texts lack the cue words: checking for them first keeps imports fast (each pattern
    # below scans the whole text, and this runs once per reflection).
    if "`" in text:
        for match in _BACKTICKED.finditer(text):
            name = _identifier(match.group(1).strip())
            if name:
                found.append((match.start(), name))
    for cue, pattern in ((" tool", _TOOL), ("CLI", _CLI)):
        if cue in text:
            found.extend((m.start(1), m.group(1)) for m in pattern.finditer(text))
    lowered = text.lower()
    for cues, pattern in (
        (("api", "endpoint"), _API),
        (("export", "webhook", "sdk", "integration", "connector"), _PRODUCT),
    ):
        if any(cue in lowered for cue in cues):
            for match in pattern.finditer(text):
                name = match.group(1)
                if _looks_like_a_name(name, text, match.start(1)):
                    found.append((match.start(1), name))
    if _called(text):
        for match in _CALL.finditer(text):
            if match.group(2).strip() not in ("s", "es"):  # "reflection(s)" is prose, not a call
                found.append((match.start(), match.group(1).lstrip(".")))
    # A camelCase word has a lowercase letter or digit right before a capital: most texts have
    # none, and looking for the pair in the text's case shape is ten times cheaper than _CAMEL.
    if b"aA" in text.encode("utf-8", "surrogatepass").translate(_CASE_SHAPE):
        for match in _CAMEL.finditer(text):
            found.append((match.start(), match.group(0)))

    tools: list[str] = []
    for _, name in sorted(found, key=lambda item: item[0]):
        name = name.lower().strip(".-:")
        if len(name) < 2 or name in STOP_WORDS or name in tools:
            continue
        tools.append(name)
        if len(tools) == MAX_TOOLS:
            break
    return tools


# ASCII lowercase letters and digits as "a", capitals as "A" (other bytes stay themselves).
_CASE_SHAPE = bytes.maketrans(
    b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"a" * 36 + b"A" * 26
)


def _called(text: str) -> bool:
    """Whether a "(" follows a word character, as in every match of _CALL (prose opens its
    brackets after a space)."""
    position = text.find("(", 1)
    while position > 0:
        before = text[position - 1]
        if before.isalnum() or before == "_":  # what \w matches
            return True
        position = text.find("(", position + 1)
    return False


def _identifier(token: str) -> str | None:
    """A backticked span that is one identifier, call or endpoint path (not prose or a file)."""
    if len(token) > 60:
        return None
    if _ENDPOINT.fullmatch(token):
        return token
    match = _IDENTIFIER.fullmatch(token)
    if not match or _FILE_NAME.fullmatch(match.group(1)):
        return None
    return match.group(1)


def _looks_like_a_name(name: str, text: str, start: int) -> bool:
    """Capitalisation is the signal for "X API" / "X export": a plain lowercase word is prose.

    A capitalised plain word that starts a sentence carries no signal either.
    """
    if not _PLAIN_WORD.fullmatch(name):
        return True  # digits, dots, slashes, inner capitals: an identifier
    if name.islower():
        return False
    before = text[:start].rstrip(" \t")
    return bool(before) and before[-1] not in ".!?:\n-*#>"
