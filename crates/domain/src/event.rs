//! Events: the validated shape an event must have before it is stored (`EventSpec`, parsed
//! from the shop's field names in `EventInput`, docs/event-import.md), and the sale
//! calendar derived from it (docs/shop-contract.md, Events).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::time::{self, DayEdge};
use crate::{BibRule, EventKey, Flag, Money};

pub const DEFAULT_FACE_THRESHOLD: f64 = 0.35;
pub const DEFAULT_MAX_FACE_SEARCH: u32 = 200;
pub const MAX_FACE_SEARCH_LIMIT: u32 = 2000;
const MAX_TEXT: usize = 500;

/// An event exactly as an operator writes it (import file or console form), before any
/// check. Field names are the shop's wire names (docs/event-import.md).
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EventInput {
    pub event_key: String,
    pub title: String,
    #[serde(default)]
    pub coverurl: String,
    #[serde(default)]
    pub event_date_text: String,
    pub eventdate: String,
    #[serde(default)]
    pub province: String,
    pub on_sale_start: String,
    pub on_sale_end: String,
    #[serde(default)]
    pub is_hybrid: Flag,
    #[serde(default)]
    pub is_mhao: Flag,
    #[serde(default)]
    pub mhao_price: Option<f64>,
    #[serde(default)]
    pub is_mhao_hybrid: Flag,
    #[serde(default)]
    pub hybrid_mhao_price: Option<f64>,
    #[serde(default)]
    pub is_event_stage: Flag,
    #[serde(default)]
    pub is_free_download: Flag,
    #[serde(default)]
    pub is_free_download_keep_contract: Flag,
    #[serde(default)]
    pub caption_button_buy_all: String,
    #[serde(default)]
    pub face_threshold: Option<f64>,
    #[serde(default)]
    pub max_face_search: Option<u32>,
    #[serde(default)]
    pub pin: Flag,
    /// Fewest digits of the event's bib numbers (default 1).
    #[serde(default)]
    pub bib_min_digits: Option<u32>,
    /// Most digits of the event's bib numbers (default 6).
    #[serde(default)]
    pub bib_max_digits: Option<u32>,
    /// Letters one of which may stand before a bib's digits (`FH`: F123, H123, 123);
    /// empty when the bibs are plain numbers.
    #[serde(default)]
    pub bib_prefix: String,
    #[serde(default)]
    pub package: Vec<PackageInput>,
    #[serde(default)]
    pub package_hb: Vec<PackageInput>,
    #[serde(default)]
    pub banners: Vec<BannerInput>,
}

#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PackageInput {
    pub name: String,
    #[serde(default)]
    pub name_en: String,
    pub number_of_photo: u32,
    pub price: f64,
}

#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct BannerInput {
    pub image_url: String,
    #[serde(default)]
    pub link_url: String,
}

/// One price tier: `number_of_photo` photos for `price`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    pub name_en: String,
    pub number_of_photo: u32,
    pub price: Money,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    pub image_url: String,
    pub link_url: String,
}

/// A checked event, ready to be stored.
#[derive(Debug, Clone, PartialEq)]
pub struct EventSpec {
    pub key: EventKey,
    pub title: String,
    pub cover_url: String,
    pub event_date_text: String,
    pub event_date: NaiveDate,
    pub province: String,
    pub on_sale_start: DateTime<Utc>,
    pub on_sale_end: DateTime<Utc>,
    pub wholesale: bool,
    pub deal: bool,
    pub deal_price: Option<Money>,
    pub wholesale_deal: bool,
    pub wholesale_deal_price: Option<Money>,
    pub is_event_stage: bool,
    pub is_free_download: bool,
    pub is_free_download_keep_contract: bool,
    pub caption_button_buy_all: String,
    pub face_threshold: f64,
    pub max_face_search: u32,
    pub pin: bool,
    pub bib_rule: BibRule,
    pub packages: Vec<Package>,
    pub wholesale_packages: Vec<Package>,
    pub banners: Vec<Banner>,
}

