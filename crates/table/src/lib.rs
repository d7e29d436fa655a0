//! # table — one MCR hand at a table, start to finish
//!
//! Owns the deal (13 starting tiles and a 21-tile personal wall per seat, with the labels
//! staff use to rebuild it: [`deal`], [`sheet`]), the table engine that plays every rule of
//! rules §3 ([`engine`]), match points ([`points`]), hand logs and replay ([`log`]), and the
//! hand as one seat saw it ([`seen`]), and deal sets: every deal of a table, challenge or
//! event derived from one secret key ([`set`]). Nothing here knows who is playing: players live in
//! the `agents` crate, comparisons in `arena`.

#![deny(missing_docs)]

pub mod deal;
pub mod engine;
pub mod game;
pub mod log;
pub mod points;
pub mod record;
pub mod reveal;
pub mod rules;
pub mod seen;
pub mod set;
pub mod sheet;
pub mod wall;

pub use deal::Deal;
pub use engine::{Action, HandResult, IllegalAction, Outcome, Table, View};
pub use game::{Game, GameLog};
pub use log::{replay, HandLog};
pub use rules::TableRules;
pub use wall::{Bonus, RegularWall, Setup, WallModel};
