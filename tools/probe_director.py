#!/usr/bin/env python3
"""The director app as a hostile venue network would try it, against a running
`dupmj serve` on this machine (loopback only). Prints one line of figures per probe.
Phones and attackers are told apart by `X-Forwarded-For`, which the server believes from
127.0.0.1 only (as from a reverse proxy on the same machine).

    dupmj password --db probe.sqlite <<< 'probe password'
    dupmj serve --db probe.sqlite --addr 127.0.0.1:8931 --log-level error &
    python3 tools/probe_director.py http://127.0.0.1:8931 --password 'probe password'

Given several URLs (nodes of one PostgreSQL database, `docs/cluster.md`), every request goes
to the next node in turn, as a load balancer without sticky sessions would send them: a
session made on one node is used on the other, and the limits must hold across both. The
idle connections go to the first node (each node bounds its own connections).

1. idle: 1,100 connections that send half a request and wait, from one address and from 20
   (127.0.0.2–21); meanwhile the standings are fetched 20 times (median and worst time).
2. login flood: 64 clients posting wrong director passwords for 10 s; the standings' median
   and worst time meanwhile, and how many logins were checked or refused.
3. code guessing: one client tries 200 wrong table codes as fast as it can; how many were
   checked (the rest refused), and what that allows per minute.
4. mixed load: 128 phones (four per table of a 128-player event) entering every sitting of
   round 1 with the same values, and 64 readers of the standings, for 45 s; then every
   acknowledged sitting must be stored exactly once.
"""
import argparse
import http.client
import re
import resource
import socket
import statistics
import threading
import time
import urllib.parse


# The nodes requests go to, in turn, and the lock that turns them.
NODES = []
TURN = [0, threading.Lock()]


def next_node(host, port):
    """The node for the next request: the next in turn when there are several."""
    if len(NODES) < 2:
        return host, port
    with TURN[1]:
        TURN[0] += 1
        return NODES[TURN[0] % len(NODES)]


class Client:
    """One browser: a cookie jar over http.client."""

    def __init__(self, host, port, forwarded=None, timeout=60):
        self.host, self.port, self.cookies, self.timeout = host, port, {}, timeout
        # As a reverse proxy on this machine tells the server who its client was: how the
        # probe stands for many phones and attackers while sending from one machine.
        self.forwarded = forwarded

    def request(self, method, path, fields=None):
        host, port = next_node(self.host, self.port)
        c = http.client.HTTPConnection(host, port, timeout=self.timeout)
        headers = {"X-Forwarded-For": self.forwarded} if self.forwarded else {}
        body = None
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        text = r.read().decode("utf-8", "replace")
        for h, v in r.getheaders():
            if h.lower() == "set-cookie":
                k, _, rest = v.partition("=")
                val = rest.split(";")[0]
                if "Max-Age=0" in v:
                    self.cookies.pop(k, None)
                else:
                    self.cookies[k] = val
        c.close()
        return r.status, text


def field(text, name):
    m = re.search(f'name="{name}" value="([^"]*)"', text)
    return m.group(1) if m else ""


def timed_get(host, port, path):
    """A GET and its time in ms; a server that does not answer within 5 s counts as not
    answering."""
    t = time.perf_counter()
    status, _ = Client(host, port, timeout=5).request("GET", path)
    return status, (time.perf_counter() - t) * 1000


def setup_event(host, port, password, players):
    d = Client(host, port)
    status, _ = d.request("POST", "/login", {"password": password})
    assert status == 303, f"director login: {status}"
    _, page = d.request("GET", "/director")
    names = "\n".join(f"Probe player {i}" for i in range(1, players + 1))
    status, _ = d.request("POST", "/director/events", {
        "csrf": field(page, "csrf"), "name": f"Probe {players}", "kind": "individual",
        "players": names, "seed": "1"})
    assert status == 303, f"create event: {status}"
    _, page = d.request("GET", "/director")
    ids = [int(x) for x in re.findall(r'/director/events/(\d+)"', page)]
    return d, max(ids)


def codes_of(director, event):
    _, page = director.request("GET", f"/director/events/{event}")
    return re.findall(r"<tr><td>\d+</td><td><code>([A-Z0-9]+)</code></td></tr>", page)


def hold_idle(host, port, n, sources):
    """n connections spread over the source addresses, each sending half a request; the
    ones the server still holds open after a second."""
    import select
    socks = []
    for i in range(n):
        try:
            s = socket.create_connection((host, port), timeout=2,
                                         source_address=(sources[i % len(sources)], 0))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        except OSError:
            pass
    time.sleep(1)
    held = []
    for s in socks:
        p = select.poll()
        p.register(s, select.POLLIN)
        closed = False
        if p.poll(0):
            try:
                closed = s.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                closed = True
        (s.close() if closed else held.append(s))
    return held


def probe_idle(host, port, event, n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, n + 200)), hard))
    for label, sources in [("one address", ["127.0.0.2"]),
                           ("20 addresses", [f"127.0.0.{i}" for i in range(2, 22)])]:
        held = hold_idle(host, port, n, sources)
        times, failed = [], 0
        for _ in range(20):
            try:
                status, ms = timed_get(host, port, f"/events/{event}/standings")
                if status == 200:
                    times.append(ms)
                else:
                    failed += 1
            except OSError:
                failed += 1
        for s in held:
            s.close()
        med = statistics.median(times) if times else float("nan")
        print(f"idle ({label}): {n} half requests sent, {len(held)} held after 1 s; standings "
              f"answered {len(times)}/20, median {med:.1f} ms, worst "
              f"{max(times, default=float('nan')):.1f} ms")
        time.sleep(1)


