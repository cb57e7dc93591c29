//! What Claude's tokens cost: the price table as data (`claude-prices.json`, with the date it was taken and where
//! from), the owner's own corrections beside it (`<data dir>/claude-prices.json`), and the arithmetic from a
//! response's `usage`, or a request's worst case, to millionths of a US dollar.
//!
//! Prices are held as whole micro-dollars per million tokens and every cost is rounded up, so no sum of costs is
//! ever below what Anthropic bills. A model missing from the table has no price: the Claude leg refuses it for paid
//! use, it is never priced at 0.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::backends::Usage;

/// The table AIUI ships, read at build time.
const SHIPPED: &str = include_str!("claude-prices.json");

/// The owner's corrections, in the data dir.
pub const OWNER_FILE: &str = "claude-prices.json";

/// No token costs more than this (USD per million tokens): a price above it is a typing error, refused.
const MAX_USD_PER_MTOK: f64 = 10_000.0;

/// One model's prices in micro-dollars per million tokens (3 USD/MTok is 3 000 000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    pub input: u64,
    pub output: u64,
    /// A 5-minute prompt-cache write (`cache_creation_input_tokens`).
    pub cache_write: u64,
    /// A prompt-cache hit (`cache_read_input_tokens`).
    pub cache_read: u64,
}

/// A model's prices, and the higher ones that apply to a request whose input passes a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelPrice {
    pub base: Price,
    pub long_context: Option<(u64, Price)>,
    /// Set by the owner in the trusted settings (or `aiui-cli budget price`), not shipped.
    pub set_by_owner: bool,
}

/// The shipped table with the owner's corrections applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriceTable {
    /// When the shipped prices were taken (YYYY-MM-DD).
    pub taken_on: String,
    pub source: String,
    pub models: BTreeMap<String, ModelPrice>,
}

/// Why a price could not be read or saved. The message says what to do; [`PriceError::text`] says it in the
/// owner's language, and `Display` in English.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.text(crate::i18n::Locale::En))]
pub enum PriceError {
    Corrupt {
        path: String,
        reason: String,
    },
    Write {
        path: String,
        source: std::io::Error,
    },
    /// What was typed, and what is expected: a price, an amount, a model name.
    Invalid(Refused),
}

/// What the owner typed that is not a price, an amount or a model name.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// Not an amount in US dollars.
    Amount { typed: String },
    /// Not a price in US dollars.
    Price { typed: String },
    /// "1,000" or "1.000,50": a thousands separator, which reads as a decimal mark in another language.
    Grouped { typed: String },
    /// A price per million tokens outside 0 to [`MAX_USD_PER_MTOK`].
    OutOfRange { value: f64 },
    /// Not a model name.
    Model { typed: String },
}

impl PriceError {
    /// What went wrong, and what to do, in `locale`.
    pub fn text(&self, locale: crate::i18n::Locale) -> String {
        use crate::i18n::text;
        match self {
            Self::Corrupt { path, reason } => text(
                locale,
                "price-error-corrupt",
                &[("path", path.as_str().into()), ("reason", reason.as_str().into())],
            ),
            Self::Write { path, source } => text(
                locale,
                "price-error-write",
                &[("path", path.as_str().into()), ("error", source.to_string().into())],
            ),
            Self::Invalid(refused) => refused.text(locale),
        }
    }
}

impl Refused {
    /// What was typed (quoted, as it was) and what is expected, in `locale`.
    pub fn text(&self, locale: crate::i18n::Locale) -> String {
        use crate::i18n::text;
        let typed = |key: &str, typed: &str| text(locale, key, &[("text", format!("{typed:?}").into())]);
        match self {
            Self::Amount { typed: t } => typed("price-error-amount", t),
            Self::Price { typed: t } => typed("price-error-price", t),
            Self::Grouped { typed: t } => typed("price-error-grouped", t),
            Self::Model { typed: t } => typed("price-error-model", t),
            Self::OutOfRange { value } => text(
                locale,
                "price-error-range",
                &[("value", value.to_string().into()), ("max", MAX_USD_PER_MTOK.to_string().into())],
            ),
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(crate::i18n::Locale::En))
    }
}

