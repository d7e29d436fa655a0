// Panels of the live table that need only what they are given: what to do at the end of a
// hand or of the table, the other hands at the end of a hand, the shortcuts' list, and the
// footer's deal set key once the table is over.
import { el, meldEl, WINDS, WIND_CHAR } from "./board.js";
import { tileEl, T } from "./tiles.js";

/** What to do now that a hand or the table is over, first in the panel (`docked` at the
 * foot of the screen on a phone held upright): `next`, the page's "Next hand" button when
 * it is yours to press; at the table's end (`final`), play again from `place`, or by
 * `then` a challenge's next deal and the deal's results, or the event; and the lobby. */
export function actionsEl({ docked, next, final, then, csrf, tableId, place }) {
  const box = el("div", "actions");
  box.id = "actions";
  if (docked) box.classList.add("dock");
  if (next) box.append(next);
  if (final) {
    const post = (action, fields, label, id) => {
      const f = el("form", "inline");
      f.method = "post";
      f.action = action;
      for (const [k, v] of Object.entries({ csrf, ...fields })) {
        const i = el("input");
        i.type = "hidden";
        i.name = k;
        i.value = v;
        f.append(i);
      }
      const b = el("button", "go", label);
      b.id = id;
      f.append(b);
      return f;
    };
    const link = (href, label, id) => {
      const a = el("a", "", label);
      a.href = href;
      a.id = id;
      return a;
    };
    if (then.challenge) {
      if (then.next) box.append(post(`/play/c/${then.challenge}/play`, { deal: then.next }, T("Next deal ({})", then.next), "next-deal"));
      box.append(link(`/play/c/${then.challenge}/deal/${then.deal}`, T("Results of deal {}", then.deal), "deal-results"));
      box.append(link(`/play/c/${then.challenge}`, T("The challenge"), "challenge-page"));
    } else if (then.event) {
      box.append(link(`/play/e/${then.event}`, T("back to the event"), "event-page"));
    } else if (then.again && place != null) {
      box.append(post(`/play/t/${tableId}/again`, { place }, T("Play again"), "play-again"));
    }
    box.append(link("/play", T("Lobby"), "to-lobby"));
  }
  return box.childElementCount ? box : null;
}

/** The other hands as they ended, at a size read on a phone too (the winners' are laid
 * out above with their fans). Only when the hand is open to you. */
export function handsEl(b, r, names) {
  if (!b) return null;
  const winners = new Set(r.wins.map((w) => w.seat));
  const rows = WINDS.map((w, i) => [w, i, b.seats[i]]).filter(([w, , s]) => s.hand && !winners.has(w));
  if (!rows.length) return null;
  const box = el("div", "end-hands");
  box.id = "end-hands";
  box.append(el("h3", "", T("The other hands")));
  for (const [w, i, s] of rows) {
    const row = el("div", "end-hand");
    row.dataset.wind = w;
    row.append(el("div", "end-who", `${WIND_CHAR[w]} ${names[i]}`));
    const tiles = el("div", "laid");
    s.melds.forEach((m) => tiles.append(meldEl(m)));
    s.hand.forEach((t) => tiles.append(tileEl(t)));
    row.append(tiles);
    box.append(row);
  }
  return box;
}

/** The keyboard shortcuts' list; `close` closes it. */
export function helpEl(close) {
  const box = el("section", "help");
  box.id = "shortcuts";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", T("Keyboard shortcuts"));
  box.append(el("h2", "", T("Keyboard shortcuts")));
  const t = el("table", "keys");
  for (const [k, what] of [
    ["← →", T("choose a tile of your hand")],
    ["Enter", T("discard the chosen tile")],
    ["d", T("discard the tile just drawn")],
    ["h", T("Hu")],
    ["p", T("Pung")],
    ["k", T("Kong")],
    ["c", T("Chow (then 1, 2 or 3 when there are several)")],
    ["f", T("Set the flower aside")],
    [T("space"), T("Pass")],
    ["n", T("Next hand")],
    ["?", T("this list")],
    ["Esc", T("close")],
  ]) {
    const tr = el("tr");
    const kbd = el("td");
    kbd.append(el("kbd", "", k));
    tr.append(kbd, el("td", "", what));
    t.append(tr);
  }
  const shut = el("button", "", T("close"));
  shut.id = "help-close";
  shut.addEventListener("click", close);
  box.append(t, shut);
  return box;
}

/** Once the table is over its deal set's key is out: the footer says so, with the link,
 * without a reload. */
export async function showKey(tableId, commitment) {
  const p = document.getElementById("deal-set");
  if (!p || !commitment) return;
  for (let i = 0; i < 10; i++) {
    const r = await fetch(`/play/t/${tableId}/set.json`, { method: "HEAD" });
    if (r.ok) break;
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const code = (text) => el("code", "", text);
  const a = el("a", "", "set.json");
  a.href = `/play/t/${tableId}/set.json`;
  a.id = "set-link";
  p.replaceChildren(
    `${T("This table's deals are a secret set, committed to before play:")} `, code(commitment), ". ",
    `${T("Released now that the table is over:")} `, a,
    ` (${T("check it with")} `, code(`dupmj verify set.json --commitment ${commitment}`), ").",
  );
}
