//! The payment gateways this process can talk to, built once from the configuration. New
//! orders go through the configured gateway; every gateway with credentials keeps a
//! client, so that orders begun before a switch can still be confirmed.

use raceshot_payments::GatewayKind;
use raceshot_payments::gateway::{Gateway, Sandbox};
use raceshot_payments::gbp::{GbpClient, GbpSettings};
use raceshot_payments::opn::{OpnClient, OpnSettings};
use raceshot_payments::promptpay::OwnPromptPay;

use crate::config::PaymentsConfig;

/// The settings row naming the gateway new orders use, which `/v1/utils/conf` answers.
pub const PAYMENT_GATEWAY_SETTING: &str = "PAYMENT_GATEWAY";

pub struct Gateways {
    /// The gateway new orders use (the `PAYMENT_GATEWAY` setting).
    pub active: GatewayKind,
    gbp: Option<GbpClient>,
    opn: Option<OpnClient>,
    promptpay: Option<OwnPromptPay>,
    /// Whether the sandbox may take payments (`payments.allow_sandbox`).
    sandbox: bool,
    /// Given to the browser for card tokens.
    pub opn_public_key: Option<String>,
}

impl Gateways {
    pub fn from_config(c: &PaymentsConfig) -> anyhow::Result<Self> {
        let gbp = match (&c.gbp.token, &c.gbp.secret_key) {
            (Some(token), Some(secret_key)) => Some(
                GbpClient::new(GbpSettings {
                    base_url: c.gbp.base_url.clone(),
                    token: token.expose().to_owned(),
                    secret_key: secret_key.expose().to_owned(),
                    timeout: c.gateway_timeout,
                })
                .map_err(|e| anyhow::anyhow!("GB Prime Pay settings: {e}"))?,
            ),
            _ => None,
        };
        let opn = match &c.opn.secret_key {
            Some(secret_key) => Some(
                OpnClient::new(OpnSettings {
                    base_url: c.opn.base_url.clone(),
                    secret_key: secret_key.expose().to_owned(),
                    webhook_secret: c.opn.webhook_secret.as_ref().map(|s| s.expose().to_owned()),
                    timeout: c.gateway_timeout,
                })
                .map_err(|e| anyhow::anyhow!("OPN settings: {e}"))?,
            ),
            None => None,
        };
        Ok(Gateways {
            active: c.gateway,
            gbp,
            opn,
            promptpay: c.promptpay_id.clone().map(OwnPromptPay),
            sandbox: c.allow_sandbox,
            opn_public_key: c.opn.public_key.clone(),
        })
    }

    /// The gateway of that kind, if this process can talk to it.
    pub fn get(&self, kind: GatewayKind) -> Result<&dyn Gateway, GatewayMissing> {
        let gateway: Option<&dyn Gateway> = match kind {
            GatewayKind::Gbp => self.gbp.as_ref().map(|g| g as &dyn Gateway),
            GatewayKind::Opn => self.opn.as_ref().map(|g| g as &dyn Gateway),
            GatewayKind::PromptPay => self.promptpay.as_ref().map(|g| g as &dyn Gateway),
            // A shop that no longer allows the sandbox has none: its old orders cannot be
            // "paid" nor sent to its page.
            GatewayKind::Sandbox if self.sandbox => Some(&Sandbox),
            GatewayKind::Sandbox => None,
        };
        gateway.ok_or(GatewayMissing(kind))
    }

    /// OPN's client itself: its webhooks are read before any order is known.
    pub fn opn(&self) -> Result<&OpnClient, GatewayMissing> {
        self.opn.as_ref().ok_or(GatewayMissing(GatewayKind::Opn))
    }
}

/// A gateway this process cannot talk to: the sandbox once it is off, or one whose
/// settings are missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the {0} gateway is not configured")]
pub struct GatewayMissing(pub GatewayKind);
