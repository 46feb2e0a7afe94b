"""Runs of the reference Reflexion implementation (Shinn et al., 2023), read as attempts and
the reflections written between them (pure: text in, dataclasses out).

Two formats (docs/data-formats.md, "Reflexion runs"):

* **Programming runs**: one problem a JSON line, `task_id` or `name`, `prompt`, `is_solved`
  and, for a Reflexion run, `reflections` (strings, in trial order); a baseline run has no
  `reflections`. A problem with n reflections was attempted n + 1 times: the first n failed,
  the last one's outcome is `is_solved`; reflection i was written after attempt i and was in
  memory for every later attempt. The file name says the rest:
  `<benchmark>._<strategy>_<max iterations>_<model>_pass_at_k_<k>[_<language>].jsonl`.
* **ALFWorld runs**: a folder of `env_results_trial_<N>.json` (N = 0, 1, …), each a list of
  `{"name", "memory", "is_success"}`: every environment's memory and success *after* trial N.
  An environment is attempted in trial N unless it succeeded before; the memory it carried
  into trial N is its memory after trial N - 1; what trial N added to it was written after
  trial N.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from reflections.importers.base import ParseError
from reflections.importers.duplicates import DuplicateKey, json_duplicate_error, unique_pairs

KIND_PROGRAMMING = "programming"
KIND_ALFWORLD = "alfworld"
# <benchmark>._<strategy>_<iterations>_<model>_pass_at_k_<k>[_<language>].jsonl, where the
# benchmark may end in dots (".gz" once named a compressed dataset: "humaneval-py..gz").
_PROGRAMMING_NAME = re.compile(
    r"^(?:(?P<benchmark>.+?)\.+(?:gz)?_)?(?P<strategy>[a-z][a-z-]*)_(?P<iterations>\d+)_"
    r"(?P<model>.+?)_pass_at_k_(?P<k>\d+)(?:_(?P<language>[a-z]+))?\.jsonl$"
)
_TRIAL_FILE = re.compile(r"^env_results_trial_(\d+)\.json$")
# Reflections from the programming runs open with the verdict; the first sentence is a title.
_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.S)
MAX_TITLE = 160
MAX_PROMPT = 600


@dataclass(frozen=True)
class RunName:
    """What a run's file or folder name says about it."""

    label: str  # the file or folder name, as given
    benchmark: str  # "humaneval-py", "leetcode-hard-py-40-uncontaminated", "alfworld"
    strategy: str  # "reflexion", "simple", …
    model: str  # "gpt-4", "text-davinci-003", or "" when the name does not say
    language: str = ""  # "py", "rs"


@dataclass
class Attempt:
    trial: int  # 0 for the first attempt
    solved: bool
    memory: list[int] = field(default_factory=list)  # the problem's reflections it carried


@dataclass
class Problem:
    key: str  # task_id, name, or environment name
    line: int  # the JSON line (programming) or the entry's position in trial 0's list
    prompt: str
    reflections: list[str]
    attempts: list[Attempt]

    @property
    def solved(self) -> bool:
        return bool(self.attempts) and self.attempts[-1].solved

    def written_after(self, index: int) -> int:
        """The trial after which reflection `index` was written."""
        for attempt in self.attempts:
            if index < len(attempt.memory):
                return attempt.trial - 1
        return self.attempts[-1].trial if self.attempts else 0


@dataclass
class ParsedRun:
    kind: str
    name: RunName
    problems: list[Problem]
    notes: list[str] = field(default_factory=list)  # what was read back rather than read

    @property
    def baseline(self) -> bool:
        return not any(p.reflections for p in self.problems)

    @property
    def trials(self) -> int:
        return 1 + max((a.trial for p in self.problems for a in p.attempts), default=0)

    def solved_by_trial(self) -> list[int]:
        """Problems solved at or before each trial (cumulative)."""
        solved = [0] * self.trials
        for problem in self.problems:
            done = next((a.trial for a in problem.attempts if a.solved), None)
            if done is not None:
                for trial in range(done, self.trials):
                    solved[trial] += 1
        return solved


