//! `expert`: a bot that decides by search. At each decision with a choice it samples
//! worlds consistent with its seat's [`View`] (the tiles it cannot see, dealt at random
//! to the other hands, their concealed kongs and the undrawn walls), plays every candidate
//! out to the end of the hand in every world with `strong`'s plan for all four seats, and
//! leaves strong's choice only for a candidate clearly better in average match points. The
//! worlds are drawn by Markov chains from a belief about the other hands: as near to ready
//! as strong's seats are at that point, holding little next to what they threw, and not
//! ready on a tile that the order of the discards says they let pass
//! ([`crate::belief::settle`]). The same worlds serve every
//! candidate (common random numbers), so that the comparison is between the choices, not
//! between lucky and unlucky walls.
//!
//! It never sees a hidden tile: the sampler takes only the view, and its random stream
//! depends only on the seed and the decisions seen so far. It searches on personal walls
//! (duplicate) and on one shared wall (regular games, the undrawn bonus tiles placed at
//! random in the undrawn row).

use mcr::tile::Counts;
use mcr::{Tile, Wind};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use table::engine::{unseen, unseen_bonus, Action, Decision, Hidden, HiddenSizes, Table, View};
use table::rules::TableRules;
use table::wall::WallModel;

use crate::agent::{Agent, Appraisal, Candidate};
use crate::strong::PlanBot;

/// Playouts per decision of the default `expert`. Four times the worlds let the gate pass
/// gains half as large: 768 against 192 was worth +0.32 ± 0.13 IMP/hand on the same deals
/// (docs/expert.md, "The budget, on the same deals").
pub const PLAYOUTS: usize = 768;
/// The default budget per decision, in milliseconds of one core: [`PLAYOUTS`] playouts
/// took a median 175 ms and at worst 371 ms here (`dupmj bench think`); 192 took 80 ms
/// (the chains' burn-in is a fixed cost) and 1,536 took 350 ms, no stronger (docs/expert.md).
pub const THINK_MS: u32 = 200;
/// At a table with a clock, a decision stops searching at this many times its budget,
/// whatever is left, so that a slow or busy machine never holds the clock (the worlds
/// played so far decide; the default budget never reached it here). Elsewhere (arena,
/// play, review) there is no stop, and a decision depends only on the seed and the views.
pub const HARD_STOP: u32 = 5;

/// The expert's knobs. [`Default`] is the expert that plays; the lab's experiments set
/// others (`crates/lab`).
#[derive(Clone, Copy, Debug)]
pub struct ExpertConfig {
    /// Playouts per decision, shared among the candidates.
    pub playouts: usize,
    /// Standard errors a candidate's mean gain over strong's choice must clear.
    pub gate: f64,
    /// How the worlds' chains run.
    pub chains: crate::belief::Chains,
    /// Whether claims are searched too (at a table people watch they are not: a pause
    /// after a discard would tell that this seat could claim it).
    pub search_claims: bool,
    /// How many tied discards the expert's own plan weighs by acceptance.
    pub own_acceptance_of: usize,
    /// Raw samples drawn for each world kept.
    pub oversample: usize,
    /// Worlds played out (before a hard stop) below which strong's choice stands.
    pub min_worlds: usize,
    /// Candidates searched at most (strong's choice among them).
    pub max_candidates: usize,
    /// When a decision stops searching, from its start (none: never).
    pub hard_stop: Option<std::time::Duration>,
}

impl Default for ExpertConfig {
    fn default() -> ExpertConfig {
        ExpertConfig {
            playouts: PLAYOUTS,
            gate: GATE,
            chains: CHAINS,
            search_claims: true,
            own_acceptance_of: OWN_ACCEPTANCE_OF,
            oversample: OVERSAMPLE,
            min_worlds: MIN_WORLDS,
            max_candidates: MAX_CANDIDATES,
            hard_stop: None,
        }
    }
}

/// The search bot.
pub struct ExpertBot {
    rules: TableRules,
    seed: u64,
    /// Decisions searched so far (each draws its own worlds).
    decisions: u64,
    config: ExpertConfig,
    /// Plays where search is not possible, and names the first candidate: strong's
    /// plan, weighing tied discards by acceptance ([`ExpertConfig::own_acceptance_of`]).
    /// The playouts and the model of the other seats stay `strong` as it is.
    plan: PlanBot,
}