impl EventSpec {
    /// The event in the import format (instants as RFC 3339 in Bangkok time), so that
    /// what an operator edits validates back to the same event.
    pub fn to_input(&self) -> EventInput {
        let baht = |m: Money| m.satang() as f64 / 100.0;
        let tiers = |list: &[Package]| {
            list.iter()
                .map(|p| PackageInput {
                    name: p.name.clone(),
                    name_en: p.name_en.clone(),
                    number_of_photo: p.number_of_photo,
                    price: baht(p.price),
                })
                .collect()
        };
        EventInput {
            event_key: self.key.to_string(),
            title: self.title.clone(),
            coverurl: self.cover_url.clone(),
            event_date_text: self.event_date_text.clone(),
            eventdate: self.event_date.to_string(),
            province: self.province.clone(),
            on_sale_start: crate::time::format_bangkok(self.on_sale_start),
            on_sale_end: crate::time::format_bangkok(self.on_sale_end),
            is_hybrid: self.wholesale.into(),
            is_mhao: self.deal.into(),
            mhao_price: self.deal_price.map(baht),
            is_mhao_hybrid: self.wholesale_deal.into(),
            hybrid_mhao_price: self.wholesale_deal_price.map(baht),
            is_event_stage: self.is_event_stage.into(),
            is_free_download: self.is_free_download.into(),
            is_free_download_keep_contract: self.is_free_download_keep_contract.into(),
            caption_button_buy_all: self.caption_button_buy_all.clone(),
            face_threshold: Some(self.face_threshold),
            max_face_search: Some(self.max_face_search),
            pin: self.pin.into(),
            bib_min_digits: Some(self.bib_rule.min_digits),
            bib_max_digits: Some(self.bib_rule.max_digits),
            bib_prefix: self.bib_rule.prefix.clone(),
            package: tiers(&self.packages),
            package_hb: tiers(&self.wholesale_packages),
            banners: self
                .banners
                .iter()
                .map(|b| BannerInput {
                    image_url: b.image_url.clone(),
                    link_url: b.link_url.clone(),
                })
                .collect(),
        }
    }
}

