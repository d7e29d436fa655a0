//! What the web pages do, without HTTP: creating events, entering results, standings.
//! `dupmj demo` records its results through [`enter_result`] too, the same path as a
//! table's phone.

use store::{Entrant, Event, EventId, NewEvent, Saved, Store, StoreError, StoredResult};
use tournament::entry::ScoreEntry;
use tournament::movement::{individual, teams, Movement, TablePlay};
use tournament::standings::{Penalty, PenaltyKind, Player, Results, TableResult, Team};

/// An error to show the user: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    /// Bad input (HTTP 422).
    Invalid(String),
    /// No such thing (HTTP 404).
    NotFound(String),
    /// Not allowed for this session (HTTP 403).
    Forbidden(String),
    /// Something failed on the server (HTTP 500).
    Internal(String),
    /// Too many attempts, or too busy: try again later (HTTP 429).
    Limited(String),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Invalid(s)
            | AppError::Forbidden(s)
            | AppError::Internal(s)
            | AppError::Limited(s) => f.write_str(s),
            AppError::NotFound(s) => write!(f, "not found: {s}"),
        }
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::NotFound(s) => AppError::NotFound(s),
            StoreError::Invalid(s) => AppError::Invalid(s),
            StoreError::Backend(s) => AppError::Internal(s),
        }
    }
}

/// The hall's refusals by kind, in the hall's words: the player's mistake (a setting, a
/// table's refusal, a table another server plays just now), nothing there, a limit, the
/// server's fault.
impl From<play::PlayError> for AppError {
    fn from(e: play::PlayError) -> AppError {
        use play::PlayError as P;
        let words = e.to_string();
        match e {
            P::Invalid(_) | P::Refused(_) | P::Elsewhere { .. } => AppError::Invalid(words),
            P::NotFound(_) | P::Store(StoreError::NotFound(_)) => AppError::NotFound(words),
            P::TooManyTables { .. } => AppError::Limited(words),
            P::Store(StoreError::Invalid(_)) => AppError::Invalid(words),
            P::Internal(_) | P::Store(StoreError::Backend(_)) => AppError::Internal(words),
        }
    }
}

/// What a service call returns.
pub type AppResult<T> = Result<T, AppError>;

/// Reads entrants from CSV or plain lines: `name` or `name,team` per line (a name that
/// holds a comma is quoted, `"Lee, Ann"`); a first line `name,team` (or `name`) is a header.
pub fn parse_entrants(text: &str) -> AppResult<Vec<Entrant>> {
    read_entrants(text, None)
}

/// [`parse_entrants`] for an event of a known kind: in an individual event a second field
/// is an error (an unquoted comma would otherwise make half a name a team), in a team event
/// a missing team is.
pub fn parse_entrants_for(text: &str, team: bool) -> AppResult<Vec<Entrant>> {
    read_entrants(text, Some(team))
}

fn read_entrants(text: &str, team_event: Option<bool>) -> AppResult<Vec<Entrant>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| AppError::Invalid(format!("players: {e}")))?;
        let line = record.position().map_or(i as u64 + 1, |p| p.line());
        let fields: Vec<&str> = record.iter().collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        let header = out.is_empty()
            && fields[0].eq_ignore_ascii_case("name")
            && fields.get(1).is_none_or(|t| t.eq_ignore_ascii_case("team"));
        if header {
            continue;
        }
        let name = fields[0].to_string();
        let team = fields
            .get(1)
            .filter(|t| !t.is_empty())
            .map(|t| t.to_string());
        if fields.len() > 2 {
            return Err(AppError::Invalid(format!(
                "players, line {line}: {} fields; give name or name,team (quote a name that holds a comma: \"Lee, Ann\")",
                fields.len()
            )));
        }
        if name.is_empty() {
            return Err(AppError::Invalid(format!(
                "players, line {line}: the name is empty"
            )));
        }
        if name.chars().count() > 80 || team.as_ref().is_some_and(|t| t.chars().count() > 80) {
            return Err(AppError::Invalid(format!(
                "players, line {line}: a name or team is over 80 characters"
            )));
        }
        match (team_event, &team) {
            (Some(false), Some(t)) => {
                return Err(AppError::Invalid(format!(
                    "players, line {line}: '{name}' and '{t}': an individual event takes one name a line (quote a name that holds a comma: \"{name}, {t}\")"
                )))
            }
            (Some(true), None) => {
                return Err(AppError::Invalid(format!(
                    "players, line {line}: '{name}' has no team (name,team)"
                )))
            }
            _ => {}
        }
        out.push(Entrant { name, team });
    }
    Ok(out)
}

