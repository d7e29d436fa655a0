// The replay viewer: steps through a finished hand, from one seat's eyes or with all hands
// open. Every step is asked of the server, which rebuilds the hand to that point. Beside
// it, the hand's review and field (review.js); `#m17` in the address opens at move 17.
import { renderBoard, winEl, pointsEl, moveWords, el, WIND_NAME } from "./board.js";
import { T } from "./tiles.js";
import { loadAnalysis, makePanel } from "./review.js";

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
let panel = null; // the review, once loaded

let target = 0; // the step last asked for
async function show(n) {
  target = n;
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
  const { hand: tiles } = renderBoard(boardBox, s.board, bottom, area, { tags, duplicate: true, centred: true });
  // The expert's choice on the tiles, where it differs from the move about to be made.
  const seen = view.value === "all" ? bottom : view.value;
  const better = panel && panel.expertAt(seen, at + 1);
  if (better && tiles && better.best.tile) {
    const pick = [...tiles.querySelectorAll(".tile")].reverse().find((t) => t.dataset.tile === better.best.tile);
    if (pick) {
      pick.classList.add("expert-pick");
      pick.title = T("The expert plays {}", moveWords(better.best));
    }
  }
  if (panel) panel.update(at, seen);
  if (s.next) {
    const what = s.next.move ? moveWords(s.next.move) : s.next.action;
    // Numbered as the review numbers its decisions.
    boardBox.append(el("p", "next-move", `${T("Next: {} {}", T(WIND_NAME[s.next.seat]), what)} ${T("(move {})", at + 1)}`));
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
// A new window size draws the board anew (a phone turned on its side).
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => show(at), 150);
});
const opening = Number((location.hash.match(/^#m(\d+)$/) || [])[1] || 1) - 1;
loadAnalysis(table, hand).then(async (a) => {
  panel = makePanel(document.getElementById("analysis"), a, (n) => show(n));
  // From a results list's "field" link: open where a better result first parted.
  const parted = location.hash === "#field" ? panel.firstParting() : null;
  await show(parted ? parted - 1 : target);
  if (location.hash === "#field") document.getElementById("field")?.scrollIntoView();
});
show(Math.max(0, opening));
