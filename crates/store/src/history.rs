//! Players' histories and their accounts' lives: the hands a person played, every hand
//! compared with others (what a rating is computed from), a guest made an account, a
//! password changed, an account deleted.

use crate::{Person, Result, StoredHand};

/// Players' histories and accounts.
pub trait HistoryStore {
    /// Finished hands in which `person` held a seat, newest first, with that seat
    /// (0 = East of the hand), `offset` and `limit` for pages.
    ///
    /// A read: it sees what committed transactions wrote.
    fn hands_of_person(
        &self,
        person: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(StoredHand, usize)>>;

    /// How many finished hands `person` held a seat in.
    ///
    /// A read.
    fn hand_count_of_person(&self, person: i64) -> Result<usize>;

    /// Every finished hand stored under a deal key (those compared with others), oldest
    /// first, without their logs (`log` is empty): what the rating is computed from.
    ///
    /// A read.
    fn compared_hands(&self) -> Result<Vec<StoredHand>>;

    /// The number of the newest finished hand (0 when none): a rating computed up to it
    /// is current.
    ///
    /// A read.
    fn last_hand_id(&self) -> Result<i64>;

    /// Makes guest `person` an account called `name` with password hash `hash`, keeping
    /// their number and so their games. Refused when `name` looks like another account's.
    ///
    /// One transaction.
    fn make_account(&self, person: i64, name: &str, hash: &str) -> Result<Person>;

    /// Replaces an account's password hash.
    ///
    /// One transaction.
    fn set_password(&self, person: i64, hash: &str) -> Result<()>;

    /// Deletes an account: its name becomes "deleted player", its password, options,
    /// sessions and drills go, and the hands it played keep their results (the field's comparisons
    /// stay as they were) under that name.
    ///
    /// One transaction.
    fn delete_person(&self, person: i64) -> Result<()>;
}

/// The name a deleted account's results are shown under.
pub const DELETED: &str = "deleted player";
