// Draws a board (as the server sends it) around a seat at the bottom of the screen. Used by
// the live table and by the replay viewer.
import { tileEl, T } from "./tiles.js";

export const WINDS = ["E", "S", "W", "N"];
export const WIND_CHAR = { E: "東", S: "南", W: "西", N: "北" };
const WIND_NAME = { E: T("East"), S: T("South"), W: T("West"), N: T("North") };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function meldEl(m) {
  const box = el("span", "meld");
  if (m.hidden) {
    for (let i = 0; i < m.hidden; i++) box.append(tileEl(null, "small"));
    return box;
  }
  m.tiles.forEach((t, i) => {
    const down = (m.down || []).includes(i);
    box.append(tileEl(down ? null : t, `small${i === m.turned ? " turned" : ""}`));
  });
  return box;
}

/** One seat's area. `names[s]`, `scores[s]` by seat index. */
function seatEl(seat, pos, opts) {
  const i = WINDS.indexOf(seat.wind);
  const box = el("section", `seat seat-${pos}`);
  box.dataset.wind = seat.wind;
  if (opts.turn === seat.wind) box.classList.add("to-move");
  const head = el("header", "seat-head");
  head.append(el("span", "wind", WIND_CHAR[seat.wind]));
  head.append(el("span", "name", opts.names ? opts.names[i] : WIND_NAME[seat.wind]));
  if (opts.scores) head.append(el("span", "score", String(opts.scores[i])));
  if (seat.wind === "E") head.append(el("span", "badge dealer", T("dealer")));
  if (opts.duplicate) head.append(el("span", "wall", T("wall {}", seat.wall)));
  if (opts.badges && opts.badges[i]) head.append(el("span", "badge", opts.badges[i]));
  box.append(head);
  const melds = el("div", "melds");
  seat.melds.forEach((m) => melds.append(meldEl(m)));
  (seat.bonus || []).forEach((b) => melds.append(tileEl(b, "small bonus")));
  box.append(melds);
  if (pos !== "bottom" || !seat.hand) {
    const hand = el("div", "hidden-hand");
    if (seat.hand) {
      seat.hand.forEach((t) => hand.append(tileEl(t, "small")));
      if (seat.drew) hand.append(tileEl(seat.drew, "small drawn"));
    } else {
      hand.append(el("span", "count", T("{} tiles", seat.concealed)));
    }
    box.append(hand);
  }
  const pile = el("div", "discards");
  seat.discards.forEach((t) => pile.append(tileEl(t, "small")));
  (seat.bonus_discards || []).forEach((b) => pile.append(tileEl(b, "small bonus")));
  box.append(pile);
  return box;
}

/**
 * Renders `board` into `root`, `bottom` (a wind) nearest the viewer. `opts`: names and
 * scores by seat, duplicate (per-seat walls shown), badges by seat.
 * Returns the bottom seat's hand element (null when that hand is not visible).
 */
export function renderBoard(root, board, bottom, opts = {}) {
  root.replaceChildren();
  const b = WINDS.indexOf(bottom);
  const at = (k) => board.seats[(b + k) % 4];
  const grid = el("div", "board");
  const o = { ...opts, turn: board.turn };
  grid.append(seatEl(at(2), "top", o), seatEl(at(3), "left", o));
  const centre = el("div", "centre");
  centre.append(el("div", "prevalent", T("{} round", WIND_CHAR[board.prevalent])));
  const left = board.seats[0].wall;
  if (!opts.duplicate) centre.append(el("div", "left", T("{} tiles left", left)));
  if (board.last_tile_point) centre.append(el("div", "last-tile", T("last tile")));
  if (board.last) {
    const line = el("div", "last");
    line.append(el("span", "", `${WIND_CHAR[board.last.seat]} ${T(board.last.text)} `));
    if (board.last.tile) line.append(tileEl(board.last.tile, "small"));
    centre.append(line);
  }
  grid.append(centre, seatEl(at(1), "right", o), seatEl(at(0), "bottom", o));
  root.append(grid);
  const me = at(0);
  if (!me.hand) return null;
  const hand = el("div", "my-hand");
  me.hand.forEach((t, i) => {
    const e = tileEl(t);
    e.dataset.index = i;
    hand.append(e);
  });
  if (me.drew) {
    hand.append(el("span", "gap"));
    const e = tileEl(me.drew, "drawn");
    e.dataset.index = me.hand.length;
    hand.append(e);
  }
  root.append(hand);
  return hand;
}

/** A win laid out: the hand, and its fans in English and Chinese with their points. */
export function winEl(w, names) {
  const box = el("div", "win");
  const i = WINDS.indexOf(w.seat);
  box.append(el("h3", "", `${WIND_CHAR[w.seat]} ${names ? names[i] : ""} — ${w.self_drawn ? T("self-drawn") : T("on a discard")}, ${T("{} points", w.value)}`));
  if (w.concealed) {
    const laid = el("div", "laid");
    (w.melds || []).forEach((m) => laid.append(meldEl(m)));
    w.concealed.forEach((t) => laid.append(tileEl(t)));
    laid.append(tileEl(w.win, "drawn winning"));
    box.append(laid);
  } else {
    box.append(el("p", "hand-text", w.hand));
  }
  const t = el("table", "fans");
  for (const f of w.fans) {
    const tr = el("tr");
    tr.append(el("td", "", f.name), el("td", "zh", f.zh), el("td", "num", f.count > 1 ? `${f.points} × ${f.count}` : String(f.points)));
    t.append(tr);
  }
  box.append(t);
  return box;
}

/** Match points of a hand by seat, with names. */
export function pointsEl(points, names) {
  const t = el("table", "points");
  WINDS.forEach((w, i) => {
    const tr = el("tr");
    tr.append(el("td", "", `${WIND_CHAR[w]} ${names ? names[i] : w}`), el("td", "num", (points[i] > 0 ? "+" : "") + points[i]));
    t.append(tr);
  });
  return t;
}

export { el };
