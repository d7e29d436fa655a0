//! Golden hands: expected fans from the reference calculator, from the reference with the
//! documented seeds differences, and worked out by hand from S4 (see each file's
//! `source` and `note`). Every mismatch is listed with its file and line.

use mcr::notation::parse_hand_line;
use mcr::{score, Rules};
use serde_json::Value;
use std::collections::BTreeMap;

const FILES: [(&str, &str); 3] = [
    ("handmade.jsonl", include_str!("golden/handmade.jsonl")),
    ("reference.jsonl", include_str!("golden/reference.jsonl")),
    (
        "seeds_derived.jsonl",
        include_str!("golden/seeds_derived.jsonl"),
    ),
];

fn expected_fans(v: &Value) -> Vec<(u8, u32)> {
    let mut out: Vec<(u8, u32)> = v["fans"]
        .as_array()
        .expect("fans list")
        .iter()
        .map(|p| {
            (
                p[0].as_u64().expect("no") as u8,
                p[1].as_u64().expect("count") as u32,
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn golden_hands() {
    let mut failures = Vec::new();
    let mut n = 0;
    let mut coverage: BTreeMap<u8, u32> = BTreeMap::new();
    for (file, text) in FILES {
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).expect("golden line is JSON");
            let hand = v["hand"].as_str().expect("hand");
            let flags = v["flags"].as_str().expect("flags");
            let rules = Rules::by_name(v["rules"].as_str().expect("rules")).expect("known rules");
            let h = parse_hand_line(&format!("{hand} | {flags}"))
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
            let want = expected_fans(&v);
            for &(no, _) in &want {
                *coverage.entry(no).or_default() += 1;
            }
            let got = score(&h, &rules).map(|s| {
                let mut f: Vec<(u8, u32)> =
                    s.fans.iter().map(|l| (l.fan.number(), l.count)).collect();
                f.sort();
                (f, s.total)
            });
            n += 1;
            match got {
                Ok((fans, total))
                    if fans == want && total as u64 == v["total"].as_u64().expect("total") => {}
                other => failures.push(format!(
                    "{file}:{} {hand} | {flags} ({}): want {want:?} = {}, got {other:?}",
                    i + 1,
                    rules.name(),
                    v["total"]
                )),
            }
        }
    }
    assert!(n >= 250, "only {n} golden hands");
    let missing: Vec<u8> = (1..=82)
        .filter(|no| coverage.get(no).copied().unwrap_or(0) < 2)
        .collect();
    assert!(
        missing.is_empty(),
        "fans seen fewer than twice in the golden files: {missing:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {n} golden hands differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
