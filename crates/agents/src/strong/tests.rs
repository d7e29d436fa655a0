//! Strong's tie-break among discards at the same distance, weighed over its three least
//! useful candidates or over all of them (the expert's own plan).

use super::*;
use table::engine::Table;
use table::rules::TableRules;
use table::wall::Setup;

/// At every turn of strong's self-play, the plan that weighs every tied discard by
/// acceptance (the expert's own) picks a discard as near a route as strong's, and never
/// one that scores lower on the tie-break; on some turns it picks another.
#[test]
fn weighing_every_tied_discard_never_picks_a_worse_one() {
    let rules = TableRules::seeds();
    let strong = PlanBot::strong();
    let wide = PlanBot {
        acceptance_of: usize::MAX,
        ..PlanBot::strong()
    };
    let (mut turns, mut other) = (0, 0);
    for deal in 0..24 {
        let mut t = Table::new(Setup::generate(rules.wall, deal), rules.clone());
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            if matches!(view.decision, Some(Decision::Turn { .. })) {
                let s = Seat::of(&view);
                let (a, b) = (strong.fresh_discard(&s), wide.fresh_discard(&s));
                turns += 1;
                if let (Some(a), Some(b)) = (a, b) {
                    if a != b {
                        other += 1;
                        let routes = fresh_routes(&s);
                        let distance = |i: usize| {
                            let mut c = s.conc;
                            c[i] -= 1;
                            evaluate_floored(&s, &c, &s.melds, &routes, &strong.rules).distance
                        };
                        let d = distance(a);
                        assert_eq!(
                            d,
                            distance(b),
                            "deal {deal}: {a} and {b} at other distances"
                        );
                        let score = |i| tie_score(&s, &s.conc, &s.melds, &routes, d, i);
                        assert!(score(b) >= score(a), "deal {deal}: {b} scores below {a}");
                    }
                }
            }
            let a = bots[seat.index()].act(&view);
            let a = if view.legal.contains(&a) {
                a
            } else {
                view.legal[0]
            };
            t.apply(seat, a).expect("a legal move");
        }
    }
    assert!(turns > 1000, "{turns} turns");
    assert!(other > 0, "the two plans agreed on all {turns} turns");
    println!("{other} of {turns} turns with another discard");
}
