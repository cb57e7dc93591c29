//! The shell's config file, `<data dir>/aiui.json`: the paired node (URL and accepted fingerprint), the tool
//! grants, the Routstr options, the LAN service's kiosk socket and the owner's language. Nothing secret is ever written here: the node password and API keys live only in the OS keyring.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name inside the data dir.
pub const FILE_NAME: &str = "aiui.json";

/// The node the owner paired with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedNode {
    pub url: String,
    /// The SHA-256 certificate fingerprint the owner accepted (https nodes).
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// What is persisted. Unknown fields are ignored, so an older AIUI can read a newer file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellConfig {
    #[serde(default)]
    pub node: Option<PairedNode>,
    /// Tools the owner switched off.
    #[serde(default)]
    pub disabled_tools: BTreeSet<String>,
    #[serde(default)]
    pub routstr: RoutstrOptions,
    /// The owner turned the built-in small model (the chain's last leg) off.
    #[serde(default)]
    pub builtin_model_off: bool,
    /// The LAN service's kiosk socket, for approving LAN users' requests on the kiosk (`aiui --kiosk`); the
    /// environment's `AIUI_LAN_APPROVALS_SOCKET` wins over it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lan_approvals_socket: Option<PathBuf>,
    /// The language the owner picked in the trusted settings (a tag: `en`, `de`, `es`); `None`: the system's. A
    /// tag this AIUI does not know (a newer one wrote it) is read as the system's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

impl ShellConfig {
    /// The language of the host's text: the owner's pick, else the environment's (`LANG`, `LC_MESSAGES`).
    pub fn locale(&self) -> aiui_core::i18n::Locale {
        self.locale
            .as_deref()
            .and_then(aiui_core::i18n::Locale::from_tag)
            .unwrap_or_else(aiui_core::i18n::Locale::from_env)
    }
}

/// How the paid leg finds and reaches providers. Nothing here spends: the allowance lives in the budget file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoutstrOptions {
    /// Use only providers the reviewer labelled positively. On by default: discovery results are untrusted data.
    #[serde(default = "reviewed_only_default")]
    pub reviewed_only: bool,
    /// A Tor SOCKS5 proxy for relays and providers, e.g. `127.0.0.1:9050`.
    #[serde(default)]
    pub tor_socks: Option<std::net::SocketAddr>,
    /// The reviewer (npub or hex public key) whose kind-38425 labels make a provider "reviewed".
    #[serde(default)]
    pub reviewer: Option<String>,
}

fn reviewed_only_default() -> bool {
    true
}

impl Default for RoutstrOptions {
    fn default() -> Self {
        Self { reviewed_only: true, tor_socks: None, reviewer: None }
    }
}

pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

impl ShellConfig {
    /// Reads the file; a missing file is the default config. A damaged one is an error, not silently reset: it
    /// holds the accepted fingerprint.
    pub fn load(data_dir: &Path) -> anyhow::Result<Self> {
        let file = path(data_dir);
        match std::fs::read_to_string(&file) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("{} is not a valid AIUI config ({e}); fix or remove it", file.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(anyhow::anyhow!("reading {}: {e}", file.display())),
        }
    }

    /// Writes the file atomically (a temp file renamed over it).
    pub fn save(&self, data_dir: &Path) -> std::io::Result<()> {
        let file = path(data_dir);
        let temp = data_dir.join(format!(".{FILE_NAME}.tmp"));
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&temp, text)?;
        std::fs::rename(&temp, &file)
    }
}