/// A problem with one field, named by its path in the input (`package[1].price`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl ToString) -> Self {
        Self {
            field: field.into(),
            message: message.to_string(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Collects every problem of an input, so an operator fixes them all in one go.
#[derive(Default)]
struct Problems(Vec<FieldError>);

impl Problems {
    fn add(&mut self, field: impl Into<String>, message: impl ToString) {
        self.0.push(FieldError::new(field, message));
    }

    fn check<T, E: ToString>(&mut self, field: &str, r: Result<T, E>) -> Option<T> {
        r.map_err(|e| self.add(field, e)).ok()
    }

    fn text(&mut self, field: &str, value: &str, required: bool) -> String {
        let value = value.trim();
        if required && value.is_empty() {
            self.add(field, "is required");
        } else if value.chars().count() > MAX_TEXT {
            self.add(field, format!("must be at most {MAX_TEXT} characters"));
        }
        value.to_owned()
    }

    fn url(&mut self, field: &str, value: &str, required: bool) -> String {
        let value = self.text(field, value, required);
        let ok = value.is_empty()
            || value.starts_with("https://")
            || value.starts_with("http://")
            || (value.starts_with('/') && !value.starts_with("//"));
        if !ok {
            self.add(
                field,
                "must be an http(s) address or a path starting with /",
            );
        }
        value
    }
}

impl EventInput {
    /// Checks every field and returns the event, or every problem found.
    pub fn validate(&self) -> Result<EventSpec, Vec<FieldError>> {
        let mut p = Problems::default();
        let key = p.check("event_key", EventKey::parse(self.event_key.trim()));
        let title = p.text("title", &self.title, true);
        let cover_url = p.url("coverurl", &self.coverurl, false);
        let event_date_text = p.text("event_date_text", &self.event_date_text, false);
        let province = p.text("province", &self.province, false);
        let caption_button_buy_all = p.text(
            "caption_button_buy_all",
            &self.caption_button_buy_all,
            false,
        );
        let event_date = p.check("eventdate", time::parse_date(self.eventdate.trim()));
        let start = p.check(
            "on_sale_start",
            time::parse_instant(self.on_sale_start.trim(), DayEdge::Start),
        );
        let end = p.check(
            "on_sale_end",
            time::parse_instant(self.on_sale_end.trim(), DayEdge::End),
        );
        if let (Some(s), Some(e)) = (start, end)
            && e <= s
        {
            p.add("on_sale_end", "must be after on_sale_start");
        }

        let deal_price = self
            .mhao_price
            .and_then(|v| p.check("mhao_price", Money::from_baht(v)));
        if self.is_mhao.0 && deal_price.is_none_or(|m| m <= Money::ZERO) {
            p.add("mhao_price", "is required and above 0 when is_mhao is Y");
        }
        let wholesale_deal_price = self
            .hybrid_mhao_price
            .and_then(|v| p.check("hybrid_mhao_price", Money::from_baht(v)));
        if self.is_mhao_hybrid.0 && wholesale_deal_price.is_none_or(|m| m <= Money::ZERO) {
            p.add(
                "hybrid_mhao_price",
                "is required and above 0 when is_mhao_hybrid is Y",
            );
        }
        if self.is_mhao_hybrid.0 && !self.is_hybrid.0 {
            p.add("is_mhao_hybrid", "needs is_hybrid Y");
        }

        let face_threshold = self.face_threshold.unwrap_or(DEFAULT_FACE_THRESHOLD);
        if !(face_threshold.is_finite() && face_threshold > 0.0 && face_threshold < 1.0) {
            p.add("face_threshold", "must be between 0 and 1");
        }
        let max_face_search = self.max_face_search.unwrap_or(DEFAULT_MAX_FACE_SEARCH);
        if !(1..=MAX_FACE_SEARCH_LIMIT).contains(&max_face_search) {
            p.add(
                "max_face_search",
                format!("must be 1 to {MAX_FACE_SEARCH_LIMIT}"),
            );
        }

        let default_rule = BibRule::default();
        let bib_rule = BibRule::new(
            self.bib_min_digits.unwrap_or(default_rule.min_digits),
            self.bib_max_digits.unwrap_or(default_rule.max_digits),
            &self.bib_prefix,
        )
        .unwrap_or_else(|problems| {
            for (field, message) in problems {
                p.add(field, message);
            }
            default_rule
        });

        let free = self.is_free_download.0 || self.is_free_download_keep_contract.0;
        let packages = packages(&mut p, "package", &self.package, !free);
        let wholesale_packages = check_wholesale_packages(&mut p, self);
        let banners = self
            .banners
            .iter()
            .enumerate()
            .map(|(i, b)| Banner {
                image_url: p.url(&format!("banners[{i}].image_url"), &b.image_url, true),
                link_url: p.url(&format!("banners[{i}].link_url"), &b.link_url, false),
            })
            .collect();

        match (key, event_date, start, end) {
            (Some(key), Some(event_date), Some(on_sale_start), Some(on_sale_end))
                if p.0.is_empty() =>
            {
                Ok(EventSpec {
                    key,
                    title,
                    cover_url,
                    event_date_text,
                    event_date,
                    province,
                    on_sale_start,
                    on_sale_end,
                    wholesale: self.is_hybrid.0,
                    deal: self.is_mhao.0,
                    deal_price,
                    wholesale_deal: self.is_mhao_hybrid.0,
                    wholesale_deal_price,
                    is_event_stage: self.is_event_stage.0,
                    is_free_download: self.is_free_download.0,
                    is_free_download_keep_contract: self.is_free_download_keep_contract.0,
                    caption_button_buy_all,
                    face_threshold,
                    max_face_search,
                    pin: self.pin.0,
                    bib_rule,
                    packages,
                    wholesale_packages,
                    banners,
                })
            }
            _ => Err(p.0),
        }
    }
}

fn check_wholesale_packages(p: &mut Problems, input: &EventInput) -> Vec<Package> {
    if input.is_hybrid.0 && input.package_hb.is_empty() {
        p.add("package_hb", "is required when is_hybrid is Y");
    }
    packages(p, "package_hb", &input.package_hb, input.is_hybrid.0)
}

/// Checks a tier list. A sold list needs a 1-photo tier, so that any photo count can be
/// split greedily into tiers and priced.
fn packages(p: &mut Problems, field: &str, list: &[PackageInput], sold: bool) -> Vec<Package> {
    let mut out: Vec<Package> = Vec::with_capacity(list.len());
    for (i, pk) in list.iter().enumerate() {
        let at = |name: &str| format!("{field}[{i}].{name}");
        let name = p.text(&at("name"), &pk.name, true);
        let name_en = p.text(&at("name_en"), &pk.name_en, false);
        if pk.number_of_photo == 0 {
            p.add(at("number_of_photo"), "must be at least 1");
        } else if out.iter().any(|o| o.number_of_photo == pk.number_of_photo) {
            p.add(at("number_of_photo"), "appears twice in the list");
        }
        let price = p
            .check(&at("price"), Money::from_baht(pk.price))
            .unwrap_or_default();
        out.push(Package {
            name,
            name_en,
            number_of_photo: pk.number_of_photo,
            price,
        });
    }
    if sold && !list.is_empty() && !out.iter().any(|o| o.number_of_photo == 1) {
        p.add(field, "must include a package of 1 photo");
    }
    if sold && list.is_empty() && field == "package" {
        p.add(field, "is required unless the event is a free download");
    }
    out
}

/// Where an event stands in its sale calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SaleStatus {
    /// Sale has not started: the shop shows a come-back date.
    Soon,
    /// Visitors may search and buy.
    OnSale,
    /// Sale has ended (or an operator closed it).
    Closed,
}

impl SaleStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SaleStatus::Soon => "SOON",
            SaleStatus::OnSale => "ON_SALE",
            SaleStatus::Closed => "CLOSED",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "SOON" => Some(SaleStatus::Soon),
            "ON_SALE" => Some(SaleStatus::OnSale),
            "CLOSED" => Some(SaleStatus::Closed),
            _ => None,
        }
    }
}

