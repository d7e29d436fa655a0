//! The table engine: a state machine for one hand, duplicate (rules §3) or regular (§8).
//!
//! What differs between the two is data in [`TableRules`]: the wall model (personal walls,
//! or one shared wall with bonus tiles), the number of winners per discard and the
//! payments. The wall model's own rules (where a draw comes from, when the last tile is
//! reached, when a kong has its replacement) are kept together in the `wall_*` methods
//! of `draw.rs`; what a seat may do is in `options.rs`, applying a decision in `apply.rs`,
//! and what a seat may see in `view.rs`.
//!
//! Ask [`Table::to_act`] who must decide, offer them [`Table::legal_actions`], and feed
//! their choices to [`Table::apply`], which refuses anything illegal without changing the
//! state. [`Table::view`] is what one seat may know.

mod apply;
mod draw;
mod options;
mod seat_view;
mod view;
mod world;
pub use seat_view::SeatView;
pub(crate) use view::counts_to_tiles;
pub use view::{Decision, Hand, SeenMeld, View};
pub use world::{announced, unseen, unseen_bonus, Hidden, HiddenSizes};

use std::fmt;

use mcr::tile::{Counts, KINDS};
use mcr::{Meld, MeldKind, Tile, WinContext, Wind};
use serde::{Deserialize, Serialize};

use crate::deal::{wall_label_static, Deal, DealError, WALL};
use crate::points::{match_points, Settlement};
use crate::record::{Event, WinRecord};
pub use crate::record::{HandResult, Outcome};
use crate::rules::EastFourteenth;
use crate::rules::TableRules;
use crate::wall::{position_label, Bonus, Setup, SharedWall, WallEnd, WallModel, WallTile, DEALT};

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
    /// Pung the discard.
    Pung,
    /// Kong the discard with three held tiles.
    Kong,
    /// Set aside the bonus tile just drawn and draw a replacement (offered only when the
    /// rules let a bonus tile be discarded instead; otherwise the engine does it).
    Bonus,
    /// Discard the bonus tile just drawn; nobody may claim it.
    DiscardBonus,
    /// The seat's bot broke its protocol (crashed, timed out, answered something unreadable
    /// or illegal). Never offered; accepted at any time under rules with an
    /// [`crate::rules::ErrorPenalty`], and it ends the hand.
    Fault,
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
            Action::Bonus => write!(f, "set aside the bonus tile"),
            Action::DiscardBonus => write!(f, "discard the bonus tile"),
            Action::Fault => write!(f, "an error of the bot"),
        }
    }
}

/// An action refused by the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// Who tried it.
    pub seat: Wind,
    /// What they tried.
    pub action: Action,
    /// Why it is not allowed.
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
        /// The tile was a kong's replacement (Out with Replacement Tile).
        replacement: bool,
        /// A bonus tile just drawn, waiting to be set aside or discarded.
        bonus: Option<Bonus>,
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

/// Where the undrawn tiles are: one wall per seat, or one shared wall.
#[derive(Clone, Debug)]
enum Walls {
    /// Tiles drawn from each seat's personal wall.
    Personal {
        drawn: [usize; 4],
    },
    Shared(Box<SharedWall>),
}

/// What a draw brought.
enum Drawn {
    Tile(Tile),
    Bonus(Bonus),
    /// No tile was left to draw.
    Nothing,
}

