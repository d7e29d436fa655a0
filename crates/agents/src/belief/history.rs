//! What the order of the discards says about another seat's hand. A hand as it stands
//! has not changed since the seat's latest discard (nothing but its own turn changes it),
//! and strong always takes a win: a ready hand could not have let a winning tile that
//! another seat threw since then pass, nor have been complete with the tile it threw last.
//! Further back the hand was one tile different at each turn, and often the same (a tile
//! drawn and thrown), so the same reading of older turns ([`WINDOWS`] of them) is
//! evidence too, weaker with age. The chains weigh a world's ready hands by the first turn
//! that refutes them (`crate::expert::PASSES`).

use mcr::tile::Counts;
use mcr::{Meld, Tile, Wind};

use table::engine::{Decision, View};

/// Turns of a seat's history read.
pub const WINDOWS: usize = 4;

/// A seat's turns, newest first, as the order of the discards shows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// By age (0: since the seat's latest discard, 1: between the one before and it, …):
    /// the kinds the others threw (bits by tile index).
    passed: [u64; WINDOWS],
    /// By age: the seat's own discard that began the turn's window.
    own: [Option<Tile>; WINDOWS],
}

impl History {
    /// Seat `s`'s history in `view`; a discard still open to claims has not been passed.
    pub fn of(view: &View, s: usize) -> History {
        let thrown = view.thrown;
        let mut open = thrown.len();
        if let Some(Decision::Claim { .. }) = view.decision {
            open = open.saturating_sub(1);
        }
        let mut h = History::default();
        let mut end = thrown.len();
        for age in 0..WINDOWS {
            let last = thrown[..end].iter().rposition(|(w, _)| w.index() == s);
            let since = last.map_or(0, |i| i + 1);
            h.passed[age] = thrown[since.min(open)..end.min(open)]
                .iter()
                .fold(0, |bits, (_, t)| bits | 1 << t.index());
            h.own[age] = last.map(|i| thrown[i].1);
            match last {
                Some(i) => end = i,
                None => break,
            }
        }
        h
    }

    /// The first age at which a hand waiting on `waits` goes against this history.
    pub(super) fn refutes(&self, waits: &[mcr::Wait]) -> Option<usize> {
        (0..WINDOWS).find(|&age| {
            waits.iter().any(|w| {
                (w.discard_ok && self.passed[age] & 1 << w.tile.index() != 0)
                    || (Some(w.tile) == self.own[age] && (w.self_drawn_ok || w.discard_ok))
            })
        })
    }

    /// The first age at which this history refutes seat `s` holding `c` beside `sets`
    /// (none for a hand that is not ready, or one the history allows).
    pub fn refuted_at(
        &self,
        view: &View,
        s: usize,
        c: &Counts,
        sets: &[Meld],
        rules: &mcr::Rules,
    ) -> Option<usize> {
        let flowers = view.bonus[s].len() as u8;
        let waits =
            crate::strong::waits_at(Wind::from_index(s), view.prevalent, flowers, c, sets, rules);
        self.refutes(&waits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use crate::belief::{counts, near};
    use crate::strong::PlanBot;
    use table::engine::{Table, View};
    use table::rules::TableRules;
    use table::wall::{Setup, WallModel};

    fn tile(s: &str) -> Tile {
        mcr::parse_tiles(s).unwrap()[0]
    }

    fn bits(tiles: &str) -> u64 {
        (mcr::parse_tiles(tiles).unwrap().iter()).fold(0, |b, t| b | 1 << t.index())
    }

    /// A view that shows only the order of the discards and the decision.
    fn view<'a>(thrown: &'a [(Wind, Tile)], decision: Option<Decision>) -> View<'a> {
        static EMPTY: Counts = [0; mcr::tile::KINDS];
        View {
            seat: Wind::East,
            prevalent: Wind::East,
            bonus: [&[]; 4],
            bonus_discards: [&[]; 4],
            hand: table::engine::Hand(&EMPTY),
            melds: [&[]; 4],
            discards: [&[]; 4],
            thrown,
            wall_left: [20; 4],
            last_tile_point: false,
            decision,
            legal: &[],
        }
    }

