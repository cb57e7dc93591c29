//! UTC timestamps as RFC 3339 and log-line text, without a date-time dependency for two formats.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch; times before it (a badly set clock) count as the epoch.
pub(crate) fn unix_secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

pub(crate) fn from_unix_secs(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// `2026-03-14T10:22:01Z`.
pub(crate) fn rfc3339(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = civil(unix_secs(t));
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `2026-03-14 10:22:01.123`, the style lnd and many daemons print.
pub(crate) fn log_stamp(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = civil(unix_secs(t));
    let ms = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_millis());
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{ms:03}")
}

/// Splits Unix seconds into UTC year, month, day, hour, minute, second (Howard Hinnant's `civil_from_days`).
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, (rem / 3600) as u32, (rem % 3600 / 60) as u32, (rem % 60) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(rfc3339(from_unix_secs(0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(from_unix_secs(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(from_unix_secs(1_710_411_721)), "2024-03-14T10:22:01Z");
        assert_eq!(rfc3339(from_unix_secs(4_107_542_399)), "2100-02-28T23:59:59Z");
        let t = from_unix_secs(1_710_411_721) + Duration::from_millis(42);
        assert_eq!(log_stamp(t), "2024-03-14 10:22:01.042");
    }
}
