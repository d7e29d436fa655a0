// Short sounds made in the browser with Web Audio (no files to download): your turn, a
// claim offered, a win, and time running low. Silent until the page has been touched
// (browsers allow sound only after a gesture) and whenever the player mutes them.

let ctx = null;
let muted = false;

/** Mutes or unmutes every cue. */
export function setMuted(on) {
  muted = on;
}

function audio() {
  if (!ctx) {
    const A = window.AudioContext || window.webkitAudioContext;
    if (!A) return null;
    ctx = new A();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

// The first gesture opens the audio context; before it nothing can play.
for (const ev of ["pointerdown", "keydown"]) {
  window.addEventListener(ev, () => audio(), { once: true, capture: true });
}

/** Notes as [frequency Hz, start s, length s, type]. */
const CUES = {
  turn: [[660, 0, 0.09, "sine"], [880, 0.08, 0.12, "sine"]],
  claim: [[988, 0, 0.07, "triangle"], [988, 0.1, 0.07, "triangle"], [1319, 0.2, 0.12, "triangle"]],
  hu: [[523, 0, 0.12, "triangle"], [659, 0.1, 0.12, "triangle"], [784, 0.2, 0.12, "triangle"], [1047, 0.3, 0.3, "triangle"]],
  low: [[440, 0, 0.05, "square"]],
};

/** Plays cue `name` unless muted or the page has not been touched yet. */
export function cue(name) {
  if (muted || !ctx || ctx.state !== "running") return;
  const notes = CUES[name];
  if (!notes) return;
  const now = ctx.currentTime;
  for (const [f, at, len, type] of notes) {
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.type = type;
    o.frequency.value = f;
    g.gain.setValueAtTime(0.0001, now + at);
    g.gain.exponentialRampToValueAtTime(type === "square" ? 0.05 : 0.18, now + at + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    o.connect(g).connect(ctx.destination);
    o.start(now + at);
    o.stop(now + at + len + 0.02);
  }
}
