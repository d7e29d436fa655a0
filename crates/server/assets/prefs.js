// A player's options at the table: kept in the browser, and for a signed-in player on the
// server too (so they follow the player to another device).
import { el } from "./board.js";
import { T } from "./tiles.js";

const KEY = "dupmj-prefs";
const DEFAULTS = { autoHu: false, noCalls: false, autoDiscard: false, sort: "msp", mute: false, hints: false };
let csrf = "";

/** The options: the server's copy (`fromServer`, JSON) over the browser's over defaults. */
export function loadPrefs(fromServer, token) {
  csrf = token || "";
  let local = {};
  try { local = JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { local = {}; }
  if (localStorage.getItem("dupmj-hints") === "1") local.hints = true;
  let server = {};
  try { server = JSON.parse(fromServer || "{}") || {}; } catch { server = {}; }
  return { ...DEFAULTS, ...local, ...server };
}

/** Keeps the options here and, signed in, on the server. */
export function savePrefs(p) {
  localStorage.setItem(KEY, JSON.stringify(p));
  if (!csrf) return;
  const body = new URLSearchParams({ csrf, prefs: JSON.stringify(p) });
  fetch("/play/prefs", { method: "POST", body }).catch(() => {});
}

// Tile order by suit: characters (m), bamboo (s), dots (p); honours after or first.
const ORDERS = {
  msp: ["m", "s", "p", "h"],
  mps: ["m", "p", "s", "h"],
  hmsp: ["h", "m", "s", "p"],
};
const HONOUR_ORDER = "ESWNCFP";

/** A function sorting a hand's tile codes in the order `name`. */
export function sorter(name) {
  const order = ORDERS[name] || ORDERS.msp;
  const key = (t) => {
    const suit = /^[1-9][msp]$/.test(t) ? t[1] : "h";
    const within = suit === "h" ? HONOUR_ORDER.indexOf(t) : Number(t[0]);
    return order.indexOf(suit) * 10 + within;
  };
  return (tiles) => [...tiles].sort((a, b) => key(a) - key(b));
}

/** The hints option at a rated table: off, and why. */
function hintsOff() {
  const l = el("label", "opt off");
  l.id = "hints-off";
  const c = document.createElement("input");
  c.type = "checkbox";
  c.name = "hints";
  c.disabled = true;
  l.append(c, document.createTextNode(` ${T("hints")} — ${T("off at a rated table: its result is compared and rated, so it is your own play. Open a practice table for hints.")}`));
  return l;
}

/** The options box; `change` gets the new options. `hintsAllowed`: the table is a
 * practice table (at a rated table the server refuses hints, and the box says why). */
export function optionsEl(p, change, hintsAllowed) {
  const box = el("details", "options");
  box.id = "options";
  box.open = localStorage.getItem("dupmj-options-open") === "1";
  box.addEventListener("toggle", () => localStorage.setItem("dupmj-options-open", box.open ? "1" : "0"));
  box.append(el("summary", "", T("Options")));
  const check = (name, text) => {
    const l = el("label", "opt");
    const c = document.createElement("input");
    c.type = "checkbox";
    c.name = name;
    c.checked = !!p[name];
    c.addEventListener("change", () => change({ ...p, [name]: c.checked }));
    l.append(c, document.createTextNode(` ${text}`));
    return l;
  };
  box.append(
    check("autoHu", T("Hu by itself when I may")),
    check("noCalls", T("No calls: pass every chow, pung and kong")),
    check("autoDiscard", T("Discard the drawn tile by itself")),
    hintsAllowed ? check("hints", T("hints")) : hintsOff(),
    check("mute", T("Mute sounds")),
  );
  const l = el("label", "opt");
  const s = document.createElement("select");
  s.name = "sort";
  for (const [v, text] of [["msp", T("characters, bamboo, dots, honours")], ["mps", T("characters, dots, bamboo, honours")], ["hmsp", T("honours first")]]) {
    const o = el("option", "", text);
    o.value = v;
    o.selected = p.sort === v;
    s.append(o);
  }
  s.addEventListener("change", () => change({ ...p, sort: s.value }));
  l.append(document.createTextNode(`${T("Tile order")} `), s);
  box.append(l);
  return box;
}
