//! The two passphrases the owner sets for the LAN service (the LAN sign-in and the approval passphrase) and the
//! optional approval TOTP secret. Passphrases are kept only as argon2id hashes (PHC strings) in 0600 files in the
//! data dir; the plain text is never written anywhere.

use std::path::{Path, PathBuf};

use aiui_core::Secret;
use argon2::password_hash::{Output, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

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
        verify_with(&hash, candidate.as_bytes()).unwrap_or(false)
    }
}

/// The capacity of a check's memory, in 1 KiB blocks: above glibc's largest mmap threshold (32 MiB on 64-bit), so
/// the allocator maps it on its own and unmaps it when the check ends. A buffer of the 19 MiB the check uses is
/// instead kept by the allocator after it is freed: over 200 LAN sign-ins the service grew by ~190 MB
/// (benches/soak.rs). The part beyond what the check uses is never touched, so it is never resident.
const MAPPED_BLOCKS: usize = 33 * 1024;

/// The most memory a stored hash may ask a check for (64 MiB): a hash file edited to ask for gigabytes is refused
/// rather than obeyed.
const MAX_BLOCKS: usize = 64 * 1024;

/// `PasswordVerifier::verify_password`, with memory allocated as [`MAPPED_BLOCKS`] says: `None` when the hash
/// cannot be checked.
fn verify_with(hash: &PasswordHash<'_>, candidate: &[u8]) -> Option<bool> {
    let algorithm = Algorithm::try_from(hash.algorithm).ok()?;
    let version = match hash.version {
        Some(v) => Version::try_from(v).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(hash).ok()?;
    let expected = hash.hash?;
    let mut salt = [0u8; 64];
    let salt = hash.salt?.decode_b64(&mut salt).ok()?;
    let count = params.block_count();
    if count > MAX_BLOCKS {
        tracing::warn!(blocks = count, "a stored passphrase hash asks for more memory than any this service makes");
        return None;
    }
    let mut blocks: Vec<Block> = Vec::with_capacity(count.max(MAPPED_BLOCKS));
    blocks.resize(count, Block::default());
    let mut out = vec![0u8; expected.len()];
    let hashed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        candidate,
        salt,
        &mut out,
        &mut blocks[..],
    );
    // What the check left there is derived from the candidate: wiped, wherever an allocator puts it next.
    blocks.fill(Block::default());
    hashed.ok()?;
    // Output's equality is constant-time.
    Some(Output::new(&out).ok()? == expected)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A PHC string made by argon2's own `PasswordHasher`, with `params`.
    fn phc(passphrase: &str, params: Params) -> StoredHash {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let hash = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(passphrase.as_bytes(), &salt)
            .expect("a hash");
        StoredHash(hash.to_string())
    }

    #[test]
    fn the_passphrase_matches_and_nothing_else_does() {
        let dir = tempfile::tempdir().expect("a dir");
        set(dir.path(), Kind::Lan, &Secret::new("correct horse battery".to_owned())).expect("set");
        let stored = StoredHash::load(dir.path(), Kind::Lan).expect("read").expect("a hash");
        assert!(stored.verify("correct horse battery"));
        assert!(!stored.verify("correct horse batterY"));
        assert!(!stored.verify(""));
    }

    #[test]
    fn a_check_uses_the_hashs_own_parameters() {
        // Smaller and larger than the service's own: a hash made by an older or newer build still checks.
        for params in [Params::new(8 * 1024, 1, 1, None), Params::new(24 * 1024, 3, 1, Some(48))] {
            let stored = phc("an older passphrase", params.expect("params"));
            assert!(stored.verify("an older passphrase"), "{}", stored.0);
            assert!(!stored.verify("an older passphrasf"), "{}", stored.0);
        }
    }

    #[test]
    fn a_hash_asking_for_gigabytes_is_refused_not_obeyed() {
        let stored = phc("some passphrase", Params::new(8 * 1024, 1, 1, None).expect("params"));
        let greedy = StoredHash(stored.0.replace("m=8192", "m=4194304"));
        assert_ne!(greedy.0, stored.0);
        assert!(!greedy.verify("some passphrase"));
    }
}
