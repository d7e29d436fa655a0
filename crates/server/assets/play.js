// The live table: one WebSocket to the server, which decides everything. The page shows
// the state it is sent on a square table (board.js), offers only the moves listed as legal
// — a discard by clicking a tile, anything else in the claim box — and keeps the player's
// options (auto-Hu, no calls, discarding the drawn tile, tile order, sound). About 600 lines
// on purpose: what reads the page's live state stays here; panels that need only what they
// are given are in panels.js and sheets.js.
import { renderBoard, winEl, pointsEl, fitNames, el, WINDS, WIND_CHAR, WIND_NAME } from "./board.js";
import { tileEl, tileName, T } from "./tiles.js";
import { cue, setMuted } from "./sound.js";
import { loadPrefs, savePrefs, sorter, optionsEl } from "./prefs.js";
import { hintsEl, finalEl } from "./sheets.js";
import { actionsEl, handsEl, helpEl, showKey } from "./panels.js";
import { noteStamps, drawStamps, stampsEl } from "./stamps.js";

const app = document.getElementById("app");
const tableId = app.dataset.table;
const signedIn = app.dataset.me !== "";
// A practice table's: at a rated one the server refuses hints.
const hintsAllowed = app.dataset.hints === "1";
let prefs = loadPrefs(app.dataset.prefs, app.dataset.csrf);
setMuted(prefs.mute);
let ws = null;
let state = null;
let retry = 500;
let deadline = null; // when the decision's own time ends (ms, performance clock)
let bankEnd = null; // when the bank runs out too
let chowPick = false;
let selected = -1;
let message = "";
let shownKey = ""; // the latest discard drawn, so that only a new one moves
let drawnKey = "";
let flashKey = "";
let autoKey = ""; // the decision an automatic move was sent for
let lowWarned = "";
let claimShown = ""; // the decision whose claim box has already moved in
// Measurements for the browser tests: when each state arrived and when its claim box was
// first on screen; frame times during a discard's motion.
const timings = (window.dupmjTimings = { overlay: [], frames: [] });
let arrived = 0;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/play/t/${tableId}/ws`);
  ws.onopen = () => {
    retry = 500;
    message = "";
    if (prefs.hints && hintsAllowed) send({ type: "hints", on: true });
  };
  ws.onmessage = (ev) => {
    arrived = performance.now();
    const m = JSON.parse(ev.data);
    if (m.type === "state") {
      if (!state || state.step !== m.step || state.stage !== m.stage) {
        chowPick = false;
        selected = -1;
      }
      const fresh = !state || state.step !== m.step || state.stage !== m.stage;
      state = m;
      noteStamps(m);
      message = "";
      // What is asked of you now, for tests and assistive tools to read off the page.
      document.body.dataset.decision = m.legal && m.legal.length && m.decision ? m.decision.kind : "";
      bump();
      // The server's split as it stood when it sent this: the decision's own time first,
      // then the bank.
      const c = m.clock;
      deadline = c && c.own_ms != null ? arrived + c.own_ms : null;
      bankEnd = deadline == null ? null : deadline + c.bank_ms;
      timings.clock = c ? { own_ms: c.own_ms, bank_ms: c.bank_ms, at: arrived } : null;
      render();
      if (fresh) cues();
      automatic();
    } else if (m.type === "error") {
      message = m.message;
      bump();
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

function bump() {
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
}

function send(m) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
}

function act(action) {
  send({ type: "act", step: state.step, action });
}

const legal = () => (state && state.legal) || [];
const has = (name) => legal().some((a) => a.action === name);
const find = (name) => legal().find((a) => a.action === name);
const seatOfPlace = (p) => state.places[p].seat;
const mySeat = () => (state.you == null ? "E" : seatOfPlace(state.you));
const decision = () => state && state.decision;
const claiming = () => decision() && (decision().kind === "claim" || decision().kind === "rob_kong");

/** One way to name a place everywhere: the person, "bot (strong)", or "open seat". */
function placeName(p) {
  if (p.open) return T("open seat");
  if (p.level) return T("bot ({})", T(p.level));
  const guest = / \(guest\)$/.exec(p.name);
  if (guest) return T("{} (guest)", p.name.slice(0, guest.index));
  const bot = / \(bot\)$/.exec(p.name);
  return bot ? T("{} (bot)", p.name.slice(0, bot.index)) : p.name;
}

function bySeat(f) {
  return WINDS.map((w, s) => f(state.places[state.seat_places ? state.seat_places[s] : s]));
}

/** Sounds for what just became true: your turn, a claim for you, a win. */
function cues() {
  if (state.result && state.stage !== "playing" && state.result.wins.length) cue("hu");
  else if (claiming()) cue("claim");
  else if (decision() && decision().kind === "turn") cue("turn");
}

/** The options that play by themselves: Hu, passing claims, discarding the drawn tile. */
function automatic() {
  if (!legal().length || state.stage !== "playing") return;
  const key = `${state.step}`;
  if (autoKey === key) return;
  const d = decision();
  let move = null;
  if (prefs.autoHu && has("hu")) move = find("hu");
  else if (prefs.noCalls && claiming() && !has("hu")) move = find("pass");
  else if (
    prefs.autoDiscard && d && d.kind === "turn" && d.drew &&
    legal().every((a) => a.action === "discard") &&
    legal().some((a) => a.tile === d.drew)
  ) move = { action: "discard", tile: d.drew };
  if (!move) return;
  autoKey = key;
  // A short pause, so that what happened stays visible before the page answers for you.
  setTimeout(() => {
    if (state && `${state.step}` === key && legal().length) act(move);
  }, move.action === "discard" ? 350 : 150);
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

/** What the server will play if the clock runs out, in words. */
function defaultWords(a) {
  if (!a) return "";
  switch (a.action) {
    case "pass": return T("If time runs out: you pass.");
    case "discard": return T("If time runs out: you discard {}.", tileName(a.tile));
    case "bonus": return T("If time runs out: the flower is set aside.");
    default: return T("If time runs out: {}.", describe(a));
  }
}

function button(content, onClick, attrs = {}) {
  const b = el("button", attrs.cls || "");
  if (typeof content === "string") b.textContent = content;
  else b.append(...content);
  for (const [k, v] of Object.entries(attrs.data || {})) b.dataset[k] = v;
  if (attrs.id) b.id = attrs.id;
  if (attrs.key) {
    b.title = T("key: {}", attrs.key);
    b.setAttribute("aria-keyshortcuts", attrs.key);
  }
  b.addEventListener("click", onClick);
  return b;
}

/** The claim box: what you may do besides discarding, impossible to miss. */
function claimEl(geo) {
  const box = el("section", "claim");
  box.id = "claim";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-live", "assertive");
  const d = decision();
  if (claiming()) {
    const head = el("div", "claim-head");
    head.append(el("span", "claim-what", `${WIND_CHAR[d.from]} ${T(d.kind === "rob_kong" ? "{} adds to a pung" : "{} discards", T(WIND_NAME[d.from]))}`));
    head.append(tileEl(d.tile, "big"));
    box.append(head);
  } else {
    box.append(el("div", "claim-head claim-what", T("Your turn: discard a tile, or")));
  }
  const row = el("div", "claim-buttons");
  const hu = find("hu");
  if (hu) {
    const b = button(T("Hu"), () => act(hu), { cls: "hu", id: "hu", data: { action: "hu" }, key: "h" });
    row.append(b);
  }
  const kongs = legal().filter((a) => ["kong", "concealed_kong", "promoted_kong"].includes(a.action));
  kongs.forEach((a) => {
    const content = [document.createTextNode(describe(a))];
    if (a.tile) content.push(tileEl(a.tile, "mini"));
    row.append(button(content, () => act(a), { data: { action: a.action, tile: a.tile || "" }, key: "k" }));
  });
  const pung = find("pung");
  if (pung) row.append(button(T("Pung"), () => act(pung), { data: { action: "pung" }, key: "p" }));
  const chows = legal().filter((a) => a.action === "chow");
  chows.forEach((a, i) => {
    // The two tiles of your hand it uses, beside the tile claimed.
    const low = Number(a.tile[0]);
    const content = [document.createTextNode(`${T("Chow")} `)];
    for (let k = 0; k < 3; k++) {
      const t = `${low + k}${a.tile[1]}`;
      content.push(tileEl(t, t === d.tile ? "mini claimed" : "mini"));
    }
    row.append(button(content, () => act(a), { cls: "chow", data: { action: "chow", tile: a.tile }, key: chows.length > 1 ? `c ${i + 1}` : "c" }));
  });
  for (const a of legal()) {
    if (a.action === "bonus" || a.action === "discard_bonus") {
      row.append(button(describe(a), () => act(a), { data: { action: a.action }, key: "f" }));
    }
  }
  const pass = find("pass");
  if (pass) row.append(button(T("Pass"), () => act(pass), { cls: "pass", data: { action: "pass" }, key: "space" }));
  box.append(row);
  if (hu && state.hu_preview) {
    const fans = el("div", "hu-fans");
    fans.append(el("div", "hu-total", T("Hu scores {} points:", state.hu_preview.value)));
    const t = el("table", "fans");
    for (const f of state.hu_preview.fans) {
      const tr = el("tr");
      tr.append(el("td", "", f.name), el("td", "zh", f.zh), el("td", "num", f.count > 1 ? `${f.points} × ${f.count}` : String(f.points)));
      t.append(tr);
    }
    fans.append(t);
    box.append(fans);
  }
  box.append(timerEl());
  box.append(el("p", "default", defaultWords(state.default)));
  // It moves in once per decision, not again at each redrawing.
  const key = `${state.hand_no}:${state.step}`;
  if (key === claimShown) box.classList.add("steady");
  claimShown = key;
  return box;
}

/** The countdown: the decision's own seconds, then the bank. */
function timerEl() {
  const t = el("div", "timer");
  t.id = "timer";
  t.append(el("div", "time-bar"), el("div", "bank-bar"), el("span", "time-text"));
  return t;
}

function tickClock() {
  const t = document.getElementById("timer");
  if (!t || deadline == null || !state) return;
  const now = performance.now();
  const limit = state.limit_s * 1000;
  const own = Math.max(0, deadline - now);
  const bank = Math.max(0, bankEnd - Math.max(now, deadline));
  const bankAll = Math.max(1, state.clock ? state.clock.bank_full_ms : 1);
  t.querySelector(".time-bar").style.width = `${(100 * own) / limit}%`;
  t.querySelector(".bank-bar").style.width = `${Math.min(100, (100 * bank) / bankAll)}%`;
  const s = Math.ceil(own / 1000);
  t.querySelector(".time-text").textContent =
    own > 0 ? T("{} s", s) + (bank > 0 ? ` ${T("(+{} bank)", Math.ceil(bank / 1000))}` : "") : T("bank {} s", Math.ceil(bank / 1000));
  const low = own + bank < 5000;
  t.classList.toggle("low", low);
  if (low && lowWarned !== `${state.step}`) {
    lowWarned = `${state.step}`;
    cue("low");
  }
}
setInterval(tickClock, 200);

function placesEl() {
  const box = el("div", "places");
  const ul = el("ul");
  state.places.forEach((p, i) => {
    const li = el("li", "", `${WIND_CHAR[p.seat]} ${placeName(p)}${p.bot || p.open || p.connected ? "" : " " + T("(offline)")}`);
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

function resultEl() {
  const r = state.result;
  const box = el("section", "result");
  box.id = "result";
  const names = bySeat(placeName);
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
  const hands = handsEl(state.board, r, names);
  if (hands) box.append(hands);
  const links = el("p");
  const a = el("a", "replay-link", T("Replay this hand"));
  a.href = `/play/t/${tableId}/hands/${r.hand}`;
  links.append(a);
  box.append(links);
  if (state.stage === "between" && !nextHandDue()) {
    box.append(el("p", "small", T("The next hand starts when everyone is ready.")));
  }
  return box;
}

/** Whether "Next hand" is yours to press. */
const nextHandDue = () => state.stage === "between" && state.you != null && !state.places[state.you].ready;


/** What to do now that a hand or the table is over (panels.js), with this page's
 * "Next hand" button when it is yours to press. */
function actionsHere(geo) {
  const next = nextHandDue()
    ? button(T("Next hand"), () => send({ type: "next" }), { id: "next-hand", key: "n", cls: "go" })
    : null;
  return actionsEl({
    docked: !!geo && !geo.wide,
    next,
    final: !!state.final,
    then: JSON.parse(app.dataset.then || "{}"),
    csrf: app.dataset.csrf,
    tableId,
    place: state.you,
  });
}


/** Big words on the claimer's side for a claim or a win, for a moment (kept across
 * redraws: each redraw puts them back where their fading has got to). */
const FLASH_MS = 1400;
let flashes = [];
function flash(wind, text) {
  flashes.push({ wind, text, at: performance.now() });
}
function drawFlashes(root) {
  const now = performance.now();
  flashes = flashes.filter((f) => now - f.at < FLASH_MS);
  for (const f of flashes) {
    const tag = root.querySelector(`.tag[data-wind="${f.wind}"]`);
    if (!tag) continue;
    const e = el("div", "flash", f.text);
    e.style.animationDelay = `${-(now - f.at)}ms`;
    tag.append(e);
  }
}

function noticeText(n) {
  if (!n) return "";
  const args = (n.args || []).map((a) => (/^([1-9][mps]|[ESWNCFP]|H[1-8])$/.test(a) ? tileName(a) : a));
  return T(n.text, ...args) + (n.then ? ` ${T(n.then)}` : "");
}

/** The area the table may fill: the window below the page's header. */
function area() {
  const top = app.getBoundingClientRect().top + window.scrollY;
  return { w: app.clientWidth, h: Math.max(320, document.documentElement.clientHeight - top) };
}

function render() {
  app.replaceChildren();
  if (!state) {
    app.append(el("p", "loading", message || T("Connecting…")));
    return;
  }
  const live = el("p", "sr-only");
  live.setAttribute("aria-live", "polite");
  app.append(live);
  let geo = null;
  if (state.board) {
    const stage = el("div", "stage");
    app.append(stage);
    const b = state.board;
    const lastKey = b.last && b.last.text === "discards" ? `${state.hand_no}:${b.last.seat}:${(b.seats[WINDS.indexOf(b.last.seat)].pond || []).length}` : "";
    const me = b.seats[WINDS.indexOf(mySeat())];
    const drawKey = me && me.drew ? `${state.hand_no}:${state.step}:${me.drew}` : "";
    const fresh = { discard: lastKey && lastKey !== shownKey, draw: drawKey && drawKey !== drawnKey };
    const names = bySeat(placeName);
    const scores = bySeat((p) => p.score);
    const badges = bySeat((p) => (p.away ? T("a bot plays for them") : !p.bot && !p.connected && !p.open ? T("(offline)") : ""));
    const tags = names.map((n, i) => ({ name: n, score: scores[i], badge: badges[i] }));
    const out = renderBoard(stage, b, mySeat(), area(), { tags, duplicate: state.duplicate, sort: sorter(prefs.sort), fresh });
    geo = out.geo;
    app.style.setProperty("--panel-x", `${geo.panel.x}px`);
    if (fresh.discard) {
      shownKey = lastKey;
      measureFrames();
    }
    if (fresh.draw) drawnKey = drawKey;
    if (b.last) live.textContent = `${T(WIND_NAME[b.last.seat])} ${T(b.last.text)} ${b.last.tile ? tileName(b.last.tile) : ""}`;
    const claimKey = b.last && ["chows", "pungs", "kongs"].includes(b.last.text) ? `${state.hand_no}:${b.last.seat}:${b.last.text}:${JSON.stringify(b.seats.map((s) => s.melds.length))}` : "";
    if (claimKey && claimKey !== flashKey) {
      flashKey = claimKey;
      flash(b.last.seat, { chows: T("Chow!"), pungs: T("Pung!"), kongs: T("Kong!") }[b.last.text]);
    }
    if (state.result && state.stage !== "playing" && flashKey !== `hu:${state.hand_no}`) {
      flashKey = `hu:${state.hand_no}`;
      state.result.wins.forEach((w) => flash(w.seat, T("Hu!")));
    }
    drawFlashes(stage);
    drawStamps(stage);
    const hand = out.hand;
    if (hand && has("discard")) {
      const tiles = [...hand.querySelectorAll(".tile")];
      tiles.forEach((t, i) => {
        if (!legal().some((a) => a.action === "discard" && a.tile === t.dataset.tile)) return;
        t.classList.add("playable");
        if (i === selected) t.classList.add("selected");
        t.tabIndex = 0;
        t.setAttribute("role", "button");
        t.setAttribute("aria-label", T("discard {}", tileName(t.dataset.tile)));
        t.addEventListener("click", () => act({ action: "discard", tile: t.dataset.tile }));
        t.addEventListener("keydown", (e) => {
          if (e.key === "Enter") {
            e.stopPropagation();
            act({ action: "discard", tile: t.dataset.tile });
          }
        });
      });
    }
  }
  const panel = el("aside", "panel");
  panel.id = "panel";
  if (geo) {
    Object.assign(panel.style, {
      left: `${geo.panel.x}px`, top: `${geo.panel.y}px`, width: `${geo.panel.w}px`,
    });
    panel.classList.add(geo.wide ? "side" : "below");
  }
  app.append(panel);
  const bar = el("div", "bar");
  const lobby = el("a", "back-link", T("Lobby"));
  lobby.href = "/play";
  bar.append(lobby);
  bar.append(el("span", "label", state.label_parts ? T(state.label_parts[0], ...state.label_parts[1].map((x) => T(x))) : state.label));
  if (state.stage === "waiting") bar.append(el("span", "stage-words", T("waiting for players")));
  const help = button("?", toggleHelp, { cls: "help-button", id: "help-button", key: "?" });
  help.setAttribute("aria-label", T("Keyboard shortcuts"));
  bar.append(help);
  panel.append(bar);
  const actions = actionsHere(geo);
  if (actions) (actions.classList.contains("dock") ? app : panel).append(actions);
  if (message) panel.append(el("p", "err", message));
  if (state.notice) panel.append(el("p", "notice", noticeText(state.notice)));
  const mine = legal().length > 0;
  const onlyDiscard = mine && legal().every((a) => a.action === "discard");
  if (mine && onlyDiscard) {
    const turn = el("div", "turn-box");
    turn.id = "turn";
    turn.append(el("p", "prompt", T("Your turn: discard a tile (click it)")));
    turn.append(timerEl());
    turn.append(el("p", "default", defaultWords(state.default)));
    panel.append(turn);
  } else if (mine && geo) {
    // Beside your hand, never over it or over the ponds: on a wide screen in the panel's
    // column with its foot level with your hand's, upright just under your hand.
    const c = claimEl(geo);
    const handFoot = geo.handBox.y + geo.handBox.h;
    if (geo.wide) {
      c.classList.add("beside");
      Object.assign(c.style, { left: `${geo.panel.x}px`, width: `${geo.panel.w}px`, top: `${handFoot}px`, maxHeight: `${handFoot}px` });
    } else {
      c.classList.add("under");
      Object.assign(c.style, { left: "0px", width: `${geo.panel.w}px`, top: `${handFoot + 4}px` });
    }
    app.append(c);
    if (claiming() && arrived) {
      // Only the first drawing after a message counts (not a resize's).
      const t0 = arrived;
      arrived = 0;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        timings.overlay.push(performance.now() - t0);
      }));
    }
  }
  if (state.stage === "waiting" || state.places.some((p) => p.open)) panel.append(placesEl());
  // The table's sheet first once it is over: the last hand's details follow.
  if (state.final) panel.append(finalEl(state, placeName));
  if (state.result && state.stage !== "playing") panel.append(resultEl());
  if (prefs.hints && state.hints) panel.append(hintsEl(state.hints));
  if (state.you != null && state.places.some((p, i) => i !== state.you && !p.bot && !p.open)) {
    panel.append(stampsEl(state, send, render));
  }
  if (state.you != null) {
    panel.append(optionsEl(prefs, (next) => {
      const hintsChanged = next.hints !== prefs.hints;
      prefs = next;
      setMuted(prefs.mute);
      savePrefs(prefs);
      if (hintsChanged && state.hints_allowed) send({ type: "hints", on: prefs.hints });
      render();
      automatic();
    }, state.hints_allowed));
  }
  if (helpOpen) app.append(helpEl(toggleHelp));
  fitNames(panel);
  tickClock();
  if (state.final && !keyShown) {
    keyShown = true;
    showKey(tableId, app.dataset.commitment);
  }
}

/** The keyboard shortcuts, on "?" or the bar's "?" button. */
let helpOpen = false;
let keyShown = false; // the footer has been told the key is out
function toggleHelp() {
  helpOpen = !helpOpen;
  render();
}

/** Frame times while a discard moves (the motion lasts about 200 ms). */
function measureFrames() {
  const start = performance.now();
  const frames = [];
  const step = (t) => {
    frames.push(t);
    if (t - start < 300) requestAnimationFrame(step);
    else if (frames.length > 1) timings.frames.push(frames);
  };
  requestAnimationFrame(step);
}

document.addEventListener("keydown", (e) => {
  if (!state || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (e.target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
  const k = e.key;
  if (k === "?") return toggleHelp();
  if (k === "Escape" && helpOpen) return toggleHelp();
  if (k === "n" && state.stage === "between") return send({ type: "next" });
  if (!legal().length) return;
  const hand = [...document.querySelectorAll(".my-hand .tile.playable")];
  if (chowPick && /^[1-3]$/.test(k)) {
    const c = legal().filter((a) => a.action === "chow")[Number(k) - 1];
    if (c) act(c);
    return;
  }
  if (k === "Escape" && chowPick) { chowPick = false; return render(); }
  if (k === "h" && find("hu")) return act(find("hu"));
  if (k === "p" && find("pung")) return act(find("pung"));
  if (k === "k") {
    const kong = find("kong") || find("concealed_kong") || find("promoted_kong");
    if (kong) return act(kong);
  }
  if (k === "f") {
    const f = find("bonus") || find("discard_bonus");
    if (f) return act(f);
  }
  if (k === "c" && find("chow")) {
    const chows = legal().filter((a) => a.action === "chow");
    if (chows.length === 1) return act(chows[0]);
    chowPick = true;
    return;
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
    render();
    const t = document.querySelectorAll(".my-hand .tile")[selected];
    if (t) t.focus();
    return;
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

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(render, 60);
});

connect();
render();