impl ExpertBot {
    /// An expert for `rules` with `playouts` playouts per decision, however long they take.
    pub fn new(rules: TableRules, seed: u64, playouts: usize) -> ExpertBot {
        let config = ExpertConfig {
            playouts,
            ..ExpertConfig::default()
        };
        ExpertBot::with_config(rules, seed, config)
    }

    /// An expert for `rules` with the knobs of `config`.
    pub fn with_config(rules: TableRules, seed: u64, config: ExpertConfig) -> ExpertBot {
        let mut plan = PlanBot::strong();
        plan.rules = rules.scoring.clone();
        plan.acceptance_of = config.own_acceptance_of;
        ExpertBot {
            rules,
            seed,
            decisions: 0,
            config: ExpertConfig {
                playouts: config.playouts.max(1),
                ..config
            },
            plan,
        }
    }

    /// The rules this expert plays and searches by.
    pub fn rules(&self) -> &TableRules {
        &self.rules
    }

    /// The knobs this expert plays by.
    pub fn config(&self) -> &ExpertConfig {
        &self.config
    }

    /// This expert answering claims at once with strong's choice, searching turns only: for
    /// tables people play, where a pause after a discard would tell who could claim it.
    pub fn claims_at_once(mut self) -> ExpertBot {
        self.config.search_claims = false;
        self
    }

    /// An expert with a budget of `think_ms` milliseconds per decision: playouts in
    /// proportion ([`PLAYOUTS`] for [`THINK_MS`]), however long they take (deterministic).
    pub fn thinking(rules: TableRules, seed: u64, think_ms: u32) -> ExpertBot {
        let playouts = (u64::from(think_ms) * PLAYOUTS as u64 / u64::from(THINK_MS)) as usize;
        ExpertBot::new(rules, seed, playouts)
    }

    /// This expert stopping a decision's search at [`HARD_STOP`] times `think_ms`, for a
    /// table with a clock: what the worlds played out so far say decides.
    pub fn with_hard_stop(mut self, think_ms: u32) -> ExpertBot {
        let stop = u64::from(HARD_STOP) * u64::from(think_ms.max(1));
        self.config.hard_stop = Some(std::time::Duration::from_millis(stop));
        self
    }

    /// Strong's plan as this expert plays it: its choice is the first candidate.
    pub fn plan(&mut self) -> &mut PlanBot {
        &mut self.plan
    }

    /// Decisions searched so far.
    pub fn searched(&self) -> u64 {
        self.decisions
    }

    /// Counts one decision searched: the next draws other worlds. [`Agent::act`] counts its
    /// own; an experiment that searches step by step ([`ExpertBot::worlds`],
    /// [`ExpertBot::play_out`]) counts each decision it searches.
    pub fn searched_one(&mut self) {
        self.decisions += 1;
    }

    /// The hidden tiles of the worlds for the next decision: `n` samples drawn from the
    /// view alone (the seed and the count of decisions searched so far pick the stream).
    pub fn samples(&self, view: &View, n: usize) -> Vec<Hidden> {
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let pool = unseen(view);
        let sizes = HiddenSizes::of(view, self.rules.wall);
        let bonus = unseen_bonus(view, self.rules.wall);
        (0..n)
            .filter_map(|_| sample(&pool, &sizes, &bonus, view.seat, &mut rng))
            .collect()
    }

    /// `view` as the belief reads it: on a shared wall, the tiles left to each seat's
    /// draws (a quarter of the wall) in place of the whole wall, as on personal walls.
    pub fn belief_view<'a>(&self, view: &View<'a>) -> View<'a> {
        let mut v = view.clone();
        if self.rules.wall == WallModel::Shared {
            v.wall_left = view.wall_left.map(|n| (n / 4).min(table::deal::WALL));
        }
        v
    }

    /// The worlds for one decision: `n` worlds of the hidden tiles drawn by
    /// [`crate::belief::settle`]'s chains from the belief about the other hands (how near
    /// to ready they are and how their discards stand to them), seated.
    /// [`ExpertConfig::oversample`] times as many raw samples are drawn to measure the
    /// uniform deal against.
    pub fn worlds(&self, view: &View, n: usize) -> Vec<(Table, f64)> {
        self.seat_worlds(view, self.belief_worlds(view, n, n))
    }

    /// The hidden tiles of [`ExpertBot::worlds`], `drawn` of them, before they are seated.
    pub fn belief_worlds(&self, view: &View, n: usize, drawn: usize) -> Vec<(Hidden, f64)> {
        let raw = self.samples(view, n * self.config.oversample);
        let mut rng = ChaCha8Rng::seed_from_u64(
            !self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        crate::belief::settle(
            &self.belief_view(view),
            raw,
            drawn,
            self.config.chains,
            &self.plan.rules,
            &mut rng,
        )
    }

    /// Worlds of hidden tiles seated at tables (those the view rules out are left out).
    pub fn seat_worlds(&self, view: &View, worlds: Vec<(Hidden, f64)>) -> Vec<(Table, f64)> {
        worlds
            .into_iter()
            .filter_map(|(h, w)| Some((Table::from_view(view, self.rules.clone(), &h).ok()?, w)))
            .collect()
    }
}

