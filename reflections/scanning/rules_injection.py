"""Prompt-injection rules that override: text telling the agent to drop its instructions, take
another role, switch modes or hide things from its user; and the helpers every injection rule
module uses. All injection rules also read normalised views of the text (scanning.normalise):
folded look-alike letters, spaced-out and leetspeak words, decoded base64/hex/rot13 spans."""

from __future__ import annotations

import re
from collections.abc import Callable

from reflections.scanning.findings import INJECTION
from reflections.scanning.rule import Rule, gates

IGNORECASE = _I = re.IGNORECASE


def labelled(label: str) -> Callable[[re.Match[str]], str]:
    """The summary of an injection finding: what kind it is, never the words. The words are
    what a reader must not see (a link that exfiltrates, an order to a later agent), so they
    stay in the masked text, where an admin reads them in context."""

    def summary(match: re.Match[str]) -> str:
        return label

    return summary


_ADDRESSED = re.compile(r"(?:^|[.!?:;]|\byou\s+(?:must|should|will|now)|\bnow)\s*\Z", _I)


def _role_override(match: re.Match[str]) -> str | None:
    # "act as" is an override only when addressed to the model ("Act as a …", "you must act
    # as …"); "the cache acts as a buffer" or "it can act as a fallback" is ordinary prose.
    if match.group().lower().startswith("act"):
        before = match.string[max(0, match.start() - 20) : match.start()]
        if not _ADDRESSED.search(before):
            return None
    return labelled("role override")(match)


_QUALIFIERS = (
    r"all|any|of|the|your|my|these|those|every|each|previous|prior|above|earlier|preceding|"
    r"former|original|initial|system|developer|safety|other|current|given|such"
)
_WHAT = (
    r"instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|"
    r"context|programming|training|policies|policy|constraints|restrictions|commands|orders|"
    r"guidance|advice|safeguards"
)


def phrase(
    name: str,
    label: str,
    pattern: str,
    *cue_groups: tuple[str, ...],
    flags=_I,
    anchor: re.Pattern[str] | None = None,
    window: tuple[int, int] = (100, 250),
) -> Rule:
    return Rule(
        f"injection.{name}",
        INJECTION,
        re.compile(pattern, flags),
        labelled(label),
        cues=cue_groups,
        anchor=anchor,
        window=window,
    )


