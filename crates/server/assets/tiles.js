// Tiles drawn as SVG by dupmj itself: a face, the suit's figures and a corner index so that
// a tile stays readable when a phone shows fourteen of them across.

// The page's texts in its language (English is the key; the server sends the others).
const TEXTS = (() => {
  try { return JSON.parse(document.getElementById("i18n")?.textContent || "{}"); } catch { return {}; }
})();

/** `s` in the page's language, each `{}` filled by the next of `args`. */
export function T(s, ...args) {
  let i = 0;
  return (TEXTS[s] || s).replace(/\{\}/g, () => String(args[i++] ?? ""));
}

const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = {
  E: ["東", "#1b1b1b"], S: ["南", "#1b1b1b"], W: ["西", "#1b1b1b"], N: ["北", "#1b1b1b"],
  C: ["中", "#c0262d"], F: ["發", "#13803d"],
};
const BONUS = ["梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬"];

// Figure positions on a 3×3 grid (column, row) for ranks 1–9, as the dots lie on real tiles.
const LAYOUT = {
  1: [[1, 1]],
  2: [[1, 0], [1, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [1, 0.35], [2, 0.7], [0, 1.5], [2, 1.5], [0, 2.3], [2, 2.3]],
  8: [[0, 0], [2, 0], [0, 0.7], [2, 0.7], [0, 1.4], [2, 1.4], [0, 2.1], [2, 2.1]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

const DOT_COLOURS = ["#1d4fa3", "#c0262d", "#13803d"];

function figures(rank, draw) {
  return LAYOUT[rank].map(([c, r], i) => draw(8.5 + c * 6.5, 12.5 + r * 7.5, i)).join("");
}

function face(code) {
  if (code === "P") {
    return '<rect x="8" y="10" width="14" height="22" rx="1.5" fill="none" stroke="#1d4fa3" stroke-width="2"/>' +
      '<text x="3.2" y="9" font-size="7.5" font-weight="700" fill="#1d4fa3">P</text>';
  }
  if (HONOURS[code]) {
    // The letter in the corner keeps the tile readable where no Chinese font is installed.
    const [ch, colour] = HONOURS[code];
    return `<text x="15" y="30" font-size="18" text-anchor="middle" fill="${colour}" font-weight="700">${ch}</text>` +
      `<text x="3.2" y="9" font-size="7.5" font-weight="700" fill="${colour}">${code}</text>`;
  }
  if (/^H[1-8]$/.test(code)) {
    const n = Number(code[1]);
    const colour = n <= 4 ? "#c0262d" : "#1d4fa3";
    return `<text x="15" y="27" font-size="16" text-anchor="middle" fill="${colour}">${BONUS[n - 1]}</text>` +
      `<text x="4" y="9" font-size="7.5" fill="${colour}" font-weight="700">${n}</text>`;
  }
  const rank = Number(code[0]);
  const suit = code[1];
  const index = `<text x="3.2" y="9" font-size="8" font-weight="700" fill="#333">${rank}</text>`;
  if (suit === "m") {
    return index +
      `<text x="16" y="18" font-size="11" text-anchor="middle" fill="#1b1b1b" font-weight="700">${NUMERALS[rank - 1]}</text>` +
      `<text x="15" y="33" font-size="12" text-anchor="middle" fill="#c0262d">萬</text>`;
  }
  if (suit === "p") {
    if (rank === 1) {
      return index + '<circle cx="15" cy="20.5" r="7.5" fill="none" stroke="#c0262d" stroke-width="2.2"/>' +
        '<circle cx="15" cy="20.5" r="3" fill="#1d4fa3"/>';
    }
    return index + figures(rank, (x, y, i) =>
      `<circle cx="${x + 0}" cy="${y + 0}" r="2.7" fill="${DOT_COLOURS[(i + rank) % 3]}"/>`);
  }
  // Bamboo: upright sticks; the one of bamboo is a single tall stick with a knot.
  if (rank === 1) {
    return index + '<rect x="12.5" y="9" width="5" height="23" rx="2.5" fill="#13803d"/>' +
      '<rect x="11.5" y="19.5" width="7" height="2" fill="#0b5a2a"/>';
  }
  return index + figures(rank, (x, y, i) =>
    `<rect x="${x - 1.3}" y="${y - 3}" width="2.6" height="6" rx="1.2" fill="${i % 4 === 3 ? "#c0262d" : "#13803d"}"/>`);
}

const SUIT_NAMES = { m: "{} characters", p: "{} dots", s: "{} bamboo" };
const HONOUR_NAMES = {
  E: "East wind", S: "South wind", W: "West wind", N: "North wind",
  C: "Red dragon", F: "Green dragon", P: "White dragon",
};

/** A readable name for screen readers and tooltips, in the page's language ("5 dots"). */
export function tileName(code) {
  if (!code) return T("hidden tile");
  if (/^[1-9][mps]$/.test(code)) return T(SUIT_NAMES[code[1]], code[0]);
  if (/^H[1-8]$/.test(code)) return T(Number(code[1]) <= 4 ? "flower {}" : "season {}", ((Number(code[1]) - 1) % 4) + 1);
  return HONOUR_NAMES[code] ? T(HONOUR_NAMES[code]) : code;
}

/** The SVG of a tile; `null` draws its back. */
export function tileSvg(code, label = true) {
  const body = code
    ? `<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="3.5" fill="#fbf8ee" stroke="#8a8577" stroke-width="1.5"/>${face(code)}`
    : '<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="3.5" fill="#e9c46a" stroke="#9a7b2a" stroke-width="1.5"/>' +
      '<rect x="3" y="3" width="24" height="34" rx="2.5" fill="#2f7d5b"/>';
  const a11y = label ? `role="img" aria-label="${tileName(code)}"` : 'aria-hidden="true"';
  return `<svg viewBox="0 0 30 40" ${a11y}>${body}</svg>`;
}

/** A tile element: `<span class="tile" data-tile=…>` holding its SVG. `opts.hidden`: a
 * back among others that are named together (not read out one by one). */
export function tileEl(code, extra = "", opts = {}) {
  const span = document.createElement("span");
  span.className = `tile ${extra}`.trim();
  if (code) span.dataset.tile = code;
  if (!opts.hidden) span.title = tileName(code);
  span.innerHTML = tileSvg(code, !opts.hidden);
  return span;
}
