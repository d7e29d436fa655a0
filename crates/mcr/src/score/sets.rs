//! Scoring one reading of four sets and a pair (or a knitted straight, a set and a
//! pair): the fans of the sets, of the pair and of how the hand was won.

use super::{
    add, apply_exclusions, combo_table, combos, shape, Facts, Fan, Key, Set, SetKind, Tally, Tile,
};

#[inline]
pub(super) fn key(t: Tile) -> Key {
    // By table: a suit is a division, a rank a second look-up.
    static KEYS: [Key; 34] = {
        let mut k = [Key { suit: 3, rank: 0 }; 34];
        let mut i = 0;
        while i < 27 {
            k[i] = Key {
                suit: (i / 9) as u8,
                rank: (i % 9) as u8 + 1,
            };
            i += 1;
        }
        k
    };
    KEYS[t.index()]
}

/// Fans that depend only on how the hand was won (and its concealment), as masks (they all
/// count once), without a branch per flag; computed once a hand (`Facts::win_fans`).
/// `[0]` where a concealed self-drawn win scores Self-Drawn, `[1]` where it scores Fully
/// Concealed Hand (which some profiles deny to some shapes).
pub(super) fn win_masks(f: &Facts) -> [u128; 2] {
    let ctx = &f.hand.ctx;
    let concealed = f.claimed == 0;
    let drawn = ctx.self_drawn;
    let fans = [
        (Fan::ConcealedHand, concealed & !drawn),
        (Fan::MeldedHand, !drawn & (f.claimed == 4)),
        (Fan::LastTileDraw, ctx.last_tile & drawn),
        (Fan::LastTileClaim, ctx.last_tile & !drawn),
        (Fan::OutWithReplacementTile, ctx.kong & drawn),
        (Fan::RobbingTheKong, ctx.kong & !drawn),
        (Fan::LastTile, f.last_of_kind),
    ];
    let bit = |fan: Fan, yes: bool| (yes as u128) << fan as u8;
    let common = fans.iter().fold(0u128, |m, &(fan, yes)| m | bit(fan, yes));
    [
        common | bit(Fan::SelfDrawn, drawn),
        common
            | bit(Fan::FullyConcealedHand, concealed & drawn)
            | bit(Fan::SelfDrawn, drawn & !concealed),
    ]
}

pub(super) fn finish(f: &Facts, t: &mut Tally) {
    apply_exclusions(t, f.rules);
    let flowers = f.hand.ctx.flowers;
    if t.mask() == 0 {
        add(t, Fan::ChickenHand);
    }
    t.set(Fan::FlowerTiles, flowers);
}

/// What a set adds to a reading's counts, a field of [`FIELD`] bits each (sums of at most
/// four sets stay inside their fields): one table look-up per set instead of a branch per
/// property.
mod field {
    pub const CHOWS: u32 = 0;
    pub const PUNGS: u32 = 1;
    pub const CONCEALED_PUNGS: u32 = 2;
    pub const CONCEALED_KONGS: u32 = 3;
    pub const MELDED_KONGS: u32 = 4;
    pub const DRAGON_PUNGS: u32 = 5;
    pub const TERMINAL_PUNGS: u32 = 6;
    /// Sets that Outside Hand allows (a chow from 1 or 7, a pung of terminals or honours).
    pub const OUTSIDE: u32 = 7;
    /// Sets that All Fives allows (a chow from 3, 4 or 5, a pung of fives).
    pub const FIVES: u32 = 8;
    /// Numbered pungs of an even rank.
    pub const EVEN_PUNGS: u32 = 9;
    /// One bit per wind of a wind pung (no two pungs share a wind, so the sum is the mask).
    pub const WINDS: u32 = 10;
}
const FIELD: u32 = 4;

const fn one(field: u32, yes: bool) -> u64 {
    (yes as u64) << (field * FIELD)
}

const fn get(acc: u64, field: u32) -> u32 {
    ((acc >> (field * FIELD)) & 0xf) as u32
}

