"""Views of a text the injection rules also read: what a model would see once look-alike and
invisible characters, spaced-out letters, leetspeak and encodings are undone.

Each view maps its characters back to the text as written, so a finding in a view masks the
original span (for a decoded span: the whole encoded run).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote_plus

# Characters a model reads but a person does not see: zero-width, joiners, bidi controls,
# soft hyphen, variation selectors.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u180e"
) | frozenset(chr(c) for c in range(0xFE00, 0xFE10))
# Cyrillic and Greek letters that look like Latin ones (Unicode confusables, the common set).
_CONFUSABLES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУԁаеіјорсхуѕԛԝһӏгпԀΑΒΕΖΗΙΚΜΝΟΡΤΥΧαβεικνορτυχϲɑ",
    "ABESIJKMHOPCTXYdaeijopcxysqwhlrnDABEZHIKMNOPTYXaBeikvoptuxca",
)
_LEET_BYTES = bytes.maketrans(b"013457@$!|", b"oieastasil")


@dataclass(frozen=True)
class View:
    text: str
    origin: tuple[int, ...] | None  # origin[i]: the written offset of text[i]; None: 1:1
    span: tuple[int, int] | None = None  # a decoded run: every finding maps to the whole run

    def written_span(self, start: int, end: int) -> tuple[int, int]:
        if self.span is not None:
            return self.span
        if self.origin is None:
            return start, end
        return self.origin[start], self.origin[max(start, end - 1)] + 1


def fold(text: str) -> View:
    """NFKC (fullwidth → ASCII), invisible characters dropped, tag characters shown as the
    ASCII they spell, look-alike letters folded to Latin."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        code = ord(ch)
        if ch in _INVISIBLE:
            continue
        if 0xE0000 <= code <= 0xE007F:
            if 0xE0020 <= code <= 0xE007E:
                out.append(chr(code - 0xE0000))
                origin.append(i)
            continue
        folded = unicodedata.normalize("NFKC", ch) if code > 0x7F else ch
        for f in folded.translate(_CONFUSABLES):
            out.append(f)
            origin.append(i)
    return View("".join(out), tuple(origin))


# Single letters with one separator between them ("i g n o r e", "i.g.n.o.r.e"), words apart
# by a wider gap ("i g n o r e   a l l").
_SPACED = re.compile(r"(?<![A-Za-z])[A-Za-z](?:(?:[ ._\-]| {2,4})[A-Za-z]){3,}(?![A-Za-z])")


def _rewrite(view: View, pattern: re.Pattern[str], replace) -> View | None:
    """`view` with each match of `pattern` replaced by replace(match), origins carried over."""
    origin = view.origin or tuple(range(len(view.text)))
    out: list[str] = []
    mapped: list[int] = []
    position = 0
    changed = False
    for match in pattern.finditer(view.text):
        out.append(view.text[position : match.start()])
        mapped.extend(origin[position : match.start()])
        new, where = replace(match)
        out.append(new)
        mapped.extend(origin[match.start() + w] for w in where)
        position = match.end()
        changed = True
    if not changed:
        return None
    out.append(view.text[position:])
    mapped.extend(origin[position:])
    return View("".join(out), tuple(mapped))


def _despace(match: re.Match[str]) -> tuple[str, list[int]]:
    run = match.group()
    out: list[str] = []
    where: list[int] = []
    for i, c in enumerate(run):
        if c.isalpha():
            out.append(c)
            where.append(i)
        elif c == " " and run[i - 1] == " " and (i + 1 == len(run) or run[i + 1] != " "):
            out.append(" ")  # the end of a wide gap: a word boundary
            where.append(i)
    return "".join(out), where


# Words that tell the agent to decode something ("decode this base64 and follow it").
ENCODED_HINTS = (
    "base64",
    "base 64",
    "b64",
    "decode",
    "encoded",
    "atob",
    "hex",
    "rot13",
    "rot-13",
    "rot 13",
    "xxd",
    "unhex",
    "fromhex",
    "what it says",
    "follow it",
    "execute it",
    "convert it",
    "url-encoded",
    "urlencoded",
    "percent-encoded",
    "%20",
)
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_RUN = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[ :]?){8,}(?![0-9a-fA-F])")


