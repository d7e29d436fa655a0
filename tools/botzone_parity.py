#!/usr/bin/env python3
"""Parity check: the same deals through `dupmj arena --rules botzone` and through the real
Botzone judge must give every seat the same requests and responses and the same points.

The judge is not part of this repository. Give the path of a checkout of
ailab-pku/Chinese-Standard-Mahjong (`git clone https://github.com/ailab-pku/Chinese-Standard-Mahjong`);
its `judge/main.cpp` is compiled as published, against jsoncpp and the fan calculator it was
written for (the `mahjong-algorithm` sources of `pymahjonggb==1.1.0` from PyPI):

    tools/botzone_parity.py ~/src/Chinese-Standard-Mahjong --deals 100

Needs g++, jsoncpp (Debian: apt-get install g++ libjsoncpp-dev) and pip. The bot on every
seat is `tools/botzone_parity_bot.py` (deterministic; it wins, kongs, robs kongs and now
and then calls a false Hu), run in a virtual environment with pymahjonggb; `--bot CMD`
plays another deterministic Botzone bot (JSON interaction) instead, kept running or, with
`--full-history`, started for every request (e.g. the official sample bot, whose shuffle
is never seeded).

How a deal becomes the judge's `initdata.walltiles`: block i (tiles 34i … 34i+33) is seat i's
wall; the judge deals the last 13 of a block and draws the rest from the end backwards, so
a block is the seat's 21 draws reversed followed by its 13 starting tiles reversed (the
starting tiles in the order the arena lists them in request 1, tile order).
Prints one line per deal that differs and a summary; exits 1 if anything differs.
"""
import argparse
import json
import os
import select
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
SEATS = "ESWN"
# Our notation to Botzone codes, in our tile order (characters, bamboo, dots, winds, dragons).
CODES = {f"{r}{s}": f"{c}{r}" for s, c in (("m", "W"), ("s", "T"), ("p", "B")) for r in range(1, 10)}
CODES.update({"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"})
ORDER = list(CODES.values())


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build_judge(checkout, work):
    src = Path(checkout) / "judge" / "main.cpp"
    if not src.is_file():
        sys.exit(f"no {src}: give the path of a Chinese-Standard-Mahjong checkout")
    judge = work / "judge"
    if judge.exists():
        return judge
    run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
         "pymahjonggb==1.1.0", "-d", str(work / "sdist")])
    tarball = next((work / "sdist").glob("*.tar.gz"))
    run(["tar", "xzf", str(tarball), "-C", str(work / "sdist")])
    algo = next((work / "sdist").glob("*/MahjongGB/mahjong-algorithm"))
    inc = work / "include"
    (inc / "jsoncpp").mkdir(parents=True, exist_ok=True)
    (inc / "jsoncpp" / "json.h").write_text("#include <json/json.h>\n")
    if not (inc / "MahjongGB").exists():
        (inc / "MahjongGB").symlink_to(algo)
    run(["g++", "-O2", "-std=c++14", "-w", f"-I{inc}", "-I/usr/include/jsoncpp", str(src),
         "-ljsoncpp", "-o", str(judge)])
    return judge


def bot_env(work):
    venv = work / "venv"
    if not (venv / "bin" / "python").exists():
        run([sys.executable, "-m", "venv", str(venv)])
        run([str(venv / "bin" / "pip"), "install", "-q", "pymahjonggb==1.1.0"])
    return f"{venv / 'bin' / 'python'} {HERE / 'tools' / 'botzone_parity_bot.py'}"


