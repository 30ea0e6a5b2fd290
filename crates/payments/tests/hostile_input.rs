//! What strangers can send the shop's payment code: gateway callbacks and webhooks as
//! arbitrary bytes and as JSON of the right shape with wrong values, PromptPay ids and
//! payloads, amounts. 10,000 cases each; every one must come back as a value or a clean
//! error, never a panic, and whatever parses must hold together. A counting allocator
//! holds every parse of these small inputs to a memory bound.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use raceshot_domain::testing::{CountingAllocator, peak_of};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// What parsing one input of at most a few hundred bytes may hold at its peak.
const PEAK_LIMIT: usize = 256 * 1024;

/// Runs `f`, failing the test when it held more than `PEAK_LIMIT` at once.
fn bounded<T>(f: impl FnOnce() -> T) -> T {
    let (out, peak) = peak_of(f);
    assert!(peak <= PEAK_LIMIT, "one parse held {peak} bytes");
    out
}

use proptest::prelude::*;
use raceshot_payments::gbp::GbpCallback;
use raceshot_payments::opn::{Charge, WebhookEvent, verify_webhook_signature};
use raceshot_payments::parse_baht;
use raceshot_payments::promptpay::{self, PromptPayId, parse_fields, verify_crc};
use serde_json::{Value, json};

const CASES: u32 = 10_000;

/// JSON values of any shape, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,24}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(".{0,12}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value for one of the fields the parsers read: right type, wrong type, or odd text.
fn field_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any_json(),
        "[0-9]{0,12}(\\.[0-9]{0,4})?".prop_map(Value::String),
        "-?[0-9]{1,15}".prop_map(|s| json!(s.parse::<f64>().unwrap_or(0.0))),
        Just(json!("00")),
        Just(json!("1e9")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn gbp_callbacks_of_any_bytes_parse_or_fail_cleanly(body in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = bounded(|| GbpCallback::parse(&body));
    }

    #[test]
    fn gbp_callbacks_with_hostile_fields_keep_their_amount_valid(
        result_code in field_value(), amount in field_value(), reference in field_value(),
        extra in any_json(),
    ) {
        let body = json!({ "resultCode": result_code, "amount": amount, "referenceNo": reference,
                           "gbpReferenceNo": extra });
        let body = body.to_string();
        if let Ok(callback) = bounded(|| GbpCallback::parse(body.as_bytes())) {
            prop_assert!(callback.amount.satang() >= 0);
            prop_assert!(!callback.reference_no.is_empty());
            prop_assert_eq!(callback.is_paid(), callback.result_code == "00");
        }
    }

    #[test]
    fn opn_webhooks_of_any_bytes_parse_or_fail_cleanly(body in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = bounded(|| WebhookEvent::parse(&body));
    }

    #[test]
    fn opn_webhooks_never_name_an_unsafe_charge_id(key in field_value(), id in field_value(), data in any_json()) {
        let body = json!({ "object": "event", "key": key, "data": { "object": "charge", "id": id, "extra": data } });
        let body = body.to_string();
        if let Ok(event) = bounded(|| WebhookEvent::parse(body.as_bytes()))
            && let Some(charge_id) = event.charge_id
        {
            prop_assert!(raceshot_payments::opn::is_object_id(&charge_id), "{}", charge_id);
        }
    }

    #[test]
    fn opn_charges_of_any_shape_read_or_fail_cleanly(
        raw in any_json(), id in field_value(), amount in field_value(), status in field_value(),
    ) {
        let _ = bounded(|| Charge::from_json(raw));
        let shaped = json!({ "object": "charge", "id": id, "amount": amount, "status": status,
                             "currency": "thb", "paid": true });
        if let Ok(charge) = bounded(|| Charge::from_json(shaped)) {
            prop_assert!(charge.amount.satang() >= 0);
        }
    }

    #[test]
    fn webhook_signatures_of_any_text_are_checked_without_panic(
        secret in ".{0,40}", timestamp in ".{0,16}", body in prop::collection::vec(any::<u8>(), 0..256),
        header in ".{0,200}",
    ) {
        let _ = bounded(|| verify_webhook_signature(&secret, &timestamp, &body, &header));
    }

    #[test]
    fn promptpay_ids_and_payloads_of_any_text(raw in ".{0,40}", payload in ".{0,160}") {
        if let Some(id) = bounded(|| PromptPayId::parse(&raw)) {
            let made = bounded(|| promptpay::payload(&id, None));
            prop_assert!(verify_crc(&made));
            prop_assert!(parse_fields(&made).is_some());
        }
        let _ = bounded(|| verify_crc(&payload));
        let _ = bounded(|| parse_fields(&payload));
    }

    #[test]
    fn amounts_of_any_text_are_whole_satang_or_refused(text in ".{0,24}") {
        if let Some(m) = bounded(|| parse_baht(&text)) {
            prop_assert!(m.satang() >= 0);
            prop_assert!(m.satang() <= raceshot_domain::money::MAX_SATANG);
        }
    }
}
