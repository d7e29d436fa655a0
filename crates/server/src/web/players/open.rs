//! Opening a table from the lobby's form: seats, bots, clocks, deals (fresh, by seed,
//! or a released set for practice) and the table limit of each player.

use super::{
    new_key, num, posting_player, App, AppError, AppResult, DealRef, Fields, Form, Hands,
    HeaderMap, IntoResponse, Page, Path, Person, Place, Practice, Redirect, State, TableSpec,
};

/// The deals of a released set a form names (`event:3`, `challenge:5`): their seeds and
/// labels, and where they come from.
pub(super) fn practice_deals(
    app: &App,
    from: &str,
    count: usize,
) -> AppResult<(Vec<DealRef>, Practice)> {
    let bad = || {
        AppError::Invalid(format!(
            "practice: '{}' is neither event:N nor challenge:N",
            from.chars().take(40).collect::<String>()
        ))
    };
    let (kind, id) = from.split_once(':').ok_or_else(bad)?;
    let id: i64 = id.trim().parse().map_err(|_| bad())?;
    match kind {
        "event" => {
            let ev = app.store.event(id)?;
            if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Event(id))? {
                return Err(AppError::Forbidden(format!(
                    "event {id}: its deals are not released for practice (its director releases them after the event)"
                )));
            }
            let deals = ev
                .movement
                .deal_names()
                .into_iter()
                .enumerate()
                .take(count)
                .map(|(i, label)| DealRef {
                    seed: ev.deal_seed(i),
                    label,
                })
                .collect();
            Ok((deals, Practice::Event { id }))
        }
        "challenge" => {
            let c = play::challenge::load(&app.hall, id)?;
            if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Challenge(id))? {
                return Err(AppError::Forbidden(format!(
                    "challenge {id}: its deals are shown once it has closed and its last hand is over"
                )));
            }
            let deals = (0..c.spec.deals.min(count))
                .map(|i| DealRef {
                    seed: c.spec.deal_seed(i),
                    label: (i + 1).to_string(),
                })
                .collect();
            Ok((deals, Practice::Challenge { id }))
        }
        _ => Err(bad()),
    }
}

/// The table a form describes. Without a seed its deals (or walls) come from a new secret
/// set of its own; with a seed, or from a released set, it is a practice table whose deals
/// anyone may know.
pub fn spec_from_form(app: &App, f: &Fields, owner: i64) -> AppResult<TableSpec> {
    let place: usize = num(f, "place", 0, 0, 3)?;
    let places: [Place; 4] = std::array::from_fn(|p| {
        if p == place {
            return Place::Person;
        }
        match f.get(&format!("p{p}")).map(|s| s.trim()) {
            Some("person") => Place::Person,
            Some(level) if !level.is_empty() => Place::Bot {
                level: level.to_string(),
            },
            _ => Place::Bot {
                level: "strong".into(),
            },
        }
    });
    let seed: Option<u64> = match f.get("seed").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(
            s.parse()
                .map_err(|_| AppError::Invalid(format!("seed: '{s}' is not a whole number")))?,
        ),
    };
    // The older form named an event: practice from that event's released deals.
    let field = |n: &str| f.get(n).map(|s| s.trim()).filter(|s| !s.is_empty());
    let from = field("practice")
        .map(String::from)
        .or_else(|| field("event").map(|e| format!("event:{e}")));
    let key = new_key();
    let mut deals_key = None;
    let mut practice = None;
    let hands = match f.get("kind").map(|s| s.as_str()) {
        Some("regular") => {
            let hands = num(f, "hands", 16usize, 1, 16)?;
            match seed {
                Some(seed) => {
                    if seed.checked_add(hands as u64).is_none() {
                        return Err(AppError::Invalid(format!("seed: {seed} is too large")));
                    }
                    practice = Some(Practice::Seed);
                    Hands::Regular { seed, hands }
                }
                None => {
                    deals_key = Some(key.hex());
                    Hands::Regular {
                        seed: key.seed(0),
                        hands,
                    }
                }
            }
        }
        Some("duplicate") | None => {
            let count = num(f, "deals", 4usize, 1, play::spec::MAX_DEALS)?;
            let deals = match (&from, seed) {
                (Some(from), _) => {
                    let (deals, p) = practice_deals(app, from, count)?;
                    practice = Some(p);
                    deals
                }
                (None, Some(seed)) => {
                    if seed.checked_add(count as u64).is_none() {
                        return Err(AppError::Invalid(format!("seed: {seed} is too large")));
                    }
                    practice = Some(Practice::Seed);
                    (0..count)
                        .map(|i| DealRef {
                            seed: seed + i as u64,
                            label: (i + 1).to_string(),
                        })
                        .collect()
                }
                (None, None) => {
                    deals_key = Some(key.hex());
                    (0..count)
                        .map(|i| DealRef {
                            seed: key.seed(i),
                            label: (i + 1).to_string(),
                        })
                        .collect()
                }
            };
            Hands::Duplicate { deals }
        }
        Some(k) => {
            return Err(AppError::Invalid(format!(
                "kind: '{k}' is neither duplicate nor regular"
            )))
        }
    };
    // Rated (the default) or practice with hints: deals anyone may know are practice
    // whatever the form says.
    match field("mode") {
        None | Some("rated") => {}
        Some("practice") => {
            practice.get_or_insert(Practice::Hints);
        }
        Some(other) => {
            return Err(AppError::Invalid(format!(
                "mode: '{}' is neither rated nor practice",
                other.chars().take(20).collect::<String>()
            )))
        }
    }
    let spec = TableSpec {
        hands,
        places,
        owner,
        owner_place: place,
        limit_s: num(f, "limit", 15, 1, play::spec::MAX_LIMIT_S)?,
        bank_s: num(f, "bank", 30, 0, play::spec::MAX_BANK_S)?,
        challenge: None,
        sitting: None,
        deals_key,
        practice,
        rules_version: None,
    };
    let spec = TableSpec {
        rules_version: TableSpec::current_rules_version(&spec.hands),
        ..spec
    };
    spec.check()?;
    Ok(spec)
}

