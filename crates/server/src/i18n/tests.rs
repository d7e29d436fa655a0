use super::*;

/// Every literal first argument of `name(` in `src` (the call may span lines).
fn calls(src: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let pat = format!("{name}(");
    let mut from = 0;
    while let Some(at) = src[from..].find(&pat) {
        let start = from + at;
        from = start + pat.len();
        let before = src[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let rest = src[from..].trim_start();
        let Some(rest) = rest.strip_prefix('"') else {
            continue;
        };
        let mut text = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => text.push(chars.next().unwrap_or('\\')),
                '"' => break,
                c => text.push(c),
            }
        }
        out.push(text);
    }
    out
}

/// Every string literal in the first argument of each `T(` call of a script: a text
/// chosen in the call (`T(a ? "x" : "y")`) counts as well as a plain one.
fn script_calls(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut from = 0;
    while let Some(at) = src[from..].find("T(") {
        let start = from + at;
        from = start + 2;
        if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b"_.$".contains(&b[start - 1])) {
            continue;
        }
        let (mut i, mut depth) = (from, 0);
        while i < b.len() {
            match b[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => break,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => break,
                q @ (b'"' | b'\'' | b'`') => {
                    // A literal compared with (`x === "rob_kong" ? …`) is not a text.
                    let compared = src[..i].trim_end().ends_with('=');
                    let mut text = Vec::new();
                    i += 1;
                    while i < b.len() && b[i] != q {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        text.push(b[i]);
                        i += 1;
                    }
                    if depth == 0 && q == b'"' && !compared {
                        out.push(String::from_utf8_lossy(&text).into_owned());
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

fn files(dir: &std::path::Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

fn used(sub: &str, ext: &str, names: &[&str]) -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(sub);
    let mut paths = Vec::new();
    files(&root, ext, &mut paths);
    let mut out = Vec::new();
    for p in paths {
        if p.to_string_lossy().contains("i18n") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        for n in names {
            for k in calls(&src, n) {
                out.push((p.file_name().unwrap().to_string_lossy().into_owned(), k));
            }
        }
    }
    out
}

#[test]
fn every_text_the_pages_use_has_chinese() {
    let mut missing = Vec::new();
    let mut n = 0;
    for (file, key) in
        used("src", "rs", &["tr", "trf"])
            .into_iter()
            .chain(used("templates", "html", &["t", "th"]))
    {
        n += 1;
        if catalogue::zh(&key).is_none() {
            missing.push(format!("{file}: {key:?}"));
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut scripts = Vec::new();
    files(&root, "js", &mut scripts);
    for p in scripts {
        let src = std::fs::read_to_string(&p).unwrap();
        let file = p.file_name().unwrap().to_string_lossy().into_owned();
        for key in script_calls(&src) {
            n += 1;
            if !catalogue::SCRIPTS.iter().any(|(en, _)| *en == key) {
                missing.push(format!("{file} (script): {key:?}"));
            }
        }
    }
    assert!(n > 150, "only {n} texts found: is the scanner broken?");
    assert!(
        missing.is_empty(),
        "no Chinese for:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_script_scanner_reads_texts_chosen_in_the_call() {
    let src = r#"x(T(k === "rob" ? "{} adds" : "{} discards", T(w))); y.T("no"); T("plain", b[1]); T(`tpl`); T("—…")"#;
    assert_eq!(
        script_calls(src),
        ["{} adds", "{} discards", "plain", "—…"],
        "the literals of each call's first argument"
    );
}

#[test]
fn texts_of_online_play_have_chinese() {
    // The play crate describes tables and labels hands in English; pages and scripts say
    // them in the request's language.
    for t in play::text::TEXTS {
        assert!(catalogue::zh(t).is_some(), "{t}");
    }
}

#[test]
fn values_shown_through_t_have_chinese() {
    // Templates translate these values, not literals: bot levels, challenge stages, winds.
    let mut keys: Vec<&str> = play::spec::BOT_LEVELS.to_vec();
    keys.extend(["upcoming", "open", "closing", "revealed"]);
    keys.extend(["East", "South", "West", "North"]);
    use play::history::DecisionKind as K;
    keys.extend([K::Discard, K::ClaimMade, K::ClaimPassed, K::Kong, K::Win].map(K::words));
    for k in keys {
        assert!(catalogue::zh(k).is_some(), "{k}");
    }
}

#[test]
fn placeholders_match_in_both_languages() {
    for (en, zh) in catalogue::PAGES.iter().chain(catalogue::SCRIPTS) {
        assert_eq!(
            en.matches("{}").count(),
            zh.matches("{}").count(),
            "{en} / {zh}"
        );
        assert!(!zh.is_empty(), "{en}");
    }
    let mut seen = std::collections::BTreeSet::new();
    for (en, _) in catalogue::PAGES.iter().chain(catalogue::SCRIPTS) {
        assert!(seen.insert(*en), "{en} twice");
    }
}

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.append(
            axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            v.parse().unwrap(),
        );
    }
    h
}

#[test]
fn the_cookie_wins_then_the_browsers_best_choice() {
    assert_eq!(from_headers(&headers(&[])), Lang::En);
    let al = |v| from_headers(&headers(&[("accept-language", v)]));
    assert_eq!(al("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
    assert_eq!(al("en-GB,en;q=0.9,zh-TW;q=0.8"), Lang::En);
    assert_eq!(al("fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.4"), Lang::Zh);
    assert_eq!(al("de"), Lang::En);
    let both = headers(&[
        ("accept-language", "zh-CN"),
        ("cookie", "dupmj_session=x; dupmj_lang=en"),
    ]);
    assert_eq!(from_headers(&both), Lang::En);
    let c = headers(&[("cookie", "dupmj_lang=zh")]);
    assert_eq!(from_headers(&c), Lang::Zh);
}

#[tokio::test]
async fn texts_follow_the_request_and_fill_in_order() {
    let zh = Here {
        lang: Lang::Zh,
        path: "/events/1/standings?x=1".into(),
    };
    HERE.scope(zh, async {
        assert_eq!(trf("Round {} of {}", &[&2, &5]), "第 2 轮（共 5 轮）");
        assert_eq!(tr("Save"), "保存");
        assert_eq!(
            switch_link().href,
            "/lang/en?back=/events/1/standings%3Fx%3D1"
        );
        let e = tournament::entry::ScoreEntry {
            outcome: tournament::entry::Outcome::Discard {
                discarder: mcr::Wind::West,
                winners: vec![(mcr::Wind::East, 10)],
            },
            false_hu: vec![mcr::Wind::North],
        };
        assert_eq!(describe(&e), "西点和：东和 10 番；北错和");
    })
    .await;
    assert_eq!(tr("Save"), "Save");
}

#[tokio::test]
async fn stored_labels_and_names_are_said_in_the_pages_language() {
    let zh = Here {
        lang: Lang::Zh,
        path: "/play/p/Ann".into(),
    };
    HERE.scope(zh, async {
        assert_eq!(said("deal 3 (3 of 4)"), "第 3 副（3 / 4）");
        assert_eq!(said("hand 5 of 16, East round"), "第 5 / 16 盘，东风圈");
        assert_eq!(said("bot (easy)"), "机器人（简单）");
        assert_eq!(said("Bo (guest)"), "Bo（游客）");
        assert_eq!(said("Keen MCR"), "Keen MCR");
        assert_eq!(said("deal 3"), "deal 3", "no pattern: as it is");
    })
    .await;
    assert_eq!(said("bot (easy)"), "bot (easy)");
}
