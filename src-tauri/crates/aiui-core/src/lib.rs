//! AIUI's core: the node client today; the loop, backends, budget, pay, tools, gate and egress screen as they land.
//!
//! This crate knows nothing of how it is shown: no tauri, no HTTP server. The Tauri shell, the CLI and the LAN
//! server are thin adapters over it (see ARCHITECTURE.md).

pub mod agent;
pub mod backends;
pub mod budget;
pub mod datadir;
pub mod egress;
pub mod faults;
#[cfg(test)]
mod fuzz;
pub mod gate;
pub mod i18n;
pub mod net;
pub mod node;
pub mod paths;
pub mod pay;
pub mod pricing;
pub mod secret;
pub mod secrets;
pub mod store;
pub mod suggest;
pub mod tools;
pub mod view;

pub use secret::Secret;

/// Milliseconds since the Unix epoch, the one timestamp format of the audit log, the store and the gate.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or_default()
}

/// A Unix-milliseconds time as the owner reads it in a notice, in English: `2026-12-01 12:34 UTC`.
pub fn format_time_ms(ms: i64) -> String {
    format_time_ms_in(ms, i18n::Locale::En)
}

/// A Unix-milliseconds time in `locale`'s order of day, month and year (`01.12.2026, 12:34 UTC` in German), always
/// in UTC and said so: the ledger, the node and the LAN service each run on their own clock and zone.
pub fn format_time_ms_in(ms: i64, locale: i18n::Locale) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Strings, not numbers: Fluent would group a year as "2,026" and drop the leading zeros.
    i18n::text(
        locale,
        "time-utc",
        &[
            ("year", format!("{year:04}").into()),
            ("month", format!("{month:02}").into()),
            ("day", format!("{day:02}").into()),
            ("hour", format!("{:02}", rest / 3600).into()),
            ("minute", format!("{:02}", rest % 3600 / 60).into()),
        ],
    )
}

#[cfg(test)]
mod time_tests {
    #[test]
    fn a_time_reads_as_a_utc_date() {
        assert_eq!(super::format_time_ms(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::format_time_ms(1_796_128_440_000), "2026-12-01 12:34 UTC");
        assert_eq!(super::format_time_ms(951_782_400_000), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn a_time_reads_in_the_owners_order_of_day_month_and_year() {
        use crate::i18n::Locale;
        assert_eq!(super::format_time_ms_in(1_796_128_440_000, Locale::De), "01.12.2026, 12:34 UTC");
        assert_eq!(super::format_time_ms_in(1_796_128_440_000, Locale::Es), "01/12/2026, 12:34 UTC");
        assert_eq!(super::format_time_ms_in(951_782_400_000, Locale::En), "2000-02-29 00:00 UTC");
    }
}