/// Characters of a table code: 31^8 ≈ 8.5 × 10^11 codes, against at most 30 wrong tries
/// per table in ten minutes ([`crate::guard::Guards`]).
pub const TABLE_CODE_LEN: usize = 8;

/// A random code of `len` characters that cannot be misread (no 0/O, 1/I/L).
pub fn random_code(len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).expect("the system has randomness");
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// The seed an event's movement is searched with (it decides who meets whom, nothing of
/// the deals; the deals come from the event's secret set).
pub const MOVEMENT_SEED: u64 = 1;

/// Builds and stores an event: the movement for the entrants (an individual one with
/// `rounds` rounds, or the default for the field), one code per table, and its deals from
/// the secret set `deals`.
pub fn create_event(
    store: &dyn Store,
    name: &str,
    team: bool,
    entrants: Vec<Entrant>,
    deals: &table::set::SetKey,
    rounds: Option<u32>,
    who: &str,
) -> AppResult<EventId> {
    let deal_seed = MOVEMENT_SEED;
    let n = entrants.len() as u32;
    let (players, movement) = if team {
        let mut order: Vec<String> = Vec::new();
        for e in &entrants {
            let t = e.team.clone().ok_or_else(|| {
                AppError::Invalid(format!(
                    "player '{}' has no team (a team event needs name,team lines)",
                    e.name
                ))
            })?;
            if !order.contains(&t) {
                order.push(t);
            }
        }
        let mut players = Vec::new();
        for t in &order {
            let members: Vec<Entrant> = entrants
                .iter()
                .filter(|e| e.team.as_ref() == Some(t))
                .cloned()
                .collect();
            if members.len() != 4 {
                return Err(AppError::Invalid(format!(
                    "team '{t}' has {} players; a team has 4",
                    members.len()
                )));
            }
            players.extend(members);
        }
        let m = teams(order.len() as u32).map_err(|e| AppError::Invalid(e.to_string()))?;
        (players, m)
    } else {
        let m = individual(n, rounds, deal_seed).map_err(|e| AppError::Invalid(e.to_string()))?;
        (entrants, m)
    };
    let tables = tournament::print::table_count(&movement);
    let table_codes = (0..tables).map(|_| random_code(TABLE_CODE_LEN)).collect();
    let id = store.create_event(
        &NewEvent {
            name: name.trim().to_string(),
            team,
            players,
            deal_seed,
            deal_key: Some(deals.hex()),
            movement,
            table_codes,
        },
        who,
    )?;
    // Round control from the start: the tables may enter round 1 until the director
    // closes it and opens the next.
    store.set_round(id, 1, true, who)?;
    Ok(id)
}

/// One sitting: a deal played at a table in a hand of its round. Its round and seating.
pub fn sitting<'a>(
    m: &'a Movement,
    deal: &str,
    table: u32,
    hand: u32,
) -> Option<(u32, &'a TablePlay)> {
    m.rounds.iter().find_map(|r| {
        r.hands.iter().filter(|h| h.hand == hand).find_map(|h| {
            h.tables
                .iter()
                .find(|t| t.table == table && t.deal == deal)
                .map(|t| (r.round, t))
        })
    })
}

/// An entrant's name, or "Player n".
pub fn entrant_name(e: &Event, player: u32) -> String {
    e.players
        .get(player as usize - 1)
        .map(|x| x.name.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("Player {player}"))
}

