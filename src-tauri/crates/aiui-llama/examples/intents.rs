//! Prints the built-in leg's decision for each phrasing of the test table (or for each line of stdin with
//! `-`), with the model alone and combined with lexical evidence: for tuning the prompt without the test binary.
//!
//! Run: `cargo run -p aiui-llama --example intents [-]`.

#![allow(clippy::print_stdout)]

#[path = "../../../../tests/builtin/table.rs"]
#[allow(dead_code, reason = "only the phrasings and expectations are read")]
mod table;

use std::io::BufRead;

use aiui_core::backends::builtin::{Decision, Intent, decide};
use aiui_core::i18n::Locale;
use aiui_core::node::Package;
use aiui_llama::SmolLm;

fn packages() -> Vec<Package> {
    let apps = [
        ("bitcoin-knots", "Bitcoin Knots"),
        ("lnd", "LND"),
        ("electrs", "Electrs"),
        ("mempool", "Mempool"),
        ("btcpay", "BTCPay Server"),
        ("nostr-rs-relay", "Nostr Relay"),
        ("fedimint", "Fedimint Guardian"),
        ("tailscale", "Tailscale"),
        ("nextcloud", "Nextcloud"),
    ];
    apps.iter()
        .map(|(id, title)| {
            serde_json::from_value(serde_json::json!({"id": id, "title": title, "version": "1", "state": "running"}))
                .expect("a package")
        })
        .collect()
}

fn short(decision: &Decision) -> String {
    match decision {
        Decision::Act { intent, app } => format!("{intent:?} {}", app.as_ref().map(|a| a.0.as_str()).unwrap_or("")),
        Decision::Ask { question, .. } => format!("Ask: {question}"),
        Decision::Decline => "Decline".into(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = aiui_llama::model_dir(&aiui_core::paths::default_data_dir().expect("a data dir"));
    let model = SmolLm::in_dir(&dir);
    let packages = packages();
    let lines: Vec<String> = if std::env::args().nth(1).as_deref() == Some("-") {
        std::io::stdin().lock().lines().map_while(Result::ok).collect()
    } else {
        table::TABLE.iter().map(|(r, _)| (*r).to_owned()).collect()
    };
    for line in lines {
        let scores = model
            .score_timed(&aiui_core::backends::builtin::apps::model_input(&line, &packages))
            .await
            .expect("a scoring");
        let mut ranked: Vec<(Intent, f32)> = Intent::ALL.iter().copied().zip(scores.calibrated.clone()).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let top: Vec<String> = ranked.iter().take(3).map(|(i, s)| format!("{i:?} {s:.2}")).collect();
        println!(
            "{line:<50} model: {:<28} both: {:<28} [{}] {:?}",
            short(&decide(Locale::En, &line, &scores.calibrated, false, &packages)),
            short(&decide(Locale::En, &line, &scores.calibrated, true, &packages)),
            top.join(", "),
            scores.elapsed
        );
    }
}
