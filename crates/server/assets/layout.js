// Where everything of the table goes for a given space: tile sizes and the boxes of each
// region, worked out from the width and height the page has (no scrolling for the table).
//
// The table is drawn as players sit: you at the bottom, the next seat on the right, the
// opposite seat at the top, the previous seat on the left. Each opponent has a strip at the
// table's edge (tile backs, melds at their right, bonus tiles after the melds) and a pond of
// discards in rows of six in front of them; the centre shows the round and the walls.
// Regions are given in the owner's frame (as if they sat at the bottom) with a rotation, so
// that every pond and strip faces the centre.

const RATIO = 4 / 3; // tile height / width

/** Tile sizes and region boxes for an area of `w` × `h` CSS pixels. */
export function layout(w, h, opts = {}) {
  const wide = w >= h * 1.2;
  const panelMin = wide ? Math.min(340, Math.max(230, w * 0.26)) : 0;
  // Your own tiles: at least 40 px wide; on a narrow screen rows of seven.
  let hand;
  if (wide) {
    hand = clamp(Math.floor((w - panelMin - 24) / 18), 40, Math.min(72, Math.floor(h / 9)));
  } else {
    const perRow = Math.floor((w - 12) / 16);
    hand = perRow >= 40 ? Math.min(60, perRow) : clamp(Math.floor((w - 16) / 7.4) - 2, 40, 60);
  }
  const rowW = (wide ? Math.min(w - panelMin - 12, 18 * (hand + 2)) : w - 8) - 8;
  const { rows: handRows, height: handRowsH } = handFit(rowW, hand, opts.mine);
  const handH = handRowsH + 14;
  // The table: the space left above your hand (and left of the panel when wide).
  const availW = wide ? w - panelMin - 12 : w - 8;
  // Tall screens keep some room under your hand for the clock and the claim box.
  const availH = h - handH - 6 - (wide ? 0 : 150);
  // In units of the pond tile p: strips 1.33p + 4, ponds four rows of 1.33p + 1, and a
  // centre long in one direction (so ponds of neighbours never meet) and short in the other.
  // On a low or narrow screen the opponents' strips and the centre give way to the ponds.
  const low = wide && h < 500;
  const sF = low ? 0.75 : wide ? 1 : 0.8;
  const long = 6.5;
  const short = low ? 2.8 : wide ? 3.6 : 3.0;
  const across = (c) => 2 * (sF * RATIO + 0.15) + 2 * 4 * (RATIO + 0.05) + c; // per p
  const pW = (availW - 24) / across(wide ? long : short);
  const pH = (availH - 20) / (sF * RATIO + 0.15 + 2 * 4 * (RATIO + 0.05) + (wide ? short : long));
  const pond = clamp(Math.floor(Math.min(pW, pH)), 12, opts.maxPond || 58);
  const p = pond;
  const strip = sF * p * RATIO + 4;
  const depth = 4 * (p * RATIO + 1) + 4;
  const cw = (wide ? long : short) * p;
  const ch = (wide ? short : long) * p;
  const gap = Math.max(3, Math.round(p * 0.15));
  const tw = 2 * (strip + gap + depth) + cw;
  const th = strip + gap + 2 * depth + ch + gap;
  const cx = tw / 2;
  const cy = strip + gap + depth + ch / 2;
  // Strip lengths: clear of the corners where the neighbouring strips lie.
  const topLen = tw - 2 * strip - 2 * gap;
  const sideLen = 2 * Math.min(cy - strip - gap, th - cy);
  const region = (x, y, rw, rh, rot) => ({ x, y, w: rw, h: rh, rot });
  const ponds = {
    bottom: region(cx, cy + ch / 2 + depth / 2, 6 * p + 8, depth, 0),
    right: region(cx + cw / 2 + depth / 2, cy, 6 * p + 8, depth, -90),
    top: region(cx, cy - ch / 2 - depth / 2, 6 * p + 8, depth, 180),
    left: region(cx - cw / 2 - depth / 2, cy, 6 * p + 8, depth, 90),
  };
  const sOff = ch / 2 + depth + gap + strip / 2;
  const sOffX = cw / 2 + depth + gap + strip / 2;
  const strips = {
    right: region(cx + sOffX, cy, sideLen, strip, -90),
    top: region(cx, cy - sOff, topLen, strip, 180),
    left: region(cx - sOffX, cy, sideLen, strip, 90),
  };
  // Name tags in the corners the ponds leave free.
  const cornerW = Math.max(0, cx - 3 * p - 4 - (strip + gap));
  const cornerH = Math.max(0, cy - 3 * p - 4 - (strip + gap));
  const lowH = Math.max(0, th - (cy + 3 * p + 4));
  const tags = {
    top: { x: strip + gap, y: strip + gap, w: cornerW, h: cornerH },
    right: { x: tw - strip - gap - cornerW, y: strip + gap, w: cornerW, h: cornerH },
    left: { x: strip + gap, y: cy + 3 * p + 4, w: cornerW, h: lowH },
    bottom: { x: tw - strip - gap - cornerW, y: cy + 3 * p + 4, w: cornerW, h: lowH },
  };
  const centre = region(cx, cy, cw - 6, ch - 6, 0);
  // Your hand under the table (wide: as wide as it needs, up to the panel); the table
  // centred over it; the panel takes the rest.
  const handW = wide ? Math.min(availW, Math.max(tw, 18 * (hand + 2))) : w - 8;
  const tableX = Math.max(0, (handW - tw) / 2);
  const handBox = { x: 0, y: th + 6, w: handW, h: handH };
  const panel = wide
    ? { x: handW + 12, y: 0, w: Math.max(panelMin, w - handW - 20), h }
    : { x: 0, y: th + handH + 12, w: w - 8, h: Math.max(0, h - th - handH - 12) };
  return {
    wide, low, stripMax: Math.floor(sF * p), pond: p, hand, handRows, handH, strip, tw, th, tableX, ponds, strips, tags, centre,
    handBox, panel, stripLen: { top: topLen, side: sideLen },
  };
}

/** How your hand lies in rows `rowW` wide with tiles `size` wide: the concealed tiles
 * (and the drawn one, set apart) wrap first, melds and bonus tiles (smaller) follow on the
 * same row when they fit, else on rows of their own. `mine`: {tiles, drawn, melds, bonus}
 * in tiles; a full concealed hand when not given. */
export function handFit(rowW, size, mine) {
  const m = mine || { tiles: 13, drawn: true, melds: 0, bonus: 0 };
  const small = Math.round(size * 0.72);
  const tileRow = size * RATIO + 10; // room for a raised tile under the row above
  const smallRow = small * RATIO + 6;
  const concealed = m.tiles * (size + 2) + (m.drawn ? size * 1.3 + 2 : 0);
  const side = m.melds * (small + 2) + m.bonus * (small + 2) + (m.melds ? 6 * Math.ceil(m.melds / 3) : 0);
  if (concealed + (side ? side + 10 : 0) <= rowW) return { rows: 1, height: tileRow };
  const rows = Math.max(1, Math.ceil(concealed / rowW));
  const sideRows = side ? Math.ceil(side / rowW) : 0;
  return { rows: rows + sideRows, height: rows * tileRow + sideRows * smallRow };
}

/** The width of an opponent's tiles so that `units` tile widths fit the strip. */
export function stripTile(geo, side, units) {
  const len = side === "top" ? geo.stripLen.top : geo.stripLen.side;
  return Math.max(8, Math.min(geo.stripMax, Math.floor((len - 6) / Math.max(units, 14))));
}

function clamp(x, lo, hi) {
  return Math.max(lo, Math.min(hi, x));
}
