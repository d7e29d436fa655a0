//! How names of people are compared: two names are the same name when they look alike.
//!
//! The key of a name is its Unicode NFKC form (full-width letters, ligatures and the like
//! become plain ones), case-folded (`Straße` and `STRASSE` agree), with runs of spaces made
//! one, then reduced to its UTS #39 confusable skeleton (Cyrillic `а` and Latin `a`, `0`
//! and `O`, … agree). The store refuses an account whose key another account has, and a
//! guest who takes an account's; which characters a name may hold at all is the server's
//! rule (`server::names`).

use unicode_normalization::UnicodeNormalization;

/// The key two names are compared by.
pub fn name_key(name: &str) -> String {
    let nfkc: String = name.nfkc().collect();
    let folded = unicase::UniCase::new(nfkc.as_str()).to_folded_case();
    let spaced = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    unicode_security::skeleton(&spaced).collect()
}

#[cfg(test)]
mod tests {
    use super::name_key;

    #[test]
    fn names_that_look_alike_share_a_key() {
        let alice = name_key("alice");
        // Case, full-width letters, a Cyrillic а, doubled spaces around the name.
        for same in ["Alice", "ALICE", "Ａｌｉｃｅ", "\u{0430}lice", "  alice "] {
            assert_eq!(name_key(same), alice, "{same}");
        }
        assert_eq!(name_key("Straße"), name_key("STRASSE"));
        assert_eq!(name_key("Li  Wei"), name_key("li wei"));
        assert_ne!(name_key("alice"), name_key("alicia"));
        assert_ne!(name_key("李伟"), name_key("李卫"));
    }
}