INJECTION_RULES: tuple[Rule, ...] = (
    phrase(
        "ignore_instructions",
        "instruction override",
        rf"\b(?:ignore|disregard|forget|override|bypass|discard|abandon)\s+(?:(?:{_QUALIFIERS})\s+)"
        rf"{{1,4}}(?:{_WHAT})\b(?!\s+(?:check|engine|file|set|list|table|validation|lint|test))",
        ("ignore", "disregard", "forget", "override", "bypass", "discard", "abandon"),
        (
            "instruction",
            "prompt",
            "rule",
            "direction",
            "directive",
            "guideline",
            "guardrail",
            "message",
            "context",
            "programming",
            "training",
            "polic",
            "constraint",
            "restriction",
            "command",
            "order",
        ),
    ),
    phrase(
        "ignore_instructions",
        "instruction override",
        r"\b(?:forget|ignore|disregard)\s+(?:everything|all\s+(?:of\s+)?(?:this|that|the\s+above))"
        r"\s+(?:above|before|so\s+far|previously|prior|(?:you\s+)?(?:were|was|have\s+been)\s+told|"
        r"i\s+(?:said|told\s+you)|in\s+(?:this|the)\s+(?:conversation|chat|prompt))",
        ("forget", "ignore", "disregard"),
        ("everything", "all"),
    ),
    phrase(
        "ignore_instructions",
        "instruction override",
        # the same in other languages
        r"\bignorier(?:e|en\s+sie)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen|früheren)\s+"
        r"(?:anweisungen|instruktionen|regeln|befehle)"
        r"|\bignore[rz]?\s+(?:toutes\s+)?les\s+(?:instructions|consignes|règles)\s+"
        r"(?:précédentes|ci-dessus|antérieures)"
        r"|\b(?:ignora|olvida|olvide)\s+(?:todas\s+)?las\s+(?:instrucciones|reglas)\s+"
        r"(?:anteriores|previas)"
        r"|\b(?:vergiss|vergessen\s+sie)\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen)\s+"
        r"(?:anweisungen|instruktionen|regeln)"
        r"|\boublie[rz]?\s+(?:toutes\s+)?les\s+(?:instructions|consignes)\s+(?:précédentes|ci-dessus)"
        r"|\b(?:dimentica|esqueça|esquece)\s+(?:tutte\s+le|todas\s+as)\s+(?:istruzioni|instruções)"
        r"|\ba\s+partir\s+de\s+ahora\s+(?:aprueba|ignora|responde|actúa|eres)"
        r"|\bab\s+(?:sofort|jetzt)\s+(?:bist\s+du|ignorierst\s+du|genehmigst\s+du)"
        r"|\bignora\s+(?:tutte\s+)?le\s+(?:istruzioni|regole)\s+precedenti"
        r"|\bignor[ea]\s+(?:todas\s+)?as\s+(?:instruções|regras)\s+anteriores"
        r"|\bnegeer\s+(?:alle\s+)?(?:vorige|eerdere|voorgaande)\s+(?:instructies|regels)"
        r"|\bzignoruj\s+(?:wszystkie\s+)?(?:poprzednie|wcześniejsze)\s+(?:instrukcje|polecenia)"
        r"|игнорируй(?:те)?\s+(?:все\s+)?(?:предыдущие|прошлые)\s+(?:инструкции|указания)"
        r"|忽略(?:之前|以上|前面)(?:的)?(?:所有)?(?:指令|说明|指示)",
        (
            "ignor",
            "negeer",
            "zignoruj",
            "игнорир",
            "忽略",
            "olvid",
            "vergiss",
            "vergessen",
            "oubli",
            "dimentica",
            "esque",
            "a partir de ahora",
            "ab sofort",
            "ab jetzt",
        ),
    ),
    phrase(
        "role_override",
        "role override",
        r"\byou\s+are\s+now\s+(?:an?|the|my|in|free|unrestricted|jailbroken|allowed|able|going|"
        r"acting|called|named|dan|operating|playing|our|no\s+longer)\b|\byou\s+are\s+no\s+longer\b"
        r"|\bfrom\s+now\s+on,?\s+(?:you|always|never|your|approve|ignore|skip|treat|do\s+not|"
        r"don'?t|respond|reply|answer|act|obey|follow)\b"
        r"|\byou\s+are\s+(?:dan|an?\s+(?:ai|assistant|model|chatbot|agent)\s+(?:with\s+no|without)"
        r"\s+(?:restrictions|limits|limitations|filters|rules|guidelines))\b"
        r"|\bstay\s+in\s+character\b|\bnever\s+refuses?\b|\blet'?s\s+play\s+a\s+game\b",
        ("you", "from now on", "stay in character", "never refuse", "play a game"),
    ),
    phrase(
        "role_override",
        "role override",
        r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\broleplay\s+as\b",
        ("pretend", "roleplay"),
    ),
    Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\bact\s+as\s+(?:a|an|if|though|my|the)\b", _I),
        _role_override,
        cues=(("act",),),
        gates=gates(r"act\s+as\s"),
    ),
    phrase(
        "system_prompt",
        "asks for the system prompt",
        r"\b(?:reveal|print|show|output|repeat|leak|display|dump|tell\s+me|give\s+me|share|"
        r"disclose|ignore|override|bypass|reset|what\s+is)\s+(?:me\s+)?(?:your|the|its|all)\s+"
        r"(?:\w+\s+){0,2}(?:system|developer|hidden|initial|original|secret)\s+"
        r"(?:prompt|message|instructions)",
        ("system", "developer", "hidden", "initial", "original", "secret"),
        ("prompt", "message", "instruction"),
    ),
    phrase(
        "developer_mode",
        "mode switch",
        r"\b(?:enable|enter|activate|switch\s+(?:in)?to|turn\s+on|you\s+are\s+(?:now\s+)?in)\s+"
        r"(?:developer|dev|god|dan|jailbreak|jailbroken|unrestricted|unfiltered)\s+mode\b"
        r"|\bdo\s+anything\s+now\b|\bjailbr(?:eak|oken)\s+(?:mode|prompt)\b",
        ("mode", "anything now", "jailbr"),
        (
            "developer",
            "dev ",
            "god ",
            "dan ",
            "jailbr",
            "unrestricted",
            "unfiltered",
            "anything now",
        ),
        anchor=re.compile("mode|anything now|jailbr"),
        window=(60, 40),
    ),
    phrase(
        "conceal_from_user",
        "concealment from the user",
        r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|notify|warn)\s+the\s+"
        r"(?:user|human|operator|reviewer|customer)s?\b"
        r"|\bwithout\s+(?:telling|informing|notifying)\s+the\s+(?:user|human|operator)s?\b"
        r"|\b(?:do\s+not|don'?t|never|must\s+not)\s+(?:flag|mention|disclose|reveal|report)\s+"
        r"(?:this|that|anything|it|the\s+fact|these)\b",
        (
            "tell the",
            "inform the",
            "alert the",
            "notify the",
            "warn the",
            "without telling",
            "without informing",
            "without notifying",
            "flag this",
            "flag that",
            "flag anything",
            "flag it",
            "mention this",
            "mention that",
            "mention it",
            "mention anything",
            "disclose",
            "reveal this",
            "reveal that",
            "reveal it",
            "report this",
            "report that",
            "report it",
            "report anything",
        ),
    ),
)
