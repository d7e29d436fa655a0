//! The challenges' side of the sweeper: closing windows (playing out tables left
//! unfinished), taking up pars left unplayed, and publishing the next scheduled challenge.

use super::publish::json;
use super::{
    load, now_s, play_par_in_background, publish, utc, Arc, ChallengeSpec, Hall, NewChallenge,
    Rotation, PAR_BOT,
};
use crate::PlayError;

/// Plays out the tables of challenges whose window has closed (those this node plays or
/// nobody plays), and with the `duty` plays in the background the par of a challenge
/// announced over [`super::PAR_GRACE_S`] ago without one (its node stopped) and publishes the next
/// scheduled challenge when none is open. Errors are reported and left for the next round.
pub fn sweep(hall: &Arc<Hall>, duty: bool) {
    let now = now_s();
    let Ok(list) = hall.store.challenges(200) else {
        return;
    };
    // Tables still in play, once: a closed challenge's plays are looked up in it.
    let Ok(in_play) = hall.store.play_tables(true, usize::MAX >> 1) else {
        return;
    };
    let in_play: std::collections::HashSet<i64> = in_play.iter().map(|t| t.id).collect();
    let mut scheduled_running = false;
    for c in list {
        let Ok(spec) = serde_json::from_str::<ChallengeSpec>(&c.spec) else {
            continue;
        };
        // (A challenge from before deal sets has no key to play a par on.)
        if spec.par_table == 0
            && spec.key.is_some()
            && duty
            && now - spec.announced > spec.par_grace_s()
        {
            play_par_in_background(hall, c.id);
        }
        if now < spec.closes {
            scheduled_running |= spec.scheduled;
            continue;
        }
        let Ok(plays) = hall.store.challenge_plays(c.id) else {
            continue;
        };
        for p in plays.iter().filter(|p| in_play.contains(&p.play_table)) {
            hall.play_out(p.play_table);
        }
    }
    if let Some(s) = hall.config.schedule.as_ref().filter(|_| duty) {
        if !scheduled_running {
            let c = NewChallenge {
                name: format!("Challenge of {}", &utc(now)[..10]),
                deals: s.deals,
                copies: s.copies,
                opens_in_h: 0,
                hours: s.hours,
                level: s.level.clone(),
                par: PAR_BOT.into(),
                rotation: Rotation::Same,
                limit_s: 15,
                bank_s: 30,
                scheduled: true,
                bots: false,
            };
            if let Err(e) = publish(hall, &c) {
                eprintln!("the scheduled challenge was not published: {e}");
            }
        }
    }
}

/// Ends a challenge's window now (a director's button).
pub fn close_now(hall: &Arc<Hall>, id: i64) -> Result<(), PlayError> {
    tracing::info!(
        challenge = id,
        action = "close_challenge",
        "director action"
    );
    let mut ch = load(hall, id)?;
    let now = now_s();
    if ch.spec.closes > now {
        ch.spec.closes = now;
        ch.spec.opens = ch.spec.opens.min(now);
        hall.store.update_challenge(id, &json(&ch.spec)?)?;
    }
    sweep(hall, hall.holds_duty("sweeper"));
    Ok(())
}
