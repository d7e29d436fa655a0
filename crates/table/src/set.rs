//! Deal sets: the deals of a table, a challenge or an event (or the walls of a regular
//! game), all derived from one secret key, so that no deal follows from another.
//!
//! # The derivation (format `dupmj-set/1`)
//!
//! - The **key** is 32 random bytes, written as 64 lowercase hexadecimal digits.
//! - The **commitment**, published when the set starts, is the SHA-256 of the ASCII text
//!   `dupmj-set/1:` followed by the key's 64 hex digits, written in hex:
//!   `printf 'dupmj-set/1:%s' KEY | sha256sum`.
//! - The **seed of deal `i`** (0-based) is HMAC-SHA256 keyed with the key's 32 bytes over
//!   the ASCII text `deal i` (`i` in decimal): its first 8 bytes read as a big-endian
//!   number, shifted right by 11 bits (so that every seed survives a trip through a
//!   JavaScript number): `printf 'deal %d' I | openssl dgst -sha256 -mac HMAC -macopt
//!   hexkey:KEY`, first 16 hex digits, divided by 2048.
//! - Deal `i` is [`Deal::generate`] of that seed (algorithm version 1) for duplicate sets,
//!   [`RegularWall::generate`] for the walls of a regular game.
//!
//! Knowing any number of seeds tells nothing of the others or of the key (HMAC is a
//! pseudo-random function), and the commitment binds the set before anyone plays it: once
//! the key is published, `dupmj verify` recomputes every seed and deal from it.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::deal::Deal;
use crate::reveal::{Committed, KeyError, RevealError};
use crate::wall::RegularWall;

/// Format name of a set's reveal and of its derivation.
pub const SET_FORMAT: &str = "dupmj-set/1";

/// The secret of a deal set.
#[derive(Clone, PartialEq, Eq)]
pub struct SetKey([u8; 32]);

impl std::fmt::Debug for SetKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed by accident: a key in a log would give the set away.
        f.write_str("SetKey(…)")
    }
}

impl SetKey {
    /// A key from 32 bytes (the caller's randomness).
    pub fn from_bytes(bytes: [u8; 32]) -> SetKey {
        SetKey(bytes)
    }

    /// Reads 64 hexadecimal digits.
    pub fn parse(hex: &str) -> Result<SetKey, KeyError> {
        let hex = hex.trim();
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(KeyError::of(hex));
        }
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("checked digits");
        }
        Ok(SetKey(out))
    }

    /// The key as 64 lowercase hexadecimal digits.
    pub fn hex(&self) -> String {
        hex(&self.0)
    }

    /// What is published when the set starts: hex SHA-256 of `dupmj-set/1:` and the key.
    pub fn commitment(&self) -> String {
        let mut h = Sha256::new();
        h.update(SET_FORMAT.as_bytes());
        h.update(b":");
        h.update(self.hex().as_bytes());
        hex(&h.finalize())
    }

    /// The seed of deal `index` (0-based).
    pub fn seed(&self, index: usize) -> u64 {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(format!("deal {index}").as_bytes());
        let out = mac.finalize().into_bytes();
        let mut first = [0u8; 8];
        first.copy_from_slice(&out[..8]);
        u64::from_be_bytes(first) >> 11
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a set holds: duplicate deals or the walls of a regular game's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetKind {
    /// Duplicate deals ([`Deal::generate`]).
    Duplicate,
    /// One shared wall per hand of a regular game ([`RegularWall::generate`]).
    Regular,
}

impl SetKind {
    /// The deal JSON of a seed.
    fn generate(self, seed: u64) -> Value {
        match self {
            SetKind::Duplicate => Deal::generate(seed).to_json(),
            SetKind::Regular => RegularWall::generate(seed).to_json(),
        }
    }
}

/// One deal of a revealed set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevealedDeal {
    /// Its label where it was played ("1", "3A", …).
    pub label: String,
    /// Its seed.
    pub seed: u64,
    /// The deal (or wall) JSON of `dupmj deal --format json`.
    pub deal: Value,
}

/// A set as published once it is released: the key, and every deal it gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    expecting = "a deal set's reveal: an object with \"format\", \"name\", \"kind\", \"commitment\", \"key\" and \"deals\""
)]
pub struct SetReveal {
    /// The format tag (`dupmj-set/1`).
    pub format: String,
    /// What the set was for ("table 12", "challenge 3: Tuesday", …).
    pub name: String,
    /// Duplicate deals or regular walls.
    pub kind: SetKind,
    /// The commitment published when the set started.
    pub commitment: String,
    /// The key, in hex.
    pub key: String,
    /// Every deal, in order.
    pub deals: Vec<RevealedDeal>,
}

/// The reveal of a set whose deals carry these labels.
pub fn reveal(name: &str, kind: SetKind, key: &SetKey, labels: &[String]) -> SetReveal {
    SetReveal {
        format: SET_FORMAT.into(),
        name: name.into(),
        kind,
        commitment: key.commitment(),
        key: key.hex(),
        deals: labels
            .iter()
            .enumerate()
            .map(|(i, label)| {
                let seed = key.seed(i);
                RevealedDeal {
                    label: label.clone(),
                    seed,
                    deal: kind.generate(seed),
                }
            })
            .collect(),
    }
}

