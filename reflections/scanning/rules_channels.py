"""Injection rules about where data goes: exfiltration orders, links and images that carry
data out, phishing for credentials, remote scripts."""

from __future__ import annotations

import re

from reflections.scanning.findings import INJECTION
from reflections.scanning.rule import Rule
from reflections.scanning.rules_injection import IGNORECASE, phrase

CHANNEL_RULES: tuple[Rule, ...] = (
    phrase(
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
    phrase(
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
            IGNORECASE | re.M,
        ),
        "a link or image that would carry data out",
        cues=(("](", "]:"), ("http",), ("?",)),
    ),
    phrase(
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
    phrase(
        "remote_script",
        "instruction to run a remote script",
        r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|k)?sh\b"
        r"|\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?python3?\b"
        r"|\bpowershell\b[^\n]{0,40}\s-(?:enc|encodedcommand|e)\s+[A-Za-z0-9+/=]{16,}",
        ("curl", "wget", "iwr", "invoke-webrequest", "powershell"),
    ),
)
