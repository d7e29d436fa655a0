"""The table as an environment: a hand played from Python to its end, rewards in match
points and IMP (checked against rules §5's brackets, worked out here), hidden
information, many tables at once, the arena, and bad input."""
import json

import numpy as np
import pytest

import dupmj

# rules §5: lower bounds of |DIF| for 1, 2, … 20 IMP.
BRACKETS = [2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296]


def imp_of(dif):
    n = sum(1 for b in BRACKETS if abs(dif) >= b)
    return -n if dif < 0 else n


def first_legal(env):
    acts = [-1] * 4
    for s in env.to_act():
        acts[s] = env.legal_actions(s)[0]
    return acts


def test_one_seat_from_python_plays_to_the_end():
    env = dupmj.Env(bots="strong", seed=4)
    assert env.to_act() == [0]
    steps = 0
    while not env.done:
        obs, mask = env.observe(0), env.legal_mask(0)
        assert obs.shape == (dupmj.PLANES, 34) and obs.dtype == np.float32
        assert mask.shape == (dupmj.ACTIONS,) and mask.dtype == np.bool_
        assert list(np.flatnonzero(mask)) == env.legal_actions(0)
        with pytest.raises(ValueError, match="still in play"):
            env.log()
        rewards, done = env.step(first_legal(env))
        steps += 1
        if not done:
            assert list(rewards) == [0, 0, 0, 0]
    assert steps > 5
    assert list(rewards) == env.points()
    log = json.loads(env.log())
    assert log["result"]["points"] == env.points()
    with pytest.raises(ValueError, match="reset"):
        env.step([0, -1, -1, -1])
    assert env.reset(seed=4) == [0]


def test_the_imp_reward_compares_with_the_field_as_rules_5_says():
    env = dupmj.Env(bots="greedy", field="greedy", reward="imp", seed=9)
    while not env.done:
        rewards, done = env.step({0: env.legal_actions(0)[-1]})
    field = env.field_points()
    assert len(field) == 4
    mine = env.points()
    for s in range(4):
        results = [mine[s]] + [f[s] for f in field]
        dif = mine[s] - sum(results) / len(results)
        assert rewards[s] == imp_of(dif) == env.imp()[s]


def play_first_legal(env, steps):
    seen = []
    for _ in range(steps):
        if env.done:
            break
        seen.append(env.observe(0).copy())
        env.step(first_legal(env))
    return seen


def test_observations_never_show_another_seats_hidden_tiles():
    deal = dupmj.deal(21)
    # South's and West's starting hands exchanged: East's first view is the same.
    del deal["seed"]  # the tiles below are changed: they are no longer the seed's
    swapped = json.loads(json.dumps(deal))
    swapped["seats"]["S"]["hand"], swapped["seats"]["W"]["hand"] = (
        deal["seats"]["W"]["hand"], deal["seats"]["S"]["hand"])
    a, b = dupmj.Env(), dupmj.Env()
    a.reset(deal=json.dumps(deal))
    b.reset(deal=json.dumps(swapped))
    assert np.array_equal(a.observe(0), b.observe(0))
    assert not np.array_equal(a.observe(1), b.observe(1))
    # The last six tiles of the other seats' walls moved between them: 40 decisions later
    # (nobody has drawn that deep) East has seen exactly the same things.
    moved = json.loads(json.dumps(deal))
    for x, y in [("S", "W"), ("W", "N"), ("N", "S")]:
        moved["seats"][x]["wall"][15:] = deal["seats"][y]["wall"][15:]
    a.reset(deal=json.dumps(deal))
    b.reset(deal=json.dumps(moved))
    seen_a, seen_b = play_first_legal(a, 40), play_first_legal(b, 40)
    assert len(seen_a) == len(seen_b) >= 30
    for x, y in zip(seen_a, seen_b):
        assert np.array_equal(x, y)


def test_vecenv_steps_tables_like_single_envs_and_restarts_them():
    n = 6
    venv = dupmj.VecEnv(n, bots="greedy", seed=100)
    singles = [dupmj.Env(bots="greedy", seed=100 + i) for i in range(n)]
    out = np.zeros((n, 4, dupmj.PLANES, 34), dtype=np.float32)
    every = venv.observe(all_seats=True)
    for i, e in enumerate(singles):
        for s in range(4):
            assert np.array_equal(every[i, s], e.observe(s))
            # Seats without a decision are zeros unless all seats are asked for.
            assert venv.observe()[i, s].any() == (s in e.to_act())
    finished = 0
    for _ in range(200):
        obs = venv.observe(out=out)
        assert obs is out
        mask = venv.legal_mask()
        to_act = venv.to_act()
        acts = np.full((n, 4), -1, dtype=np.int64)
        for i, e in enumerate(singles):
            if e.done:
                # The table has started its next deal: play it on, unchecked.
                for s in np.flatnonzero(to_act[i]):
                    acts[i, s] = np.flatnonzero(mask[i, s])[0]
                continue
            assert list(np.flatnonzero(to_act[i])) == e.to_act()
            for s in e.to_act():
                assert np.array_equal(obs[i, s], e.observe(s))
                assert np.array_equal(mask[i, s], e.legal_mask(s))
                acts[i, s] = e.legal_actions(s)[0]
        if all(e.done for e in singles):
            break
        live = [not e.done for e in singles]
        rewards, done = venv.step(acts)
        for i, e in enumerate(singles):
            if live[i]:
                r, d = e.step(list(acts[i]))
                assert d == done[i] and list(r) == list(rewards[i])
                finished += d
    assert finished == n


