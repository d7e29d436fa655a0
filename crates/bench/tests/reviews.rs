//! The reviewers' bench at a small scale: every hand kept is reviewed and timed, and the
//! review and field pages of a deal held by several people are served and timed.

#[test]
fn the_queue_bench_reviews_every_hand_it_keeps() {
    // 3 hands, one every 3 s, reviewed at a small budget: room for a review each (about a
    // second here, nearly two while the browser tests run beside it).
    let q = bench::reviews::queue(1200, 0.15, 1, 10).unwrap();
    assert_eq!(q.kept, 3);
    assert_eq!(q.reviewed, 3, "{q:?}");
    assert!(q.wait_p50_s >= 0.0 && q.wait_p50_s <= q.wait_p95_s, "{q:?}");
    assert!(
        q.done_p50_s >= q.wait_p50_s && q.review_mean_s > 0.0,
        "{q:?}"
    );
}

#[test]
fn the_pages_bench_serves_a_review_and_a_field() {
    let p = bench::reviews::pages(6, 2, 10).unwrap();
    assert_eq!(p.holders, 6);
    assert!(p.review_p50_ms > 0.0 && p.field_p50_ms > 0.0, "{p:?}");
    // Six holders' names and their branches: more than a few hundred bytes.
    assert!(p.field_bytes > 500, "{p:?}");
}
