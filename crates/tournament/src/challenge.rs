//! Challenges: a fixed set of duplicate deals that people play against bots within a time
//! window, each compared with everyone who held the same seat of the same deal.
//!
//! Owns the rules that do not need a server: the seat rotation, the comparison of one
//! deal-seat (match points → DIF → IMP, rules §5), standings over deal-seats, and the
//! commitment that shows the deals were fixed before anyone played them: SHA-256 over a
//! secret salt and the canonical JSON of the deal set, published when the challenge opens;
//! the salt and the seed are published when it closes.

use std::collections::BTreeMap;

use mcr::Wind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use table::deal::Deal;
use table::reveal::{Committed, RevealError};

use crate::imp::Dif;

/// Format name of a published reveal.
pub const REVEAL_FORMAT: &str = "dupmj-reveal/1";

/// How players are seated over the deals. Deal `i` (0-based) is played from wind
/// `(i + offset) mod 4`, so with a number of deals that is a multiple of 4 every player sits
/// each wind the same number of times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rotation {
    /// Everyone plays deal 1 from East, deal 2 from South, … (offset 0): every player meets
    /// every other at every deal-seat.
    Same,
    /// The n-th player to enter starts at wind n mod 4, so the field covers every seat.
    Staggered,
}

impl Rotation {
    /// Reads `same` or `staggered`.
    pub fn parse(s: &str) -> Option<Rotation> {
        match s {
            "same" => Some(Rotation::Same),
            "staggered" => Some(Rotation::Staggered),
            _ => None,
        }
    }

    /// The offset of the player who is the `entrant`-th (0-based) to enter.
    pub fn offset(self, entrant: usize) -> usize {
        match self {
            Rotation::Same => 0,
            Rotation::Staggered => entrant % 4,
        }
    }
}

/// The seat of deal `index` for a player with this offset.
pub fn seat_of(index: usize, offset: usize) -> Wind {
    Wind::from_index((index + offset) % 4)
}

/// Most copies of each deal slot a challenge may have.
pub const MAX_COPIES: usize = 4;

/// Where copy `copy` of deal slot `slot` sits in a challenge's deal set: the copies of
/// slot 1 first, then those of slot 2, … With one copy the set index is the slot.
pub fn set_index(slot: usize, copy: usize, copies: usize) -> usize {
    slot * copies.max(1) + copy
}

/// The slot and copy of set index `index` (the inverse of [`set_index`]).
pub fn slot_copy(index: usize, copies: usize) -> (usize, usize) {
    let k = copies.max(1);
    (index / k, index % k)
}

/// The letter of a copy: a, b, c, …
pub fn copy_letter(copy: usize) -> char {
    (b'a' + (copy % 26) as u8) as char
}

/// Reads a copy's letter (`a` … the last of `copies`).
pub fn parse_copy(s: &str, copies: usize) -> Option<usize> {
    let mut chars = s.trim().chars();
    let c = chars.next()?.to_ascii_lowercase();
    let copy = (c as usize).checked_sub('a' as usize)?;
    (chars.next().is_none() && copy < copies.max(1)).then_some(copy)
}

/// The label a deal is shown and revealed by: its slot's number, and with several copies
/// the copy's letter (`3` or `3b`).
pub fn label(slot: usize, copy: usize, copies: usize) -> String {
    if copies <= 1 {
        (slot + 1).to_string()
    } else {
        format!("{}{}", slot + 1, copy_letter(copy))
    }
}

/// The copy given to a player who sits down at a slot whose copies have been given
/// `taken[c]` times so far: one of the least taken, chosen by `draw` (a random number), so
/// that the copies' fields stay even and nobody can tell which copy they will get.
pub fn pick_copy(taken: &[usize], draw: u64) -> usize {
    let Some(&least) = taken.iter().min() else {
        return 0;
    };
    let candidates: Vec<usize> = (0..taken.len()).filter(|&c| taken[c] == least).collect();
    candidates[(draw % candidates.len() as u64) as usize]
}

