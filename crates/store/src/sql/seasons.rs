//! Sign-ups and seasons over SQL.

use tournament::signup::{after, Act, Line};

use super::{args, audit, json, now, parse, Backend, Db, Row, SqlExt};
use crate::{
    EventId, EventKind, NewSignUp, PartKind, Result, Season, SeasonStore, SignUp, StoreError,
};

const SIGNUP: &str = "SELECT id, name, kind, rules, deadline, note, event FROM signups";

fn signup_of(r: &Row) -> Result<SignUp> {
    let kind: String = r.get(2)?;
    Ok(SignUp {
        id: r.get(0)?,
        spec: NewSignUp {
            name: r.get(1)?,
            kind: EventKind::parse(&kind)
                .ok_or_else(|| StoreError::Backend(format!("stored kind '{kind}'")))?,
            rules: parse(&r.get::<String>(3)?, "sign-up rules")?,
            deadline: r.get(4)?,
            note: r.get(5)?,
        },
        event: r.get(6)?,
    })
}

const SEASON: &str = "SELECT id, name, rules, final_k, final_event FROM seasons";

fn season_of(r: &Row, parts: Vec<(PartKind, i64)>) -> Result<Season> {
    Ok(Season {
        id: r.get(0)?,
        name: r.get(1)?,
        rules: parse(&r.get::<String>(2)?, "season rules")?,
        final_k: r.get(3)?,
        parts,
        final_event: r.get(4)?,
    })
}

fn parts_of(rows: &[Row]) -> Result<Vec<(PartKind, i64)>> {
    rows.iter()
        .map(|r| {
            let kind: String = r.get(0)?;
            let kind = PartKind::parse(&kind)
                .ok_or_else(|| StoreError::Backend(format!("stored part kind '{kind}'")))?;
            Ok((kind, r.get(1)?))
        })
        .collect()
}

impl<B: Backend> SeasonStore for Db<B> {
    fn create_signup(&self, s: &NewSignUp, who: &str) -> Result<i64> {
        if s.rules.cap == 0 {
            return Err(StoreError::Invalid("cap: at least 1 player".into()));
        }
        let rules = json(&s.rules);
        self.change(|tx| {
            let id = tx.insert(
                "INSERT INTO signups (name, kind, rules, deadline, note, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                args![s.name.as_str(), s.kind.as_str(), rules.as_str(), s.deadline, s.note.as_str(), now()],
            )?;
            audit(tx, None, who, &format!("sign-up {id} opened: {}", s.name), None, Some(&rules))?;
            Ok(id)
        })
    }

    fn signups(&self) -> Result<Vec<SignUp>> {
        let sql = format!("{SIGNUP} ORDER BY id DESC");
        self.read(|c| c.query(&sql, &[]))?
            .iter()
            .map(signup_of)
            .collect()
    }

    fn signup(&self, id: i64) -> Result<SignUp> {
        let sql = format!("{SIGNUP} WHERE id = ?1");
        match self.read(|c| c.opt(&sql, args![id]))? {
            Some(r) => signup_of(&r),
            None => Err(StoreError::NotFound(format!("sign-up {id}"))),
        }
    }

    fn signup_acts(&self, id: i64) -> Result<Vec<Act>> {
        self.read(|c| {
            c.column::<String>(
                "SELECT body FROM signup_acts WHERE signup = ?1 ORDER BY id",
                args![id],
            )
        })?
        .iter()
        .map(|b| parse(b, "sign-up act"))
        .collect()
    }

    fn add_signup_act(&self, id: i64, act: &Act, at: i64, who: &str) -> Result<Vec<Line>> {
        let body = json(act);
        self.change(|tx| {
            // Counting the acts on the sign-up's row first makes two acts at once wait for
            // each other (a row lock on PostgreSQL, the one writer on SQLite).
            if tx.exec(
                "UPDATE signups SET acts = acts + 1 WHERE id = ?1",
                args![id],
            )? == 0
            {
                return Err(StoreError::NotFound(format!("sign-up {id}")));
            }
            let sql = format!("{SIGNUP} WHERE id = ?1");
            let s = signup_of(&tx.opt(&sql, args![id])?.expect("updated just now"))?;
            if let Some(e) = s.event {
                return Err(StoreError::Invalid(format!(
                    "sign-up {id} is closed: event {e} was made from it"
                )));
            }
            if matches!(act, Act::Join { .. } | Act::Substitute { .. }) && at > s.spec.deadline {
                return Err(StoreError::Invalid(format!(
                    "sign-up {id} closed at its deadline"
                )));
            }
            let acts: Vec<Act> = tx
                .query(
                    "SELECT body FROM signup_acts WHERE signup = ?1 ORDER BY id",
                    args![id],
                )?
                .iter()
                .map(|r| parse(&r.get::<String>(0)?, "sign-up act"))
                .collect::<Result<_>>()?;
            let lines =
                after(&s.spec.rules, &acts, act).map_err(|e| StoreError::Invalid(e.to_string()))?;
            tx.exec(
                "INSERT INTO signup_acts (signup, body, by_whom, at) VALUES (?1, ?2, ?3, ?4)",
                args![id, body.as_str(), who, now()],
            )?;
            audit(tx, None, who, &format!("sign-up {id}"), None, Some(&body))?;
            Ok(lines)
        })
    }

