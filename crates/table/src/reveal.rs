//! Why a revealed deal set (or a challenge's revealed deals) is not what was committed to,
//! or a key is not a key: one kind per check that failed, so that `dupmj verify` and the
//! pages can say which; `Display` gives the words.

use std::fmt;

/// A key that is not 64 hexadecimal digits (at most 70 of its characters kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError {
    /// What was given.
    pub found: String,
}

impl KeyError {
    /// The error for `text`, shortened to what a message repeats.
    pub fn of(text: &str) -> KeyError {
        KeyError {
            found: text.chars().take(70).collect(),
        }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "key: 64 hexadecimal digits, not '{}'", self.found)
    }
}

impl std::error::Error for KeyError {}

/// What a commitment binds: a deal set's key, or a challenge's deals with their salt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Committed {
    /// A deal set's key.
    Key,
    /// A challenge's deals and salt.
    Deals,
}

/// A reveal that does not check out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RevealError {
    /// The file is of another format.
    Format {
        /// The file's format.
        found: String,
        /// The format expected.
        expected: &'static str,
    },
    /// The file's commitment is not the one published.
    NotPublished {
        /// The file's commitment.
        file: String,
        /// The one published.
        published: String,
    },
    /// What is revealed does not hash to the commitment.
    NotCommitted {
        /// What the commitment binds.
        what: Committed,
        /// The hash of what is revealed.
        got: String,
        /// The commitment.
        commitment: String,
    },
    /// The key is not a key.
    Key(KeyError),
    /// The file's deals are not a list.
    NoDealList,
    /// A seed with no room for its deals after it.
    SeedRange {
        /// The first seed.
        seed: u64,
        /// The deals.
        count: usize,
    },
    /// Deal `index`'s seed is not the key's.
    WrongSeed {
        /// The deal (0-based).
        index: usize,
        /// Its label.
        label: String,
        /// The file's seed.
        found: u64,
        /// The key's seed for it.
        expected: u64,
    },
    /// Deal `index` is not the deal its seed generates.
    WrongDeal {
        /// The deal (0-based).
        index: usize,
        /// Its label.
        label: String,
        /// The seed.
        seed: u64,
    },
}

impl fmt::Display for RevealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RevealError::Format { found, expected } => {
                write!(f, "format: '{found}' is not {expected}")
            }
            RevealError::NotPublished { file, published } => write!(
                f,
                "commitment: the file says {file}, not the published {published}"
            ),
            RevealError::NotCommitted {
                what: Committed::Key,
                got,
                commitment,
            } => write!(
                f,
                "the key hashes to {got}, not to the commitment {commitment}: it is not the key committed to"
            ),
            RevealError::NotCommitted {
                what: Committed::Deals,
                got,
                commitment,
            } => write!(
                f,
                "the deals and salt hash to {got}, not to the commitment {commitment}: the deals are not the ones committed to"
            ),
            RevealError::Key(e) => e.fmt(f),
            RevealError::NoDealList => f.write_str("deals: not a list"),
            RevealError::SeedRange { seed, count } => {
                write!(f, "seed: {seed} leaves no room for {count} deals")
            }
            RevealError::WrongSeed {
                index,
                label,
                found,
                expected,
            } => write!(
                f,
                "deals[{index}] (deal {label}): seed {found} is not the key's seed {expected} for deal {index}"
            ),
            RevealError::WrongDeal { index, label, seed } => write!(
                f,
                "deals[{index}] (deal {label}): not the deal seed {seed} generates"
            ),
        }
    }
}

impl std::error::Error for RevealError {}

impl From<KeyError> for RevealError {
    fn from(e: KeyError) -> Self {
        RevealError::Key(e)
    }
}
