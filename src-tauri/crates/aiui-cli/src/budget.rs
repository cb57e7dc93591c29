//! `aiui-cli budget get|set|price|prices`: the operator API for the assistant's two allowances (Routstr's sats,
//! Claude's US dollars) and Claude's price table, from a terminal the model cannot reach.

use std::path::{Path, PathBuf};

use aiui_core::budget::{BudgetReport, BudgetStore, BudgetUpdate, ClaudeAllowance, ClaudeReport, ClaudeUpdate, Period};
use aiui_core::pricing::{self, PriceTable, format_usd};
use aiui_core::view::{AllowanceView, ClaudeMeterView};
use anyhow::bail;

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
        #[arg(long, value_name = "USD", allow_negative_numbers = true)]
        input: f64,
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
                bail!(
                    "nothing to change: pass --allowance, --period, --mint or --no-mints (Routstr, sats), or \
                     --claude-usd or --claude-period (Claude, US dollars)"
                );
            }
            // Read before anything is written, so a bad amount changes neither allowance.
            let claude_micros = claude_usd.as_deref().map(claude_amount).transpose()?;
            if sats_change {
                let store = BudgetStore::open(&aiui_core::backends::registry::budget_path(&data_dir))?;
                let report = store.set(BudgetUpdate { allowance_sats: allowance, period, accepted_mints })?;
                println!("Budget saved.");
                print_report(&report);
            }
            if claude_change {
                let claude = ClaudeAllowance::open(&data_dir)?;
                let report = claude.set(ClaudeUpdate { allowance_usd_micros: claude_micros, period: claude_period })?;
                println!("Claude's allowance saved.");
                print_claude(&ClaudeMeterView::from(&report));
            }
        }
        Command::Price { model, input, output, cache_write, cache_read } => {
            let table = pricing::set_owner_price(&data_dir, &model, input, output, cache_write, cache_read)?;
            println!("Price saved for {}: it is used from the next request.", model.trim());
            print_prices(&table);
        }
        Command::Prices => print_prices(&PriceTable::load(&data_dir)?),
    }
    Ok(())
}

/// `--claude-usd` as micro-dollars; the message names the flag, since core's says "price" for any amount.
fn claude_amount(text: &str) -> anyhow::Result<u64> {
    pricing::parse_usd(text).map_err(|e| match e {
        pricing::PriceError::Invalid(why) => anyhow::anyhow!("--claude-usd: {why}; nothing was changed"),
        other => other.into(),
    })
}

/// The one meter, as every shell shows it. A conversation store that cannot be opened counts no free answers.
fn meter(data_dir: &Path, sats: &BudgetReport, claude: &ClaudeReport) -> AllowanceView {
    let conversations = aiui_core::paths::DataDir(data_dir.to_owned()).conversations();
    match conversations.exists().then(|| aiui_core::store::Store::open(&conversations)) {
        Some(Ok(store)) => aiui_core::view::meter(sats, claude, &store, Vec::new()),
        Some(Err(e)) => {
            eprintln!("note: the conversations could not be read ({e}); free answers are not counted");
            AllowanceView::new(sats, Vec::new()).with_claude(claude)
        }
        None => AllowanceView::new(sats, Vec::new()).with_claude(claude),
    }
}

fn print_meter(meter: &AllowanceView, sats: &BudgetReport) {
    print_claude(&meter.claude);
    println!();
    println!("Routstr (sats):");
    print_report(sats);
    if meter.notice_80 {
        println!("80% or more of the Routstr allowance is spent this period.");
    }
    println!();
    let free = meter.free_answers;
    println!("This month: {} local and {} built-in answers, at $0.", free.local, free.builtin);
}

fn print_claude(c: &ClaudeMeterView) {
    println!("Claude (US dollars):");
    if c.allowance_usd_micros == 0 {
        println!("allowance: $0 (Claude is not used; set one with --claude-usd AMOUNT)");
        // An allowance lowered to 0 mid-period keeps what was already spent in it.
        if c.spent_usd_micros + c.reserved_usd_micros > 0 {
            println!("spent:     {} (reserved {}) this period", c.spent, c.reserved);
        }
        return;
    }
    println!("allowance: {} ({})", c.allowance, c.period);
    println!("spent:     {}", c.spent);
    println!("reserved:  {}", c.reserved);
    println!("remaining: {}", c.remaining);
    println!("renews:    {}", renews(c.renews_at_ms, aiui_core::now_ms()));
    if c.notice_80 {
        println!("80% or more of Claude's allowance is spent this period.");
    }
}

fn print_prices(table: &PriceTable) {
    println!(
        "Claude's prices, US dollars per million tokens (shipped: taken {} from {}):",
        table.taken_on, table.source
    );
    println!("{:<28} {:>9} {:>9} {:>12} {:>11}", "model", "input", "output", "cache write", "cache read");
    let usd = |micros: u64| format_usd(micros).trim_start_matches('$').to_owned();
    for (model, price) in &table.models {
        let p = price.base;
        let mine = if price.set_by_owner { "  (set by you)" } else { "" };
        println!(
            "{model:<28} {:>9} {:>9} {:>12} {:>11}{mine}",
            usd(p.input),
            usd(p.output),
            usd(p.cache_write),
            usd(p.cache_read)
        );
    }
    println!("A model that is not listed is never used for paid requests.");
}

fn print_report(report: &BudgetReport) {
    println!("allowance: {} sats ({})", report.allowance_sats, report.period);
    println!("spent:     {} sats", report.spent_sats);
    println!("reserved:  {} sats", report.reserved_sats);
    println!("remaining: {} sats", report.remaining_sats);
    println!("renews:    {}", renews(report.renews_at_ms, aiui_core::now_ms()));
    if report.accepted_mints.is_empty() {
        println!("accepted mints: none (paid help is off)");
    } else {
        println!("accepted mints:");
        for mint in &report.accepted_mints {
            println!("  {mint}");
        }
    }
    if report.notice_80_sent {
        println!("The 80% notice was sent this period.");
    }
}

/// When an allowance renews, counted from now: the exact time is `renews_at_ms` in `--json`.
fn renews(at_ms: Option<i64>, now_ms: i64) -> String {
    const MINUTE: i64 = 60_000;
    const HOUR: i64 = 60 * MINUTE;
    const DAY: i64 = 24 * HOUR;
    let Some(at) = at_ms else { return "never (a one-off allowance)".into() };
    let left = (at - now_ms).max(0);
    let (n, unit) = match left {
        l if l >= 2 * DAY => (l / DAY, "day"),
        l if l >= 2 * HOUR => (l / HOUR, "hour"),
        l => ((l / MINUTE).max(1), "minute"),
    };
    format!("in {n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    #[track_caller]
    fn check(at_ms: Option<i64>, now_ms: i64, expect: &str) {
        assert_eq!(super::renews(at_ms, now_ms), expect);
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
}
