//! The English texts this crate sends or describes with, for the web layer to say in the
//! page's language: each has `{}` where its arguments go.

/// How a practice table's description is said: `{}` is what it plays.
pub const PRACTICE: &str = "{} (practice)";

/// Every text with its `{}`: descriptions of tables, labels of hands, notices.
pub const TEXTS: &[&str] = &[
    "challenge {}, deal {}",
    "event {}, round {} hand {}, table {}",
    "duplicate, deal {}",
    "duplicate, {} deals",
    "regular game, 16 hands",
    "regular game, {} hands",
    PRACTICE,
    "deal {} ({} of {})",
    "hand {} of {}, {} round",
    // Notices to one place (`room::Notice`).
    "Time is up: the rest of this hand is played by the time-out defaults.",
    "Time ran out: you passed.",
    "Time ran out: you discarded {}.",
    "Time ran out: you set the flower aside.",
    "Time ran out: the server played {} for you.",
    "A bot plays for you until you come back.",
    "Welcome back: you play your place again.",
];

/// `text` with each `{}` replaced by the next of `args` (nothing once they run out).
pub fn fill<T: std::fmt::Display>(text: &str, args: impl IntoIterator<Item = T>) -> String {
    let mut args = args.into_iter();
    let mut parts = text.split("{}");
    let mut out = parts.next().unwrap_or("").to_string();
    for p in parts {
        if let Some(a) = args.next() {
            out.push_str(&a.to_string());
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn fill_puts_the_arguments_in_order() {
        assert_eq!(
            super::fill("deal {} ({} of {})", ["3", "1", "4"]),
            "deal 3 (1 of 4)"
        );
        assert_eq!(super::fill("a {} b {}", ["x"]), "a x b ");
    }
}