/// The deals of a challenge: deal `i` is generated from `seed + i`, labelled `i + 1`.
pub fn deals(seed: u64, count: usize) -> Result<Vec<Deal>, RevealError> {
    if seed.checked_add(count as u64).is_none() {
        return Err(RevealError::SeedRange { seed, count });
    }
    Ok((0..count as u64)
        .map(|i| Deal::generate(seed + i))
        .collect())
}

/// The deal set as committed to: `[{"label":"1","deal":{…}}, …]`, each deal in the
/// project's deal JSON.
pub fn deal_set(deals: &[Deal]) -> Value {
    Value::Array(
        deals
            .iter()
            .enumerate()
            .map(|(i, d)| serde_json::json!({"label": (i + 1).to_string(), "deal": d.to_json()}))
            .collect(),
    )
}

/// JSON written without spaces and with every object's keys in byte order, so that anyone
/// can rebuild the exact bytes that were hashed.
pub fn canonical(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let sorted: BTreeMap<&String, &Value> = m.iter().collect();
            out.push('{');
            for (i, (k, v)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_canonical(v, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// `hex(SHA-256(salt ":" canonical(deal set)))`.
pub fn commitment(salt: &str, deal_set: &Value) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(canonical(deal_set).as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// What the server publishes when a challenge closes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    expecting = "a challenge reveal: an object with \"format\", \"name\", \"commitment\", \"salt\", \"seed\" and \"deals\""
)]
pub struct Reveal {
    /// The format tag (`dupmj-reveal/1`).
    pub format: String,
    /// The challenge's name.
    pub name: String,
    /// The commitment published when it opened (hex SHA-256).
    pub commitment: String,
    /// The salt hashed with the deals.
    pub salt: String,
    /// The seed the deals were generated from.
    pub seed: u64,
    /// The deals, as the canonical list of labelled deal JSON.
    pub deals: Value,
}

/// Checks a reveal: the deals hash with the salt to the commitment (and to `published`, the
/// commitment seen when the challenge opened, when given), and the seed regenerates exactly
/// these deals. Returns the number of deals checked.
pub fn verify(r: &Reveal, published: Option<&str>) -> Result<usize, RevealError> {
    if r.format != REVEAL_FORMAT {
        return Err(RevealError::Format {
            found: r.format.clone(),
            expected: REVEAL_FORMAT,
        });
    }
    if let Some(p) = published {
        if !p.trim().eq_ignore_ascii_case(&r.commitment) {
            return Err(RevealError::NotPublished {
                file: r.commitment.clone(),
                published: p.trim().to_string(),
            });
        }
    }
    let got = commitment(&r.salt, &r.deals);
    if got != r.commitment {
        return Err(RevealError::NotCommitted {
            what: Committed::Deals,
            got,
            commitment: r.commitment.clone(),
        });
    }
    let list = r.deals.as_array().ok_or(RevealError::NoDealList)?;
    let expected = deal_set(&deals(r.seed, list.len())?);
    for (i, (a, b)) in list
        .iter()
        .zip(expected.as_array().into_iter().flatten())
        .enumerate()
    {
        if a != b {
            return Err(RevealError::WrongDeal {
                index: i,
                label: (i + 1).to_string(),
                seed: r.seed,
            });
        }
    }
    Ok(list.len())
}

/// One result at a deal-seat: who (any key) and their match points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored<K> {
    /// Whose result.
    pub who: K,
    /// Their match points.
    pub ms: i32,
    /// Match points minus the average at the deal-seat.
    pub dif: Dif,
    /// The IMP of that difference.
    pub imp: i32,
}

/// Compares every result at one deal-seat with the average of all of them (rules §5).
pub fn compare<K: Clone>(results: &[(K, i32)]) -> Vec<Scored<K>> {
    let n = results.len() as i64;
    let sum: i64 = results.iter().map(|(_, ms)| *ms as i64).sum();
    results
        .iter()
        .map(|(who, ms)| {
            let dif = Dif::from_average(*ms as i64, sum, n);
            Scored {
                who: who.clone(),
                ms: *ms,
                dif,
                imp: dif.imp(),
            }
        })
        .collect()
}

/// A line of challenge standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing<K> {
    /// Rank, shared by equal lines.
    pub rank: usize,
    /// Who.
    pub who: K,
    /// Hands played.
    pub hands: usize,
    /// Total IMP.
    pub imp: i64,
    /// Total match points.
    pub ms: i64,
}

