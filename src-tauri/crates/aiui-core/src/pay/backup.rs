//! The wallet's backup and restore: its BIP-39 words (NUT-13: every secret the wallet makes is derived from them)
//! with the list of mints it used, and a restore from both (NUT-09 `/v1/restore`, NUT-07 for the proofs' states)
//! into a data dir that holds no ecash. The words are shown only by trusted surfaces and never logged.

use std::path::{Path, PathBuf};

use cdk::nuts::{CurrencyUnit, State};
use cdk_common::database::WalletDatabase;

use super::ledger::Ledger;
use super::wallet::WalletOptions;
use super::{PayError, Payments, Unfinished, Wallet};
use crate::Secret;
use crate::budget::normalize_mint_url;
use crate::secrets::{SecretName, Secrets};

/// From this balance on, the settings remind the owner to back the wallet up until they confirm they did.
pub const BACKUP_REMINDER_SATS: u64 = 1_000;

const BACKUP_CONFIRMED: &str = "backup_confirmed_ms";
/// Set while a restore runs (its start, ms): see [`Wallet::restore`] and [`Wallet::finish_restore`].
const RESTORE_UNFINISHED: &str = "restore_unfinished_ms";
/// Set once every listed mint gave its proofs: only then may a restore be finished rather than started over.
const RESTORE_FETCHED: &str = "restore_fetched_ms";
/// The meta keys of the proofs a restore found pending at their mint (then the proof's Y), each holding its amount.
pub(super) const RESTORED_PENDING: &str = "restored_pending:";

/// What the owner writes down: the words, and the mints (restore asks each of them for its proofs).
#[derive(Debug, Clone)]
pub struct WalletBackup {
    pub words: Secret<String>,
    pub mints: Vec<String>,
}

impl WalletBackup {
    /// The backup as one text, for a QR code or a file: the words on the first line, one mint per line after.
    pub fn as_text(&self) -> Secret<String> {
        let mut text = self.words.expose().clone();
        for mint in &self.mints {
            text.push('\n');
            text.push_str(mint);
        }
        Secret::new(text)
    }

    /// Reads a backup back: [`WalletBackup::as_text`], or what `aiui-cli wallet backup` printed (numbered words,
    /// then the mints), or the words typed on one line. Lines that are neither words nor mint URLs are skipped.
    pub fn parse(text: &str) -> Result<Self, PayError> {
        let is_word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase());
        let mut words = Vec::new();
        let mut mints = Vec::new();
        for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
            let lower = line.to_lowercase();
            let tokens: Vec<&str> = lower.split_whitespace().collect();
            if line.starts_with("http://") || line.starts_with("https://") {
                mints.push(line.to_owned());
            } else if let [number, word] = tokens.as_slice()
                && number.strip_suffix('.').is_some_and(|n| n.parse::<u8>().is_ok())
                && is_word(word)
            {
                words.push((*word).to_owned());
            } else if tokens.len() >= 12 && tokens.iter().all(|w| is_word(w)) {
                words.extend(tokens.iter().map(|w| (*w).to_owned()));
            }
        }
        let words = Secret::new(words.join(" "));
        check_words(&words)?;
        Ok(Self { words, mints })
    }
}

/// What a restore found at one mint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoredMint {
    pub mint: String,
    /// Back in the wallet.
    pub unspent_sats: u64,
    /// Being spent at the mint (a withdrawal under way when the old wallet was lost): kept, settled by the mint.
    pub pending_sats: u64,
    /// Found but spent long ago: nothing to take back.
    pub spent_sats: u64,
}

fn check_words(words: &Secret<String>) -> Result<bip39::Mnemonic, PayError> {
    let mnemonic = bip39::Mnemonic::parse_normalized(words.expose().as_str()).map_err(|_| {
        PayError::Seed(
            "those are not the wallet's backup words (12 or 24 BIP-39 words, with a valid checksum); check each word"
                .into(),
        )
    })?;
    Ok(mnemonic)
}

impl Wallet {
    /// The words (from the keyring) and every mint the wallet has used. For the owner's trusted surfaces only.
    pub async fn backup(&self, secrets: &Secrets) -> Result<WalletBackup, PayError> {
        let words = secrets.get(SecretName::WalletSeed).map_err(|e| PayError::Keyring(e.to_string()))?;
        let words = words.ok_or(PayError::SeedMissing)?;
        Ok(WalletBackup { words, mints: self.used_mints().await? })
    }