    fn signup_made(&self, id: i64, event: EventId, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE signups SET event = ?2 WHERE id = ?1 AND event IS NULL",
                args![id, event],
            )?;
            if n == 0 {
                return Err(StoreError::Invalid(format!(
                    "sign-up {id}: no such open sign-up (an event is made from it once)"
                )));
            }
            audit(
                tx,
                Some(event),
                who,
                &format!("event made from sign-up {id}"),
                None,
                None,
            )
        })
    }

    fn create_season(&self, s: &Season, who: &str) -> Result<i64> {
        if s.rules.best == 0 {
            return Err(StoreError::Invalid("best: at least 1 result counts".into()));
        }
        let rules = json(&s.rules);
        self.change(|tx| {
            let id = tx.insert(
                "INSERT INTO seasons (name, rules, final_k, created) VALUES (?1, ?2, ?3, ?4) RETURNING id",
                args![s.name.as_str(), rules.as_str(), s.final_k, now()],
            )?;
            for (i, (kind, of)) in s.parts.iter().enumerate() {
                tx.exec(
                    "INSERT INTO season_parts (season, part, kind, ref_id) VALUES (?1, ?2, ?3, ?4)",
                    args![id, i, kind.as_str(), *of],
                )?;
            }
            audit(tx, None, who, &format!("season {id} made: {}", s.name), None, Some(&rules))?;
            Ok(id)
        })
    }

    fn seasons(&self) -> Result<Vec<Season>> {
        let ids: Vec<i64> =
            self.read(|c| c.column("SELECT id FROM seasons ORDER BY id DESC", &[]))?;
        ids.into_iter().map(|id| self.season(id)).collect()
    }

    fn season(&self, id: i64) -> Result<Season> {
        let sql = format!("{SEASON} WHERE id = ?1");
        let (row, parts) = self.read(|c| {
            let row = c.opt(&sql, args![id])?;
            let parts = c.query(
                "SELECT kind, ref_id FROM season_parts WHERE season = ?1 ORDER BY part",
                args![id],
            )?;
            Ok((row, parts))
        })?;
        let row = row.ok_or_else(|| StoreError::NotFound(format!("season {id}")))?;
        season_of(&row, parts_of(&parts)?)
    }

    fn add_season_part(&self, id: i64, kind: PartKind, of: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let parts = parts_of(&tx.query(
                "SELECT kind, ref_id FROM season_parts WHERE season = ?1 ORDER BY part",
                args![id],
            )?)?;
            if tx
                .opt("SELECT id FROM seasons WHERE id = ?1", args![id])?
                .is_none()
            {
                return Err(StoreError::NotFound(format!("season {id}")));
            }
            if parts.contains(&(kind, of)) {
                return Err(StoreError::Invalid(format!(
                    "{} {of} is in season {id} already",
                    kind.as_str()
                )));
            }
            tx.exec(
                "INSERT INTO season_parts (season, part, kind, ref_id) VALUES (?1, ?2, ?3, ?4)",
                args![id, parts.len(), kind.as_str(), of],
            )?;
            audit(
                tx,
                None,
                who,
                &format!("season {id}: {} {of} added", kind.as_str()),
                None,
                None,
            )
        })
    }

    fn set_season_final(&self, id: i64, event: EventId, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE seasons SET final_event = ?2 WHERE id = ?1 AND final_event IS NULL",
                args![id, event],
            )?;
            if n == 0 {
                return Err(StoreError::Invalid(format!(
                    "season {id}: no such season without a final"
                )));
            }
            audit(
                tx,
                Some(event),
                who,
                &format!("final of season {id}"),
                None,
                None,
            )
        })
    }
}
