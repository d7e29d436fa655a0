//! Applying decisions: a turn's discard, kong or win, the claims on a discard
//! resolved by priority, faults, and the end of the hand.

use super::{
    match_points, relative, Action, Bonus, Event, HandResult, IllegalAction, Meld, MeldKind,
    Outcome, Phase, SeenMeld, Settlement, Table, Tile, WinRecord, Wind,
};

impl Table {
    pub(super) fn finish(&mut self, s: Settlement, wins: Vec<WinRecord>, discarder: Option<Wind>) {
        let points = match_points(&s, self.rules.payments);
        let kind = match s {
            Settlement::Draw => Outcome::Draw,
            Settlement::SelfDrawn { .. } => Outcome::SelfDrawn,
            Settlement::Discard { .. } => Outcome::Discard,
        };
        let result = HandResult {
            kind,
            discarder,
            wins,
            offender: None,
            points,
        };
        self.events.push(Event::End {
            result: Box::new(result.clone()),
        });
        self.result = Some(result);
        self.phase = Phase::Over;
    }

    /// Ends the hand on `seat`'s error, paid as the rules say. A hand that has just ended
    /// drawn can still take one: the Botzone judge asks every seat about the last discard
    /// before it calls the draw, and scores a wrong answer there as an error.
    pub(super) fn fault(&mut self, seat: Wind) -> Result<(), IllegalAction> {
        let drawn = self
            .result
            .as_ref()
            .is_some_and(|r| r.kind == Outcome::Draw);
        let why = match (self.rules.error_penalty, &self.phase) {
            (Some(_), Phase::Over) if !drawn => "the hand is over",
            (None, Phase::Over) => "the hand is over",
            (None, _) => "these rules go on after a bot's error",
            (Some(p), _) => {
                if drawn {
                    self.events.pop(); // the draw's End, replaced below
                }
                let mut points = [p.others; 4];
                points[seat.index()] = -p.offender;
                let result = HandResult {
                    kind: Outcome::Fault,
                    discarder: None,
                    wins: Vec::new(),
                    offender: Some(seat),
                    points,
                };
                self.events.push(Event::End {
                    result: Box::new(result.clone()),
                });
                self.result = Some(result);
                self.phase = Phase::Over;
                self.refresh_legal();
                return Ok(());
            }
        };
        Err(self.illegal(seat, Action::Fault, why.to_string()))
    }

