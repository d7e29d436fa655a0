//! The duplicate rating on players of known order (`dupmj rating --simulate`): two copies
//! of each bot level over 100 sessions of 8 deals, met as an online event's and as the
//! site's challenges. The order random < easy < medium holds (strong and medium play alike
//! by this measure: docs/rating.md), copies of one bot end within their uncertainty, and
//! the levels below medium separate at 95 %.

fn dupmj(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_rating_finds_the_known_order_of_the_bots() {
    finds_the_order(&dupmj(&["rating", "--simulate", "--challenges", "100"]));
}

/// Each player alone with three strong bots: the same order, with every deal-seat held by
/// two players who change from challenge to challenge.
#[test]
fn the_rating_finds_the_order_in_challenges_too() {
    let out = dupmj(&[
        "rating",
        "--simulate",
        "--challenges",
        "100",
        "--design",
        "challenge",
    ]);
    assert!(
        out.contains("each player alone with three strong bots"),
        "{out}"
    );
    finds_the_order(&out);
}

fn finds_the_order(out: &str) {
    let tau: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("Kendall's tau against random < easy < medium < strong: "))
        .and_then(|x| x.trim().parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(tau >= 0.7, "tau {tau}: {out}");
    assert!(
        out.contains("copies of one bot within 2σ of each other: true"),
        "{out}"
    );
    assert!(out.contains("easy above random at 95 % from"), "{out}");
    assert!(out.contains("medium above easy at 95 % from"), "{out}");
    // Every copy of a lower level below every copy of the next but one.
    let rating = |level: &str| -> Vec<f64> {
        out.lines()
            .filter(|l| l.starts_with(level) && l.contains(" #"))
            .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
            .collect()
    };
    for (lo, hi) in [
        ("random", "medium"),
        ("easy", "strong"),
        ("random", "strong"),
    ] {
        for a in rating(lo) {
            for b in rating(hi) {
                assert!(a < b, "{lo} {a} above {hi} {b}: {out}");
            }
        }
    }
}

/// `--json` carries the same figures as the text: the players, tau, the copies' check and
/// each separation.
#[test]
fn the_simulation_speaks_json() {
    let out = dupmj(&["rating", "--simulate", "--challenges", "20", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["hands"], 160);
    assert_eq!(v["design"], "event");
    assert_eq!(v["players"].as_array().unwrap().len(), 8);
    assert!(v["tau"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["copies_agree"].is_boolean());
    let pairs: Vec<(&str, &str)> = v["separated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["lower"].as_str().unwrap(), s["upper"].as_str().unwrap()))
        .collect();
    assert_eq!(
        pairs,
        [("random", "easy"), ("easy", "medium"), ("medium", "strong")]
    );
    let text = dupmj(&["rating", "--simulate", "--challenges", "20"]);
    let tau = format!("{:.3}", v["tau"].as_f64().unwrap());
    assert!(text.contains(&format!("strong: {tau}")), "{text}");
}
