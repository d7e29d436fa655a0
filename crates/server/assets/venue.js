// The table's page at the venue, made to survive bad Wi-Fi: every sitting's form is on the
// page, so a phone enters results with no network at all. An entry is kept on the phone
// first (localStorage, under a key of its own) and then sent; it stays listed as "saved on
// this phone, not yet sent" until the server has recorded it, and a send that lost its
// answer is sent again under the same key, which the server records once.
import { T } from "./tiles.js";

const root = document.getElementById("queue");
const event = root.dataset.event;
const table = root.dataset.table;
const csrf = root.dataset.csrf;
const list = document.getElementById("sittings");
const line = document.getElementById("queue-line");
const STORE = `dupmj-entries-${event}-${table}`;
const RETRY_MS = [2000, 4000, 8000, 15000];

// { entries: [{key, sitting, version, fields, state, why, described}], versions: {sitting: n} }
let kept = load();
let sending = false;
let inFlight = null; // the key of the entry on its way, which a newer one must not drop
let failures = 0;
let timer = null;

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "null");
    if (v && Array.isArray(v.entries)) return { versions: {}, ...v };
  } catch {
    // A damaged copy is worse than none only if it hides entries: none can be read here.
  }
  return { entries: [], versions: {} };
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(kept));
}

// A key no other entry of any phone will have (crypto.randomUUID needs HTTPS; this does not).
function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const sectionOf = (sitting) => root.querySelector(`section[data-sitting="${CSS.escape(sitting)}"]`);
const rowOf = (sitting) => list.querySelector(`tr[data-sitting="${CSS.escape(sitting)}"]`);
const url = (sitting, what) => `/events/${event}/table/${table}/deal/${sitting}/${what}`;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// --- The list and the line above it --------------------------------------------------

function stateText(entry) {
  switch (entry.state) {
    case "waiting": return T("Saved on this phone, not yet sent");
    case "recorded": return T("Recorded (version {})", entry.version);
    case "conflict": return T("Conflict: another phone saved a different result first; this one is kept aside for the director.");
    default: return T("Refused: {}", entry.why);
  }
}

const CLASS = { waiting: "warn", recorded: "ok", conflict: "err", refused: "err" };

// A column for what this phone holds, which only the script knows.
list.querySelector("tr").append(el("th", {}, T("this phone")));
for (const row of list.querySelectorAll("tr[data-sitting]")) row.append(el("td", { class: "phone" }));

function show() {
  for (const row of list.querySelectorAll("tr[data-sitting]")) {
    const last = kept.entries.filter((e) => e.sitting === row.dataset.sitting).at(-1);
    const cell = row.querySelector("td.phone");
    if (!last) {
      cell.className = "phone";
      cell.textContent = "";
      continue;
    }
    cell.className = `phone ${CLASS[last.state]}`;
    cell.textContent = stateText(last);
  }
  const waiting = kept.entries.filter((e) => e.state === "waiting").length;
  const refused = kept.entries.filter((e) => e.state === "refused" || e.state === "conflict").length;
  line.hidden = kept.entries.length === 0;
  if (waiting > 0) {
    line.className = "warn";
    line.textContent = waiting === 1
      ? T("One entry saved on this phone, not yet sent: it goes as soon as the network is back. Keep this page open.")
      : T("{} entries saved on this phone, not yet sent: they go as soon as the network is back. Keep this page open.", waiting);
  } else if (refused > 0) {
    line.className = "err";
    line.textContent = refused === 1
      ? T("One entry not recorded: open its deal to see why.")
      : T("{} entries not recorded: open their deal to see why.", refused);
  } else {
    line.className = "ok";
    line.textContent = T("Every entry of this phone is recorded.");
  }
  line.dataset.waiting = String(waiting);
}

// --- Sending ---------------------------------------------------------------------------

function retryLater() {
  clearTimeout(timer);
  const ms = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
  failures += 1;
  timer = setTimeout(pump, ms);
}

// Sends the waiting entries one at a time, oldest first; stops at the first that cannot
// reach the server and tries again later.
async function pump() {
  if (sending) return;
  sending = true;
  try {
    for (;;) {
      const entry = kept.entries.find((e) => e.state === "waiting");
      if (!entry) break;
      const body = new URLSearchParams(entry.fields);
      body.set("csrf", csrf);
      body.set("key", entry.key);
      // A change made on top of this phone's own recorded entry is made on its version.
      body.set("version", String(Math.max(entry.version, kept.versions[entry.sitting] || 0)));
      let r;
      let answer;
      inFlight = entry.key;
      try {
        r = await fetch(url(entry.sitting, "send.json"), { method: "POST", body, cache: "no-store" });
        answer = await r.json();
      } catch {
        retryLater();
        return;
      } finally {
        inFlight = null;
      }
      if (r.ok) {
        entry.state = "recorded";
        entry.version = answer.version;
        entry.described = answer.described;
        kept.versions[entry.sitting] = answer.version;
        rowOf(entry.sitting).querySelector("td.done").textContent = answer.described;
        sectionOf(entry.sitting).querySelector("input[name=version]").value = answer.version;
      } else if (r.status === 409) {
        entry.state = "conflict";
      } else if (r.status >= 500 || r.status === 429 || r.status === 408) {
        retryLater();
        return;
      } else {
        entry.state = "refused";
        entry.why = answer.error || String(r.status);
      }
      failures = 0;
      save();
      show();
    }
    refresh();
  } finally {
    sending = false;
  }
}

