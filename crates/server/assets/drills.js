// The drills page: asks for the day's set, shows one drill at a time (a position from one
// of your hands, a winning hand to count, a hand to keep a route to 8 points in), sends
// the answer, shows the server's answer (the expert's candidates and the field, the
// calculator's reading, the planner's routes) and goes on. The problem of the day is the
// same for everyone; its answers are shown once you have given yours.
import { renderBoard, meldEl, moveWords, el, WIND_NAME } from "./board.js";
import { T, tileEl, tileName } from "./tiles.js";

const root = document.getElementById("drills");
const csrf = root.dataset.csrf;
const box = document.getElementById("drill");
const progressLine = document.getElementById("drill-progress");
const problem = document.getElementById("problem");
const zh = document.documentElement.lang === "zh";
let queue = [];
let next = null; // what the N key does once an answer is shown

async function getJson(url, opts) {
  const r = await fetch(url, { cache: "no-store", ...opts });
  const body = await r.json().catch(() => ({ error: T("The server did not answer; trying again…") }));
  if (!r.ok) throw new Error(body.error || String(r.status));
  return body;
}

function showProgress(p) {
  progressLine.textContent = T("{} answered, {} right · {} due", p.answered, p.right, p.due);
}

// In Chinese the fans' Chinese names; in English both, as players learn them.
const fanName = (f) => (zh ? f.chinese : `${f.name} ${f.chinese}`);

function question(d) {
  if (d.kind === "fan" || d.of === "fan") return T("How many points is this hand worth, and which fans does it score?");
  if (d.kind === "route" || d.of === "route") return T("Which discard keeps a route to 8 points?");
  const k = d.decision || {};
  if (k.kind === "claim") return T("{} discards {}: what do you do?", T(WIND_NAME[k.from]), tileName(k.tile));
  if (k.kind === "rob_kong") return T("{} adds {} to a pung: what do you do?", T(WIND_NAME[k.from]), tileName(k.tile));
  return T("Your turn: what do you play?");
}

/** A clickable, keyboard-reachable tile or button that answers `move`. */
function answering(e, move, send) {
  e.tabIndex = 0;
  e.setAttribute("role", "button");
  e.classList.add("answer");
  e.onclick = () => send(move);
  e.onkeydown = (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      send(move);
    }
  };
}

function boardDrill(d, send) {
  const area = el("div", "drill-board");
  box.append(area);
  const tags = (d.names || []).map((n, i) => ({ name: n, score: d.scores ? d.scores[i] : null }));
  const w = area.clientWidth || box.clientWidth;
  const { hand } = renderBoard(area, d.board, d.seat, { w, h: Math.min(620, Math.max(380, w * 0.75)) },
    { tags, duplicate: true, centred: true });
  const moves = el("div", "drill-moves");
  for (const m of d.legal) {
    if (m.action === "discard" && hand) {
      const t = [...hand.querySelectorAll(".tile")].reverse().find((x) => x.dataset.tile === m.tile && !x.classList.contains("answer"));
      if (t) {
        answering(t, m, send);
        t.setAttribute("aria-label", moveWords(m));
        continue;
      }
    }
    const b = el("button", "", moveWords(m));
    b.onclick = () => send(m);
    moves.append(b);
  }
  box.append(moves);
}

function fanDrill(d, send) {
  const line = el("p", "drill-hand");
  d.melds.forEach((m) => line.append(meldEl(m)));
  d.concealed.forEach((t) => line.append(tileEl(t)));
  line.append(" ", tileEl(d.win, "drawn winning"));
  box.append(line);
  const how = [d.self_drawn ? T("self-drawn") : T("on a discard"), T("seat wind {}", T(WIND_NAME[d.seat])), T("prevalent wind {}", T(WIND_NAME[d.prevalent]))];
  if (d.last_tile) how.push(T("last tile"));
  box.append(el("p", "small", how.join(" · ")));
  const form = el("form", "drill-fans");
  const pts = el("input");
  Object.assign(pts, { type: "number", min: "8", max: "400", required: true, id: "drill-points", inputMode: "numeric" });
  const label = el("label", "", `${T("Points")} `);
  label.append(pts);
  form.append(label);
  const list = el("fieldset", "fan-choices");
  list.append(el("legend", "", T("Fans (tick those counted)")));
  d.choices.forEach((f) => {
    const l = el("label");
    const c = el("input");
    Object.assign(c, { type: "checkbox", value: String(f.no) });
    l.append(c, ` ${fanName(f)}`);
    list.append(l);
  });
  form.append(list, el("button", "", T("Answer")));
  form.onsubmit = (e) => {
    e.preventDefault();
    const fans = [...list.querySelectorAll("input:checked")].map((c) => Number(c.value));
    send({ points: Number(pts.value), fans });
  };
  box.append(form);
  pts.focus();
}

// The calculator's words for where a fan lies ("whole hand", "pair 66s", "winning tile
// 5p", a special shape's name) in the page's language; tiles stay in notation.
const SHAPES = ["seven pairs", "seven shifted pairs", "thirteen orphans", "honours and knitted tiles", "knitted straight", "nine gates"];
function calcWords(s) {
  let out = s
    .replace(/\bwhole hand\b/g, T("whole hand"))
    .replace(/\bwinning tile (\S+)/g, (_, t) => T("winning tile {}", t))
    .replace(/\bpair (\S+)/g, (_, t) => T("pair {}", t))
    .replace(/\bflowers\b/g, T("flowers"));
  for (const shape of SHAPES) out = out.replace(`${shape}:`, `${T(shape)}:`);
  return out;
}

