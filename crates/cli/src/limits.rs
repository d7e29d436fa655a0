//! Bounds on the numbers a user gives, so that a typo is a clear error and never an
//! allocation of gigabytes, an overflow or a run that cannot end.

use std::time::Duration;

/// The most deals `play` and `arena` take in one run (a few hours of the fastest bots).
pub const MAX_DEALS: u64 = 10_000_000;
/// The most regular games `play` takes in one run.
pub const MAX_GAMES: u64 = 1_000_000;
/// The most worker threads `arena` starts.
pub const MAX_THREADS: usize = 1024;
/// The longest time a flag in seconds may give: a week.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// Checks a number of deals from `seed`: at least one, at most [`MAX_DEALS`], and every
/// seed (seed, seed + 1, …) below 2⁶⁴.
pub fn deals(n: u64, seed: u64) -> Result<(), String> {
    deals_up_to(n, seed, MAX_DEALS)
}

/// [`deals`] with another most.
pub fn deals_up_to(n: u64, seed: u64, most: u64) -> Result<(), String> {
    if n == 0 || n > most {
        return Err(format!("--deals {n}: give 1 to {most} deals"));
    }
    if seed.checked_add(n - 1).is_none() {
        return Err(format!(
            "--seed {seed} with --deals {n}: the seeds would run past {}",
            u64::MAX
        ));
    }
    Ok(())
}

/// A number of seconds given to `flag`: more than 0 and at most a week.
pub fn seconds(s: f64, flag: &str) -> Result<Duration, String> {
    if !(s > 0.0 && s <= MAX_SECONDS) {
        return Err(format!(
            "{flag} {s}: give a number of seconds more than 0 and at most {MAX_SECONDS} (a week)"
        ));
    }
    Ok(Duration::from_secs_f64(s))
}
