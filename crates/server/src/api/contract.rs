//! The closed sets of values the contract names, so that `openapi.json` types them as
//! enums and the web app takes them from the generated types instead of keeping copies.
//! Each mirrors a domain type, which stays the one that parses and writes the values; the
//! tests below fail when the two spell any value differently.

use serde::Serialize;
use utoipa::ToSchema;

/// The shop contract's yes/no flag.
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

/// An event in the import format (docs/event-import.md): what `raceshot event import`
/// reads and the console's form edits. Fields not marked required may be left out.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportEvent {
    pub event_key: String,
    pub title: String,
    #[schema(required = false)]
    pub coverurl: String,
    #[schema(required = false)]
    pub event_date_text: String,
    /// `YYYY-MM-DD`.
    pub eventdate: String,
    #[schema(required = false)]
    pub province: String,
    /// `YYYY-MM-DD`, Bangkok time.
    pub on_sale_start: String,
    /// `YYYY-MM-DD`, Bangkok time.
    pub on_sale_end: String,
    #[schema(required = false)]
    pub is_hybrid: YesNo,
    #[schema(required = false)]
    pub is_mhao: YesNo,
    #[schema(required = false)]
    pub mhao_price: Option<f64>,
    #[schema(required = false)]
    pub is_mhao_hybrid: YesNo,
    #[schema(required = false)]
    pub hybrid_mhao_price: Option<f64>,
    #[schema(required = false)]
    pub is_event_stage: YesNo,
    #[schema(required = false)]
    pub is_free_download: YesNo,
    #[schema(required = false)]
    pub is_free_download_keep_contract: YesNo,
    #[schema(required = false)]
    pub caption_button_buy_all: String,
    #[schema(required = false)]
    pub face_threshold: Option<f64>,
    #[schema(required = false)]
    pub max_face_search: Option<u32>,
    #[schema(required = false)]
    pub pin: YesNo,
    /// Fewest digits of the event's bib numbers, 1 to 8 (default 1).
    #[schema(required = false)]
    pub bib_min_digits: Option<u32>,
    /// Most digits of the event's bib numbers, 1 to 8 (default 6).
    #[schema(required = false)]
    pub bib_max_digits: Option<u32>,
    /// Letters one of which may lead a bib's digits (`FH`: F123, H123 and 123); empty for
    /// plain numbers.
    #[schema(required = false)]
    pub bib_prefix: String,
    #[schema(required = false)]
    pub package: Vec<ImportPackage>,
    #[schema(required = false)]
    pub package_hb: Vec<ImportPackage>,
    #[schema(required = false)]
    pub banners: Vec<ImportBanner>,
}

/// A price for a number of photos.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportPackage {
    pub name: String,
    #[schema(required = false)]
    pub name_en: String,
    pub number_of_photo: u32,
    /// Baht.
    pub price: f64,
}

/// A slide of the home carousel.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportBanner {
    pub image_url: String,
    #[schema(required = false)]
    pub link_url: String,
}

#[cfg(test)]
mod tests {
    use raceshot_domain::event::{BannerInput, EventInput, PackageInput};
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

    /// The property names of a component of the generated document.
    fn properties(schema: &str) -> Vec<String> {
        let doc: serde_json::Value =
            serde_json::from_str(&crate::api::openapi_json()).unwrap_or_default();
        let mut names: Vec<String> = doc["components"]["schemas"][schema]["properties"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    fn keys<T: Serialize>(value: &T) -> Vec<String> {
        let mut names: Vec<String> = serde_json::to_value(value)
            .ok()
            .and_then(|v| v.as_object().map(|o| o.keys().cloned().collect()))
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn the_import_schema_has_the_import_formats_fields() {
        assert_eq!(properties("ImportEvent"), keys(&EventInput::default()));
        assert_eq!(properties("ImportPackage"), keys(&PackageInput::default()));
        assert_eq!(properties("ImportBanner"), keys(&BannerInput::default()));
    }
}
