//! What a seat may do now: the options of a turn and of a claim, kept in `legal`
//! after every change, and the cheap test that rules out a win before scoring it.

use super::{
    counts_to_tiles, Action, IllegalAction, MeldKind, Phase, Table, Tile, Walls, WinContext,
    WinRecord, Wind, WALL,
};

impl Table {
    /// A necessary condition for `seat` to win with `tile` (added unless self-drawn): the
    /// group sizes allow four sets and a pair, or the kinds held allow a special shape.
    pub(super) fn could_win(&self, s: usize, tile: Tile, self_drawn: bool) -> bool {
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
    pub(super) fn refresh_legal(&mut self) {
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

    /// May `seat` declare a kong now? Personal walls: the declarer's own wall must have a
    /// tile, and the last-tile point forbids it (rules §3.5, §3.8). One shared wall: a
    /// replacement tile must be left (rules §8).
    pub(super) fn kong_allowed(&self, seat: Wind, claiming: bool) -> bool {
        match &self.walls {
            Walls::Personal { drawn } => {
                if self.last_tile_point && !self.rules.kong_after_last_tile {
                    return false;
                }
                drawn[seat.index()] < WALL
                    || (claiming && self.rules.kong_on_empty_wall && !self.last_tile_point)
            }
            Walls::Shared(w) => !self.last_tile_point && w.left() > 0,
        }
    }

    /// The win `seat` would score with `tile` now, if it is a legal win (≥ minimum).
    pub(super) fn win_with(
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
            prevalent_wind: self.setup.prevalent(),
            flowers: self.bonus[s].len() as u8,
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
    pub(super) fn turn_options(&self, seat: Wind, out: &mut Vec<Action>) {
        let s = seat.index();
        let Phase::Turn {
            seat: turn,
            drew,
            replacement,
            bonus,
        } = &self.phase
        else {
            return;
        };
        if *turn != seat {
            return;
        }
        if bonus.is_some() {
            out.extend([Action::Bonus, Action::DiscardBonus]);
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
    pub(super) fn claim_options_into(
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
        if robbing || self.last_tile_point && !self.rules.claims_at_last_tile {
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

    pub(super) fn illegal(
        &self,
        seat: Wind,
        action: Action,
        reason: impl Into<String>,
    ) -> IllegalAction {
        IllegalAction {
            seat,
            action,
            reason: reason.into(),
        }
    }
}
