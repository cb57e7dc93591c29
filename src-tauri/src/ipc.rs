//! The shapes that cross IPC. The ones the LAN service shares (a turn's events, conversations, packages, pending
//! confirmations, the allowance meter) are `aiui_core::view`'s; the desktop-only ones are defined here.

use aiui_core::Secret;
use serde::Serialize;

pub use aiui_core::view::{
    AllowanceView, ChatEvent, ConversationDetail, ConversationView, ItemView, MintView, NodeView, PackageView,
    PendingView,
};

/// What the chat window knows about the app.
#[derive(Debug, Clone, Serialize)]
pub struct AppInfo {
    pub version: &'static str,
    pub demo: bool,
    pub kiosk: bool,
    pub node: Option<NodeView>,
    /// Set when there is no node to talk to: what to do about it.
    pub unpaired: Option<String>,
}

/// The operator settings as the trusted window shows them. Secrets appear only as "set" or "not set".
#[derive(Debug, Clone, Serialize)]
pub struct SettingsView {
    pub demo: bool,
    pub kiosk: bool,
    /// `None` when the keyring could not be read; then `keyring_error` says why.
    pub api_key_set: Option<bool>,
    pub node: Option<NodeSettingsView>,
    pub tools: Vec<ToolGrantView>,
    pub keyring_error: Option<String>,
    pub budget: BudgetView,
    pub routstr: RoutstrView,
    pub builtin: BuiltinView,
    pub claude_prices: ClaudePricesView,
    /// The link to the LAN service whose requests this kiosk approves; `None` when it approves none.
    pub lan_approvals: Option<crate::lan_approvals::LanLinkView>,
    pub build: BuildView,
    pub language: LanguageView,
}

/// The language of the host's text, as the trusted settings show and change it.
#[derive(Debug, Clone, Serialize)]
pub struct LanguageView {
    /// The owner's pick (`en`, `de`, `es`); `None`: the system's.
    pub picked: Option<&'static str>,
    /// The one in use now.
    pub effective: &'static str,
    /// The system's, shown beside "System default".
    pub system: &'static str,
    pub choices: Vec<LanguageChoice>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LanguageChoice {
    pub tag: &'static str,
    /// The language's own name ("Deutsch"), the same in every locale.
    pub name: &'static str,
}

/// What this binary is: the owner checks it against the release they meant to install.
#[derive(Debug, Clone, Serialize)]
pub struct BuildView {
    pub version: &'static str,
    pub commit: &'static str,
}

impl BuildView {
    pub const THIS: Self = Self { version: env!("CARGO_PKG_VERSION"), commit: env!("AIUI_GIT_COMMIT") };
}

/// The built-in small model, last in the chain: the owner's switch and whether it can answer now.
#[derive(Debug, Clone, Serialize)]
pub struct BuiltinView {
    pub enabled: bool,
    /// Why it cannot answer even when on (e.g. the model file is missing: what to run); `None` when ready.
    pub unavailable: Option<String>,
}

/// Claude's price table as the owner checks and corrects it: every figure host-formatted, in USD per million tokens.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClaudePricesView {
    /// When the shipped prices were taken (YYYY-MM-DD), and where from.
    pub taken_on: String,
    pub source: String,
    pub models: Vec<ClaudePriceView>,
    /// Set when the owner's price file cannot be read: the shipped table is shown, and this says what to fix.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClaudePriceView {
    pub model: String,
    /// "$3.00", "$0.30", …
    pub input: String,
    pub output: String,
    pub cache_write: String,
    pub cache_read: String,
    /// The prices above a request length; `None` when one price holds at every length. The page writes it out.
    pub long_context: Option<LongContextView>,
    pub set_by_owner: bool,
}

/// Claude's prices for a request longer than `above` input tokens, formatted like [`ClaudePriceView`]'s.
#[derive(Debug, Clone, Serialize)]
pub struct LongContextView {
    pub above: u64,
    pub input: String,
    pub output: String,
    pub cache_write: String,
    pub cache_read: String,
}

impl ClaudePricesView {
    pub fn from_table(table: &aiui_core::pricing::PriceTable) -> Self {
        use aiui_core::pricing::format_usd;
        let models = table
            .models
            .iter()
            .map(|(model, price)| ClaudePriceView {
                model: model.clone(),
                input: format_usd(price.base.input),
                output: format_usd(price.base.output),
                cache_write: format_usd(price.base.cache_write),
                cache_read: format_usd(price.base.cache_read),
                long_context: price.long_context.map(|(above, p)| LongContextView {
                    above,
                    input: format_usd(p.input),
                    output: format_usd(p.output),
                    cache_write: format_usd(p.cache_write),
                    cache_read: format_usd(p.cache_read),
                }),
                set_by_owner: price.set_by_owner,
            })
            .collect();
        Self { taken_on: table.taken_on.clone(), source: table.source.clone(), models, error: None }
    }
}

