//! Challenges: their settings and who took up which deal at which table.

use crate::Result;

/// A challenge as stored: its settings (JSON owned by the server, secrets included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its number.
    pub id: i64,
    /// Its settings (JSON).
    pub spec: String,
}

/// A deal of a challenge taken up by a person: the seat (0–3 for E, S, W, N) and the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengePlay {
    /// Who took it up.
    pub person: i64,
    /// The deal's place in the challenge (0-based).
    pub deal_index: u32,
    /// The seat played: 0–3 for E, S, W, N.
    pub seat: u8,
    /// The table it is played at.
    pub play_table: i64,
}

/// Challenges and the deals people took up.
pub trait ChallengeStore {
    /// Creates a challenge; returns its number.
    ///
    /// One transaction.
    fn create_challenge(&self, spec: &str) -> Result<i64>;

    /// Updates a challenge's settings.
    ///
    /// One transaction.
    fn update_challenge(&self, id: i64, spec: &str) -> Result<()>;

    /// A challenge by number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn challenge(&self, id: i64) -> Result<StoredChallenge>;

    /// Challenges newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn challenges(&self, limit: usize) -> Result<Vec<StoredChallenge>>;

    /// Creates the table where `person` plays deal `deal_index` of a challenge, with the
    /// first lines of its journal, in one transaction with the record that they took it up;
    /// refused if they already did.
    ///
    /// One transaction.
    fn open_challenge_table(
        &self,
        challenge: i64,
        person: i64,
        deal_index: u32,
        seat: u8,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64>;

    /// Every deal of a challenge taken up, by whom and where.
    ///
    /// A read: it sees what committed transactions wrote.
    fn challenge_plays(&self, challenge: i64) -> Result<Vec<ChallengePlay>>;
}