function table(head, rows) {
  const t = el("table", "list");
  const h = el("tr");
  head.forEach((x) => h.append(el("th", "", x)));
  t.append(h);
  rows.forEach((r) => {
    const tr = el("tr");
    r.forEach((x) => {
      const td = el("td");
      td.append(x instanceof Node ? x : String(x));
      tr.append(td);
    });
    t.append(tr);
  });
  return t;
}

const sign = (x) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));

function showAnswer(d, given, a, after) {
  const res = el("section", `drill-answer ${a.right ? "right" : "wrong"}`);
  res.id = "drill-answer";
  res.append(el("h3", "", a.right ? T("Right") : T("Not quite")));
  res.append(el("p", "", T("You answered {}.", given.action ? moveWords(given) : T("{} points", given.points))));
  if (a.kind === "fan" || d.of === "fan") {
    res.append(el("p", "", T("{} points: {}", a.total, calcWords(a.reading))));
    res.append(table([T("fan"), T("Points"), T("count"), T("sets"), T("not counted with it")],
      a.fans.map((f) => [fanName(f), f.points, f.count, calcWords(f.sets), f.implies.map(fanName).join(", ") || "—"])));
    res.append(el("p", "small", T("The same reading from the calculator: {}", a.command)));
  } else if (a.options) {
    res.append(el("p", "", T("The strong bot discards {}.", tileName(a.best.tile))));
    const words = (o) => (o.ready ? T("ready") : o.no_route ? T("no route to 8 points") : T("{} from ready", o.distance));
    const mark = (o) => (o.tile === given.tile ? ` ← ${T("you")}` : "") + (o.tile === a.best.tile ? " ★" : "");
    res.append(table([T("discard"), T("leaves the hand"), T("routes"), T("live tiles")],
      a.options.map((o) => [tileEl(o.tile), words(o) + mark(o), o.routes.map(fanName).join(", ") || "—", o.live])));
  } else {
    if (a.best) res.append(el("p", "", T("The expert plays {}.", moveWords(a.best))));
    res.append(el("p", "", T("You played {} then.", moveWords(a.played))));
    if (a.candidates.length) {
      res.append(table([T("move"), T("expected points"), T("gives up")],
        a.candidates.map((c) => [moveWords(c.move), c.points.toFixed(1), c.gives_up.toFixed(1)])));
    }
    // The field, where someone else reached the same position.
    if (a.field && a.field.some((b) => !b.yours || b.holders > 1)) {
      res.append(el("h4", "", T("What the field did")));
      res.append(table([T("move"), T("players"), T("their IMP"), T("who")],
        a.field.map((b) => [moveWords(b.move) + (b.yours ? ` (${T("you")})` : ""), b.holders, sign(b.mean_imp), b.names.join(", ")])));
    }
    const link = el("a", "", T("the whole hand"));
    link.href = a.replay;
    const p = el("p");
    p.append(link);
    res.append(p);
  }
  if (a.everyone) {
    res.append(el("h4", "", T("How everyone answered")));
    res.append(table([T("answer"), T("players"), ""], a.everyone.map((e) => [e.answer, e.count, e.right ? "✓" : ""])));
  }
  if (a.back_in_days === 1) res.append(el("p", "small", T("It comes back tomorrow.")));
  else if (a.back_in_days != null) res.append(el("p", "small", T("It comes back in {} days.", a.back_in_days)));
  const go = el("button", "", T("Next"));
  go.id = "drill-next";
  go.setAttribute("aria-keyshortcuts", "N");
  go.onclick = after;
  next = after;
  res.append(go);
  box.append(res);
  showProgress(a.progress);
  go.focus();
}

async function open(key, after) {
  next = null;
  box.replaceChildren(el("p", "", T("Loading…")));
  let d;
  try {
    d = await getJson(`/play/drills/question.json?key=${encodeURIComponent(key)}`);
  } catch (e) {
    box.replaceChildren(el("p", "err", e.message));
    next = after;
    return;
  }
  box.replaceChildren(el("h2", "", question(d)));
  box.dataset.key = key;
  let sent = false;
  const send = async (answer) => {
    if (sent) return;
    sent = true;
    const form = new URLSearchParams({ csrf, key, answer: JSON.stringify(answer) });
    try {
      const a = await getJson("/play/drills/answer", { method: "POST", body: form });
      showAnswer(d, answer, a, after);
    } catch (e) {
      sent = false;
      box.append(el("p", "err", e.message));
    }
  };
  if (d.kind === "fan" || d.of === "fan") fanDrill(d, send);
  else boardDrill(d, send);
}

function done() {
  box.replaceChildren(el("h2", "", T("All done for today")), el("p", "", T("Come back tomorrow for the drills then due.")));
}

function step() {
  const d = queue.shift();
  if (!d) return done();
  open(d.key, step);
}

async function load() {
  const s = await getJson("/play/drills/set.json");
  showProgress(s.progress);
  queue = s.drills;
  const btn = document.getElementById("problem-open");
  const line = document.getElementById("problem-line");
  if (s.problem.answered) line.textContent = T("You have answered today's problem; open it again to see how everyone answered.");
  btn.onclick = () => open(s.problem.key, () => { problem.scrollIntoView(); step(); });
  step();
}

document.addEventListener("keydown", (e) => {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if ((e.key === "n" || e.key === "N") && next) {
    e.preventDefault();
    const f = next;
    next = null;
    f();
  }
});

load().catch((e) => { progressLine.textContent = e.message; });