/// Who plays `player`'s seat in `round`: the player, or once they have withdrawn their
/// stand-in (numbered after the entrants, in the order of the withdrawals), with the name
/// the standings show.
pub fn seat_holder(e: &Event, player: u32, round: u32) -> (u32, String) {
    match e
        .withdrawals
        .iter()
        .position(|w| w.player == player && w.from_round <= round)
    {
        Some(k) => (
            e.players.len() as u32 + 1 + k as u32,
            e.withdrawals[k].stand_in_name(&entrant_name(e, player)),
        ),
        None => (player, entrant_name(e, player)),
    }
}

/// The number a sitting has among the results of its deal (tables hold 4 hands a round).
pub fn sitting_number(table: u32, hand: u32) -> u32 {
    (table - 1) * 4 + hand
}

/// Table and hand back from [`sitting_number`].
pub fn sitting_of(number: u32) -> (u32, u32) {
    ((number - 1) / 4 + 1, (number - 1) % 4 + 1)
}

/// A table saves its entry for one of its sittings.
#[allow(clippy::too_many_arguments)]
pub fn enter_result(
    store: &dyn Store,
    event: EventId,
    table: u32,
    deal: &str,
    hand: u32,
    entry: &ScoreEntry,
    expected_version: u32,
    who: &str,
) -> AppResult<Saved> {
    let e = store.event(event)?;
    if sitting(&e.movement, deal, table, hand).is_none() {
        return Err(AppError::Invalid(format!(
            "deal {deal} is not played at table {table} in hand {hand}"
        )));
    }
    entry
        .check()
        .map_err(|er| AppError::Invalid(er.to_string()))?;
    Ok(store.save_result(event, deal, table, hand, entry, expected_version, who)?)
}

/// Everything entered so far (`stored`, the event's saved results), as the standings
/// calculator takes it.
pub fn results_of(store: &dyn Store, e: &Event, stored: &[StoredResult]) -> AppResult<Results> {
    let with_results: Vec<&str> = stored.iter().map(|r| r.deal.as_str()).collect();
    let mut penalties: Vec<Penalty> = store
        .penalties(e.id)?
        .into_iter()
        .map(|(_, mut p)| {
            // The deal of a penalty is a note until that deal has results.
            if p.deal
                .as_deref()
                .is_some_and(|d| !with_results.contains(&d))
            {
                p.deal = None;
            }
            p
        })
        .collect();
    let mut deals: Vec<tournament::standings::DealResult> = Vec::new();
    for name in e.movement.deal_names() {
        let mut tables = Vec::new();
        for r in stored.iter().filter(|r| r.deal == name) {
            let Some((round, tp)) = sitting(&e.movement, &r.deal, r.table, r.hand) else {
                continue;
            };
            let players = tp.players_by_wind().map(|p| seat_holder(e, p, round).0);
            for w in &r.entry.false_hu {
                penalties.push(Penalty {
                    player: players[w.index()],
                    kind: PenaltyKind::FalseHu,
                    deal: Some(name.clone()),
                    imp: 0,
                    reason: "false Hu".into(),
                });
            }
            tables.push(TableResult::new(
                sitting_number(r.table, r.hand),
                players,
                r.points,
            ));
        }
        if !tables.is_empty() {
            deals.push(tournament::standings::DealResult { deal: name, tables });
        }
    }
    let mut players: Vec<Player> = e
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| Player {
            id: i as u32 + 1,
            name: p.name.clone(),
            stands_in_for: None,
        })
        .collect();
    let mut teams: Vec<Team> = Vec::new();
    if e.team {
        for (i, p) in e.players.iter().enumerate() {
            let name = p.team.clone().unwrap_or_default();
            match teams.iter_mut().find(|t| t.name == name) {
                Some(t) => t.players.push(i as u32 + 1),
                None => teams.push(Team {
                    name,
                    players: vec![i as u32 + 1],
                }),
            }
        }
    }
    // Stand-ins play on for the field and, in team events, for the team.
    for (k, w) in e.withdrawals.iter().enumerate() {
        let id = e.players.len() as u32 + 1 + k as u32;
        players.push(Player {
            id,
            name: w.stand_in_name(&entrant_name(e, w.player)),
            stands_in_for: Some(w.player),
        });
        if let Some(t) = teams.iter_mut().find(|t| t.players.contains(&w.player)) {
            t.players.push(id);
        }
    }
    Ok(Results {
        players,
        teams,
        false_hu_points: 10,
        deals,
        penalties,
    })
}

