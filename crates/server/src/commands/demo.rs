//! The demo shop a newcomer's `make run` starts with: event `demo`, on sale from yesterday
//! for two months, priced like a typical Thai race, with a cover and a home-page banner cut
//! from the team photo, and photos made from the test photos
//! that come with the face models: the team photo `players.jpg` whole and cropped in ways
//! that do and do not show player 13 (the person in `yaoming.jpg`), plus `gdp.jpg`. A
//! search with `yaoming.jpg` finds exactly the photos that show him.

use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::{DateTime, Duration, Utc};
use raceshot_domain::event::{BannerInput, EventInput, PackageInput};
use raceshot_domain::{EventKey, Flag};
use raceshot_store::{ObjectKey, ObjectKind, StoredName};
use raceshot_vision::image_io::{DecodeOptions, decode, resize_to_long_edge};
use raceshot_vision::{BBox, FaceAnalyzer, RgbImage, cosine};

use super::ingest;
use crate::app::state::AppState;
use crate::infra::imaging;
use crate::infra::imaging::encode_jpeg;
use crate::services::operators::cli_actor;

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

/// What seeding did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Seeded {
    pub event_created: bool,
    /// Photos added (0 when the event already had photos).
    pub photos: usize,
    /// Names of the added photos that show player 13.
    pub with_player_13: Vec<String>,
}

/// Creates the demo event unless it exists, and gives it photos unless it has some.
pub async fn seed(state: &AppState, photos_dir: &Path) -> anyhow::Result<Seeded> {
    let store = &state.store;
    let now = state.now();
    let key = EventKey::parse(DEMO_KEY)?;
    let mut seeded = Seeded::default();
    let event = match store.event_by_key(&key).await? {
        Some(event) => event,
        None => {
            let mut input = demo_event(now);
            let (cover, banner) = store_artwork(state, &key, photos_dir).await?;
            input.coverurl = cover;
            input.banners = vec![BannerInput {
                image_url: banner,
                link_url: format!("/{DEMO_KEY}"),
            }];
            let spec = input
                .validate()
                .map_err(|e| anyhow::anyhow!("demo event is invalid: {e:?}"))?;
            store.write_events(&[spec], now).await?;
            let detail = serde_json::json!({"source": "demo"});
            store
                .audit(&cli_actor(), "event.create", "event:demo", &detail, now)
                .await?;
            seeded.event_created = true;
            state.catalogue.invalidate();
            store
                .event_by_key(&key)
                .await?
                .context("demo event vanished")?
        }
    };
    if store.event_photo_counts(event.id).await?.0 > 0 {
        return Ok(seeded);
    }
    let dir = tempfile::tempdir()?;
    let (_, engine) = state.faces.of_event(&event).await?;
    let (src, out) = (photos_dir.to_owned(), dir.path().to_owned());
    let made =
        tokio::task::spawn_blocking(move || make_photos(engine.as_ref(), &src, &out)).await??;
    let files: Vec<PathBuf> = made.iter().map(|(p, _)| p.clone()).collect();
    let report = ingest::ingest(state, DEMO_KEY, 0, &files, true, false).await?;
    if !report.failed.is_empty() {
        anyhow::bail!("demo photos failed: {:?}", report.failed);
    }
    seeded.photos = report.queued.len();
    seeded.with_player_13 = made
        .into_iter()
        .filter(|(_, shows)| *shows)
        .filter_map(|(p, _)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    Ok(seeded)
}

/// The event's cover (the runners' card on the home page) and a home-page banner, cut
/// from the team photo and stored as the event's public pictures: their addresses.
async fn store_artwork(
    state: &AppState,
    key: &EventKey,
    photos_dir: &Path,
) -> anyhow::Result<(String, String)> {
    let src = photos_dir.to_owned();
    let (cover, banner) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let players = read_photo(&src, "players.jpg")?;
        Ok((
            // Sized for a phone's screen at twice its pixels: the first thing a runner
            // waits for on a slow network.
            encode_jpeg(&fit(&players, 800, 420)?, 72)?,
            encode_jpeg(&fit(&players, 960, 300)?, 70)?,
        ))
    })
    .await??;
    let mut addresses = Vec::with_capacity(2);
    for (name, bytes) in [("demo-cover.jpg", cover), ("demo-banner.jpg", banner)] {
        let name = StoredName::parse(name).context("artwork name")?;
        state
            .objects
            .put(&ObjectKey::new(key, ObjectKind::Logo, &name), bytes.into())
            .await?;
        addresses.push(format!(
            "{}/{}/{}/{}",
            state.media_url,
            key.as_str(),
            ObjectKind::Logo.as_str(),
            name.as_str()
        ));
    }
    let banner = addresses.pop().context("banner")?;
    let cover = addresses.pop().context("cover")?;
    Ok((cover, banner))
}

