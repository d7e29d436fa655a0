// The quick-match waiting page: says every second that this player still waits, shows
// how many wait and how long until bots fill the seats, and goes to the table once the
// queue has given one.
import { T } from "./tiles.js";

const status = document.getElementById("quick-status");
const waiting = document.getElementById("quick-waiting");
const clock = document.getElementById("quick-clock");

function show(s) {
  waiting.textContent = T("{} waiting, you included", s.waiting);
  clock.textContent = T("waited {} s", s.waited_s);
  status.textContent = s.bots_in_s > 0
    ? T("Looking for players… bots in {} s", s.bots_in_s)
    : T("Seating you with bots…");
}

async function ask() {
  try {
    const r = await fetch("/play/quick/state.json", { cache: "no-store" });
    const s = await r.json();
    if (s.table) {
      status.textContent = T("Your table is ready.");
      location.href = `/play/t/${s.table}`;
      return;
    }
    if (!s.queued) {
      status.textContent = T("You are not in the queue.");
      location.href = "/play/quick";
      return;
    }
    show(s);
  } catch {
    status.textContent = T("The server did not answer; trying again…");
  }
  setTimeout(ask, 1000);
}

ask();
