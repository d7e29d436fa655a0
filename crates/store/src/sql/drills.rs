//! Training drills over SQL.

use super::{args, Backend, Db, Row, SqlExt};
use crate::{DrillAnswer, DrillCard, DrillProgress, DrillStore, Result};

const COLUMNS: &str = "drill, added, due, streak, interval_days, ease, answered, right_answers";

fn card(r: &Row) -> Result<DrillCard> {
    Ok(DrillCard {
        drill: r.get(0)?,
        added_day: r.get(1)?,
        due_day: r.get(2)?,
        streak: r.get(3)?,
        interval_days: r.get(4)?,
        ease_milli: r.get(5)?,
        answered: r.get(6)?,
        right: r.get(7)?,
    })
}

const ADD: &str = "INSERT INTO drills (person, drill, added, due) VALUES (?1, ?2, ?3, ?3) \
                   ON CONFLICT (person, drill) DO NOTHING";

impl<B: Backend> DrillStore for Db<B> {
    fn add_drills(&self, person: i64, drills: &[String], day: i64) -> Result<usize> {
        self.change(|tx| {
            let mut n = 0;
            for d in drills {
                n += tx.exec(ADD, args![person, d, day])?;
            }
            Ok(n)
        })
    }

    fn mark_mined(&self, person: i64, hand: i64, drills: &[String], day: i64) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO drill_sources (person, hand) VALUES (?1, ?2) \
                 ON CONFLICT (person, hand) DO NOTHING",
                args![person, hand],
            )?;
            for d in drills {
                tx.exec(ADD, args![person, d, day])?;
            }
            Ok(())
        })
    }

    fn mined_hands(&self, person: i64) -> Result<Vec<i64>> {
        self.read(|c| {
            c.column(
                "SELECT hand FROM drill_sources WHERE person = ?1 ORDER BY hand",
                args![person],
            )
        })
    }

    fn drills_due(&self, person: i64, day: i64, limit: usize) -> Result<Vec<DrillCard>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM drills WHERE person = ?1 AND due <= ?2 \
             ORDER BY due, added, drill LIMIT ?3"
        );
        self.read(|c| c.query(&sql, args![person, day, limit]))?
            .iter()
            .map(card)
            .collect()
    }

    fn drill_card(&self, person: i64, drill: &str) -> Result<Option<DrillCard>> {
        let sql = format!("SELECT {COLUMNS} FROM drills WHERE person = ?1 AND drill = ?2");
        self.read(|c| c.opt(&sql, args![person, drill]))?
            .as_ref()
            .map(card)
            .transpose()
    }

    fn answer_drill(
        &self,
        person: i64,
        drill: &str,
        after: Option<&DrillCard>,
        answer: &DrillAnswer,
        day: i64,
    ) -> Result<()> {
        self.change(|tx| {
            if let Some(c) = after {
                let n = tx.exec(
                    "UPDATE drills SET due = ?3, streak = ?4, interval_days = ?5, ease = ?6, \
                     answered = ?7, right_answers = ?8 WHERE person = ?1 AND drill = ?2",
                    args![
                        person,
                        drill,
                        c.due_day,
                        c.streak,
                        c.interval_days,
                        c.ease_milli,
                        c.answered,
                        c.right
                    ],
                )?;
                if n != 1 {
                    return Err(crate::StoreError::NotFound(format!(
                        "drill '{drill}' is not one of person {person}'s"
                    )));
                }
            }
            tx.exec(
                "INSERT INTO drill_answers (person, drill, day, answer, grade, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                args![
                    person,
                    drill,
                    day,
                    answer.answer.as_str(),
                    answer.grade as i64,
                    crate::now_ms()
                ],
            )?;
            Ok(())
        })
    }

    fn first_answer(&self, person: i64, drill: &str) -> Result<Option<DrillAnswer>> {
        self.read(|c| {
            c.opt(
                "SELECT answer, grade FROM drill_answers WHERE person = ?1 AND drill = ?2 \
                 ORDER BY id LIMIT 1",
                args![person, drill],
            )
        })?
        .map(|r| {
            Ok(DrillAnswer {
                answer: r.get(0)?,
                grade: r.get(1)?,
            })
        })
        .transpose()
    }

    fn answers_to(&self, drill: &str) -> Result<Vec<(DrillAnswer, usize)>> {
        // Each person's first answer only: trying again after seeing the answer is not
        // how they answered.
        let rows = self.read(|c| {
            c.query(
                "SELECT a.answer, a.grade, count(*) FROM drill_answers a \
                 WHERE a.drill = ?1 AND a.id = (SELECT min(b.id) FROM drill_answers b \
                 WHERE b.drill = a.drill AND b.person = a.person) \
                 GROUP BY a.answer, a.grade ORDER BY count(*) DESC, a.answer",
                args![drill],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok((
                    DrillAnswer {
                        answer: r.get(0)?,
                        grade: r.get(1)?,
                    },
                    r.get(2)?,
                ))
            })
            .collect()
    }

    fn drill_salt(&self, candidate: i64) -> Result<i64> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO meta (key, value) VALUES ('drill_salt', ?1) ON CONFLICT (key) DO NOTHING",
                args![candidate.to_string()],
            )?;
            let kept: String = tx
                .one("SELECT value FROM meta WHERE key = 'drill_salt'", &[])?
                .get(0)?;
            kept.parse()
                .map_err(|_| crate::StoreError::Backend(format!("drill_salt: '{kept}' is not a number")))
        })
    }

    fn drill_progress(&self, person: i64, day: i64) -> Result<DrillProgress> {
        let (cards, due, answers) = self.read(|c| {
            let cards = c.one(
                "SELECT count(*) FROM drills WHERE person = ?1",
                args![person],
            )?;
            let due = c.one(
                "SELECT count(*) FROM drills WHERE person = ?1 AND due <= ?2",
                args![person, day],
            )?;
            let answers = c.one(
                "SELECT count(*), CAST(coalesce(sum(CASE WHEN grade >= 3 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                 CAST(coalesce(sum(CASE WHEN day = ?2 THEN 1 ELSE 0 END), 0) AS BIGINT) \
                 FROM drill_answers WHERE person = ?1",
                args![person, day],
            )?;
            Ok((cards, due, answers))
        })?;
        Ok(DrillProgress {
            cards: cards.get(0)?,
            due: due.get(0)?,
            answered: answers.get(0)?,
            right: answers.get(1)?,
            answered_today: answers.get(2)?,
        })
    }
}
