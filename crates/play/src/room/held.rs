//! Whose a hand's result is. Once a person has been shown their tiles the hand is theirs,
//! whoever finishes it: a time-out is their move (the default), and a stand-in bot that
//! plays on after they left does not unrate it, so leaving never escapes a bad hand. A
//! hand they were never shown is not theirs. What a bot chose is never counted as the
//! person's play in their statistics.

use serde::{Deserialize, Serialize};

use super::HandSummary;

/// How much of a hand was the person's own, for one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Held {
    /// Played by whoever sat there (a bot's seat, or a person, time-outs included).
    Own,
    /// The person saw their tiles, then a stand-in bot chose some of their moves: the
    /// result is theirs (rated, compared), the play is not (not in their statistics).
    FinishedBy {
        /// The stand-in's level ("medium", …; "stand-in" for hands stored before this
        /// was kept).
        bot: String,
    },
    /// A stand-in played it from the start and the person never saw these tiles: not
    /// theirs (not rated, not in their statistics).
    Unseen {
        /// The stand-in's level.
        bot: String,
    },
}

impl Held {
    /// A seat's holding at the end of a hand: `person`, a person's seat; `shown`, they
    /// were shown their tiles; `bot`, the stand-in that chose a move for them, if any;
    /// `stand_in`, the table's stand-in.
    pub fn of(person: bool, shown: bool, bot: &Option<String>, stand_in: &str) -> Held {
        match (person, shown, bot) {
            (false, ..) | (true, true, None) => Held::Own,
            (true, true, Some(b)) => Held::FinishedBy { bot: b.clone() },
            (true, false, b) => Held::Unseen {
                bot: b.clone().unwrap_or_else(|| stand_in.to_string()),
            },
        }
    }

    /// The result is the person's: rated and compared.
    pub fn rated(&self) -> bool {
        !matches!(self, Held::Unseen { .. })
    }

    /// The play is the person's own: counted in their statistics.
    pub fn own_play(&self) -> bool {
        *self == Held::Own
    }

    /// What a list of hands says of it (English with `{}` for the bot's level), if
    /// anything.
    pub fn words(&self) -> Option<(&'static str, String)> {
        match self {
            Held::Own => None,
            Held::FinishedBy { bot } => Some(("finished by bot ({}) after you left", bot.clone())),
            Held::Unseen { bot } => Some((
                "played by bot ({}) from the start: you never saw these tiles, so it is not yours",
                bot.clone(),
            )),
        }
    }
}

impl HandSummary {
    /// Whose seat `seat`'s result is. Hands stored before holdings were kept say only
    /// that the server moved for the person: taken as finished by a stand-in (the
    /// time-outs of those days are among them, and a time-out is the person's move).
    pub fn held(&self, seat: usize) -> Held {
        match &self.held {
            Some(h) => h[seat].clone(),
            None if self.stood_in[seat] => Held::FinishedBy {
                bot: "stand-in".into(),
            },
            None => Held::Own,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_tiles_make_the_result_yours_and_a_bot_never_plays_as_you() {
        let medium = Some("medium".to_string());
        assert_eq!(Held::of(true, true, &None, "medium"), Held::Own);
        let finished = Held::of(true, true, &medium, "medium");
        assert!(finished.rated() && !finished.own_play());
        let unseen = Held::of(true, false, &None, "medium");
        assert_eq!(
            unseen,
            Held::Unseen {
                bot: "medium".into()
            }
        );
        assert!(!unseen.rated() && !unseen.own_play());
        // A bot's own seat is its own.
        assert_eq!(Held::of(false, false, &None, "medium"), Held::Own);
    }
}
