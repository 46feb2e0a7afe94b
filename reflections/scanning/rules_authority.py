"""Injection rules about who speaks and with what authority: fake system turns and chat
templates, claimed priority, orders addressed to the model, safeguards switched off."""

from __future__ import annotations

import re

from reflections.scanning.rule import Rule
from reflections.scanning.rules_injection import phrase

AUTHORITY_RULES: tuple[Rule, ...] = (
    phrase(
        "fake_turn",
        "a fake system or developer message",
        r"(?:^|[\"'(\[{,;]\s*)[ \t>*#\[<]*(?:SYSTEM|DEVELOPER|SYS)\s*[\]>*]*\s*:"
        r"|(?i:^[ \t>*#\[<]*(?:system|developer)\s*[\]>*]*\s*:[^\n]{0,80}\b(?:you|ignore|always|"
        r"never|must|assistant|instructions?|override|from\s+now\s+on|respond|reply|answer)\b)"
        r"|(?i:^\s*#{2,3}\s*(?:instruction|system|response|human|assistant)s?\s*:)",
        ("system", "developer", "sys", "###"),
        flags=re.M,
    ),
    phrase(
        "fake_turn",
        "a fake dialogue turn",
        r"^\s*(?:human|user)\s*:[\s\S]{0,600}?^\s*(?:assistant|ai|model)\s*:",
        ("human:", "user:"),
        ("assistant:", "ai:", "model:"),
        flags=re.I | re.M,
    ),
    phrase(
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
    phrase(
        "new_instructions",
        "injected instructions",
        r"\b(?:new|updated|revised|real|actual|important|additional|secret|hidden|urgent)\s+"
        r"(?:system\s+)?(?:instructions?|rules?|directives?)\s*(?::|for\s+(?:the\s+)?"
        r"(?:ai|assistant|model|agent|llm))"
        r"|\b(?:note|message|instructions?|reminder)[\s_-]+(?:to|for)[\s_-]+(?:the[\s_-]+|any\s+|all\s+)?"
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
            "note-to",
            "note_to",
            "note-for",
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
            r"instruction|reminder)s?[\s_-]+(?:to|for)[\s_-]|if\s+you\s+are\s"
        ),
        window=(60, 100),
    ),
    phrase(
        "authority_claim",
        "claims authority over the agent's instructions",
        r"\b(?:higher|top|highest|absolute|overriding)\s+priority\s+(?:than|over)\s+(?:the\s+|your\s+)?"
        r"(?:system\s+prompt|instructions|rules|guidelines)"
        r"|\b(?:takes?|take)\s+precedence\s+over\s+(?:the\s+|your\s+|any\s+|our\s+)?"
        r"(?:system|other|previous|refund|security|company)?\s*(?:prompt|instructions|rules|"
        r"polic(?:y|ies)|guidelines|limits)"
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
    phrase(
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
    phrase(
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
    phrase(
        "approval_override",
        "instruction to approve",
        r"\b(?:always|automatically|unconditionally)\s+(?:approve|"
        r"mark\s+(?:it|this|them|everything|all|the\s+\w+)\s+as\s+(?:safe|approved|passed|"
        r"compliant|valid|verified|correct))\b",
        ("always", "automatically", "unconditionally"),
        ("approve", "mark"),
    ),
)
