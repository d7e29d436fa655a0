//! # agents — who plays at the table
//!
//! The [`bots::Agent`] trait and the built-in bots ([`bots`]), bots in other processes
//! ([`external`] for our JSON Lines protocol, [`botzone`] for contest bots), and the driver
//! that plays hands with four agents and records them ([`play`]).

#![deny(missing_docs)]

pub mod bots;
pub mod botzone;
pub mod external;
pub mod plan;
pub mod play;
pub mod review;
pub mod strong;
