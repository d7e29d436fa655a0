//! Scores the benchmark corpus once; for instruction counts under callgrind:
//! `valgrind --tool=callgrind target/release/examples/score_corpus`.
use mcr::notation::parse_hand_line;

fn main() {
    let hands: Vec<_> = include_str!("../benches/corpus.txt")
        .lines()
        .map(|l| parse_hand_line(l).expect("corpus hand"))
        .collect();
    let rules = mcr::Rules::seeds();
    let mut total = 0u64;
    for h in &hands {
        total += mcr::score(h, &rules).map_or(0, |s| s.total as u64);
    }
    println!("{} hands, {} points", hands.len(), total);
}
