//! The test mint's Lightning backend: cdk's fake backend (every invoice is paid at once), with hold invoices a
//! test settles when it chooses (paid or failed), and amountless invoices, which cdk's fake backend can pay but does
//! not advertise.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use cdk::Amount;
use cdk::cdk_payment::{
    self, CreateIncomingPaymentResponse, Event, IncomingPaymentOptions, MakePaymentResponse, MintPayment,
    OutgoingPaymentOptions, PaymentIdentifier, PaymentQuoteResponse, SettingsResponse, WaitPaymentResponse,
};
use cdk::nuts::{CurrencyUnit, MeltQuoteState};
use cdk_fake_wallet::FakeWallet;
use futures_util::Stream;

/// Hold invoices by payment hash: their amount and where their payment stands.
#[derive(Clone, Default)]
pub struct Holds(Arc<Mutex<HashMap<String, (u64, MeltQuoteState)>>>);

impl Holds {
    /// A payable invoice for `sats` that the mint, once asked to pay it, keeps pending until [`Holds::settle`].
    pub fn invoice(&self, sats: u64) -> String {
        let invoice = cdk_fake_wallet::create_fake_invoice(sats * 1000, "hold".into());
        self.lock().insert(invoice.payment_hash().to_string(), (sats, MeltQuoteState::Pending));
        invoice.to_string()
    }

    /// The held payment of `invoice` ends: paid, or failed.
    pub fn settle(&self, invoice: &str, paid: bool) {
        let parsed: cdk::Bolt11Invoice = invoice.parse().expect("an invoice made by Holds");
        let state = if paid { MeltQuoteState::Paid } else { MeltQuoteState::Failed };
        if let Some(held) = self.lock().get_mut(&parsed.payment_hash().to_string()) {
            held.1 = state;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, MeltQuoteState)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn state(&self, hash: &str) -> Option<(u64, MeltQuoteState)> {
        self.lock().get(hash).copied()
    }
}

/// A BOLT11 invoice that names no amount (the payer chooses), signed by a throwaway key.
pub fn amountless_invoice() -> String {
    use cdk::lightning_invoice::{Currency, InvoiceBuilder, PaymentSecret};
    use cdk::secp256k1::{Secp256k1, SecretKey};
    let key = SecretKey::from_slice(&rand::random::<[u8; 32]>()).expect("a key");
    let hash =
        <cdk::secp256k1::hashes::sha256::Hash as cdk::secp256k1::hashes::Hash>::from_slice(&rand::random::<[u8; 32]>())
            .expect("a hash");
    InvoiceBuilder::new(Currency::Bitcoin)
        .description("withdraw everything".into())
        .payment_hash(hash)
        .payment_secret(PaymentSecret(rand::random()))
        .current_timestamp()
        .min_final_cltv_expiry_delta(144)
        .build_signed(|digest| Secp256k1::new().sign_ecdsa_recoverable(digest, &key))
        .expect("an amountless invoice")
        .to_string()
}

pub struct HoldingLightning {
    pub inner: FakeWallet,
    pub holds: Holds,
}

fn held_hash(options: &OutgoingPaymentOptions) -> Option<String> {
    match options {
        OutgoingPaymentOptions::Bolt11(bolt11) => Some(bolt11.bolt11.payment_hash().to_string()),
        _ => None,
    }
}

#[async_trait::async_trait]
impl MintPayment for HoldingLightning {
    type Err = cdk_payment::Error;

    async fn start(&self) -> Result<(), Self::Err> {
        self.inner.start().await
    }

    async fn stop(&self) -> Result<(), Self::Err> {
        self.inner.stop().await
    }

    async fn get_settings(&self) -> Result<SettingsResponse, Self::Err> {
        let mut settings = self.inner.get_settings().await?;
        if let Some(bolt11) = settings.bolt11.as_mut() {
            bolt11.amountless = true;
        }
        Ok(settings)
    }

    async fn create_incoming_payment_request(
        &self,
        options: IncomingPaymentOptions,
    ) -> Result<CreateIncomingPaymentResponse, Self::Err> {
        self.inner.create_incoming_payment_request(options).await
    }

    async fn get_payment_quote(
        &self,
        unit: &CurrencyUnit,
        options: OutgoingPaymentOptions,
    ) -> Result<PaymentQuoteResponse, Self::Err> {
        self.inner.get_payment_quote(unit, options).await
    }

    async fn make_payment(
        &self,
        unit: &CurrencyUnit,
        options: OutgoingPaymentOptions,
    ) -> Result<MakePaymentResponse, Self::Err> {
        if let Some(hash) = held_hash(&options)
            && let Some((_, MeltQuoteState::Pending)) = self.holds.state(&hash)
        {
            let lookup = PaymentIdentifier::PaymentHash(hex_hash(&hash));
            return Ok(MakePaymentResponse {
                payment_lookup_id: lookup,
                payment_proof: None,
                status: MeltQuoteState::Pending,
                total_spent: Amount::new(0, unit.clone()),
            });
        }
        self.inner.make_payment(unit, options).await
    }

    async fn wait_payment_event(&self) -> Result<Pin<Box<dyn Stream<Item = Event> + Send>>, Self::Err> {
        self.inner.wait_payment_event().await
    }

    fn is_payment_event_stream_active(&self) -> bool {
        self.inner.is_payment_event_stream_active()
    }

    fn cancel_payment_event_stream(&self) {
        self.inner.cancel_payment_event_stream()
    }

    async fn check_incoming_payment_status(
        &self,
        payment_identifier: &PaymentIdentifier,
    ) -> Result<Vec<WaitPaymentResponse>, Self::Err> {
        self.inner.check_incoming_payment_status(payment_identifier).await
    }

    async fn check_outgoing_payment(
        &self,
        payment_identifier: &PaymentIdentifier,
    ) -> Result<MakePaymentResponse, Self::Err> {
        let hash = payment_identifier.to_string();
        let Some((sats, state)) = self.holds.state(&hash) else {
            return self.inner.check_outgoing_payment(payment_identifier).await;
        };
        // A paid hold cost one sat of routing fee, as the fake backend's payments do.
        let spent = if state == MeltQuoteState::Paid { sats + 1 } else { 0 };
        Ok(MakePaymentResponse {
            payment_lookup_id: payment_identifier.clone(),
            payment_proof: (state == MeltQuoteState::Paid).then(String::new),
            status: state,
            total_spent: Amount::new(spent, CurrencyUnit::Sat),
        })
    }
}

fn hex_hash(hash: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hash[2 * i..2 * i + 2], 16).unwrap_or(0);
    }
    out
}
