//! The command line of `aiui`.

use std::path::PathBuf;

#[derive(Debug, clap::Parser)]
#[command(name = "aiui", version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("AIUI_GIT_COMMIT"), ")"), about = "AIUI, the Archipelago node assistant: desktop companion and kiosk")]
pub struct Cli {
    /// Start a simulated node on this machine (loopback, generated password) and pair with it.
    #[arg(long)]
    pub demo: bool,
    /// Full screen and undecorated, with no devtools and no context menu outside text fields and selections (paste
    /// and copy stay): for a touchscreen at the node.
    #[arg(long)]
    pub kiosk: bool,
    /// Where the local Ollama listens.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:11434/")]
    pub ollama: url::Url,
    /// The Ollama model to use (default: the first installed one that supports tools).
    #[arg(long, value_name = "MODEL")]
    pub ollama_model: Option<String>,
    /// The Anthropic API base URL (the key itself is set in the trusted window and kept in the OS keyring).
    #[arg(long, value_name = "URL", default_value = "https://api.anthropic.com/", hide = true)]
    pub claude_url: url::Url,
    /// Where conversations, the audit log and the pairing are kept (default: $AIUI_DATA_DIR or
    /// ~/.local/share/aiui). The demo uses a `demo` folder inside it.
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}
