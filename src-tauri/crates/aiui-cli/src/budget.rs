//! `aiui-cli budget get|set`: the operator API for the assistant's allowance, from a terminal the model cannot reach.

use std::path::PathBuf;

use aiui_core::budget::{BudgetReport, BudgetStore, BudgetUpdate, Period};
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
    /// Show the allowance, what was spent and reserved this period, and what remains.
    Get {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Change the allowance, its renewal period or the accepted mints. Unset options stay as they are.
    Set {
        /// The allowance in sats per period (0 turns paid help off).
        #[arg(long, value_name = "SATS")]
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
    },
}

pub fn budget_path(data_dir: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(aiui_core::backends::registry::budget_path(&crate::data_dir(data_dir)?))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = BudgetStore::open(&budget_path(args.data_dir)?)?;
    match args.command {
        Command::Get { json } => {
            let report = store.get();
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print_report(&report);
            }
        }
        Command::Set { allowance, period, mints, no_mints } => {
            let accepted_mints = if no_mints { Some(Vec::new()) } else { (!mints.is_empty()).then_some(mints) };
            if allowance.is_none() && period.is_none() && accepted_mints.is_none() {
                bail!("nothing to change: pass --allowance, --period, --mint or --no-mints");
            }
            let report = store.set(BudgetUpdate { allowance_sats: allowance, period, accepted_mints })?;
            println!("Budget saved.");
            print_report(&report);
        }
    }
    Ok(())
}

fn print_report(report: &BudgetReport) {
    println!("allowance: {} sats ({})", report.allowance_sats, report.period);
    println!("spent:     {} sats", report.spent_sats);
    println!("reserved:  {} sats", report.reserved_sats);
    println!("remaining: {} sats", report.remaining_sats);
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