/// The derived sale fields (`can_sale`, `close_sale`, `event_status`, `day_diff`;
/// docs/shop-contract.md, Events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaleState {
    pub can_sale: bool,
    pub close_sale: bool,
    pub status: SaleStatus,
    /// Whole Bangkok calendar days from today to the last day of sale (0 on that day).
    pub day_diff: i64,
}

impl SaleState {
    pub fn at(
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        closed_by_operator: bool,
        now: DateTime<Utc>,
    ) -> Self {
        let can_sale = now >= start;
        let close_sale = closed_by_operator || now > end;
        let status = if close_sale {
            SaleStatus::Closed
        } else if can_sale {
            SaleStatus::OnSale
        } else {
            SaleStatus::Soon
        };
        let day_diff = (time::bangkok_date(end) - time::bangkok_date(now)).num_days();
        Self {
            can_sale,
            close_sale,
            status,
            day_diff,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> EventInput {
        EventInput {
            event_key: "bkk-marathon".into(),
            title: "Bangkok Marathon".into(),
            eventdate: "2026-11-15".into(),
            on_sale_start: "2026-11-15".into(),
            on_sale_end: "2026-12-20".into(),
            package: vec![
                PackageInput {
                    name: "1 รูป".into(),
                    name_en: "1 photo".into(),
                    number_of_photo: 1,
                    price: 59.0,
                },
                PackageInput {
                    name: "5 รูป".into(),
                    name_en: "5 photos".into(),
                    number_of_photo: 5,
                    price: 249.0,
                },
            ],
            ..EventInput::default()
        }
    }

    fn fields(errors: Vec<FieldError>) -> Vec<String> {
        errors.into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn the_import_format_of_a_spec_validates_back_to_it() {
        let mut event = input();
        event.is_hybrid = Flag::YES;
        event.package_hb = event.package.clone();
        event.mhao_price = Some(999.5);
        event.is_mhao = Flag::YES;
        event.banners = vec![BannerInput {
            image_url: "https://img.example/a.jpg".into(),
            link_url: "/x".into(),
        }];
        let spec = event.validate().map_err(|e| format!("{e:?}"));
        let again = spec
            .clone()
            .and_then(|s| s.to_input().validate().map_err(|e| format!("{e:?}")));
        assert!(spec.is_ok(), "{spec:?}");
        assert_eq!(spec, again);
    }

    #[test]
    fn a_good_event_validates_with_defaults() {
        let spec = input().validate();
        let spec = spec.as_ref().map_err(|e| format!("{e:?}"));
        assert_eq!(
            spec.map(|s| (s.face_threshold, s.max_face_search, s.packages.len())),
            Ok((0.35, 200, 2))
        );
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let mut bad = input();
        bad.event_key = "Bad Key".into();
        bad.title = " ".into();
        bad.on_sale_end = "2026-11-01".into();
        bad.is_mhao = Flag::YES;
        bad.package[1].price = 1.234;
        bad.package[0].number_of_photo = 5;
        let got = bad.validate().map(|_| ()).map_err(fields);
        assert_eq!(
            got,
            Err(vec![
                "event_key".to_owned(),
                "title".into(),
                "on_sale_end".into(),
                "mhao_price".into(),
                "package[1].number_of_photo".into(),
                "package[1].price".into(),
                "package".into(),
            ])
        );
    }

    #[test]
    fn wholesale_needs_its_own_packages_and_free_events_need_none() {
        let mut wholesale = input();
        wholesale.is_hybrid = Flag::YES;
        assert_eq!(
            wholesale.validate().map(|_| ()).map_err(fields),
            Err(vec!["package_hb".to_owned()])
        );

        let mut free = input();
        free.is_free_download = Flag::YES;
        free.package.clear();
        assert!(free.validate().is_ok());
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_refused() {
        let unknown = serde_json::from_str::<EventInput>(
            r#"{"event_key":"a","title":"t","eventdate":"2026-01-01","on_sale_start":"2026-01-01","on_sale_end":"2026-01-02","colour":"red"}"#,
        );
        assert!(unknown.is_err_and(|e| e.to_string().contains("colour")));
        let wrong = serde_json::from_str::<EventInput>(
            r#"{"event_key":"a","title":"t","eventdate":"2026-01-01","on_sale_start":"2026-01-01","on_sale_end":"2026-01-02","is_mhao":"maybe"}"#,
        );
        assert!(wrong.is_err());
    }

    #[test]
    fn sale_calendar() {
        let t = |s: &str| time::parse_instant(s, DayEdge::Start).unwrap_or_default();
        let (start, end) = (t("2026-12-01T00:00:00"), t("2026-12-10T23:59:59"));
        let before = SaleState::at(start, end, false, t("2026-11-30T12:00:00"));
        assert_eq!(
            (before.can_sale, before.close_sale, before.status),
            (false, false, SaleStatus::Soon)
        );
        let during = SaleState::at(start, end, false, t("2026-12-05T08:00:00"));
        assert_eq!((during.status, during.day_diff), (SaleStatus::OnSale, 5));
        let last_day = SaleState::at(start, end, false, t("2026-12-10T23:00:00"));
        assert_eq!(
            (last_day.status, last_day.day_diff),
            (SaleStatus::OnSale, 0)
        );
        let after = SaleState::at(start, end, false, t("2026-12-11T00:00:00"));
        assert_eq!((after.close_sale, after.status), (true, SaleStatus::Closed));
        let closed = SaleState::at(start, end, true, t("2026-12-05T08:00:00"));
        assert_eq!(closed.status, SaleStatus::Closed);
    }
}
