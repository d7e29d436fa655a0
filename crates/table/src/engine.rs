//! The table engine: a state machine for one hand, duplicate (rules §3) or regular (§8).
//!
//! What differs between the two is data in [`TableRules`]: the wall model (personal walls,
//! or one shared wall with bonus tiles), the number of winners per discard and the
//! payments. The wall model's own rules (where a draw comes from, when the last tile is
//! reached, when a kong has its replacement) are kept together in the `wall_*` methods.
//!
//! Ask [`Table::to_act`] who must decide, offer them [`Table::legal_actions`], and feed
//! their choices to [`Table::apply`], which refuses anything illegal without changing the
//! state. [`Table::view`] is what one seat may know.

use std::fmt;

use mcr::tile::{Counts, KINDS};
use mcr::{Meld, MeldKind, Tile, WinContext, Wind};
use serde::{Deserialize, Serialize};

use crate::deal::{wall_label_static, Deal, DealError, WALL};
use crate::log::{Event, WinRecord};
use crate::points::{match_points, Settlement};
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

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Nobody won (a washout in a regular game).
    Draw,
    /// A win from the wall.
    SelfDrawn,
    /// One or more wins on a discard or a robbed kong.
    Discard,
    /// A bot's error ended the hand ([`Action::Fault`]).
    Fault,
}

impl Outcome {
    /// The outcome as the log writes it: `draw`, `self_drawn` or `discard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Draw => "draw",
            Outcome::SelfDrawn => "self_drawn",
            Outcome::Discard => "discard",
            Outcome::Fault => "fault",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a hand: how it ended and each seat's match points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// How the hand ended.
    pub kind: Outcome,
    /// The discarder (or the promoter of a robbed kong).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub discarder: Option<Wind>,
    /// Every win, in the order of the seats after the discarder.
    pub wins: Vec<WinRecord>,
    /// The seat whose error ended the hand.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub offender: Option<Wind>,
    /// Match points by seat (E, S, W, N).
    pub points: [i32; 4],
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
        let mut t = Table {
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
            visible: [0; KINDS],
            last_tile_point: false,
            phase: Phase::Over,
            legal: std::array::from_fn(|_| Vec::with_capacity(20)),
            public_melds: Default::default(),
            own_melds: Default::default(),
            events: Vec::with_capacity(200),
            result: None,
            east_fourteenth: None,
        };
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

