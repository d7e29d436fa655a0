"""dupmj for Python: Duplicate MCR mahjong.

- Rules: :func:`score` (the project's hand notation), :func:`score_tiles` (tile lists),
  :func:`shanten`, :func:`waits`, :func:`fan_table`, :func:`deal`.
- A drop-in for the reference calculator's binding: ``from dupmj import mahjonggb``.
- The table as a multi-agent environment: :class:`Env` (one table), :class:`VecEnv`
  (n tables stepped together in Rust) and :class:`GameEnv` (a regular 16-hand game), with
  observations of shape (PLANES, 34) and the
  235-action layout of Botzone MCR bots.
- :func:`arena`: a Python policy against built-in bots on the same deals, with the command
  line's report.
"""
import json as _json

from ._dupmj import (
    ACTIONS,
    BOTS,
    PLANES,
    Env,
    GameEnv,
    VecEnv,
    fan_table,
    score,
    score_tiles,
    shanten,
    waits,
)
from . import _dupmj

__all__ = [
    "ACTIONS",
    "BOTS",
    "PLANES",
    "Env",
    "GameEnv",
    "VecEnv",
    "arena",
    "deal",
    "fan_table",
    "score",
    "score_tiles",
    "shanten",
    "waits",
]


def deal(seed):
    """The duplicate deal of ``seed`` as a dict: 13 starting tiles and a 21-tile wall per seat."""
    return _json.loads(_dupmj.deal_json(seed))


def arena(policy, opponents=None, *, deals=64, seed=1, mode="rotate", rules="seeds",
          name="policy", batch=64):
    """Plays ``deals`` deals with ``policy`` as the first entrant and returns the report.

    ``policy(observations, masks)`` gets arrays of shape (k, PLANES, 34) and (k, 235) — every
    waiting decision of up to ``batch`` deals' tables — and returns k action indices.
    ``mode="rotate"``: the policy against three copies of ``opponents`` (a bot name, default
    ``"strong"``), every deal played four times with the policy in each seat.
    ``mode="permute"``: ``opponents`` is three bot names; every deal in all 24 seatings.
    The result is the report of ``dupmj arena --format json`` as a dict, with ``"text"``:
    the report as the command line prints it.
    """
    report, text = _dupmj.arena_run(policy, opponents, deals=deals, seed=seed, mode=mode,
                                    rules=rules, name=name, batch=batch)
    out = _json.loads(report)
    out["text"] = text
    return out