/// The chains that draw the worlds: a few long chains, worlds taken apart from each
/// other (12 chains give the worlds as near the true hands as 48, at a quarter of the
/// swaps: `lab nearer`, docs/expert-belief.md). The live waits and the ranks of the latest
/// discards are not read in play: both measured no better (docs/expert-belief.md).
pub const CHAINS: crate::belief::Chains = crate::belief::Chains {
    chains: 12,
    burn: 400,
    thin: 50,
    alpha: 1.0,
    passes: PASSES,
    live: [0.0; crate::belief::LIVE],
    throws: [[0.0; crate::belief::RANKS]; crate::belief::AGES],
    depth: 0,
};

/// The log weights of a world's ready hand by the age of the first turn that refutes it,
/// then where none does ([`crate::belief::Chains::passes`]): set so that the worlds' ready
/// hands are refuted at each age about as often as strong's true ones
/// (`lab order`, docs/expert-belief.md).
pub const PASSES: [f64; crate::belief::WINDOWS + 1] = [-6.0, -2.3, -1.0, -1.0, 0.44];

/// How many tied discards the expert's own plan weighs by acceptance: all of them, which
/// played better than strong's three as a plan of its own (+0.032 IMP/hand [0.005,
/// 0.060] over 20,000 deals, docs/bots.md).
const OWN_ACCEPTANCE_OF: usize = usize::MAX;

/// Raw samples drawn for each world kept.
const OVERSAMPLE: usize = 4;

/// Standard errors a candidate's mean gain over strong's choice must clear.
const GATE: f64 = 2.0;
/// Worlds played out before a hard stop below which strong's choice stands.
const MIN_WORLDS: usize = 8;
/// Candidates searched at most (strong's choice among them).
const MAX_CANDIDATES: usize = 6;

/// What to search: strong's choice first, then on a turn the discards that keep the
/// hand as near to ready as the best one does (by the regular shanten), or every legal
/// claim answer.
fn candidates(view: &View, planned: Action, max: usize) -> Vec<Action> {
    let mut out = vec![planned];
    let melds = view.melds[view.seat.index()].len();
    let others = view.legal.iter().copied().filter(|a| *a != planned);
    match view.decision {
        Some(Decision::Turn { .. }) => {
            let after = |a: &Action| -> i32 {
                let mut c = *view.hand.counts();
                match a {
                    Action::Discard(t) => {
                        c[t.index()] -= 1;
                        mcr::wait::shanten_regular(&c, melds)
                    }
                    _ => i32::MAX,
                }
            };
            let best = view.legal.iter().map(after).min().unwrap_or(i32::MAX);
            out.extend(others.filter(|a| after(a) == best).take(max - 1));
        }
        _ => out.extend(others.take(max - 1)),
    }
    out
}

