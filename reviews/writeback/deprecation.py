"""What write-back writes into a file: the deprecation, its keys, and how a result is checked."""

from __future__ import annotations

import json
from dataclasses import dataclass

import yaml

# The verdicts that deprecate (reviews.models.Verdict without "keep"); the file carries the value.
DEPRECATION_REASONS = ("echo_chamber", "outdated", "duplicate")
KEYS = ("deprecated_reason", "archived", "duplicate_of")

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
JSON_WHITESPACE = " \t\n\r"


class WriteBackUnsupported(Exception):
    """This text cannot be written back safely; `reason` says why, for a person."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Deprecation:
    reason: str  # echo_chamber | outdated | duplicate
    duplicate_of: str = ""  # the original's source path; duplicates only

    def __post_init__(self) -> None:
        if self.reason not in DEPRECATION_REASONS:
            raise ValueError(
                f"unknown deprecation reason {self.reason!r}; expected one of "
                + ", ".join(DEPRECATION_REASONS)
            )
        if (self.reason == "duplicate") != bool(self.duplicate_of):
            raise ValueError("duplicate_of is required for a duplicate and only for a duplicate")

    def keys(self) -> dict[str, object]:
        """What the file must say, in the order new keys are added."""
        wanted: dict[str, object] = {"deprecated_reason": self.reason, "archived": True}
        if self.duplicate_of:
            wanted["duplicate_of"] = self.duplicate_of
        return wanted

    def describe(self) -> str:
        return ", ".join(f"{k}: {yaml_scalar(v)}" for k, v in self.keys().items())


def expected_values(current: dict, deprecation: Deprecation) -> dict:
    """`current` with the deprecation applied: a stale duplicate_of goes when the verdict is not
    a duplicate (the reviewer changed their mind after an earlier write-back)."""
    expected = dict(current)
    expected.update(deprecation.keys())
    if not deprecation.duplicate_of:
        expected.pop("duplicate_of", None)
    return expected


def equal(a: object, b: object) -> bool:
    """Equal and of the same type: in Python `1 == True`, but `archived: 1` is not a boolean."""
    return type(a) is type(b) and a == b


def same(a: dict, b: dict) -> bool:
    return a == b and all(equal(a.get(k), b.get(k)) for k in KEYS)


def yaml_scalar(value: object) -> str:
    """A YAML scalar that reads back as exactly `value`: plain when it can be, else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    for candidate in (text, json.dumps(text, ensure_ascii=False)):
        if "\n" in candidate:
            continue
        try:
            if yaml_load(f"k: {candidate}") == {"k": text}:
                return candidate
        except yaml.YAMLError:
            continue
    raise WriteBackUnsupported(f"cannot write {text!r} as a YAML value")


def yaml_load(source: str) -> object:
    # A safe loader only builds plain data, like the importer's (libyaml when available).
    return yaml.load(source, Loader=SAFE_LOADER)  # noqa: S506 - a SafeLoader
