//! What one seat may know: its own tiles, everyone's open melds and discards, and
//! the decision it faces; never another seat's concealed tiles or the wall.

use super::{Action, Bonus, Counts, Deserialize, Meld, Phase, Serialize, Table, Tile, Wind};

impl Table {
    /// What `seat` may know now.
    pub fn view(&self, seat: Wind) -> View<'_> {
        let s = seat.index();
        let legal: &[Action] = &self.legal[s];
        let decision = match &self.phase {
            Phase::Turn {
                seat: t,
                drew,
                bonus,
                replacement,
            } if *t == seat => Some(Decision::Turn {
                drew: *drew,
                bonus: *bonus,
                replacement: *replacement,
            }),
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
            prevalent: self.setup.prevalent(),
            bonus: std::array::from_fn(|i| self.bonus[i].as_slice()),
            bonus_discards: std::array::from_fn(|i| self.bonus_discards[i].as_slice()),
            hand: Hand(&self.conc[s]),
            melds: std::array::from_fn(|i| {
                if i == s {
                    self.own_melds[i].as_slice()
                } else {
                    self.public_melds[i].as_slice()
                }
            }),
            discards: std::array::from_fn(|i| self.discards[i].as_slice()),
            thrown: &self.thrown,
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
    /// A set every seat sees.
    Open(#[serde(with = "crate::record::meld_text")] Meld),
    /// A concealed kong: its tile is not shown.
    HiddenKong,
}

/// What the seat must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// Your turn; `drew` is the tile just drawn (None after a chow or pung), `bonus` a
    /// bonus tile just drawn that you may set aside or discard (only under rules that
    /// allow discarding it).
    Turn {
        /// The tile just drawn.
        drew: Option<Tile>,
        /// A bonus tile just drawn.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        bonus: Option<Bonus>,
        /// Whether `drew` was drawn as a replacement, which a win on it scores (Out with
        /// Replacement Tile); everyone saw what it replaced.
        #[serde(skip_serializing_if = "std::ops::Not::not", default)]
        replacement: bool,
    },
    /// A discard you may claim.
    Claim {
        /// Whose discard it is.
        from: Wind,
        /// The tile discarded.
        tile: Tile,
    },
    /// A promoted kong you may rob.
    RobKong {
        /// Who is promoting.
        from: Wind,
        /// The tile added to the pung.
        tile: Tile,
    },
}

/// One seat's knowledge: its own tiles and everything public, never another player's
/// concealed tiles or an undrawn wall tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View<'a> {
    /// The seat this view belongs to.
    pub seat: Wind,
    /// The prevalent wind.
    pub prevalent: Wind,
    /// Bonus tiles set aside by every seat (face up for everyone; none in duplicate).
    #[serde(skip_serializing_if = "no_bonus")]
    pub bonus: [&'a [Bonus]; 4],
    /// Bonus tiles discarded by every seat (only under rules that allow it).
    #[serde(skip_serializing_if = "no_bonus")]
    pub bonus_discards: [&'a [Bonus]; 4],
    /// Own concealed tiles (the drawn tile included).
    pub hand: Hand<'a>,
    /// Every seat's declared sets, as others see them.
    pub melds: [&'a [SeenMeld]; 4],
    /// Every seat's discards still on the table.
    pub discards: [&'a [Tile]; 4],
    /// Every tile discard so far in the order made, by whom, claimed ones included: what
    /// everyone at the table saw. Not sent to clients, which keep their own order.
    #[serde(skip)]
    pub thrown: &'a [(Wind, Tile)],
    /// Tiles left in each wall (one shared wall: the same figure four times).
    pub wall_left: [usize; 4],
    /// Whether the last tile of the wall has been reached.
    pub last_tile_point: bool,
    /// What the seat must decide now, if anything.
    pub decision: Option<Decision>,
    /// The seat's legal actions now.
    pub legal: &'a [Action],
}

fn no_bonus(b: &[&[Bonus]; 4]) -> bool {
    b.iter().all(|x| x.is_empty())
}

/// A seat's concealed tiles, as counts; serialised as a list of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand<'a>(pub &'a Counts);

impl Hand<'_> {
    /// Counts of the tiles by kind.
    pub fn counts(&self) -> &Counts {
        self.0
    }
    /// The tiles, sorted.
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
