// The panels read off a table's state that need nothing of the live page: the hints box
// and the table's score sheet at its end.
import { el, wordsEl, WIND_CHAR } from "./board.js";
import { tileEl, T } from "./tiles.js";

/** The hints box: shanten, the discards that keep the most live tiles, and the waits with
 * their values once ready. */
export function hintsEl(h) {
  const box = el("div", "hints");
  box.id = "hints";
  if (!h) return box;
  box.append(el("p", "", h.shanten === 0 ? T("Ready (tenpai)") : h.shanten < 0 ? T("Complete") : T("Shanten: {}", h.shanten)));
  const waitsEl = (list) => {
    const t = el("table", "waits");
    const head = el("tr");
    // A wait's value won self-drawn and won on a discard (点和).
    head.append(el("th", "", T("wait")), el("th", "", T("live")), el("th", "", T("self-drawn")), el("th", "", T("on a discard")));
    t.append(head);
    for (const w of list) {
      const tr = el("tr");
      const td = el("td");
      td.append(tileEl(w.tile, "mini"));
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
    // The tile to discard (打出).
    head.append(el("th", "", T("to discard")), el("th", "", T("shanten")), el("th", "", T("live tiles")));
    t.append(head);
    for (const d of h.discards) {
      const tr = el("tr");
      const td = el("td");
      td.append(tileEl(d.discard, "mini"));
      tr.append(td, el("td", "num", String(d.shanten)), el("td", "num", String(d.live)));
      t.append(tr);
    }
    box.append(t);
    const ready = h.discards.find((d) => d.waits && d.waits.length);
    if (ready) {
      const p = el("p", "", T("After discarding") + " ");
      p.append(tileEl(ready.discard, "mini"), document.createTextNode(":"));
      box.append(p, waitsEl(ready.waits));
    }
  }
  if (h.waits && h.waits.length) box.append(waitsEl(h.waits));
  return box;
}

/** The table's score sheet: each hand's points by place (with the seat held), totals. */
export function finalEl(state, placeName) {
  const box = el("section", "final");
  box.id = "final";
  box.append(el("h2", "", T("Table over")));
  const sheet = state.final.sheet || [];
  const t = el("table", "sheet");
  const head = el("tr");
  head.append(el("th", "", T("hand")));
  state.places.forEach((p, i) => {
    const first = sheet.length ? sheet[0].seats[i] : p.seat;
    const th = el("th");
    // A long name is cut short in the column (whole on hover): the sheet fits its panel.
    th.append(el("span", "sheet-wind", WIND_CHAR[first]), wordsEl("sheet-name", placeName(p)));
    head.append(th);
  });
  t.append(head);
  for (const row of sheet) {
    const tr = el("tr");
    const [text, args] = row.label;
    // The hand's number in the column, its whole label on hover.
    const label = el("td", "", String(row.hand));
    label.title = T(text, ...args.map((x) => T(x)));
    tr.append(label);
    row.points.forEach((pts, i) => {
      const td = el("td", "num");
      td.append(el("span", "sheet-seat", WIND_CHAR[row.seats[i]]), document.createTextNode(`${pts > 0 ? "+" : ""}${pts}`));
      tr.append(td);
    });
    t.append(tr);
  }
  const total = el("tr", "total");
  total.append(el("td", "", T("total")));
  state.final.scores.forEach((s) => total.append(el("td", "num", String(s))));
  t.append(total);
  if (state.final.table_points) {
    const tp = el("tr", "table-points");
    tp.append(el("td", "", T("table points")));
    state.final.table_points.forEach((x) => tp.append(el("td", "num", String(x))));
    t.append(tp);
  }
  box.append(t);
  return box;
}
