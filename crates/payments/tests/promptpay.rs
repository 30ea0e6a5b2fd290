//! PromptPay payloads: the known vectors (checked against an independent CRC-16/CCITT-FALSE
//! implementation), receivers in every spelling, and properties over random receivers and
//! amounts.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use raceshot_domain::Money;
use raceshot_domain::money::MAX_SATANG;
use raceshot_payments::promptpay::{
    PromptPayId, crc16_ccitt_false, parse_fields, payload, verify_crc,
};

fn baht(satang: i64) -> Money {
    Money::from_satang(satang).unwrap()
}

fn id(raw: &str) -> PromptPayId {
    PromptPayId::parse(raw).unwrap_or_else(|| panic!("{raw} should parse"))
}

#[test]
fn known_vector_mobile_without_amount() {
    assert_eq!(
        payload(&id("0801234567"), None),
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197"
    );
}

#[test]
fn amount_vectors() {
    let cases = [
        (
            21_000,
            "00020101021229370016A000000677010111011300668012345675802TH53037645406210.0063048FB1",
        ),
        (
            422,
            "00020101021229370016A000000677010111011300668012345675802TH530376454044.22630444FE",
        ),
        (
            1,
            "00020101021229370016A000000677010111011300668012345675802TH530376454040.0163042E01",
        ),
        (
            MAX_SATANG,
            "00020101021229370016A000000677010111011300668012345675802TH5303764541110000000.0063047E35",
        ),
    ];
    for (satang, expected) in cases {
        assert_eq!(
            payload(&id("0801234567"), Some(baht(satang))),
            expected,
            "{satang}"
        );
    }
}

#[test]
fn tax_id_and_e_wallet_vectors() {
    assert_eq!(
        payload(&id("1234567890123"), None),
        "00020101021129370016A000000677010111021312345678901235802TH53037646304EC40"
    );
    assert_eq!(
        payload(&id("123456789012345"), Some(baht(10_050))),
        "00020101021229390016A00000067701011103151234567890123455802TH53037645406100.50630429E1"
    );
}

#[test]
fn zero_amount_makes_a_static_code() {
    assert_eq!(
        payload(&id("0801234567"), Some(Money::ZERO)),
        payload(&id("0801234567"), None)
    );
}

#[test]
fn every_spelling_of_a_mobile_gives_the_same_payload() {
    let expected = payload(&id("0801234567"), Some(baht(21_000)));
    for raw in [
        "+66801234567",
        "080-123-4567",
        "66801234567",
        "+66 80 123 4567",
    ] {
        assert_eq!(payload(&id(raw), Some(baht(21_000))), expected, "{raw}");
    }
}

#[test]
fn tax_ids_and_e_wallets_are_told_apart_by_length() {
    assert!(matches!(id("1-2345-67890-12-3"), PromptPayId::TaxId(_)));
    assert!(matches!(id("123456789012345"), PromptPayId::EWallet(_)));
    assert!(matches!(id("0801234567"), PromptPayId::Mobile(_)));
    assert_eq!(id("1-2345-67890-12-3").to_string(), "1234567890123");
    assert_eq!(PromptPayId::parse("12345"), None);
}

#[test]
fn crc_matches_the_standard_check_value() {
    assert_eq!(crc16_ccitt_false(b"123456789"), 0x29B1);
}

#[test]
fn tampered_payload_fails_the_crc() {
    let good = payload(&id("0801234567"), Some(baht(21_000)));
    assert!(verify_crc(&good));
    let bad = good.replace("210.00", "910.00");
    assert!(!verify_crc(&bad));
}

fn any_id() -> impl Strategy<Value = PromptPayId> {
    prop_oneof![
        "0[689][0-9]{8}",
        "\\+66[689][0-9]{8}",
        "[0-9]{13}",
        "[0-9]{15}",
    ]
    .prop_map(|raw| PromptPayId::parse(&raw).expect("generated ids parse"))
}

proptest! {
    #[test]
    fn payloads_always_verify_and_round_trip(
        receiver in any_id(),
        satang in prop::option::of(0i64..=MAX_SATANG),
    ) {
        let amount = satang.map(baht);
        let text = payload(&receiver, amount);
        prop_assert!(verify_crc(&text));

        let fields = parse_fields(&text).expect("payload splits into fields");
        let rebuilt: String = fields
            .iter()
            .map(|(tag, value)| format!("{tag}{:02}{value}", value.len()))
            .collect();
        prop_assert_eq!(&rebuilt, &text);

        let tags: Vec<&str> = fields.iter().map(|(tag, _)| tag.as_str()).collect();
        let dynamic = amount.is_some_and(|a| a.satang() > 0);
        let expected_tags: Vec<&str> = if dynamic {
            vec!["00", "01", "29", "58", "53", "54", "63"]
        } else {
            vec!["00", "01", "29", "58", "53", "63"]
        };
        prop_assert_eq!(tags, expected_tags);
        let value = |tag: &str| fields.iter().find(|(t, _)| t == tag).map(|(_, v)| v.clone());
        prop_assert_eq!(value("01"), Some(if dynamic { "12" } else { "11" }.to_owned()));
        if dynamic {
            prop_assert_eq!(value("54"), amount.map(Money::baht_text));
        }

        let merchant = parse_fields(&value("29").expect("tag 29")).expect("tag 29 splits");
        prop_assert_eq!(&merchant[0], &("00".to_owned(), "A000000677010111".to_owned()));
        let (proxy_tag, proxy_value) = &merchant[1];
        match &receiver {
            PromptPayId::Mobile(d) => {
                prop_assert_eq!(proxy_tag, "01");
                prop_assert_eq!(proxy_value.clone(), format!("0066{}", &d.as_str()[1..]));
            }
            PromptPayId::TaxId(d) => {
                prop_assert_eq!(proxy_tag, "02");
                prop_assert_eq!(proxy_value, d.as_str());
            }
            PromptPayId::EWallet(d) => {
                prop_assert_eq!(proxy_tag, "03");
                prop_assert_eq!(proxy_value, d.as_str());
            }
        }
    }

    #[test]
    fn parse_never_panics(raw in "\\PC{0,40}") {
        let _ = PromptPayId::parse(&raw);
        let _ = parse_fields(&raw);
        let _ = verify_crc(&raw);
    }
}