/// `SET_FIELDS[(kind × 2 + concealed) × 34 + tile]`: what a set adds, by [`field`].
static SET_FIELDS: [u64; 204] = {
    let mut t = [0u64; 204];
    let mut i = 0;
    while i < 204 {
        let Some(tile) = Tile::from_index(i % 34) else {
            panic!("a tile index")
        };
        let concealed = (i / 34) % 2 == 1;
        let kind = i / 68;
        let r = tile.rank();
        let v = if kind == 0 {
            one(field::CHOWS, true)
                | one(field::OUTSIDE, r == 1 || r == 7)
                | one(field::FIVES, r >= 3 && r <= 5)
        } else {
            let wind = if tile.is_wind() {
                1u64 << (tile.index() - 27)
            } else {
                0
            };
            one(field::PUNGS, true)
                | one(field::CONCEALED_PUNGS, concealed)
                | one(field::CONCEALED_KONGS, kind == 2 && concealed)
                | one(field::MELDED_KONGS, kind == 2 && !concealed)
                | one(field::DRAGON_PUNGS, tile.is_dragon())
                | one(field::TERMINAL_PUNGS, tile.is_terminal())
                | one(field::OUTSIDE, tile.is_terminal_or_honor())
                | one(field::FIVES, r == 5)
                | one(field::EVEN_PUNGS, tile.is_numbered() && r % 2 == 0)
                | wind << (field::WINDS * FIELD)
        };
        t[i] = v;
        i += 1;
    }
    t
};

const fn bit(f: Fan) -> u128 {
    1 << f as u8
}

/// Dragon fans by the number of dragon pungs, without and with a dragon pair.
const DRAGONS: [[u128; 2]; 4] = [
    [0, 0],
    [bit(Fan::DragonPung); 2],
    [
        bit(Fan::TwoDragonsPungs),
        bit(Fan::TwoDragonsPungs) | bit(Fan::LittleThreeDragons),
    ],
    [bit(Fan::BigThreeDragons); 2],
];

/// Wind fans by the number of wind pungs, without and with a wind pair (the three wind
/// pungs are implied in Big Three Winds and Little Four Winds).
const WINDS: [[u128; 2]; 5] = [
    [0, 0],
    [0, 0],
    [0, 0],
    [
        bit(Fan::BigThreeWinds),
        bit(Fan::BigThreeWinds) | bit(Fan::LittleFourWinds),
    ],
    [bit(Fan::BigFourWinds); 2],
];

const CONCEALED_PUNGS: [u128; 5] = [
    0,
    0,
    bit(Fan::TwoConcealedPungs),
    bit(Fan::ThreeConcealedPungs),
    bit(Fan::FourConcealedPungs),
];

/// Kong fans by the number of kongs and of concealed kongs; `[1]`: with one concealed and
/// one melded kong as one fan (a profile's choice), `[0]`: as two.
const KONGS: [[[u128; 5]; 5]; 2] = {
    let mut t = [[[0u128; 5]; 5]; 2];
    let mut v = 0;
    while v < 2 {
        t[v][1][0] = bit(Fan::MeldedKong);
        t[v][1][1] = bit(Fan::ConcealedKong);
        t[v][2][0] = bit(Fan::TwoMeldedKongs);
        t[v][2][1] = if v == 1 {
            bit(Fan::ConcealedKongAndMeldedKong)
        } else {
            bit(Fan::ConcealedKong) | bit(Fan::MeldedKong)
        };
        t[v][2][2] = bit(Fan::TwoConcealedKongs);
        let mut c = 0;
        while c < 5 {
            t[v][3][c] = bit(Fan::ThreeKongs);
            t[v][4][c] = bit(Fan::FourKongs);
            c += 1;
        }
        v += 1;
    }
    t
};

