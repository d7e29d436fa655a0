//! Names people play under: what a name may hold, which are reserved, and how a name is
//! shown so that nobody can pass for someone or something else.
//!
//! A name is kept in Unicode NFKC with single spaces. It may hold letters (any script),
//! digits, spaces and `. - _ '`; control characters, characters that change the writing
//! direction and invisible ones are refused, as are names that mix scripts that look alike
//! (Latin with Cyrillic, say: UTS #39's moderately restrictive level is the most allowed, so
//! `李 Wei` is fine). Names are compared by their look ([`store::name_key`]): the words
//! `bot` and `par` and the bots' names are reserved, accounts' names are their own (the
//! store refuses a look-alike), and a guest is shown with `(guest)` after the name, which
//! no name can fake since brackets are not allowed.

use crate::PlayError;
use store::{name_key, Person};
use unicode_normalization::UnicodeNormalization;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection};

/// Longest name, in characters.
pub const MAX_NAME: usize = 40;

/// Punctuation a name may hold besides letters, digits and spaces.
const PUNCTUATION: [char; 4] = ['.', '-', '_', '\''];

/// Names nobody may take: the bots' and what the server calls itself.
const RESERVED: [&str; 12] = [
    "random",
    "easy",
    "greedy",
    "greedy-r",
    "medium",
    "strong",
    "strong-defence",
    "expert",
    "defaults",
    "director",
    "server",
    "open",
];

/// Words no name may contain: the bots are called by them.
const RESERVED_WORDS: [&str; 2] = ["bot", "par"];

/// Characters that show nothing or turn the text around, though some count as letters.
fn invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// Checks a name typed into a form; returns it as it is kept (NFKC, single spaces), or
/// what is wrong, naming the character and its place.
pub fn check(raw: &str) -> Result<String, PlayError> {
    let nfkc: String = raw.nfkc().collect();
    // Every kind of space (a no-break space, an ideographic one) is one plain space.
    let name = nfkc.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME {
        return Err(PlayError::Invalid(format!(
            "name: 1 to {MAX_NAME} characters, not {count}"
        )));
    }
    for (i, c) in name.chars().enumerate() {
        let at = i + 1;
        let code = c as u32;
        if c.is_control() {
            return Err(PlayError::Invalid(format!(
                "name: character {at} (U+{code:04X}) is a control character"
            )));
        }
        if invisible(c) {
            return Err(PlayError::Invalid(format!(
                "name: character {at} (U+{code:04X}) is invisible or turns the writing direction"
            )));
        }
        if !(c.is_alphanumeric() || c == ' ' || PUNCTUATION.contains(&c)) {
            return Err(PlayError::Invalid(format!(
                "name: '{c}' (character {at}, U+{code:04X}) is not allowed: letters, digits, spaces and . - _ ' only"
            )));
        }
    }
    // Spaces and punctuation are not identifier characters to UTS #39: judge the letters.
    let letters: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    if letters.as_str().detect_restriction_level() > RestrictionLevel::ModeratelyRestrictive {
        return Err(PlayError::Invalid(format!(
            "name: '{name}' mixes scripts whose letters look alike (such as Latin and Cyrillic)"
        )));
    }
    let key = name_key(&name);
    if RESERVED.iter().any(|r| name_key(r) == key) {
        return Err(PlayError::Invalid(format!(
            "name: '{name}' is reserved for the server"
        )));
    }
    let words: Vec<&str> = key
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if let Some(w) = RESERVED_WORDS
        .iter()
        .find(|r| words.contains(&name_key(r).as_str()))
    {
        return Err(PlayError::Invalid(format!(
            "name: '{name}' holds the word '{w}', which is reserved for the bots"
        )));
    }
    Ok(name)
}

/// A person's name as tables, results and standings show it: a guest's and a bot
/// account's marked as such.
pub fn shown(p: &Person) -> String {
    if p.bot {
        format!("{} (bot)", p.name)
    } else if p.account {
        p.name.clone()
    } else {
        format!("{} (guest)", p.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kept_plain() {
        assert_eq!(check("  Alice   Smith ").unwrap(), "Alice Smith");
        assert_eq!(check("Ａｌｉｃｅ").unwrap(), "Alice");
        assert_eq!(check("Alice\u{00A0}Smith").unwrap(), "Alice Smith");
        assert_eq!(check("李 Wei").unwrap(), "李 Wei");
        assert_eq!(check("王小明").unwrap(), "王小明");
        assert_eq!(check("O'Neil-Smith Jr.").unwrap(), "O'Neil-Smith Jr.");
        assert_eq!(check("Zoë").unwrap(), "Zoë");
        // A combining accent is composed by NFKC.
        assert_eq!(check("Zoe\u{0308}").unwrap(), "Zoë");
        assert_eq!(check("Robot Wars").unwrap(), "Robot Wars");
    }

    #[test]
    fn confusable_invisible_and_reserved_names_are_refused_with_the_reason() {
        let cases: [(&str, &str); 22] = [
            ("", "1 to 40"),
            ("   ", "1 to 40"),
            (&"x".repeat(41), "not 41"),
            ("bot (strong)", "'(' (character 5"),
            ("par (strong bot)", "'(' (character 5"),
            ("Bot Alice", "word 'bot'"),
            ("alice bot", "word 'bot'"),
            ("Par", "word 'par'"),
            ("ＢＯＴ", "word 'bot'"),
            ("b\u{043E}t", "mixes scripts"),
            ("strong", "reserved"),
            ("Medium", "reserved"),
            ("Strong-Defence", "reserved"),
            ("al\u{202E}ecila", "U+202E"),
            ("ali\u{200B}ce", "U+200B"),
            ("ali\u{2066}ce", "U+2066"),
            // NFKC turns the Hangul filler U+3164 into U+1160, just as invisible.
            ("a\u{3164}b", "U+1160"),
            ("\u{115F}", "U+115F"),
            ("ali\u{0007}ce", "control"),
            ("al\u{FE0F}ice", "U+FE0F"),
            ("\u{0430}lice", "mixes scripts"),
            ("Alice<script>", "'<'"),
        ];
        for (raw, why) in cases {
            let crate::PlayError::Invalid(e) = check(raw).expect_err(raw) else {
                panic!("{raw:?}: refused as something else than a name");
            };
            assert!(e.starts_with("name:") && e.contains(why), "{raw:?}: {e}");
        }
    }

    #[test]
    fn a_guest_is_marked_and_an_account_is_not() {
        let p = Person {
            id: 1,
            name: "Ann".into(),
            account: false,
            bot: false,
        };
        assert_eq!(shown(&p), "Ann (guest)");
        assert_eq!(shown(&Person { account: true, ..p }), "Ann");
    }
}