/// One hand in play.
#[derive(Clone, Debug)]
pub struct Table {
    rules: TableRules,
    setup: Setup,
    walls: Walls,
    /// Each seat's 13 tiles once the deal (and its bonus replacements) is done.
    start_hands: [[Tile; 13]; 4],
    /// Events written by the deal itself (bonus tiles set aside and replaced), and how
    /// many bonus tiles each seat had set aside by then.
    dealt_events: usize,
    dealt_bonus: [usize; 4],
    /// Bonus tiles set aside, and discarded, by seat.
    bonus: [Vec<Bonus>; 4],
    bonus_discards: [Vec<Bonus>; 4],
    conc: [Counts; 4],
    /// Per seat: tiles per group (three suits, honours) and the kinds held, kept with
    /// `conc` so that most win checks end without looking at the counts.
    group_size: [[u8; 4]; 4],
    held: [u64; 4],
    melds: [Vec<Meld>; 4],
    discards: [Vec<Tile>; 4],
    /// Every tile discard in the order made, claimed ones included (public: everyone at
    /// the table saw them thrown).
    thrown: Vec<(Wind, Tile)>,
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
    /// East's fourteenth tile when it came with the deal as the replacement of a bonus
    /// tile (its position in the wall): shown as East's first draw once the deal is over.
    east_fourteenth: Option<(Tile, usize)>,
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
    /// Seats a hand: everyone takes their starting tiles and East draws.
    ///
    /// Panics when the setup is not of the rules' wall model (a duplicate deal under
    /// regular rules): setups read from data go through [`Table::start`].
    pub fn new(setup: impl Into<Setup>, rules: TableRules) -> Table {
        Table::start(setup.into(), rules).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Seats a hand, refusing a setup that the rules do not play.
    pub fn start(setup: Setup, rules: TableRules) -> Result<Table, DealError> {
        if setup.model() != rules.wall {
            let name = |m: WallModel| match m {
                WallModel::Personal => "a duplicate deal (personal walls)",
                WallModel::Shared => "a regular wall (one shared wall)",
            };
            return Err(DealError(format!(
                "the rules '{}' play on {}, but the deal is {}",
                rules.name,
                name(rules.wall),
                name(setup.model())
            )));
        }
        let walls = match &setup {
            Setup::Duplicate(_) => Walls::Personal { drawn: [0; 4] },
            Setup::Regular(w) => Walls::Shared(Box::new(SharedWall::new(w.clone()))),
        };
        let mut t = Table::blank(rules, setup, walls);
        match &t.setup {
            Setup::Duplicate(d) => {
                let hands = d.hands;
                for (s, hand) in hands.iter().enumerate() {
                    hand.iter().for_each(|&x| t.add_tile(s, x));
                }
            }
            Setup::Regular(_) => t.deal_shared(),
        }
        for s in 0..4 {
            let tiles = counts_to_tiles(&t.conc[s]);
            t.start_hands[s].copy_from_slice(&tiles);
        }
        t.dealt_events = t.events.len();
        t.dealt_bonus = std::array::from_fn(|s| t.bonus[s].len());
        t.start_turn(Wind::East, false);
        t.refresh_legal();
        Ok(t)
    }

    /// A table with its walls and nobody's tiles yet: the start of a deal, or of a table
    /// rebuilt from a view.
    fn blank(rules: TableRules, setup: Setup, walls: Walls) -> Table {
        Table {
            rules,
            setup,
            walls,
            start_hands: [[Tile::EAST; 13]; 4],
            dealt_events: 0,
            dealt_bonus: [0; 4],
            bonus: Default::default(),
            bonus_discards: Default::default(),
            conc: [[0u8; KINDS]; 4],
            group_size: [[0u8; 4]; 4],
            held: [0; 4],
            melds: std::array::from_fn(|_| Vec::with_capacity(4)),
            discards: std::array::from_fn(|_| Vec::with_capacity(32)),
            thrown: Vec::with_capacity(96),
            visible: [0; KINDS],
            last_tile_point: false,
            phase: Phase::Over,
            legal: std::array::from_fn(|_| Vec::with_capacity(20)),
            public_melds: Default::default(),
            own_melds: Default::default(),
            events: Vec::with_capacity(200),
            result: None,
            east_fourteenth: None,
        }
    }

    /// The regular deal (module docs of [`crate::wall`]): 13 tiles each from the live end,
    /// then, seat by seat from East, every bonus tile set aside and replaced from the back.
    /// East's fourteenth tile (position 53) comes with the deal when the rules say so: a
    /// bonus tile there is East's to declare before South's, and the tile that replaces it
    /// is East's first draw; a playing tile there is drawn as usual when play begins.
    fn deal_shared(&mut self) {
        let with_deal = self.rules.east_fourteenth == EastFourteenth::WithTheDeal;
        let Walls::Shared(w) = &mut self.walls else {
            return;
        };
        let mut dealt: [Vec<(Bonus, usize)>; 4] = Default::default();
        let mut tiles: [Vec<Tile>; 4] = Default::default();
        for s in 0..4 {
            for _ in 0..DEALT {
                match w.take(WallEnd::Live).expect("the deal fits in the wall") {
                    (WallTile::Tile(t), _) => tiles[s].push(t),
                    (WallTile::Bonus(b), pos) => dealt[s].push((b, pos)),
                }
            }
        }
        let mut fourteenth = None;
        if with_deal && matches!(w.peek(WallEnd::Live), Some(WallTile::Bonus(_))) {
            if let Some((WallTile::Bonus(b), pos)) = w.take(WallEnd::Live) {
                dealt[0].push((b, pos));
                fourteenth = Some(pos);
            }
        }
        for (s, list) in tiles.iter().enumerate() {
            list.iter().for_each(|&x| self.add_tile(s, x));
        }
        for (s, list) in dealt.into_iter().enumerate() {
            let seat = Wind::from_index(s);
            for (b, pos) in list {
                self.bonus[s].push(b);
                self.events.push(Event::Bonus {
                    seat,
                    bonus: b,
                    label: position_label(pos).into(),
                    end: None,
                });
                if fourteenth == Some(pos) {
                    self.replace_fourteenth();
                    continue;
                }
                // Replace it from the back; a bonus tile drawn there is set aside in turn.
                while let Drawn::Bonus(b) = self.draw_one(seat, true) {
                    self.bonus[s].push(b);
                }
            }
        }
    }

    /// Replaces East's fourteenth tile, a bonus tile, from the back: further bonus tiles are
    /// set aside, and the playing tile is kept for East's first draw.
    fn replace_fourteenth(&mut self) {
        loop {
            let Walls::Shared(w) = &mut self.walls else {
                return;
            };
            match w.take(WallEnd::Back) {
                Some((WallTile::Bonus(b), pos)) => {
                    self.bonus[0].push(b);
                    self.events.push(Event::Bonus {
                        seat: Wind::East,
                        bonus: b,
                        label: position_label(pos).into(),
                        end: Some(WallEnd::Back),
                    });
                }
                Some((WallTile::Tile(t), pos)) => {
                    self.east_fourteenth = Some((t, pos));
                    return;
                }
                None => return,
            }
        }
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

    /// The rules of this table.
    pub fn rules(&self) -> &TableRules {
        &self.rules
    }
    /// The tiles of this hand: a duplicate deal or a regular wall.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    /// The duplicate deal, when this hand is played on one.
    pub fn deal(&self) -> Option<&Deal> {
        match &self.setup {
            Setup::Duplicate(d) => Some(d),
            Setup::Regular(_) => None,
        }
    }
    /// A seat's 13 tiles when play began (after its bonus tiles were replaced).
    pub fn start_hand(&self, seat: Wind) -> &[Tile; 13] {
        &self.start_hands[seat.index()]
    }
    /// How many of [`Table::events`] the deal itself wrote (bonus tiles set aside and
    /// replaced before East's first draw).
    pub fn dealt_events(&self) -> usize {
        self.dealt_events
    }
    /// Bonus tiles a seat has set aside.
    pub fn bonus(&self, seat: Wind) -> &[Bonus] {
        &self.bonus[seat.index()]
    }
    /// Bonus tiles a seat discarded (only under rules that allow it).
    pub fn bonus_discards(&self, seat: Wind) -> &[Bonus] {
        &self.bonus_discards[seat.index()]
    }
    /// Bonus tiles a seat set aside during the deal, before play began.
    pub fn start_bonus(&self, seat: Wind) -> &[Bonus] {
        &self.bonus[seat.index()][..self.dealt_bonus[seat.index()]]
    }
    /// Every event so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The result, once the hand is over.
    pub fn result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }
    /// Whether the hand has ended.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }
    /// Tiles left in each seat's wall; with one shared wall, its count for every seat.
    pub fn wall_left(&self) -> [usize; 4] {
        match &self.walls {
            Walls::Personal { drawn } => std::array::from_fn(|s| WALL - drawn[s]),
            Walls::Shared(w) => [w.left(); 4],
        }
    }
    /// Whether the last tile of the wall has been reached (rules §3.8).
    pub fn last_tile_point(&self) -> bool {
        self.last_tile_point
    }
    /// Concealed tiles of a seat (the referee's view).
    pub fn concealed(&self, seat: Wind) -> Vec<Tile> {
        counts_to_tiles(&self.conc[seat.index()])
    }
    /// A seat's declared sets.
    pub fn melds(&self, seat: Wind) -> &[Meld] {
        &self.melds[seat.index()]
    }
    /// A seat's discards still in front of it (claimed ones are gone).
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
        }
        match (&self.walls, &self.setup) {
            (Walls::Personal { drawn }, Setup::Duplicate(d)) => {
                for (wall, &n) in d.walls.iter().zip(drawn) {
                    for t in &wall[n..] {
                        c[t.index()] += 1;
                    }
                }
            }
            (Walls::Shared(w), _) => {
                for t in w.undrawn() {
                    if let WallTile::Tile(t) = t {
                        c[t.index()] += 1;
                    }
                }
            }
            _ => unreachable!("the walls follow the setup"),
        }
        // A kong being promoted (pending robbing) holds its tile in the hand still.
        c
    }

    /// Where each bonus tile is (H1…H8): set aside, discarded, just drawn or in the wall.
    /// A referee's check: each must be counted once in a regular hand, never in duplicate.
    pub fn bonus_census(&self) -> [u8; 8] {
        let mut c = [0u8; 8];
        let mut add = |b: &Bonus| c[b.number() as usize - 1] += 1;
        self.bonus
            .iter()
            .chain(&self.bonus_discards)
            .flatten()
            .for_each(&mut add);
        if let Phase::Turn { bonus: Some(b), .. } = &self.phase {
            add(b);
        }
        if let Walls::Shared(w) = &self.walls {
            for t in w.undrawn() {
                if let WallTile::Bonus(b) = t {
                    add(b);
                }
            }
        }
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
}
