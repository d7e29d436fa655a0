//! The table engine: a state machine for one duplicate hand (SPEC §3).
//!
//! Ask [`Table::to_act`] who must decide, offer them [`Table::legal_actions`], and feed
//! their choices to [`Table::apply`], which refuses anything illegal without changing the
//! state. [`Table::view`] is what one seat may know.

use std::fmt;

use mcr::tile::{Counts, KINDS};
use mcr::{Meld, MeldKind, Tile, WinContext, Wind};
use serde::{Deserialize, Serialize};

use crate::deal::{wall_label_static, Deal, WALL};
use crate::log::{Event, WinRecord};
use crate::points::{match_points, Settlement};
use crate::rules::TableRules;

/// A decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", content = "tile", rename_all = "snake_case")]
pub enum Action {
    /// Discard a tile (on your turn).
    Discard(Tile),
    /// Declare a win: on your own draw, on a discard, or robbing a kong.
    Hu,
    /// Declare a concealed kong of four held tiles (on your turn, after a draw).
    ConcealedKong(Tile),
    /// Add a held tile to your melded pung (on your turn, after a draw).
    PromotedKong(Tile),
    /// Claim nothing.
    Pass,
    /// Chow the discard into the run starting at this tile (next player only).
    Chow(Tile),
    Pung,
    /// Kong the discard with three held tiles.
    Kong,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::Hu => write!(f, "hu"),
            Action::ConcealedKong(t) => write!(f, "concealed kong {t}"),
            Action::PromotedKong(t) => write!(f, "promoted kong {t}"),
            Action::Pass => write!(f, "pass"),
            Action::Chow(t) => write!(f, "chow from {t}"),
            Action::Pung => write!(f, "pung"),
            Action::Kong => write!(f, "kong"),
        }
    }
}

/// An action refused by the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    pub seat: Wind,
    pub action: Action,
    pub reason: String,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {}: {} is not allowed: {}",
            self.seat, self.action, self.reason
        )
    }
}

impl std::error::Error for IllegalAction {}

#[derive(Clone, Debug)]
enum Phase {
    /// `seat` holds one tile more than a waiting hand and must act.
    Turn {
        seat: Wind,
        /// The tile just drawn (None right after a chow or pung).
        drew: Option<Tile>,
        replacement: bool,
    },
    /// Other seats answer a discard (or, `robbing`, a promoted kong's added tile).
    Claims {
        from: Wind,
        tile: Tile,
        robbing: bool,
        answers: [Option<Action>; 4],
        asked: [bool; 4],
    },
    Over,
}

/// The end of a hand: how it ended and each seat's match points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// "draw", "self_drawn" or "discard".
    pub kind: String,
    /// The discarder (or the promoter of a robbed kong).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub discarder: Option<Wind>,
    pub wins: Vec<WinRecord>,
    /// Match points by seat (E, S, W, N).
    pub points: [i32; 4],
}

/// One duplicate hand in play.
#[derive(Clone, Debug)]
pub struct Table {
    rules: TableRules,
    deal: Deal,
    conc: [Counts; 4],
    /// Per seat: tiles per group (three suits, honours) and the kinds held, kept with
    /// `conc` so that most win checks end without looking at the counts.
    group_size: [[u8; 4]; 4],
    held: [u64; 4],
    melds: [Vec<Meld>; 4],
    drawn: [usize; 4],
    discards: [Vec<Tile>; 4],
    /// Copies visible to everyone: discard piles and exposed melds.
    visible: Counts,
    last_tile_point: bool,
    phase: Phase,
    /// What each seat may do now (recomputed on every change of phase).
    legal: [Vec<Action>; 4],
    /// Melds as others see them (concealed kongs hidden) and as their owner sees them.
    public_melds: [Vec<SeenMeld>; 4],
    own_melds: [Vec<SeenMeld>; 4],
    events: Vec<Event>,
    result: Option<HandResult>,
}

