// The live table: one WebSocket to the server, which decides everything. The page shows
// the state it is sent and offers, as buttons and keys, only the moves listed as legal.
import { renderBoard, winEl, pointsEl, el, WINDS, WIND_CHAR } from "./board.js";
import { tileEl, T } from "./tiles.js";

const app = document.getElementById("app");
const tableId = app.dataset.table;
const signedIn = app.dataset.me !== "";
let ws = null;
let state = null;
let retry = 500;
let deadline = null;
let huPreview = false;
let chowPick = false;
let selected = -1;
let hintsOn = localStorage.getItem("dupmj-hints") === "1";
let message = "";

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/play/t/${tableId}/ws`);
  ws.onopen = () => {
    retry = 500;
    message = "";
    if (hintsOn) send({ type: "hints", on: true });
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") {
      if (!state || state.step !== m.step || state.stage !== m.stage) {
        huPreview = false;
        chowPick = false;
        selected = -1;
      }
      state = m;
      message = "";
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
      deadline = m.clock && m.clock.left_ms != null ? performance.now() + m.clock.left_ms : null;
      render();
    } else if (m.type === "error") {
      message = m.message;
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
      render();
    }
  };
  ws.onclose = () => {
    message = T("Connection lost — reconnecting…");
    render();
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(m) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
}

function act(action) {
  send({ type: "act", step: state.step, action });
}

const legal = () => (state && state.legal) || [];
const has = (name) => legal().some((a) => a.action === name);
const seatOfPlace = (p) => state.places[p].seat;
const mySeat = () => (state.you == null ? "E" : seatOfPlace(state.you));

/** A bot's name ("bot (strong)") in the page's language; people's names as they are. */
const botName = (n) => n.replace(/^bot \((\w+)\)$/, (_, level) => T("bot: {}", T(level)));

function bySeat(f) {
  return WINDS.map((w, s) => f(state.places[state.seat_places ? state.seat_places[s] : s]));
}

function describe(a) {
  switch (a.action) {
    case "hu": return T("Hu");
    case "pass": return T("Pass");
    case "pung": return T("Pung");
    case "kong": return T("Kong");
    case "chow": return T("Chow");
    case "concealed_kong": return T("Kong (concealed)");
    case "promoted_kong": return T("Kong (add to pung)");
    case "bonus": return T("Set the flower aside");
    case "discard_bonus": return T("Discard the flower");
    default: return a.action;
  }
}

function button(text, onClick, attrs = {}) {
  const b = el("button", attrs.cls || "", text);
  for (const [k, v] of Object.entries(attrs.data || {})) b.dataset[k] = v;
  if (attrs.id) b.id = attrs.id;
  if (attrs.key) b.title = T("key: {}", attrs.key);
  b.addEventListener("click", onClick);
  return b;
}

function actionsEl() {
  const box = el("div", "actions");
  box.id = "actions";
  const d = state.decision;
  if (d && d.kind === "turn") box.append(el("span", "prompt", T("Your turn: discard a tile (click it)")));
  if (d && (d.kind === "claim" || d.kind === "rob_kong")) {
    const p = el("span", "prompt", `${d.kind === "rob_kong" ? T("Rob the kong") : T("Claim")} `);
    p.append(tileEl(d.tile, "small"), document.createTextNode(" " + T("from {}?", WIND_CHAR[d.from])));
    box.append(p);
  }
  const chows = legal().filter((a) => a.action === "chow");
  const shown = new Set();
  for (const a of legal()) {
    if (a.action === "discard" || shown.has(a.action + (a.tile || ""))) continue;
    if (a.action === "chow") {
      if (shown.has("chow")) continue;
      shown.add("chow");
      box.append(button(chows.length > 1 ? T("Chow…") : T("Chow"), () => {
        if (chows.length > 1) { chowPick = true; render(); } else act(chows[0]);
      }, { data: { action: "chow" }, key: "c" }));
      continue;
    }
    shown.add(a.action + (a.tile || ""));
    if (a.action === "hu") {
      box.append(button(T("Hu"), () => { huPreview = true; render(); }, { data: { action: "hu" }, cls: "hu", key: "h" }));
      continue;
    }
    const label = a.tile && a.action !== "chow" ? `${describe(a)} ${a.tile}` : describe(a);
    const key = { pass: "space", pung: "p", kong: "k", concealed_kong: "k", promoted_kong: "k" }[a.action];
    box.append(button(label, () => act(a), { data: { action: a.action, tile: a.tile || "" }, key }));
  }
  if (chowPick) {
    const picks = el("div", "chow-picks");
    chows.forEach((a, i) => {
      const b = button("", () => act(a), { data: { action: "chow-pick", tile: a.tile }, key: String(i + 1) });
      const low = Number(a.tile[0]);
      for (let k = 0; k < 3; k++) b.append(tileEl(`${low + k}${a.tile[1]}`, "small"));
      picks.append(b);
    });
    box.append(picks);
  }
  if (huPreview && state.hu_preview) {
    const p = el("div", "hu-preview");
    p.append(winEl(state.hu_preview, null));
    p.append(button(T("Confirm Hu"), () => act({ action: "hu" }), { id: "confirm-hu", cls: "hu", key: "Enter" }));
    p.append(button(T("Cancel"), () => { huPreview = false; render(); }, { key: "Escape" }));
    box.append(p);
  }
  return box;
}

function clockEl() {
  const c = el("span", "clock");
  c.id = "clock";
  return c;
}

function tickClock() {
  const c = document.getElementById("clock");
  if (!c) return;
  if (deadline == null) { c.textContent = ""; return; }
  const ms = Math.max(0, deadline - performance.now());
  const limit = state.limit_s * 1000;
  const bank = Math.max(0, ms - 0) > limit ? " " + T("(+{} bank)", Math.ceil((ms - limit) / 1000)) : "";
  c.textContent = T("clock {} s", Math.ceil(Math.min(ms, limit) / 1000)) + bank;
  c.classList.toggle("low", ms < 5000);
}
setInterval(tickClock, 250);

function placesEl() {
  const box = el("div", "places");
  const ul = el("ul");
  state.places.forEach((p, i) => {
    const li = el("li", "", `${WIND_CHAR[p.seat]} ${botName(p.name)}${p.bot ? "" : p.open ? "" : p.connected ? "" : " " + T("(offline)")}${p.away ? " — " + T("a bot plays for them") : ""}`);
    if (p.open && signedIn && state.you == null) {
      li.append(" ", button(T("Sit here"), () => send({ type: "sit", place: i }), { cls: "sit", data: { place: String(i) } }));
    }
    ul.append(li);
  });
  box.append(ul);
  if (state.stage === "waiting") {
    const inv = el("p", "invite", T("Invite: send this page's address — "));
    const a = el("a", "", location.href);
    a.href = location.href;
    inv.append(a);
    box.append(inv);
  }
  return box;
}

function hintsEl() {
  const box = el("div", "hints");
  box.id = "hints";
  const h = state.hints;
  if (!h) return box;
  box.append(el("p", "", h.shanten === 0 ? T("Ready (tenpai)") : h.shanten < 0 ? T("Complete") : T("Shanten: {}", h.shanten)));
  const waitsEl = (ws) => {
    const t = el("table", "waits");
    const head = el("tr");
    head.append(el("th", "", T("wait")), el("th", "", T("live")), el("th", "", T("self-drawn")), el("th", "", T("discard")));
    t.append(head);
    for (const w of ws) {
      const tr = el("tr");
      const td = el("td");
      td.append(tileEl(w.tile, "small"));
      const val = (v, ok) => (v == null ? "—" : ok ? String(v) : T("{} (under 8)", v));
      tr.append(td, el("td", "num", String(w.live)), el("td", "num", val(w.self_drawn, w.self_drawn_ok)), el("td", "num", val(w.discard, w.discard_ok)));
      if (!w.self_drawn_ok && !w.discard_ok) tr.className = "under";
      t.append(tr);
    }
    return t;
  };
  if (h.discards) {
    const t = el("table", "best");
    const head = el("tr");
    head.append(el("th", "", T("discard")), el("th", "", T("shanten")), el("th", "", T("live tiles")));
    t.append(head);
    for (const d of h.discards) {
      const tr = el("tr");
      const td = el("td");
      td.append(tileEl(d.discard, "small"));
      tr.append(td, el("td", "num", String(d.shanten)), el("td", "num", String(d.live)));
      t.append(tr);
    }
    box.append(t);
    const ready = h.discards.find((d) => d.waits && d.waits.length);
    if (ready) {
      const p = el("p", "", T("After discarding") + " ");
      p.append(tileEl(ready.discard, "small"), document.createTextNode(":"));
      box.append(p, waitsEl(ready.waits));
    }
  }
  if (h.waits && h.waits.length) box.append(waitsEl(h.waits));
  return box;
}

function resultEl() {
  const r = state.result;
  const box = el("section", "result");
  box.id = "result";
  const names = bySeat((p) => botName(p.name));
  box.append(el("h2", "", r.kind === "draw" ? T("Nobody won") : T("Hand over")));
  r.wins.forEach((w) => box.append(winEl(w, names)));
  box.append(pointsEl(r.points, names));
  if (state.others && state.others.length) {
    box.append(el("h3", "", T("Others on this deal at your seat")));
    const t = el("table", "others");
    for (const o of state.others) {
      const tr = el("tr");
      tr.append(el("td", "", T("table {}", o.table)), el("td", "", o.name), el("td", "num", String(o.points)));
      t.append(tr);
    }
    box.append(t);
  }
  const links = el("p");
  const a = el("a", "", T("Replay this hand"));
  a.href = `/play/t/${tableId}/hands/${r.hand}`;
  links.append(a);
  box.append(links);
  if (state.stage === "between" && state.you != null && !state.places[state.you].ready) {
    box.append(button(T("Next hand"), () => send({ type: "next" }), { id: "next-hand", key: "n" }));
  } else if (state.stage === "between") {
    box.append(el("p", "small", T("The next hand starts when everyone is ready.")));
  }
  return box;
}

function finalEl() {
  const box = el("section", "final");
  box.id = "final";
  box.append(el("h2", "", T("Table over")));
  const t = el("table", "points");
  state.places.forEach((p, i) => {
    const tr = el("tr");
    tr.append(el("td", "", botName(p.name)), el("td", "num", String(state.final.scores[i])));
    if (state.final.table_points) tr.append(el("td", "num", T("{} table points", state.final.table_points[i])));
    t.append(tr);
  });
  box.append(t);
  return box;
}

function render() {
  app.replaceChildren();
  if (!state) {
    app.append(el("p", "loading", message || T("Connecting…")));
    return;
  }
  const bar = el("div", "bar");
  bar.append(el("span", "label", state.label_parts ? T(state.label_parts[0], ...state.label_parts[1].map((x) => T(x))) : state.label));
  if (state.stage === "waiting") bar.append(el("span", "stage", T("waiting for players")));
  bar.append(clockEl());
  if (state.you != null) {
    const l = el("label", "hint-toggle");
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.id = "hints-on";
    cb.checked = hintsOn;
    cb.addEventListener("change", () => {
      hintsOn = cb.checked;
      localStorage.setItem("dupmj-hints", hintsOn ? "1" : "0");
      send({ type: "hints", on: hintsOn });
    });
    l.append(cb, document.createTextNode(" " + T("hints")));
    bar.append(l);
  }
  app.append(bar);
  if (message) app.append(el("p", "err", message));
  if (state.notice) app.append(el("p", "notice", state.notice));
  if (state.stage === "waiting" || state.places.some((p) => p.open)) app.append(placesEl());
  if (state.board) {
    const names = bySeat((p) => botName(p.name));
    const scores = bySeat((p) => p.score);
    const badges = bySeat((p) => (p.away ? "bot plays" : !p.bot && !p.connected && !p.open ? "offline" : ""));
    const boardBox = el("div", "board-box");
    app.append(boardBox);
    const hand = renderBoard(boardBox, state.board, mySeat(), { names, scores, badges, duplicate: state.duplicate });
    if (hand && has("discard")) {
      const tiles = [...hand.querySelectorAll(".tile")];
      tiles.forEach((t, i) => {
        if (!legal().some((a) => a.action === "discard" && a.tile === t.dataset.tile)) return;
        t.classList.add("playable");
        if (i === selected) t.classList.add("selected");
        t.tabIndex = 0;
        t.addEventListener("click", () => act({ action: "discard", tile: t.dataset.tile }));
      });
    }
    if (legal().length) app.append(actionsEl());
  }
  if (hintsOn && state.hints) app.append(hintsEl());
  if (state.result && state.stage !== "playing") app.append(resultEl());
  if (state.final) app.append(finalEl());
  tickClock();
}

document.addEventListener("keydown", (e) => {
  if (!state || e.target.tagName === "INPUT") return;
  const k = e.key;
  if (k === "n" && state.stage === "between") return send({ type: "next" });
  if (!legal().length) return;
  const find = (name) => legal().find((a) => a.action === name);
  const hand = [...document.querySelectorAll(".my-hand .tile.playable")];
  if (huPreview && k === "Enter") return act({ action: "hu" });
  if (chowPick && /^[1-3]$/.test(k)) {
    const c = legal().filter((a) => a.action === "chow")[Number(k) - 1];
    if (c) act(c);
    return;
  }
  if (k === "Escape" && (huPreview || chowPick)) { huPreview = chowPick = false; return render(); }
  if (k === "h" && find("hu")) { huPreview = true; return render(); }
  if (k === "p" && find("pung")) return act(find("pung"));
  if (k === "k") {
    const kong = find("kong") || find("concealed_kong") || find("promoted_kong");
    if (kong) return act(kong);
  }
  if (k === "c" && find("chow")) {
    const chows = legal().filter((a) => a.action === "chow");
    if (chows.length === 1) return act(chows[0]);
    chowPick = true;
    return render();
  }
  if (k === " " && find("pass")) { e.preventDefault(); return act(find("pass")); }
  if ((k === "ArrowLeft" || k === "ArrowRight") && hand.length) {
    e.preventDefault();
    const all = [...document.querySelectorAll(".my-hand .tile")];
    let i = selected;
    do {
      i = k === "ArrowLeft" ? (i <= 0 ? all.length - 1 : i - 1) : (i + 1) % all.length;
    } while (!all[i].classList.contains("playable"));
    selected = i;
    return render();
  }
  if (k === "Enter" && selected >= 0) {
    const t = document.querySelectorAll(".my-hand .tile")[selected];
    if (t) return act({ action: "discard", tile: t.dataset.tile });
  }
  if (k === "d" && state.board) {
    const drawn = document.querySelector(".my-hand .tile.drawn.playable");
    if (drawn) return act({ action: "discard", tile: drawn.dataset.tile });
  }
});

connect();
render();
