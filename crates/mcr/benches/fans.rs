//! Throughput of the fan calculator and of the wait finder on a fixed corpus of 20,000
//! generated hands (`benches/corpus.txt`, from the oracle generator with seed 1).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcr::notation::parse_hand_line;
use mcr::{score, Hand, Rules};
use std::hint::black_box;

fn corpus() -> Vec<Hand> {
    include_str!("corpus.txt")
        .lines()
        .map(|l| parse_hand_line(l).expect("corpus hand"))
        .collect()
}

fn fans(c: &mut Criterion) {
    let hands = corpus();
    let mut g = c.benchmark_group("score");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.sample_size(20);
    for rules in [Rules::seeds(), Rules::reference()] {
        g.bench_function(format!("corpus_20000_{}", rules.name()), |b| {
            b.iter(|| {
                let mut total = 0u32;
                for h in &hands {
                    total += score(black_box(h), &rules).map_or(0, |s| s.total);
                }
                total
            })
        });
    }
    g.finish();
}

fn waits(c: &mut Criterion) {
    // Ready 13-tile regular hands: each regular corpus hand without its winning tile.
    let ready: Vec<(Vec<mcr::Tile>, Vec<mcr::Meld>)> = corpus()
        .into_iter()
        .filter(|h| {
            let c = mcr::tile::counts_of(h.concealed());
            mcr::wait::winning_tiles_counts(&c, &c, h.melds().len()) != 0
                && mcr::shape::is_regular_complete(&h.concealed_counts())
        })
        .map(|h| (h.concealed().to_vec(), h.melds().to_vec()))
        .collect();
    let mut g = c.benchmark_group("waits");
    g.throughput(Throughput::Elements(ready.len() as u64));
    g.sample_size(20);
    g.bench_function("ready_regular", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (standing, melds) in &ready {
                n += mcr::winning_tiles(black_box(standing), melds).len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, fans, waits);
criterion_main!(benches);
