"""Failure modes: which mode a failed or partial task names, steering the repeat-failure rate."""

from __future__ import annotations

import random

from demo.library import Department, TaskType
from demo.scales import DAY
from demo.workspace.state import ModeState, Task


class ModesMixin:
    """Step 6 of a day: a failure mode for every failed or partial task."""

    # -- step 6 --------------------------------------------------------------------------------
    def _mode_state(self, dept: Department, tt: TaskType, kind: str) -> ModeState:
        key = (dept.name, tt.name, kind)
        state = self.modes.get(key)
        if state is None:
            rng = random.Random(f"{self.seed}/{dept.name}/{tt.name}/{kind}")
            entries = tt.fails if kind == "failure" else tt.partials
            if tt.learning:
                bases = [(e.mode, e) for e in entries]
            else:
                ids = tt.routine_fail if kind == "failure" else tt.routine_partial
                bases = [(m, None) for m in ids]
            mode_entry: dict[str, tuple] = {m: (e, "") for m, e in bases}
            first = [m for m, _ in bases]
            rng.shuffle(first)
            combos = [(f"{m}-{q}", e, phrase) for m, e in bases for q, phrase in dept.quals]
            rng.shuffle(combos)
            for mode, e, phrase in combos:
                mode_entry[mode] = (e, phrase)
            sequence = first + [m for m, _, _ in combos]
            variants = {m: [f"{m}-{q}" for q, _ in dept.quals] for m, _ in bases}
            state = self.modes[key] = ModeState(sequence, mode_entry, first, variants)
        return state

    def _new_mode(self, state: ModeState) -> str:
        if state.next_new < len(state.sequence):
            mode = state.sequence[state.next_new]
        else:  # the vocabulary ran out (large scale): number the variants
            base = state.sequence[state.next_new % len(state.sequence)]
            mode = f"{base}-{state.next_new // len(state.sequence) + 1}"
            state.mode_entry[mode] = state.mode_entry[base]
        state.next_new += 1
        return mode

    def _assign_mode(self, task: Task, di: int, week: int, target: float) -> None:
        rng = self.rng
        w = self.weekly
        w["tasks"][week] += 1
        if task.outcome == "success":
            w["success"][week] += 1
        elif task.outcome == "partial":
            w["partial"][week] += 1
        key = (task.dept.name, task.tt.name)
        finished = di * DAY + task.sec
        task.eligible = task.tt.learning and self.first_fail_reflection.get(key, 1 << 62) < finished
        if task.eligible:
            w["eligible"][week] += 1
            self.deficit += target
        if task.outcome == "success":
            return
        if task.outcome == "partial":
            state = self._mode_state(task.dept, task.tt, "partial")
            base = rng.choice(state.bases)
            task.mode = rng.choice(state.variants[base]) if rng.random() < 0.5 else base
            return
        state = self._mode_state(task.dept, task.tt, "failure")
        if task.eligible:
            # Error diffusion: reuse a known mode while repeats lag behind the target share.
            reuse = bool(state.history) and self.deficit >= 0.5 + rng.uniform(-0.3, 0.3)
        else:
            reuse = bool(state.history) and rng.random() < 0.5
        mode = rng.choice(state.history) if reuse else self._new_mode(state)
        if task.eligible and mode in state.seen:
            w["repeat"][week] += 1
            self.deficit -= 1
        self.deficit = min(5.0, max(-1.5, self.deficit))
        state.seen.add(mode)
        state.history.append(mode)
        task.mode = mode
