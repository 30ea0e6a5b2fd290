//! The closed sets of values the contract names, so that `openapi.json` types them as
//! enums and the web app takes them from the generated types instead of keeping copies.
//! Each mirrors a domain type, which stays the one that parses and writes the values; the
//! tests below fail when the two spell any value differently.

use serde::Serialize;
use utoipa::ToSchema;

/// The spec's yes/no flag.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub enum YesNo {
    Y,
    N,
}

/// Where an order is in its life.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum PaymentStatus {
    Initial,
    Paid,
    Expired,
    Cancelled,
}

/// How an order is paid: PromptPay QR, card, an operator's approval (all-photos orders)
/// or nothing to pay.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub enum PaymentChannel {
    #[serde(rename = "PP")]
    PromptPay,
    #[serde(rename = "CC")]
    Card,
    #[serde(rename = "AM")]
    Approval,
    #[serde(rename = "FREE")]
    Free,
}

/// The payment gateway an order is paid through.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum PaymentGateway {
    Gbp,
    Opn,
    PromptPay,
    Sandbox,
}

/// Where an event's sale stands.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EventStatus {
    Soon,
    OnSale,
    Closed,
}

#[cfg(test)]
mod tests {
    use raceshot_domain::{Flag, GatewayKind, SaleStatus};

    use super::*;

    fn names<T: Serialize>(values: &[T]) -> Vec<String> {
        values
            .iter()
            .map(|v| {
                serde_json::to_value(v)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
            })
            .map(Option::unwrap_or_default)
            .collect()
    }

    #[test]
    fn the_contracts_names_are_the_domains() {
        assert_eq!(
            names(&[YesNo::Y, YesNo::N]),
            [Flag(true).as_str(), Flag(false).as_str()]
        );
        let statuses = [
            PaymentStatus::Initial,
            PaymentStatus::Paid,
            PaymentStatus::Expired,
            PaymentStatus::Cancelled,
        ];
        for name in names(&statuses) {
            assert!(
                raceshot_domain::PaymentStatus::parse(&name).is_some(),
                "{name}"
            );
        }
        let channels = [
            PaymentChannel::PromptPay,
            PaymentChannel::Card,
            PaymentChannel::Approval,
            PaymentChannel::Free,
        ];
        for name in names(&channels) {
            assert!(
                raceshot_domain::PaymentChannel::parse(&name).is_some(),
                "{name}"
            );
        }
        let gateways = [
            PaymentGateway::Gbp,
            PaymentGateway::Opn,
            PaymentGateway::PromptPay,
            PaymentGateway::Sandbox,
        ];
        assert_eq!(names(&gateways), GatewayKind::ALL.map(GatewayKind::as_str));
        assert_eq!(
            names(&[EventStatus::Soon, EventStatus::OnSale, EventStatus::Closed]),
            [SaleStatus::Soon, SaleStatus::OnSale, SaleStatus::Closed].map(SaleStatus::as_str)
        );
    }
}
