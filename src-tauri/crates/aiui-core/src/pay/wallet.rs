//! `Wallet`: AIUI's Cashu wallet, a thin layer over cdk's multi-mint `WalletRepository` with its SQLite store in the
//! data dir and its seed in the OS keyring. Every sat that enters from outside is written to the ledger here.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use cdk::amount::SplitTarget;
use cdk::mint_url::MintUrl;
use cdk::nuts::{CurrencyUnit, PaymentMethod, State, Token};
use cdk::wallet::BaseHttpClient as CdkHttpClient;
use cdk::wallet::{
    RateLimitConfig, RateLimiterManager, ReceiveOptions, WalletConfig, WalletRepository, WalletRepositoryBuilder,
};
use cdk_common::rate_limit::RateLimitedTransport;
use zeroize::Zeroize;

use super::ledger::Ledger;
use super::mint_transport::{MAX_MINT_REPLY_BYTES, MintDoor, MintTransport};
use super::{Invoice, PayError, TokenState, Unfinished, classify};
use crate::Secret;
use crate::net::guard::{AddressPolicy, Guard};
use crate::secrets::{SecretName, Secrets};

/// How the wallet talks to mints.
#[derive(Debug, Clone)]
pub struct WalletOptions {
    /// Pace requests per mint host (cdk's default: a burst of 20, then 20 a minute), which keeps a wallet under
    /// nutshell's rate limits. Tests against a loopback mint turn it off.
    pub pace_requests: bool,
    /// The owner's Tor SOCKS5 proxy: when set, every mint request goes through it.
    pub tor_socks: Option<std::net::SocketAddr>,
    /// The owner's own mints (the allowance's accepted mints), which may be on the LAN; every other mint must be
    /// a public address. [`Wallet::trust_owner_mints`] adds more later.
    pub owner_mints: Vec<String>,
    /// The SSRF guard for the mints the owner did not list. Only tests allow private addresses.
    pub guard: Guard,
    /// The most a mint's answer may hold.
    pub max_reply_bytes: usize,
}

impl Default for WalletOptions {
    fn default() -> Self {
        Self {
            pace_requests: true,
            tor_socks: None,
            owner_mints: Vec::new(),
            guard: Guard::new(AddressPolicy::PublicOnly),
            max_reply_bytes: MAX_MINT_REPLY_BYTES,
        }
    }
}

/// cdk's mint client over AIUI's door, paced per mint host.
type MintClient = CdkHttpClient<RateLimitedTransport<MintTransport>>;

/// The wallet. Cheap to share behind an `Arc`; all methods take `&self`.
pub struct Wallet {
    repo: WalletRepository,
    ledger: Ledger,
    data_dir: PathBuf,
    door: Arc<MintDoor>,
    pacing: RateLimiterManager,
}

impl std::fmt::Debug for Wallet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wallet").field("data_dir", &self.data_dir).finish_non_exhaustive()
    }
}

impl Wallet {
    /// Opens (or creates) the wallet in `data_dir`: `wallet.sqlite3` (cdk) and `ledger.sqlite3` (AIUI's ledger).
    /// The seed is read from `secrets`; a new wallet gets a new BIP-39 seed stored there first. An existing wallet
    /// whose seed is missing is refused rather than silently given a new one. Reads the keyring synchronously.
    pub async fn open(data_dir: &Path, secrets: &Secrets) -> Result<Self, PayError> {
        Self::open_with(data_dir, secrets, WalletOptions::default()).await
    }

    pub async fn open_with(data_dir: &Path, secrets: &Secrets, options: WalletOptions) -> Result<Self, PayError> {
        // The wallet's files hold ecash: the dir is the owner's only, and the database is 0600 before cdk opens it.
        crate::paths::ensure_private_dir(data_dir)
            .map_err(|e| PayError::Store(format!("{}: {e}", data_dir.display())))?;
        let db_path = data_dir.join("wallet.sqlite3");
        let existed = db_path.exists();
        let seed = load_or_create_seed(secrets, existed)?;
        let wallet = Self::open_seeded(data_dir, seed, options).await?;
        // A restore that died after the words reached the keyring is finished here, before anything else runs.
        wallet.finish_restore().await?;
        Ok(wallet)
    }