// The server's results of this table, for what other phones entered.
async function refresh() {
  try {
    const r = await fetch(`/events/${event}/table/${table}/results.json`, { cache: "no-store" });
    if (!r.ok) return;
    const held = await r.json();
    for (const row of list.querySelectorAll("tr[data-sitting]")) {
      const text = held[row.dataset.sitting];
      if (text) row.querySelector("td.done").textContent = text;
    }
  } catch {
    // No network: the column keeps what it showed.
  }
}

// Keeps an entry on the phone in place of the sitting's earlier ones, except one on its
// way (it may have been recorded: the new one is sent after it, on its version).
function keep(sitting, fields, version) {
  kept.entries = kept.entries.filter((e) => e.sitting !== sitting || e.key === inFlight);
  kept.entries.push({ key: newKey(), sitting, version, fields, state: "waiting" });
  save();
  show();
  failures = 0;
  pump();
}

// --- One sitting's form ------------------------------------------------------------------

function open(sitting) {
  for (const s of root.querySelectorAll("section.sitting")) s.hidden = s.dataset.sitting !== sitting;
  list.hidden = true;
  const s = sectionOf(sitting);
  s.querySelector("form").hidden = false;
  s.querySelector(".check").replaceChildren();
  const last = kept.entries.filter((e) => e.sitting === sitting).at(-1);
  if (last) s.querySelector(".check").append(el("p", { class: CLASS[last.state] }, stateText(last)));
  window.scrollTo(0, 0);
}

function close() {
  for (const s of root.querySelectorAll("section.sitting")) s.hidden = true;
  list.hidden = false;
}

function pointsTable(seats) {
  const head = el("tr", {}, el("th", {}, T("seat")), el("th", {}, T("player")), el("th", {}, T("match points")));
  const rows = seats.map((s) => el("tr", {}, el("td", {}, s.seat), el("td", {}, s.name), el("td", {}, String(s.points))));
  return el("table", { class: "points" }, head, ...rows);
}

// "Check": the server's reading when it answers; without a network, the entry may still be
// kept, and the server checks it when it is sent.
async function check(section, form) {
  const sitting = section.dataset.sitting;
  const fields = [...new FormData(form)].filter(([k]) => k !== "csrf" && k !== "step" && k !== "version");
  const version = Number(form.querySelector("input[name=version]").value) || 0;
  const box = section.querySelector(".check");
  const body = new URLSearchParams(fields);
  body.set("csrf", csrf);
  let shown;
  try {
    const r = await fetch(url(sitting, "check.json"), { method: "POST", body, cache: "no-store" });
    const answer = await r.json();
    if (!r.ok && r.status < 500) {
      box.replaceChildren(el("p", { class: "err" }, answer.error || String(r.status)));
      return;
    }
    shown = r.ok ? [el("p", {}, answer.described), pointsTable(answer.seats)] : null;
  } catch {
    shown = null;
  }
  shown ??= [el("p", { class: "warn" }, T("No network now: the server checks this entry when it is sent."))];
  const saveButton = el("button", { type: "button", class: "save" }, T("Save"));
  const change = el("button", { type: "button", class: "change" }, T("Change"));
  saveButton.addEventListener("click", () => {
    keep(sitting, fields, version);
    close();
  });
  change.addEventListener("click", () => {
    form.hidden = false;
    box.replaceChildren();
  });
  form.hidden = true;
  box.replaceChildren(...shown, el("p", {}, saveButton, " ", change));
}

for (const section of root.querySelectorAll("section.sitting")) {
  const form = section.querySelector("form");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    check(section, form);
  });
  section.querySelector("a.back").addEventListener("click", (ev) => {
    ev.preventDefault();
    close();
  });
}
for (const a of list.querySelectorAll("tr[data-sitting] a")) {
  a.addEventListener("click", (ev) => {
    ev.preventDefault();
    open(a.closest("tr").dataset.sitting);
  });
}
window.addEventListener("online", () => {
  failures = 0;
  pump();
});
// Another tab of this phone may have kept entries too.
window.addEventListener("storage", (ev) => {
  if (ev.key === STORE) {
    kept = load();
    show();
  }
});
show();
pump();
setInterval(() => { if (!sending) refresh(); }, 30000);