/// An event's standings (players', and teams' in a team event) written out in full, to
/// compare two copies of the data (`dupmj migrate` checks a move with it).
pub fn standings_text(store: &dyn Store, id: EventId) -> AppResult<String> {
    let e = store.event(id)?;
    let results = results_of(store, &e, &store.results(id)?)?;
    let individual = results
        .individual()
        .map_err(|er| AppError::Internal(er.to_string()))?;
    let mut text = format!("{individual:?}");
    if e.team {
        let team = results
            .team()
            .map_err(|er| AppError::Internal(er.to_string()))?;
        text.push_str(&format!("\n{team:?}"));
    }
    Ok(text)
}

/// Standings of an event, or why they are not shown.
pub struct Computed {
    /// The event.
    pub event: Event,
    /// Its players' standings.
    pub individual: tournament::standings::Standings,
    /// Its teams' standings, in a team event.
    pub team: Option<tournament::standings::TeamStandings>,
    /// Table results entered so far.
    pub entered: usize,
    /// Table results the movement has.
    pub expected: usize,
    /// Online events: by player, hands the bot played for them.
    pub bot_hands: std::collections::BTreeMap<u32, u32>,
}

/// An event's standings from its stored results.
pub fn compute(hall: &play::Hall, id: EventId) -> AppResult<Computed> {
    let event = hall.store.event(id)?;
    let stored = hall.store.results(id)?;
    let results = results_of(hall.store.as_ref(), &event, &stored)?;
    let individual = results
        .individual()
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let team = if event.team {
        Some(
            results
                .team()
                .map_err(|e| AppError::Internal(e.to_string()))?,
        )
    } else {
        None
    };
    let expected = sittings(&event);
    let entered = stored.len();
    let bot_hands = play::online::bot_hands(hall, id)?;
    Ok(Computed {
        event,
        individual,
        team,
        entered,
        expected,
        bot_hands,
    })
}

/// How many table results an event's movement has (a sitting each).
pub fn sittings(e: &Event) -> usize {
    e.movement
        .rounds
        .iter()
        .flat_map(|r| &r.hands)
        .map(|h| h.tables.len())
        .sum()
}

/// A new random deal-set key.
pub fn new_key() -> table::set::SetKey {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the system has randomness");
    table::set::SetKey::from_bytes(b)
}

#[cfg(test)]
mod entrant_tests {
    use super::*;

    fn names(v: &[Entrant]) -> Vec<(&str, Option<&str>)> {
        v.iter()
            .map(|e| (e.name.as_str(), e.team.as_deref()))
            .collect()
    }

    #[test]
    fn entrants_are_read_as_csv_with_quotes_and_a_header() {
        let v =
            parse_entrants("name,team\n\"Lee, Ann\",Red\nBo , Blue\n\n\"Say \"\"Hi\"\"\",Red\n")
                .unwrap();
        assert_eq!(
            names(&v),
            [
                ("Lee, Ann", Some("Red")),
                ("Bo", Some("Blue")),
                ("Say \"Hi\"", Some("Red"))
            ]
        );
        // Plain lines, no header.
        let v = parse_entrants("Ada\nBo\n").unwrap();
        assert_eq!(names(&v), [("Ada", None), ("Bo", None)]);
    }

    #[test]
    fn a_name_is_never_split_into_a_team_silently() {
        let e = parse_entrants_for("Ada\nLee, Ann\n", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("\"Lee, Ann\""), "{e}");
        assert_eq!(
            names(&parse_entrants_for("Ada\n\"Lee, Ann\"\n", false).unwrap()),
            [("Ada", None), ("Lee, Ann", None)]
        );
        let e = parse_entrants_for("A,Red\nB\n", true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("no team"), "{e}");
        let e = parse_entrants("a,b,c\n").unwrap_err().to_string();
        assert!(e.contains("3 fields"), "{e}");
    }
}
