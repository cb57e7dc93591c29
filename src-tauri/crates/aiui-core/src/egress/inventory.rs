//! The secrets inventory of a node: every kind of secret an Archipelago node and its apps hold or print, as data.
//!
//! Each entry says why the value is secret, which detector in `secrets.rs`/`mnemonic.rs`/`labelled.rs` catches it and which
//! corpus generator in `fixtures/egress/gen_secrets.py` writes its samples (the corpus line's first field is the
//! entry's `id`). The corpus test fails when an entry has no sample or a sample is missed.
//!
//! Treatment, the same for every entry (DESIGN.md, G-B1): in the owner's own words the whole message is blocked,
//! because the secret would leave by the owner's hand and only the owner can take it out; in anything else (a
//! tool result, an earlier reply, the system prompt) the value becomes `[redacted:<kind>]` and the context
//! around it stays readable. No kind is redacted in owner text: a redacted secret would still tell the owner
//! nothing about having pasted it.
//!
//! Judged public, and kept in the benign corpus instead: xpub/tpub/zpub and descriptors built from them, bolt11
//! invoices, bolt12 offers, npub/nprofile/nevent/naddr, LNURL-pay links, Cashu payment requests (`creqA`),
//! Fedimint invite codes (they join a federation, they hold no money), txids, block and payment hashes, node
//! pubkeys, addresses, onion v3 addresses (G-B2 replaces those with placeholders), UUIDs, and PSBTs (unsigned or
//! partly signed transactions: they reveal the wallet's coins but sign nothing on their own, like an xpub).

/// One kind of secret a node holds or prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretKind {
    /// Stable name, the first field of its lines in `fixtures/egress/secrets.txt`.
    pub id: &'static str,
    /// The name in `[redacted:<kind>]` and in a blocked message; one of [`REDACTION_KINDS`].
    pub kind: &'static str,
    /// Why it is secret: what someone holding it can do.
    pub why: &'static str,
    /// The detector that catches it.
    pub detector: &'static str,
    /// The function in `fixtures/egress/gen_secrets.py` that writes its samples.
    pub samples: &'static str,
}

const fn entry(
    id: &'static str,
    kind: &'static str,
    why: &'static str,
    detector: &'static str,
    samples: &'static str,
) -> SecretKind {
    SecretKind { id, kind, why, detector, samples }
}

/// Every redaction kind, with the words a blocked message uses for it.
pub const REDACTION_KINDS: &[(&str, &str)] = &[
    ("bip39", "what looks like a wallet recovery phrase (seed words)"),
    ("slip39", "what looks like a Shamir backup share (SLIP-39 words)"),
    ("codex32", "a codex32 seed backup"),
    ("xprv", "an extended private key (xprv)"),
    ("wif", "a Bitcoin private key (WIF)"),
    ("hex-key", "a private key written in hex"),
    ("nsec", "a Nostr private key (nsec or ncryptsec)"),
    ("nostr-connect", "a Nostr remote-signer connection string with its secret"),
    ("nwc", "a Nostr Wallet Connect string, which can spend from your wallet"),
    ("cashu", "a Cashu ecash token, which is spendable money"),
    ("fedimint", "Fedimint ecash notes, which are spendable money"),
    ("lnurlw", "an LNURL-withdraw link, which lets whoever holds it withdraw your funds"),
    ("lnbits", "an LNbits wallet link, which opens and spends from the wallet"),
    ("macaroon", "a Lightning macaroon, a credential for your Lightning node"),
    ("lndconnect", "an lndconnect string, which holds a credential for your Lightning node"),
    ("rune", "a Core Lightning rune, a credential for your Lightning node"),
    ("rpcauth", "a Bitcoin Core RPC password or cookie"),
    ("password", "a password or secret from a configuration file or command"),
    ("url-password", "a password inside a web address (user:password@host)"),
    ("pem", "a private key block (TLS or SSH)"),
    ("api-key", "an API key"),
    ("token", "an access token"),
    ("otpauth", "a two-factor (TOTP) secret"),
    ("age-key", "an age encryption secret key"),
    ("onion-key", "a Tor onion service private key"),
    ("backup-code", "account backup or recovery codes, which get past two-factor login"),
    ("totp-key", "a two-factor setup key, which makes every future login code"),
    ("pairing-phrase", "a pairing phrase, which connects an app to your node"),
    ("seedqr", "a wallet seed written as SeedQR digits or entropy"),
];

