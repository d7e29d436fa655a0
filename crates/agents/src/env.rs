//! One table as a multi-agent environment: some seats are played from outside (a learning
//! bot, a Python policy), the others by built-in bots that move on their own.
//!
//! Actions come and go as indices of the 235-action layout ([`crate::encode`]); a seat's
//! observation is its [`View`] only. When the hand is over the reward is its match points
//! or, with a `field`, IMP against the other results of the same deal-seat: the same tiles
//! played by the field's bots at [`FIELD_TABLES`] tables (rules §5).
//!
//! [`GameEnv`] is a whole regular game (rules §8): the same players for up to 16 hands,
//! seats rotating, scores running on.

use mcr::Wind;
use table::engine::{Action, Table, View};
use table::game::{Game, GameHand, GameLog};
use table::log::{Decision, HandLog};
use table::points::imp_of_dif;
use table::rules::TableRules;
use table::wall::Setup;

use crate::drive::play_table;
use crate::encode::{action_index, ACTIONS};
use crate::{agent::Agent, registry::builtin};

/// Tables the field plays each deal to compare a result with (one per seating seed).
pub const FIELD_TABLES: usize = 4;

/// Who plays a seat.
pub type Seats = [Option<String>; 4];

/// One hand at a table with outside seats and built-in bots.
pub struct TableEnv {
    rules: TableRules,
    /// By seat: the built-in bot's name, or `None` for a seat played from outside.
    names: Seats,
    bots: [Option<Box<dyn Agent + Send>>; 4],
    field: Option<String>,
    setup: Setup,
    table: Table,
    decisions: Vec<Decision>,
    /// The field's match points by seat, computed once the hand is over.
    field_points: Option<Vec<[i32; 4]>>,
    bot_seed: u64,
}

/// Refuses rules whose decisions the 235-action layout cannot express.
pub fn check_rules(rules: &TableRules) -> Result<(), String> {
    if rules.bonus_discard {
        return Err(format!(
            "rules: '{}' lets a bonus tile be discarded, which the 235-action layout cannot say",
            rules.name
        ));
    }
    Ok(())
}

fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Agent + Send>, String> {
    builtin(name, seed).ok_or_else(|| {
        format!(
            "no built-in bot called '{name}' (choose {})",
            crate::registry::BUILTIN.join(", ")
        )
    })
}

impl TableEnv {
    /// A table for `setup`; `names` gives the bot of each seat (`None`: played from
    /// outside), `field` the bot whose results the IMP reward compares with.
    pub fn new(
        rules: TableRules,
        names: Seats,
        field: Option<String>,
        setup: Setup,
        bot_seed: u64,
    ) -> Result<TableEnv, String> {
        check_rules(&rules)?;
        if setup.model() != rules.wall {
            return Err(format!(
                "the deal does not suit the rules '{}' (personal walls for duplicate rules, one shared wall for regular ones)",
                rules.name
            ));
        }
        for n in names.iter().chain(std::iter::once(&field)).flatten() {
            make_bot(n, 0)?;
        }
        let table = Table::start(setup.clone(), rules.clone()).map_err(|e| e.to_string())?;
        let mut env = TableEnv {
            bots: Default::default(),
            rules,
            names,
            field,
            setup,
            table,
            decisions: Vec::new(),
            field_points: None,
            bot_seed,
        };
        env.restart(None, bot_seed)?;
        Ok(env)
    }

    /// Starts again on `setup` (the same tiles when `None`), bots seeded by `bot_seed`,
    /// and lets the bots move until an outside seat must decide.
    pub fn restart(&mut self, setup: Option<Setup>, bot_seed: u64) -> Result<(), String> {
        if let Some(s) = setup {
            if s.model() != self.rules.wall {
                return Err(format!(
                    "the deal does not suit the rules '{}'",
                    self.rules.name
                ));
            }
            self.setup = s;
        }
        self.table =
            Table::start(self.setup.clone(), self.rules.clone()).map_err(|e| e.to_string())?;
        self.bot_seed = bot_seed;
        for s in 0..4 {
            self.bots[s] = match &self.names[s] {
                Some(n) => {
                    let mut b = make_bot(n, seed_of(bot_seed, 0, s))?;
                    b.set_rules(&self.rules);
                    Some(b)
                }
                None => None,
            };
        }
        self.decisions.clear();
        self.field_points = None;
        self.advance();
        Ok(())
    }