/// The allowance as the trusted window edits it.
#[derive(Debug, Clone, Serialize)]
pub struct BudgetView {
    #[serde(flatten)]
    pub allowance: AllowanceView,
    pub accepted_mints: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoutstrView {
    pub reviewed_only: bool,
    pub tor_socks: Option<String>,
    /// The reviewer key as the owner entered it.
    pub reviewer: Option<String>,
    /// The latest discovery report, short form, one line each; empty before the first discovery.
    pub discovery: Vec<String>,
}

/// The wallet as the trusted window shows it. `opened` is false until the owner first funds or restores it (no
/// seed is made before). Nothing here is secret: a token sent out is shown once, by [`SentTokenView`], never here.
#[derive(Debug, Clone, Default, Serialize)]
pub struct WalletView {
    pub opened: bool,
    pub balances: Vec<BalanceView>,
    pub total_sats: u64,
    /// Sats that left the balance and whose outcome is not known yet: withdrawals the mint is still paying, tokens
    /// nobody has claimed, payments to providers not settled.
    pub in_flight_sats: u64,
    /// Withdrawals and tokens sent out: every open one, then the newest ended ones.
    pub outflows: Vec<OutflowView>,
    /// Set while the wallet holds enough to lose and no backup was confirmed.
    pub backup_reminder: Option<String>,
    pub backup_confirmed: bool,
    /// Restore is offered: there is no wallet yet, or it holds nothing and nothing is in flight.
    pub restorable: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct BalanceView {
    pub mint: String,
    pub sats: u64,
    /// Among the allowance's accepted mints. A mint that is not (any more) is not spent on providers; its sats can
    /// still be withdrawn or sent.
    pub accepted: bool,
}

/// A withdrawal or a token sent out, in the owner's words. Never the token itself.
#[derive(Debug, Clone, Serialize)]
pub struct OutflowView {
    pub id: String,
    /// `withdrawal`, `token`, or `keyset-swap` (proofs moved off a keyset the mint retires).
    pub kind: &'static str,
    pub mint: String,
    /// What left the balance for it (face value).
    pub amount_sats: u64,
    /// Its outcome is not known yet.
    pub open: bool,
    /// Where it stands in the owner's language: "being paid by the mint", "not claimed yet", or how it ended
    /// ("paid", "taken back", …).
    pub state: String,
    pub withdrawn_sats: u64,
    pub fees_sats: u64,
    /// When it was made (Unix milliseconds): the page writes it with the owner's `Intl` date format.
    pub created_ms: i64,
    /// The invoice paid, shortened (withdrawals).
    pub invoice: Option<String>,
    /// An open token: it can be taken back while nobody has claimed it.
    pub can_take_back: bool,
}

/// What the owner approves before sats leave: written by the host from the mint's quote (or the checked amount),
/// kept in Rust under `id`. The window approves by id; it never sends the amount back.
#[derive(Debug, Clone, Serialize)]
pub struct ApprovalView {
    pub id: String,
    /// `withdrawal` or `token`.
    pub kind: &'static str,
    /// The sentence the owner approves, e.g. "Pay 500 sats to this Lightning invoice from …".
    pub summary: String,
    /// The figures behind it, one line each ("Fee reserve (what is not used comes back): up to 10 sats").
    pub details: Vec<String>,
    /// The approve button's words ("Withdraw 500 sats").
    pub action: String,
    /// When the approval lapses (Unix seconds).
    pub expires_at_s: u64,
}

/// The result of an approved action, in the host's words, with the wallet afterwards.
#[derive(Debug, Clone, Serialize)]
pub struct WalletDoneView {
    pub message: String,
    /// What a check settled or wrote off, each in the ledger's words (also kept with the money notices).
    pub notices: Vec<String>,
    pub wallet: WalletView,
}

/// A token made for another wallet, shown once. The token is a bearer secret: `Debug` never prints it.
#[derive(Clone, Serialize)]
pub struct SentTokenView {
    pub id: String,
    #[serde(serialize_with = "expose")]
    pub token: Secret<String>,
    /// `None` when the token is too long for one QR code; the text is still shown.
    pub qr: Option<QrView>,
    pub message: String,
    pub wallet: WalletView,
}

impl std::fmt::Debug for SentTokenView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SentTokenView").field("id", &self.id).field("message", &self.message).finish_non_exhaustive()
    }
}

/// The wallet's backup: its words, the mints it used, and QR codes of the mint list and of the whole backup (words
/// line and mint lines). Only ever sent to the trusted window after the owner asked twice; `Debug` prints none of it.
#[derive(Clone, Serialize)]
pub struct BackupView {
    #[serde(serialize_with = "expose")]
    pub words: Secret<String>,
    pub mints: Vec<String>,
    pub mints_qr: Option<QrView>,
    pub backup_qr: QrView,
}

impl std::fmt::Debug for BackupView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackupView").field("mints", &self.mints).finish_non_exhaustive()
    }
}

