// The replay viewer: steps through a finished hand, from one seat's eyes or with all hands
// open. Every step is asked of the server, which rebuilds the hand to that point.
import { renderBoard, winEl, pointsEl, moveWords, el, WIND_NAME } from "./board.js";
import { T } from "./tiles.js";

const root = document.getElementById("replay");
const table = root.dataset.table;
const hand = root.dataset.hand;
const view = document.getElementById("view");
const boardBox = document.getElementById("board");
const pos = document.getElementById("pos");
const slider = document.getElementById("slider");
const goto = document.getElementById("goto");
let at = 0;
let total = 0;
let asked = 0; // the latest step asked for: answers to earlier ones are dropped

async function show(n) {
  const mine = ++asked;
  const r = await fetch(`/play/t/${table}/hands/${hand}/step?view=${view.value}&at=${Math.max(0, n)}`);
  const s = await r.json();
  if (mine !== asked) return;
  at = s.at;
  total = s.total;
  pos.textContent = `${at} / ${total}`;
  slider.max = String(total);
  slider.value = String(at);
  goto.max = String(total);
  if (document.activeElement !== goto) goto.value = String(at);
  root.dataset.at = String(at);
  // All hands open: still from the seat the viewer held, if any.
  const bottom = view.value === "all" ? root.dataset.seat || "E" : view.value;
  const tags = s.names.map((n) => ({ name: n.replace(/^bot \((\w+)\)$/, (_, l) => T("bot ({})", T(l))) }));
  // The board fills the window's width, as high as the window leaves room for.
  const top = boardBox.getBoundingClientRect().top + window.scrollY;
  const area = { w: boardBox.clientWidth, h: Math.max(360, document.documentElement.clientHeight - top - 8) };
  renderBoard(boardBox, s.board, bottom, area, { tags, duplicate: true, centred: true });
  if (s.next) {
    const what = s.next.move ? moveWords(s.next.move) : s.next.action;
    boardBox.append(el("p", "next-move", T("Next: {} {}", T(WIND_NAME[s.next.seat]), what)));
  }
  if (s.result) {
    const box = el("section", "result");
    s.result.wins.forEach((w) => box.append(winEl(w, s.names)));
    box.append(pointsEl(s.result.points, s.names));
    boardBox.append(box);
  }
}

document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(total);
view.onchange = () => show(at);
slider.oninput = () => show(Number(slider.value));
goto.onchange = () => show(Number(goto.value));
document.addEventListener("keydown", (e) => {
  // Keys go to the slider, the move box or the view's list while they have the focus.
  if (["INPUT", "SELECT"].includes(e.target.tagName)) return;
  if (e.key === "ArrowLeft") show(at - 1);
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "Home") show(0);
  if (e.key === "End") show(total);
});
show(0);
