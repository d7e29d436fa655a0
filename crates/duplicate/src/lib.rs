//! # duplicate — one duplicate MCR hand, start to finish
//!
//! Owns the deal (13 starting tiles and a 21-tile personal wall per seat, with the labels
//! staff use to rebuild it: [`deal`], [`sheet`]), the table engine that plays every rule of
//! SPEC §3 ([`engine`]), match points ([`points`]), hand logs and replay ([`log`]), and the
//! built-in bots ([`bots`], [`play`]), bots in other processes ([`external`] for our JSON
//! Lines protocol, [`botzone`] for contest bots, fed by [`seen`]), and the arena that measures
//! bots on the same deals ([`arena`]).

pub mod arena;
pub mod bots;
pub mod botzone;
pub mod deal;
pub mod engine;
pub mod external;
pub mod log;
pub mod play;
pub mod points;
pub mod rules;
pub mod seen;
pub mod sheet;

pub use deal::Deal;
pub use engine::{Action, HandResult, IllegalAction, Table, View};
pub use log::{replay, HandLog};
pub use rules::TableRules;
