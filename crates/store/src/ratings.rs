//! Ratings kept, not recomputed: each person's rating as the rating's last update left it,
//! and the sessions rated, in order, so that a rebuild from the stored hands can replay
//! them and compare.

use crate::Result;

/// One person's kept rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingRow {
    /// Whose.
    pub person: i64,
    /// The rating's state for them, as the rating writes it (JSON).
    pub state: String,
    /// Rated hands.
    pub hands: usize,
    /// The leaderboard's order: the conservative rating × 1000, rounded.
    pub placed: i64,
}

/// A session the rating took in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedSession {
    /// Its order among the sessions rated (1, 2, …).
    pub seq: i64,
    /// What it is ("table:12", "event:3:deal 4", …).
    pub session: String,
    /// The newest hand it saw: a rebuild compares it with the hands up to this one.
    pub upto: i64,
}

/// One hand-seat as its session's rating saw it: the IMP of its person against the
/// deal-seat's field then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedHand {
    /// The stored hand.
    pub hand: i64,
    /// The seat (0–3 for E, S, W, N).
    pub seat: u8,
    /// Who held it.
    pub person: i64,
    /// The hand's deal key.
    pub deal_key: String,
    /// Their IMP there.
    pub imp: i32,
}

/// What rating one session writes: the new rows of the people it moved, and the IMP of
/// each of their hand-seats in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionRated {
    /// The people it moved.
    pub rows: Vec<RatingRow>,
    /// Their hand-seats' IMP.
    pub hands: Vec<RatedHand>,
}

/// Updates the kept ratings for one session: given the kept rows of the people asked for
/// (absent: not rated yet), what the session writes.
pub type Update<'a> = dyn FnMut(&[RatingRow]) -> Result<SessionRated> + Send + 'a;

/// The kept ratings.
pub trait RatingStore {
    /// Rates one session, once: in one transaction, reads the kept rows of `people`, runs
    /// `update` on them and writes the rows and hand-seats it returns, recording `session` with `upto`
    /// as the next rated session. Returns false, writing nothing, when `session` was
    /// rated already (another node did it). Two nodes rating sessions at once take turns
    /// (PostgreSQL runs the transaction again when they touched the same rows).
    ///
    /// One transaction.
    fn rate_session(
        &self,
        session: &str,
        upto: i64,
        people: &[i64],
        update: &mut Update<'_>,
    ) -> Result<bool>;

    /// A person's kept rating.
    ///
    /// A read.
    fn rating(&self, person: i64) -> Result<Option<RatingRow>>;

    /// The kept ratings of account holders with at least `min_hands` rated hands, best
    /// placed first, at most `limit`, each with the person's name and whether it is a bot
    /// account (one query).
    ///
    /// A read.
    fn rating_board(
        &self,
        min_hands: usize,
        limit: usize,
    ) -> Result<Vec<(RatingRow, String, bool)>>;

    /// Every kept rating.
    ///
    /// A read.
    fn all_ratings(&self) -> Result<Vec<RatingRow>>;

    /// The sessions rated, in the order they were.
    ///
    /// A read.
    fn rated_sessions(&self) -> Result<Vec<RatedSession>>;

    /// Whether `session` has been rated.
    ///
    /// A read.
    fn is_rated(&self, session: &str) -> Result<bool>;

    /// The par kept for deal `seed` under rules `rules`: match points by seat.
    ///
    /// A read.
    fn par(&self, seed: u64, rules: &str) -> Result<Option<[i32; 4]>>;

    /// Keeps the par of deal `seed` under `rules` (a second writer's is the same par).
    ///
    /// One transaction.
    fn save_par(&self, seed: u64, rules: &str, points: [i32; 4]) -> Result<()>;

    /// Replaces every kept rating with `rows` and every rated hand-seat with `hands` (a
    /// rebuild), adding `rated` (session, newest hand seen) after the sessions rated
    /// before, in that order.
    ///
    /// One transaction.
    fn replace_ratings(
        &self,
        rows: &[RatingRow],
        hands: &[RatedHand],
        rated: &[(String, i64)],
    ) -> Result<()>;

    /// A person's rated hand-seats, newest first, at most `limit`.
    ///
    /// A read.
    fn rated_hands_of(&self, person: i64, limit: usize) -> Result<Vec<RatedHand>>;

    /// How many hand-seats are kept rated (none in a store rated before they were kept).
    ///
    /// A read.
    fn rated_hand_count(&self) -> Result<i64>;
}
