//! The demo shop a newcomer's `make run` starts with: event `demo`, on sale from yesterday
//! for two months, priced like a typical Thai race.

use chrono::{DateTime, Duration, Utc};
use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_domain::{EventKey, Flag};
use raceshot_store::Store;

pub const DEMO_KEY: &str = "demo";

fn tier(name: &str, name_en: &str, number_of_photo: u32, price: f64) -> PackageInput {
    PackageInput {
        name: name.into(),
        name_en: name_en.into(),
        number_of_photo,
        price,
    }
}

pub fn demo_event(now: DateTime<Utc>) -> EventInput {
    let day = |d: i64| raceshot_domain::time::bangkok_date(now + Duration::days(d)).to_string();
    EventInput {
        event_key: DEMO_KEY.into(),
        title: "Raceshot Demo Run 2026".into(),
        event_date_text: day(-1),
        eventdate: day(-1),
        province: "กรุงเทพมหานคร".into(),
        on_sale_start: day(-1),
        on_sale_end: day(60),
        is_hybrid: Flag::YES,
        is_mhao: Flag::YES,
        mhao_price: Some(990.0),
        is_mhao_hybrid: Flag::YES,
        hybrid_mhao_price: Some(1490.0),
        caption_button_buy_all: "ซื้อทุกรูปของคุณ".into(),
        package: vec![
            tier("1 รูป", "1 photo", 1, 60.0),
            tier("5 รูป", "5 photos", 5, 250.0),
            tier("10 รูป", "10 photos", 10, 450.0),
            tier("20 รูป", "20 photos", 20, 800.0),
        ],
        package_hb: vec![
            tier("1 รูป", "1 photo", 1, 80.0),
            tier("10 รูป", "10 photos", 10, 600.0),
        ],
        ..EventInput::default()
    }
}

/// Creates the demo event unless it exists; true when it was created.
pub async fn seed(store: &Store, now: DateTime<Utc>) -> anyhow::Result<bool> {
    let key = EventKey::parse(DEMO_KEY)?;
    if store.event_by_key(&key).await?.is_some() {
        return Ok(false);
    }
    let spec = demo_event(now)
        .validate()
        .map_err(|e| anyhow::anyhow!("demo event is invalid: {e:?}"))?;
    store.write_events(&[spec], now).await?;
    store
        .audit(
            "cli",
            "event.create",
            "event:demo",
            &serde_json::json!({"source": "demo"}),
            now,
        )
        .await?;
    Ok(true)
}