class Seat:
    """One seat's bot as Botzone runs it: started with the history, kept if it keeps running."""

    def __init__(self, cmd, limit, full_history=False):
        self.cmd, self.limit, self.full_history = cmd, limit, full_history
        self.proc = None
        self.requests, self.responses = [], []

    def ask(self, request):
        self.requests.append(request)
        if self.proc is None:
            self.proc = subprocess.Popen(shlex.split(self.cmd), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
            line = json.dumps({"requests": self.requests, "responses": self.responses})
        else:
            line = json.dumps(request)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            if self.full_history:  # the whole input is given: end of file after it
                self.proc.stdin.close()
        except BrokenPipeError:
            pass
        out, keep = self.read()
        if not keep:
            self.close()
        try:
            response = json.loads(out)["response"]
        except (ValueError, KeyError, TypeError):
            response = None
        verdict = "OK" if isinstance(response, str) else ("TLE" if out is None else "RE")
        self.responses.append(response if isinstance(response, str) else "")
        return verdict, self.responses[-1]

    def read(self):
        """The output up to the keep-running mark (True) or the end of output (False);
        None on a time-out."""
        buf, deadline = b"", time.monotonic() + self.limit
        fd = self.proc.stdout.fileno()
        mark = KEEP_RUNNING.encode() + b"\n"
        while True:
            if buf.startswith(mark) or b"\n" + mark in buf:
                return buf[: buf.index(mark)].decode(), True
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None, False
            chunk = os.read(fd, 65536)
            if not chunk:
                return buf.decode(), False
            buf += chunk

    def close(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def judge_hand(judge, walltiles, quan, cmd, limit, full_history=False):
    """Plays one hand through the judge; the four seats' histories and the points."""
    seats = [Seat(cmd, limit, full_history) for _ in range(4)]
    log, init = [], {"walltiles": walltiles, "quan": quan, "srand": 1}
    try:
        while True:
            got = run([str(judge)], input=json.dumps({"log": log, "initdata": init}),
                      capture_output=True, text=True).stdout
            out = json.loads(got)
            if out["command"] == "finish":
                points = [int(out["content"][str(i)]) for i in range(4)]
                return [(s.requests, s.responses) for s in seats], points, out["display"]
            log.append({"output": out})
            answers = {}
            for i, s in enumerate(seats):
                verdict, response = s.ask(out["content"][str(i)])
                answers[str(i)] = {"verdict": verdict, "response": response}
            log.append(answers)
    finally:
        for s in seats:
            s.close()


def walltiles_of(deal):
    blocks = []
    for seat in SEATS:
        hand = sorted((CODES[t] for t in deal["seats"][seat]["hand"]), key=ORDER.index)
        draws = [CODES[t] for t in deal["seats"][seat]["wall"]]
        blocks += draws[::-1] + hand[::-1]
    return " ".join(blocks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", help="a checkout of ailab-pku/Chinese-Standard-Mahjong")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", help="another deterministic Botzone bot (JSON interaction)")
    ap.add_argument("--full-history", action="store_true",
                    help="the --bot is started for every request and reads to end of file")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--keep", help="keep the work files (judge, logs, transcripts) here")
    a = ap.parse_args()
    if a.deals < 1:
        ap.error("--deals must be at least 1")
    work = Path(a.keep or tempfile.mkdtemp(prefix="dupmj-parity-"))
    work.mkdir(parents=True, exist_ok=True)
    judge = build_judge(a.checkout, work)
    cmd = a.bot or bot_env(work)
    run(["cargo", "build", "--release", "-q", "-p", "dupmj", "--manifest-path", str(HERE / "Cargo.toml")])
    transcripts, logs = work / "transcripts.jsonl", work / "logs"
    for old in logs.glob("*.jsonl") if logs.exists() else []:
        old.unlink()
    started = time.monotonic()
    run([str(HERE / "target" / "release" / "dupmj"), "arena", "--rules", "botzone",
         "--bots", "p,q", "--bot", f"p=botzone:{cmd}", "--bot", f"q=botzone:{cmd}",
         "--deals", str(a.deals), "--seed", str(a.seed), "--time-limit", str(a.time_limit),
         "--transcripts", str(transcripts), "--log", str(logs), "--quiet"], stdout=subprocess.DEVNULL)
    arena_s = time.monotonic() - started

    # Arena transcripts by (seat, starting tiles): one per seating of the deal.
    by_start = {}
    for line in transcripts.read_text().splitlines():
        t = json.loads(line)
        seat = int(t["requests"][0].split()[1])
        key = (seat, tuple(sorted(t["requests"][1].split()[5:])))
        by_start.setdefault(key, []).append(t)

    stats = dict(deals=0, histories=0, requests=0, differ=0, wins=0, faults=0, draws=0, kongs=0, robbed=0)
    judge_s = 0.0
    for path in sorted(logs.glob("*.jsonl")):
        hands = [json.loads(x) for x in path.read_text().splitlines()]
        deal = hands[0]["deal"]
        quan = SEATS.index(deal["prevalent"])
        started = time.monotonic()
        histories, points, display = judge_hand(judge, walltiles_of(deal), quan, cmd, a.time_limit,
                                               a.full_history)
        judge_s += time.monotonic() - started
        stats["deals"] += 1
        action = display.get("action")
        stats["wins" if action == "HU" else "draws" if action == "HUANG" else "faults"] += 1
        said = [r for h in histories for r in h[1]]
        stats["kongs"] += sum(r.startswith(("GANG", "BUGANG")) for r in said)
        stats["robbed"] += action == "HU" and any(
            h[0][-1].split()[2:3] == ["BUGANG"] for h in histories)
        problems = []
        for hand in hands:
            if hand["result"]["points"] != points:
                problems.append(f"points {hand['result']['points']} vs judge {points}")
        for seat, (reqs, resps) in enumerate(histories):
            key = (seat, tuple(sorted(reqs[1].split()[5:])))
            ours = by_start.get(key, [])
            if len(ours) != len(hands):
                problems.append(f"seat {seat}: {len(ours)} arena transcripts for {len(hands)} hands")
            for t in ours:
                stats["histories"] += 1
                stats["requests"] += len(t["requests"])
                if t["requests"] != reqs or t["responses"] != resps:
                    n = next((i for i, (x, y) in enumerate(zip(t["requests"], reqs)) if x != y),
                             min(len(t["requests"]), len(reqs)))
                    problems.append(f"seat {seat} differs from request {n}: arena "
                                    f"{t['requests'][n:n + 2]} {t['responses'][n:n + 2]}, judge "
                                    f"{reqs[n:n + 2]} {resps[n:n + 2]}")
        if problems:
            stats["differ"] += 1
            print(f"{path.name}: " + "; ".join(problems[:4]))
    s = stats
    print(f"{s['deals']} deals (seed {a.seed}), {s['histories']} arena histories of "
          f"{s['requests']} requests compared with the judge: {s['differ']} deals differ")
    print(f"judge outcomes: {s['wins']} wins ({s['robbed']} robbing a kong), {s['draws']} draws, "
          f"{s['faults']} errors; {s['kongs']} kongs declared")
    print(f"time: arena {arena_s:.1f} s (4 seatings a deal), judge {judge_s:.1f} s (one hand a deal)")
    return 1 if s["differ"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except subprocess.CalledProcessError as e:
        sys.exit(f"failed (exit {e.returncode}): {' '.join(map(str, e.cmd))}")