    /// Every mint the wallet holds a record of (funded, received or paid at), sorted.
    pub async fn used_mints(&self) -> Result<Vec<String>, PayError> {
        let mut mints: Vec<String> = self.cdk_wallets().await.iter().map(|w| w.mint_url.to_string()).collect();
        mints.sort();
        mints.dedup();
        Ok(mints)
    }

    /// Restores the wallet of `words` into `data_dir` from each of `mints`, and only then stores the words in the
    /// keyring. Refused when the data dir's wallet holds any proof (it is never overwritten), or when the keyring
    /// holds other words and no empty wallet here explains them (they may guard sats elsewhere), unless
    /// `replace_other_words`. If any mint fails, nothing is kept and the keyring is unchanged: try again.
    pub async fn restore(
        data_dir: &Path,
        secrets: &Secrets,
        words: &Secret<String>,
        mints: &[String],
        options: WalletOptions,
        replace_other_words: bool,
    ) -> Result<(Wallet, Vec<RestoredMint>), PayError> {
        let mnemonic = check_words(words)?;
        let words = Secret::new(mnemonic.to_string());
        let mut wanted: Vec<String> = mints.iter().filter_map(|m| normalize_mint_url(m)).collect();
        wanted.sort();
        wanted.dedup();
        if wanted.is_empty() {
            return Err(PayError::InvalidMint(
                "no mint to restore from: give the mints listed with the backup words".into(),
            ));
        }
        crate::paths::ensure_private_dir(data_dir)
            .map_err(|e| PayError::Store(format!("{}: {e}", data_dir.display())))?;
        let db_path = data_dir.join("wallet.sqlite3");
        let ledger_path = data_dir.join("ledger.sqlite3");
        let mut ledger = Ledger::open(&ledger_path)?;
        // A restore that died before every mint gave its proofs, or before the words reached the keyring, is done
        // again from the start (and what it had recorded is taken back): its proofs are the mints' to give again.
        // With the same words already in the keyring, a restore cut off between two mints would otherwise be
        // taken as complete (review F5).
        if let Some(unfinished) = ledger.meta(RESTORE_UNFINISHED)?
            && (ledger.meta(RESTORE_FETCHED)?.is_none()
                || secrets.get(SecretName::WalletSeed).map_err(|e| PayError::Keyring(e.to_string()))?.is_none())
        {
            tracing::info!("wallet: an earlier restore did not finish; starting it again");
            remove_wallet_files(&db_path);
            ledger.forget_restore(unfinished)?;
            ledger.clear_meta(RESTORE_UNFINISHED)?;
            ledger.clear_meta(RESTORE_FETCHED)?;
        }
        let empty_wallet_here = db_path.exists();
        if empty_wallet_here && holds_proofs(&db_path).await? {
            return Err(PayError::Store(format!(
                "the wallet in {} holds ecash, and a restore never overwrites a wallet; restore into another data dir \
                 (--data-dir), or withdraw and move that wallet aside first",
                data_dir.display()
            )));
        }
        let stored = secrets.get(SecretName::WalletSeed).map_err(|e| PayError::Keyring(e.to_string()))?;
        if let Some(stored) = &stored
            && stored.expose() != words.expose()
            && !empty_wallet_here
            && !replace_other_words
        {
            return Err(PayError::Seed(
                "the keyring already holds other wallet words, and no wallet here uses them: they may guard sats \
                 elsewhere. Write them down first (aiui-cli wallet backup), then restore with --replace-other-words"
                    .into(),
            ));
        }
        let aside = empty_wallet_here.then(|| set_aside(&db_path)).transpose()?;
        // A ledger that counted an earlier life of the wallet (the same sats minted or received, payments open) would
        // count the restored balance a second time (review F6): it is kept aside, and the restore starts a new one.
        if ledger.has_history()? {
            drop(ledger);
            let kept = set_aside_ledger(&ledger_path)?;
            tracing::warn!(kept = %kept.display(), "wallet: the ledger's history was kept aside; the restore starts a new ledger");
            ledger = Ledger::open(&ledger_path)?;
        }
        let started = crate::now_ms();
        ledger.set_meta(RESTORE_UNFINISHED, started)?;
        drop(ledger);
        let mut options = options;
        options.owner_mints.extend(wanted.iter().cloned());
        let restored = async {
            let wallet = Wallet::open_seeded(data_dir, mnemonic.to_seed(""), options).await?;
            let mut found = Vec::new();
            for mint in &wanted {
                let cdk_wallet = wallet.mint_wallet(mint).await?;
                let got = cdk_wallet.restore().await.map_err(|e| super::classify(mint, e))?;
                if got.pending.to_u64() > 0 {
                    wallet.remember_restored_pending(&cdk_wallet).await?;
                }
                found.push(RestoredMint {
                    mint: cdk_wallet.mint_url.to_string(),
                    unspent_sats: got.unspent.to_u64(),
                    pending_sats: got.pending.to_u64(),
                    spent_sats: got.spent.to_u64(),
                });
                crate::faults::hit("after-restore-mint");
            }
            Ok::<_, PayError>((wallet, found))
        }
        .await;
        let (wallet, found) = match restored {
            Ok(done) => done,
            Err(e) => {
                remove_wallet_files(&db_path);
                let _ = Ledger::open(&data_dir.join("ledger.sqlite3")).and_then(|l| l.clear_meta(RESTORE_UNFINISHED));
                if let Some(aside) = &aside {
                    let _ = std::fs::rename(aside, &db_path);
                }
                return Err(e);
            }
        };
        crate::faults::hit("after-restore-fetched");
        Ledger::open(&ledger_path)?.set_meta(RESTORE_FETCHED, crate::now_ms())?;
        if let Err(e) = secrets.set(SecretName::WalletSeed, &words) {
            drop(wallet);
            remove_wallet_files(&db_path);
            let _ = wallet_ledger_clear(data_dir);
            return Err(PayError::Keyring(format!("{e}; the restore was not kept, try again")));
        }
        crate::faults::hit("after-restore-keyring");
        wallet.finish_restore().await?;
        tracing::info!(mints = found.len(), "wallet: restored from backup words");
        Ok((wallet, found))
    }

