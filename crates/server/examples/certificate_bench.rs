//! Finisher certificates' drawing time, end to end against a release build on SQLite:
//! an event of RUNNERS results, each runner's bib read under their face on their own 24 MP
//! photo (6000 × 4000, a synthetic JPEG of about 12 MB), certificates offered free with the
//! shop's templates. Each runner's picture (1080 × 1350 JPEG) and A4 PDF is asked once
//! (never drawn before: results lookup, bib search, the original decoded at the scale the
//! crop needs, drawn, encoded, stored in the cache), then once more (from the cache).
//! Prints p50, p95 and the slowest of each, one request at a time.
//!
//! `cargo run --release -p raceshot-server --example certificate_bench -- [RUNNERS]`

use std::time::{Duration, Instant};

use raceshot_domain::{BibRule, Money};
use raceshot_server::infra::imaging::encode_jpeg;
use raceshot_store::bibs::NewBib;
use raceshot_store::certificates::CertificateSettings;
use raceshot_store::jobs::NewJob;
use raceshot_store::photos::{Added, FaceSet, NewFace, NewPhoto, ProcessedPhoto};
use raceshot_store::{ObjectKey, ObjectKind, StoredName};
use raceshot_vision::RgbImage;

mod common;

use common::Result;

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what}: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} requests)",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        percentile(&times, 1.0),
        times.len()
    );
}

/// A 6000 × 4000 photo with texture (so it is as large as a camera's JPEG) and a face-like
/// patch where the runner's face is.
fn photo_24mp() -> Result<Vec<u8>> {
    let (w, h) = (6000u32, 4000u32);
    let mut data = Vec::with_capacity((w * h * 3) as usize);
    let mut x_state = 0x2545_f491_4f6c_dd1du64;
    for y in 0..h {
        for x in 0..w {
            x_state ^= x_state << 13;
            x_state ^= x_state >> 7;
            x_state ^= x_state << 17;
            let noise = (x_state >> 58) as u8;
            let face = (2800..3200).contains(&x) && (1200..1700).contains(&y);
            let base = if face {
                [210u8, 160, 130]
            } else {
                [(x / 24) as u8, (y / 16) as u8, 120]
            };
            data.extend(base.map(|c| c.saturating_add(noise)));
        }
    }
    Ok(encode_jpeg(&RgbImage::new(w, h, data)?, 92)?)
}

#[tokio::main]
async fn main() -> Result<()> {
    let runners: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir()?;
    // One client asks for every certificate here.
    let app = common::application(
        dir.path(),
        &[
            ("RACESHOT__BIBS__READ", "false"),
            ("RACESHOT__CERTIFICATES__PER_CLIENT_PER_MINUTE", "0"),
        ],
    )
    .await?;
    let addr = app.local_addr()?;
    let state = app.state().clone();
    let event = common::event_on_sale(&state, "bench", "Bangkok Marathon").await?;
    let key = event.spec.key.clone();

    let mut csv = String::from("Bib,Name,Distance,Chip Time,Gun Time,Rank\n");
    for r in 0..runners {
        csv.push_str(&format!(
            "{},น้ำทิพย์ ปิ่นแก้ว {r},42.195K,3:{:02}:{:02},3:{:02}:30,{}\n",
            r + 1,
            r % 60,
            (r * 7) % 60,
            r % 60,
            r + 1
        ));
    }
    raceshot_server::services::results::import(
        &state.store,
        &event,
        csv.as_bytes(),
        None,
        "bench",
        state.now(),
    )
    .await?;

    let t = Instant::now();
    let original = photo_24mp()?;
    println!(
        "a 24 MP photo of {:.1} MB made in {:.1} s",
        original.len() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let dim = state.faces.configured().embedding_dim();
    for r in 0..runners {
        let storage_name = format!("runner{r:05}.jpg");
        let name = StoredName::parse(&storage_name).ok_or("name")?;
        state
            .objects
            .put(
                &ObjectKey::new(&key, ObjectKind::Original, &name),
                original.clone().into(),
            )
            .await?;
        let photo = NewPhoto {
            event_id: event.id,
            content_hash: format!("{r:064x}"),
            original_file_name: storage_name.clone(),
            storage_name,
            photographer_id: 1,
        };
        let job = |id: i64| NewJob {
            queue: "benchmark".into(),
            kind: "none".into(),
            payload: serde_json::json!({ "photo_id": id }),
            dedupe_key: None,
            max_attempts: 1,
            run_at: chrono::Utc::now(),
        };
        let Added::New(id) = state.store.add_photo(&photo, job, state.now()).await? else {
            return Err("photo existed".into());
        };
        // Each runner's own face: a different direction each.
        let mut embedding = vec![0f32; dim];
        embedding[r % dim] = 1.0;
        let face = NewFace {
            embedding: embedding.iter().flat_map(|v| v.to_le_bytes()).collect(),
            bbox: [2800.0, 1200.0, 3200.0, 1700.0],
            landmarks: vec![0; 40],
            score: 0.9,
        };
        state
            .store
            .save_processed_photo(
                id,
                event.id,
                &ProcessedPhoto {
                    size: (6000, 4000),
                    faces: FaceSet {
                        pair: state.faces.configured().name().to_owned(),
                        faces: vec![face],
                    },
                    ..ProcessedPhoto::default()
                },
                state.now(),
            )
            .await?;
        let bib = NewBib {
            bib: BibRule::default().parse(&(r + 1).to_string())?,
            confidence: 0.9,
            bbox: [2850.0, 2000.0, 3150.0, 2200.0],
        };
        state.store.replace_photo_bibs(id, event.id, &[bib]).await?;
    }
    state
        .store
        .save_certificate_settings(
            event.id,
            &CertificateSettings {
                offered: true,
                price: Money::ZERO,
                image_svg: None,
                print_svg: None,
                updated_at: state.now(),
            },
        )
        .await?;

    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = rx.await;
    }));
    let client = reqwest::Client::new();
    let get = |bib: usize, format: &'static str| {
        client
            .get(format!(
                "http://{addr}/api/events/bench/certificates/{bib}/{format}"
            ))
            .send()
    };
    let mut sizes = (0usize, 0usize);
    for (format, round) in [("image", "drawn"), ("print", "drawn"), ("image", "cached")] {
        let mut times = Vec::with_capacity(runners);
        for r in 0..runners {
            let t = Instant::now();
            let resp = get(r + 1, format).await?;
            let status = resp.status();
            let bytes = resp.bytes().await?;
            times.push(t.elapsed());
            if status != 200 {
                return Err(format!("{format} of {}: {status}", r + 1).into());
            }
            match format {
                "image" => sizes.0 = bytes.len(),
                _ => sizes.1 = bytes.len(),
            }
        }
        report(&format!("{format} ({round})"), times);
    }
    println!(
        "sizes: picture {:.0} KB, PDF {:.0} KB",
        sizes.0 as f64 / 1e3,
        sizes.1 as f64 / 1e3
    );
    let _ = tx.send(());
    let _ = server.await;
    Ok(())
}