fn relative(from: Wind, to: Wind) -> u8 {
    // 1 previous player, 2 opposite, 3 next (seen from `to`).
    match (from.index() + 4 - to.index()) % 4 {
        3 => 1,
        2 => 2,
        _ => 3,
    }
}

impl Table {
    /// Seats the deal: everyone takes their 13 tiles and East draws A.
    pub fn new(deal: Deal, rules: TableRules) -> Table {
        let mut conc = [[0u8; KINDS]; 4];
        for (c, hand) in conc.iter_mut().zip(&deal.hands) {
            for t in hand {
                c[t.index()] += 1;
            }
        }
        let group_size = std::array::from_fn(|s| {
            let mut g = [0u8; 4];
            for t in deal.hands[s] {
                g[t.index() / 9] += 1;
            }
            g
        });
        let held = std::array::from_fn(|s| mcr::tile::presence(&conc[s]));
        let mut t = Table {
            rules,
            deal,
            conc,
            group_size,
            held,
            melds: std::array::from_fn(|_| Vec::with_capacity(4)),
            drawn: [0; 4],
            discards: std::array::from_fn(|_| Vec::with_capacity(32)),
            visible: [0; KINDS],
            last_tile_point: false,
            phase: Phase::Over,
            legal: std::array::from_fn(|_| Vec::with_capacity(20)),
            public_melds: Default::default(),
            own_melds: Default::default(),
            events: Vec::with_capacity(200),
            result: None,
        };
        t.start_turn(Wind::East, false);
        t.refresh_legal();
        t
    }

    fn add_tile(&mut self, s: usize, t: Tile) {
        self.conc[s][t.index()] += 1;
        self.group_size[s][t.index() / 9] += 1;
        self.held[s] |= 1 << t.index();
    }

    fn remove_tiles(&mut self, s: usize, t: Tile, n: u8) {
        self.conc[s][t.index()] -= n;
        self.group_size[s][t.index() / 9] -= n;
        if self.conc[s][t.index()] == 0 {
            self.held[s] &= !(1 << t.index());
        }
    }

    /// A necessary condition for `seat` to win with `tile` (added unless self-drawn): the
    /// group sizes allow four sets and a pair, or the kinds held allow a special shape.
    fn could_win(&self, s: usize, tile: Tile, self_drawn: bool) -> bool {
        // Group sizes modulo 3 as a base-3 number; four sets and a pair need one group at 2
        // and the others at 0.
        const REGULAR: [bool; 81] = {
            let mut t = [false; 81];
            let mut g = 0;
            while g < 4 {
                let mut p = 1;
                let mut k = 0;
                while k < g {
                    p *= 3;
                    k += 1;
                }
                t[2 * p] = true;
                g += 1;
            }
            t
        };
        const POW3: [usize; 4] = [1, 3, 9, 27];
        let g = self.group_size[s];
        let mut code = (g[0] % 3) as usize
            + 3 * (g[1] % 3) as usize
            + 9 * (g[2] % 3) as usize
            + 27 * (g[3] % 3) as usize;
        let mut held = self.held[s];
        if !self_drawn {
            let k = tile.index() / 9;
            code = if (g[k] % 3) == 2 {
                code - 2 * POW3[k]
            } else {
                code + POW3[k]
            };
            held |= 1 << tile.index();
        }
        if REGULAR[code] {
            return true;
        }
        let melds = self.melds[s].len();
        if melds > 1 {
            return false;
        }
        const ORPHANS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27;
        let kinds = held.count_ones();
        let knitted = mcr::shape::KNIT_MASKS.iter().any(|&k| (held & k) ^ k == 0);
        knitted
            || (melds == 0 && (kinds <= 7 || (held & !ORPHANS == 0 && kinds == 13) || kinds == 14))
    }

    /// Recomputes what each seat may do after a change of phase.
    fn refresh_legal(&mut self) {
        match self.phase {
            // Claim options are set when the claims open.
            Phase::Claims { .. } => {}
            Phase::Turn { seat, .. } => {
                for w in Wind::ALL {
                    let mut v = std::mem::take(&mut self.legal[w.index()]);
                    v.clear();
                    if w == seat {
                        self.turn_options(w, &mut v);
                    }
                    self.legal[w.index()] = v;
                }
            }
            Phase::Over => self.legal.iter_mut().for_each(Vec::clear),
        }
    }