    /// Each turn's window holds what the others threw between the seat's discards, the
    /// seat's own discard begins it, and a discard still open to claims is not in it.
    #[test]
    fn the_windows_follow_the_order_of_the_discards() {
        use Wind::*;
        let order = [
            (East, "1m"),
            (South, "2m"),
            (West, "3m"),
            (North, "4m"),
            (East, "5m"),
            (South, "6m"),
            // West's 7m, punged by East, who then threw 8m: South's turn was skipped.
            (West, "7m"),
            (East, "8m"),
            (South, "9m"),
            (West, "1p"),
        ];
        let thrown: Vec<(Wind, Tile)> = order.iter().map(|&(w, t)| (w, tile(t))).collect();
        let south = History::of(&view(&thrown, None), South.index());
        assert_eq!(south.own[0], Some(tile("9m")));
        assert_eq!(south.passed[0], bits("1p"));
        assert_eq!(south.own[1], Some(tile("6m")));
        assert_eq!(south.passed[1], bits("7m8m"));
        assert_eq!(south.own[2], Some(tile("2m")));
        assert_eq!(south.passed[2], bits("3m4m5m"));
        // Before its first discard the seat held its dealt hand: East's 1m passed it.
        assert_eq!(south.own[3], None);
        assert_eq!(south.passed[3], bits("1m"));
        // North has thrown once; since then, everything the others threw.
        let north = History::of(&view(&thrown, None), North.index());
        assert_eq!(north.own[0], Some(tile("4m")));
        assert_eq!(north.passed[0], bits("5m6m7m8m9m1p"));
        assert_eq!(north.passed[1], bits("1m2m3m"));
        assert_eq!((north.own[1], north.passed[2]), (None, 0));
        // West's 1p is open to claims: nobody has let it pass yet.
        let claim = Some(Decision::Claim {
            from: West,
            tile: tile("1p"),
        });
        let south = History::of(&view(&thrown, claim), South.index());
        assert_eq!((south.own[0], south.passed[0]), (Some(tile("9m")), 0));
        assert_eq!(
            History::of(&view(&thrown, claim), West.index()).own[0],
            Some(tile("1p"))
        );
    }

    /// A ready hand is refuted by a winning tile it let pass, or by its own discard that
    /// would have completed it, at the age of that turn; a tile it cannot win on (too few
    /// points, or not a winning tile) refutes nothing.
    #[test]
    fn a_ready_hand_is_refuted_by_a_win_it_let_pass() {
        use Wind::*;
        let rules = TableRules::seeds().scoring;
        // South: 123m 456m 789m 123p 5p, waiting on 5p alone (Pure Straight: 16 points).
        let hand = counts(&mcr::parse_tiles("123456789m1235p").unwrap());
        let at = |order: &[(Wind, &str)]| {
            let thrown: Vec<(Wind, Tile)> = order.iter().map(|&(w, t)| (w, tile(t))).collect();
            let v = view(&thrown, None);
            History::of(&v, South.index()).refuted_at(&v, South.index(), &hand, &[], &rules)
        };
        assert_eq!(at(&[(South, "E"), (West, "5p")]), Some(0));
        assert_eq!(at(&[(South, "E"), (West, "4p")]), None);
        assert_eq!(
            at(&[(South, "5p"), (West, "4p")]),
            Some(0),
            "its own last discard"
        );
        assert_eq!(
            at(&[(East, "5p"), (South, "E"), (West, "4p"), (South, "S")]),
            Some(2),
            "East's 5p passed South before South's last two discards"
        );
        // Not ready: nothing to refute.
        let far = counts(&mcr::parse_tiles("13579m2468p135sE").unwrap());
        let thrown = [(West, tile("1m"))];
        let v = view(&thrown, None);
        assert_eq!(
            History::of(&v, South.index()).refuted_at(&v, South.index(), &far, &[], &rules),
            None
        );
    }

    /// The order of the discards never refutes a true hand at its latest turn (strong
    /// always takes a win). Strong's self-play on 12 deals, every other seat's true ready
    /// hand at every decision.
    #[test]
    fn the_order_of_the_discards_never_refutes_a_true_hand() {
        let rules = TableRules::seeds();
        let (mut ready, mut older) = (0, 0);
        for seed in 0..12u64 {
            let mut t = Table::new(
                Setup::generate(WallModel::Personal, 700 + seed),
                rules.clone(),
            );
            let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
            while let Some(seat) = t.next_to_act() {
                let view = t.view(seat);
                for o in Wind::ALL.into_iter().filter(|&o| o != seat) {
                    let c = counts(&t.concealed(o));
                    if near(&c, t.melds(o), o, view.prevalent) != 0 {
                        continue;
                    }
                    ready += 1;
                    let h = History::of(&view, o.index());
                    let age = h.refuted_at(&view, o.index(), &c, t.melds(o), &rules.scoring);
                    assert_ne!(
                        age,
                        Some(0),
                        "deal {}: {o:?}'s true hand {:?} at {seat:?}'s decision {:?}",
                        700 + seed,
                        t.concealed(o),
                        view.decision,
                    );
                    older += age.is_some() as usize;
                }
                let a = bots[seat.index()].act(&view);
                t.apply(seat, a).unwrap();
            }
        }
        println!("true ready hands {ready}, refuted by an older turn {older}");
        assert!(ready > 100, "{ready}");
    }
}
