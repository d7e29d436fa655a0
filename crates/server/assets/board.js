// Draws a board (as the server sends it) as a square table around the seat at the bottom:
// each opponent's tiles (backs, or faces once the hand is open) and melds at the table's
// edge, every pond of discards in rows of six in front of its owner, name tags in the
// corners and the round in the centre. Used by the live table and by the replay viewer.
import { tileEl, T, tileName } from "./tiles.js";
import { layout, stripTile } from "./layout.js";

export const WINDS = ["E", "S", "W", "N"];
export const WIND_CHAR = { E: "東", S: "南", W: "西", N: "北" };
export const WIND_NAME = { E: "East", S: "South", W: "West", N: "North" };
const SIDES = ["bottom", "right", "top", "left"];

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** How wide a meld is, in tile widths. */
function meldUnits(m) {
  if (m.hidden) return 4.3;
  return m.tiles.length + (m.turned != null ? 0.33 : 0) + (m.promoted ? 0.33 : 0) + 0.3;
}

/** One meld: its tiles left to right, the claimed one turned towards whom it came from. */
export function meldEl(m) {
  const box = el("span", "meld");
  if (m.hidden) {
    box.setAttribute("aria-label", T("a concealed kong"));
    for (let i = 0; i < m.hidden; i++) box.append(tileEl(null, "", { hidden: true }));
    return box;
  }
  // A promoted kong: the added tile lies turned beside the claimed one.
  const added = m.promoted ? (m.turned + 1 < m.tiles.length ? m.turned + 1 : m.turned - 1) : -1;
  m.tiles.forEach((t, i) => {
    const down = (m.down || []).includes(i);
    const turned = i === m.turned || i === added;
    box.append(tileEl(down ? null : t, turned ? "turned" : ""));
  });
  return box;
}

/** A pond: rows of six in front of its owner (the fourth row takes what is left), a
 * discarded bonus tile in its place among them. */
function pondEl(seat, latest) {
  const box = el("div", "pond-rows");
  const pond = seat.pond || (seat.discards || []).map((t) => ({ tile: t }));
  const rows = [];
  // Four rows of six; a longer pond (a long regular hand) puts more in a row, smaller.
  const per = Math.max(6, Math.ceil(pond.length / 4));
  if (per > 6) box.style.setProperty("--shrink", String(6 / per));
  const rowOf = (i) => {
    const r = Math.min(3, Math.floor(i / per));
    while (rows.length <= r) {
      rows.push(el("div", "pond-row"));
      box.append(rows[rows.length - 1]);
    }
    return rows[r];
  };
  pond.forEach((d, i) => {
    const cls = [d.by ? "taken" : "", d.won ? "won" : "", latest && i === pond.length - 1 ? "latest" : ""];
    const t = tileEl(d.tile, cls.join(" "));
    if (d.by) t.title = `${tileName(d.tile)} — ${T("taken by {}", T(WIND_NAME[d.by]))}`;
    rowOf(i).append(t);
  });
  return box;
}

/** An opponent's strip: concealed tiles (backs unless open), melds at their right, bonus
 * tiles after the melds. Returns the element and its length in tile widths. */
function stripEl(seat) {
  const box = el("div", "strip-tiles");
  let units = 0;
  const hand = el("span", "concealed");
  if (seat.hand) {
    seat.hand.forEach((t) => hand.append(tileEl(t)));
    if (seat.drew) hand.append(tileEl(seat.drew, "drawn"));
    units += seat.hand.length + (seat.drew ? 1.3 : 0);
  } else {
    hand.setAttribute("role", "img");
    hand.setAttribute("aria-label", T("{} hidden tiles", seat.concealed));
    for (let i = 0; i < seat.concealed; i++) hand.append(tileEl(null, "", { hidden: true }));
    units += seat.concealed;
  }
  box.append(hand);
  if (seat.melds.length) {
    const melds = el("span", "melds");
    seat.melds.forEach((m) => {
      melds.append(meldEl(m));
      units += meldUnits(m);
    });
    box.append(melds);
    units += 0.5;
  }
  if ((seat.bonus || []).length) {
    const bonus = el("span", "bonus-tiles");
    seat.bonus.forEach((b) => bonus.append(tileEl(b, "bonus")));
    box.append(bonus);
    units += seat.bonus.length + 0.5;
  }
  return [box, units];
}

/** A name in a corner: its words wrap between them only, never inside one (a word too
 * long for the corner is cut short; the whole name is its title). */
function nameEl(name) {
  const box = wordsEl("tag-name", name);
  return box;
}

