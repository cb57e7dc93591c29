//! The shapes that cross IPC. The ones the LAN service shares (a turn's events, conversations, packages, pending
//! confirmations, the allowance meter) are `aiui_core::view`'s; the desktop-only ones are defined here.

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
}

/// The built-in small model, last in the chain: the owner's switch and whether it can answer now.
#[derive(Debug, Clone, Serialize)]
pub struct BuiltinView {
    pub enabled: bool,
    /// Why it cannot answer even when on (e.g. the model file is missing: what to run); `None` when ready.
    pub unavailable: Option<String>,
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

/// The wallet's balance per mint. `opened` is false until the owner first funds it (no seed is made before).
#[derive(Debug, Clone, Serialize)]
pub struct WalletView {
    pub opened: bool,
    pub balances: Vec<BalanceView>,
    pub total_sats: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BalanceView {
    pub mint: String,
    pub sats: u64,
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
    /// Encodes `text` (a bolt11 invoice: upper case, so the QR code uses the denser alphanumeric mode).
    pub fn encode(text: &str) -> Result<Self, qrcode::types::QrError> {
        use std::fmt::Write;
        let code = qrcode::QrCode::new(text.to_ascii_uppercase().as_bytes())?;
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
}
