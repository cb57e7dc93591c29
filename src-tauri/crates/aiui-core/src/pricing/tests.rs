//! The price table and its arithmetic.

use super::*;
use crate::backends::claude::ClaudeConfig;

#[test]
fn every_model_the_claude_leg_can_request_has_a_price() {
    let table = PriceTable::shipped();
    let model = ClaudeConfig::default().model;
    let price = table.price_for(&model).expect("the Claude leg's model is priced");
    assert!(price.base.input > 0 && price.base.output > 0, "{price:?}");
    for (name, price) in &table.models {
        let p = price.base;
        assert!(p.input > 0 && p.output > p.input && p.cache_write >= p.input && p.cache_read < p.input, "{name}");
    }
    assert!(!table.taken_on.is_empty() && table.source.starts_with("https://"), "the table says when and where from");
    assert!(table.price_for(&format!("{model}-20250929")).is_some(), "a dated snapshot is priced as its alias");
}

#[test]
fn an_unknown_model_has_no_price() {
    let table = PriceTable::shipped();
    assert!(table.price_for("claude-unknown-9").is_none());
    assert!(table.price_for("claude-sonnet-4-5-latest").is_none(), "only a dated snapshot falls back to its alias");
    assert!(table.price_for("").is_none());
}

#[test]
fn costs_are_rounded_up_to_the_micro_dollar() {
    let sonnet = *PriceTable::shipped().price_for("claude-sonnet-4-5").unwrap();
    // One input token at $3/MTok is $0.000003 exactly; one output token $0.000015.
    assert_eq!(sonnet.cost(&Usage { input_tokens: 1, ..Usage::default() }), 3);
    // One cache read at $0.30/MTok is 0.3 micro-dollars: billed as 1.
    assert_eq!(sonnet.cost(&Usage { cache_read_tokens: 1, ..Usage::default() }), 1);
    let usage = Usage { input_tokens: 1804, output_tokens: 22, cache_write_tokens: 2048, cache_read_tokens: 10_000 };
    // 1804*3 + 22*15 + 2048*3.75 + 10000*0.3 = 5412 + 330 + 7680 + 3000 = 16422.
    assert_eq!(sonnet.cost(&usage), 16_422);
}

#[test]
fn long_context_prices_apply_past_their_threshold_and_bound_the_worst_case() {
    let sonnet = *PriceTable::shipped().price_for("claude-sonnet-4-5").unwrap();
    let short = Usage { input_tokens: 200_000, ..Usage::default() };
    let long = Usage { input_tokens: 150_000, cache_read_tokens: 50_001, ..Usage::default() };
    assert_eq!(sonnet.cost(&short), 600_000);
    assert_eq!(sonnet.cost(&long), 150_000 * 6 + (50_001u64 * 6).div_ceil(10));
    // The worst case prices every input token at the dearest input rate (a cache write).
    assert_eq!(sonnet.worst_case(1000, 100), 1000 * 375 / 100 + 100 * 15);
    for input in [0, 1, 999, 200_000, 200_001, 1_000_000] {
        for split in [0, 3, 10] {
            let usage = Usage {
                input_tokens: input * split / 10,
                cache_write_tokens: input - input * split / 10,
                output_tokens: 4096,
                ..Usage::default()
            };
            assert!(sonnet.cost(&usage) <= sonnet.worst_case(input, 4096), "{usage:?}");
        }
    }
}