    /// The first seat that must decide now, if any.
    pub fn next_to_act(&self) -> Option<Wind> {
        Wind::ALL
            .into_iter()
            .find(|w| !self.legal[w.index()].is_empty())
    }

    /// Everything `seat` may do now, as a slice.
    pub fn legal(&self, seat: Wind) -> &[Action] {
        &self.legal[seat.index()]
    }

    pub fn rules(&self) -> &TableRules {
        &self.rules
    }
    pub fn deal(&self) -> &Deal {
        &self.deal
    }
    /// Every event so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The result, once the hand is over.
    pub fn result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }
    /// Tiles left in each seat's wall.
    pub fn wall_left(&self) -> [usize; 4] {
        std::array::from_fn(|s| WALL - self.drawn[s])
    }
    pub fn last_tile_point(&self) -> bool {
        self.last_tile_point
    }
    /// Concealed tiles of a seat (the referee's view).
    pub fn concealed(&self, seat: Wind) -> Vec<Tile> {
        counts_to_tiles(&self.conc[seat.index()])
    }
    pub fn melds(&self, seat: Wind) -> &[Meld] {
        &self.melds[seat.index()]
    }
    pub fn discards(&self, seat: Wind) -> &[Tile] {
        &self.discards[seat.index()]
    }

    /// Where every tile is: concealed hands, melds, discard piles and undrawn walls
    /// together (a referee's check: each kind must add up to four).
    pub fn census(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for s in 0..4 {
            for (i, x) in self.conc[s].iter().enumerate() {
                c[i] += x;
            }
            for m in &self.melds[s] {
                for t in m.tiles() {
                    c[t.index()] += 1;
                }
            }
            for t in &self.discards[s] {
                c[t.index()] += 1;
            }
            for t in &self.deal.walls[s][self.drawn[s]..] {
                c[t.index()] += 1;
            }
        }
        // A kong being promoted (pending robbing) holds its tile in the hand still.
        c
    }

    /// The seats that must decide now (one on a turn; the asked seats that have not yet
    /// answered on a claim).
    pub fn to_act(&self) -> Vec<Wind> {
        Wind::ALL
            .into_iter()
            .filter(|w| !self.legal[w.index()].is_empty())
            .collect()
    }

    fn wall_empty(&self, seat: Wind) -> bool {
        self.drawn[seat.index()] >= WALL
    }

    /// May `seat` declare a kong now (own wall and the last-tile point)?
    fn kong_allowed(&self, seat: Wind, claiming: bool) -> bool {
        if self.last_tile_point && !self.rules.kong_after_last_tile {
            return false;
        }
        !self.wall_empty(seat)
            || (claiming && self.rules.kong_on_empty_wall && !self.last_tile_point)
    }

    fn draw(&mut self, seat: Wind, replacement: bool) -> Option<Tile> {
        let s = seat.index();
        if self.drawn[s] >= WALL {
            return None;
        }
        let t = self.deal.walls[s][self.drawn[s]];
        let label = wall_label_static(seat, self.drawn[s]).into();
        self.drawn[s] += 1;
        self.add_tile(s, t);
        self.events.push(Event::Draw {
            seat,
            tile: t,
            label,
            replacement,
        });
        Some(t)
    }

    /// `seat` gets the turn: normally (draws) or by a claim (no draw).
    fn start_turn(&mut self, seat: Wind, by_claim: bool) {
        if !self.last_tile_point && self.wall_empty(seat.next()) {
            self.last_tile_point = true;
            self.events.push(Event::LastTilePoint { seat });
        }
        if by_claim {
            self.phase = Phase::Turn {
                seat,
                drew: None,
                replacement: false,
            };
            return;
        }
        self.draw_and_act(seat, false);
    }

    fn finish(&mut self, s: Settlement, wins: Vec<WinRecord>, discarder: Option<Wind>) {
        let points = match_points(&s, self.rules.payments);
        let kind = match s {
            Settlement::Draw => "draw",
            Settlement::SelfDrawn { .. } => "self_drawn",
            Settlement::Discard { .. } => "discard",
        };
        let result = HandResult {
            kind: kind.into(),
            discarder,
            wins,
            points,
        };
        self.events.push(Event::End {
            result: Box::new(result.clone()),
        });
        self.result = Some(result);
        self.phase = Phase::Over;
    }

    /// The win `seat` would score with `tile` now, if it is a legal win (≥ minimum).
    fn win_with(
        &self,
        seat: Wind,
        tile: Tile,
        self_drawn: bool,
        kong: bool,
        last_tile: bool,
    ) -> Option<WinRecord> {
        let s = seat.index();
        if !self.could_win(s, tile, self_drawn) {
            return None;
        }
        let mut c = self.conc[s];
        if !self_drawn {
            c[tile.index()] += 1;
        }
        let melds = &self.melds[s];
        if !mcr::shape::is_winning_shape(&c, melds.len()) {
            return None;
        }
        c[tile.index()] -= 1;
        let standing = counts_to_tiles(&c);
        let others_visible =
            self.visible[tile.index()] as i32 - if self_drawn || kong { 0 } else { 1 };
        let ctx = WinContext {
            self_drawn,
            last_of_kind: others_visible >= 3,
            kong,
            last_tile,
            seat_wind: seat,
            prevalent_wind: self.deal.prevalent,
            flowers: 0,
        };
        let hand = mcr::Hand::new(melds.clone(), standing, tile, ctx).ok()?;
        let scored = mcr::score(&hand, &self.rules.scoring).ok()?;
        if !scored.reaches_minimum(&self.rules.scoring) {
            return None;
        }
        Some(WinRecord::new(seat, &hand, &scored))
    }

    /// Everything `seat` may do now.
    pub fn legal_actions(&self, seat: Wind) -> Vec<Action> {
        self.legal[seat.index()].clone()
    }

    /// The options of the seat whose turn it is.
    fn turn_options(&self, seat: Wind, out: &mut Vec<Action>) {
        let s = seat.index();
        let Phase::Turn {
            seat: turn,
            drew,
            replacement,
        } = &self.phase
        else {
            return;
        };
        if *turn != seat {
            return;
        }
        if let Some(t) = drew {
            if self
                .win_with(seat, *t, true, *replacement, self.last_tile_point)
                .is_some()
            {
                out.push(Action::Hu);
            }
            if self.kong_allowed(seat, false) {
                let mut fours = mcr::tile::fours(&self.conc[s]);
                while fours != 0 {
                    let k = Tile::from_index(fours.trailing_zeros() as usize).expect("tile");
                    fours &= fours - 1;
                    out.push(Action::ConcealedKong(k));
                }
                for m in &self.melds[s] {
                    if m.kind == MeldKind::Pung && self.conc[s][m.tile.index()] > 0 {
                        out.push(Action::PromotedKong(m.tile));
                    }
                }
            }
        }
        let mut held = self.held[s];
        while held != 0 {
            let k = Tile::from_index(held.trailing_zeros() as usize).expect("tile");
            held &= held - 1;
            out.push(Action::Discard(k));
        }
    }

    /// A seat's options on a discard or robbable kong (Pass first).
    fn claim_options_into(
        &self,
        seat: Wind,
        from: Wind,
        tile: Tile,
        robbing: bool,
        out: &mut Vec<Action>,
    ) {
        let s = seat.index();
        out.clear();
        out.push(Action::Pass);
        let last = self.last_tile_point && !robbing;
        if self.win_with(seat, tile, false, robbing, last).is_some() {
            out.push(Action::Hu);
        }
        if robbing || self.last_tile_point {
            return;
        }
        let held = self.conc[s][tile.index()];
        if held >= 2 {
            out.push(Action::Pung);
        }
        if held >= 3 && self.kong_allowed(seat, true) {
            out.push(Action::Kong);
        }
        if seat == from.next() && tile.is_numbered() {
            for d in 0..3i8 {
                if let Some(low) = tile.offset(-d) {
                    if low.rank() <= 7 {
                        let ok = (0..3i8).all(|k| {
                            k == d || low.offset(k).is_some_and(|x| self.conc[s][x.index()] > 0)
                        });
                        if ok {
                            out.push(Action::Chow(low));
                        }
                    }
                }
            }
        }
    }

    fn illegal(&self, seat: Wind, action: Action, reason: impl Into<String>) -> IllegalAction {
        IllegalAction {
            seat,
            action,
            reason: reason.into(),
        }
    }

    /// Applies one decision; an illegal one changes nothing.
    pub fn apply(&mut self, seat: Wind, action: Action) -> Result<(), IllegalAction> {
        let legal = &self.legal[seat.index()];
        if !legal.contains(&action) {
            let why = match &self.phase {
                Phase::Over => "the hand is over".to_string(),
                _ if legal.is_empty() => "it is not this seat's decision".to_string(),
                _ => format!(
                    "legal now: {}",
                    legal
                        .iter()
                        .map(|a| a.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            return Err(self.illegal(seat, action, why));
        }
        match self.phase.clone() {
            Phase::Turn {
                drew, replacement, ..
            } => self.act_on_turn(seat, action, drew, replacement),
            Phase::Claims {
                from,
                tile,
                robbing,
                mut answers,
                asked,
            } => {
                answers[seat.index()] = Some(action);
                let done = (0..4).all(|i| !asked[i] || answers[i].is_some());
                self.phase = Phase::Claims {
                    from,
                    tile,
                    robbing,
                    answers,
                    asked,
                };
                self.legal[seat.index()].clear();
                if done {
                    self.resolve_claims(from, tile, robbing, answers);
                    self.refresh_legal();
                }
                return Ok(());
            }
            Phase::Over => unreachable!("no legal action when over"),
        }
        self.refresh_legal();
        Ok(())
    }

    fn act_on_turn(&mut self, seat: Wind, action: Action, drew: Option<Tile>, replacement: bool) {
        let s = seat.index();
        match action {
            Action::Hu => {
                let t = drew.expect("Hu is offered only after a draw");
                let win = self
                    .win_with(seat, t, true, replacement, self.last_tile_point)
                    .expect("offered win is valid");
                let value = win.value;
                self.events.push(Event::Hu {
                    win: Box::new(win.clone()),
                });
                self.finish(
                    Settlement::SelfDrawn {
                        winner: seat,
                        value,
                    },
                    vec![win],
                    None,
                );
            }
            Action::Discard(t) => {
                self.remove_tiles(s, t, 1);
                self.discards[s].push(t);
                self.visible[t.index()] += 1;
                self.events.push(Event::Discard { seat, tile: t });
                self.open_claims(seat, t, false);
            }
            Action::ConcealedKong(t) => {
                self.remove_tiles(s, t, 4);
                self.melds[s].push(Meld::concealed_kong(t));
                self.sync_melds(seat);
                self.events.push(Event::Kong {
                    seat,
                    tile: t,
                    kind: "concealed".into(),
                });
                self.replacement_draw(seat);
            }
            Action::PromotedKong(t) => {
                self.events.push(Event::Kong {
                    seat,
                    tile: t,
                    kind: "promoted".into(),
                });
                self.open_claims(seat, t, true);
            }
            _ => unreachable!("claim actions are not offered on a turn"),
        }
    }

    fn replacement_draw(&mut self, seat: Wind) {
        self.draw_and_act(seat, true);
    }

    /// `seat` draws (a replacement or not) and must act; an empty wall ends the hand.
    fn draw_and_act(&mut self, seat: Wind, replacement: bool) {
        match self.draw(seat, replacement) {
            Some(t) => {
                self.phase = Phase::Turn {
                    seat,
                    drew: Some(t),
                    replacement,
                }
            }
            None => self.finish(Settlement::Draw, Vec::new(), None),
        }
    }

    /// After a discard (or a promoted kong): ask the seats that have a legal claim.
    fn open_claims(&mut self, from: Wind, tile: Tile, robbing: bool) {
        let mut asked = [false; 4];
        for w in Wind::ALL {
            let mut options = std::mem::take(&mut self.legal[w.index()]);
            options.clear();
            if w != from {
                self.claim_options_into(w, from, tile, robbing, &mut options);
            }
            asked[w.index()] = options.len() > 1;
            if !asked[w.index()] {
                options.clear();
            }
            self.legal[w.index()] = options;
        }
        let answers = [None; 4];
        if asked.iter().any(|&a| a) {
            self.phase = Phase::Claims {
                from,
                tile,
                robbing,
                answers,
                asked,
            };
        } else {
            self.resolve_claims(from, tile, robbing, answers);
        }
    }

    fn resolve_claims(
        &mut self,
        from: Wind,
        tile: Tile,
        robbing: bool,
        answers: [Option<Action>; 4],
    ) {
        // Seats in turn order after the discarder.
        let order: Vec<Wind> = (1..4).map(|k| Wind::from_index(from.index() + k)).collect();
        let mut winners: Vec<Wind> = order
            .iter()
            .copied()
            .filter(|w| answers[w.index()] == Some(Action::Hu))
            .collect();
        if !winners.is_empty() {
            if !self.rules.multiple_winners {
                winners.truncate(1);
            }
            let last = self.last_tile_point && !robbing;
            let wins: Vec<WinRecord> = winners
                .iter()
                .map(|&w| {
                    self.win_with(w, tile, false, robbing, last)
                        .expect("offered win is valid")
                })
                .collect();
            for w in &wins {
                self.events.push(Event::Hu {
                    win: Box::new(w.clone()),
                });
            }
            let settle = Settlement::Discard {
                discarder: from,
                winners: wins.iter().map(|w| (w.seat, w.value)).collect(),
            };
            self.finish(settle, wins, Some(from));
            return;
        }
        if robbing {
            // Nobody robbed: the promotion stands.
            let s = from.index();
            self.remove_tiles(s, tile, 1);
            self.visible[tile.index()] += 1;
            if let Some(m) = self.melds[s]
                .iter_mut()
                .find(|m| m.kind == MeldKind::Pung && m.tile == tile)
            {
                *m = Meld::promoted_kong(tile, m.from);
            }
            self.sync_melds(from);
            self.replacement_draw(from);
            return;
        }
        for &w in &order {
            let s = w.index();
            match answers[s] {
                Some(Action::Kong) | Some(Action::Pung) => {
                    let kong = answers[s] == Some(Action::Kong);
                    let n = if kong { 3 } else { 2 };
                    self.take_discard(from, tile);
                    self.remove_tiles(s, tile, n);
                    self.visible[tile.index()] += n;
                    let rel = relative(from, w);
                    self.melds[s].push(if kong {
                        Meld::melded_kong(tile, rel)
                    } else {
                        Meld::pung(tile, rel)
                    });
                    self.sync_melds(w);
                    if kong {
                        self.events.push(Event::Kong {
                            seat: w,
                            tile,
                            kind: "melded".into(),
                        });
                        self.start_turn(w, true);
                        if !self.is_over() {
                            self.replacement_draw(w);
                        }
                    } else {
                        self.events.push(Event::Pung { seat: w, tile });
                        self.start_turn(w, true);
                    }
                    return;
                }
                _ => {}
            }
        }
        let next = from.next();
        if let Some(Action::Chow(low)) = answers[next.index()] {
            let s = next.index();
            self.take_discard(from, tile);
            for k in 0..3 {
                let x = low.offset(k).expect("chow tile");
                if x != tile {
                    self.remove_tiles(s, x, 1);
                }
                self.visible[x.index()] += 1;
            }
            self.visible[tile.index()] -= 1; // the claimed tile was already visible
            let pos = tile.rank() - low.rank() + 1;
            self.melds[s].push(Meld::chow(low, pos).expect("chow"));
            self.sync_melds(next);
            self.events.push(Event::Chow {
                seat: next,
                tile,
                low,
            });
            self.start_turn(next, true);
            return;
        }
        // Nobody claimed. After the last-tile point that ends the hand.
        if self.last_tile_point {
            self.finish(Settlement::Draw, Vec::new(), None);
        } else {
            self.start_turn(next, false);
        }
    }

    fn take_discard(&mut self, from: Wind, tile: Tile) {
        let pile = &mut self.discards[from.index()];
        if pile.last() == Some(&tile) {
            pile.pop();
        }
        // The tile moves from a discard pile into a meld: still visible.
    }

    /// Keeps the seen melds of `seat` in step with its melds.
    fn sync_melds(&mut self, seat: Wind) {
        let s = seat.index();
        self.own_melds[s].clear();
        self.own_melds[s].extend(self.melds[s].iter().map(|m| SeenMeld::Open(*m)));
        self.public_melds[s].clear();
        self.public_melds[s].extend(self.melds[s].iter().map(|m| {
            if m.kind == MeldKind::ConcealedKong {
                SeenMeld::HiddenKong
            } else {
                SeenMeld::Open(*m)
            }
        }));
    }

    /// What `seat` may know now.
    pub fn view(&self, seat: Wind) -> View<'_> {
        let s = seat.index();
        let legal: &[Action] = &self.legal[s];
        let decision = match &self.phase {
            Phase::Turn { seat: t, drew, .. } if *t == seat => Some(Decision::Turn { drew: *drew }),
            Phase::Claims {
                from,
                tile,
                robbing,
                ..
            } if !legal.is_empty() => Some(if *robbing {
                Decision::RobKong {
                    from: *from,
                    tile: *tile,
                }
            } else {
                Decision::Claim {
                    from: *from,
                    tile: *tile,
                }
            }),
            _ => None,
        };
        View {
            seat,
            prevalent: self.deal.prevalent,
            hand: Hand(&self.conc[s]),
            melds: std::array::from_fn(|i| {
                if i == s {
                    self.own_melds[i].as_slice()
                } else {
                    self.public_melds[i].as_slice()
                }
            }),
            discards: std::array::from_fn(|i| self.discards[i].as_slice()),
            wall_left: self.wall_left(),
            last_tile_point: self.last_tile_point,
            decision,
            legal,
        }
    }
}

/// A meld as another player sees it: a concealed kong shows no tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeenMeld {
    Open(#[serde(with = "crate::log::meld_text")] Meld),
    HiddenKong,
}

/// What the seat must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// Your turn; `drew` is the tile just drawn (None after a chow or pung).
    Turn { drew: Option<Tile> },
    /// A discard you may claim.
    Claim { from: Wind, tile: Tile },
    /// A promoted kong you may rob.
    RobKong { from: Wind, tile: Tile },
}

/// One seat's knowledge: its own tiles and everything public, never another player's
/// concealed tiles or an undrawn wall tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View<'a> {
    pub seat: Wind,
    pub prevalent: Wind,
    /// Own concealed tiles (the drawn tile included).
    pub hand: Hand<'a>,
    pub melds: [&'a [SeenMeld]; 4],
    pub discards: [&'a [Tile]; 4],
    pub wall_left: [usize; 4],
    pub last_tile_point: bool,
    pub decision: Option<Decision>,
    pub legal: &'a [Action],
}

/// A seat's concealed tiles, as counts; serialised as a list of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand<'a>(pub &'a Counts);

impl Hand<'_> {
    pub fn counts(&self) -> &Counts {
        self.0
    }
    pub fn tiles(&self) -> Vec<Tile> {
        counts_to_tiles(self.0)
    }
}

impl Serialize for Hand<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.tiles().serialize(s)
    }
}

pub(crate) fn counts_to_tiles(c: &Counts) -> Vec<Tile> {
    Tile::all()
        .flat_map(|t| std::iter::repeat_n(t, c[t.index()] as usize))
        .collect()
}
