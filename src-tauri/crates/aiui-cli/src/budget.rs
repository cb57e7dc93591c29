//! `aiui-cli budget get|set|price|prices`: the operator API for the assistant's two allowances (Routstr's sats,
//! Claude's US dollars) and Claude's price table, from a terminal the model cannot reach.

use std::path::{Path, PathBuf};

use aiui_core::budget::{BudgetReport, BudgetStore, BudgetUpdate, ClaudeAllowance, ClaudeReport, ClaudeUpdate, Period};
use aiui_core::pricing::{self, PriceTable, format_usd};
use aiui_core::view::{AllowanceView, ClaudeMeterView};
use anyhow::bail;

use crate::l10n::{self, t};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    /// Where AIUI keeps its files (default: $AIUI_DATA_DIR or ~/.local/share/aiui).
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Show both allowances (what was spent and reserved this period, and what remains) and this month's free
    /// answers.
    Get {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Change either allowance (Routstr's sats, with its period and accepted mints; Claude's US dollars, with its
    /// period). Unset options stay as they are.
    Set {
        /// The allowance in sats per period (0 turns paid help off).
        // Negative numbers reach the parser, so "-5" is refused for what it is, not taken for an unknown flag.
        #[arg(long, value_name = "SATS", allow_negative_numbers = true)]
        allowance: Option<u64>,
        /// never, daily, weekly or monthly; a new period schedule starts now.
        #[arg(long, value_name = "PERIOD")]
        period: Option<Period>,
        /// An accepted mint URL; repeat for several. Replaces the list.
        #[arg(long = "mint", value_name = "URL")]
        mints: Vec<String>,
        /// Accept no mint at all (paid help stays off).
        #[arg(long, conflicts_with = "mints")]
        no_mints: bool,
        /// Claude's allowance in US dollars per period, e.g. 5 or 2.50 (0 turns Claude off).
        #[arg(long, value_name = "AMOUNT", allow_negative_numbers = true)]
        claude_usd: Option<String>,
        /// Claude's period: never, daily, weekly or monthly; a new schedule starts now.
        #[arg(long, value_name = "PERIOD")]
        claude_period: Option<Period>,
    },
    /// Set your own price for a Claude model, in US dollars per million tokens; it replaces the shipped one.
    Price {
        /// The model, as Anthropic names it (e.g. claude-sonnet-4-5).
        model: String,
        /// US dollars per million input tokens.
        #[arg(long, value_name = "USD", allow_negative_numbers = true)]
        input: f64,
        /// US dollars per million output tokens.
        #[arg(long, value_name = "USD", allow_negative_numbers = true)]
        output: f64,
        /// A 5-minute prompt-cache write.
        #[arg(long, value_name = "USD", allow_negative_numbers = true)]
        cache_write: f64,
        /// A prompt-cache hit.
        #[arg(long, value_name = "USD", allow_negative_numbers = true)]
        cache_read: f64,
    },
    /// List the prices Claude's answers are charged by, with when and where the shipped ones were taken.
    Prices,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let data_dir = crate::data_dir(args.data_dir)?;
    match args.command {
        Command::Get { json } => {
            let store = BudgetStore::open(&aiui_core::backends::registry::budget_path(&data_dir))?;
            let claude = ClaudeAllowance::open(&data_dir)?;
            // One read of each, so the text and the JSON say the same as the meter they are drawn from.
            let sats = store.get();
            let meter = meter(&data_dir, &sats, &claude.get());
            if json {
                // The sats report's fields stay where scripts read them; the rest of the meter is added beside.
                let mut out = serde_json::to_value(&sats)?;
                if let serde_json::Value::Object(fields) = &mut out {
                    fields.insert("claude".into(), serde_json::to_value(&meter.claude)?);
                    fields.insert("free_answers".into(), serde_json::to_value(meter.free_answers)?);
                    fields.insert("notice_80".into(), meter.notice_80.into());
                }
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                print_meter(&meter, &sats);
            }
        }
        Command::Set { allowance, period, mints, no_mints, claude_usd, claude_period } => {
            let accepted_mints = if no_mints { Some(Vec::new()) } else { (!mints.is_empty()).then_some(mints) };
            let sats_change = allowance.is_some() || period.is_some() || accepted_mints.is_some();
            let claude_change = claude_usd.is_some() || claude_period.is_some();
            if !sats_change && !claude_change {
                bail!("{}", t("cli-budget-nothing-to-change", &[]));
            }
            // Read before anything is written, so a bad amount changes neither allowance.
            let claude_micros = claude_usd.as_deref().map(claude_amount).transpose()?;
            if sats_change {
                let store = BudgetStore::open(&aiui_core::backends::registry::budget_path(&data_dir))?;
                let report = store.set(BudgetUpdate { allowance_sats: allowance, period, accepted_mints })?;
                println!("{}", t("cli-budget-saved", &[]));
                print_report(&report);
            }
            if claude_change {
                let claude = ClaudeAllowance::open(&data_dir)?;
                let report = claude.set(ClaudeUpdate { allowance_usd_micros: claude_micros, period: claude_period })?;
                println!("{}", t("cli-budget-claude-saved", &[]));
                print_claude(&ClaudeMeterView::from(&report));
            }
        }
        Command::Price { model, input, output, cache_write, cache_read } => {
            let table = pricing::set_owner_price(&data_dir, &model, input, output, cache_write, cache_read)?;
            println!("{}", t("cli-budget-price-saved", &[("model", model.trim().into())]));
            print_prices(&table);
        }
        Command::Prices => print_prices(&PriceTable::load(&data_dir)?),
    }
    Ok(())
}

/// `--claude-usd` as micro-dollars; the message names the flag, since core's says "price" for any amount.
fn claude_amount(text: &str) -> anyhow::Result<u64> {
    pricing::parse_usd(text).map_err(|e| match e {
        pricing::PriceError::Invalid(why) => {
            anyhow::anyhow!("{}", t("cli-budget-bad-claude-usd", &[("why", why.text(crate::l10n::locale()).into())]))
        }
        other => other.into(),
    })
}

/// The one meter, as every shell shows it. A conversation store that cannot be opened counts no free answers.
fn meter(data_dir: &Path, sats: &BudgetReport, claude: &ClaudeReport) -> AllowanceView {
    let conversations = aiui_core::paths::DataDir(data_dir.to_owned()).conversations();
    match conversations.exists().then(|| aiui_core::store::Store::open(&conversations)) {
        Some(Ok(store)) => aiui_core::view::meter(sats, claude, &store, Vec::new()),
        Some(Err(e)) => {
            eprintln!("{}", t("cli-budget-no-conversations", &[("error", e.to_string().into())]));
            AllowanceView::new(sats, Vec::new()).with_claude(claude)
        }
        None => AllowanceView::new(sats, Vec::new()).with_claude(claude),
    }
}

fn print_meter(meter: &AllowanceView, sats: &BudgetReport) {
    print_claude(&meter.claude);
    println!();
    println!("{}", t("cli-budget-routstr", &[]));
    print_report(sats);
    if meter.notice_80 {
        println!("{}", t("cli-budget-routstr-80", &[]));
    }
    println!();
    let free = meter.free_answers;
    println!("{}", t("cli-budget-free", &[("local", free.local.into()), ("builtin", free.builtin.into())]));
}

fn print_claude(c: &ClaudeMeterView) {
    // The host's figures, written the way the terminal's language writes dollars.
    let usd = |micros| aiui_core::pricing::format_usd_in(l10n::locale(), micros);
    println!("{}", t("cli-budget-claude", &[]));
    if c.allowance_usd_micros == 0 {
        println!("{}", t("cli-budget-claude-off", &[]));
        // An allowance lowered to 0 mid-period keeps what was already spent in it.
        if c.spent_usd_micros + c.reserved_usd_micros > 0 {
            let args = [("spent", usd(c.spent_usd_micros).into()), ("reserved", usd(c.reserved_usd_micros).into())];
            println!("{}", t("cli-budget-claude-spent-off", &args));
        }
        return;
    }
    let args = [("allowance", usd(c.allowance_usd_micros).into()), ("period", period(c.period).into())];
    println!("{}", t("cli-budget-allowance", &args));
    println!("{}", t("cli-budget-spent", &[("spent", usd(c.spent_usd_micros).into())]));
    println!("{}", t("cli-budget-reserved", &[("reserved", usd(c.reserved_usd_micros).into())]));
    println!("{}", t("cli-budget-remaining", &[("remaining", usd(c.remaining_usd_micros).into())]));
    let renewal = renews(c.renews_at_ms, aiui_core::now_ms(), l10n::locale());
    println!("{}", t("cli-budget-renews", &[("renews", renewal.into())]));
    if c.notice_80 {
        println!("{}", t("cli-budget-claude-80", &[]));
    }
}

fn print_prices(table: &PriceTable) {
    let header = [("date", table.taken_on.to_string().into()), ("source", table.source.to_string().into())];
    println!("{}", t("cli-prices-header", &header));
    println!(
        "{:<28} {:>9} {:>9} {:>12} {:>11}",
        t("cli-prices-col-model", &[]),
        t("cli-prices-col-input", &[]),
        t("cli-prices-col-output", &[]),
        t("cli-prices-col-cache-write", &[]),
        t("cli-prices-col-cache-read", &[])
    );
    let mine = t("cli-prices-mine", &[]);
    let usd = |micros: u64| format_usd(micros).trim_start_matches('$').to_owned();
    for (model, price) in &table.models {
        let p = price.base;
        let mine = if price.set_by_owner { mine.as_str() } else { "" };
        println!(
            "{model:<28} {:>9} {:>9} {:>12} {:>11}{mine}",
            usd(p.input),
            usd(p.output),
            usd(p.cache_write),
            usd(p.cache_read)
        );
    }
    println!("{}", t("cli-prices-footer", &[]));
}

fn print_report(report: &BudgetReport) {
    let args = [("sats", report.allowance_sats.into()), ("period", period(report.period.as_str()).into())];
    println!("{}", t("cli-budget-sats-allowance", &args));
    println!("{}", t("cli-budget-sats-spent", &[("sats", report.spent_sats.into())]));
    println!("{}", t("cli-budget-sats-reserved", &[("sats", report.reserved_sats.into())]));
    println!("{}", t("cli-budget-sats-remaining", &[("sats", report.remaining_sats.into())]));
    let renewal = renews(report.renews_at_ms, aiui_core::now_ms(), l10n::locale());
    println!("{}", t("cli-budget-renews", &[("renews", renewal.into())]));
    if report.accepted_mints.is_empty() {
        println!("{}", t("cli-budget-mints-none", &[]));
    } else {
        println!("{}", t("cli-budget-mints", &[]));
        for mint in &report.accepted_mints {
            println!("  {mint}");
        }
    }
    if report.notice_80_sent {
        println!("{}", t("cli-budget-80-sent", &[]));
    }
}

/// A period's name (`Period::as_str`: never, daily, weekly, monthly) in the CLI's language.
fn period(name: &str) -> String {
    match name {
        "never" => t("cli-period-never", &[]),
        "daily" => t("cli-period-daily", &[]),
        "weekly" => t("cli-period-weekly", &[]),
        "monthly" => t("cli-period-monthly", &[]),
        // A period this build does not know is shown as stored rather than hidden.
        other => other.to_owned(),
    }
}

/// When an allowance renews, counted from now, in `locale`: the exact time is `renews_at_ms` in `--json`.
fn renews(at_ms: Option<i64>, now_ms: i64, locale: aiui_core::i18n::Locale) -> String {
    const MINUTE: i64 = 60_000;
    const HOUR: i64 = 60 * MINUTE;
    const DAY: i64 = 24 * HOUR;
    let Some(at) = at_ms else { return aiui_core::i18n::text(locale, "cli-renews-never", &[]) };
    let left = (at - now_ms).max(0);
    let (n, key) = match left {
        l if l >= 2 * DAY => (l / DAY, "cli-renews-in-days"),
        l if l >= 2 * HOUR => (l / HOUR, "cli-renews-in-hours"),
        l => ((l / MINUTE).max(1), "cli-renews-in-minutes"),
    };
    aiui_core::i18n::text(locale, key, &[("count", n.into())])
}

#[cfg(test)]
mod tests {
    use aiui_core::i18n::Locale;

    #[track_caller]
    fn check(at_ms: Option<i64>, now_ms: i64, expect: &str) {
        assert_eq!(super::renews(at_ms, now_ms, Locale::En), expect);
    }

    #[test]
    fn renewal_is_said_in_the_largest_whole_unit_that_reads_well() {
        const H: i64 = 3_600_000;
        check(None, 0, "never (a one-off allowance)");
        check(Some(30 * 24 * H), 0, "in 30 days");
        check(Some(2 * 24 * H), 0, "in 2 days");
        check(Some(47 * H), 0, "in 47 hours");
        check(Some(2 * H), 0, "in 2 hours");
        check(Some(119 * 60_000), 0, "in 119 minutes");
        check(Some(10), 0, "in 1 minute");
        check(Some(0), 5, "in 1 minute");
    }

    #[test]
    fn renewal_is_said_with_the_plural_of_the_owners_language() {
        const H: i64 = 3_600_000;
        assert_eq!(super::renews(Some(30 * 24 * H), 0, Locale::De), "in 30 Tagen");
        assert_eq!(super::renews(Some(10), 0, Locale::De), "in 1 Minute");
        assert_eq!(super::renews(Some(47 * H), 0, Locale::Es), "en 47 horas");
        assert_eq!(super::renews(None, 0, Locale::Es), "nunca (un presupuesto único)");
    }
}