    /// Opens the wallet in `data_dir` with `seed` (the keyring's, or words being restored).
    pub(super) async fn open_seeded(
        data_dir: &Path,
        mut seed: [u8; 64],
        options: WalletOptions,
    ) -> Result<Self, PayError> {
        crate::paths::ensure_private_dir(data_dir)
            .map_err(|e| PayError::Store(format!("{}: {e}", data_dir.display())))?;
        let db_path = data_dir.join("wallet.sqlite3");
        crate::paths::ensure_private_file(&db_path)
            .map_err(|e| PayError::Store(format!("{}: {e}", db_path.display())))?;
        let localstore = Arc::new(
            cdk_sqlite::wallet::WalletSqliteDatabase::new(db_path.clone())
                .await
                .map_err(|e| PayError::Store(format!("{}: {e}", db_path.display())))?,
        );
        let mut builder = WalletRepositoryBuilder::new().localstore(localstore.clone()).seed(seed);
        seed.zeroize();
        // The repository's own limiter would pace only cdk's own client, which is not used.
        builder = builder.with_rate_limiting_disabled();
        let door = MintDoor::new(options.guard.clone(), options.tor_socks, options.max_reply_bytes)
            .map_err(|e| PayError::Store(e.to_string()))?;
        door.trust(&options.owner_mints);
        let pacing = RateLimiterManager::new(RateLimitConfig::default(), Some(localstore));
        pacing.set_enabled(options.pace_requests);
        let repo = builder.build().await.map_err(|e| PayError::Store(e.to_string()))?;
        let ledger = Ledger::open(&data_dir.join("ledger.sqlite3"))?;
        let wallet = Self { repo, ledger, data_dir: data_dir.to_owned(), door: Arc::new(door), pacing };
        // The repository opened the stored mints' wallets with cdk's own HTTP client: give each one ours before
        // anything talks to a mint. A stored mint is one the owner funded or received at (a provider's change
        // from any other mint is set aside, never received), so it counts as the owner's own.
        for existing in wallet.repo.get_wallets().await {
            wallet.door.trust(&[existing.mint_url.to_string()]);
            let config = wallet.mint_config(&existing.mint_url);
            wallet
                .repo
                .set_mint_config(existing.mint_url.clone(), existing.unit.clone(), config)
                .await
                .map_err(|e| PayError::Store(e.to_string()))?;
        }
        Ok(wallet)
    }

    /// cdk's settings for one mint's wallet: its requests go through AIUI's door.
    fn mint_config(&self, mint_url: &MintUrl) -> WalletConfig {
        let transport = RateLimitedTransport::with_manager(MintTransport(self.door.clone()), self.pacing.clone());
        let client: MintClient = CdkHttpClient::with_transport(mint_url.clone(), transport, None);
        WalletConfig::new().with_mint_connector(Arc::new(client))
    }

