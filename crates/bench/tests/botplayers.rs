//! The bot players' bench measures what it says: every connected bot moves (each move
//! timed), every queued bot is answered each second and none is seated (bot accounts alone
//! make no table).

#[test]
fn the_bot_players_bench_times_moves_and_answers_the_queue() {
    let points =
        bench::botplayers::run(&[(4, 6)], 2.0, "easy", std::time::Duration::ZERO, |_| {}).unwrap();
    let p = &points[0];
    assert_eq!((p.connected, p.queued), (4, 6));
    assert!(p.moves >= 20, "{p:?}");
    assert!(p.p50_ms <= p.p99_ms && p.p99_ms <= p.max_ms, "{p:?}");
    // Six bots asking once a second for two seconds, give or take one each.
    assert!((3.0..=9.0).contains(&p.polls_per_s), "{p:?}");
    assert_eq!(p.slow_polls, 0, "{p:?}");
}
