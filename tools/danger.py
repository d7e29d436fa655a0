#!/usr/bin/env python3
"""Fits the expert's model of how likely a discard is to deal in (agents/src/belief/danger.rs).

Reads the rows `how_dangerous_the_discards_are` writes (strong's self-play: per deciding
seat, other seat and kind, whether that seat's true hand wins on a discard of the kind,
whether the deciding seat holds one, the share of the expert's worlds in which it wins,
then the encoded public facts), fits a logistic model (Newton's method, a small ridge) on
the first 70 % of the deals, prints how it and the worlds rank the truth on the other 30 %,
then fits all the rows and writes the weights.

Usage: python3 tools/danger.py rows.csv crates/agents/src/belief/danger/weights.rs
Needs numpy.
"""

import os
import sys

import numpy as np

RIDGE = 1.0
# The facts `belief::danger::encode` writes (its FEATURES).
FEATURES = 107


def fit(x, y):
    w = np.zeros(x.shape[1])
    for _ in range(12):
        p = 1 / (1 + np.exp(-(x @ w)))
        g = x.T @ (y - p) - RIDGE * w
        h = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w += step
        if np.abs(step).max() < 1e-6:
            break
    return w


def auc(y, s):
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    sorted_s = s[order]
    # average ranks over ties
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def log_loss(y, p):
    p = np.clip(p, 1e-5, 1 - 1e-5)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: python3 tools/danger.py ROWS.csv WEIGHTS.rs")
    rows, out = sys.argv[1], sys.argv[2]
    try:
        d = np.loadtxt(rows, delimiter=",", dtype=np.float64, ndmin=2)
    except (OSError, ValueError) as e:
        sys.exit(f"{rows}: not rows of how_dangerous_the_discards_are ({e})")
    if d.shape[1] != 5 + FEATURES:
        sys.exit(f"{rows}: {d.shape[1]} columns, where 5 and {FEATURES} facts make {5 + FEATURES}")
    deal, y, world = d[:, 0], d[:, 2], d[:, 4]
    x = np.c_[d[:, 5:], np.ones(len(d))]
    cut = np.quantile(deal, 0.7)
    train, test = deal <= cut, deal > cut
    print(f"{len(d)} rows, {int(y.sum())} that deal in; {train.sum()} to fit, {test.sum()} to test")
    w = fit(x[train], y[train])
    p = 1 / (1 + np.exp(-(x @ w)))
    base = np.full(test.sum(), y[train].mean())
    print(f"the base rate: log loss {log_loss(y[test], base):.5f}")
    print(f"the worlds:    AUC {auc(y[test], world[test]):.4f}")
    print(f"the model:     AUC {auc(y[test], p[test]):.4f}, log loss {log_loss(y[test], p[test]):.5f}")
    w = fit(x, y)
    body = ",\n".join(f"    {v:.6}" for v in w)
    # Written beside, then moved in place: an interrupted run leaves the old weights whole.
    with open(out + ".tmp", "w") as f:
        f.write("//! Written by `tools/danger.py`; do not edit by hand.\n\n")
        f.write("/// The weights of [`super::encode`]'s features, then the intercept.\n")
        f.write("#[rustfmt::skip]\n")
        f.write(f"pub(crate) const WEIGHTS: [f64; super::FEATURES + 1] = [\n{body},\n];\n")
    os.replace(out + ".tmp", out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