function place(e, r) {
  e.style.left = `${r.x - r.w / 2}px`;
  e.style.top = `${r.y - r.h / 2}px`;
  e.style.width = `${r.w}px`;
  e.style.height = `${r.h}px`;
  if (r.rot) e.style.transform = `rotate(${r.rot}deg)`;
}

function box(e, r) {
  e.style.left = `${r.x}px`;
  e.style.top = `${r.y}px`;
  e.style.width = `${r.w}px`;
  e.style.height = `${r.h}px`;
}

/**
 * Renders `board` into `root` for an area of `area.w` × `area.h` pixels, `bottom` (a
 * wind) nearest the viewer. `opts`: `tags[s]` by seat index ({name, score, badge}),
 * `duplicate` (each seat's wall shown), `sort` (a function ordering your tiles), `fresh`
 * (classes for tiles to animate: {discard: true, draw: true}).
 * Returns `{ hand, geo }`: the element holding your concealed tiles (null when they are
 * not shown) and the geometry used.
 */
export function renderBoard(root, board, bottom, area, opts = {}) {
  const me0 = board.seats[WINDS.indexOf(bottom)];
  const mine = {
    tiles: me0.hand ? me0.hand.length : Math.max(0, me0.concealed - (me0.drew ? 1 : 0)),
    drawn: !!me0.drew,
    melds: me0.melds.reduce((n, m) => n + meldUnits(m), 0),
    bonus: (me0.bonus || []).length,
  };
  const geo = layout(area.w, area.h, { ...opts, mine });
  root.replaceChildren();
  const felt = el("div", "felt");
  felt.style.setProperty("--p", `${geo.pond}px`);
  felt.style.setProperty("--h", `${geo.hand}px`);
  felt.style.setProperty("--m", `${Math.max(geo.pond, Math.round(geo.hand * 0.72))}px`);
  felt.style.height = `${geo.th + geo.handH + 6}px`;
  felt.style.width = `${geo.handBox.w}px`;
  // Beside a panel the table keeps to the left; alone it stands in the middle.
  felt.style.margin = geo.wide && !opts.centred ? "0" : "0 auto";
  const table = el("div", "tablebox");
  box(table, { x: geo.tableX, y: 0, w: geo.tw, h: geo.th });
  felt.append(table);
  const b = WINDS.indexOf(bottom);
  const at = (k) => board.seats[(b + k) % 4];
  const last = board.last;
  SIDES.forEach((side, k) => {
    const seat = at(k);
    const i = WINDS.indexOf(seat.wind);
    const pond = el("div", `pond pond-${side}`);
    pond.dataset.wind = seat.wind;
    place(pond, geo.ponds[side]);
    const latest = last && last.seat === seat.wind && last.text === "discards";
    pond.append(pondEl(seat, latest));
    if (latest && opts.fresh && opts.fresh.discard) {
      const t = pond.querySelector(".tile.latest");
      if (t) t.classList.add("fresh");
    }
    table.append(pond);
    if (side !== "bottom") {
      const strip = el("div", `strip strip-${side}`);
      strip.dataset.wind = seat.wind;
      place(strip, geo.strips[side]);
      const [tiles, units] = stripEl(seat);
      strip.style.setProperty("--b", `${stripTile(geo, side, units)}px`);
      strip.append(tiles);
      table.append(strip);
    }
    const tag = el("div", `tag tag-${side}`);
    tag.dataset.wind = seat.wind;
    box(tag, geo.tags[side]);
    if (board.turn === seat.wind) tag.classList.add("to-move");
    const t = (opts.tags && opts.tags[i]) || {};
    const head = el("div", "tag-head");
    head.append(el("span", "wind", WIND_CHAR[seat.wind]));
    if (seat.wind === "E") head.append(el("span", "dealer", T("dealer")));
    tag.append(head);
    tag.append(nameEl(t.name || T(WIND_NAME[seat.wind])));
    const line = el("div", "tag-line");
    if (t.score != null) line.append(el("span", "score", String(t.score)));
    if (opts.duplicate) line.append(el("span", "wall", T("wall {}", seat.wall)));
    tag.append(line);
    if (t.badge) tag.append(el("div", "badge", t.badge));
    tag.setAttribute("aria-label", `${T(WIND_NAME[seat.wind])}: ${t.name || ""}${t.score != null ? `, ${t.score}` : ""}`);
    table.append(tag);
  });
  const centre = el("div", "centre");
  place(centre, geo.centre);
  const round = el("div", "round");
  round.append(el("span", "prevalent", WIND_CHAR[board.prevalent]));
  if (geo.centre.w > 100) round.append(el("span", "", T("{} round", "").trim()));
  centre.append(round);
  if (!opts.duplicate) centre.append(el("div", "left", T("{} tiles left", board.seats[0].wall)));
  if (board.last_tile_point) centre.append(el("div", "last-tile", T("last tile")));
  const compass = el("div", "compass");
  SIDES.forEach((side, k) => {
    const w = at(k).wind;
    const c = el("span", `c-${side}${board.turn === w ? " on" : ""}`, WIND_CHAR[w]);
    compass.append(c);
  });
  centre.append(compass);
  table.append(centre);
  // Your own tiles under the table.
  const me = at(0);
  const handBox = el("div", "handbox");
  box(handBox, geo.handBox);
  felt.append(handBox);
  root.append(felt);
  let hand = null;
  if (me.hand) {
    hand = el("div", "my-hand");
    const tiles = opts.sort ? opts.sort(me.hand) : me.hand;
    tiles.forEach((t, i) => {
      const e = tileEl(t);
      e.dataset.index = i;
      hand.append(e);
    });
    if (me.drew) {
      const e = tileEl(me.drew, `drawn${opts.fresh && opts.fresh.draw ? " fresh-draw" : ""}`);
      e.dataset.index = tiles.length;
      hand.append(e);
    }
    handBox.append(hand);
  } else if (me.concealed) {
    const backs = el("div", "my-hand");
    for (let i = 0; i < me.concealed; i++) backs.append(tileEl(null, "", { hidden: true }));
    handBox.append(backs);
  }
  if (me.melds.length || (me.bonus || []).length) {
    const mine = el("div", "my-melds");
    me.melds.forEach((m) => mine.append(meldEl(m)));
    (me.bonus || []).forEach((x) => mine.append(tileEl(x, "bonus")));
    handBox.append(mine);
  }
  fitNames(root);
  return { hand, geo };
}

