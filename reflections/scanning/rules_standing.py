"""Injection rules for standing orders a memory gives every later reader: overrides in other
words and languages, claimed priority, pre-granted consent, disclosure, concealment and
deception, self-copying, tampering with the audit trail, impersonation.

A lesson is imperative too ("always run the tests first"), so the rules that could read one
as an order look at the whole sentence: an order looks forward ("from now on", "whenever",
"every", "before any task") and is not a warning ("never …", "do not …", "we had to …").
"""

from __future__ import annotations

import re

from reflections.scanning.findings import INJECTION
from reflections.scanning.rule import Rule
from reflections.scanning.rules_injection import IGNORECASE, labelled, phrase

_SENTENCE_START = re.compile(r"(?:[.!?]\s|\n|^)[^.!?\n]*\Z")
_FORWARD = re.compile(
    r"\b(?:from\s+now\s+on|henceforth|going\s+forward|whenever|every\s+time|each\s+time|always|"
    r"(?:every|each|after\s+each|after\s+every)\s+(?:reply|response|answer|message|run|task|"
    r"session|conversation|request)|you\s+(?:should|must|will|need\s+to|are\s+to)|"
    r"before\s+any|for\s+all\s+future|in\s+every|immediately|a\s+partir\s+de\s+ahora|ab\s+sofort|"
    r"désormais|d'ora\s+in\s+poi)\b",
    IGNORECASE,
)
_SENTENCE_REST = re.compile(r"[^.!?\n]{0,120}")
# What may stand before an imperative at the start of its sentence: a bullet, a step number.
_IMPERATIVE_START = re.compile(
    r"[\s\-*•>]*(?:(?:step\s+\d+|\d+[.)])\s*[:.]?\s*)?(?:please\s+)?\Z", IGNORECASE
)
_WARNING = re.compile(
    r"\b(?:never|don'?t|do\s+not|must\s+not|should\s+not|shouldn'?t|avoid|stop|no\s+longer|"
    r"had\s+to|was|were|did|we|i|lesson|mistake|bug|wrongly|accidentally)\b",
    IGNORECASE,
)


def _order(label: str):
    """The phrase as an order: its sentence looks forward and is no warning or narrative."""
    named = labelled(label)

    def summary(match: re.Match[str]) -> str | None:
        text, start = match.string, match.start()
        head = _SENTENCE_START.search(text, max(0, start - 200), start)
        before = head.group() if head else ""
        if _WARNING.search(before):
            return None
        body = before.lstrip(".!?\n ")
        rest = _SENTENCE_REST.match(text, match.end())
        sentence = body + match.group() + (rest.group() if rest else "")
        if not _FORWARD.search(sentence) and not _IMPERATIVE_START.fullmatch(body):
            return None
        return named(match)

    return summary


def _order_rule(name: str, label: str, pattern: str, *cue_groups, window=(120, 200)) -> Rule:
    """An order-shaped phrase, sought only around its first cues."""
    return Rule(
        f"injection.{name}",
        INJECTION,
        re.compile(pattern, IGNORECASE),
        _order(label),
        cues=cue_groups,
        anchor_cues=True,
        window=window,
    )


_PRIOR = (
    r"(?:(?:all|any|every|the|your|my|of|earlier|previous|prior|original|existing|other|"
    r"operator'?s?|system|initial|standing)\s+){1,4}"
)
_ORDERS = (
    r"(?:instructions?|directives?|guardrails?|rules|guidelines|orders|briefs?|prompts?|"
    r"constraints|policies|safeguards)"
)

