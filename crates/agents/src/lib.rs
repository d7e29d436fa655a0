//! # agents — who plays at the table
//!
//! The [`agent::Agent`] trait and the built-in bots ([`bots`]), bots in other processes
//! ([`external`] for our JSON Lines protocol, [`botzone`] for contest bots), and the driver
//! that plays hands with four agents and records them ([`drive`]); a seat's view as numbers
//! for learning bots ([`encode`]), and a table with outside seats as an environment ([`env`](mod@env));
//! a logged hand reviewed move by move ([`review`]) and each discard as the planner weighs its
//! routes to 8 points ([`routes`]).

#![deny(missing_docs)]

pub mod agent;
pub mod belief;
pub mod bots;
pub mod botzone;
pub mod drive;
pub mod encode;
pub mod env;
pub mod expert;
pub mod external;
pub mod plan;
pub mod pool;
pub mod process;
pub mod registry;
pub mod review;
pub mod routes;
pub mod site;
pub mod strong;
