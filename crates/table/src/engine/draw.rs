//! Draws: where the next tile comes from in each wall model, replacements after a kong
//! or a bonus tile, and the start of a turn.

use super::{
    position_label, wall_label_static, Drawn, Event, Phase, Settlement, Setup, Table, WallEnd,
    WallTile, Walls, Wind, WALL,
};

impl Table {
    /// The last-tile point of personal walls: `seat` gets the turn while the next seat's
    /// wall is empty (rules §3.8). Under [`TableRules::claims_at_last_tile`] the point is looked at anew each turn,
    /// since a claim on the last discard can hand the turn to a seat whose next seat can
    /// still draw.
    pub(super) fn wall_turn_reached(&mut self, seat: Wind) {
        if let Walls::Personal { drawn } = &self.walls {
            let empty_next = drawn[seat.next().index()] >= WALL;
            if !self.last_tile_point && empty_next {
                self.last_tile_point = true;
                self.events.push(Event::LastTilePoint { seat });
            } else if self.rules.claims_at_last_tile {
                self.last_tile_point = empty_next;
            }
        }
    }

    /// The last-tile point of one shared wall: `seat` has drawn its last tile (rules §8).
    pub(super) fn wall_drawn(&mut self, seat: Wind) {
        if let Walls::Shared(w) = &self.walls {
            if !self.last_tile_point && w.left() == 0 {
                self.last_tile_point = true;
                self.events.push(Event::LastTilePoint { seat });
            }
        }
    }

    /// Draws one tile for `seat`: from its own wall, or from the shared wall's live end
    /// (the back end for a replacement). A bonus tile is not added to the hand.
    pub(super) fn draw_one(&mut self, seat: Wind, replacement: bool) -> Drawn {
        let s = seat.index();
        // East's fourteenth tile, replaced at the deal, is East's first draw (the deal's
        // other replacements, drawn meanwhile, are replacements: they pass by).
        if let Some((t, pos)) = self.east_fourteenth.filter(|_| !replacement) {
            self.east_fourteenth = None;
            self.add_tile(s, t);
            self.events.push(Event::Draw {
                seat,
                tile: t,
                label: position_label(pos).into(),
                replacement: true,
                end: Some(WallEnd::Back),
            });
            return Drawn::Tile(t);
        }
        let (tile, label, end) = match (&mut self.walls, &self.setup) {
            (Walls::Personal { drawn }, Setup::Duplicate(d)) => {
                if drawn[s] >= WALL {
                    return Drawn::Nothing;
                }
                let t = d.walls[s][drawn[s]];
                let label = wall_label_static(seat, drawn[s]);
                drawn[s] += 1;
                (WallTile::Tile(t), label, None)
            }
            (Walls::Shared(w), _) => {
                let end = if replacement {
                    WallEnd::Back
                } else {
                    WallEnd::Live
                };
                let Some((t, pos)) = w.take(end) else {
                    return Drawn::Nothing;
                };
                (t, position_label(pos), Some(end))
            }
            _ => unreachable!("the walls follow the setup"),
        };
        match tile {
            WallTile::Tile(t) => {
                self.add_tile(s, t);
                self.events.push(Event::Draw {
                    seat,
                    tile: t,
                    label: label.into(),
                    replacement,
                    end,
                });
                Drawn::Tile(t)
            }
            WallTile::Bonus(b) => {
                self.events.push(Event::Bonus {
                    seat,
                    bonus: b,
                    label: label.into(),
                    end,
                });
                Drawn::Bonus(b)
            }
        }
    }

    /// `seat` gets the turn: normally (draws) or by a claim (no draw).
    pub(super) fn start_turn(&mut self, seat: Wind, by_claim: bool) {
        self.wall_turn_reached(seat);
        if by_claim {
            self.phase = Phase::Turn {
                seat,
                drew: None,
                replacement: false,
                bonus: None,
            };
            return;
        }
        self.draw_and_act(seat, false, false);
    }

    pub(super) fn replacement_draw(&mut self, seat: Wind) {
        self.draw_and_act(seat, true, true);
    }

    /// `seat` draws and must act; `kong` marks a kong's replacement (a bonus tile drawn
    /// on the way ends it, seeds/004 #46, unless the rules' version kept it), `from_back`
    /// a replacement of any kind. Bonus tiles are set aside and replaced unless the rules
    /// let the player discard them. No tile left ends the hand.
    pub(super) fn draw_and_act(&mut self, seat: Wind, kong: bool, from_back: bool) {
        let mut from_back = from_back;
        let mut kong = kong;
        loop {
            match self.draw_one(seat, from_back) {
                Drawn::Tile(t) => {
                    self.wall_drawn(seat);
                    self.phase = Phase::Turn {
                        seat,
                        drew: Some(t),
                        replacement: kong,
                        bonus: None,
                    };
                    return;
                }
                Drawn::Bonus(b) if self.rules.bonus_discard => {
                    self.phase = Phase::Turn {
                        seat,
                        drew: None,
                        replacement: kong,
                        bonus: Some(b),
                    };
                    return;
                }
                Drawn::Bonus(b) => {
                    self.bonus[seat.index()].push(b);
                    from_back = true;
                    kong &= !self.rules.bonus_breaks_kong_replacement;
                }
                Drawn::Nothing => {
                    self.finish(Settlement::Draw, Vec::new(), None);
                    return;
                }
            }
        }
    }
}