# ------------------------------------------------------------------ names


def run_name(path: str) -> RunName:
    """A programming run's file name or an ALFWorld run's folder name, read."""
    label = PurePath(path).name
    match = _PROGRAMMING_NAME.match(label)
    if match:
        return RunName(
            label=label,
            benchmark=(match["benchmark"] or "").strip("._-") or "programming",
            strategy=match["strategy"],
            model=match["model"],
            language=match["language"] or "",
        )
    strategy = "simple" if "base" in label.lower() else "reflexion"
    if label.endswith(".jsonl"):
        return RunName(label, PurePath(label).stem.strip("._-") or "programming", strategy, "")
    return RunName(label, "alfworld", strategy, "")


# ------------------------------------------------------------------ programming


def _key(data: dict, line: int) -> str:
    for name in ("task_id", "name"):
        value = data.get(name)
        if value is not None:
            if not isinstance(value, str | int) or not str(value).strip():
                raise ParseError(f"expected a text, got {value!r}", line=line, field=name)
            return str(value).strip()
    raise ParseError("is missing (a problem needs task_id or name)", line=line, field="task_id")


def _strings(value, *, field_name: str, line: int) -> list[str]:
    if not isinstance(value, list):
        raise ParseError(f"expected a list of texts, got {type(value).__name__}", line=line,
                         field=field_name)  # fmt: skip
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ParseError(
                f"item {index + 1} is {type(item).__name__}, not a text",
                line=line,
                field=field_name,
            )
    return [item.strip() for item in value]


def parse_programming_run(text: str, *, path: str) -> ParsedRun:
    """One problem a line; a bad line raises ParseError with its line number and field."""
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw, object_pairs_hook=unique_pairs)
        except DuplicateKey as exc:
            raise json_duplicate_error(raw, exc.key, line=number, field=None) from None
        except json.JSONDecodeError as exc:
            raise ParseError(f"is not valid JSON ({exc.msg})", line=number) from None
        if not isinstance(data, dict):
            raise ParseError(f"expected a JSON object, found {type(data).__name__}", line=number)
        key = _key(data, number)
        if key in seen:
            raise ParseError(
                f"{key!r} was already on line {seen[key]}", line=number, field="task_id"
            )
        seen[key] = number
        solved = data.get("is_solved")
        if not isinstance(solved, bool):
            raise ParseError(
                "is missing" if solved is None else f"expected true or false, got {solved!r}",
                line=number,
                field="is_solved",
            )
        reflections = (
            _strings(data["reflections"], field_name="reflections", line=number)
            if "reflections" in data
            else []
        )
        prompt = data.get("prompt", "")
        if not isinstance(prompt, str):
            raise ParseError(f"expected a text, got {type(prompt).__name__}", line=number,
                             field="prompt")  # fmt: skip
        attempts = [Attempt(trial, False, list(range(trial))) for trial in range(len(reflections))]
        attempts.append(Attempt(len(reflections), solved, list(range(len(reflections)))))
        problems.append(Problem(key, number, prompt.strip(), reflections, attempts))
    if not problems:
        raise ParseError("holds no problem")
    return ParsedRun(KIND_PROGRAMMING, run_name(path), problems)


# ------------------------------------------------------------------ ALFWorld


def trial_files(names: list[str]) -> dict[int, str]:
    """trial N → file name, for the env_results_trial_<N>.json among `names`."""
    found = {int(m[1]): name for name in names if (m := _TRIAL_FILE.match(PurePath(name).name))}
    return dict(sorted(found.items()))


