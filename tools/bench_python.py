#!/usr/bin/env python3
"""Speed of dupmj from Python, all figures from one run on this machine.

    (cd crates/python && maturin develop --release)   # into target/py-venv
    target/py-venv/bin/python tools/bench_python.py [--seconds 3]

- fan calls per second: dupmj.mahjonggb.MahjongFanCalculator against the reference binding
  (pymahjonggb from PyPI), on the same 2,000 generated hands (tools/oracle/hands.py);
- Env.step calls per second, every seat played from Python: each deciding seat observed,
  its mask taken and its lowest legal action chosen;
- VecEnv table-steps per second at n = 1, 64, 1024: observe (into one reused array), mask,
  the lowest legal action of every waiting seat chosen with numpy, step;
- for comparison, decisions per second of a riichi environment that installs from PyPI
  (jansou, pure Python, with its own simple agent), when it is installed.
"""
import argparse
import importlib.util
import pathlib
import random
import time

import numpy as np

import dupmj
from dupmj import mahjonggb

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rate(fn, seconds):
    """Calls fn() (which returns how much work it did) until `seconds` pass; work per second."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += fn()
    return done / (time.perf_counter() - start)


def fan_args(seed, count):
    hands = load("hands", "tools/oracle/hands.py")
    reference = load("reference", "tools/oracle/reference.py")
    wind = {"E": 0, "S": 1, "W": 2, "N": 3}
    rng, out = random.Random(seed), []
    while len(out) < count:
        try:
            h = hands.one_hand(rng)
        except ValueError:
            continue
        out.append((tuple(reference.pack(m) for m in h["melds"]),
                    tuple(reference.code(t) for t in h["hand"]), reference.code(h["win_tile"]),
                    h["flowers"], h["self_drawn"], h["fourth_tile"], h["kong_related"],
                    h["last_tile"], wind[h["seat_wind"]], wind[h["prevalent_wind"]]))
    return out


def fan_rate(f, args, seconds):
    def batch():
        for a in args:
            try:
                f(*a)
            except TypeError:
                pass
        return len(args)
    return rate(batch, seconds)


def env_rate(seconds):
    env = dupmj.Env(seed=1)

    def some():
        n = 0
        for _ in range(100):
            if env.done:
                env.reset()
            acts = [-1, -1, -1, -1]
            for s in env.to_act():
                env.observe(s)
                acts[s] = int(env.legal_mask(s).argmax())
            env.step(acts)
            n += 1
        return n
    return rate(some, seconds)


def vec_rate(n, seconds):
    venv = dupmj.VecEnv(n, seed=1)
    out = np.zeros((n, 4, dupmj.PLANES, 34), dtype=np.float32)

    def one():
        venv.observe(out=out)
        mask = venv.legal_mask()
        acts = np.where(mask.any(axis=2), mask.argmax(axis=2), -1).astype(np.int64)
        venv.step(acts)
        return n
    return rate(one, seconds)


def riichi_rate(seconds):
    """Decisions per second of a riichi environment with wheels on PyPI (jansou, pure
    Python: `pip install jansou`), its own SimpleAgent in every seat; None if absent."""
    try:
        from jansou.core.rules import Rules
        from jansou.game.agents import SimpleAgent
        from jansou.game.environment import Environment
    except ImportError:
        return None
    count = [0]

    class Counting(SimpleAgent):
        def act(self, seat, kind, actions):
            count[0] += 1
            return super().act(seat, kind, actions)

    games = [0]

    def game():
        before = count[0]
        Environment(Rules(), seed=games[0]).run([Counting() for _ in range(4)])
        games[0] += 1
        return count[0] - before
    return rate(game, seconds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    args = fan_args(1, 2000)
    ours = fan_rate(mahjonggb.MahjongFanCalculator, args, a.seconds)
    print(f"fan calls/s  dupmj.mahjonggb {ours:12,.0f}")
    try:
        import MahjongGB
        theirs = fan_rate(MahjongGB.MahjongFanCalculator, args, a.seconds)
        print(f"fan calls/s  MahjongGB       {theirs:12,.0f}   ratio {ours / theirs:.2f}")
    except ImportError:
        print("fan calls/s  MahjongGB       (pymahjonggb not installed)")
    single = env_rate(a.seconds)
    print(f"Env.step/s   (observe, mask, step)  {single:12,.0f}")
    for n in [1, 64, 1024]:
        v = vec_rate(n, a.seconds)
        print(f"VecEnv({n:4}) table-steps/s {v:12,.0f}   ratio to Env {v / single:.2f}")
    riichi = riichi_rate(max(a.seconds, 10))
    if riichi is None:
        print("riichi env   (jansou not installed: pip install jansou)")
    else:
        print(f"riichi env   jansou decisions/s {riichi:12,.0f}   Env.step/s ratio {single / riichi:.1f}")


if __name__ == "__main__":
    main()
