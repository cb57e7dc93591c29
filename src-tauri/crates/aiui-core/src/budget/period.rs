//! Budget periods and their NWC-style renewal: a period runs from its start for one day, week or calendar month,
//! then the next one starts where it ended (never from "now", so a late check does not shift the schedule).

use serde::{Deserialize, Serialize};

/// How often the allowance renews. `Never` is a one-off allowance that only the owner tops up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Period {
    #[default]
    Never,
    Daily,
    Weekly,
    Monthly,
}

impl Period {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Never => "never",
            Self::Daily => "daily",
            Self::Weekly => "weekly",
            Self::Monthly => "monthly",
        }
    }

    /// The start of the `n`th period of a schedule whose first period began at `origin_ms`; `None` for
    /// [`Period::Never`]. Months count from the origin's own day each time, so 31 January renews on 28 February
    /// and then on 31 March, never drifting to the 28th.
    pub fn nth_start(self, origin_ms: i64, n: i64) -> Option<i64> {
        const DAY_MS: i64 = 86_400_000;
        match self {
            Self::Never => None,
            Self::Daily => Some(origin_ms + n * DAY_MS),
            Self::Weekly => Some(origin_ms + n * 7 * DAY_MS),
            Self::Monthly => Some(add_months(origin_ms, n)),
        }
    }

    /// The start of the period containing `now_ms` and the start of the next one (`None` for [`Period::Never`]),
    /// for a schedule whose first period began at `origin_ms`.
    pub fn bounds(self, origin_ms: i64, now_ms: i64) -> (i64, Option<i64>) {
        const DAY_MS: i64 = 86_400_000;
        let Some(_) = self.nth_start(origin_ms, 1) else { return (origin_ms, None) };
        if now_ms < origin_ms {
            return (origin_ms, self.nth_start(origin_ms, 1));
        }
        // A first guess from the elapsed days, then a step or two to correct for month lengths.
        let per_period = match self {
            Self::Daily => DAY_MS,
            Self::Weekly => 7 * DAY_MS,
            _ => 28 * DAY_MS,
        };
        let mut n = ((now_ms - origin_ms) / per_period).max(0);
        while n > 0 && self.nth_start(origin_ms, n).is_some_and(|s| s > now_ms) {
            n -= 1;
        }
        while self.nth_start(origin_ms, n + 1).is_some_and(|s| s <= now_ms) {
            n += 1;
        }
        (self.nth_start(origin_ms, n).unwrap_or(origin_ms), self.nth_start(origin_ms, n + 1))
    }

    /// The start of the period containing `now_ms`, for a schedule whose first period began at `origin_ms`.
    pub fn current_start(self, origin_ms: i64, now_ms: i64) -> i64 {
        self.bounds(origin_ms, now_ms).0
    }
}

impl std::str::FromStr for Period {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "never" => Ok(Self::Never),
            "daily" => Ok(Self::Daily),
            "weekly" => Ok(Self::Weekly),
            "monthly" => Ok(Self::Monthly),
            other => Err(format!("unknown period {other:?}: use never, daily, weekly or monthly")),
        }
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The start (UTC midnight of the 1st) of the calendar month `ms` falls in.
pub fn month_start_utc(ms: i64) -> i64 {
    const DAY_MS: i64 = 86_400_000;
    let (y, m, _) = civil_from_days(ms.div_euclid(DAY_MS));
    days_from_civil(y, m, 1) * DAY_MS
}

/// The same time of day `n` calendar months later, in UTC; the day is clamped (31 January + 1 -> 28/29 February,
/// 31 January + 2 -> 31 March).
fn add_months(ms: i64, n: i64) -> i64 {
    const DAY_MS: i64 = 86_400_000;
    let days = ms.div_euclid(DAY_MS);
    let time_of_day = ms.rem_euclid(DAY_MS);
    let (y, m, d) = civil_from_days(days);
    let months = y * 12 + i64::from(m) - 1 + n;
    let (ny, nm) = (months.div_euclid(12), (months.rem_euclid(12) + 1) as u32);
    let nd = d.min(days_in_month(ny, nm));
    days_from_civil(ny, nm, nd) * DAY_MS + time_of_day
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

// Howard Hinnant's civil-date algorithms: exact for the proleptic Gregorian calendar, no date crate needed.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    fn ms(y: i64, m: u32, d: u32) -> i64 {
        days_from_civil(y, m, d) * DAY
    }

    #[track_caller]
    fn check(period: Period, start: i64, now: i64, want_start: i64) {
        assert_eq!(period.current_start(start, now), want_start, "{period} from {start} at {now}");
    }

    #[test]
    fn periods_renew_from_their_own_start() {
        let jan31 = ms(2025, 1, 31) + 3_600_000;
        check(Period::Never, jan31, jan31 + 400 * DAY, jan31);
        check(Period::Daily, jan31, jan31 + DAY - 1, jan31);
        check(Period::Daily, jan31, jan31 + DAY, jan31 + DAY);
        check(Period::Daily, jan31, jan31 + 3 * DAY + 5, jan31 + 3 * DAY);
        check(Period::Weekly, jan31, jan31 + 13 * DAY, jan31 + 7 * DAY);
        // 31 January + 1 month clamps to 28 February 2025 (not a leap year), same hour.
        check(Period::Monthly, jan31, ms(2025, 2, 28) + 3_600_000, ms(2025, 2, 28) + 3_600_000);
        check(Period::Monthly, jan31, ms(2025, 2, 28), jan31);
        check(Period::Monthly, ms(2024, 1, 31), ms(2024, 2, 29), ms(2024, 2, 29));
        check(Period::Monthly, ms(2024, 12, 15), ms(2025, 1, 20), ms(2025, 1, 15));
        // No drift: after 28 February comes 31 March, and a year of months later it is still the 31st or the last.
        check(Period::Monthly, jan31, ms(2025, 3, 31) + 3_600_000, ms(2025, 3, 31) + 3_600_000);
        check(Period::Monthly, jan31, ms(2025, 3, 30), ms(2025, 2, 28) + 3_600_000);
        check(Period::Monthly, jan31, ms(2026, 1, 31) + 3_600_000, ms(2026, 1, 31) + 3_600_000);
        check(Period::Monthly, jan31, ms(2025, 4, 30) + 3_600_000, ms(2025, 4, 30) + 3_600_000);
        assert_eq!(Period::Monthly.bounds(jan31, ms(2025, 3, 1)).1, Some(ms(2025, 3, 31) + 3_600_000));
        // Before the schedule began, the first period is the current one.
        check(Period::Daily, jan31, jan31 - 5, jan31);
    }

    #[test]
    fn a_month_starts_at_midnight_utc_on_its_first() {
        assert_eq!(month_start_utc(ms(2026, 12, 1) + 5 * 3_600_000), ms(2026, 12, 1));
        assert_eq!(month_start_utc(ms(2024, 2, 29) + 86_399_999), ms(2024, 2, 1));
        assert_eq!(month_start_utc(ms(2026, 1, 1)), ms(2026, 1, 1));
    }

    #[test]
    fn civil_dates_round_trip() {
        for days in [-800_000, -1, 0, 1, 59, 10_957, 19_000, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
    }

    #[test]
    fn periods_parse_and_print() {
        for p in [Period::Never, Period::Daily, Period::Weekly, Period::Monthly] {
            assert_eq!(p.as_str().parse::<Period>(), Ok(p));
            assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{p}\""));
        }
        assert!("hourly".parse::<Period>().is_err());
    }
}
