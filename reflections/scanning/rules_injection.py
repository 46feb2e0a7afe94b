"""Prompt-injection rules: text written to steer the agent a reflection is pasted into.

INJECTION_RULES also run over normalised views of the text (scanning.normalise): folded
look-alike letters, letter-spaced and leetspeak words, decoded base64/hex/rot13 spans.
HIDDEN_TEXT_RULES run on the text as written: the hiding itself is the finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from reflections.scanning.findings import INJECTION
from reflections.scanning.rule import Rule, gates

_I = re.IGNORECASE


def quote(label: str) -> Callable[[re.Match[str]], str]:
    # Injection text is not secret, so the summary may quote it (whitespace normalised).
    def summary(match: re.Match[str]) -> str:
        phrase = " ".join(match.group().split())
        if len(phrase) > 60:
            phrase = phrase[:57] + "..."
        return f"{label}: '{phrase}'"

    return summary


_ADDRESSED = re.compile(r"(?:^|[.!?:;]|\byou\s+(?:must|should|will|now)|\bnow)\s*\Z", _I)


def _role_override(match: re.Match[str]) -> str | None:
    # "act as" is an override only when addressed to the model ("Act as a …", "you must act
    # as …"); "the cache acts as a buffer" or "it can act as a fallback" is ordinary prose.
    if match.group().lower().startswith("act"):
        before = match.string[max(0, match.start() - 20) : match.start()]
        if not _ADDRESSED.search(before):
            return None
    return quote("role override")(match)


_QUALIFIERS = (
    r"all|any|of|the|your|my|these|those|every|each|previous|prior|above|earlier|preceding|"
    r"former|original|initial|system|developer|safety|other|current|given|such"
)
_WHAT = (
    r"instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|"
    r"context|programming|training|policies|policy|constraints|restrictions|commands|orders|"
    r"guidance|advice|safeguards"
)


def _phrase(
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
        quote(label),
        cues=cue_groups,
        anchor=anchor,
        window=window,
    )


INJECTION_RULES: tuple[Rule, ...] = (
    _phrase(
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
    _phrase(
        "ignore_instructions",
        "instruction override",
        r"\b(?:forget|ignore|disregard)\s+(?:everything|all\s+(?:of\s+)?(?:this|that|the\s+above))"
        r"\s+(?:above|before|so\s+far|previously|prior|(?:you\s+)?(?:were|was|have\s+been)\s+told|"
        r"i\s+(?:said|told\s+you)|in\s+(?:this|the)\s+(?:conversation|chat|prompt))",
        ("forget", "ignore", "disregard"),
        ("everything", "all"),
    ),
    _phrase(
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
    _phrase(
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
    _phrase(
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
    _phrase(
        "system_prompt",
        "asks for the system prompt",
        r"\b(?:reveal|print|show|output|repeat|leak|display|dump|tell\s+me|give\s+me|share|"
        r"disclose|ignore|override|bypass|reset|what\s+is)\s+(?:me\s+)?(?:your|the|its|all)\s+"
        r"(?:\w+\s+){0,2}(?:system|developer|hidden|initial|original|secret)\s+"
        r"(?:prompt|message|instructions)",
        ("system", "developer", "hidden", "initial", "original", "secret"),
        ("prompt", "message", "instruction"),
    ),
    _phrase(
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
    _phrase(
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
    _phrase(
        "fake_turn",
        "a fake system or developer message",
        r"(?:^|[\"'(\[{,;]\s*)[ \t>*#\[<]*(?:SYSTEM|DEVELOPER|SYS)\s*[\]>*]*\s*:"
        r"|(?i:^[ \t>*#\[<]*(?:system|developer)\s*[\]>*]*\s*:[^\n]{0,80}\b(?:you|ignore|always|"
        r"never|must|assistant|instructions?|override|from\s+now\s+on|respond|reply|answer)\b)"
        r"|(?i:^\s*#{2,3}\s*(?:instruction|system|response|human|assistant)s?\s*:)",
        ("system", "developer", "sys", "###"),
        flags=re.M,
    ),
    _phrase(
        "fake_turn",
        "a fake dialogue turn",
        r"^\s*(?:human|user)\s*:[\s\S]{0,600}?^\s*(?:assistant|ai|model)\s*:",
        ("human:", "user:"),
        ("assistant:", "ai:", "model:"),
        flags=re.I | re.M,
    ),
    _phrase(
        "chat_template",
        "chat-template token",
        r"<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|"
        r"start_header_id|end_header_id|eot_id|eom_id|start|end|channel|message|return)\|>"
        r"|\[/?INST\]|<</?SYS>>|<start_of_turn>|<end_of_turn>|</s>\s*<s>|<s>\s*\[INST\]"
        r"|<(?P<role>system|system_prompt|instructions?|developer|admin_instructions)\b[^>]{0,40}>"
        r"[\s\S]{0,2000}?(?:</(?P=role)\s*>|\Z)"
        r"|</?(?:system|system_prompt|instructions?|developer|admin_instructions)\b[^>]{0,40}>",
        (
            "<|",
            "inst]",
            "<<sys>>",
            "_of_turn>",
            "<s>",
            "<system",
            "</system",
            "<instruction",
            "</instruction",
            "<developer",
            "<admin_instructions",
            "<system_prompt",
        ),
    ),
    _phrase(
        "new_instructions",
        "injected instructions",
        r"\b(?:new|updated|revised|real|actual|important|additional|secret|hidden|urgent)\s+"
        r"(?:system\s+)?(?:instructions?|rules?|directives?)\s*(?::|for\s+(?:the\s+)?"
        r"(?:ai|assistant|model|agent|llm))"
        r"|\b(?:note|message|instructions?|reminder)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
        r"(?:ai|llm|language\s+model|assistant|model|agent|bot|chatbot|reviewer|grader|"
        r"evaluator|auditor)s?\b"
        r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|large\s+language\s+model|language\s+model|"
        r"assistant|chatbot|agent|bot)\b",
        (
            "instruction:",
            "instructions:",
            "instruction :",
            "instructions :",
            "rules:",
            "rule:",
            "directive",
            "note to",
            "note for",
            "message to",
            "message for",
            "reminder to",
            "reminder for",
            "instructions for",
            "instruction for",
            "rules for",
            "if you are",
        ),
        anchor=re.compile(
            r"(?:instructions?|rules?|directives?)\s*(?::|for\s)|(?:note|message|"
            r"instruction|reminder)s?\s+(?:to|for)\s|if\s+you\s+are\s"
        ),
        window=(60, 100),
    ),
    _phrase(
        "authority_claim",
        "claims authority over the agent's instructions",
        r"\b(?:higher|top|highest|absolute|overriding)\s+priority\s+(?:than|over)\s+(?:the\s+|your\s+)?"
        r"(?:system\s+prompt|instructions|rules|guidelines)"
        r"|\b(?:takes?|take)\s+precedence\s+over\s+(?:the\s+|your\s+|any\s+)?(?:system|other|previous)?"
        r"\s*(?:prompt|instructions|rules)"
        r"|\bif\s+(?:they|these|the\s+instructions)\s+conflict,?\s+follow\s+(?:this|these|me)"
        r"|\b(?:instructions?|orders|message)\s+from\s+(?:the\s+)?(?:administrator|admin|developers?|"
        r"operator|system|owner|security\s+team|anthropic|openai)\b"
        r"|\[\s*(?:system|admin|developer|operator)\s+(?:message|prompt|note|override|instructions?)"
        r"[^\]\n]{0,40}\][\s\S]{0,1500}?(?:\[\s*/\s*(?:system|admin|developer|operator)[^\]\n]*\]|\Z)"
        r"|\b(?:developer|admin|system|operator)\s+override\s*:",
        (
            "priority than",
            "priority over",
            "precedence over",
            "conflict, follow",
            "conflict follow",
            "instructions from",
            "instruction from",
            "orders from",
            "message from",
            "[system",
            "[ system",
            "[admin",
            "[developer",
            "[operator",
            "override:",
            "override :",
        ),
        anchor=re.compile(
            r"priority|precedence|conflict|from (?:the )?(?:admin|developer|operator|"
            r"system|owner|security|anthropic|openai)|\[\s*(?:system|admin|"
            r"developer|operator)|override\s*:"
        ),
        window=(100, 1600),
    ),
    _phrase(
        "addressed_order",
        "an order addressed to the model",
        r"\b(?:(?:ai|llm|reviewer|review|coding|support|all)\s+)?(?:agents?|assistants?|models?|"
        r"bots?|reviewers?|ai|llms?|claude|gpt|chatgpt|copilot)\s*[,:]\s*(?:you\s+(?:must|should|"
        r"will|need\s+to|are\s+to)\s+|please\s+)?(?:do\s+not|don'?t|never|always|mark|approve|skip|"
        r"ignore|disable|treat|execute|run|list|send|follow|stop|flag|report|delete|push|merge|grant|"
        r"give|this\s+(?:repository|reflection|note|agent|department)\s+is\s+exempt)\b",
        (
            " agent:",
            "agents:",
            " agent,",
            "agents,",
            "assistant,",
            "assistant:",
            "assistants:",
            " model:",
            " model,",
            "models:",
            " bot:",
            " bot,",
            "bots:",
            "reviewer:",
            "reviewers:",
            "reviewer,",
            "reviewers,",
            " ai:",
            " ai,",
            "llm:",
            "llm,",
            "llms:",
            "claude,",
            "claude:",
            "gpt,",
            "gpt:",
            "copilot,",
            "copilot:",
        ),
        anchor=re.compile(
            r"(?:agents?|assistants?|models?|bots?|reviewers?|ai|llms?|claude|gpt|"
            r"chatgpt|copilot)\s*[,:]"
        ),
        window=(60, 140),
    ),
    _phrase(
        "disable_safeguards",
        "instruction to switch safeguards off",
        r"\b(?:disable|turn\s+off|switch\s+off|bypass|deactivate|remove|lift)\s+(?:all\s+|the\s+|any\s+|"
        r"your\s+)?(?:guardrails|safety\s+(?:filters?|checks?|measures)|content\s+filters?|"
        r"secret\s+scanner|security\s+(?:checks?|review|scans?)|redaction)\b"
        r"|\b(?:safety|content)\s+(?:filters?|guardrails?|checks?|policies)\s+(?:are|have\s+been|is)\s+"
        r"(?:now\s+)?(?:disabled|off|removed|lifted|suspended)"
        r"|\b(?:tool\s+calls?|actions?|commands?)\s+are\s+(?:all\s+)?(?:pre-?approved|auto-?approved)"
        r"|\bexempt\s+from\s+(?:security|code)\s+review\b"
        r"|\b(?:skip|bypass)\s+(?:the\s+)?code\s+review\b"
        r"|\b(?:approve|merge|push)\b[^.\n]{0,60}\bwithout\s+(?:running\s+)?(?:the\s+)?"
        r"(?:tests?|test\s+suite|ci|review)\b",
        (
            "guardrail",
            "safety filter",
            "safety check",
            "safety measure",
            "content filter",
            "secret scanner",
            "security check",
            "security review",
            "security scan",
            "redaction",
            "approved",
            "exempt",
            "code review",
            "without running",
            "without the test",
            "without test",
            "without review",
            "without ci",
            "safety polic",
            "content polic",
        ),
        anchor=re.compile(
            r"disable|turn off|switch off|bypass|deactivate|remove|lift|filter|"
            r"guardrail|approved|exempt|code review|without"
        ),
        window=(80, 140),
    ),
    _phrase(
        "approval_override",
        "instruction to approve",
        r"\b(?:always|automatically|unconditionally)\s+(?:approve|"
        r"mark\s+(?:it|this|them|everything|all|the\s+\w+)\s+as\s+(?:safe|approved|passed|"
        r"compliant|valid|verified|correct))\b",
        ("always", "automatically", "unconditionally"),
        ("approve", "mark"),
    ),
    _phrase(
        "exfiltration",
        "instruction to send data out",
        r"\b(?:send|post|upload|e-?mail|forward|transmit|exfiltrate|leak|copy|paste|share|append|"
        r"include|encode|embed)\b(?:[^.\n]|\.(?!\s)){0,60}?\b(?:credentials|secrets|api\s+keys?|access\s+keys?|"
        r"tokens|passwords|env(?:ironment)?\s+var(?:iable)?s|\.env|~/\.aws|~/\.ssh|ssh\s+keys?|"
        r"private\s+keys?|system\s+prompt|conversation(?:\s+history)?|chat\s+history|"
        r"previous\s+messages|user'?s?\s+data)\b(?:[^.\n]|\.(?!\s)){0,60}?\b(?:to|at|into|in)\s+"
        r"(?:https?://|\S+@\S+|(?:the\s+|this\s+|a\s+)?(?:url|link|endpoint|address|webhook|"
        r"server|query|image|request))",
        (
            "send",
            "post",
            "upload",
            "mail",
            "forward",
            "transmit",
            "exfiltrate",
            "leak",
            "copy",
            "paste",
            "share",
            "append",
            "include",
            "encode",
            "embed",
        ),
        (
            "credential",
            "secret",
            "key",
            "token",
            "password",
            "env",
            ".aws",
            ".ssh",
            "prompt",
            "conversation",
            "history",
            "messages",
            "data",
        ),
    ),
    _phrase(
        "exfiltration",
        "instruction to send data out",
        r"\b(?:read|cat|open|load|copy|collect|gather|dump)\s+(?:the\s+)?(?:contents\s+of\s+)?"
        r"(?:~/\.aws\S*|~/\.ssh\S*|\.env\b|/etc/passwd|/etc/shadow|\S*credentials\S*|secrets|"
        r"id_rsa|api\s+keys|environment\s+variables|env\s+vars)[^\n]{0,100}?\b(?:post|send|upload|curl|"
        r"transmit|forward|paste|submit)\b[^\n]{0,60}?(?:https?://|\S+@\S+\.\w+)"
        r"|\breplace\s+\S+\s+with\s+(?:the\s+)?(?:user'?s?\s+)?(?:previous\s+messages|conversation|"
        r"chat\s+history|system\s+prompt|secrets?|credentials|api\s+keys?|tokens?)",
        ("read", "cat", "open", "load", "copy", "collect", "gather", "dump", "replace"),
        (
            "aws",
            "ssh",
            ".env",
            "passwd",
            "shadow",
            "credential",
            "secret",
            "id_rsa",
            "key",
            "env",
            "messages",
            "conversation",
            "history",
            "prompt",
            "token",
        ),
    ),
    Rule(
        "injection.markdown_exfiltration",
        INJECTION,
        re.compile(
            r"!\[[^\]\n]*\]\(\s*<?https?://[^)\s]+\?[^)\s]*(?:[{}<>$\[\]]|%7[bd]|"
            r"\b(?:data|d|q|secret|token|key|password|pwd|conv|conversation|history|context|ctx|"
            r"payload|leak|exfil|info|msg|content|text|prompt|chat)=)[^)\s]*\)"
            r"|\[[^\]\n]*\]\(\s*<?https?://[^)\s]+\?[^)\s]*(?:\{|%7b|\$\{|=(?-i:[A-Z][A-Z0-9_]{3,})\b)"
            r"[^)\s]*\)"
            r"|^\s*\[[^\]\n]+\]:\s*https?://\S+\?\S*(?:\{|%7b|\$\{|\b(?:data|d|q|secret|token|key|"
            r"password|conv|conversation|history|context|payload|leak|msg|content|prompt|chat)=)\S*",
            _I | re.M,
        ),
        "a link or image that would carry data out",
        cues=(("](", "]:"), ("http",), ("?",)),
    ),
    _phrase(
        "credential_phishing",
        "tells people to hand over credentials",
        r"\b(?:ask|tell|instruct|get|have)\s+(?:the\s+)?(?:users?|customers?|them|him|her|people)\s+to\s+"
        r"(?:[^.\n]{0,80}?\band\s+to\s+)?(?:paste|send|share|enter|type|give|submit|reply\s+with)\s+"
        r"(?:in\s+)?(?:their|your|the)\s+(?:session\s+cookies?|passwords?|tokens?|credentials|api\s+keys?|"
        r"otp|2fa|mfa|one-time|verification)\b",
        (
            "ask the ",
            "ask users",
            "ask customers",
            "ask them",
            "ask him",
            "ask her",
            "ask people",
            "tell the ",
            "tell users",
            "tell customers",
            "tell them",
            "tell him",
            "tell her",
            "tell people",
            "instruct the",
            "instruct users",
            "get the user",
            "get users",
            "have the user",
            "have users",
            "have them",
            "have customers",
        ),
        ("paste", "send", "share", "enter", "type", "give", "submit", "reply"),
        anchor=re.compile(
            r"(?:ask|tell|instruct|get|have)\s+(?:the\s+)?(?:users?|customers?|them|him|her|people)"
            r"\s+to\s"
        ),
        window=(5, 220),
    ),
    _phrase(
        "remote_script",
        "instruction to run a remote script",
        r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|k)?sh\b"
        r"|\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?python3?\b"
        r"|\bpowershell\b[^\n]{0,40}\s-(?:enc|encodedcommand|e)\s+[A-Za-z0-9+/=]{16,}",
        ("curl", "wget", "iwr", "invoke-webrequest", "powershell"),
    ),
    _phrase(
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
        re.compile(r"<\s*script\b[\s\S]*?(?:<\s*/\s*script\s*>|\Z)", _I),
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
            _I,
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
