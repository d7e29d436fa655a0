//! Regular MCR table points: 4, 2, 1, 0 by rank after a game, ties splitting the points of
//! the places they share (seeds/004, "The table points in a tournament").
//!
//! seeds/004 gives 4.5 / 2.5 / 0 / 0 for a tie for third, which neither splits the shared
//! places nor follows its own other examples; we split as it says in words ("they split
//! table points between them"), giving 4 / 2 / 0.5 / 0.5.

/// Table points for four game scores (shares of tied places can be thirds or quarters).
pub fn table_points(scores: [i64; 4]) -> [f64; 4] {
    const PLACES: [f64; 4] = [4.0, 2.0, 1.0, 0.0];
    std::array::from_fn(|i| {
        let above = scores.iter().filter(|&&s| s > scores[i]).count();
        let equal = scores.iter().filter(|&&s| s == scores[i]).count();
        PLACES[above..above + equal].iter().sum::<f64>() / equal as f64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_examples() {
        assert_eq!(table_points([50, 20, 10, -80]), [4.0, 2.0, 1.0, 0.0]);
        // Tie for highest: 3 each, then 1 and 0.
        assert_eq!(table_points([30, 30, 10, -70]), [3.0, 3.0, 1.0, 0.0]);
        // Tie for second: 4, 1.5, 1.5, 0.
        assert_eq!(table_points([40, 10, 10, -60]), [4.0, 1.5, 1.5, 0.0]);
        // Tie for third: the two share places 3 and 4.
        assert_eq!(table_points([40, 10, -25, -25]), [4.0, 2.0, 0.5, 0.5]);
        assert_eq!(table_points([0, 0, 0, 0]), [1.75; 4]);
        let three = table_points([5, 5, 5, -15]);
        assert!((three[0] - 7.0 / 3.0).abs() < 1e-12 && three[3] == 0.0);
        assert!((three.iter().sum::<f64>() - 7.0).abs() < 1e-12);
    }
}