/** A name as words that wrap between them only (`.word` spans, see `fitNames`). */
export function wordsEl(cls, name) {
  const box = el("span", cls);
  box.title = name;
  name.split(/\s+/).filter(Boolean).forEach((w, i) => {
    if (i) box.append(" ");
    box.append(el("span", "word", w));
  });
  return box;
}

/** A word of a name wider than its place is set smaller (down to 60 %) before it is cut.
 * `root` must be in the page already. */
export function fitNames(root) {
  for (const w of root.querySelectorAll(".word")) {
    for (let size = 0.9; w.scrollWidth > w.clientWidth + 0.5 && size >= 0.6; size -= 0.1) {
      w.style.fontSize = `${size}em`;
    }
  }
}

/** A move in words, as a player says it ("discard 5 dots", "Pung"). */
export function moveWords(a) {
  const tile = a.tile ? ` ${tileName(a.tile)}` : "";
  switch (a.action) {
    case "discard": return T("discard {}", tileName(a.tile));
    case "hu": return T("Hu");
    case "pass": return T("Pass");
    case "pung": return T("Pung");
    case "kong": return T("Kong");
    case "chow": return T("Chow") + tile;
    case "concealed_kong": return T("Kong (concealed)") + tile;
    case "promoted_kong": return T("Kong (add to pung)") + tile;
    case "bonus": return T("Set the flower aside");
    case "discard_bonus": return T("Discard the flower");
    default: return a.action;
  }
}

/** The side of the table (`bottom`, `right`, `top`, `left`) where `wind` sits. */
export function sideOf(wind, bottom) {
  return SIDES[(WINDS.indexOf(wind) - WINDS.indexOf(bottom) + 4) % 4];
}

/** A win laid out: the hand, its waits, and its fans in English and Chinese. */
export function winEl(w, names) {
  const box = el("div", "win");
  const i = WINDS.indexOf(w.seat);
  const who = names ? names[i] : "";
  box.append(el("h3", "", `${WIND_CHAR[w.seat]} ${who} — ${w.self_drawn ? T("self-drawn") : T("on a discard")}, ${T("{} points", w.value)}`));
  if (w.concealed) {
    const laid = el("div", "laid");
    (w.melds || []).forEach((m) => laid.append(meldEl(m)));
    w.concealed.forEach((t) => laid.append(tileEl(t)));
    laid.append(tileEl(w.win, "winning"));
    box.append(laid);
  } else {
    box.append(el("p", "hand-text", w.hand));
  }
  if (w.waits && w.waits.length) {
    const p = el("p", "waits-line", `${T("Waited on")} `);
    w.waits.forEach((t) => p.append(tileEl(t, "mini")));
    box.append(p);
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
    tr.append(el("td", "", `${WIND_CHAR[w]} ${names ? names[i] : T(WIND_NAME[w])}`), el("td", "num", (points[i] > 0 ? "+" : "") + points[i]));
    t.append(tr);
  });
  return t;
}