/// Deals the unseen tiles at random: concealed kongs first (a kind with four unseen
/// copies), then the other hands, then the walls; on a shared wall, the unseen `bonus`
/// tiles at places in the undrawn row drawn at random.
fn sample(
    pool: &Counts,
    sizes: &HiddenSizes,
    bonus: &[table::wall::Bonus],
    me: Wind,
    rng: &mut ChaCha8Rng,
) -> Option<Hidden> {
    let mut left = *pool;
    let mut h = Hidden::default();
    let mut below = crate::belief::below(rng);
    for s in 0..4 {
        for _ in 0..sizes.kongs[s] {
            let fours: Vec<usize> = (0..left.len()).filter(|&i| left[i] == 4).collect();
            if fours.is_empty() {
                return None;
            }
            let k = fours[below(fours.len())];
            left[k] = 0;
            h.kongs[s].push(Tile::from_index(k)?);
        }
    }
    let mut tiles: Vec<Tile> = Vec::with_capacity(136);
    for (i, &n) in left.iter().enumerate() {
        let t = Tile::from_index(i)?;
        tiles.extend(std::iter::repeat_n(t, n as usize));
    }
    crate::belief::shuffle(&mut tiles, &mut below);
    let mut it = tiles.into_iter();
    for s in 0..4 {
        if s != me.index() {
            h.hands[s] = it.by_ref().take(sizes.hands[s]).collect();
        }
    }
    for s in 0..4 {
        h.walls[s] = it.by_ref().take(sizes.walls[s]).collect();
    }
    h.bonus = bonus.iter().map(|&b| (0, b)).collect();
    crate::belief::place_bonus(&mut h.bonus, sizes.walls[0] + bonus.len(), &mut below);
    Some(h)
}

impl Agent for ExpertBot {
    fn name(&self) -> &str {
        "expert"
    }

    fn set_rules(&mut self, rules: &TableRules) {
        self.rules = rules.clone();
        self.plan.rules = rules.scoring.clone();
    }

    fn act(&mut self, view: &View) -> Action {
        let planned = self.plan.act(view);
        let Some(candidates) = self.to_search(view, planned) else {
            return planned;
        };
        let worlds = self.worlds(view, self.per_candidate(&candidates));
        self.decisions += 1;
        self.choose(view, &candidates, &worlds)
    }

    fn thinks(&self) -> bool {
        true
    }

    fn appraise(&mut self, view: &View, played: Action) -> Option<Appraisal> {
        if !view.legal.contains(&played) {
            return None;
        }
        let planned = self.plan.act(view);
        // A win let go is weighed against taking it; a win taken against playing on the
        // simplest way that keeps the wait (letting the tile go, or discarding the one
        // drawn).
        let mut candidates = match (view.legal.contains(&Action::Hu), played) {
            (true, Action::Hu) => {
                let on = match view.decision {
                    Some(Decision::Turn { drew: Some(t), .. }) => Action::Discard(t),
                    Some(Decision::Claim { .. } | Decision::RobKong { .. }) => Action::Pass,
                    _ => return None,
                };
                if !view.legal.contains(&on) {
                    return None;
                }
                vec![on]
            }
            (true, _) => vec![Action::Hu],
            (false, _) => self
                .to_search(view, planned)
                .unwrap_or_else(|| vec![planned]),
        };
        // The move played first, standing unless another clearly beats it.
        candidates.retain(|&c| c != played);
        candidates.insert(0, played);
        if candidates.len() < 2 || view.decision.is_none() {
            return None;
        }
        let worlds = self.worlds(view, self.per_candidate(&candidates));
        self.decisions += 1;
        let outcomes = self.play_out(view, &candidates, &worlds);
        let results = &outcomes.points;
        let weights: Vec<f64> = worlds
            .iter()
            .map(|(_, w)| *w)
            .take(results[0].len())
            .collect();
        if weights.len() < self.config.min_worlds {
            return None;
        }
        // A move is a mistake only where another is clearly better on the same worlds, as
        // strong's choice is left only then.
        let (best, gain) = self.pick(&candidates, results, &weights);
        let i = candidates
            .iter()
            .position(|&c| c == best)
            .expect("a candidate");
        let d: Vec<f64> = results[i]
            .iter()
            .zip(&results[0])
            .map(|(a, b)| (*a - *b) as f64)
            .collect();
        let error = crate::belief::weighted_gain(&d, &weights).1;
        let played_points = mean_points(&results[0], &weights);
        let weighed = candidates
            .iter()
            .zip(results)
            .enumerate()
            .map(|(k, (&action, r))| {
                let d: Vec<f64> = r
                    .iter()
                    .zip(&results[0])
                    .map(|(a, b)| (*a - *b) as f64)
                    .collect();
                Candidate {
                    action,
                    points: mean_points(r, &weights),
                    error: if k == 0 {
                        0.0
                    } else {
                        crate::belief::weighted_gain(&d, &weights).1
                    },
                }
            })
            .collect();
        Some(Appraisal {
            best,
            best_points: played_points + gain,
            played_points,
            error: if i == 0 { 0.0 } else { error },
            worlds: weights.len(),
            candidates: weighed,
        })
    }
}