/// The file format, shipped and the owner's alike: USD per million tokens as JSON numbers.
#[derive(Deserialize, Serialize)]
struct TableFile {
    #[serde(default)]
    taken_on: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    unit: String,
    models: BTreeMap<String, PriceEntry>,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
struct PriceEntry {
    input: f64,
    output: f64,
    cache_write: f64,
    cache_read: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    long_context: Option<LongContextEntry>,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
struct LongContextEntry {
    above_input_tokens: u64,
    input: f64,
    output: f64,
    cache_write: f64,
    cache_read: f64,
}

/// USD per million tokens as entered, in whole micro-dollars: finite, not negative, not absurd.
pub fn usd_per_mtok(value: f64) -> Result<u64, PriceError> {
    if !(0.0..=MAX_USD_PER_MTOK).contains(&value) {
        return Err(PriceError::Invalid(Refused::OutOfRange { value }));
    }
    let micros = (value * 1_000_000.0).round();
    // Within 0..=1e10 after the check above, so the conversion is exact.
    Ok(micros as u64)
}

fn price_of(input: f64, output: f64, cache_write: f64, cache_read: f64) -> Result<Price, PriceError> {
    Ok(Price {
        input: usd_per_mtok(input)?,
        output: usd_per_mtok(output)?,
        cache_write: usd_per_mtok(cache_write)?,
        cache_read: usd_per_mtok(cache_read)?,
    })
}

impl PriceEntry {
    fn resolve(&self, set_by_owner: bool) -> Result<ModelPrice, PriceError> {
        let base = price_of(self.input, self.output, self.cache_write, self.cache_read)?;
        let long_context = match self.long_context {
            Some(l) => Some((l.above_input_tokens, price_of(l.input, l.output, l.cache_write, l.cache_read)?)),
            None => None,
        };
        Ok(ModelPrice { base, long_context, set_by_owner })
    }
}

impl Price {
    /// What `usage` costs at these prices, in micro-dollars, rounded up.
    pub fn cost(&self, usage: &Usage) -> u64 {
        let millionths = u128::from(usage.input_tokens) * u128::from(self.input)
            + u128::from(usage.output_tokens) * u128::from(self.output)
            + u128::from(usage.cache_write_tokens) * u128::from(self.cache_write)
            + u128::from(usage.cache_read_tokens) * u128::from(self.cache_read);
        u64::try_from(millionths.div_ceil(1_000_000)).unwrap_or(u64::MAX)
    }
}

impl ModelPrice {
    /// The prices that apply to a request with `input` tokens in all (cache reads and writes included).
    fn for_input(&self, input: u64) -> &Price {
        match &self.long_context {
            Some((above, price)) if input > *above => price,
            _ => &self.base,
        }
    }

    /// What a response's `usage` costs, in micro-dollars.
    pub fn cost(&self, usage: &Usage) -> u64 {
        let input = usage.input_tokens.saturating_add(usage.cache_write_tokens).saturating_add(usage.cache_read_tokens);
        self.for_input(input).cost(usage)
    }

    /// The most a request can cost: `input_bound` tokens, each at the dearest input rate (a cache write costs more
    /// than plain input), and `max_tokens` of output.
    pub fn worst_case(&self, input_bound: u64, max_tokens: u64) -> u64 {
        let price = self.for_input(input_bound);
        let dearest_input = price.input.max(price.cache_write).max(price.cache_read);
        let worst = Price { input: dearest_input, output: price.output, cache_write: 0, cache_read: 0 };
        worst.cost(&Usage { input_tokens: input_bound, output_tokens: max_tokens, ..Usage::default() })
    }
}

impl PriceTable {
    /// The table AIUI ships, without the owner's corrections.
    pub fn shipped() -> Self {
        // Read once per process: it is compiled in, and every paid request asks for the prices twice.
        static SHIPPED_TABLE: LazyLock<PriceTable> = LazyLock::new(|| {
            let file: TableFile = serde_json::from_str(SHIPPED).expect("the shipped price table is valid JSON");
            let models = file
                .models
                .iter()
                .map(|(model, entry)| (model.clone(), entry.resolve(false).expect("the shipped prices are valid")))
                .collect();
            PriceTable { taken_on: file.taken_on, source: file.source, models }
        });
        SHIPPED_TABLE.clone()
    }

