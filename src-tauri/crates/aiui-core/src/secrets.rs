//! The one secrets module: API keys, the node password and the wallet seed live in the OS keyring, never in a
//! config file or a log.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::Secret;

/// The secrets AIUI keeps. Each is one keyring entry under the service [`SERVICE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretName {
    AnthropicApiKey,
    NodePassword,
    WalletSeed,
}

/// The keyring service name all of AIUI's entries use.
pub const SERVICE: &str = "aiui";

impl SecretName {
    fn user(self) -> &'static str {
        match self {
            Self::AnthropicApiKey => "anthropic-api-key",
            Self::NodePassword => "node-password",
            Self::WalletSeed => "wallet-seed",
        }
    }
}

/// Why a secret could not be read or stored. The message says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretsError {
    #[error(
        "no OS keyring is available ({reason}). AIUI keeps secrets only in the keyring: on Linux, install and \
         unlock a Secret Service provider (gnome-keyring, or KeePassXC with its Secret Service enabled), then try \
         again. Nothing was stored"
    )]
    Unavailable { reason: String },
    #[error("the keyring refused the operation: {reason}")]
    Refused { reason: String },
}

/// Where secrets are kept.
#[derive(Debug)]
pub struct Secrets {
    store: Store,
}

#[derive(Debug)]
enum Store {
    Keyring {
        service: String,
    },
    /// Not persisted. For `--demo` and tests only: secrets die with the process.
    Memory(Mutex<HashMap<SecretName, Secret<String>>>),
}

impl Secrets {
    /// The OS keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows).
    pub fn os_keyring() -> Self {
        Self::keyring_service(SERVICE)
    }

    /// The OS keyring under another service name, so tests never touch the owner's real entries.
    pub fn keyring_service(service: &str) -> Self {
        Self { store: Store::Keyring { service: service.to_owned() } }
    }

    /// A store that forgets everything when the process ends: the demo and tests.
    pub fn in_memory() -> Self {
        Self { store: Store::Memory(Mutex::new(HashMap::new())) }
    }

    /// Reads a secret; `Ok(None)` when it was never set. Blocking (a D-Bus round trip): call it from
    /// `spawn_blocking` in async code.
    pub fn get(&self, name: SecretName) -> Result<Option<Secret<String>>, SecretsError> {
        match &self.store {
            Store::Memory(map) => Ok(map.lock().unwrap_or_else(|p| p.into_inner()).get(&name).cloned()),
            Store::Keyring { service } => match entry(service, name)?.get_password() {
                Ok(value) => Ok(Some(Secret::new(value))),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(classify(e)),
            },
        }
    }

    pub fn set(&self, name: SecretName, value: &Secret<String>) -> Result<(), SecretsError> {
        match &self.store {
            Store::Memory(map) => {
                map.lock().unwrap_or_else(|p| p.into_inner()).insert(name, value.clone());
                Ok(())
            }
            Store::Keyring { service } => entry(service, name)?.set_password(value.expose()).map_err(classify),
        }
    }

    /// Removes a secret; removing one that is not there is not an error.
    pub fn delete(&self, name: SecretName) -> Result<(), SecretsError> {
        match &self.store {
            Store::Memory(map) => {
                map.lock().unwrap_or_else(|p| p.into_inner()).remove(&name);
                Ok(())
            }
            Store::Keyring { service } => match entry(service, name)?.delete_credential() {
                Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
                Err(e) => Err(classify(e)),
            },
        }
    }
}

fn entry(service: &str, name: SecretName) -> Result<keyring::Entry, SecretsError> {
    keyring::Entry::new(service, name.user()).map_err(classify)
}

fn classify(error: keyring::Error) -> SecretsError {
    match error {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) | keyring::Error::NoDefaultStore => {
            SecretsError::Unavailable { reason: error.to_string() }
        }
        other => SecretsError::Refused { reason: other.to_string() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_store_round_trips_and_deletes() {
        let secrets = Secrets::in_memory();
        assert_eq!(secrets.get(SecretName::AnthropicApiKey), Ok(None));
        secrets.set(SecretName::AnthropicApiKey, &Secret::from("sk-ant-test")).unwrap();
        assert_eq!(secrets.get(SecretName::AnthropicApiKey).unwrap().unwrap().expose(), "sk-ant-test");
        secrets.delete(SecretName::AnthropicApiKey).unwrap();
        secrets.delete(SecretName::AnthropicApiKey).unwrap();
        assert_eq!(secrets.get(SecretName::AnthropicApiKey), Ok(None));
    }
}