/// `POST /play/tables`: opens a table from the lobby's form and goes to it.
pub async fn open_table(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (_, me) = posting_player(&app, &headers, &f)?;
    super::by_hand(&me)?;
    app.hall.check_table_limit(&me)?;
    let spec = spec_from_form(&app, &f, me.id)?;
    open_and_go(&app, spec, &me)
}

/// Opens the table `spec` describes for `me` and sends them to it.
fn open_and_go(app: &App, spec: TableSpec, me: &Person) -> Page {
    let id = app.hall.open_table(spec, &play::names::shown(me))?;
    Ok(Redirect::to(&format!("/play/t/{id}")).into_response())
}

/// The lobby's form for a table like `spec` (the same seats, bots, clocks, number of
/// deals and mode) with new deals, `place` the person's own: a seed's practice goes on to
/// the deals after its own, any other table gets a new secret set. A challenge's or an
/// event's table is not played again this way (its next deal is taken there).
pub fn again_form(spec: &TableSpec, place: usize) -> Result<Fields, String> {
    if spec.challenge.is_some() || spec.sitting.is_some() {
        return Err(
            "a challenge's or an event's table is not played again: take its next deal there"
                .into(),
        );
    }
    let mut f = Fields::new();
    let mut put = |k: &str, v: String| {
        f.insert(k.to_string(), v);
    };
    put("place", place.to_string());
    for (p, who) in spec.places.iter().enumerate().filter(|(p, _)| *p != place) {
        let v = match who {
            Place::Person => "person".to_string(),
            Place::Bot { level } => level.clone(),
        };
        put(&format!("p{p}"), v);
    }
    put("limit", spec.limit_s.to_string());
    put("bank", spec.bank_s.to_string());
    let seeded = spec.practice == Some(Practice::Seed);
    match &spec.hands {
        Hands::Duplicate { deals } => {
            put("kind", "duplicate".into());
            put("deals", deals.len().to_string());
            if let (true, Some(last)) = (seeded, deals.iter().map(|d| d.seed).max()) {
                put("seed", last.saturating_add(1).to_string());
            }
        }
        Hands::Regular { seed, hands } => {
            put("kind", "regular".into());
            put("hands", hands.to_string());
            if seeded {
                put("seed", seed.saturating_add(*hands as u64).to_string());
            }
        }
    }
    if spec.practice.is_some() {
        put("mode", "practice".into());
    }
    Ok(f)
}

/// `POST /play/t/{id}/again`: "play again" at the end of a table: a new table of the same
/// settings with new deals, the person at the place they held (`place`).
pub async fn play_again(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (_, me) = posting_player(&app, &headers, &f)?;
    super::by_hand(&me)?;
    let old = super::replay::table_spec(&app, id)?;
    let place = num(&f, "place", old.owner_place, 0, 3)?;
    let form = again_form(&old, place).map_err(AppError::Invalid)?;
    app.hall.check_table_limit(&me)?;
    let spec = spec_from_form(&app, &form, me.id)?;
    open_and_go(&app, spec, &me)
}

/// A guest with a name of the form "Player 1234".
pub(super) fn new_guest(app: &App) -> AppResult<Person> {
    let mut last = None;
    for _ in 0..8 {
        let mut b = [0u8; 2];
        getrandom::fill(&mut b).map_err(|e| AppError::Internal(e.to_string()))?;
        let name = format!("Player {}", 1000 + u16::from_le_bytes(b) % 9000);
        match app.store.create_person(&name, None) {
            Ok(p) => return Ok(p),
            Err(e) => last = Some(e),
        }
    }
    Err(last.map_or_else(
        || AppError::Internal("no guest name".into()),
        AppError::from,
    ))
}
