// (Plain comments: build.rs includes this file with `include!`, where an inner doc comment cannot stand.)
// The one list of app commands. `build.rs` declares exactly these in the app manifest (so each is ACL-checked and
// needs an explicit `allow-…` permission), the invoke handler refuses any name not listed here, and the ACL tests
// walk both lists. A command that is not in this file cannot be called from any window.

/// Commands of the chat window: send messages, read state, and *ask* for the trusted window. Nothing here
/// approves, spends, changes settings or reads a secret.
pub const MAIN_COMMANDS: &[&str] = &[
    "app_info",
    "conversations_list",
    "conversation_load",
    "chat_send",
    "chat_stop",
    "node_packages",
    "chat_suggestions",
    "request_trusted_window",
    "allowance_get",
    "ui_text",
];

/// Commands of the trusted window only. Each one also checks, in Rust, that the calling webview is labelled
/// `trusted`, so a misconfigured capability fails closed.
pub const TRUSTED_COMMANDS: &[&str] = &[
    "trusted_pending",
    "trusted_decide",
    "trusted_settings",
    "trusted_set_api_key",
    "trusted_clear_api_key",
    "trusted_fetch_fingerprint",
    "trusted_pair_node",
    "trusted_set_grant",
    "trusted_set_builtin",
    "trusted_hide",
    "trusted_set_allowance",
    "trusted_set_routstr",
    "trusted_set_claude_allowance",
    "trusted_set_claude_price",
    "trusted_wallet",
    "trusted_wallet_receive",
    "trusted_wallet_invoice",
    "trusted_wallet_check",
    "trusted_wallet_quote_withdrawal",
    "trusted_wallet_withdraw",
    "trusted_wallet_quote_send",
    "trusted_wallet_send",
    "trusted_wallet_take_back",
    "trusted_wallet_reconcile",
    "trusted_wallet_backup",
    "trusted_wallet_confirm_backup",
    "trusted_wallet_restore",
    "trusted_ui_text",
    "trusted_set_locale",
];
