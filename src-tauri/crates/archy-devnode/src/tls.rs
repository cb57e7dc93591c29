//! The node's self-signed TLS certificate: made once, kept in the data directory, so its fingerprint is stable.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use sha2::{Digest, Sha256};

pub(crate) const CERT_FILE: &str = "tls-cert.pem";
pub(crate) const KEY_FILE: &str = "tls-key.pem";

/// The names a LAN client may reach the node by.
const SUBJECT_ALT_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "archipelago.local"];

/// A certificate with its key, ready to serve.
pub(crate) struct Identity {
    pub cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity").field("fingerprint", &fingerprint(&self.cert)).finish_non_exhaustive()
    }
}

/// Loads the certificate and key from `data_dir`, or makes and saves them on first start.
pub(crate) fn load_or_create(data_dir: &Path) -> anyhow::Result<Identity> {
    let cert_path = data_dir.join(CERT_FILE);
    let key_path = data_dir.join(KEY_FILE);
    match (cert_path.exists(), key_path.exists()) {
        (true, true) => load(&cert_path, &key_path),
        (false, false) => create(&cert_path, &key_path),
        (true, false) => bail!(half_pair(&cert_path, &key_path)),
        (false, true) => bail!(half_pair(&key_path, &cert_path)),
    }
}

/// Replacing half a pair would silently change the fingerprint every client has pinned, so it is refused.
fn half_pair(found: &Path, missing: &Path) -> String {
    format!(
        "found {} but not {}; restore the missing file, or delete both to make a new certificate (clients will \
         then have to accept its new fingerprint)",
        found.display(),
        missing.display()
    )
}

fn load(cert_path: &Path, key_path: &Path) -> anyhow::Result<Identity> {
    let cert_pem = fs::read(cert_path).with_context(|| format!("could not read {}", cert_path.display()))?;
    let key_pem = fs::read(key_path).with_context(|| format!("could not read {}", key_path.display()))?;
    let cert = CertificateDer::from_pem_slice(&cert_pem)
        .map_err(|e| anyhow::anyhow!("{} holds no usable PEM certificate: {e}", cert_path.display()))?;
    let key = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| anyhow::anyhow!("{} holds no usable PEM private key: {e}", key_path.display()))?;
    Ok(Identity { cert, key })
}

fn create(cert_path: &Path, key_path: &Path) -> anyhow::Result<Identity> {
    let names: Vec<String> = SUBJECT_ALT_NAMES.iter().map(|s| (*s).to_owned()).collect();
    let certified = rcgen::generate_simple_self_signed(names).context("could not make a self-signed certificate")?;
    let key_pem = certified.signing_key.serialize_pem();
    // The key goes first, so a crash in between leaves a key without a certificate, which is refused loudly
    // rather than replaced silently.
    write_private(key_path, key_pem.as_bytes())?;
    fs::write(cert_path, certified.cert.pem()).with_context(|| format!("could not write {}", cert_path.display()))?;
    tracing::info!(cert = %cert_path.display(), "made a new self-signed TLS certificate");
    load(cert_path, key_path)
}

/// Writes a file only its owner can read.
fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(path).with_context(|| format!("could not create {}", path.display()))?;
    file.write_all(bytes).and_then(|()| file.sync_all()).with_context(|| format!("could not write {}", path.display()))
}

/// The rustls server configuration, with ring as the crypto provider (the workspace builds rustls without a
/// default one).
pub(crate) fn server_config(identity: &Identity) -> anyhow::Result<Arc<ServerConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("ring does not support the default TLS versions")?
        .with_no_client_auth()
        .with_single_cert(vec![identity.cert.clone()], identity.key.clone_key())
        .context("the certificate and key do not form a usable pair")?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// SHA-256 of the certificate's DER, as uppercase hex pairs joined by `:`, the way browsers show it.
pub(crate) fn fingerprint(cert: &CertificateDer<'_>) -> String {
    Sha256::digest(cert.as_ref()).iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_then_reused() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_create(dir.path()).unwrap();
        let second = load_or_create(dir.path()).unwrap();
        let fp = fingerprint(&first.cert);
        assert_eq!(fp, fingerprint(&second.cert));
        assert_eq!(fp.len(), 95);
        assert!(fp.chars().all(|c| c == ':' || c.is_ascii_digit() || c.is_ascii_uppercase()), "{fp}");
        assert!(server_config(&second).is_ok());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(dir.path().join(KEY_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn half_a_pair_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        load_or_create(dir.path()).unwrap();
        fs::remove_file(dir.path().join(CERT_FILE)).unwrap();
        let err = load_or_create(dir.path()).unwrap_err().to_string();
        assert!(err.contains(KEY_FILE) && err.contains(CERT_FILE), "{err}");
    }
}