    /// The shipped table with the owner's corrections from `data_dir` (none when the file is absent).
    pub fn load(data_dir: &Path) -> Result<Self, PriceError> {
        let mut table = Self::shipped();
        for (model, price) in read_owner_file(&owner_path(data_dir))? {
            table.models.insert(model, price);
        }
        Ok(table)
    }

    /// The price of `model`: its own entry, or the entry of the alias a dated snapshot belongs to
    /// (`claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`). `None`: not for paid use.
    pub fn price_for(&self, model: &str) -> Option<&ModelPrice> {
        if let Some(price) = self.models.get(model) {
            return Some(price);
        }
        let (alias, date) = model.rsplit_once('-')?;
        (date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit())).then(|| self.models.get(alias)).flatten()
    }
}

/// The owner's price file in `data_dir`.
pub fn owner_path(data_dir: &Path) -> PathBuf {
    data_dir.join(OWNER_FILE)
}

fn read_owner_file(path: &Path) -> Result<BTreeMap<String, ModelPrice>, PriceError> {
    let corrupt = |reason: String| PriceError::Corrupt { path: path.display().to_string(), reason };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(corrupt(e.to_string())),
    };
    let file: TableFile = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    file.models
        .iter()
        .map(|(model, entry)| Ok((model.clone(), entry.resolve(true).map_err(|e| corrupt(e.to_string()))?)))
        .collect()
}

/// The owner's price for `model`, in USD per million tokens: what the trusted settings and `aiui-cli budget price`
/// save. Only an operator surface calls this; nothing a model says reaches it. Replaces that model's entry (and
/// drops its long-context prices: the owner's price is the one used).
pub fn set_owner_price(
    data_dir: &Path,
    model: &str,
    input: f64,
    output: f64,
    cache_write: f64,
    cache_read: f64,
) -> Result<PriceTable, PriceError> {
    let model = model.trim();
    if model.is_empty()
        || model.len() > 100
        || !model.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._:".contains(&b))
    {
        return Err(PriceError::Invalid(Refused::Model { typed: model.to_owned() }));
    }
    price_of(input, output, cache_write, cache_read)?;
    let path = owner_path(data_dir);
    // Kept as entered, so the file reads as the owner typed it.
    let mut file = match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice::<TableFile>(&bytes)
            .map_err(|e| PriceError::Corrupt { path: path.display().to_string(), reason: e.to_string() })?,
        Err(_) => TableFile {
            taken_on: String::new(),
            source: "set by the owner".into(),
            unit: "USD per million tokens".into(),
            models: BTreeMap::new(),
        },
    };
    file.models.insert(model.to_owned(), PriceEntry { input, output, cache_write, cache_read, long_context: None });
    let bytes = serde_json::to_vec_pretty(&file)
        .map_err(|e| PriceError::Write { path: path.display().to_string(), source: e.into() })?;
    crate::budget::write_atomic(&path, &bytes)
        .map_err(|source| PriceError::Write { path: path.display().to_string(), source })?;
    PriceTable::load(data_dir)
}

/// Where a shell's Claude leg reads its prices: the data dir's table, read again for every request so an owner's
/// correction takes effect at once, or the shipped one.
#[derive(Debug, Clone, Default)]
pub struct Prices {
    data_dir: Option<PathBuf>,
}

impl Prices {
    pub fn in_data_dir(data_dir: &Path) -> Self {
        Self { data_dir: Some(data_dir.to_owned()) }
    }

    pub fn shipped() -> Self {
        Self { data_dir: None }
    }

    pub fn current(&self) -> Result<PriceTable, PriceError> {
        match &self.data_dir {
            Some(dir) => PriceTable::load(dir),
            None => Ok(PriceTable::shipped()),
        }
    }
}

