//! The expert's tests.

use super::*;
use table::wall::Setup;

/// Two tables that differ only in what East cannot see give East the same view, the
/// same sampled worlds and the same decision: the sampler uses no hidden tile. On
/// personal walls and on a shared wall with bonus tiles.
#[test]
fn the_sampler_never_uses_a_hidden_tile() {
    for rules in [TableRules::seeds(), TableRules::regular()] {
        let mut searched = 0;
        for seed in 0..12u64 {
            let Some(real) = crate::belief::strong_until_east_turn(&rules, 70 + seed, 4) else {
                continue;
            };
            let view = real.view(Wind::East);
            // A second table: the same view, other hidden tiles (another sample).
            let other = ExpertBot::new(rules.clone(), 999, 8).samples(&view, 1);
            let twin = Table::from_view(&view, rules.clone(), &other[0]).unwrap();
            assert_eq!(twin.view(Wind::East), view, "{} seed {seed}", rules.name);
            let (mut a, mut b) = (
                ExpertBot::new(rules.clone(), 5, 64),
                ExpertBot::new(rules.clone(), 5, 64),
            );
            assert_eq!(a.samples(&view, 16), b.samples(&twin.view(Wind::East), 16));
            assert_eq!(a.act(&view), b.act(&twin.view(Wind::East)), "seed {seed}");
            searched += 1;
        }
        assert!(searched >= 8, "{}: {searched} decisions", rules.name);
    }
}

/// At a table people play, the expert answers claims at once with its plan's choice
/// (no search, so no pause tells who could claim); a decision stopped before it has
/// played out [`MIN_WORLDS`] worlds plays its plan's choice too: strong's, every tied
/// discard weighed ([`OWN_ACCEPTANCE_OF`]).
#[test]
fn claims_at_once_and_a_hard_stop_play_the_plans_choice() {
    let rules = TableRules::seeds();
    let (mut claims, mut stopped) = (0, 0);
    for seed in 0..6u64 {
        let mut t = Table::new(
            Setup::generate(WallModel::Personal, 500 + seed),
            rules.clone(),
        );
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let mut plans: [PlanBot; 4] = std::array::from_fn(|_| {
            let mut plan = PlanBot::strong();
            plan.acceptance_of = OWN_ACCEPTANCE_OF;
            plan
        });
        let mut at_once = ExpertBot::new(rules.clone(), seed, 64).claims_at_once();
        let mut no_time = ExpertBot::new(rules.clone(), seed, 64);
        no_time.config.hard_stop = Some(std::time::Duration::ZERO);
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let strong = bots[seat.index()].act(&view);
            let own = plans[seat.index()].act(&view);
            let planned = at_once.plan.act(&view);
            if let Some(cands) = at_once.to_search(&view, planned) {
                assert!(matches!(view.decision, Some(Decision::Turn { .. })));
                if stopped < 4 {
                    assert_eq!(no_time.act(&view), own, "seed {seed}");
                    stopped += 1;
                }
                assert!(cands.len() > 1);
            } else if matches!(view.decision, Some(Decision::Claim { .. })) {
                assert_eq!(at_once.act(&view), own, "seed {seed}");
                claims += usize::from(view.legal.len() > 1);
            }
            t.apply(seat, strong).unwrap();
        }
    }
    assert!(
        claims >= 5 && stopped == 4,
        "{claims} claims, {stopped} stops"
    );
}

/// On a shared wall the worlds hold every unseen tile once: the playing tiles in the
/// hands and the undrawn row, the unseen bonus tiles at distinct places in the row.
#[test]
fn worlds_on_a_shared_wall_hold_the_unseen_tiles_and_bonus_tiles() {
    let rules = TableRules::regular();
    let mut checked = 0;
    for seed in 0..10u64 {
        let Some(real) = crate::belief::strong_until_east_turn(&rules, 300 + seed, 3) else {
            continue;
        };
        let view = real.view(Wind::East);
        let unseen_tiles = unseen(&view);
        let bonus = unseen_bonus(&view, WallModel::Shared);
        let mut undrawn_bonus = 8;
        for s in 0..4 {
            undrawn_bonus -= real.view(Wind::from_index(s)).bonus[s].len();
        }
        assert_eq!(bonus.len(), undrawn_bonus, "seed {seed}");
        for h in ExpertBot::new(rules.clone(), seed, 8).samples(&view, 8) {
            let mut c = [0u8; 34];
            for t in h.hands.iter().chain(&h.walls).flatten() {
                c[t.index()] += 1;
            }
            for t in h.kongs.iter().flatten() {
                c[t.index()] += 4;
            }
            assert_eq!(c, unseen_tiles, "seed {seed}");
            let row = h.walls[0].len() + h.bonus.len();
            assert_eq!(row, view.wall_left[0], "seed {seed}");
            let mut places: Vec<usize> = h.bonus.iter().map(|b| b.0).collect();
            places.sort_unstable();
            places.dedup();
            assert_eq!(places.len(), bonus.len(), "seed {seed}");
            assert!(places.iter().all(|&p| p < row), "seed {seed}");
            assert!(Table::from_view(&view, rules.clone(), &h).is_ok());
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} worlds");
}