impl ExpertBot {
    /// The candidates to search at `view` (strong's choice `planned` first), or `None`
    /// where strong's choice is played as it is: one legal move, a win.
    pub fn to_search(&self, view: &View, planned: Action) -> Option<Vec<Action>> {
        let claim = matches!(
            view.decision,
            Some(Decision::Claim { .. } | Decision::RobKong { .. })
        );
        if view.legal.len() <= 1
            || view.legal.contains(&Action::Hu)
            || view.decision.is_none()
            || (claim && !self.config.search_claims)
        {
            return None;
        }
        Some(candidates(view, planned, self.config.max_candidates)).filter(|c| c.len() > 1)
    }

    /// Worlds for each of `candidates`: the playouts shared among them.
    pub fn per_candidate(&self, candidates: &[Action]) -> usize {
        (self.config.playouts / candidates.len()).max(self.config.min_worlds)
    }

    /// The candidate to play, from `candidates` (strong's choice first) played out in
    /// `worlds`: strong's choice unless another is clearly better on the same worlds.
    pub fn choose(&self, view: &View, candidates: &[Action], worlds: &[(Table, f64)]) -> Action {
        self.choose_scored(view, candidates, worlds).0
    }

    /// [`ExpertBot::choose`], and the mean gain over strong's choice it saw (0 when it
    /// keeps strong's choice).
    pub fn choose_scored(
        &self,
        view: &View,
        candidates: &[Action],
        worlds: &[(Table, f64)],
    ) -> (Action, f64) {
        if worlds.is_empty() {
            return (candidates[0], 0.0);
        }
        let outcomes = self.play_out(view, candidates, worlds);
        let weights: Vec<f64> = worlds
            .iter()
            .take(outcomes.points[0].len())
            .map(|(_, w)| *w)
            .collect();
        self.pick(candidates, &outcomes.points, &weights)
    }

    /// Each candidate's points in every world (strong's choice first), world by world so
    /// that a hard stop leaves every candidate the same worlds.
    pub fn play_out(
        &self,
        view: &View,
        candidates: &[Action],
        worlds: &[(Table, f64)],
    ) -> Outcomes {
        let start = std::time::Instant::now();
        let n = candidates.len();
        let mut points: Vec<Vec<i32>> = vec![Vec::with_capacity(worlds.len()); n];
        let mut dealt_in: Vec<Vec<bool>> = vec![Vec::with_capacity(worlds.len()); n];
        for (w, _) in worlds {
            if self
                .config
                .hard_stop
                .is_some_and(|stop| start.elapsed() > stop)
            {
                break;
            }
            for (i, &c) in candidates.iter().enumerate() {
                let mut t = w.clone();
                let (p, d) = match t.apply(view.seat, c) {
                    Ok(()) => playout(t, &self.rules.scoring, view.seat),
                    Err(_) => (i32::MIN / 4, false),
                };
                points[i].push(p);
                dealt_in[i].push(d);
            }
        }
        Outcomes { points, dealt_in }
    }

    /// Strong's choice (the first candidate) unless another is clearly better on the same
    /// worlds: its weighted mean gain (`results`, one row a candidate, weighed by
    /// `weights`) above [`ExpertConfig::gate`] standard errors of the paired differences.
    /// With the mean gain it saw (0 when it keeps strong's choice).
    pub fn pick(
        &self,
        candidates: &[Action],
        results: &[Vec<i32>],
        weights: &[f64],
    ) -> (Action, f64) {
        let planned = candidates[0];
        if results[0].len() < self.config.min_worlds {
            return (planned, 0.0);
        }
        let mut best = (planned, 0.0);
        for (c, r) in candidates.iter().zip(results).skip(1) {
            let d: Vec<f64> = r
                .iter()
                .zip(&results[0])
                .map(|(a, b)| (*a - *b) as f64)
                .collect();
            let (mean, se) = crate::belief::weighted_gain(&d, weights);
            if mean > self.config.gate * se && mean > best.1 {
                best = (*c, mean);
            }
        }
        best
    }
}

mod playout;
pub use playout::{mean_points, playout, Outcomes};
#[cfg(test)]
mod tests;
