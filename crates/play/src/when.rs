//! The wall clock as the challenges and events read it: seconds since 1970, and a time said
//! as `2026-11-23 14:05 UTC`.

/// Seconds since 1970 (UTC) now.
pub fn now_s() -> i64 {
    store::now_ms().div_euclid(1000)
}

/// `2026-11-23 14:05 UTC`.
pub fn utc(secs: i64) -> String {
    let (year, month, day) = store::civil_date(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}