/// `img` cut to the aspect of `w`×`h` around its centre (a little above it, where faces
/// are), then scaled to `w` wide.
fn fit(img: &RgbImage, w: u32, h: u32) -> anyhow::Result<RgbImage> {
    let (iw, ih) = (img.width() as f32, img.height() as f32);
    let aspect = w as f32 / h as f32;
    let (cw, ch) = if iw / ih > aspect {
        (ih * aspect, ih)
    } else {
        (iw, iw / aspect)
    };
    let x = (iw - cw) / 2.0;
    let y = ((ih - ch) * 0.4).max(0.0);
    let cut = crop(img, x, y, x + cw, y + ch)?;
    Ok(resize_to_long_edge(&cut, w))
}

fn read_photo(dir: &Path, name: &str) -> anyhow::Result<RgbImage> {
    let path = dir.join(name);
    let bytes =
        std::fs::read(&path).with_context(|| format!("{} (run make models)", path.display()))?;
    Ok(decode(&bytes, &DecodeOptions::default())?)
}

fn crop(img: &RgbImage, x1: f32, y1: f32, x2: f32, y2: f32) -> anyhow::Result<RgbImage> {
    imaging::crop(img, &BBox { x1, y1, x2, y2 })
}

/// Writes the demo photos into `out`; each comes with whether it shows player 13.
fn make_photos(
    engine: &dyn FaceAnalyzer,
    src: &Path,
    out: &Path,
) -> anyhow::Result<Vec<(PathBuf, bool)>> {
    let players = read_photo(src, "players.jpg")?;
    let selfie = engine
        .analyze_selfie_faces(&read_photo(src, "yaoming.jpg")?)?
        .context("no face in yaoming.jpg")?
        .primary;
    let faces = engine.analyze(&players)?;
    let similarity = |f: &raceshot_vision::AnalyzedFace| cosine(&f.embedding, &selfie.embedding);
    let him = faces
        .iter()
        .max_by(|a, b| similarity(a).total_cmp(&similarity(b)))
        .context("no faces in players.jpg")?
        .bbox;
    let (w, h) = (players.width() as f32, players.height() as f32);
    let (fw, fh) = (him.x2 - him.x1, him.y2 - him.y1);
    let (cx, cy) = ((him.x1 + him.x2) / 2.0, (him.y1 + him.y2) / 2.0);
    // Crops that leave him out stop well clear of his face.
    let margin = fw * 1.5;
    let close_up = crop(
        &players,
        cx - fw * 3.0,
        cy - fh * 3.0,
        cx + fw * 3.0,
        cy + fh * 4.0,
    )?;
    let photos = [
        (players.clone(), true),
        (
            crop(
                &players,
                cx - w * 0.3,
                cy - h * 0.35,
                cx + w * 0.3,
                cy + h * 0.45,
            )?,
            true,
        ),
        (resize_to_long_edge(&close_up, 900), true),
        (
            crop(&players, 0.0, 0.0, (him.x1 - margin).max(w * 0.2), h)?,
            false,
        ),
        (
            crop(&players, (him.x2 + margin).min(w * 0.8), 0.0, w, h)?,
            false,
        ),
        (read_photo(src, "gdp.jpg")?, false),
    ];
    let mut made = Vec::with_capacity(photos.len());
    for (i, (img, shows)) in photos.into_iter().enumerate() {
        let path = out.join(format!("demo-{:02}.jpg", i + 1));
        std::fs::write(&path, encode_jpeg(&img, 92)?)?;
        made.push((path, shows));
    }
    Ok(made)
}
