//! The payment trail's entries, typed: every call to a gateway, every message from one and
//! every operator's word about a payment is one [`TrailEntry`]. The store keeps them as
//! text (`kind`, `status`); only this module writes that text.

use std::fmt;

use raceshot_domain::Money;

/// Where an OPN charge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChargeStatus {
    /// Waiting for the buyer: 3-D Secure, or a PromptPay QR not yet paid.
    Pending,
    Successful,
    Failed,
    /// A PromptPay (or other offline) charge nobody paid in time.
    Expired,
    Reversed,
    /// A status this adapter does not know; see [`crate::opn::Charge::raw`].
    Unknown,
}

impl ChargeStatus {
    pub fn parse(text: &str) -> ChargeStatus {
        match text {
            "pending" => ChargeStatus::Pending,
            "successful" => ChargeStatus::Successful,
            "failed" => ChargeStatus::Failed,
            "expired" => ChargeStatus::Expired,
            "reversed" => ChargeStatus::Reversed,
            _ => ChargeStatus::Unknown,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ChargeStatus::Pending => "pending",
            ChargeStatus::Successful => "successful",
            ChargeStatus::Failed => "failed",
            ChargeStatus::Expired => "expired",
            ChargeStatus::Reversed => "reversed",
            ChargeStatus::Unknown => "unknown",
        }
    }
}

impl fmt::Display for ChargeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrailKind {
    /// A QR asked of GB Prime Pay.
    CreateQr,
    /// A charge asked of OPN.
    Charge,
    /// An OPN charge as OPN answered it: `charge:{status}`.
    ChargeIs(ChargeStatus),
    /// GB Prime Pay's callback (unsigned: a hint).
    Callback,
    /// An OPN webhook event (a hint).
    Webhook,
    /// GB Prime Pay's status check: `status_check:paid` or `status_check:unpaid`.
    StatusCheck { paid: bool },
    /// A payment whose amount or currency is not the order's: refused.
    AmountMismatch,
    /// A card token taken by the sandbox.
    CardToken,
    /// The sandbox's simulated outcome: `sandbox:paid` or `sandbox:failed`.
    Sandbox { paid: bool },
    /// An operator confirmed a PROMPTPAY order against its bank slip.
    OperatorConfirm,
    /// An operator approved an all-photos (AM) order.
    OperatorApprove,
}

impl fmt::Display for TrailKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let paid_or = |paid: bool, yes: &'static str, no: &'static str| if paid { yes } else { no };
        match self {
            TrailKind::CreateQr => f.write_str("create_qr"),
            TrailKind::Charge => f.write_str("charge"),
            TrailKind::ChargeIs(status) => write!(f, "charge:{status}"),
            TrailKind::Callback => f.write_str("callback"),
            TrailKind::Webhook => f.write_str("webhook"),
            TrailKind::StatusCheck { paid } => {
                f.write_str(paid_or(*paid, "status_check:paid", "status_check:unpaid"))
            }
            TrailKind::AmountMismatch => f.write_str("amount_mismatch"),
            TrailKind::CardToken => f.write_str("card_token"),
            TrailKind::Sandbox { paid } => {
                f.write_str(paid_or(*paid, "sandbox:paid", "sandbox:failed"))
            }
            TrailKind::OperatorConfirm => f.write_str("operator_confirm"),
            TrailKind::OperatorApprove => f.write_str("operator_approve"),
        }
    }
}

/// Where the payment stood by that entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrailStatus {
    /// Asked of the gateway; its answer is the next entry.
    Requested,
    Created,
    Received,
    Paid,
    Unpaid,
    Failed,
    Approved,
    /// Not taken: the amount or currency differs from the order's.
    Refused,
    /// An OPN charge's own status.
    Charge(ChargeStatus),
}

impl fmt::Display for TrailStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrailStatus::Requested => "requested",
            TrailStatus::Created => "created",
            TrailStatus::Received => "received",
            TrailStatus::Paid => "paid",
            TrailStatus::Unpaid => "unpaid",
            TrailStatus::Failed => "failed",
            TrailStatus::Approved => "approved",
            TrailStatus::Refused => "refused",
            TrailStatus::Charge(status) => status.as_str(),
        })
    }
}

/// One entry of an order's payment trail.
#[derive(Debug, Clone, PartialEq)]
pub struct TrailEntry {
    pub kind: TrailKind,
    /// The gateway's (or operator's) reference; the trail holds each (kind, reference) once.
    pub external_ref: Option<String>,
    pub amount: Option<Money>,
    pub status: TrailStatus,
    /// The message as received, or what was asked (`promptpay`, `card`).
    pub payload: String,
}

impl TrailEntry {
    pub fn new(kind: TrailKind, status: TrailStatus) -> Self {
        TrailEntry {
            kind,
            external_ref: None,
            amount: None,
            status,
            payload: String::new(),
        }
    }

    pub fn reference(mut self, external_ref: impl Into<String>) -> Self {
        self.external_ref = Some(external_ref.into());
        self
    }

    pub fn amount(mut self, amount: Money) -> Self {
        self.amount = Some(amount);
        self
    }

    pub fn payload(mut self, payload: impl Into<String>) -> Self {
        self.payload = payload.into();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_statuses_keep_the_names_the_trail_has_always_held() {
        let kinds = [
            (TrailKind::CreateQr, "create_qr"),
            (TrailKind::Charge, "charge"),
            (TrailKind::ChargeIs(ChargeStatus::Pending), "charge:pending"),
            (TrailKind::Callback, "callback"),
            (TrailKind::Webhook, "webhook"),
            (TrailKind::StatusCheck { paid: true }, "status_check:paid"),
            (
                TrailKind::StatusCheck { paid: false },
                "status_check:unpaid",
            ),
            (TrailKind::AmountMismatch, "amount_mismatch"),
            (TrailKind::CardToken, "card_token"),
            (TrailKind::Sandbox { paid: true }, "sandbox:paid"),
            (TrailKind::Sandbox { paid: false }, "sandbox:failed"),
            (TrailKind::OperatorConfirm, "operator_confirm"),
            (TrailKind::OperatorApprove, "operator_approve"),
        ];
        for (kind, text) in kinds {
            assert_eq!(kind.to_string(), text);
        }
        assert_eq!(
            TrailStatus::Charge(ChargeStatus::Successful).to_string(),
            "successful"
        );
        assert_eq!(TrailStatus::Refused.to_string(), "refused");
    }
}
