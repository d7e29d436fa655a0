// The replay viewer: steps through a finished hand, from one seat's eyes or with all hands
// open. Every step is asked of the server, which rebuilds the hand to that point.
import { renderBoard, winEl, pointsEl, el } from "./board.js";
import { T } from "./tiles.js";

const root = document.getElementById("replay");
const table = root.dataset.table;
const hand = root.dataset.hand;
const view = document.getElementById("view");
const boardBox = document.getElementById("board");
const pos = document.getElementById("pos");
let at = 0;
let total = 0;

async function show(n) {
  const r = await fetch(`/play/t/${table}/hands/${hand}/step?view=${view.value}&at=${Math.max(0, n)}`);
  const s = await r.json();
  at = s.at;
  total = s.total;
  pos.textContent = `${at} / ${total}`;
  const bottom = view.value === "all" ? "E" : view.value;
  const tags = s.names.map((n) => ({ name: n.replace(/^bot \((\w+)\)$/, (_, l) => T("bot ({})", T(l))) }));
  // The board fills the window's width, as high as the window leaves room for.
  const top = boardBox.getBoundingClientRect().top + window.scrollY;
  const area = { w: boardBox.clientWidth, h: Math.max(360, document.documentElement.clientHeight - top - 8) };
  renderBoard(boardBox, s.board, bottom, area, { tags, duplicate: true, centred: true });
  if (s.next) {
    boardBox.append(el("p", "next-move", T("Next: {} {}", s.next.seat, s.next.action)));
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
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") show(at - 1);
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "Home") show(0);
  if (e.key === "End") show(total);
});
show(0);
