//! A seat's view that owns its data: what crosses a network (the site sends it to a bot
//! account's connection) and is read back into a [`View`] for an agent.

use super::view::{counts_to_tiles, Hand};
use super::{Action, Bonus, Counts, Decision, Deserialize, SeenMeld, Serialize, Tile, View, Wind};

/// [`View`] with its own data: the same fields (and `thrown`, which a [`View`] does not
/// write), readable from JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat this view belongs to.
    pub seat: Wind,
    /// The prevalent wind.
    pub prevalent: Wind,
    /// Bonus tiles set aside by every seat.
    #[serde(default)]
    pub bonus: [Vec<Bonus>; 4],
    /// Bonus tiles discarded by every seat.
    #[serde(default)]
    pub bonus_discards: [Vec<Bonus>; 4],
    /// Own concealed tiles (the drawn tile included).
    pub hand: Vec<Tile>,
    /// Every seat's declared sets, as others see them.
    pub melds: [Vec<SeenMeld>; 4],
    /// Every seat's discards still on the table.
    pub discards: [Vec<Tile>; 4],
    /// Every discard so far in the order made, by whom.
    #[serde(default)]
    pub thrown: Vec<(Wind, Tile)>,
    /// Tiles left in each wall.
    pub wall_left: [usize; 4],
    /// Whether the last tile of the wall has been reached.
    pub last_tile_point: bool,
    /// What the seat must decide now, if anything.
    pub decision: Option<Decision>,
    /// The seat's legal actions now.
    pub legal: Vec<Action>,
    #[serde(skip)]
    counts: Option<Counts>,
}

impl SeatView {
    /// A copy of `view`.
    pub fn of(view: &View) -> SeatView {
        SeatView {
            seat: view.seat,
            prevalent: view.prevalent,
            bonus: view.bonus.map(<[Bonus]>::to_vec),
            bonus_discards: view.bonus_discards.map(<[Bonus]>::to_vec),
            hand: counts_to_tiles(view.hand.counts()),
            melds: view.melds.map(<[SeenMeld]>::to_vec),
            discards: view.discards.map(<[Tile]>::to_vec),
            thrown: view.thrown.to_vec(),
            wall_left: view.wall_left,
            last_tile_point: view.last_tile_point,
            decision: view.decision,
            legal: view.legal.to_vec(),
            counts: Some(*view.hand.counts()),
        }
    }

    /// The [`View`] an agent reads. The hand's counts are worked out once (a view read from
    /// JSON has only its tiles).
    pub fn view(&mut self) -> View<'_> {
        let counts = self.counts.get_or_insert_with(|| {
            let mut c: Counts = [0; mcr::tile::KINDS];
            for t in &self.hand {
                c[t.index()] += 1;
            }
            c
        });
        View {
            seat: self.seat,
            prevalent: self.prevalent,
            bonus: std::array::from_fn(|i| self.bonus[i].as_slice()),
            bonus_discards: std::array::from_fn(|i| self.bonus_discards[i].as_slice()),
            hand: Hand(counts),
            melds: std::array::from_fn(|i| self.melds[i].as_slice()),
            discards: std::array::from_fn(|i| self.discards[i].as_slice()),
            thrown: &self.thrown,
            wall_left: self.wall_left,
            last_tile_point: self.last_tile_point,
            decision: self.decision,
            legal: &self.legal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TableRules;
    use crate::Table;

    /// A view sent as JSON and read back is the view: every field, the hand's counts and
    /// the order of the discards included.
    #[test]
    fn a_seat_view_crosses_json_unchanged() {
        let setup = crate::wall::Setup::generate(crate::wall::WallModel::Personal, 17);
        let mut table = Table::new(setup, TableRules::seeds());
        // Play a dozen decisions by the first legal action so that discards and melds exist.
        for _ in 0..40 {
            let Some(seat) = table.next_to_act() else {
                break;
            };
            let a = table.legal(seat)[0];
            table.apply(seat, a).unwrap();
        }
        let seat = table.next_to_act().unwrap_or(Wind::East);
        let view = table.view(seat);
        let sent = serde_json::to_string(&SeatView::of(&view)).unwrap();
        let mut read: SeatView = serde_json::from_str(&sent).unwrap();
        assert!(!read.thrown.is_empty());
        assert_eq!(read.view(), view);
        assert_eq!(read.view().hand.counts(), view.hand.counts());
    }
}
