//! The kept ratings.

use super::{args, json, now, parse, Backend, Db, Row, Sql, SqlExt, Value};
use crate::ratings::{RatedHand, RatedSession, RatingRow, RatingStore, Update};
use crate::Result;

fn row(r: &Row) -> Result<RatingRow> {
    Ok(RatingRow {
        person: r.get(0)?,
        state: r.get(1)?,
        hands: r.get(2)?,
        placed: r.get(3)?,
    })
}

const COLUMNS: &str = "SELECT person, state, hands, placed FROM ratings";

fn insert_hand(tx: &mut dyn Sql, h: &RatedHand) -> Result<()> {
    tx.exec(
        "INSERT INTO rated_hands (hand, seat, person, deal_key, imp) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (hand, seat) DO UPDATE SET person = excluded.person, \
         deal_key = excluded.deal_key, imp = excluded.imp",
        args![h.hand, h.seat, h.person, &h.deal_key, h.imp as i64],
    )?;
    Ok(())
}

impl<B: Backend> RatingStore for Db<B> {
    fn rate_session(
        &self,
        session: &str,
        upto: i64,
        people: &[i64],
        update: &mut Update<'_>,
    ) -> Result<bool> {
        self.change(|tx| {
            let done: i64 = tx
                .one(
                    "SELECT count(*) FROM rated_sessions WHERE session = ?1",
                    args![session],
                )?
                .get(0)?;
            if done > 0 {
                return Ok(false);
            }
            // A few queries for many people (a deal held by hundreds).
            let mut kept = Vec::new();
            for chunk in people.chunks(500) {
                let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("?{i}")).collect();
                let values: Vec<Value> = chunk.iter().map(|&p| Value::from(p)).collect();
                for r in tx.query(
                    &format!("{COLUMNS} WHERE person IN ({})", marks.join(", ")),
                    &values,
                )? {
                    kept.push(row(&r)?);
                }
            }
            let rated = update(&kept)?;
            for h in &rated.hands {
                insert_hand(tx, h)?;
            }
            for r in rated.rows {
                tx.exec(
                    "INSERT INTO ratings (person, state, hands, placed) VALUES (?1, ?2, ?3, ?4) \
                     ON CONFLICT (person) DO UPDATE SET state = excluded.state, \
                     hands = excluded.hands, placed = excluded.placed",
                    args![r.person, r.state, r.hands, r.placed],
                )?;
            }
            tx.exec(
                "INSERT INTO rated_sessions (session, upto, at) VALUES (?1, ?2, ?3)",
                args![session, upto, now()],
            )?;
            Ok(true)
        })
    }

    fn rating(&self, person: i64) -> Result<Option<RatingRow>> {
        self.read(|c| c.opt(&format!("{COLUMNS} WHERE person = ?1"), args![person]))?
            .as_ref()
            .map(row)
            .transpose()
    }

    fn rating_board(
        &self,
        min_hands: usize,
        limit: usize,
    ) -> Result<Vec<(RatingRow, String, bool)>> {
        self.read(|c| {
            c.query(
                "SELECT r.person, r.state, r.hands, r.placed, p.name, p.bot FROM ratings r \
                 JOIN people p ON p.id = r.person \
                 WHERE r.hands >= ?1 AND p.hash IS NOT NULL AND p.deleted = 0 \
                 ORDER BY r.placed DESC, r.person LIMIT ?2",
                args![min_hands, limit],
            )
        })?
        .iter()
        .map(|r| Ok((row(r)?, r.get(4)?, r.get(5)?)))
        .collect()
    }

    fn all_ratings(&self) -> Result<Vec<RatingRow>> {
        self.read(|c| c.query(&format!("{COLUMNS} ORDER BY person"), &[]))?
            .iter()
            .map(row)
            .collect()
    }

    fn rated_sessions(&self) -> Result<Vec<RatedSession>> {
        self.read(|c| {
            c.query(
                "SELECT seq, session, upto FROM rated_sessions ORDER BY seq",
                &[],
            )
        })?
        .iter()
        .map(|r| {
            Ok(RatedSession {
                seq: r.get(0)?,
                session: r.get(1)?,
                upto: r.get(2)?,
            })
        })
        .collect()
    }

    fn is_rated(&self, session: &str) -> Result<bool> {
        let n: i64 = self
            .read(|c| {
                c.one(
                    "SELECT count(*) FROM rated_sessions WHERE session = ?1",
                    args![session],
                )
            })?
            .get(0)?;
        Ok(n > 0)
    }

    fn par(&self, seed: u64, rules: &str) -> Result<Option<[i32; 4]>> {
        let Some(r) = self.read(|c| {
            c.opt(
                "SELECT points FROM pars WHERE seed = ?1 AND rules = ?2",
                args![seed, rules],
            )
        })?
        else {
            return Ok(None);
        };
        let text: String = r.get(0)?;
        Ok(Some(parse(&text, "par")?))
    }

    fn save_par(&self, seed: u64, rules: &str, points: [i32; 4]) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO pars (seed, rules, points) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (seed, rules) DO NOTHING",
                args![seed, rules, json(&points)],
            )?;
            Ok(())
        })
    }

    fn replace_ratings(
        &self,
        rows: &[RatingRow],
        hands: &[RatedHand],
        rated: &[(String, i64)],
    ) -> Result<()> {
        self.change(|tx| {
            tx.exec("DELETE FROM ratings", &[])?;
            tx.exec("DELETE FROM rated_hands", &[])?;
            for h in hands {
                insert_hand(tx, h)?;
            }
            for r in rows {
                tx.exec(
                    "INSERT INTO ratings (person, state, hands, placed) VALUES (?1, ?2, ?3, ?4)",
                    args![r.person, &r.state, r.hands, r.placed],
                )?;
            }
            let at = now();
            for (session, upto) in rated {
                tx.exec(
                    "INSERT INTO rated_sessions (session, upto, at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (session) DO NOTHING",
                    args![session, *upto, &at],
                )?;
            }
            Ok(())
        })
    }

    fn rated_hands_of(&self, person: i64, limit: usize) -> Result<Vec<RatedHand>> {
        self.read(|c| {
            c.query(
                "SELECT hand, seat, person, deal_key, imp FROM rated_hands WHERE person = ?1 \
                 ORDER BY hand DESC, seat LIMIT ?2",
                args![person, limit],
            )
        })?
        .iter()
        .map(|r| {
            Ok(RatedHand {
                hand: r.get(0)?,
                seat: r.get(1)?,
                person: r.get(2)?,
                deal_key: r.get(3)?,
                imp: r.get::<i64>(4)? as i32,
            })
        })
        .collect()
    }

    fn rated_hand_count(&self) -> Result<i64> {
        self.read(|c| c.one("SELECT count(*) FROM rated_hands", &[]))?
            .get(0)
    }
}