    /// Marks the proofs a restore at `cdk_wallet`'s mint found pending (the wallet is new: every pending proof in it
    /// came from the restore), so that reconcile settles exactly those once the mint decides them (review F16).
    async fn remember_restored_pending(&self, cdk_wallet: &cdk::Wallet) -> Result<(), PayError> {
        let pending = cdk_wallet
            .localstore
            .get_proofs(Some(cdk_wallet.mint_url.clone()), None, Some(vec![State::Pending]), None)
            .await
            .map_err(|e| PayError::Store(e.to_string()))?;
        for info in pending {
            let amount = i64::try_from(info.proof.amount.to_u64()).unwrap_or(i64::MAX);
            self.ledger().set_meta(&format!("{RESTORED_PENDING}{}", info.y.to_hex()), amount)?;
        }
        Ok(())
    }

    /// The balance a restore found was not bought or received here: it enters the ledger once per mint, as
    /// restored, keyed by the restore's start, so that a process that dies half-way and the next opening (which
    /// finishes it) never count it twice. Then the restore is done.
    pub(super) async fn finish_restore(&self) -> Result<(), PayError> {
        let Some(started) = self.ledger().meta(RESTORE_UNFINISHED)? else { return Ok(()) };
        if self.ledger().meta(RESTORE_FETCHED)?.is_none() {
            // Not every mint gave its proofs: what is here is part of the wallet, and only a restore finishes it.
            return Err(PayError::Unfinished(Unfinished::Restore));
        }
        for (mint, balance) in self.balances().await? {
            if balance > 0 {
                self.ledger().record_restored(&format!("restore:{started}:{mint}"), &mint, balance)?;
            }
            crate::faults::hit("after-restore-recorded");
        }
        self.ledger().clear_meta(RESTORE_FETCHED)?;
        self.ledger().clear_meta(RESTORE_UNFINISHED)
    }
}

