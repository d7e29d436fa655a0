//! What the server tells one place of something it did for them (a time-out default, a
//! stand-in), as text with `{}` that each page says in its own language.

use serde::Serialize;
use table::engine::Action;

/// A message for one place: English text with `{}` for its arguments (the page says it in
/// its language, [`crate::text::TEXTS`]), and a second sentence when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The sentence.
    pub text: &'static str,
    /// What goes in its `{}`: a tile's code for a tile.
    pub args: Vec<String>,
    /// A sentence after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<&'static str>,
}

impl Notice {
    /// A sentence with nothing to fill in.
    pub fn plain(text: &'static str) -> Notice {
        Notice {
            text,
            args: vec![],
            then: None,
        }
    }

    /// What the server played when a person's time ran out, in words.
    pub fn timed_out(action: Action, away: bool) -> Notice {
        let (text, args) = match action {
            Action::Pass => ("Time ran out: you passed.", vec![]),
            Action::Discard(t) => (
                "Time ran out: you discarded {}.",
                vec![t.code().to_string()],
            ),
            Action::Bonus => ("Time ran out: you set the flower aside.", vec![]),
            other => (
                "Time ran out: the server played {} for you.",
                vec![other.to_string()],
            ),
        };
        Notice {
            text,
            args,
            then: away.then_some("A bot plays for you until you come back."),
        }
    }

    /// The notice in English, filled in.
    pub fn english(&self) -> String {
        let mut s = crate::text::fill(self.text, &self.args);
        if let Some(t) = self.then {
            s.push(' ');
            s.push_str(t);
        }
        s
    }
}