STANDING_RULES: tuple[Rule, ...] = (
    phrase(
        "ignore_instructions",
        "instruction override",
        rf"\b(?:set|put|cast|throw)\s+aside\s+{_PRIOR}{_ORDERS}\b"
        rf"|\b(?:pay\s+no\s+attention\s+to|no\s+longer\s+(?:follow|obey)|supersede|overrule|"
        rf"scrap|void|cancel)\s+{_PRIOR}{_ORDERS}\b"
        rf"|\b{_PRIOR}{_ORDERS}\s+(?:no\s+longer\s+appl(?:y|ies)|(?:are|is)\s+(?:now\s+)?"
        r"(?:void|cancell?ed|revoked|obsolete|lifted|suspended))\b",
        (
            "aside",
            "no attention",
            "no longer",
            "supersede",
            "overrule",
            "scrap",
            "void",
            "cancel",
            "revoked",
            "obsolete",
            "lifted",
            "suspended",
        ),
        (
            "instruction",
            "directive",
            "guardrail",
            "rules",
            "guideline",
            "orders",
            "brief",
            "prompt",
            "constraint",
            "polic",
            "safeguard",
        ),
    ),
    phrase(
        "ignore_instructions",
        "instruction override",
        r"\b(?:whatever|everything|anything)\s+(?:your|the)\s+(?:operator|user|developer|creator|"
        r"owner|admin|system\s+prompt)s?\s+(?:told|said\s+to|asked|instructed)\s+you\b",
        ("told you", "said to you", "asked you", "instructed you"),
        anchor=re.compile("told you|said to you|asked you|instructed you"),
        window=(80, 10),
    ),
    phrase(
        "ignore_instructions",
        "instruction override",
        # Japanese, Korean, Hindi, Arabic, Turkish, Ukrainian, Vietnamese, Indonesian, Chinese
        r"(?:以前|これまで|前|上記|先)の(?:すべての|全ての)?指示(?:を|は)(?:すべて|全て)?(?:無視|忘れ)"
        r"|이전(?:의)?\s*(?:모든\s*)?(?:지시|지침|명령)(?:를|을|사항을)?\s*(?:모두\s*)?무시"
        r"|पिछले\s+(?:सभी\s+)?(?:निर्देशों|आदेशों)\s+को\s+(?:अनदेखा|नज़रअंदाज़|नजरअंदाज)"
        r"|تجاهل\s+(?:جميع\s+|كل\s+)?(?:التعليمات|الأوامر|الإرشادات)\s+السابقة"
        r"|önceki\s+(?:tüm\s+)?(?:talimatlar\u0131|komutlar\u0131)\s+(?:yok\s+say|görmezden\s+gel|unut)"
        r"|ігноруй(?:те)?\s+(?:всі\s+)?попередні\s+(?:інструкції|вказівки)"
        r"|bỏ\s+qua\s+(?:tất\s+cả\s+)?(?:các\s+)?(?:hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị)\s+trước"
        r"|abaikan\s+(?:semua\s+)?(?:instruksi|perintah)\s+sebelumnya"
        r"|(?:无视|無視|忘记|忘記)(?:之前|以上|前面)(?:的)?(?:所有)?(?:指令|说明|指示|說明)",
        (
            "指示",
            "무시",
            "निर्देश",
            "आदेश",
            "تجاهل",
            "önceki",
            "ігнору",
            "bỏ qua",
            "abaikan",
            "无视",
            "無視",
            "忘记",
            "忘記",
        ),
    ),
    phrase(
        "authority_claim",
        "claims priority over the agent's instructions",
        r"\bthis\s+(?:memory|note|reflection|lesson|message|file|text|entry|rule)\s+(?:outranks|"
        r"overrides|supersedes|trumps|takes\s+precedence\s+over|has\s+(?:priority|precedence)\s+"
        r"over)\b"
        r"|\b(?:follow|obey)\s+this\s+(?:memory|note|reflection|message)\s+(?:and\s+)?(?:not|"
        r"instead\s+of|over|rather\s+than)\b"
        r"|\btreat\s+(?:the\s+)?(?:requests|instructions|orders)\s+in\s+this\s+(?:note|memory|"
        r"reflection|message)\s+as\s+(?:your|the)\b",
        (
            "outrank",
            "override",
            "supersede",
            "trumps",
            "precedence over",
            "priority over",
            "follow this",
            "obey this",
            "in this note",
            "in this memory",
            "in this reflection",
            "in this message",
        ),
    ),
    phrase(
        "consent_claim",
        "claims consent given in advance",
        r"\b(?:has|have)\s+(?:already\s+)?(?:pre-?)?(?:approved|authori[sz]ed|consented\s+to)\s+"
        r"(?:all|every|any)\b[^.\n]{0,120}?\b(?:do\s+not|don'?t|never|no\s+need\s+to)\s+(?:ask|"
        r"request|seek|wait)"
        r"|\bno\s+pidas\s+confirmaci[oó]n|\bnão\s+peç[ae]\s+confirma[çc][ãa]o"
        r"|\bne\s+demande[zs]?\s+(?:pas|plus)\s+(?:de\s+)?confirmation"
        r"|\bfrag(?:e|en\s+sie)?\s+nicht\s+(?:mehr\s+)?nach\s+(?:einer\s+)?best[äa]tigung"
        r"|\b(?:do\s+not|don'?t|never)\s+ask\s+(?:the\s+user\s+)?for\s+(?:confirmation|"
        r"approval|permission)\s+(?:again|anymore|any\s+more|from\s+now\s+on)",
        (
            "approved",
            "authorised",
            "authorized",
            "consented",
            "confirmaci",
            "confirmação",
            "confirmacao",
            "confirmation",
            "bestätigung",
            "bestatigung",
        ),
    ),
    phrase(
        "deception",
        "instruction to deceive",
        r"\b(?:tell|inform|assure|answer|reply\s+to)\s+(?:it|them|the\s+(?:reviewer|scanner|tool|"
        r"auditor|checker|user|human))\s+(?:that\s+)?(?:the\s+content|this(?:\s+\w+)?|it)\s+is\s+"
        r"(?:a\s+)?(?:false\s+positive|safe|approved|benign|harmless)"
        r"|\breport\s+(?:every|each|all|the)\s+[\w-]+\s+as\s+(?:successful|passed|green|ok|"
        r"complete[d]?|healthy)\b[^.\n]{0,40}?\beven\s+(?:when|if)\b"
        r"|\b(?:reply|respond|answer|sign|write)\s+as\s+if\s+you\s+(?:are|were)\s+(?:the\s+)?"
        r"(?:cfo|ceo|cto|manager|owner|customer|admin|approver|human|director|boss|user)\b"
        r"|\b(?:confirm|approve|sign\s+off)\s+(?:it|this|them)\s+yourself\b"
        r"|\b(?:do\s+not|don'?t|never)\s+(?:mention|tell|reveal|disclose|report)\s+[^.\n]{0,30}?"
        r"\bto\s+the\s+(?:user|human|operator|reviewer|customer)s?\b[^.\n]{0,20}?\beven\s+if\b",
        (
            "false positive",
            "safe",
            "approved",
            "benign",
            "harmless",
            "even when",
            "even if",
            "as if you",
            "yourself",
        ),
    ),
    phrase(
        "self_replication",
        "instruction to copy itself into other memories",
        r"\b(?:copy|repeat|include|append|insert|paste|add|carry)\s+this\s+(?:paragraph|note|text|"
        r"instruction|message|line|sentence|block|rule|section)s?\b[^.\n]{0,40}?\b(?:into|in|to)\s+"
        r"(?:every|each|all|any)\s+(?:future\s+|new\s+|other\s+)?(?:reflection|memory|memories|"
        r"note|reply|replies|response|message|output|file|lesson)s?\b",
        (
            "copy this",
            "repeat this",
            "include this",
            "append this",
            "insert this",
            "paste this",
            "add this",
            "carry this",
        ),
    ),
    phrase(
        "decode_and_follow",
        "instruction to decode and follow",
        r"\b(?:decode|convert|translate|unhex|unescape|url-?decode|base64\s+-d)\b[^.\n]{0,50}?"
        r"\b(?:and|then)\s+(?:follow|execute|run|obey|carry\s+out|act\s+on|do)\s+"
        r"(?:it|them|this|that|what\s+it\s+says|the\s+(?:result|instructions?|output))\b",
        ("decode", "convert", "translate", "unhex", "unescape", "base64"),
        ("follow", "execute", "run", "obey", "carry out", "act on", " do "),
    ),
    _order_rule(
        "ignore_instructions",
        "instruction override",
        r"\b(?:disregard|ignore|bypass|override|circumvent)\s+(?:your|the|our|all|any)\s+"
        r"(?:[\w-]+\s+)?(?:limits?|polic(?:y|ies)|checks|approval\s+process|spending\s+caps?|"
        r"change\s+freeze|code\s+freeze|freeze)\b(?!\s+(?:linter|lint|warning|file|test))",
        ("disregard", "ignore", "bypass", "override", "circumvent"),
    ),
    phrase(
        "role_override",
        "role override",
        r"\byour\s+(?:only|sole|real|true|new)\s+(?:job|task|goal|purpose|mission)\s+"
        r"(?:now\s+|here\s+)?is\s+to\b"
        r"|\byou\s+are\s+now\s+[A-Z][\w-]+\s*,"
        r"|\b(?:unrestricted|unfiltered|uncensored|unlimited)\s+(?:\w+\s+)?(?:persona|mode|"
        r"assistant|ai|version|agent|character)\b",
        (
            "you are now",
            "unrestricted",
            "unfiltered",
            "uncensored",
            "unlimited",
            "your only",
            "your sole",
            "your real",
            "your true",
            "your new",
        ),
    ),
    _order_rule(
        "standing_order",
        "a standing order",
        r"\b(?:approve|merge|deploy|push|release|pay|refund|transfer|delete|drop|wipe|grant)\b"
        r"[^.\n]{0,80}?\bwithout\s+(?:(?:waiting\s+for|asking|checking(?:\s+with)?|confirming"
        r"(?:\s+with)?|confirmation\s+from|any|running|the)\s+)?(?:the\s+)?(?:ci|review|reviews|"
        r"approval|user|human|owner|confirmation|checks?|tests?|policy)\b",
        ("without",),
    ),
    _order_rule(
        "standing_order",
        "a standing order",
        r"\b(?:print|printing|reveal|revealing|output|outputting|dump|dumping|disclose|disclosing|"
        r"echo|echoing|paste|pasting|send|sending)\s+(?:out\s+)?(?:your|the|all|any|every)\s+"
        r"(?:\w+\s+){0,3}(?:system\s+prompt|api\s+keys?|environment\s+variables|env\s+vars|"
        r"credentials|secrets|passwords|private\s+keys?|admin\s+password)\b",
        (
            "system prompt",
            "api key",
            "environment variable",
            "env var",
            "credential",
            "secret",
            "password",
            "private key",
        ),
    ),
    _order_rule(
        "standing_order",
        "a standing order",
        r"\b(?:turn\s+off|disable|delete|clear|wipe|erase|purge|truncate)\s+(?:the\s+)?"
        r"(?:audit\s+(?:log(?:ging|s)?|trail)|security\s+log(?:ging|s)?)\b"
        r"|\bgrant\s+(?:the\s+)?[\w.@-]+\s+(?:account|user|service\s+account|group)?\s*"
        r"(?:the\s+)?(?:owner|admin(?:istrator)?|root|superuser|full)\s+(?:role|access|rights|"
        r"permissions?)\b",
        ("audit", "security log", "grant"),
    ),
    phrase(
        "new_instructions",
        "injected instructions",
        r"\b(?:agent|ai|assistant|model|llm|bot)\s+(?:directive|instruction|order|command)s?\s*:",
        (
            "directive:",
            "instruction:",
            "order:",
            "command:",
            "directives:",
            "instructions:",
            "orders:",
            "commands:",
            "directive :",
            "instruction :",
        ),
    ),
)