fn wallet_ledger_clear(data_dir: &Path) -> Result<(), PayError> {
    let ledger = Ledger::open(&data_dir.join("ledger.sqlite3"))?;
    ledger.clear_meta(RESTORE_FETCHED)?;
    ledger.clear_meta(RESTORE_UNFINISHED)
}

/// Whether cdk's store at `path` holds any proof, in any state.
async fn holds_proofs(path: &Path) -> Result<bool, PayError> {
    let store = cdk_sqlite::wallet::WalletSqliteDatabase::new(path.to_path_buf())
        .await
        .map_err(|e| PayError::Store(format!("{}: {e}", path.display())))?;
    let states = vec![State::Unspent, State::Pending, State::Reserved, State::PendingSpent];
    let proofs = store
        .get_proofs(None, Some(CurrencyUnit::Sat), Some(states), None)
        .await
        .map_err(|e| PayError::Store(e.to_string()))?;
    Ok(!proofs.is_empty())
}

/// Moves an empty wallet's files aside (kept, never deleted) so that the restore starts a store of its own.
fn set_aside(db_path: &Path) -> Result<PathBuf, PayError> {
    let aside = db_path.with_extension(format!("sqlite3.empty-before-restore-{}", crate::now_ms()));
    std::fs::rename(db_path, &aside).map_err(|e| PayError::Store(format!("{}: {e}", db_path.display())))?;
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db_path.display()));
    }
    Ok(aside)
}

/// Moves a ledger with history aside (kept, never deleted), with its -wal and -shm files.
fn set_aside_ledger(path: &Path) -> Result<PathBuf, PayError> {
    let aside = path.with_extension(format!("sqlite3.before-restore-{}", crate::now_ms()));
    std::fs::rename(path, &aside).map_err(|e| PayError::Store(format!("{}: {e}", path.display())))?;
    for suffix in ["-wal", "-shm"] {
        let from = format!("{}{suffix}", path.display());
        if Path::new(&from).exists() {
            let _ = std::fs::rename(&from, format!("{}{suffix}", aside.display()));
        }
    }
    Ok(aside)
}

fn remove_wallet_files(db_path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db_path.display()));
    }
}

impl Payments {
    /// The owner said they wrote the words and the mints down.
    pub fn confirm_backup(&self) -> Result<(), PayError> {
        self.wallet.ledger().set_meta(BACKUP_CONFIRMED, crate::now_ms())
    }

    pub fn backup_confirmed(&self) -> bool {
        self.wallet.ledger().meta(BACKUP_CONFIRMED).ok().flatten().is_some()
    }

    /// A reminder for the settings while the wallet holds [`BACKUP_REMINDER_SATS`] or more and no backup was
    /// confirmed.
    pub async fn backup_reminder(&self) -> Option<String> {
        if self.backup_confirmed() {
            return None;
        }
        let total = self.wallet.total_balance().await.ok()?;
        (total >= BACKUP_REMINDER_SATS).then(|| {
            format!(
                "The wallet holds {total} sats and has no confirmed backup: if this computer or its keyring is lost, \
                 so are they. Write down the backup words and the mints (Wallet → Backup)."
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backup_reads_back_as_text_as_printed_and_as_typed() {
        let words = bip39::Mnemonic::from_entropy(&[7u8; 16]).unwrap().to_string();
        let backup = WalletBackup { words: Secret::new(words.clone()), mints: vec!["https://mint.example".into()] };
        let printed = format!(
            "The wallet's backup words (keep them offline):\n\n{}\nThe mints it has used:\n  https://mint.example\n",
            words.split(' ').enumerate().map(|(n, w)| format!("  {:>2}. {w}\n", n + 1)).collect::<String>()
        );
        for text in [backup.as_text().expose().clone(), printed, format!("  {}  \n", words.to_uppercase())] {
            let read = WalletBackup::parse(&text).unwrap();
            assert_eq!(read.words.expose(), &words, "{text}");
        }
        assert_eq!(WalletBackup::parse(backup.as_text().expose()).unwrap().mints, backup.mints);
        let one_wrong = words.replacen(words.split(' ').next().unwrap(), "zebra", 1);
        assert!(WalletBackup::parse(&one_wrong).is_err(), "the checksum catches a wrong word");
        assert!(WalletBackup::parse("1. abandon\n2. ability").is_err(), "too few words");
    }
}
