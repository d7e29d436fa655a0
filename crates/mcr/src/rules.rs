//! Rule profiles: the points where rule books disagree, as data.
//!
//! `seeds` (the default) follows the project's scoring document (S4, the WMO
//! reading); `reference` follows the widely used reference calculator (1998 Chinese rules
//! as it implements them), so the two can be compared hand by hand.

use crate::fan::Fan;

/// Which rule book a profile follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The project's scoring rule book (S4 in docs/rules.md).
    Seeds,
    /// The widely used reference calculator's conventions.
    Reference,
}

/// Everything about scoring that differs between rule books.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which rule book this profile follows.
    pub profile: Profile,
    /// Points of one occurrence of each fan, indexed by fan number − 1.
    points: [u8; 82],
    /// A hand needs this many points, flowers not counted, to win (8 in MCR).
    pub min_points: u8,
    /// One melded plus one concealed kong scores the single fan "Concealed Kong and
    /// Melded Kong" (number 82) instead of Melded Kong + Concealed Kong. S4 (note
    /// under #57) and the reference both do; the 1998 book counts the two fans separately.
    pub concealed_and_melded_kong_fan: bool,
    /// Knitted Straight may score Edge Wait or Closed Wait (from its extra chow; a tile of
    /// the knitted straight itself never scores a wait fan). The reference does; S4
    /// #35 says Knitted Straight "may not be combined with Edge Wait or Closed Wait".
    /// (The reference's notes describe a build option that lets a knitted tile itself score
    /// a wait; 100,000 hands through its PyPI build showed no such case.)
    pub knitted_straight_edge_closed: bool,
    /// Four Concealed Pungs won by self-draw scores Fully Concealed Hand. S4 #12: "It
    /// may be combined with Fully Concealed if the winning tile is Self-Drawn"; the reference
    /// scores Self-Drawn instead.
    pub four_concealed_pungs_fully_concealed: bool,
    /// All Terminals may score Double Pung. S4 #08: "It may be combined with Double
    /// Pong or Triple Pong"; the reference drops Double Pung.
    pub all_terminals_double_pung: bool,
    /// A self-drawn special shape (Seven Pairs, Seven Shifted Pairs, Thirteen Orphans,
    /// Honours and Knitted, Nine Gates) scores Fully Concealed Hand. S4 says so under
    /// each of them ("may be combined with Fully Concealed if the winning tile is
    /// Self-Drawn"); the reference scores Self-Drawn instead.
    pub special_shapes_fully_concealed: bool,
    /// All Green excludes Half Flush. The 1998 book and the reference say so; S4 #03
    /// says All Green "may be combined with either Half Flush or Full Flush".
    pub all_green_excludes_half_flush: bool,
    /// Seven Pairs made of All Green or All Terminals tiles scores no Tile Hog. S4
    /// #03 and #08 say so; the reference scores the Tile Hog.
    pub no_tile_hog_in_green_or_terminal_pairs: bool,
    /// Nine Gates excludes every Pung of Terminals or Honours of its reading. S4 #04
    /// lists the fan as excluded; the reference removes only one (the 111 or 999 that the
    /// shape requires) and scores the other.
    pub nine_gates_excludes_all_terminal_pungs: bool,
    /// A wind pung that scores Seat Wind or Prevalent Wind also scores Pung of Terminals or
    /// Honours. S4 #73: "A pong in one of the Winds may be combined with Seat Wind or
    /// Prevalent Wind"; the reference does not add it.
    pub wind_pung_also_terminal_pung: bool,
    /// Every fan of several chows or pungs has its standard value, so the scorer may look
    /// their combinations up ([`crate::combo_table`]) instead of combining them.
    standard_combinations: bool,
    /// The points laid out for a tally's total without a loop (rebuilt with the points).
    values: std::sync::Arc<crate::tally::Values>,
}

impl Rules {
    /// The project's default: S4.
    pub fn seeds() -> Rules {
        let mut r = Rules::reference();
        r.profile = Profile::Seeds;
        r.points = seeds_points();
        r.knitted_straight_edge_closed = false;
        r.four_concealed_pungs_fully_concealed = true;
        r.all_terminals_double_pung = true;
        r.special_shapes_fully_concealed = true;
        r.all_green_excludes_half_flush = false;
        r.no_tile_hog_in_green_or_terminal_pairs = true;
        r.nine_gates_excludes_all_terminal_pungs = true;
        r.wind_pung_also_terminal_pung = true;
        r.points_changed();
        r
    }