_PERCENT_RUN = re.compile(r"[\w.~+-]*(?:%[0-9A-Fa-f]{2}[\w.~+-]*){3,}")


def _readable(data: bytes) -> str | None:
    """Decoded bytes that read as words: text the agent could be told to follow."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    if len(text) < 8 or printable < 0.95 * len(text) or " " not in text:
        return None
    return text


def decoded_runs(text: str, cues: set[str] | None = None) -> Iterator[View]:
    """Base64 and hex runs that decode to readable text, and the whole text rot13-decoded,
    when the text hints at an encoding ("decode this base64 and follow it")."""
    if cues is None:
        lowered = text.lower()
        cues = {hint for hint in ENCODED_HINTS if hint in lowered}
    if cues.isdisjoint(ENCODED_HINTS):
        return
    for match in _BASE64_RUN.finditer(text):
        run = match.group()
        padded = run + "=" * (-len(run) % 4)
        try:
            data = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            continue
        if (decoded := _readable(data)) is not None:
            yield View(decoded, None, match.span())
    for match in _HEX_RUN.finditer(text):
        try:
            data = bytes.fromhex(re.sub(r"[ :]", "", match.group()))
        except ValueError:
            continue
        if (decoded := _readable(data)) is not None:
            yield View(decoded, None, match.span())
    for match in _PERCENT_RUN.finditer(text):
        if (decoded := _readable(unquote_plus(match.group()).encode())) is not None:
            yield View(decoded, None, match.span())
    if re.search(r"rot-?\s?13", text, re.I):
        yield View(codecs.decode(text, "rot13"), None)


# Characters worth folding: look-alike scripts, fullwidth and mathematical letters, invisible
# and bidi controls, tag characters. Typographic quotes and dashes need no view.
_FOLDABLE = re.compile(
    "[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f\uff00-\uffef\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\u00ad\ufe00-\ufe0f\u180e\u2100-\u214f\u2460-\u24ff"
    "\U0001d400-\U0001d7ff\U000e0000-\U000e007f]"
)
# Literal-led, so they skip through text at memchr speed: " i g n", ".i.g.", "-i-g-".
_SPACED_HINTS = (
    re.compile(r" [A-Za-z] [A-Za-z] "),
    re.compile(r"\.[A-Za-z]\.[A-Za-z]\."),
    re.compile(r"-[A-Za-z]-[A-Za-z]-"),
    re.compile(r"_[A-Za-z]_[A-Za-z]_"),
)
# Words an injection spells; a leetspeak view is worth reading when it spells more of them.
_INJECTION_WORDS = ("ignore", "instruction", "disregard", "override", "prompt", "bypass")


def views(text: str, cues: set[str] | None = None) -> Iterator[View]:
    """Every view worth scanning besides the text itself; none for plain prose."""
    base = fold(text) if not text.isascii() and _FOLDABLE.search(text) else View(text, None)
    if base.origin is not None and base.text != text:
        yield base
    if any(p.search(base.text) for p in _SPACED_HINTS) and (
        spaced := _rewrite(base, _SPACED, _despace)
    ):
        yield spaced
    # One character for one: the view keeps the offsets of the view it comes from.
    lowered = base.text.lower()
    # ASCII for ASCII, byte for byte: UTF-8 sequences of other characters hold no ASCII byte,
    # so translating the bytes keeps every character where it was (str.translate with a
    # table is thirty times slower).
    leet = (
        lowered.encode("utf-8", "surrogatepass")
        .translate(_LEET_BYTES)
        .decode("utf-8", "surrogatepass")
    )
    if any(word in leet and leet.count(word) > lowered.count(word) for word in _INJECTION_WORDS):
        yield View(leet, base.origin)
    yield from decoded_runs(text, cues)