/// What a restore found, mint by mint, in the host's words, with the restored wallet.
#[derive(Debug, Clone, Serialize)]
pub struct RestoreView {
    pub found: Vec<String>,
    pub message: String,
    pub wallet: WalletView,
}

fn expose<S: serde::Serializer>(secret: &Secret<String>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(secret.expose())
}

/// A funding invoice. The QR code is a module matrix drawn as an SVG path: digits and path letters only.
#[derive(Debug, Clone, Serialize)]
pub struct InvoiceView {
    pub bolt11: String,
    pub quote_id: String,
    pub mint: String,
    pub amount_sats: u64,
    pub qr: QrView,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QrView {
    /// The side in modules, quiet zone included: the SVG's viewBox is `0 0 size size`.
    pub size: usize,
    /// SVG path data, one unit square per dark module.
    pub path: String,
}

/// The margin around a QR code, in modules, that scanners need.
const QR_QUIET: usize = 4;

impl QrView {
    /// Encodes a bolt11 invoice: in upper case, so the QR code uses the denser alphanumeric mode (an invoice's
    /// case does not matter).
    pub fn encode(text: &str) -> Result<Self, qrcode::types::QrError> {
        Self::encode_exact(&text.to_ascii_uppercase())
    }

    /// Encodes `text` as it is, for text whose case matters (a Cashu token, backup words, mint addresses).
    pub fn encode_exact(text: &str) -> Result<Self, qrcode::types::QrError> {
        use std::fmt::Write;
        let code = qrcode::QrCode::new(text.as_bytes())?;
        let width = code.width();
        let mut path = String::new();
        for (i, color) in code.to_colors().into_iter().enumerate() {
            if color == qrcode::Color::Dark {
                let (x, y) = (i % width + QR_QUIET, i / width + QR_QUIET);
                let _ = write!(path, "M{x} {y}h1v1h-1z");
            }
        }
        Ok(Self { size: width + 2 * QR_QUIET, path })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NodeSettingsView {
    pub url: String,
    pub fingerprint: Option<String>,
    pub password_set: Option<bool>,
    pub demo: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ToolGrantView {
    pub name: String,
    pub class: &'static str,
    pub description: String,
    pub enabled: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invoice_qr_code_is_a_square_of_unit_modules_in_plain_path_data() {
        let bolt11 = "lnbcrt10u1pjexample0qqqsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgqdfjcdk6w3ak5pca";
        let qr = QrView::encode(bolt11).unwrap();
        assert_eq!(qr, QrView::encode(&bolt11.to_ascii_uppercase()).unwrap(), "case does not change the code");
        // Version 1 is 21 modules wide, and each version adds 4; the quiet zone adds 4 on each side.
        assert!(qr.size >= 21 + 2 * QR_QUIET && (qr.size - 2 * QR_QUIET - 21).is_multiple_of(4), "{}", qr.size);
        assert!(qr.path.starts_with('M') && qr.path.ends_with('z'));
        assert!(qr.path.chars().all(|c| c.is_ascii_digit() || "Mhvz -".contains(c)), "only path commands and numbers");
        // The top-left finder pattern's corner module is dark, just inside the quiet zone.
        assert!(qr.path.starts_with(&format!("M{QR_QUIET} {QR_QUIET}h1v1h-1z")));
    }

    #[test]
    fn text_whose_case_matters_is_encoded_as_it_is() {
        // A Cashu token is base64url: upper-casing it would make another (invalid) token.
        let token = "cashuBo2FteBxodHRwczovL21pbnQuZXhhbXBsZS5jb20vYWJjZGVm";
        let exact = QrView::encode_exact(token).unwrap();
        assert_ne!(exact, QrView::encode(token).unwrap(), "the invoice encoding upper-cases; this one must not");
        assert_eq!(exact, QrView::encode_exact(token).unwrap());
        assert!(exact.path.chars().all(|c| c.is_ascii_digit() || "Mhvz -".contains(c)));
    }

    #[test]
    fn the_backup_and_a_sent_token_never_print_their_secret() {
        let words = "abandon ability able about above absent absorb abstract absurd abuse access accident";
        let qr = QrView::encode_exact("x").unwrap();
        let backup = BackupView {
            words: Secret::new(words.into()),
            mints: vec!["https://mint.example.com".into()],
            mints_qr: None,
            backup_qr: qr.clone(),
        };
        let printed = format!("{backup:?}");
        assert!(!printed.contains("abandon") && printed.contains("mint.example.com"), "{printed}");
        assert_eq!(serde_json::to_value(&backup).unwrap()["words"], words, "the window gets them");
        let sent = SentTokenView {
            id: "t1".into(),
            token: Secret::new("cashuBsecret".into()),
            qr: Some(qr),
            message: "made".into(),
            wallet: WalletView::default(),
        };
        assert!(!format!("{sent:?}").contains("cashuBsecret"));
    }
}