    /// Applies one decision; an illegal one changes nothing.
    pub fn apply(&mut self, seat: Wind, action: Action) -> Result<(), IllegalAction> {
        if action == Action::Fault {
            return self.fault(seat);
        }
        let legal = &self.legal[seat.index()];
        if !legal.contains(&action) {
            let why = match &self.phase {
                Phase::Over => "the hand is over".to_string(),
                _ if legal.is_empty() => "it is not this seat's decision".to_string(),
                _ => format!(
                    "legal now: {}",
                    legal
                        .iter()
                        .map(|a| a.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            return Err(self.illegal(seat, action, why));
        }
        match self.phase.clone() {
            Phase::Turn {
                drew,
                replacement,
                bonus,
                ..
            } => self.act_on_turn(seat, action, drew, replacement, bonus),
            Phase::Claims {
                from,
                tile,
                robbing,
                mut answers,
                asked,
            } => {
                answers[seat.index()] = Some(action);
                let done = (0..4).all(|i| !asked[i] || answers[i].is_some());
                self.phase = Phase::Claims {
                    from,
                    tile,
                    robbing,
                    answers,
                    asked,
                };
                self.legal[seat.index()].clear();
                if done {
                    self.resolve_claims(from, tile, robbing, answers);
                    self.refresh_legal();
                }
                return Ok(());
            }
            Phase::Over => unreachable!("no legal action when over"),
        }
        self.refresh_legal();
        Ok(())
    }

    pub(super) fn act_on_turn(
        &mut self,
        seat: Wind,
        action: Action,
        drew: Option<Tile>,
        replacement: bool,
        bonus: Option<Bonus>,
    ) {
        let s = seat.index();
        match action {
            Action::Bonus => {
                self.bonus[s].extend(bonus);
                let kong = replacement && !self.rules.bonus_breaks_kong_replacement;
                self.draw_and_act(seat, kong, true);
            }
            Action::DiscardBonus => {
                let b = bonus.expect("offered only with a bonus tile drawn");
                self.bonus_discards[s].push(b);
                self.events.push(Event::DiscardBonus { seat, bonus: b });
                self.start_turn(seat.next(), false);
            }
            Action::Hu => {
                let t = drew.expect("Hu is offered only after a draw");
                let win = self
                    .win_with(seat, t, true, replacement, self.last_tile_point)
                    .expect("offered win is valid");
                let value = win.value;
                self.events.push(Event::Hu {
                    win: Box::new(win.clone()),
                });
                self.finish(
                    Settlement::SelfDrawn {
                        winner: seat,
                        value,
                    },
                    vec![win],
                    None,
                );
            }
            Action::Discard(t) => {
                self.remove_tiles(s, t, 1);
                self.discards[s].push(t);
                self.thrown.push((seat, t));
                self.visible[t.index()] += 1;
                self.events.push(Event::Discard { seat, tile: t });
                self.open_claims(seat, t, false);
            }
            Action::ConcealedKong(t) => {
                self.remove_tiles(s, t, 4);
                self.melds[s].push(Meld::concealed_kong(t));
                self.sync_melds(seat);
                self.events.push(Event::Kong {
                    seat,
                    tile: t,
                    kind: "concealed".into(),
                });
                self.replacement_draw(seat);
            }
            Action::PromotedKong(t) => {
                self.events.push(Event::Kong {
                    seat,
                    tile: t,
                    kind: "promoted".into(),
                });
                self.open_claims(seat, t, true);
            }
            _ => unreachable!("claim actions are not offered on a turn"),
        }
    }

    /// After a discard (or a promoted kong): ask the seats that have a legal claim.
    pub(super) fn open_claims(&mut self, from: Wind, tile: Tile, robbing: bool) {
        let mut asked = [false; 4];
        for w in Wind::ALL {
            let mut options = std::mem::take(&mut self.legal[w.index()]);
            options.clear();
            if w != from {
                self.claim_options_into(w, from, tile, robbing, &mut options);
            }
            asked[w.index()] = options.len() > 1;
            if !asked[w.index()] {
                options.clear();
            }
            self.legal[w.index()] = options;
        }
        let answers = [None; 4];
        if asked.iter().any(|&a| a) {
            self.phase = Phase::Claims {
                from,
                tile,
                robbing,
                answers,
                asked,
            };
        } else {
            self.resolve_claims(from, tile, robbing, answers);
        }
    }

    pub(super) fn resolve_claims(
        &mut self,
        from: Wind,
        tile: Tile,
        robbing: bool,
        answers: [Option<Action>; 4],
    ) {
        // Seats in turn order after the discarder.
        let order: Vec<Wind> = (1..4).map(|k| Wind::from_index(from.index() + k)).collect();
        let mut winners: Vec<Wind> = order
            .iter()
            .copied()
            .filter(|w| answers[w.index()] == Some(Action::Hu))
            .collect();
        if !winners.is_empty() {
            if !self.rules.multiple_winners {
                winners.truncate(1);
            }
            let last = self.last_tile_point && !robbing;
            let wins: Vec<WinRecord> = winners
                .iter()
                .map(|&w| {
                    self.win_with(w, tile, false, robbing, last)
                        .expect("offered win is valid")
                })
                .collect();
            for w in &wins {
                self.events.push(Event::Hu {
                    win: Box::new(w.clone()),
                });
            }
            let settle = Settlement::Discard {
                discarder: from,
                winners: wins.iter().map(|w| (w.seat, w.value)).collect(),
            };
            self.finish(settle, wins, Some(from));
            return;
        }
        if robbing {
            // Nobody robbed: the promotion stands.
            let s = from.index();
            self.remove_tiles(s, tile, 1);
            self.visible[tile.index()] += 1;
            if let Some(m) = self.melds[s]
                .iter_mut()
                .find(|m| m.kind == MeldKind::Pung && m.tile == tile)
            {
                *m = Meld::promoted_kong(tile, m.from);
            }
            self.sync_melds(from);
            self.replacement_draw(from);
            return;
        }
        for &w in &order {
            let s = w.index();
            match answers[s] {
                Some(Action::Kong) | Some(Action::Pung) => {
                    let kong = answers[s] == Some(Action::Kong);
                    let n = if kong { 3 } else { 2 };
                    self.take_discard(from, tile);
                    self.remove_tiles(s, tile, n);
                    self.visible[tile.index()] += n;
                    let rel = relative(from, w);
                    self.melds[s].push(if kong {
                        Meld::melded_kong(tile, rel)
                    } else {
                        Meld::pung(tile, rel)
                    });
                    self.sync_melds(w);
                    if kong {
                        self.events.push(Event::Kong {
                            seat: w,
                            tile,
                            kind: "melded".into(),
                        });
                        self.start_turn(w, true);
                        if !self.is_over() {
                            self.replacement_draw(w);
                        }
                    } else {
                        self.events.push(Event::Pung { seat: w, tile });
                        self.start_turn(w, true);
                    }
                    return;
                }
                _ => {}
            }
        }
        let next = from.next();
        if let Some(Action::Chow(low)) = answers[next.index()] {
            let s = next.index();
            self.take_discard(from, tile);
            for k in 0..3 {
                let x = low.offset(k).expect("chow tile");
                if x != tile {
                    self.remove_tiles(s, x, 1);
                }
                self.visible[x.index()] += 1;
            }
            self.visible[tile.index()] -= 1; // the claimed tile was already visible
            let pos = tile.rank() - low.rank() + 1;
            self.melds[s].push(Meld::chow(low, pos).expect("chow"));
            self.sync_melds(next);
            self.events.push(Event::Chow {
                seat: next,
                tile,
                low,
            });
            self.start_turn(next, true);
            return;
        }
        // Nobody claimed. After the last-tile point that ends the hand.
        if self.last_tile_point {
            self.finish(Settlement::Draw, Vec::new(), None);
        } else {
            self.start_turn(next, false);
        }
    }

    pub(super) fn take_discard(&mut self, from: Wind, tile: Tile) {
        let pile = &mut self.discards[from.index()];
        if pile.last() == Some(&tile) {
            pile.pop();
        }
        // The tile moves from a discard pile into a meld: still visible.
    }

    /// Keeps the seen melds of `seat` in step with its melds.
    pub(super) fn sync_melds(&mut self, seat: Wind) {
        let s = seat.index();
        self.own_melds[s].clear();
        self.own_melds[s].extend(self.melds[s].iter().map(|m| SeenMeld::Open(*m)));
        self.public_melds[s].clear();
        self.public_melds[s].extend(self.melds[s].iter().map(|m| {
            if m.kind == MeldKind::ConcealedKong {
                SeenMeld::HiddenKong
            } else {
                SeenMeld::Open(*m)
            }
        }));
    }
}