def parse_alfworld_run(trials: dict[int, str], *, path: str) -> ParsedRun:
    """`trials` maps N to the text of env_results_trial_<N>.json, with no gap. A bad file
    raises ParseError naming it (as `path/file`) and the entry's position. When the first
    files are missing (the reference implementation's published baseline run starts at trial
    1), the trials before the first file are read back from its memories (_read_back)."""
    if not trials:
        raise ParseError("holds no env_results_trial_<N>.json file")
    first = min(trials)
    missing = [n for n in range(first, max(trials) + 1) if n not in trials]
    if missing:
        raise ParseError(
            f"env_results_trial_{missing[0]}.json is missing (trials must follow each other "
            "with no gap)"
        )
    states: list[dict[str, tuple[list[str], bool]]] = []
    order: list[str] = []
    for trial in range(first, max(trials) + 1):
        where = f"env_results_trial_{trial}.json"
        try:
            data = json.loads(trials[trial], object_pairs_hook=unique_pairs)
        except DuplicateKey as exc:
            raise json_duplicate_error(trials[trial], exc.key, line=None, field=where) from None
        except json.JSONDecodeError as exc:
            raise ParseError(f"{where}: is not valid JSON ({exc.msg})", line=exc.lineno) from None
        if not isinstance(data, list):
            raise ParseError(f"{where}: expected a list of environments")
        state = {}
        for position, entry in enumerate(data, start=1):
            if not isinstance(entry, dict):
                raise ParseError(f"{where}: entry {position} is not an object")
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                raise ParseError(f"{where}: entry {position} has no name", field="name")
            success = entry.get("is_success")
            if not isinstance(success, bool):
                raise ParseError(
                    f"{where}: entry {position} ({name}): expected true or false",
                    field="is_success",
                )
            memory = _strings(entry.get("memory", []), field_name="memory", line=position)
            state[name] = (memory, success)
            if trial == first:
                order.append(name)
        if states and set(state) != set(states[0]):
            odd = sorted(set(state) ^ set(states[0]))[0]
            raise ParseError(f"{where}: environment {odd} is not in every trial", field="name")
        states.append(state)
    notes = []
    if first:
        states = _read_back(states[0], first) + states
        gone = (
            "env_results_trial_0.json is missing: trial 0 was"
            if first == 1
            else f"env_results_trial_0 to _{first - 1}.json are missing: trials 0 to "
            f"{first - 1} were"
        )
        notes.append(
            f"{gone} read back from trial {first}'s memories (the reference implementation "
            "writes one reflection after each failed trial)"
        )
    problems = []
    for position, name in enumerate(order, start=1):
        reflections: list[str] = []
        attempts: list[Attempt] = []
        for trial, state in enumerate(states):
            memory, success = state[name]
            before = states[trial - 1][name] if trial else ([], False)
            if before[1]:
                break  # solved earlier: not attempted again
            attempts.append(Attempt(trial, success, list(range(len(reflections)))))
            new = (
                memory[len(before[0]) :]
                if memory[: len(before[0])] == before[0]
                else [m for m in memory if m not in before[0]]
            )
            reflections.extend(new)
        problems.append(Problem(name, position, "", reflections, attempts))
    return ParsedRun(KIND_ALFWORLD, run_name(path), problems, notes)


def _read_back(
    earliest: dict[str, tuple[list[str], bool]], first: int
) -> list[dict[str, tuple[list[str], bool]]]:
    """Each environment's state after trials 0 … first - 1 from its state after `first`: the
    reference implementation writes a reflection after each failed trial, so an environment
    solved with r reflections failed trials 0 … r - 1 and was solved in trial r, and one not
    solved failed every trial. ParseError when no memory says anything (a run without
    reflections cannot tell when its environments were solved)."""
    if not any(memory for memory, _ in earliest.values()):
        raise ParseError(
            f"env_results_trial_0.json is missing, and no memory in trial {first} tells what "
            "happened before it"
        )
    states = []
    for trial in range(first):
        state = {}
        for name, (memory, success) in earliest.items():
            solved_in = min(len(memory), first) if success else None
            solved = solved_in is not None and trial >= solved_in
            state[name] = (memory[: min(trial + 1, len(memory))], solved)
        states.append(state)
    return states


def title_of(reflection: str) -> str:
    """The reflection's first sentence, cut to MAX_TITLE characters."""
    match = _SENTENCE.match(reflection.strip())
    first = " ".join((match[1] if match else reflection).split())
    return first if len(first) <= MAX_TITLE else first[: MAX_TITLE - 1].rstrip() + "…"
