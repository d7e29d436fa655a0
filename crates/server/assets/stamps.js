// Stamps at the table: a fixed set of short messages (no free text), sent with a button
// and shown for a moment beside the sender's seat. Each player may mute anyone's stamps;
// the names muted are kept in this browser.
import { el } from "./board.js";
import { T } from "./tiles.js";

/** The set, as the server knows it (`play::room::stamps::STAMPS`): id and words. */
export const STAMPS = [
  ["hello", "Hello"],
  ["gg", "Good game"],
  ["nice", "Nice hand"],
  ["sorry", "Sorry"],
  ["thinking", "Thinking…"],
  ["thanks", "Thanks"],
];
const SHOWN_MS = 4000;
const KEY = "dupmj.mutedStamps";

let seen = null; // the stamps' numbers already shown (null: no state yet)
let bubbles = [];

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(KEY) || "[]")); } catch { return new Set(); }
}
function setMutedName(name, on) {
  const m = muted();
  if (on) m.add(name); else m.delete(name);
  try { localStorage.setItem(KEY, JSON.stringify([...m])); } catch { /* private window */ }
}

/** Takes note of a state's stamps: those new since the last state become bubbles (the
 * ones already there when the page connected are not shown again). */
export function noteStamps(state) {
  const list = state.stamps || [];
  if (seen === null) {
    seen = new Set(list.map((s) => s.n));
    return;
  }
  for (const s of list) {
    if (seen.has(s.n)) continue;
    seen.add(s.n);
    const p = state.places[s.place];
    if (!p) continue;
    bubbles.push({ wind: p.seat, name: p.name, words: (STAMPS.find(([id]) => id === s.stamp) || [s.stamp, s.stamp])[1], at: performance.now() });
  }
}

/** Puts the bubbles still showing beside their seats' name tags. */
export function drawStamps(root) {
  const now = performance.now();
  bubbles = bubbles.filter((b) => now - b.at < SHOWN_MS);
  const m = muted();
  for (const b of bubbles.filter((x) => !m.has(x.name))) {
    const tag = root.querySelector(`.tag[data-wind="${b.wind}"]`);
    if (!tag) continue;
    const e = el("div", "stamp-bubble", T(b.words));
    e.style.animationDelay = `${-(now - b.at)}ms`;
    tag.append(e);
  }
  return bubbles.length > 0;
}

/** The stamp buttons and, for each other person at the table, a mute switch. */
export function stampsEl(state, send, redraw) {
  const box = el("details", "stamps");
  box.id = "stamps";
  box.open = true;
  box.append(el("summary", "", T("Stamps")));
  const row = el("div", "stamp-row");
  for (const [id, words] of STAMPS) {
    const b = el("button", "stamp", T(words));
    b.type = "button";
    b.dataset.stamp = id;
    b.addEventListener("click", () => send({ type: "stamp", stamp: id }));
    row.append(b);
  }
  box.append(row);
  const others = state.places.filter((p, i) => i !== state.you && !p.bot && !p.open);
  if (others.length) {
    const mutes = el("p", "small stamp-mutes", T("Mute stamps from:") + " ");
    const m = muted();
    for (const p of others) {
      const label = el("label", "");
      const box2 = el("input");
      box2.type = "checkbox";
      box2.checked = m.has(p.name);
      box2.addEventListener("change", () => { setMutedName(p.name, box2.checked); redraw(); });
      label.append(box2, " ", p.name);
      mutes.append(label, " ");
    }
    box.append(mutes);
  }
  return box;
}