/// Sums IMP and match points by player over many deal-seats and ranks by IMP, then match
/// points; equal on both → the same rank.
pub fn standings<K: Clone + Ord>(deal_seats: &[Vec<(K, i32)>]) -> Vec<Standing<K>> {
    let mut by: BTreeMap<K, (usize, i64, i64)> = BTreeMap::new();
    for ds in deal_seats {
        for s in compare(ds) {
            let e = by.entry(s.who).or_default();
            e.0 += 1;
            e.1 += s.imp as i64;
            e.2 += s.ms as i64;
        }
    }
    let mut lines: Vec<Standing<K>> = by
        .into_iter()
        .map(|(who, (hands, imp, ms))| Standing {
            rank: 0,
            who,
            hands,
            imp,
            ms,
        })
        .collect();
    lines.sort_by_key(|l| std::cmp::Reverse((l.imp, l.ms)));
    let ranks = crate::rank::shared(&lines, |l| (l.imp, l.ms));
    for (l, r) in lines.iter_mut().zip(ranks) {
        l.rank = r;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reveal(seed: u64, n: usize, salt: &str) -> Reveal {
        let set = deal_set(&deals(seed, n).unwrap());
        Reveal {
            format: REVEAL_FORMAT.into(),
            name: "t".into(),
            commitment: commitment(salt, &set),
            salt: salt.into(),
            seed,
            deals: set,
        }
    }

    #[test]
    fn a_reveal_verifies_and_a_changed_deal_does_not() {
        let r = reveal(77, 4, "00ff");
        assert_eq!(verify(&r, None), Ok(4));
        assert_eq!(verify(&r, Some(&r.commitment.to_uppercase())), Ok(4));
        assert!(verify(&r, Some("ab"))
            .unwrap_err()
            .to_string()
            .contains("published ab"));

        // One tile of one wall swapped for another: the hash no longer matches.
        let mut bad = r.clone();
        let wall = &mut bad.deals[2]["deal"]["seats"]["S"]["wall"];
        let first = wall[0].clone();
        wall[0] = wall[1].clone();
        wall[1] = first;
        let e = verify(&bad, None).unwrap_err();
        assert!(matches!(
            e,
            RevealError::NotCommitted {
                what: Committed::Deals,
                ..
            }
        ));
        assert!(e.to_string().contains("not the ones committed"), "{e}");

        // A consistent hash over deals the seed does not give: caught by regenerating.
        let mut other = reveal(77, 4, "00ff");
        other.deals[3] = deal_set(&deals(500, 1).unwrap())[0].clone();
        other.deals[3]["label"] = "4".into();
        other.commitment = commitment(&other.salt, &other.deals);
        let e = verify(&other, None).unwrap_err();
        assert!(matches!(e, RevealError::WrongDeal { index: 3, .. }));
        assert!(e.to_string().contains("deals[3] (deal 4)"), "{e}");

        // A different salt gives a different commitment.
        assert_ne!(reveal(77, 4, "00fe").commitment, r.commitment);
    }

    #[test]
    fn the_commitment_is_sha256_of_salt_colon_canonical_json() {
        // SHA-256 of "s:[]" computed with coreutils' sha256sum.
        assert_eq!(
            commitment("s", &Value::Array(vec![])),
            "46ea31dc60af60b8dd8be9004303716a813ff4090c5b862911071488cf5a29d1"
        );
        let v: Value = serde_json::from_str(r#"{"b":[1,{"z":0,"a":"x"}],"a":true}"#).unwrap();
        assert_eq!(canonical(&v), r#"{"a":true,"b":[1,{"a":"x","z":0}]}"#);
    }

    #[test]
    fn copies_have_set_indices_labels_and_even_fields() {
        // Three copies of eight slots: slot 3 (0-based 2), copy b is the 8th deal of the set.
        assert_eq!(set_index(2, 1, 3), 7);
        assert_eq!(slot_copy(7, 3), (2, 1));
        for i in 0..24 {
            let (s, c) = slot_copy(i, 3);
            assert_eq!(set_index(s, c, 3), i);
        }
        // One copy: the set index is the slot, and the label has no letter.
        assert_eq!(set_index(5, 0, 1), 5);
        assert_eq!(label(5, 0, 1), "6");
        assert_eq!(label(2, 1, 3), "3b");
        assert_eq!(parse_copy("B", 3), Some(1));
        assert_eq!(parse_copy("d", 3), None);
        assert_eq!(parse_copy("ab", 3), None);
        assert_eq!(parse_copy("", 3), None);
        // Only the least taken copies are drawn from.
        assert_eq!(pick_copy(&[2, 1, 2], 0), 1);
        assert_eq!(pick_copy(&[2, 1, 2], 7), 1);
        assert_eq!(pick_copy(&[1, 1, 2], 1), 1);
        assert_eq!(pick_copy(&[1, 1, 2], 2), 0);
        assert_eq!(pick_copy(&[], 3), 0);
        // Twelve players at one slot of three copies: four in each, whatever is drawn.
        let mut taken = [0usize; 3];
        for draw in [9u64, 4, 4, 1, 0, 8, 3, 3, 5, 2, 7, 6] {
            taken[pick_copy(&taken, draw)] += 1;
        }
        assert_eq!(taken, [4, 4, 4]);
    }

    #[test]
    fn rotation_sits_each_wind_equally() {
        for offset in 0..4 {
            let mut count = [0; 4];
            for i in 0..8 {
                count[seat_of(i, offset).index()] += 1;
            }
            assert_eq!(count, [2; 4]);
        }
        assert_eq!(seat_of(0, 0), Wind::East);
        assert_eq!(seat_of(1, 3), Wind::East);
        assert_eq!(Rotation::Staggered.offset(5), 1);
        assert_eq!(Rotation::Same.offset(5), 0);
    }

    #[test]
    fn comparison_follows_spec_5() {
        // Three results 24, −8, −8: average 8/3. DIF 24 − 8/3 = 21.33 → 4 IMP (16 – <24);
        // −8 − 8/3 = −10.67 → −3 IMP (10 – <16).
        let s = compare(&[("a", 24), ("b", -8), ("c", -8)]);
        assert_eq!(s[0].imp, 4);
        assert_eq!(s[0].dif.to_string(), "21.33");
        assert_eq!(s[1].imp, -3);
        // Two results 0 and 4: average 2, DIF ±2 → ±1 (2 is in the upper bracket).
        let s = compare(&[("a", 0), ("b", 4)]);
        assert_eq!((s[0].imp, s[1].imp), (-1, 1));
        // One result alone is its own average.
        assert_eq!(compare(&[("a", 40)])[0].imp, 0);
    }

    #[test]
    fn standings_rank_by_imp_then_ms_with_ties() {
        let ds = vec![
            vec![("a", 32), ("b", 0), ("p", -32)],
            vec![("a", 0), ("b", 8), ("p", -8)],
        ];
        let s = standings(&ds);
        // a: DIF 32 → 6 IMP, then 0 → 0; b: 0 → 0, then 8 → 2 (avg 0); p: −6, −2.
        let got: Vec<_> = s.iter().map(|l| (l.rank, l.who, l.imp, l.ms)).collect();
        assert_eq!(
            got,
            vec![(1, "a", 6, 32), (2, "b", 2, 8), (3, "p", -8, -40)]
        );
        let tie = standings(&[vec![("a", 8), ("b", 8)]]);
        assert_eq!((tie[0].rank, tie[1].rank), (1, 1));
    }
}