    /// May `seat` declare a kong now? Personal walls: the declarer's own wall must have a
    /// tile, and the last-tile point forbids it (rules §3.5, §3.8). One shared wall: a
    /// replacement tile must be left (rules §8).
    fn kong_allowed(&self, seat: Wind, claiming: bool) -> bool {
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

    /// The last-tile point of personal walls: `seat` gets the turn while the next seat's
    /// wall is empty (rules §3.8). Under [`TableRules::claims_at_last_tile`] the point is looked at anew each turn,
    /// since a claim on the last discard can hand the turn to a seat whose next seat can
    /// still draw.
    fn wall_turn_reached(&mut self, seat: Wind) {
        if let Walls::Personal { drawn } = &self.walls {
            let empty_next = drawn[seat.next().index()] >= WALL;
            if !self.last_tile_point && empty_next {
                self.last_tile_point = true;
                self.events.push(Event::LastTilePoint { seat });
            } else if self.rules.claims_at_last_tile {
                self.last_tile_point = empty_next;
            }
        }
    }

    /// The last-tile point of one shared wall: `seat` has drawn its last tile (rules §8).
    fn wall_drawn(&mut self, seat: Wind) {
        if let Walls::Shared(w) = &self.walls {
            if !self.last_tile_point && w.left() == 0 {
                self.last_tile_point = true;
                self.events.push(Event::LastTilePoint { seat });
            }
        }
    }

    /// Draws one tile for `seat`: from its own wall, or from the shared wall's live end
    /// (the back end for a replacement). A bonus tile is not added to the hand.
    fn draw_one(&mut self, seat: Wind, replacement: bool) -> Drawn {
        let s = seat.index();
        // East's fourteenth tile, replaced at the deal, is East's first draw (the deal's
        // other replacements, drawn meanwhile, are replacements: they pass by).
        if let Some((t, pos)) = self.east_fourteenth.filter(|_| !replacement) {
            self.east_fourteenth = None;
            self.add_tile(s, t);
            self.events.push(Event::Draw {
                seat,
                tile: t,
                label: position_label(pos).into(),
                replacement: true,
                end: Some(WallEnd::Back),
            });
            return Drawn::Tile(t);
        }
        let (tile, label, end) = match (&mut self.walls, &self.setup) {
            (Walls::Personal { drawn }, Setup::Duplicate(d)) => {
                if drawn[s] >= WALL {
                    return Drawn::Nothing;
                }
                let t = d.walls[s][drawn[s]];
                let label = wall_label_static(seat, drawn[s]);
                drawn[s] += 1;
                (WallTile::Tile(t), label, None)
            }
            (Walls::Shared(w), _) => {
                let end = if replacement {
                    WallEnd::Back
                } else {
                    WallEnd::Live
                };
                let Some((t, pos)) = w.take(end) else {
                    return Drawn::Nothing;
                };
                (t, position_label(pos), Some(end))
            }
            _ => unreachable!("the walls follow the setup"),
        };
        match tile {
            WallTile::Tile(t) => {
                self.add_tile(s, t);
                self.events.push(Event::Draw {
                    seat,
                    tile: t,
                    label: label.into(),
                    replacement,
                    end,
                });
                Drawn::Tile(t)
            }
            WallTile::Bonus(b) => {
                self.events.push(Event::Bonus {
                    seat,
                    bonus: b,
                    label: label.into(),
                    end,
                });
                Drawn::Bonus(b)
            }
        }
    }

    /// `seat` gets the turn: normally (draws) or by a claim (no draw).
    fn start_turn(&mut self, seat: Wind, by_claim: bool) {
        self.wall_turn_reached(seat);
        if by_claim {
            self.phase = Phase::Turn {
                seat,
                drew: None,
                replacement: false,
                bonus: None,
            };
            return;
        }
        self.draw_and_act(seat, false, false);
    }

    fn finish(&mut self, s: Settlement, wins: Vec<WinRecord>, discarder: Option<Wind>) {
        let points = match_points(&s, self.rules.payments);
        let kind = match s {
            Settlement::Draw => Outcome::Draw,
            Settlement::SelfDrawn { .. } => Outcome::SelfDrawn,
            Settlement::Discard { .. } => Outcome::Discard,
        };
        let result = HandResult {
            kind,
            discarder,
            wins,
            offender: None,
            points,
        };
        self.events.push(Event::End {
            result: Box::new(result.clone()),
        });
        self.result = Some(result);
        self.phase = Phase::Over;
    }

    /// Ends the hand on `seat`'s error, paid as the rules say. A hand that has just ended
    /// drawn can still take one: the Botzone judge asks every seat about the last discard
    /// before it calls the draw, and scores a wrong answer there as an error.
    fn fault(&mut self, seat: Wind) -> Result<(), IllegalAction> {
        let drawn = self
            .result
            .as_ref()
            .is_some_and(|r| r.kind == Outcome::Draw);
        let why = match (self.rules.error_penalty, &self.phase) {
            (Some(_), Phase::Over) if !drawn => "the hand is over",
            (None, Phase::Over) => "the hand is over",
            (None, _) => "these rules go on after a bot's error",
            (Some(p), _) => {
                if drawn {
                    self.events.pop(); // the draw's End, replaced below
                }
                let mut points = [p.others; 4];
                points[seat.index()] = -p.offender;
                let result = HandResult {
                    kind: Outcome::Fault,
                    discarder: None,
                    wins: Vec::new(),
                    offender: Some(seat),
                    points,
                };
                self.events.push(Event::End {
                    result: Box::new(result.clone()),
                });
                self.result = Some(result);
                self.phase = Phase::Over;
                self.refresh_legal();
                return Ok(());
            }
        };
        Err(self.illegal(seat, Action::Fault, why.to_string()))
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
    fn turn_options(&self, seat: Wind, out: &mut Vec<Action>) {
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

    fn illegal(&self, seat: Wind, action: Action, reason: impl Into<String>) -> IllegalAction {
        IllegalAction {
            seat,
            action,
            reason: reason.into(),
        }
    }

    /// Applies one decision; an illegal one changes nothing.
    pub fn apply(&mut self, seat: Wind, action: Action) -> Result<(), IllegalAction> {
        if action == Action::Fault {
            return self.fault(seat);
        }
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
                drew,
                replacement,
                bonus,
                ..
            } => self.act_on_turn(seat, action, drew, replacement, bonus),
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

    fn act_on_turn(
        &mut self,
        seat: Wind,
        action: Action,
        drew: Option<Tile>,
        replacement: bool,
        bonus: Option<Bonus>,
    ) {
        let s = seat.index();
        match action {
            Action::Bonus => {
                self.bonus[s].extend(bonus);
                let kong = replacement && !self.rules.bonus_breaks_kong_replacement;
                self.draw_and_act(seat, kong, true);
            }
            Action::DiscardBonus => {
                let b = bonus.expect("offered only with a bonus tile drawn");
                self.bonus_discards[s].push(b);
                self.events.push(Event::DiscardBonus { seat, bonus: b });
                self.start_turn(seat.next(), false);
            }
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
        self.draw_and_act(seat, true, true);
    }

    /// `seat` draws and must act; `kong` marks a kong's replacement (a bonus tile drawn
    /// on the way ends it, seeds/004 #46, unless the rules' version kept it), `from_back`
    /// a replacement of any kind. Bonus tiles are set aside and replaced unless the rules
    /// let the player discard them. No tile left ends the hand.
    fn draw_and_act(&mut self, seat: Wind, kong: bool, from_back: bool) {
        let mut from_back = from_back;
        let mut kong = kong;
        loop {
            match self.draw_one(seat, from_back) {
                Drawn::Tile(t) => {
                    self.wall_drawn(seat);
                    self.phase = Phase::Turn {
                        seat,
                        drew: Some(t),
                        replacement: kong,
                        bonus: None,
                    };
                    return;
                }
                Drawn::Bonus(b) if self.rules.bonus_discard => {
                    self.phase = Phase::Turn {
                        seat,
                        drew: None,
                        replacement: kong,
                        bonus: Some(b),
                    };
                    return;
                }
                Drawn::Bonus(b) => {
                    self.bonus[seat.index()].push(b);
                    from_back = true;
                    kong &= !self.rules.bonus_breaks_kong_replacement;
                }
                Drawn::Nothing => {
                    self.finish(Settlement::Draw, Vec::new(), None);
                    return;
                }
            }
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
            Phase::Turn {
                seat: t,
                drew,
                bonus,
                ..
            } if *t == seat => Some(Decision::Turn {
                drew: *drew,
                bonus: *bonus,
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
    Open(#[serde(with = "crate::log::meld_text")] Meld),
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
