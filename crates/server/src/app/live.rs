//! Settings operators change from the console while the shop runs: the payment gateway
//! and its keys, SMTP, SMS, LINE, the daily message caps, the retention window. They are kept in the `settings` table under
//! their configuration keys (the `console` settings of `config::SETTINGS`) and laid over the configuration, checked
//! exactly as the configuration is; the gateways and the message channels built from the result are
//! swapped in at once here, and other processes reload them within a minute.

use std::sync::{Arc, RwLock};

use anyhow::Context;
use raceshot_payments::GatewayKind;
use raceshot_store::Store;

use crate::config::DailyCaps;
use crate::config::{Config, console_settings};
use crate::infra::channels::email::Mailer;
use crate::infra::channels::line::{LineApi, LineSender};
use crate::infra::channels::sms::{SmsSender, ThaiBulkSms};
use crate::infra::gateways::{Gateways, PAYMENT_GATEWAY_SETTING};

/// Settings rows of the console carry this prefix before the configuration key.
const PREFIX: &str = "console.";

/// What the current settings make: the parts that change without a restart.
pub struct Live {
    pub gateways: Gateways,
    pub mailer: Mailer,
    pub sms: SmsSender,
    pub line: LineSender,
    pub daily_caps: DailyCaps,
    /// Originals and logo copies are deleted this many days after the event.
    pub retention_days: u32,
    /// The longest an alert of new photos lives, in days (`alerts.days`).
    pub alert_days: u32,
}

impl Live {
    /// Builds from a configuration (with the operators' settings already laid over it).
    pub fn build(config: &Config) -> anyhow::Result<Live> {
        let payments = &config.payments;
        Ok(Live {
            gateways: Gateways::from_config(payments)?,
            mailer: match &config.notify.smtp {
                Some(smtp) => Mailer::smtp(smtp).context("setting up SMTP")?,
                None => Mailer::Log,
            },
            sms: match &config.notify.sms {
                Some(sms) => SmsSender::ThaiBulkSms(
                    ThaiBulkSms::new(sms.clone()).context("setting up the SMS provider")?,
                ),
                None => SmsSender::Log,
            },
            line: match &config.notify.line {
                Some(line) => {
                    LineSender::Api(LineApi::new(line.clone()).context("setting up LINE")?)
                }
                None => LineSender::Log,
            },
            daily_caps: config.notify.daily_caps,
            retention_days: config.orders.retention_days,
            alert_days: config.alerts.days,
        })
    }
}

/// A shop taking payments refuses the SANDBOX gateway unless the configuration allows it.
pub fn check_sandbox(active: GatewayKind, config: &Config) -> anyhow::Result<()> {
    if active == GatewayKind::Sandbox && !config.payments.allow_sandbox {
        anyhow::bail!(
            "the SANDBOX payment gateway takes no real money: set \
             RACESHOT__PAYMENTS__ALLOW_SANDBOX=true to run it, or choose GBP, OPN or \
             PROMPTPAY with RACESHOT__PAYMENTS__GATEWAY"
        );
    }
    Ok(())
}

/// The current `Live`, replaced whole when settings change.
pub struct LiveCell(RwLock<Arc<Live>>);

impl LiveCell {
    pub fn new(live: Live) -> Self {
        LiveCell(RwLock::new(Arc::new(live)))
    }

    pub fn get(&self) -> Arc<Live> {
        match self.0.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn set(&self, live: Live) {
        let live = Arc::new(live);
        match self.0.write() {
            Ok(mut guard) => *guard = live,
            Err(poisoned) => *poisoned.into_inner() = live,
        }
    }
}

/// One console setting as stored: its configuration key and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub key: String,
    pub value: String,
}

/// Whether `key` is a secret console setting; `None` when it is no console setting.
pub fn is_secret(key: &str) -> Option<bool> {
    console_settings().find(|s| s.key == key).map(|s| s.secret)
}

/// The operators' settings kept in the store.
pub async fn overrides(store: &Store) -> anyhow::Result<Vec<Override>> {
    Ok(store
        .settings_with_prefix(PREFIX)
        .await?
        .into_iter()
        .filter_map(|(name, value)| {
            let key = name.strip_prefix(PREFIX)?;
            // A row no console setting names any more is left alone.
            is_secret(key).map(|_| Override {
                key: key.to_owned(),
                value,
            })
        })
        .collect())
}

fn pairs(overrides: &[Override]) -> Vec<(String, String)> {
    overrides
        .iter()
        .map(|o| (o.key.clone(), o.value.clone()))
        .collect()
}

/// The configuration with the stored settings laid over it.
pub async fn effective(config: &Config, store: &Store) -> anyhow::Result<Config> {
    let stored = overrides(store).await?;
    config
        .with_overrides(&pairs(&stored))
        .map_err(|e| anyhow::anyhow!("the console's settings no longer fit the configuration: {e}"))
}

/// Why a change of settings was refused.
#[derive(Debug)]
pub enum Refused {
    /// Not a console setting.
    UnknownKey(String),
    /// The configuration with the change does not hold: every problem, by key.
    Invalid(Vec<(String, String)>),
    /// It holds, but the gateways or the mailer cannot be built from it.
    Unusable(String),
}

/// Applies `changes` (`None` removes a setting, back to the configuration's value): checked
/// whole first, then stored, then swapped in. Answers the new effective configuration.
pub async fn change(
    config: &Config,
    store: &Store,
    cell: &LiveCell,
    changes: &[(String, Option<String>)],
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Result<Config, Refused>> {
    let mut next = overrides(store).await?;
    for (key, value) in changes {
        if is_secret(key).is_none() {
            return Ok(Err(Refused::UnknownKey(key.clone())));
        }
        next.retain(|o| o.key != *key);
        if let Some(value) = value {
            next.push(Override {
                key: key.clone(),
                value: value.clone(),
            });
        }
    }
    let effective = match config.with_overrides(&pairs(&next)) {
        Ok(c) => c,
        Err(e) => {
            let problems = e
                .by_key()
                .map(|(key, problem)| (key.to_owned(), problem.to_owned()))
                .collect();
            return Ok(Err(Refused::Invalid(problems)));
        }
    };
    let live = match check_sandbox(effective.payments.gateway, config)
        .and_then(|()| Live::build(&effective))
    {
        Ok(live) => live,
        Err(e) => return Ok(Err(Refused::Unusable(format!("{e:#}")))),
    };
    for (key, value) in changes {
        let name = format!("{PREFIX}{key}");
        match value {
            Some(value) => {
                store
                    .put_setting(&name, value, is_secret(key).unwrap_or(true), now)
                    .await?
            }
            None => store.delete_setting(&name).await?,
        }
    }
    store
        .put_setting(
            PAYMENT_GATEWAY_SETTING,
            live.gateways.active.as_str(),
            false,
            now,
        )
        .await?;
    cell.set(live);
    Ok(Ok(effective))
}

/// Rebuilds from the store's settings: how other processes catch up with a change.
pub async fn reload(config: &Config, store: &Store, cell: &LiveCell) -> anyhow::Result<()> {
    let effective = effective(config, store).await?;
    cell.set(Live::build(&effective)?);
    Ok(())
}
