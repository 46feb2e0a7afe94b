"""Contact details people write in words, and the names beside them: an e-mail address spelled
out ("j.doe at acme dot com"), a person's full name next to a phone number or an address."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from reflections.scanning.findings import PERSONAL, Finding
from reflections.scanning.rule import Rule
from reflections.scanning.rules_personal import _FULL_NAME
from reflections.scanning.values import is_documentation_domain

_I = re.IGNORECASE
# "at" and "dot" in the languages the cues cover: arobase / point, arroba / punto, Punkt,
# chiocciola / punto, apenstaartje / punt, arroba / ponto.
_AT_WORDS = r"(?:at|arobase|arroba|chiocciola|apenstaartje|klammeraffe)"
_DOT_WORDS = r"(?:dot|point|punto|punkt|punt|ponto)"
_AT = rf"(?:\s+{_AT_WORDS}\s+|\s*[\[({{<]\s*{_AT_WORDS}\s*[\])}}>]\s*|\s+@\s+)"
_DOT = rf"(?:\s+{_DOT_WORDS}\s+|\s*[\[({{<]\s*{_DOT_WORDS}\s*[\])}}>]\s*)"
# Top-level domains people spell out; a longer list would only add "at the dot …" prose.
_TLD = (
    r"(?:com|org|net|edu|gov|io|co|info|biz|de|fr|es|it|nl|be|uk|ie|pl|se|no|dk|fi|pt|ch|at|"
    r"tr|il|in|cn|jp|kr|au|ca|mx|cl|sg|za|eu|us)"
)
# Words that are prose, not a mailbox or a domain ("look at the dot com era").
_PROSE = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "our",
        "your",
        "my",
        "his",
        "her",
        "their",
        "we",
        "us",
        "you",
        "me",
        "him",
        "them",
        "look",
        "looked",
        "looking",
        "stare",
        "staring",
        "arrive",
        "arrived",
        "aim",
        "aimed",
        "point",
        "pointed",
    ]
)


def _spelled_email(match: re.Match[str]) -> str | None:
    user, domain = match.group("user"), match.group("domain")
    if user.lower() in _PROSE or domain.split()[0].lower() in _PROSE:
        return None
    written = re.sub(rf"{_DOT}", ".", domain, flags=_I)
    if is_documentation_domain(written):
        return None
    return "email address written out"


_SPELLED_EMAIL = re.compile(
    rf"(?<![\w.+-])(?P<user>[a-z0-9][a-z0-9._%+-]*){_AT}"
    rf"(?P<domain>[a-z0-9][a-z0-9-]*(?:(?:{_DOT}|\.)[a-z0-9][a-z0-9-]*)*{_DOT}{_TLD})"
    r"(?![\w-])",
    _I,
)
# The other languages' word for "at": rare enough to be the cue ("point" and "punto" are not).
_LOCAL_AT = ("arobase", "arroba", "chiocciola", "apenstaartje", "klammeraffe")

SPELLED_CONTACT_RULES: tuple[Rule, ...] = (
    Rule(
        "personal.email_spelled",
        PERSONAL,
        _SPELLED_EMAIL,
        _spelled_email,
        cues=(("dot",),),
        gates=(re.compile(r"\bat\b|@"),),
    ),
    Rule(
        "personal.email_spelled",
        PERSONAL,
        _SPELLED_EMAIL,
        _spelled_email,
        cues=(_LOCAL_AT,),
        anchor_cues=True,
        window=(60, 90),
    ),
)

# Capitalised words that start sentences or name things, never a person's name.
_NOT_A_NAME = frozenset(
    [
        "The",
        "This",
        "That",
        "These",
        "Those",
        "Our",
        "Your",
        "My",
        "His",
        "Her",
        "Their",
        "Its",
        "We",
        "You",
        "He",
        "She",
        "They",
        "It",
        "If",
        "When",
        "After",
        "Before",
        "Then",
        "And",
        "Or",
        "But",
        "On",
        "In",
        "At",
        "For",
        "To",
        "From",
        "With",
        "Please",
        "Call",
        "Send",
        "Mail",
        "Email",
        "Ring",
        "Text",
        "Contact",
        "Ask",
        "Reach",
        "Phone",
        "Mobile",
        "Customer",
        "Client",
        "Dear",
        "Hi",
        "Hello",
        "Thanks",
        "Regards",
        "Team",
        "Support",
        "Sales",
        "Service",
        "Desk",
        "Help",
        "Office",
        "Ltd",
        "Inc",
        "Gmbh",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Street",
        "Road",
        "Avenue",
        "Lane",
    ]
)
_SENTENCE_END = re.compile(r"[.!?]\s|\n")


def names_beside_contacts(text: str, contacts: Iterable[Finding]) -> Iterator[Finding]:
    """A full name (two or three capitalised words) in the sentence of a personal contact
    finding, within 80 characters before it or 40 after: whose number or address it is."""
    seen: set[tuple[int, int]] = set()
    for contact in contacts:
        if contact.rule == "personal.name":
            continue
        before = max(0, contact.start - 80)
        last_end = None
        for end in _SENTENCE_END.finditer(text, before, contact.start):
            last_end = end.end()
        start = last_end if last_end is not None else before
        stop = min(len(text), contact.end + 40)
        next_end = _SENTENCE_END.search(text, contact.end, stop)
        stop = next_end.start() if next_end else stop
        for window in ((start, contact.start), (contact.end, stop)):
            for match in re.finditer(_FULL_NAME, text[window[0] : window[1]]):
                span = _name_span(match, window[0])
                if span and span not in seen:
                    seen.add(span)
                    yield Finding("personal.name", PERSONAL, *span, "a person's name")


def _name_span(match: re.Match[str], offset: int) -> tuple[int, int] | None:
    words = list(re.finditer(r"\S+", match.group()))
    while words and words[0].group() in _NOT_A_NAME:
        words.pop(0)
    if len(words) < 2 or any(w.group() in _NOT_A_NAME for w in words):
        return None
    return offset + match.start() + words[0].start(), offset + match.start() + words[-1].end()