/// The inventory. Order follows the money: seeds first, then keys, wallet connections, ecash, node credentials,
/// config secrets, service keys.
pub const INVENTORY: &[SecretKind] = &[
    entry(
        "bip39-english",
        "bip39",
        "A BIP-39 phrase is the whole wallet: every key and coin derives from it.",
        "mnemonic: 12+ English list words, in any list layout, abbreviated to four letters, one typo per twelve",
        "seeds",
    ),
    entry(
        "bip39-spanish",
        "bip39",
        "The same wallet seed, in the Spanish list; typed with or without accents.",
        "mnemonic: Spanish list, accents folded",
        "foreign_seeds",
    ),
    entry(
        "bip39-french",
        "bip39",
        "The same wallet seed, in the French list; typed with or without accents.",
        "mnemonic: French list, accents folded",
        "foreign_seeds",
    ),
    entry(
        "bip39-italian",
        "bip39",
        "The same wallet seed, in the Italian list.",
        "mnemonic: Italian list",
        "foreign_seeds",
    ),
    entry(
        "bip39-portuguese",
        "bip39",
        "The same wallet seed, in the Portuguese list.",
        "mnemonic: Portuguese list",
        "foreign_seeds",
    ),
    entry("bip39-czech", "bip39", "The same wallet seed, in the Czech list.", "mnemonic: Czech list", "foreign_seeds"),
    entry(
        "bip39-japanese",
        "bip39",
        "The same wallet seed, in the Japanese list (ideographic spaces).",
        "mnemonic: Japanese list, NFKD",
        "foreign_seeds",
    ),
    entry(
        "bip39-korean",
        "bip39",
        "The same wallet seed, in the Korean list.",
        "mnemonic: Korean list, NFKD",
        "foreign_seeds",
    ),
    entry(
        "bip39-chinese-simplified",
        "bip39",
        "The same wallet seed, in the simplified Chinese list.",
        "mnemonic: one Han character per word, separated",
        "foreign_seeds",
    ),
    entry(
        "bip39-chinese-traditional",
        "bip39",
        "The same wallet seed, in the traditional Chinese list.",
        "mnemonic: one Han character per word, separated",
        "foreign_seeds",
    ),
    entry(
        "electrum-seed",
        "bip39",
        "An Electrum seed (version prefix, English list) restores the Electrum wallet.",
        "mnemonic: English list",
        "electrum_seeds",
    ),
    entry(
        "lnd-aezeed",
        "bip39",
        "LND's 24-word aezeed restores the node's on-chain wallet and channel keys.",
        "mnemonic: English list",
        "aezeeds",
    ),
    entry(
        "slip39-share",
        "slip39",
        "Enough SLIP-39 shares rebuild the master secret of a Trezor/Shamir backup.",
        "mnemonic: 20+ SLIP-39 list words",
        "slip39_shares",
    ),
    entry(
        "codex32-share",
        "codex32",
        "A codex32 string (CLN `hsmtool getcodexsecret`) is the node's hsm_secret.",
        "shape: ms1 + bech32 data",
        "codex32s",
    ),
    entry(
        "xprv",
        "xprv",
        "An extended private key spends every coin of the account it heads.",
        "shape: [xtyzuvYZUV]prv + base58",
        "xprvs",
    ),
    entry(
        "descriptor-xprv",
        "xprv",
        "A descriptor with an xprv (listdescriptors true) is a spending wallet.",
        "shape: xprv inside the descriptor",
        "private_descriptors",
    ),
    entry(
        "descriptor-wif",
        "wif",
        "A descriptor with a WIF key spends that key's coins.",
        "shape: WIF inside the descriptor",
        "private_descriptors",
    ),
    entry(
        "wif",
        "wif",
        "A WIF key (dumpprivkey, paper wallet) spends its address's coins.",
        "shape: 5/9 + 50 or K/L/c + 51 base58, mixed case",
        "wifs",
    ),
    entry(
        "hex-private-key",
        "hex-key",
        "A raw 32-byte key named as private (privkey=, \"secret_key\":) signs as its owner.",
        "shape: key-named 64 hex",
        "hex_keys",
    ),
    entry(
        "nsec",
        "nsec",
        "An nsec is a Nostr identity: whoever holds it posts and decrypts as the owner.",
        "shape: nsec1 + bech32",
        "nsecs",
    ),
    entry(
        "ncryptsec",
        "nsec",
        "A password-encrypted nsec (NIP-49); weak passwords fall to guessing offline.",
        "shape: ncryptsec1 + bech32",
        "ncryptsecs",
    ),
    entry(
        "bunker-uri",
        "nostr-connect",
        "A bunker:// or nostrconnect:// URI with secret= pairs a client to the signer.",
        "shape: bunker/nostrconnect URI holding secret=",
        "nostr_connects",
    ),
    entry(
        "nwc-uri",
        "nwc",
        "A Nostr Wallet Connect URI's secret spends from the connected wallet.",
        "shape: nostr+walletconnect:// URI",
        "nwcs",
    ),
    entry(
        "cashu-token-v3",
        "cashu",
        "A cashuA token is ecash: whoever redeems it first has the money.",
        "shape: cashuA + base64, bare, cashu:, in URLs and JSON",
        "cashus",
    ),
    entry(
        "cashu-token-v4",
        "cashu",
        "A cashuB token is ecash: whoever redeems it first has the money.",
        "shape: cashuB + base64url, bare, cashu:, in URLs and JSON",
        "cashus",
    ),
    entry(
        "fedimint-notes",
        "fedimint",
        "Fedimint out-of-band notes are ecash: whoever reissues them has the money.",
        "shape: long note blob after reissue/validate/notes",
        "fedimint_notes",
    ),
    entry(
        "lnurl-withdraw",
        "lnurlw",
        "An LNURL-withdraw link (vouchers, bolt cards) pays out to whoever opens it.",
        "shape: lnurlw:// URI, or an LNURL whose URL is a withdraw request",
        "lnurl_withdraws",
    ),
    entry(
        "lnbits-wallet-url",
        "lnbits",
        "An LNbits wallet URL's usr= logs into the wallet and spends from it.",
        "shape: usr= 32 hex",
        "lnbits_urls",
    ),
    entry(
        "lnd-macaroon-hex",
        "macaroon",
        "An LND macaroon is a bearer credential: admin.macaroon controls the node.",
        "shape: 0201036c6e64 hex",
        "macaroons",
    ),
    entry(
        "lnd-macaroon-base64",
        "macaroon",
        "The same macaroon in base64 (Zeus, lndconnect, RTL configs).",
        "shape: AgEDbG5k base64",
        "macaroons",
    ),
    entry(
        "other-macaroon",
        "macaroon",
        "Loop, Pool, tapd and LiT macaroons are bearer credentials of their daemons.",
        "shape: hex or base64 named macaroon",
        "macaroons",
    ),
    entry(
        "lndconnect-uri",
        "lndconnect",
        "An lndconnect URI holds the macaroon (and host) that drive the node.",
        "shape: lndconnect:// URI",
        "lndconnects",
    ),
    entry(
        "cln-rune",
        "rune",
        "A Core Lightning rune authorises RPC calls over commando or CLNRest.",
        "shape: rune-named base64url",
        "runes",
    ),
    entry(
        "bitcoind-rpcauth",
        "rpcauth",
        "An rpcauth line's salted hash can be cracked offline to the RPC password.",
        "shape: rpcauth=",
        "rpcauths",
    ),
    entry(
        "bitcoind-rpcpassword",
        "rpcauth",
        "rpcpassword gives full control of bitcoind and its wallets.",
        "shape: rpcpassword / RPC_PASSWORD",
        "rpcauths",
    ),
    entry(
        "bitcoind-cookie",
        "rpcauth",
        "The .cookie (__cookie__:<hex>) is the RPC password of this bitcoind run.",
        "shape: __cookie__: + hex",
        "cookies",
    ),
    entry(
        "config-password",
        "password",
        "Passwords, passphrases, secrets and tokens in ini, yaml, json and env files, and in commands (walletpassphrase, --password, Tor AUTHENTICATE).",
        "shape: secret-named key, then the value",
        "config_passwords",
    ),
    entry(
        "url-credentials",
        "url-password",
        "A password in user:password@host (RPC, postgres://, redis://) logs in.",
        "shape: scheme://user:password@",
        "url_credentials",
    ),
    entry(
        "tls-private-key",
        "pem",
        "The node's TLS key (lnd tls.key) lets a man in the middle pose as the node.",
        "shape: BEGIN ... PRIVATE KEY block",
        "pems",
    ),
    entry(
        "ssh-private-key",
        "pem",
        "An OpenSSH private key logs into the machine.",
        "shape: BEGIN OPENSSH PRIVATE KEY block",
        "pems",
    ),
    entry(
        "tor-onion-key",
        "onion-key",
        "The onion service key lets anyone impersonate the node's .onion address.",
        "shape: ED25519-V3:, hs_ed25519_secret_key header (raw, base64, hex)",
        "onion_keys",
    ),
    entry(
        "tor-client-auth-key",
        "onion-key",
        "An .auth_private line's x25519 key grants access to a client-authorised onion.",
        "shape: <onion>:descriptor:x25519:<key>",
        "onion_client_keys",
    ),
    entry("anthropic-key", "api-key", "An Anthropic key spends the owner's API credit.", "shape: sk-ant-", "api_keys"),
    entry(
        "openai-key",
        "api-key",
        "An OpenAI or OpenRouter key spends the owner's API credit.",
        "shape: sk-, sk-proj-, sk-or-",
        "api_keys",
    ),
    entry("routstr-key", "api-key", "A Routstr key holds the owner's prepaid balance.", "shape: sk- key", "api_keys"),
    entry(
        "github-token",
        "api-key",
        "A GitHub token acts on the owner's repositories.",
        "shape: ghp_/gho_/ghu_/ghs_/ghr_, github_pat_",
        "service_tokens",
    ),
    entry(
        "slack-token",
        "api-key",
        "A Slack token reads and posts as the owner's bot or user.",
        "shape: xoxb-/xoxp-/xoxa-",
        "service_tokens",
    ),
    entry(
        "cloud-api-key",
        "api-key",
        "Google, AWS, Stripe, Hugging Face, Tailscale, Telegram bot keys act on the owner's accounts.",
        "shape: AIza, AKIA, sk_live_, hf_, tskey-, bot tokens",
        "service_tokens",
    ),
    entry(
        "bearer-token",
        "token",
        "A bearer token or JWT in an Authorization header is a logged-in session.",
        "shape: Authorization / Bearer / JWT",
        "bearer_tokens",
    ),
    entry(
        "totp-secret",
        "otpauth",
        "An otpauth:// URI is the two-factor secret: it makes every future code.",
        "shape: otpauth:// and otpauth-migration://",
        "otpauths",
    ),
    entry(
        "age-secret-key",
        "age-key",
        "An age secret key decrypts the owner's encrypted backups.",
        "shape: AGE-SECRET-KEY-1 + bech32",
        "age_keys",
    ),
    // Known by their label (labelled.rs): the value alone looks like any code, key or word list.
    entry(
        "backup-codes",
        "backup-code",
        "Backup codes (Google, Nostr bunkers, exchanges) each log in once without the second factor.",
        "labelled: backup/emergency/scratch codes label, then codes mixing letters and digits, 6+ digits or letter groups",
        "backup_codes",
    ),
    entry(
        "recovery-codes",
        "backup-code",
        "Recovery codes and recovery keys (GitHub, Apple) take over the account when the second factor is lost.",
        "labelled: recovery codes / recovery key label, then codes (one line, one per line, a JSON list)",
        "backup_codes",
    ),
    entry(
        "totp-setup-key",
        "totp-key",
        "A 2FA setup key is the TOTP seed shown beside the QR code: it makes every future code.",
        "labelled: secret/setup/2FA/authenticator/TOTP key label, then 16+ base32 in one case, bare or in groups of four",
        "totp_keys",
    ),
    entry(
        "api-key-by-name",
        "password",
        "An API key or token named only by its header or query name (X-Goog-Api-Key, Ocp-Apim-Subscription-Key, X-Auth-Token mid-line, ?key=, &sig=, &appid=, \"API key is ...\") acts on the owner's account.",
        "labelled: key/token header or label, or query name, then 12+ URL-safe chars with letters and digits",
        "api_keys_by_name",
    ),
    entry(
        "pairing-phrase",
        "pairing-phrase",
        "A Lightning Node Connect pairing phrase (ten list words) connects a remote app to the node.",
        "labelled: pairing phrase/words label, then 5+ words of one BIP-39 list",
        "pairing_phrases",
    ),
    entry(
        "labelled-seed-words",
        "bip39",
        "Seed words given with their label are the seed (or part of it) whatever their count: 6, 9, 10, 11 words.",
        "labelled: recovery phrase/seed words/mnemonic label (English, Spanish, French, Italian, Portuguese, Japanese, Chinese, Korean), then 5+ words of one BIP-39 list",
        "labelled_seed_words",
    ),
    entry(
        "seedqr-standard",
        "seedqr",
        "Standard SeedQR is the seed as four digits per word (its BIP-39 index): the QR a SeedSigner scans.",
        "labelled: SeedQR label, then 48 or 96 digits of groups <= 2047; unlabelled: exactly 48 or 96 digits, groups <= 2047, valid checksum",
        "seedqrs",
    ),
    entry(
        "seedqr-compact",
        "seedqr",
        "Compact SeedQR is the seed's raw entropy: 128 or 256 bits.",
        "labelled: Compact SeedQR/SeedQR label, then exactly 32 or 64 hex digits or 128 or 256 bits",
        "seedqrs",
    ),
    entry(
        "seed-table-columns",
        "bip39",
        "A seed written as a table in columns is the whole wallet; its reading order interleaves the phrase.",
        "labelled: block of 2+ lines of 2+ words of one BIP-39 list, 12+ words, numbered, or in columns with a seed label, a phrase length or a checksum",
        "seed_tables",
    ),
];

/// The inventory entry named `id`.
pub fn find(id: &str) -> Option<&'static SecretKind> {
    INVENTORY.iter().find(|e| e.id == id)
}

/// The words a blocked message uses for `kind`, if it is one of [`REDACTION_KINDS`].
pub(super) fn describe(kind: &str) -> Option<&'static str> {
    REDACTION_KINDS.iter().find(|(k, _)| *k == kind).map(|(_, d)| *d)
}
