//! Online play over HTTP: sign-in, the lobby, tables and their WebSocket, replays,
//! challenges and online events as players see them. What happens at a table is the
//! `play` crate's; these pages map requests and messages onto it.

pub mod bench;
pub mod challenge_web;
pub mod lobby_web;
pub mod online_web;
pub mod web;