#[test]
fn the_owners_price_replaces_the_shipped_one_and_bad_prices_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(PriceTable::load(dir.path()).unwrap(), PriceTable::shipped());
    let table = set_owner_price(dir.path(), "claude-sonnet-4-5", 2.5, 12.0, 3.0, 0.25).unwrap();
    let price = table.price_for("claude-sonnet-4-5").unwrap();
    assert!(price.set_by_owner);
    assert_eq!(price.base, Price { input: 2_500_000, output: 12_000_000, cache_write: 3_000_000, cache_read: 250_000 });
    assert_eq!(price.long_context, None);
    set_owner_price(dir.path(), "claude-new-model", 1.0, 2.0, 1.25, 0.1).unwrap();
    let reloaded = PriceTable::load(dir.path()).unwrap();
    assert!(
        reloaded.price_for("claude-new-model").is_some()
            && reloaded.price_for("claude-sonnet-4-5").unwrap().set_by_owner
    );
    for bad in [f64::NAN, -1.0, f64::INFINITY, 1e9] {
        let before = std::fs::read(owner_path(dir.path())).unwrap();
        assert!(set_owner_price(dir.path(), "claude-sonnet-4-5", bad, 1.0, 1.0, 1.0).is_err(), "{bad}");
        assert_eq!(std::fs::read(owner_path(dir.path())).unwrap(), before, "a refused price changes nothing");
    }
    assert!(set_owner_price(dir.path(), "bad model; rm", 1.0, 1.0, 1.0, 1.0).is_err());
    std::fs::write(owner_path(dir.path()), b"{not json").unwrap();
    let err = PriceTable::load(dir.path()).unwrap_err().to_string();
    assert!(err.contains("damaged") && err.contains("claude-prices.json"), "{err}");
}

#[test]
fn dollars_are_shown_and_read_as_the_owner_writes_them() {
    assert_eq!(format_usd(0), "$0.00");
    assert_eq!(format_usd(5_000_000), "$5.00");
    assert_eq!(format_usd(1_234_567), "$1.24");
    assert_eq!(format_usd(500_000), "$0.50");
    assert_eq!(format_usd(31_201), "$0.0313");
    assert_eq!(format_usd(16_422), "$0.0165");
    assert_eq!(format_usd(45), "$0.000045");
    assert_eq!(format_usd(100), "$0.0001");
    assert_eq!(parse_usd("5").unwrap(), 5_000_000);
    assert_eq!(parse_usd("$2.50").unwrap(), 2_500_000);
    assert_eq!(parse_usd("0.000001").unwrap(), 1);
    assert_eq!(parse_usd(".5").unwrap(), 500_000);
    for bad in ["", "-1", "1.0000001", "abc", "1e3", "1.2.3", ".", "$", "5 €", "1,5,0"] {
        assert!(parse_usd(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_dollar_amount_typed_the_german_or_spanish_way_is_read_as_meant() {
    assert_eq!(parse_usd("7,50").unwrap(), 7_500_000);
    assert_eq!(parse_usd("7,50\u{a0}$").unwrap(), 7_500_000, "as the German pages write it");
    assert_eq!(parse_usd("7,50 US$").unwrap(), 7_500_000, "as the Spanish pages write it");
    assert_eq!(parse_usd("0,000045").unwrap(), 45);
    assert_eq!(parse_usd(" 12 USD ").unwrap(), 12_000_000);
    assert_eq!(parse_usd_price("0,30").unwrap(), 0.30);
    assert_eq!(parse_usd_price("$3.75").unwrap(), 3.75);
}

#[test]
fn an_amount_that_reads_two_ways_is_refused_with_what_to_write() {
    // A thousand in English, one in German: the owner is asked, never given a thousand times what was meant.
    for ambiguous in ["1,000", "1.000", "12,500", "2.500 $", "1.000,50", "1,000.50", "1.000.000"] {
        let Err(PriceError::Invalid(why)) = parse_usd(ambiguous) else { panic!("{ambiguous} was accepted") };
        assert!(why.to_string().contains("without a thousands separator"), "{ambiguous}: {why}");
        assert!(parse_usd_price(ambiguous).is_err(), "{ambiguous}");
    }
    // Three decimals after a zero, or two or four anywhere, read one way only.
    assert_eq!(parse_usd("0,075").unwrap(), 75_000);
    assert_eq!(parse_usd("0.075").unwrap(), 75_000);
    assert_eq!(parse_usd("1.0005").unwrap(), 1_000_500);
}
