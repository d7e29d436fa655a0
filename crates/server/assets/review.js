// The review beside the replay: the expert's view of each decision (candidates as bars,
// the cost of the move played), the hand's mistakes by cost, and the field — what everyone
// else who held these tiles did at the same point. Decisions are named by their move
// number in the hand's log, the same number the replay's counter shows.
import { moveWords, el } from "./board.js";
import { T } from "./tiles.js";

const SIGNED = (x, digits = 1) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(digits)}`;

/** The review and the field of a hand, as the server shows them to this viewer. */
export async function loadAnalysis(table, hand) {
  const base = `/play/t/${table}/hands/${hand}`;
  const [r, f] = await Promise.all([fetch(`${base}/review.json`), fetch(`${base}/field.json`)]);
  const review = r.ok ? await r.json() : { state: "none" };
  let field = null;
  if (f.status === 200 || f.status === 403) field = await f.json();
  return { review, field };
}

/** The moves worth a look, costliest first. */
function mistakes(seat) {
  return seat.review.decisions_weighed
    .filter((w) => w.cost > 0.05)
    .sort((a, b) => b.cost - a.cost)
    .slice(0, 10);
}

function sameMove(a, b) {
  return a.action === b.action && (a.tile || null) === (b.tile || null);
}

// Lower bounds of |DIF| for 1, 2, … 20 IMP (rules §5).
const BRACKETS = [2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296];

/** The IMP a result of `ms` would score among the other holders' `others` (rules §5: the
 * difference from the average of all, itself included). */
export function impAmong(ms, others) {
  const avg = (others.reduce((a, b) => a + b, 0) + ms) / (others.length + 1);
  const d = ms - avg;
  return Math.sign(d) * BRACKETS.filter((b) => Math.abs(d) >= b).length;
}

/** The candidates of one decision as bars: longer is better, the best and the move played
 * marked; with a field (`others`: the other holders' match points), the IMP each move's
 * expected result would score against it. */
function candidatesEl(w, others) {
  const box = el("div", "candidates");
  const pts = w.candidates.map((c) => c.points);
  const lo = Math.min(...pts);
  const hi = Math.max(...pts);
  const order = [...w.candidates].sort((a, b) => b.points - a.points);
  for (const c of order) {
    const row = el("div", "cand");
    if (sameMove(c.action, w.best)) row.classList.add("best");
    if (sameMove(c.action, w.played)) row.classList.add("played");
    row.append(el("span", "cand-move", moveWords(c.action)));
    const bar = el("span", "cand-bar");
    const fill = el("span", "cand-fill");
    fill.style.width = `${hi > lo ? 12 + (88 * (c.points - lo)) / (hi - lo) : 100}%`;
    bar.append(fill);
    row.append(bar);
    row.append(el("span", "cand-value", SIGNED(c.points)));
    if (others) {
      const imp = el("span", "cand-imp", `${SIGNED(impAmong(c.points, others), 0)} IMP`);
      imp.title = T("The IMP an expected result of {} would score against this deal's other holders", SIGNED(c.points));
      row.append(imp);
    }
    // The error is that of the difference from the move played, on the same worlds.
    if (!sameMove(c.action, w.played)) row.title = T("{} against the move played: ± {}", SIGNED(c.points - pts[0]), c.error.toFixed(1));
    box.append(row);
  }
  return box;
}

/** The panel: `root` is emptied and filled; `jump(at)` moves the replay to a step. */
export function makePanel(root, analysis, jump) {
  const { review, field } = analysis;
  const seatOf = (w) => (review.seats || []).find((s) => s.seat === w);

  function summary(w) {
    const box = el("section", "rv-summary");
    box.append(el("h2", "", T("Review by the expert")));
    if (review.state === "queued") box.append(el("p", "muted", T("The review is being made: it will be here in a minute or two.")));
    else if (review.state === "failed") box.append(el("p", "muted", T("This hand could not be reviewed: {}", review.reason)));
    else if (review.state === "none") box.append(el("p", "muted", T("Nobody reviews hands without a person at them.")));
    else if (!seatOf(w)) box.append(el("p", "muted", T("No review of this seat: nobody shown here played it as a person.")));
    else {
      const s = seatOf(w);
      const r = s.review;
      box.append(el("p", "rv-figures", T("Agreement {}% over {} decisions; estimated cost {} points.", Math.round(100 * s.agreement), r.decisions_weighed.length, r.expected_loss.toFixed(1))));
      if (r.set_aside.length) box.append(el("p", "muted", T("Moves a stand-in chose are not reviewed: {}", r.set_aside.join(", "))));
    }
    return box;
  }

  function decision(w, move) {
    const s = seatOf(w);
    if (!s) return null;
    const box = el("section", "rv-decision");
    box.append(el("h3", "", T("Move {}", move)));
    if (s.review.set_aside.includes(move)) {
      box.append(el("p", "muted", T("A stand-in chose this move: it is not yours.")));
      return box;
    }
    const d = s.review.decisions_weighed.find((x) => x.index === move);
    if (!d) {
      box.append(el("p", "muted", T("No choice of this seat here.")));
      return box;
    }
    // Against the field, where the deal has one and it is open to the viewer.
    const others = field && field.state === "open" && field.seat === w && field.holders.length > 1
      ? field.holders.filter((h) => !h.me).map((h) => h.ms)
      : null;
    box.append(candidatesEl(d, others));
    const line = sameMove(d.played, d.best)
      ? T("You played the expert's move.")
      : T("The expert plays {}: the move played costs {} ± {} points ({} worlds).", moveWords(d.best), d.cost.toFixed(2), d.error.toFixed(2), d.worlds);
    box.append(el("p", sameMove(d.played, d.best) ? "rv-good" : "rv-cost", line));
    const above = d.candidates.some((c) => c.points > d.candidates[0].points);
    if (sameMove(d.played, d.best) && above) box.append(el("p", "muted", T("Moves shown above yours did better in these worlds, but not clearly: within the sampling's error.")));
    return box;
  }

  function mistakeList(w) {
    const s = seatOf(w);
    if (!s) return null;
    const box = el("section", "rv-mistakes");
    box.append(el("h3", "", T("Mistakes by cost")));
    const list = mistakes(s);
    if (!list.length) box.append(el("p", "muted", T("None: every move was the expert's or as good.")));
    const ol = el("ol");
    for (const m of list) {
      const b = el("button", "link", `${T("Move {}", m.index)}: ${moveWords(m.played)} → ${moveWords(m.best)} (−${m.cost.toFixed(1)})`);
      b.onclick = () => jump(m.index - 1);
      const li = el("li");
      li.append(b);
      ol.append(li);
    }
    box.append(ol);
    return box;
  }

  function fieldEl(w, move) {
    if (!field) return null;
    const box = el("section", "rv-field");
    box.id = "field";
    box.append(el("h3", "", T("The field")));
    if (field.state !== "open") {
      // Said in the page's language; the server's words (which deal, which event) below.
      box.append(el("p", "muted", T("The field shows what every other holder of these tiles did: it opens once the deal is over everywhere.")));
      if (field.reason) box.append(el("p", "small", field.reason));
      return box;
    }
    if (field.seat !== w) {
      box.append(el("p", "muted", T("The field is of seat {}: choose it to compare.", field.seat)));
      return box;
    }
    const people = field.holders.length;
    box.append(el("p", "", T("{} holders of these tiles.", people)));
    const m = field.moments.find((x) => x.index === move);
    if (m) {
      const reached = m.branches.reduce((n, b) => n + b.holders.length, 0);
      box.append(el("p", "muted", T("{} of them reached this point; what each did:", reached)));
      const tbl = el("table", "branches");
      tbl.dataset.reached = String(reached);
      const head = el("tr");
      [T("move"), T("holders"), T("IMP (average)")].forEach((h) => head.append(el("th", "", h)));
      tbl.append(head);
      for (const b of m.branches) {
        const tr = el("tr", sameMove(b.action, m.played) ? "mine" : "");
        const move = el("td", "", moveWords(b.action));
        // Who made it and the IMP each finished with, while the list stays short.
        const named = b.holders.map((h) => `${field.holders[h].name} ${SIGNED(field.holders[h].imp, 0)}`);
        if (named.length <= 8) move.append(el("div", "who", named.join(" · ")));
        tr.append(move);
        const who = named.join(", ");
        const td = el("td", "", String(b.holders.length));
        td.title = who;
        tr.append(td);
        tr.append(el("td", "num", SIGNED(b.mean_imp)));
        tbl.append(tr);
      }
      box.append(tbl);
    }
    if (field.partings.length) {
      box.append(el("h3", "", T("Where the better results parted from this hand")));
      const ol = el("ol");
      for (const p of field.partings) {
        const h = field.holders[p.holder];
        const what = p.theirs ? T("played {}", moveWords(p.theirs)) : T("never reached this point");
        const b = el("button", "link", `${h.name} (${SIGNED(h.imp, 0)} IMP): ${T("Move {}", p.index)}, ${what}`);
        b.onclick = () => jump(p.index - 1);
        const li = el("li");
        li.append(b);
        ol.append(li);
      }
      box.append(ol);
    }
    return box;
  }

  return {
    /** Shows the panel at replay step `at` (the next move is `at + 1`) for seat `w`. */
    update(at, w) {
      const parts = [summary(w), decision(w, at + 1), mistakeList(w), fieldEl(w, at + 1)];
      root.replaceChildren(...parts.filter(Boolean));
    },
    /** The first decision where a better holder parted from this hand (a move number). */
    firstParting() {
      const at = field && field.partings ? field.partings.map((p) => p.index) : [];
      return at.length ? Math.min(...at) : null;
    },
    /** The expert's move at `move` for seat `w`, when it differs from the one played. */
    expertAt(w, move) {
      const s = seatOf(w);
      const d = s && s.review.decisions_weighed.find((x) => x.index === move);
      return d && !sameMove(d.played, d.best) ? d : null;
    },
  };
}