    /// The conventions of the reference calculator (`pymahjonggb` on PyPI; docs/rules.md §7).
    pub fn reference() -> Rules {
        let points = base_points();
        Rules {
            profile: Profile::Reference,
            points,
            min_points: 8,
            concealed_and_melded_kong_fan: true,
            knitted_straight_edge_closed: true,
            four_concealed_pungs_fully_concealed: false,
            all_terminals_double_pung: false,
            special_shapes_fully_concealed: false,
            all_green_excludes_half_flush: true,
            no_tile_hog_in_green_or_terminal_pairs: false,
            nine_gates_excludes_all_terminal_pungs: false,
            wind_pung_also_terminal_pung: false,
            standard_combinations: true,
            values: values_of(&points),
        }
    }

    /// A profile by name: `seeds` or `reference`.
    pub fn by_name(name: &str) -> Option<Rules> {
        match name {
            "seeds" => Some(Rules::seeds()),
            "reference" => Some(Rules::reference()),
            _ => None,
        }
    }

    /// The profile's name: `seeds` or `reference`.
    pub fn name(&self) -> &'static str {
        match self.profile {
            Profile::Seeds => "seeds",
            Profile::Reference => "reference",
        }
    }

    /// Points of one occurrence of `fan` under this profile.
    pub fn points(&self, fan: Fan) -> u8 {
        self.points[fan as usize - 1]
    }

    /// Changes the value of one fan (for house rules).
    pub fn set_points(&mut self, fan: Fan, points: u8) {
        self.points[fan as usize - 1] = points;
        self.points_changed();
    }

    /// What depends on the points, brought up to date.
    fn points_changed(&mut self) {
        self.standard_combinations = self.combination_values_are_standard();
        self.values = values_of(&self.points);
    }

    /// The points laid out for totals ([`crate::tally::Tally::total`]).
    pub(crate) fn values(&self) -> &crate::tally::Values {
        &self.values
    }

    /// May the scorer look the fans of several chows or pungs up in the table built
    /// under the standard values?
    pub(crate) fn standard_combinations(&self) -> bool {
        self.standard_combinations
    }

    fn combination_values_are_standard(&self) -> bool {
        crate::combos::COMBINATION_FANS
            .iter()
            .all(|&f| self.points(f) == f.base_points())
    }
}

/// Every fan's standard points, indexed by fan number − 1 (the reference's values).
fn base_points() -> [u8; 82] {
    let mut points = [0u8; 82];
    for (i, p) in points.iter_mut().enumerate() {
        *p = Fan::from_number(i as u8 + 1).map_or(0, |f| f.base_points());
    }
    points
}

/// The seeds' points: the standard ones and S4's two kong values.
fn seeds_points() -> [u8; 82] {
    let mut points = base_points();
    // S4 #48: "upgraded to 8 points in the year 2006 by the WMO".
    points[Fan::TwoConcealedKongs as usize - 1] = 8;
    // S4 note under #57: "one melded kong and one concealed kong are 6 points".
    points[Fan::ConcealedKongAndMeldedKong as usize - 1] = 6;
    points
}

/// The layout of `points` for totals: the two profiles' built once a process and shared
/// (bots make rules by the thousand), house values anew.
fn values_of(points: &[u8; 82]) -> std::sync::Arc<crate::tally::Values> {
    use std::sync::{Arc, OnceLock};
    type Shared = [([u8; 82], Arc<crate::tally::Values>); 2];
    static SHARED: OnceLock<Shared> = OnceLock::new();
    let build = |p: [u8; 82]| Arc::new(crate::tally::Values::new(|f| p[f as usize - 1]));
    let shared = SHARED.get_or_init(|| [base_points(), seeds_points()].map(|p| (p, build(p))));
    match shared.iter().find(|(p, _)| p == points) {
        Some((_, v)) => Arc::clone(v),
        None => build(*points),
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::seeds()
    }
}
