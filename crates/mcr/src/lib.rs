//! # mcr — the Mahjong Competition Rules core
//!
//! Owns everything about the Chinese Official rules that needs no table and no I/O:
//! the 34 tiles and their text notation ([`tile`], [`notation`]), declared sets and hands
//! ([`meld`], [`hand`]), winning shapes ([`shape`]), the 81 fans with the scoring
//! principles ([`fan`], [`score`](mod@score)) under named rule profiles ([`rules`]), and shanten and
//! waits ([`wait`]). [`score()`] gives the fans with the reading behind them; [`fan_table`] the
//! fans and their total alone, with no allocation, for callers that score many hands.
//!
//! ```
//! use mcr::{parse_hand, score, Rules, WinContext};
//! let hand = parse_hand("[123m3][555p2][EEEE]789sPP", WinContext::default()).unwrap();
//! let s = score(&hand, &Rules::seeds()).unwrap();
//! assert!(s.total > 0);
//! ```

#![deny(missing_docs)]

mod combo_table;
pub mod combos;
mod exclude;
pub mod explain;
pub mod fan;
mod fastshanten;
pub mod hand;
pub mod meld;
pub mod notation;
pub mod rules;
pub mod score;
pub mod shape;
mod suitreadings;
mod suitstate;
mod tally;
pub mod tile;
pub mod wait;

pub use exclude::implied_by;
pub use fan::Fan;
pub use hand::{Hand, HandError, WinContext};
pub use meld::{Meld, MeldError, MeldKind};
pub use notation::{parse_hand, parse_tiles, HandParseError, ParseError};
pub use rules::{Profile, Rules};
pub use score::{fan_table, score, FanLine, FanTable, Reading, Scoring, Shape};
pub use tile::{Suit, Tile, Wind};
pub use wait::{shanten, waits, winning_tiles, Shanten, Wait};
