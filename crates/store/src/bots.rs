//! Bot accounts: an account turned over to a program for good, and the API tokens it
//! signs in with (kept as hashes; each shown once when made, and revocable).

use crate::{Person, Result};

/// An API token as its owner's page lists it (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiToken {
    /// Its number.
    pub id: i64,
    /// When it was made (UTC, ISO 8601).
    pub created: String,
    /// When it was revoked, if it was.
    pub revoked: Option<String>,
}

/// Most tokens a bot account keeps unrevoked at once.
pub const MAX_TOKENS: usize = 5;

/// Bot accounts and their tokens.
pub trait BotStore {
    /// Makes account `person` a bot account, for good. A guest cannot be one.
    ///
    /// One transaction, with its audit line.
    fn make_bot(&self, person: i64) -> Result<()>;

    /// Keeps a new token (its SHA-256; the token is the caller's to show once) for bot
    /// account `person`; refused for anyone else and past [`MAX_TOKENS`] unrevoked.
    ///
    /// One transaction.
    fn add_api_token(&self, person: i64, token: &str) -> Result<ApiToken>;

    /// The tokens of `person`, newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn api_tokens(&self, person: i64) -> Result<Vec<ApiToken>>;

    /// Revokes token `id` of `person`; from then on it signs nobody in.
    ///
    /// One transaction.
    fn revoke_api_token(&self, person: i64, id: i64) -> Result<()>;

    /// The bot account a token signs in, if it is one and not revoked.
    ///
    /// A read: it sees what committed transactions wrote.
    fn person_of_token(&self, token: &str) -> Result<Option<Person>>;
}
