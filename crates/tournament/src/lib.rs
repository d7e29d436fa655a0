//! # tournament — running a duplicate event
//!
//! Owns what happens between hands: what a table reports for a deal ([`entry`]), what the printables hold
//! ([`print`](mod@print), laid out by the server's templates), CSV and JSON of standings ([`export`]), the IMP scale on exact averages ([`imp`]), individual
//! and team standings with penalties ([`standings`]) ranked alike ([`rank`]), regular MCR table points and
//! sessions ([`tablepoints`], [`regular`]), and seating movements with an independent
//! quality check ([`movement`], [`check`]), and challenges played
//! against bots within a time window, with their commitment to the deals ([`challenge`]);
//! around the events, who signs up and gets in ([`signup`]) and a season's standings over
//! several events ([`season`]).

#![deny(missing_docs)]

pub mod challenge;
pub mod check;
pub mod entry;
pub mod export;
pub mod imp;
pub mod movement;
pub mod print;
pub mod rank;
pub mod rating;
pub mod regular;
pub mod season;
pub mod signup;
pub mod standings;
pub mod tablepoints;
