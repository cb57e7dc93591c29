//! Certificate pinning by SHA-256 fingerprint: how AIUI trusts a node's self-signed certificate.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

use super::PresentedCert;

/// The SHA-256 of a certificate's DER encoding, shown as `AB:CD:…` like browsers and `openssl x509 -fingerprint`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    pub fn of_der(der: &[u8]) -> Self {
        Self(Sha256::digest(der).into())
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{byte:02X}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("not a SHA-256 fingerprint (expected 64 hex digits, colons optional): {0:?}")]
pub struct FingerprintParseError(String);

impl FromStr for Fingerprint {
    type Err = FingerprintParseError;

    /// Accepts `AB:CD:…`, `abcd…` and an optional `sha256:` or `SHA256=` prefix, as owners paste them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let lower = trimmed.to_ascii_lowercase();
        let body = lower.strip_prefix("sha256:").or_else(|| lower.strip_prefix("sha256=")).unwrap_or(&lower);
        let digits: String = body.chars().filter(|c| *c != ':' && *c != ' ').collect();
        let mut out = [0u8; 32];
        hex::decode_to_slice(&digits, &mut out).map_err(|_| FingerprintParseError(trimmed.to_owned()))?;
        Ok(Self(out))
    }
}

/// A rustls client config that accepts exactly the pinned certificate (or, with no pin, records any certificate
/// and accepts it). Handshake signatures are still verified, so the peer must hold the certificate's key.
pub(super) fn client_config(pin: Option<Fingerprint>, presented: PresentedCert) -> rustls::ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(PinVerifier { pin, presented, provider: provider.clone() });
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default TLS versions")
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth()
}

#[derive(Debug)]
struct PinVerifier {
    pin: Option<Fingerprint>,
    presented: PresentedCert,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for PinVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = Fingerprint::of_der(end_entity);
        self.presented.set(seen);
        match self.pin {
            None => Ok(ServerCertVerified::assertion()),
            Some(pin) if pin == seen => Ok(ServerCertVerified::assertion()),
            Some(_) => Err(rustls::Error::InvalidCertificate(CertificateError::ApplicationVerificationFailure)),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    #[track_caller]
    fn check(input: &str, expect_ok: bool) {
        assert_eq!(input.parse::<Fingerprint>().is_ok(), expect_ok, "{input:?}");
    }

    #[test]
    fn parses_the_spellings_owners_paste() {
        let fp = Fingerprint::of_der(b"certificate");
        let shown = fp.to_string();
        assert_eq!(shown.len(), 32 * 3 - 1);
        assert_eq!(shown.parse::<Fingerprint>().unwrap(), fp);
        assert_eq!(shown.replace(':', "").to_lowercase().parse::<Fingerprint>().unwrap(), fp);
        assert_eq!(format!("sha256:{}", shown.to_lowercase()).parse::<Fingerprint>().unwrap(), fp);
        check(&format!("SHA256={shown}"), true);
        check("", false);
        check("AB:CD", false);
        check(&"zz".repeat(32), false);
        check(&"ab".repeat(33), false);
    }
}