/// Micro-dollars as the owner reads them, never below what they are: "$5.00", "$0.0312", "$0.50", "$0.000045".
pub fn format_usd(micros: u64) -> String {
    let (places, unit) = match micros {
        1_000_000.. => (2, 10_000),
        100.. => (4, 100),
        _ => (6, 1),
    };
    let rounded = micros.div_ceil(unit);
    let scale = 1_000_000 / unit;
    let fraction = format!("{:0width$}", rounded % scale, width = places);
    // Trailing zeros past the cents say nothing.
    let trimmed = fraction.trim_end_matches('0');
    let shown = if trimmed.len() < 2 { &fraction[..2] } else { trimmed };
    format!("${}.{shown}", rounded / scale)
}

/// [`format_usd`] the way `locale` writes dollars: "$5.00", "5,00 $", "5,00 US$" (as the pages' `Intl` writes them,
/// a no-break space before the sign, so the two never part at a line's end).
pub fn format_usd_in(locale: crate::i18n::Locale, micros: u64) -> String {
    use crate::i18n::Locale;
    let english = format_usd(micros);
    let number = || english.trim_start_matches('$').replace('.', ",");
    match locale {
        Locale::En | Locale::Pseudo => english,
        Locale::De => format!("{}\u{a0}$", number()),
        Locale::Es => format!("{}\u{a0}US$", number()),
    }
}

/// A dollar amount as the owner types it, in micro-dollars: "5", "5.00", "$0.50", or the German and Spanish way,
/// "7,50", "7,50 $", "7,50 US$".
pub fn parse_usd(text: &str) -> Result<u64, PriceError> {
    let invalid = || PriceError::Invalid(Refused::Amount { typed: text.to_owned() });
    let (whole, fraction) = usd_parts(text).map_err(|why| match why {
        AmountError::Grouped => grouped(text),
        AmountError::Invalid => invalid(),
    })?;
    if fraction.len() > 6 || whole.len() > 9 {
        return Err(invalid());
    }
    let whole: u64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| invalid())? };
    let fraction: u64 =
        if fraction.is_empty() { 0 } else { format!("{fraction:0<6}").parse().map_err(|_| invalid())? };
    Ok(whole * 1_000_000 + fraction)
}

/// A per-million-tokens price as the owner types it ("3", "0.30", "$3.75", "0,30"), for [`set_owner_price`] to
/// range-check.
pub fn parse_usd_price(text: &str) -> Result<f64, PriceError> {
    let invalid = || PriceError::Invalid(Refused::Price { typed: text.to_owned() });
    let (whole, fraction) = usd_parts(text).map_err(|why| match why {
        AmountError::Grouped => grouped(text),
        AmountError::Invalid => invalid(),
    })?;
    format!("{}.{fraction}", if whole.is_empty() { "0" } else { whole })
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(invalid)
}

enum AmountError {
    Invalid,
    /// "1,000" or "1.000,50": a thousands separator, which reads as a decimal mark in another language.
    Grouped,
}

fn grouped(text: &str) -> PriceError {
    PriceError::Invalid(Refused::Grouped { typed: text.to_owned() })
}

/// The digits before and after the decimal mark. Either a full stop or a comma is the mark, since the owner types
/// their own language's; an amount with two marks, or with one before exactly three digits ("1,000" and "1.000"
/// are a thousand in one language and one in the other), is refused rather than guessed at, for an allowance must
/// never be a thousand times what was meant.
fn usd_parts(text: &str) -> Result<(&str, &str), AmountError> {
    let is_space = |c: char| c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}';
    let mut amount = text.trim_matches(is_space);
    amount = amount.strip_prefix("US$").or_else(|| amount.strip_prefix('$')).unwrap_or(amount).trim_matches(is_space);
    for sign in ["US$", "USD", "$"] {
        if let Some(rest) = amount.strip_suffix(sign) {
            amount = rest.trim_matches(is_space);
            break;
        }
    }
    let marks = amount.matches(['.', ',']).count();
    if marks > 1 && amount.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b',') {
        return Err(AmountError::Grouped);
    }
    let (whole, fraction) = amount.split_once(['.', ',']).unwrap_or((amount, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(AmountError::Invalid);
    }
    if fraction.len() == 3 && whole.bytes().any(|b| b != b'0') {
        return Err(AmountError::Grouped);
    }
    Ok((whole, fraction))
}

#[cfg(test)]
mod tests;
