//! The two passphrases the owner sets for the LAN service (the LAN sign-in and the approval passphrase) and the
//! optional approval TOTP secret. Passphrases are kept only as argon2id hashes (PHC strings) in 0600 files in the
//! data dir; the plain text is never written anywhere.

use std::path::{Path, PathBuf};

use aiui_core::Secret;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// The shortest passphrase accepted: a LAN passphrase guards the node assistant; an approval passphrase guards
/// actions on the node.
pub const MIN_CHARS: usize = 10;

/// Which passphrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Signs LAN users in to the chat origin.
    Lan,
    /// Signs the owner in to the trusted origin and confirms each approval.
    Approval,
}

impl Kind {
    pub fn file(self, data_dir: &Path) -> PathBuf {
        data_dir.join(match self {
            Kind::Lan => "web-lan-passphrase.argon2",
            Kind::Approval => "web-approval-passphrase.argon2",
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Lan => "LAN passphrase",
            Kind::Approval => "approval passphrase",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PassphraseError {
    #[error("the passphrase is too short: use at least {MIN_CHARS} characters")]
    TooShort,
    #[error("the passphrase could not be hashed: {0}")]
    Hash(String),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// argon2id with OWASP's second recommended parameter set (19 MiB, 2 passes, 1 lane): a guess costs ~20 ms here.
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes `passphrase` and writes the hash to `kind`'s file (0600), replacing any earlier one.
pub fn set(data_dir: &Path, kind: Kind, passphrase: &Secret<String>) -> Result<(), PassphraseError> {
    if passphrase.expose().chars().count() < MIN_CHARS {
        return Err(PassphraseError::TooShort);
    }
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let hash = argon2()
        .hash_password(passphrase.expose().as_bytes(), &salt)
        .map_err(|e| PassphraseError::Hash(e.to_string()))?
        .to_string();
    write_private(&kind.file(data_dir), hash.as_bytes())
}

/// Writes a small file readable by the owner only, through a temporary file so a crash leaves the old one whole.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), PassphraseError> {
    use std::io::Write;
    let io = |source| PassphraseError::Io { path: path.display().to_string(), source };
    let tmp = path.with_extension("tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut file = aiui_core::paths::private_file_options().write(true).create_new(true).open(&tmp).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// A stored passphrase hash, read once at start-up.
#[derive(Debug, Clone)]
pub struct StoredHash(String);

impl StoredHash {
    /// Reads `kind`'s hash; `None` when the owner has not set it yet.
    pub fn load(data_dir: &Path, kind: Kind) -> Result<Option<Self>, PassphraseError> {
        let path = kind.file(data_dir);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let text = text.trim().to_owned();
                PasswordHash::new(&text).map_err(|e| PassphraseError::Hash(format!("{}: {e}", path.display())))?;
                Ok(Some(Self(text)))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(PassphraseError::Io { path: path.display().to_string(), source }),
        }
    }

    /// Whether `candidate` is the passphrase. Slow on purpose (argon2id): call it off the async threads.
    pub fn verify(&self, candidate: &str) -> bool {
        let Ok(hash) = PasswordHash::new(&self.0) else { return false };
        argon2().verify_password(candidate.as_bytes(), &hash).is_ok()
    }
}

/// The approval TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s), kept base32 in a 0600 file: a TOTP secret must be
/// readable to check a code, so it is the one secret here stored as itself.
pub fn totp_file(data_dir: &Path) -> PathBuf {
    data_dir.join("web-approval-totp.secret")
}

/// Makes a new TOTP secret, stores it and returns the otpauth:// URL for an authenticator app.
pub fn new_totp(data_dir: &Path) -> Result<Secret<String>, PassphraseError> {
    let raw: [u8; 20] = rand::random();
    let encoded = totp_rs::Secret::Raw(raw.to_vec()).to_encoded().to_string();
    totp(&encoded).map_err(PassphraseError::Hash)?;
    write_private(&totp_file(data_dir), encoded.as_bytes())?;
    Ok(Secret::new(format!("otpauth://totp/AIUI:approvals?secret={encoded}&issuer=AIUI&digits=6&period=30")))
}

pub(crate) fn totp(encoded: &str) -> Result<totp_rs::TOTP, String> {
    let bytes = totp_rs::Secret::Encoded(encoded.trim().to_owned()).to_bytes().map_err(|e| e.to_string())?;
    totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes).map_err(|e| e.to_string())
}

/// The stored approval TOTP, if the owner set one.
pub fn load_totp(data_dir: &Path) -> Result<Option<totp_rs::TOTP>, PassphraseError> {
    let path = totp_file(data_dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => totp(&text).map(Some).map_err(|e| PassphraseError::Hash(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(PassphraseError::Io { path: path.display().to_string(), source }),
    }
}