def probe_flood(host, port, event, seconds=10, clients=64):
    stop = time.time() + seconds
    counts = {"checked": 0, "refused": 0, "other": 0}
    lock = threading.Lock()

    def flood(i):
        while time.time() < stop:
            try:
                status, _ = Client(host, port, f"10.77.0.{i}").request(
                    "POST", "/login", {"password": "wrong guess"})
            except OSError:
                status = 0
            key = "checked" if status == 403 else "refused" if status == 429 else "other"
            with lock:
                counts[key] += 1

    threads = [threading.Thread(target=flood, args=(i + 1,)) for i in range(clients)]
    for t in threads:
        t.start()
    times = []
    while time.time() < stop:
        status, ms = timed_get(host, port, f"/events/{event}/standings")
        if status == 200:
            times.append(ms)
        time.sleep(0.1)
    for t in threads:
        t.join()
    print(f"login flood: {clients} clients, {counts['checked']} passwords checked, "
          f"{counts['refused']} refused, {counts['other']} other; standings median "
          f"{statistics.median(times):.1f} ms, worst {max(times):.1f} ms over {len(times)} fetches")


def probe_codes(host, port, event, tries=200):
    checked = refused = 0
    t0 = time.perf_counter()
    for _ in range(tries):
        c = Client(host, port, "10.66.0.1")
        _, page = c.request("GET", f"/events/{event}/table")
        status, _ = c.request("POST", f"/events/{event}/table",
                              {"form": field(page, "form"), "table": "1", "code": "AAAAAAAA"})
        checked += status == 403
        refused += status == 429
    minutes = (time.perf_counter() - t0) / 60
    print(f"code guessing: {tries} tries from one address in {minutes * 60:.1f} s: "
          f"{checked} checked, {refused} refused ({tries / minutes:,.0f} tries per minute "
          f"sent, {checked} of them checked)")


def probe_mixed(host, port, director, event, seconds=45):
    codes = codes_of(director, event)
    tables = len(codes)
    acked, lock = {}, threading.Lock()
    stop = time.time() + seconds
    errors = []

    def phone(t, k, code):
        c = Client(host, port, f"10.1.{t}.{k}")
        _, page = c.request("GET", f"/events/{event}/table")
        status, _ = c.request("POST", f"/events/{event}/table",
                              {"form": field(page, "form"), "table": str(t), "code": code})
        if status != 303:
            errors.append(f"table {t} login {status}")
            return
        _, page = c.request("GET", f"/events/{event}/table/{t}")
        links = sorted(set(re.findall(rf"/events/{event}/table/{t}/deal/([^/\"]+)/(\d+)", page)))
        while time.time() < stop:
            for deal, hand in links:
                if time.time() >= stop:
                    return
                path = f"/events/{event}/table/{t}/deal/{deal}/{hand}"
                _, form = c.request("GET", path)
                value = 8 + (t * 7 + int(hand)) % 40
                status, _ = c.request("POST", path, {
                    "csrf": field(form, "csrf"), "version": field(form, "version") or "0",
                    "step": "save", "kind": "self", "winner": "S", "value": str(value)})
                if status == 200:
                    with lock:
                        acked[(deal, t, int(hand))] = value
                elif status != 409:
                    errors.append(f"save {status}")

    def reader():
        while time.time() < stop:
            Client(host, port).request("GET", f"/events/{event}/standings")

    threads = [threading.Thread(target=phone, args=(t + 1, k, codes[t]))
               for k in range(4) for t in range(tables)]
    threads += [threading.Thread(target=reader) for _ in range(64)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    _, text = director.request("GET", f"/director/events/{event}/results.json")
    import json
    stored = json.loads(text)["results"]
    keys = [(r["deal"], r["table"], r["hand"]) for r in stored]
    dup = len(keys) - len(set(keys))
    missing = [k for k in acked if k not in set(keys)]
    print(f"mixed load: {len(threads) - 64} phones on {tables} tables and 64 readers for "
          f"{seconds} s: {len(acked)} sittings acknowledged, {len(stored)} stored, "
          f"{dup} stored twice, {len(missing)} acknowledged but missing, "
          f"{len(errors)} errors {errors[:3]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("url", nargs="+", help="the server, or each node of a cluster")
    ap.add_argument("--password", required=True)
    ap.add_argument("--idle", type=int, default=1100)
    ap.add_argument("--seconds", type=int, default=45)
    a = ap.parse_args()
    for url in a.url:
        u = urllib.parse.urlparse(url)
        assert u.hostname in ("127.0.0.1", "localhost", "::1"), "loopback only"
        NODES.append((u.hostname, u.port))
    host, port = NODES[0]
    if len(NODES) > 1:
        print(f"{len(NODES)} nodes, requests in turn: {' '.join(a.url)}")
    director, event = setup_event(host, port, a.password, 128)
    probe_idle(host, port, event, a.idle)
    probe_flood(host, port, event)
    probe_codes(host, port, event)
    probe_mixed(host, port, director, event, a.seconds)


if __name__ == "__main__":
    main()