/// Checks a reveal: the key hashes to the commitment (and to `published`, the commitment
/// seen when the set started, when given), every seed is the key's, and every deal is its
/// seed's. Returns the number of deals checked.
pub fn verify(r: &SetReveal, published: Option<&str>) -> Result<usize, RevealError> {
    if r.format != SET_FORMAT {
        return Err(RevealError::Format {
            found: r.format.clone(),
            expected: SET_FORMAT,
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
    let key = SetKey::parse(&r.key)?;
    let got = key.commitment();
    if !got.eq_ignore_ascii_case(&r.commitment) {
        return Err(RevealError::NotCommitted {
            what: Committed::Key,
            got,
            commitment: r.commitment.clone(),
        });
    }
    for (i, d) in r.deals.iter().enumerate() {
        let seed = key.seed(i);
        if d.seed != seed {
            return Err(RevealError::WrongSeed {
                index: i,
                label: d.label.clone(),
                found: d.seed,
                expected: seed,
            });
        }
        if d.deal != r.kind.generate(seed) {
            return Err(RevealError::WrongDeal {
                index: i,
                label: d.label.clone(),
                seed,
            });
        }
    }
    Ok(r.deals.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> SetKey {
        SetKey::parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f").unwrap()
    }

    #[test]
    fn seeds_and_commitment_follow_the_documented_recipe() {
        // Worked with coreutils and OpenSSL, outside this code:
        //   printf 'dupmj-set/1:%s' 000102…1f | sha256sum
        //   printf 'deal 0' | openssl dgst -sha256 -mac HMAC -macopt hexkey:000102…1f
        let k = key();
        assert_eq!(
            k.commitment(),
            "9868b23f82258435b53f8da1bc410eaddd0d90efde999628e003ee37cc4469e9"
        );
        // HMAC c3ce51bffb290222…, 101c246e2881e969…, f87e440c09089fc0… divided by 2048.
        assert_eq!(k.seed(0), 6_889_308_870_894_880);
        assert_eq!(k.seed(1), 566_817_802_489_917);
        assert_eq!(k.seed(2), 8_743_078_118_629_651);
    }

    #[test]
    fn keys_are_read_back_and_bad_ones_named() {
        let k = key();
        assert_eq!(SetKey::parse(&k.hex()).unwrap(), k);
        assert_eq!(
            SetKey::parse("12").unwrap_err().to_string(),
            "key: 64 hexadecimal digits, not '12'"
        );
        assert!(SetKey::parse(&"g".repeat(64)).is_err());
        assert_eq!(format!("{k:?}"), "SetKey(…)");
    }

    #[test]
    fn a_reveal_verifies_and_every_tampering_is_named() {
        let labels: Vec<String> = (1..=3).map(|i| i.to_string()).collect();
        let r = reveal("table 1", SetKind::Duplicate, &key(), &labels);
        assert_eq!(verify(&r, None), Ok(3));
        assert_eq!(verify(&r, Some(&r.commitment.to_uppercase())), Ok(3));
        assert!(matches!(
            verify(&r, Some("00")),
            Err(RevealError::NotPublished { ref published, .. }) if published == "00"
        ));
        let mut bad = r.clone();
        bad.key = SetKey::from_bytes([7; 32]).hex();
        let e = verify(&bad, None).unwrap_err();
        assert!(matches!(
            e,
            RevealError::NotCommitted {
                what: Committed::Key,
                ..
            }
        ));
        assert!(e.to_string().contains("not the key committed to"), "{e}");
        let mut bad = r.clone();
        bad.deals[1].seed += 1;
        let e = verify(&bad, None).unwrap_err();
        assert!(matches!(e, RevealError::WrongSeed { index: 1, .. }));
        assert!(e.to_string().starts_with("deals[1] (deal 2): seed"), "{e}");
        let mut bad = r.clone();
        bad.deals[2].deal = Deal::generate(5).to_json();
        bad.deals[2].deal["seed"] = r.deals[2].seed.into();
        let e = verify(&bad, None).unwrap_err();
        assert!(matches!(e, RevealError::WrongDeal { index: 2, .. }));
        assert!(
            e.to_string().starts_with("deals[2] (deal 3): not the deal"),
            "{e}"
        );
        let w = reveal("game", SetKind::Regular, &key(), &labels);
        assert_eq!(verify(&w, None), Ok(3));
        assert_eq!(
            w.deals[0].deal,
            RegularWall::generate(w.deals[0].seed).to_json()
        );
    }

    #[test]
    fn neighbouring_seeds_are_unrelated() {
        let k = key();
        let seeds: Vec<u64> = (0..100).map(|i| k.seed(i)).collect();
        for s in &seeds {
            assert!(*s < 1 << 53);
        }
        // Not consecutive (the old derivation was seed, seed + 1, …), and all different.
        assert!(seeds.windows(2).all(|w| w[1] != w[0] + 1));
        let mut sorted = seeds.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
    }
}
