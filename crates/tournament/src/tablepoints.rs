//! Regular MCR table points: 4, 2, 1, 0 by rank after a game, ties splitting the points of
//! the places they share. The table crate computes them at the end of a game; events use
//! the same function.

pub use table::game::table_points;