def test_arena_with_a_python_policy_reports_like_the_command_line():
    calls = []

    def lowest(obs, mask):
        calls.append(len(obs))
        assert obs.shape[1:] == (dupmj.PLANES, 34) and mask.shape[1:] == (dupmj.ACTIONS,)
        return mask.argmax(axis=1)

    r = dupmj.arena(lowest, "random", deals=8, seed=3, batch=4)
    assert [b["name"] for b in r["bots"]] == ["policy", "random"]
    assert r["bots"][0]["hands"] == 8 * 4
    assert r["bots"][1]["hands"] == 8 * 4 * 3
    assert r["text"].startswith("arena rotate on 8 deals, rules seeds, seed 3")
    assert max(calls) > 4  # several tables' decisions in one call
    p = dupmj.arena(lowest, ["random", "greedy", "random"], deals=1, mode="permute")
    assert sum(b["hands"] for b in p["bots"]) == 24 * 4


@pytest.mark.parametrize("call, words", [
    (lambda: dupmj.Env(rules="nope"), "rules: no table rules called 'nope'"),
    (lambda: dupmj.Env(rules="regular-bonus-discard"), "235-action layout"),
    (lambda: dupmj.Env(bots=["strong"]), "bots: 1 entries, expected 4"),
    (lambda: dupmj.Env(bots="superbot"), "no built-in bot called 'superbot'"),
    (lambda: dupmj.Env(reward="imp"), "field="),
    (lambda: dupmj.Env().observe(7), "seat: 7"),
    (lambda: dupmj.Env().step([-1, -1, -1, -1]), "actions[0]: seat E must decide now"),
    (lambda: dupmj.Env().step([300, -1, -1, -1]), "not an action index"),
    (lambda: dupmj.Env().step([0, -1, -1, -1]), "is not legal for seat E"),
    (lambda: dupmj.Env().step([2, 2]), "2 entries, expected 4"),
    (lambda: dupmj.Env().reset(deal="{"), "deal: not JSON"),
    (lambda: dupmj.Env().reset(deal='{"version": 1, "seats": {"E": {}}}'), "deal:"),
    (lambda: dupmj.VecEnv(0), "n: 1 to"),
    (lambda: dupmj.VecEnv(2).step(np.zeros((2, 4))), "integer array"),
    (lambda: dupmj.VecEnv(2).step(np.zeros((3, 4), dtype=np.int64)), "shape"),
    (lambda: dupmj.arena(lambda o, m: [0] * len(o), deals=1), "policy: row"),
    (lambda: dupmj.arena(lambda o, m: [], deals=1), "policy: returned 0 actions"),
    (lambda: dupmj.arena(print, deals=0), "deals: 1 to"),
    (lambda: dupmj.arena(print, "x", mode="permute"), "opponents"),
])
def test_bad_input_says_what_and_where(call, words):
    with pytest.raises(ValueError) as e:
        call()
    assert words in str(e.value)


def test_a_wrong_action_in_a_vecenv_plays_nothing():
    venv = dupmj.VecEnv(3, seed=1)
    before = venv.observe().copy()
    acts = np.full((3, 4), -1, dtype=np.int64)
    with pytest.raises(ValueError, match="table 0"):
        venv.step(acts)
    assert np.array_equal(before, venv.observe())


def test_a_regular_game_rotates_seats_and_adds_up_the_hands():
    g = dupmj.GameEnv(bots=["greedy", None, "greedy", "greedy"], hands=8, seed=40)
    total = np.zeros(4)
    seats = set()
    while not g.done:
        assert g.to_act() == [1]
        seats.add(g.seat_of(1))
        assert g.observe(1).shape == (dupmj.PLANES, 34)
        change, done = g.step({1: g.legal_actions(1)[0]})
        total += change
    assert g.played == 8
    assert list(total) == g.scores()
    assert seats == {0, 1, 2, 3}  # South first, then East, North, West (rules §8)
    # Table points: 4, 2, 1, 0 by rank, ties sharing (rules §8); they always add up to 7.
    assert sum(g.table_points()) == 7
    log = json.loads(g.log())
    assert len(log["hands"]) == 8
    with pytest.raises(ValueError, match="over"):
        g.step([-1, 0, -1, -1])
    with pytest.raises(ValueError, match="player 1"):
        g.reset(seed=1)
        g.step([-1, -1, -1, -1])