    /// Lets the bots move until an outside seat must decide or the hand is over.
    fn advance(&mut self) {
        while let Some(seat) = self
            .table
            .to_act()
            .into_iter()
            .find(|w| self.bots[w.index()].is_some())
        {
            let view = self.table.view(seat);
            let bot = self.bots[seat.index()].as_mut().expect("a bot seat");
            let mut action = bot.act(&view);
            if !view.legal.contains(&action) {
                action = crate::drive::safe_default(view.legal);
            }
            self.table
                .apply(seat, action)
                .expect("a legal action applies");
            self.decisions.push(Decision { seat, action });
        }
        if self.table.is_over() && self.field.is_some() && self.field_points.is_none() {
            self.field_points = Some(self.play_field());
        }
    }

    fn play_field(&self) -> Vec<[i32; 4]> {
        let name = self.field.as_deref().expect("a field");
        (0..FIELD_TABLES)
            .map(|t| {
                let mut agents: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
                    make_bot(name, seed_of(self.bot_seed, t + 1, s)).expect("checked")
                });
                let (table, _) = play_table(self.setup.clone(), self.rules.clone(), &mut agents);
                table.result().expect("finished").points
            })
            .collect()
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The tiles being played.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// By seat: the bot's name, `None` for outside seats.
    pub fn names(&self) -> &Seats {
        &self.names
    }

    /// Outside seats that must decide now.
    pub fn waiting(&self) -> Vec<Wind> {
        self.table
            .to_act()
            .into_iter()
            .filter(|w| self.bots[w.index()].is_none())
            .collect()
    }

    /// A seat's view.
    pub fn view(&self, seat: Wind) -> View<'_> {
        self.table.view(seat)
    }

    /// Checks one action index per seat (negative: none) without playing anything: every
    /// outside seat that must decide needs a legal index, and no other seat may give one.
    pub fn check(&self, actions: &[i64; 4]) -> Result<[Option<Action>; 4], String> {
        self.check_named(actions, |seat| format!("actions[{}]", seat.index()))
    }

    /// [`TableEnv::check`], its errors naming each seat's entry as `name` says (a game
    /// indexes its actions by player, not seat).
    pub fn check_named(
        &self,
        actions: &[i64; 4],
        name: impl Fn(Wind) -> String,
    ) -> Result<[Option<Action>; 4], String> {
        let waiting = self.waiting();
        let mut out = [None; 4];
        for seat in Wind::ALL {
            let s = seat.index();
            let a = actions[s];
            let at = name(seat);
            let asked = waiting.contains(&seat);
            if a < 0 {
                if asked {
                    return Err(format!("{at}: seat {seat} must decide now"));
                }
                continue;
            }
            if !asked {
                return Err(format!("{at}: seat {seat} has no decision now (give -1)"));
            }
            if a as usize >= ACTIONS {
                return Err(format!("{at}: {a} is not an action index (0–234)"));
            }
            let view = self.table.view(seat);
            let found = view
                .legal
                .iter()
                .copied()
                .find(|&x| action_index(x, view.decision.as_ref()) == Some(a as usize));
            match found {
                Some(x) => out[s] = Some(x),
                None => {
                    return Err(format!(
                        "{at}: {a} ({}) is not legal for seat {seat} now",
                        crate::encode::describe(a as usize).unwrap_or_default()
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Plays checked actions (from [`TableEnv::check`]) in seat order, then lets the bots
    /// move.
    pub fn apply(&mut self, actions: [Option<Action>; 4]) {
        for seat in Wind::ALL {
            if let Some(a) = actions[seat.index()] {
                self.table.apply(seat, a).expect("checked actions apply");
                self.decisions.push(Decision { seat, action: a });
            }
        }
        self.advance();
    }

    /// Checks and plays; nothing is played when any action is wrong.
    pub fn step(&mut self, actions: &[i64; 4]) -> Result<(), String> {
        let a = self.check(actions)?;
        self.apply(a);
        Ok(())
    }

    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        self.table.is_over()
    }

    /// Match points by seat once the hand is over (zeros before).
    pub fn points(&self) -> [i32; 4] {
        self.table.result().map_or([0; 4], |r| r.points)
    }

    /// IMP by seat against the field's results on the same tiles, once the hand is over
    /// and when a field was given (rules §5: each result against the mean of all results
    /// at that seat, this one included).
    pub fn imp(&self) -> Option<[i32; 4]> {
        let field = self.field_points.as_ref()?;
        let mine = self.points();
        let n = field.len() as i64 + 1;
        Some(std::array::from_fn(|s| {
            let sum = mine[s] as i64 + field.iter().map(|p| p[s] as i64).sum::<i64>();
            imp_of_dif(mine[s] as i64 * n - sum, n)
        }))
    }

    /// The field's match points, table by table, once the hand is over.
    pub fn field_points(&self) -> Option<&[[i32; 4]]> {
        self.field_points.as_deref()
    }

    /// The hand's log, once it is over (it shows every seat's tiles).
    pub fn log(&self) -> Option<HandLog> {
        self.table
            .is_over()
            .then(|| HandLog::of(&self.table, self.decisions.clone()))
    }
}

/// A regular game with outside players: players are numbered 0–3 by their seat in the
/// first hand, and each hand seats them as the rotation says (rules §8).
pub struct GameEnv {
    game: Game,
    /// By player: the bot's name, `None` for a player from outside.
    players: Seats,
    hand: TableEnv,
    logs: Vec<GameHand>,
    bot_seed: u64,
}

impl GameEnv {
    /// A game of `hands` hands (1–16) on the walls of `first_seed`, `first_seed + 1`, …
    /// under regular `rules`; the bots move until an outside player must decide.
    pub fn new(
        rules: TableRules,
        players: Seats,
        first_seed: u64,
        hands: usize,
        bot_seed: u64,
    ) -> Result<GameEnv, String> {
        let game = Game::new(rules.clone(), first_seed, hands).map_err(|e| e.to_string())?;
        let setup = game.next_setup().expect("a new game has a hand");
        let seats = game.next_seating().map(|p| players[p].clone());
        let hand = TableEnv::new(rules, seats, None, setup, seed_of(bot_seed, 0, 0))?;
        let mut env = GameEnv {
            game,
            players,
            hand,
            logs: Vec::new(),
            bot_seed,
        };
        env.settle();
        Ok(env)
    }

    /// Records every finished hand and starts the next, until an outside player must
    /// decide or the game is over.
    fn settle(&mut self) {
        while self.hand.is_over() && !self.game.is_over() {
            let seating = self.game.next_seating();
            let result = self.hand.table().result().cloned().expect("finished");
            self.game.record(&result).expect("the game has hands left");
            self.logs.push(GameHand {
                seating,
                log: self.hand.log().expect("finished"),
            });
            if let Some(setup) = self.game.next_setup() {
                let k = self.game.played();
                let seats = self.game.next_seating().map(|p| self.players[p].clone());
                let rules = self.game.rules().clone();
                self.hand = TableEnv::new(rules, seats, None, setup, seed_of(self.bot_seed, k, 0))
                    .expect("the settings were checked with the first hand");
            }
        }
    }

    /// The game's scores and hands so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The hand in play (the last one once the game is over).
    pub fn hand(&self) -> &TableEnv {
        &self.hand
    }

    /// The seat of `player` in the hand in play.
    pub fn seat_of(&self, player: usize) -> Wind {
        let seating = self.current_seating();
        Wind::from_index(
            seating
                .iter()
                .position(|&p| p == player)
                .expect("players 0–3"),
        )
    }

    fn current_seating(&self) -> [usize; 4] {
        // Once over, the last hand played: its seating was recorded with it.
        match self.logs.last() {
            Some(h) if self.game.is_over() => h.seating,
            _ => self.game.next_seating(),
        }
    }

    /// Outside players that must decide now.
    pub fn waiting(&self) -> Vec<usize> {
        let seating = self.current_seating();
        let mut v: Vec<usize> = self
            .hand
            .waiting()
            .into_iter()
            .map(|w| seating[w.index()])
            .collect();
        v.sort_unstable();
        v
    }

    /// A player's view of the hand in play.
    pub fn view(&self, player: usize) -> View<'_> {
        self.hand.view(self.seat_of(player))
    }

    /// Checks and plays one action index per player (negative: none); nothing is played
    /// when any is wrong. Returns each player's score change (the hands that ended).
    pub fn step(&mut self, actions: &[i64; 4]) -> Result<[i64; 4], String> {
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let seating = self.current_seating();
        let by_seat: [i64; 4] = std::array::from_fn(|s| actions[seating[s]]);
        // Errors name players, which is what the caller indexed by.
        let checked = self
            .hand
            .check_named(&by_seat, |w| format!("player {}", seating[w.index()]))?;
        let before = self.game.scores();
        self.hand.apply(checked);
        self.settle();
        let after = self.game.scores();
        Ok(std::array::from_fn(|p| after[p] - before[p]))
    }

    /// Whether every hand has been played.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The game's log once it is over (every hand, every seat's tiles).
    pub fn log(&self) -> Option<GameLog> {
        self.game.is_over().then(|| {
            let names = self
                .players
                .iter()
                .map(|p| p.clone().unwrap_or_else(|| "outside".into()))
                .collect();
            GameLog::of(
                &self.game,
                names,
                self.logs.iter().map(|h| h.log.clone()).collect(),
            )
        })
    }
}

/// The seed of seat `s`'s bot at table `t` (0: the environment's own table).
fn seed_of(seed: u64, t: usize, s: usize) -> u64 {
    (seed ^ ((t as u64) << 8 | s as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::legal_indices;

    fn env(names: Seats, field: Option<&str>, seed: u64) -> TableEnv {
        let rules = TableRules::seeds();
        let setup = Setup::generate(rules.wall, seed);
        TableEnv::new(rules, names, field.map(String::from), setup, seed).unwrap()
    }

    /// East from outside, greedy bots on the other seats.
    fn east_outside() -> Seats {
        [
            None,
            Some("greedy".into()),
            Some("greedy".into()),
            Some("greedy".into()),
        ]
    }

    #[test]
    fn four_bots_play_the_hand_the_driver_plays() {
        let e = env(std::array::from_fn(|_| Some("greedy".into())), None, 3);
        assert!(e.is_over());
        assert!(e.waiting().is_empty());
        let rules = TableRules::seeds();
        let mut agents: [Box<dyn Agent + Send>; 4] =
            std::array::from_fn(|_| builtin("greedy", 0).unwrap());
        let (t, n) = play_table(Setup::generate(rules.wall, 3), rules, &mut agents);
        assert_eq!(e.points(), t.result().unwrap().points);
        assert_eq!(e.log().unwrap().actions.len(), n);
    }

    /// The expert can be an opponent: with the same seeds it plays the moves it plays at a
    /// table of its own (a few of East's turns, for time: it searches every decision).
    #[test]
    fn the_expert_is_an_opponent_like_any_bot() {
        let names = [
            None,
            Some("expert".into()),
            Some("greedy".into()),
            Some("greedy".into()),
        ];
        let mut e = env(names, None, 21);
        let mut expert = make_bot("expert", seed_of(e.bot_seed, 0, 1)).unwrap();
        expert.set_rules(&e.rules);
        let mut shadow = Table::start(e.setup.clone(), e.rules.clone()).unwrap();
        let mut greedy = [builtin("greedy", 0).unwrap(), builtin("greedy", 0).unwrap()];
        for _ in 0..3 {
            let first = legal_indices(&e.view(Wind::East))[0].0 as i64;
            e.step(&[first, -1, -1, -1]).unwrap();
        }
        // The same hand replayed with the expert asked directly: the same moves.
        let log = e.decisions.clone();
        for d in &log {
            let view = shadow.view(d.seat);
            let a = match d.seat {
                Wind::South => expert.act(&view),
                Wind::West | Wind::North => greedy[d.seat.index() - 2].act(&view),
                _ => d.action,
            };
            assert_eq!(a, d.action, "{:?}", d);
            shadow.apply(d.seat, a).unwrap();
        }
        assert!(log.iter().filter(|d| d.seat == Wind::South).count() >= 2);
    }

    #[test]
    fn an_outside_seat_plays_its_first_legal_action_to_the_end() {
        let mut e = env(east_outside(), Some("greedy"), 11);
        let mut steps = 0;
        while !e.is_over() {
            assert_eq!(e.waiting(), vec![Wind::East]);
            let first = legal_indices(&e.view(Wind::East))[0].0 as i64;
            e.step(&[first, -1, -1, -1]).unwrap();
            steps += 1;
        }
        assert!(steps > 5, "{steps}");
        let imp = e.imp().unwrap();
        // The same tiles at every table: the IMP of a result is 0 when all are equal.
        let field = e.field_points().unwrap();
        if field.iter().all(|p| *p == e.points()) {
            assert_eq!(imp, [0; 4]);
        }
        assert!(e.log().is_some());
    }

    #[test]
    fn a_game_rotates_seats_and_its_scores_are_the_hands_points() {
        let mut g = GameEnv::new(
            TableRules::regular(),
            [
                Some("greedy".into()),
                None,
                Some("greedy".into()),
                Some("greedy".into()),
            ],
            40,
            8,
            1,
        )
        .unwrap();
        let mut total = [0i64; 4];
        let mut seats_seen = std::collections::BTreeSet::new();
        while !g.is_over() {
            assert_eq!(g.waiting(), vec![1]);
            seats_seen.insert(g.seat_of(1));
            let first = legal_indices(&g.view(1))[0].0 as i64;
            let change = g.step(&[-1, first, -1, -1]).unwrap();
            for p in 0..4 {
                total[p] += change[p];
            }
        }
        assert_eq!(g.game().played(), 8);
        assert_eq!(total, g.game().scores());
        // Player 1 sat South, then East, North, West (rules §8: the seats rotate).
        assert_eq!(seats_seen.len(), 4);
        let log = g.log().unwrap();
        assert_eq!(log.hands.len(), 8);
        assert_eq!(log.hands[1].seating, table::game::seating(1));
        assert!(g.step(&[-1; 4]).is_err());
    }

    #[test]
    fn wrong_actions_name_the_seat_and_change_nothing() {
        let mut e = env(east_outside(), None, 5);
        let before = e.table().events().len();
        let err = e.step(&[-1, -1, -1, -1]).unwrap_err();
        assert!(
            err.contains("actions[0]") && err.contains("must decide"),
            "{err}"
        );
        let err = e.step(&[0, 2, -1, -1]).unwrap_err();
        assert!(
            err.contains("actions[0]") || err.contains("actions[1]"),
            "{err}"
        );
        let err = e.step(&[235, -1, -1, -1]).unwrap_err();
        assert!(err.contains("not an action index"), "{err}");
        assert_eq!(e.table().events().len(), before);
    }
}