/// Scores one reading of four sets and a pair (or a knitted straight, a set and a pair).
/// Written to branch little: which fans a reading has is data no predictor guesses.
pub(super) fn eval_sets(
    f: &Facts,
    sets: &mut [Set],
    pair: Tile,
    knit: Option<usize>,
    nine_gates: bool,
) -> Tally {
    let mut t = f.traits;
    let ctx = &f.hand.ctx;
    let win = f.win;
    let wi = win.index();
    let n = sets.len();

    // One pass over the sets: what they add up to, the concealed chows that give the edge
    // and closed waits, and the concealed pung of the winning tile, if any.
    let mut in_chow = false;
    let (mut closed, mut edge) = (false, false);
    let mut win_pung = n;
    let mut acc = 0u64;
    let mut kong_tiles = 0u64;
    // Chows and numbered pungs by their codes in [`combo_table`].
    let mut chows = [0u8; 5];
    let mut nchow = 0;
    let mut pungs = [0u8; 5];
    let mut npung_num = 0;
    for (i, s) in sets.iter().enumerate() {
        let chow = s.kind == SetKind::Chow;
        let conc_chow = !s.declared & chow;
        let at = wi.wrapping_sub(s.tile.index());
        in_chow |= conc_chow & (at < 3);
        closed |= conc_chow & (at == 1);
        edge |= conc_chow & (at == f.edge_at);
        let is_win_pung = !s.declared & (s.kind == SetKind::Pung) & (s.tile == win);
        win_pung = if is_win_pung { i } else { win_pung };
        let kind = s.kind as usize;
        acc += SET_FIELDS[(kind * 2 + s.concealed as usize) * 34 + s.tile.index()];
        kong_tiles |= ((s.kind == SetKind::Kong) as u64) << s.tile.index();
        chows[nchow] = combo_table::chow_code(s.tile.index());
        nchow += chow as usize;
        pungs[npung_num] = s.tile.index() as u8;
        npung_num += (!chow & s.tile.is_numbered()) as usize;
    }
    // A won discard that completes a concealed pung makes it exposed, unless the tile
    // can be read into a concealed chow or the pair of this reading.
    // Judged as one expression: which of these holds is data no predictor learns.
    let in_knit = knit.is_some_and(|k| shape::KNIT_MASKS[k] >> wi & 1 != 0);
    let elsewhere = ctx.self_drawn | (pair == win) | in_chow | in_knit;
    // A reading has a set (four, or one beside a knitted straight): `n - 1` is a slot.
    let exposed = !elsewhere & (win_pung < n);
    sets[win_pung.min(n - 1)].concealed &= !exposed;
    acc -= (exposed as u64) << (field::CONCEALED_PUNGS * FIELD);
    let npung = get(acc, field::PUNGS);
    let conc_pungs = get(acc, field::CONCEALED_PUNGS);

    // Dragons and winds.
    let mut m = DRAGONS[get(acc, field::DRAGON_PUNGS) as usize][pair.is_dragon() as usize];
    // Four-bit counts by table (a population count is a dozen instructions on the
    // baseline x86-64 these builds target).
    const POP4: [u32; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    let wind_mask = get(acc, field::WINDS);
    let nwind = POP4[wind_mask as usize];
    m |= WINDS[nwind as usize][pair.is_wind() as usize];
    // Below three wind pungs each counts as a pung of honours, except (in some profiles)
    // those already counted as the seat's or the round's wind.
    let seat = ctx.seat_wind.index();
    let prev = ctx.prevalent_wind.index();
    let seat_p = wind_mask >> seat & 1 != 0;
    let prev_p = wind_mask >> prev & 1 != 0;
    let named = POP4[(wind_mask & ((1 << seat) | (1 << prev))) as usize];
    let lone_winds = if nwind < 3 { nwind } else { 0 };
    let wind_poth = if f.rules.wind_pung_also_terminal_pung {
        lone_winds
    } else {
        lone_winds - named.min(lone_winds)
    };
    let few_winds = nwind < 4;
    m |= ((few_winds & seat_p) as u128) << Fan::SeatWind as u8;
    m |= ((few_winds & prev_p) as u128) << Fan::PrevalentWind as u8;
    let mut poth = get(acc, field::TERMINAL_PUNGS) + wind_poth;
    if nine_gates && poth > 0 {
        poth = if f.rules.nine_gates_excludes_all_terminal_pungs {
            0
        } else {
            poth - 1
        };
    }
    t.set(Fan::PungOfTerminalsOrHonors, poth as u8);

    // Combinations of chows and of pungs.
    let chows = [chows[0], chows[1], chows[2], chows[3]];
    let pungs = [pungs[0], pungs[1], pungs[2], pungs[3]];
    let by_table = f.rules.standard_combinations();
    let looked_up = by_table
        .then(|| combo_table::chow_fans(chows, nchow))
        .flatten();
    let value = |x: Fan| f.value(x);
    match looked_up {
        Some(c) => t.merge(c),
        None => {
            let pair_key = pair.is_numbered().then(|| key(pair));
            let keys = chows.map(combo_table::chow_key);
            combos::chow_fans(&keys[..nchow], pair_key, &value, &mut |x| add(&mut t, x));
        }
    }
    if by_table {
        t.merge(combo_table::pung_fans(pungs, npung_num));
    } else {
        let keys = pungs.map(combo_table::pung_key);
        combos::pung_fans(&keys[..npung_num], &value, &mut |x| add(&mut t, x));
    }

    let all_sets = n as u32;
    let four_pungs = npung == 4;
    let even_pair = pair.is_numbered() & pair.rank().is_multiple_of(2);
    let knit_chows = if knit.is_some() { 3 } else { 0 };
    m |= (four_pungs as u128) << Fan::AllPungs as u8;
    m |= ((four_pungs & (get(acc, field::EVEN_PUNGS) == all_sets) & even_pair) as u128)
        << Fan::AllEvenPungs as u8;
    m |= ((nchow + knit_chows == 4 && pair.is_numbered()) as u128) << Fan::AllChows as u8;
    let plain = knit.is_none();
    m |= ((plain & (get(acc, field::OUTSIDE) == all_sets) & pair.is_terminal_or_honor()) as u128)
        << Fan::OutsideHand as u8;
    m |= ((plain & (get(acc, field::FIVES) == all_sets) & (pair.rank() == 5)) as u128)
        << Fan::AllFive as u8;
    m |= CONCEALED_PUNGS[conc_pungs as usize];
    let kongs = get(acc, field::CONCEALED_KONGS) + get(acc, field::MELDED_KONGS);
    m |= KONGS[f.rules.concealed_and_melded_kong_fan as usize][kongs as usize]
        [get(acc, field::CONCEALED_KONGS) as usize];
    // Tile Hog: four of a kind not declared as a kong.
    // Three at most (fourteen tiles): counted bit by bit without a branch (a population
    // count is a dozen instructions on the baseline x86-64 these builds target).
    let hogs = f.quads & !kong_tiles;
    let second = hogs & hogs.wrapping_sub(1);
    let third = second & second.wrapping_sub(1);
    t.set(
        Fan::TileHog,
        (hogs != 0) as u8 + (second != 0) as u8 + (third != 0) as u8,
    );

    let fc = (!nine_gates || f.rules.special_shapes_fully_concealed)
        && (conc_pungs < 4 || f.rules.four_concealed_pungs_fully_concealed);
    m |= f.win_fans[fc as usize];
    t.insert(m);

    // Edge, closed or single wait: only when the hand waits on this tile alone.
    if !nine_gates {
        let no_single = t.has(Fan::MeldedHand) || t.has(Fan::FourKongs);
        let no_chow_wait = knit.is_some() && !f.rules.knitted_straight_edge_closed;
        // The candidate, closed before edge before single, as a table index.
        let chow_wait = !no_chow_wait;
        let case = if chow_wait & closed {
            1
        } else if chow_wait & edge {
            2
        } else if (pair == win) & !no_single {
            3
        } else {
            0
        };
        const WAITS: [Option<Fan>; 4] = [
            None,
            Some(Fan::ClosedWait),
            Some(Fan::EdgeWait),
            Some(Fan::SingleWait),
        ];
        if let Some(w) = WAITS[case] {
            if f.unique_wait(knit.is_none()) {
                add(&mut t, w);
            }
        }
    } else {
        add(&mut t, Fan::NineGates);
    }
    if knit.is_some() {
        add(&mut t, Fan::KnittedStraight);
    }
    finish(f, &mut t);
    t
}