    /// Marks mints as the owner's own (from the allowance settings): they may be on the LAN or loopback.
    pub fn trust_owner_mints(&self, mints: &[String]) {
        self.door.trust(mints);
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub(crate) fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The cdk wallet for one mint (sat unit), created on first use without a network call.
    pub(crate) async fn mint_wallet(&self, mint: &str) -> Result<cdk::Wallet, PayError> {
        let url = MintUrl::from_str(mint).map_err(|e| PayError::InvalidMint(format!("{mint}: {e}")))?;
        let config = self.mint_config(&url);
        self.repo.get_or_create_wallet(url, CurrencyUnit::Sat, Some(config)).await.map_err(|e| classify(mint, e))
    }

    /// Whether `mint` answers, with one `GET /v1/info` through the same door as every other mint request.
    pub(crate) async fn mint_answers(&self, mint: &str) -> Result<(), PayError> {
        use cdk::wallet::MintConnector;
        let url = MintUrl::from_str(mint).map_err(|e| PayError::InvalidMint(format!("{mint}: {e}")))?;
        let transport = RateLimitedTransport::with_manager(MintTransport(self.door.clone()), self.pacing.clone());
        let client: MintClient = CdkHttpClient::with_transport(url, transport, None);
        client.get_mint_info().await.map(|_| ()).map_err(|e| classify(mint, e))
    }

    /// NUT-07 states of the proofs with Y values `ys` at `mint`, in their order, asked through the door. A Y the
    /// mint leaves out of its answer counts as pending: never as unspent on the mint's silence.
    pub(crate) async fn check_states_at(
        &self,
        mint: &str,
        ys: Vec<cdk::nuts::PublicKey>,
    ) -> Result<Vec<State>, PayError> {
        use cdk::wallet::MintConnector;
        let url = MintUrl::from_str(mint).map_err(|e| PayError::InvalidMint(format!("{mint}: {e}")))?;
        let transport = RateLimitedTransport::with_manager(MintTransport(self.door.clone()), self.pacing.clone());
        let client: MintClient = CdkHttpClient::with_transport(url, transport, None);
        let asked = ys.clone();
        let answer =
            client.post_check_state(cdk::nuts::CheckStateRequest { ys }).await.map_err(|e| classify(mint, e))?;
        Ok(asked
            .iter()
            .map(|y| answer.states.iter().find(|s| s.y == *y).map(|s| s.state).unwrap_or(State::Pending))
            .collect())
    }

    pub(crate) async fn cdk_wallets(&self) -> Vec<cdk::Wallet> {
        self.repo.get_wallets().await
    }

    /// Balance per mint (unspent proofs only; tokens in flight are not in it).
    pub async fn balances(&self) -> Result<Vec<(String, u64)>, PayError> {
        let balances = self.repo.get_balances().await.map_err(|e| PayError::Store(e.to_string()))?;
        Ok(balances
            .into_iter()
            .filter(|(key, _)| key.unit == CurrencyUnit::Sat)
            .map(|(key, amount)| (key.mint_url.to_string(), amount.to_u64()))
            .collect())
    }

    pub async fn total_balance(&self) -> Result<u64, PayError> {
        Ok(self.balances().await?.iter().map(|(_, sats)| sats).sum())
    }

    /// Receives a pasted token from any mint into the wallet; the credited sats (after the mint's fee) are
    /// recorded as received.
    pub async fn receive(&self, token: &str) -> Result<u64, PayError> {
        let (mint, credited, _face) = self.receive_inner(token).await?;
        self.ledger.record_inflow("receive", &mint, credited)?;
        tracing::info!(mint = %mint, sats = credited, "wallet: received a token");
        Ok(credited)
    }

    /// Receives change or a refund: value coming back from a payment, not new money. Returns (credited, face).
    pub(crate) async fn receive_returned(&self, token: &str) -> Result<(u64, u64), PayError> {
        let (_mint, credited, face) = self.receive_inner(token).await?;
        Ok((credited, face))
    }

    async fn receive_inner(&self, token: &str) -> Result<(String, u64, u64), PayError> {
        let parsed = Token::from_str(token.trim()).map_err(|e| PayError::InvalidToken(e.to_string()))?;
        if parsed.unit().unwrap_or_default() != CurrencyUnit::Sat {
            return Err(PayError::InvalidToken("only sat tokens are accepted".into()));
        }
        let mint = parsed.mint_url().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_string();
        let face = parsed.value().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_u64();
        let wallet = self.mint_wallet(&mint).await?;
        let credited =
            wallet.receive(token.trim(), ReceiveOptions::default()).await.map_err(|e| classify(&mint, e))?.to_u64();
        Ok((mint, credited, face))
    }

    /// Asks `mint` for a Lightning invoice worth `amount_sats`; pay it, then call [`Wallet::wait_minted`].
    pub async fn mint_invoice(&self, mint: &str, amount_sats: u64) -> Result<Invoice, PayError> {
        let wallet = self.mint_wallet(mint).await?;
        let quote = wallet
            .mint_quote(PaymentMethod::BOLT11, Some(amount_sats.into()), None, None)
            .await
            .map_err(|e| classify(mint, e))?;
        Ok(Invoice { bolt11: quote.request, quote_id: quote.id, mint: wallet.mint_url.to_string(), amount_sats })
    }

    /// Waits up to `timeout` for the invoice of `quote_id` to be paid ([`PayError::Timeout`] if it is not), then
    /// mints the ecash and records it as received. Only the wait for the payment is bounded here: once the invoice
    /// is paid, minting is never cut off half-way by a timeout of ours (the door bounds each request to the mint).
    pub async fn wait_minted(&self, mint: &str, quote_id: &str, timeout: Duration) -> Result<u64, PayError> {
        use cdk::nuts::MintQuoteState;
        let wallet = self.mint_wallet(mint).await?;
        let quote = wallet.check_mint_quote_status(quote_id).await.map_err(|e| classify(mint, e))?;
        let amount = quote.amount.map(|a| a.to_u64()).unwrap_or(0);
        if quote.state == MintQuoteState::Unpaid {
            wallet.wait_for_payment(&quote, timeout).await.map_err(|e| classify(mint, e))?;
        }
        if quote.state != MintQuoteState::Issued {
            match wallet.mint(quote_id, SplitTarget::default(), None).await {
                Ok(_) => {}
                // Minted meanwhile by another process's reconcile: recorded below all the same.
                Err(cdk::Error::IssuedQuote) => {}
                Err(e) => return Err(classify(mint, e)),
            }
        }
        crate::faults::hit("after-minted");
        self.record_minted().await?;
        tracing::info!(mint = %wallet.mint_url, sats = amount, "wallet: minted");
        Ok(amount)
    }

    /// Mints every paid invoice that was not minted yet (an earlier `wait_minted` that timed out), and records
    /// every mint the ledger does not hold yet. Returns the sats recorded now.
    pub async fn mint_paid_invoices(&self) -> Result<u64, PayError> {
        for wallet in self.repo.get_wallets().await {
            let mint = wallet.mint_url.to_string();
            wallet.mint_unissued_quotes().await.map_err(|e| classify(&mint, e))?;
        }
        self.record_minted().await
    }

    /// Records, by quote, every mint cdk completed that the ledger does not hold yet: a process that died between
    /// minting and recording (or a `wait_minted` whose caller gave up) leaves the ecash in the wallet, and this
    /// counts it as received, once. Returns the sats recorded now.
    pub(crate) async fn record_minted(&self) -> Result<u64, PayError> {
        use cdk_common::wallet::{TransactionDirection, TransactionStatus};
        let since = self.ledger.quote_inflows_since_s()?;
        let mut recorded = 0;
        for wallet in self.repo.get_wallets().await {
            let mint = wallet.mint_url.to_string();
            let incoming = wallet
                .list_transactions(Some(TransactionDirection::Incoming))
                .await
                .map_err(|e| PayError::Store(e.to_string()))?;
            for tx in incoming.iter().filter(|tx| tx.status == TransactionStatus::Completed && tx.timestamp >= since) {
                let Some(quote) = &tx.quote_id else { continue };
                if self.ledger.record_minted(quote, &mint, tx.amount.to_u64())? {
                    recorded += tx.amount.to_u64();
                }
            }
        }
        Ok(recorded)
    }

    /// NUT-07: asks the token's mint whether its proofs are spent.
    pub async fn token_state(&self, token: &Secret<String>) -> Result<TokenState, PayError> {
        let (wallet, proofs) = self.token_proofs(token.expose()).await?;
        let mint = wallet.mint_url.to_string();
        let states = wallet.check_proofs_spent(proofs).await.map_err(|e| classify(&mint, e))?;
        Ok(if states.iter().all(|s| s.state == State::Spent) {
            TokenState::Spent
        } else if states.iter().any(|s| s.state == State::Spent || s.state == State::Pending) {
            TokenState::Pending
        } else {
            TokenState::Unspent
        })
    }

    /// The proofs of `token`, read with the keysets of its mint's wallet (cached by cdk), and that wallet.
    pub(crate) async fn token_proofs(&self, token: &str) -> Result<(cdk::Wallet, cdk::nuts::Proofs), PayError> {
        let parsed = Token::from_str(token.trim()).map_err(|e| PayError::InvalidToken(e.to_string()))?;
        let mint = parsed.mint_url().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_string();
        let wallet = self.mint_wallet(&mint).await?;
        let proofs = proofs_at(&wallet, &parsed).await?;
        Ok((wallet, proofs))
    }

    /// A name for a token's proofs that no other token has: SHA-256 over their sorted Y values (public, derived
    /// from the secrets by hashing, so it reveals nothing that spends them). The ledger keys receipts on it.
    pub(crate) async fn proofs_key(&self, token: &str) -> Result<String, PayError> {
        use cdk::nuts::ProofsMethods;
        use sha2::Digest;
        let (_, proofs) = self.token_proofs(token).await?;
        let mut ys: Vec<String> =
            proofs.ys().map_err(|e| PayError::InvalidToken(e.to_string()))?.iter().map(|y| y.to_hex()).collect();
        ys.sort();
        Ok(hex::encode(sha2::Sha256::digest(ys.join(",").as_bytes())))
    }

    /// Whether this wallet itself already received `token`: cdk records each receive with the Y values of the
    /// proofs it took in. `Some(credited)` when such a receive completed, `None` when there is none, and
    /// [`PayError::Unfinished`] while one was begun and not finished (cdk's recovery ends it).
    pub(crate) async fn earlier_receipt(&self, token: &str) -> Result<Option<u64>, PayError> {
        // A receive takes in exactly the token's proofs (a mint's issue has a quote, and other proofs).
        let found = self.earlier_receive_of(token, |taken, all| taken == all).await?;
        Ok(found.map(|(credited, _)| credited))
    }

    /// Whether this wallet already took back part of `token`: a receive of some of its proofs and not all (the
    /// unspent rest of a token a provider redeemed in part, review F1). `Some((face, credited))` of that part.
    pub(crate) async fn earlier_take_back(&self, token: &str) -> Result<Option<(u64, u64)>, PayError> {
        let found = self.earlier_receive_of(token, |taken, all| taken < all).await?;
        Ok(found.map(|(credited, fee)| (credited + fee, credited)))
    }

    /// cdk's completed receive of proofs of `token` only (never of a proof outside it), when `count_fits(taken,
    /// all)` holds for how many it took of how many the token has: `Some((credited, fee))`.
    async fn earlier_receive_of(
        &self,
        token: &str,
        count_fits: impl Fn(usize, usize) -> bool,
    ) -> Result<Option<(u64, u64)>, PayError> {
        use cdk::nuts::ProofsMethods;
        use cdk_common::wallet::{TransactionDirection, TransactionStatus};
        let (wallet, proofs) = self.token_proofs(token).await?;
        let ys = proofs.ys().map_err(|e| PayError::InvalidToken(e.to_string()))?;
        let incoming = wallet
            .list_transactions(Some(TransactionDirection::Incoming))
            .await
            .map_err(|e| PayError::Store(e.to_string()))?;
        let receipts: Vec<_> = incoming
            .iter()
            .filter(|tx| {
                tx.quote_id.is_none()
                    && !tx.ys.is_empty()
                    && count_fits(tx.ys.len(), ys.len())
                    && tx.ys.iter().all(|y| ys.contains(y))
            })
            .collect();
        if let Some(done) = receipts.iter().find(|tx| tx.status == TransactionStatus::Completed) {
            return Ok(Some((done.amount.to_u64(), done.fee.to_u64())));
        }
        if receipts.iter().any(|tx| tx.status == TransactionStatus::Pending) {
            return Err(PayError::Unfinished(Unfinished::Receive { mint: wallet.mint_url.to_string() }));
        }
        Ok(None)
    }

    /// Whether cdk's send `operation_id` at `mint` was taken back (revoked) by this wallet: cdk marks a revoked
    /// send's record failed. [`PayError::Unfinished`] while a revoke is under way.
    pub(crate) async fn revoked_send(&self, mint: &str, operation_id: uuid::Uuid) -> Result<bool, PayError> {
        use cdk_common::wallet::{SendSagaState, TransactionDirection, TransactionStatus, WalletSagaState};
        let wallet = self.mint_wallet(mint).await?;
        if let Ok(Some(saga)) = wallet.localstore.get_saga(&operation_id).await
            && saga.state == WalletSagaState::Send(SendSagaState::RollingBack)
        {
            return Err(PayError::Unfinished(Unfinished::TakeBack { mint: mint.to_owned() }));
        }
        let outgoing = wallet
            .list_transactions(Some(TransactionDirection::Outgoing))
            .await
            .map_err(|e| PayError::Store(e.to_string()))?;
        Ok(outgoing.iter().any(|tx| tx.saga_id == Some(operation_id) && tx.status == TransactionStatus::Failed))
    }

    /// Takes back the proofs of `token` that the mint says are still unspent (the rest were redeemed or are
    /// pending). Returns their face value and what the mint credited for them: nothing when they are worth no more
    /// than the mint's fee to take them in (a swap would have no output), and then they are let go from the
    /// wallet's store so that none stays reserved for ever; they stay with the token (found by the explorer's long
    /// run, seed 250).
    pub(crate) async fn take_back_unspent(&self, token: &str) -> Result<(u64, u64), PayError> {
        use cdk::nuts::ProofsMethods;
        let (wallet, proofs) = self.token_proofs(token).await?;
        let mint = wallet.mint_url.to_string();
        let states = wallet.check_proofs_spent(proofs.clone()).await.map_err(|e| classify(&mint, e))?;
        let ys = proofs.ys().map_err(|e| PayError::InvalidToken(e.to_string()))?;
        let unspent: cdk::nuts::Proofs = proofs
            .into_iter()
            .zip(ys)
            .filter(|(_, y)| states.iter().any(|s| s.y == *y && s.state == State::Unspent))
            .map(|(proof, _)| proof)
            .collect();
        if unspent.is_empty() {
            return Ok((0, 0));
        }
        let face = unspent.total_amount().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_u64();
        let fee = wallet.get_proofs_fee(&unspent).await.map_err(|e| classify(&mint, e))?.total.to_u64();
        if face <= fee {
            let ys = unspent.ys().map_err(|e| PayError::InvalidToken(e.to_string()))?;
            wallet.localstore.update_proofs(Vec::new(), ys).await.map_err(|e| PayError::Store(e.to_string()))?;
            tracing::info!(mint = %mint, sats = face, fee, "pay: the unclaimed rest of a token is worth no more than its fee");
            return Ok((face, 0));
        }
        let credited = wallet
            .receive_proofs(unspent, ReceiveOptions::default(), None, None)
            .await
            .map_err(|e| classify(&mint, e))?
            .to_u64();
        Ok((face, credited))
    }

    /// What the mint keeps (its input fee) to take in `token`'s proofs.
    pub(crate) async fn input_fee(&self, token: &str) -> Result<u64, PayError> {
        let (wallet, proofs) = self.token_proofs(token).await?;
        let mint = wallet.mint_url.to_string();
        Ok(wallet.get_proofs_fee(&proofs).await.map_err(|e| classify(&mint, e))?.total.to_u64())
    }
}

/// The proofs of `token`, read with the keysets of `wallet`, a cdk wallet at the token's mint (a v4 token names
/// keysets by a short id that only the mint's keysets resolve). A keyset the mint made after the cache was filled
/// (it lives an hour) is asked for once before the token is called unreadable: change minted on a keyset of the
/// last hour is change, not a token to set aside (review F13).
pub async fn proofs_at(wallet: &cdk::Wallet, token: &Token) -> Result<cdk::nuts::Proofs, PayError> {
    use cdk_common::wallet::KeysetLoadPolicy;
    match proofs_with(wallet, token, KeysetLoadPolicy::default()).await {
        Err(PayError::InvalidToken(_)) => proofs_with(wallet, token, KeysetLoadPolicy::Refresh).await,
        read => read,
    }
}

async fn proofs_with(
    wallet: &cdk::Wallet,
    token: &Token,
    policy: cdk_common::wallet::KeysetLoadPolicy,
) -> Result<cdk::nuts::Proofs, PayError> {
    let mint = wallet.mint_url.to_string();
    let keysets = wallet.keysets(policy).await.map_err(|e| classify(&mint, e))?;
    let infos: Vec<cdk::nuts::KeySetInfo> = keysets
        .into_iter()
        .map(|ks| cdk::nuts::KeySetInfo {
            id: ks.id,
            unit: ks.unit,
            active: ks.active.unwrap_or(true),
            input_fee_ppk: ks.input_fee_ppk,
            final_expiry: ks.final_expiry,
        })
        .collect();
    token.proofs(&infos).map_err(|e| PayError::InvalidToken(e.to_string()))
}

/// Reads the seed words from the keyring, or makes and stores new ones for a wallet that does not exist yet.
pub(super) fn load_or_create_seed(secrets: &Secrets, wallet_exists: bool) -> Result<[u8; 64], PayError> {
    let words = match secrets.get(SecretName::WalletSeed).map_err(|e| PayError::Keyring(e.to_string()))? {
        Some(words) => words,
        None if wallet_exists => return Err(PayError::SeedMissing),
        None => {
            let mut entropy = rand::random::<[u8; 32]>();
            let mnemonic = bip39::Mnemonic::from_entropy(&entropy).map_err(|e| PayError::Seed(e.to_string()));
            entropy.zeroize();
            let words = Secret::new(mnemonic?.to_string());
            secrets.set(SecretName::WalletSeed, &words).map_err(|e| PayError::Keyring(e.to_string()))?;
            words
        }
    };
    let mnemonic = bip39::Mnemonic::parse(words.expose().as_str())
        .map_err(|_| PayError::Seed("the stored wallet seed is not a valid BIP-39 phrase".into()))?;
    Ok(mnemonic.to_seed(""))
}
