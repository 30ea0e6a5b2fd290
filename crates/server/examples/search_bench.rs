//! Face search latency on a large event: by default 333,334 photos with 1,000,002 faces,
//! the size of a big race (synthetic
//! embeddings, bulk-inserted through the store, plus `players.jpg` ingested for real), then
//! `POST /v1/facesearch` and the `/v2` sign → PUT → search flow with `yaoming.jpg` against
//! a release build on SQLite. Prints the cold first search (the index built from the
//! rows), the first search after a restart (the index read from the snapshot the first
//! process wrote), p50/p99 end to end, the index scan alone, and the fit of one view's
//! thresholds on the event's faces alone (`FaceIndex::stranger_fit`), the lookalike
//! guard alone at its most (`FaceIndex::most_alike`), and at its most the runner's bib
//! read on the guard's photos (`services::bibs::worn`: each synthetic photo wears a bib
//! under its first face).
//!
//! `cargo run --release -p raceshot-server --example search_bench -- [PHOTOS] [FACES_PER_PHOTO]`

use std::time::{Duration, Instant};

use raceshot_domain::bib::BibRule;
use raceshot_domain::event::{DEFAULT_MAX_FACE_SEARCH, MAX_FACE_SEARCH_LIMIT};
use raceshot_server::commands::ingest;
use raceshot_server::services::bibs;
use raceshot_store::bibs::NewBib;
use raceshot_store::jobs::NewJob;
use raceshot_store::photos::{Added, FaceSet, NewFace, NewPhoto, ProcessedPhoto};
use raceshot_vision::lookalike::MOST_SURE;
use raceshot_vision::{Embedding, FaceIndex};

mod common;

use common::Result;

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// An unrelated person's face.
fn random_embedding(seed: u64, dim: usize) -> Result<Embedding> {
    Ok(raceshot_vision::testing::stranger(seed, dim)?)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let photos: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(333_334);
    let per_photo: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let models = common::models_dir();
    let dir = tempfile::tempdir()?;
    // One client makes every search here, signing an upload for each (one at a time, so
    // never more than one pending).
    let env = [
        ("RACESHOT__SEARCH__PER_CLIENT_PER_MINUTE", "0"),
        ("RACESHOT__SEARCH__SIGN_PER_CLIENT_PER_MINUTE", "0"),
        // Room for a million faces' index (about 830 MB).
        ("RACESHOT__SEARCH__INDEX_MEMORY_MB", "2048"),
    ];
    let app = common::application(dir.path(), &env).await?;
    let addr = app.local_addr()?;
    let state = app.state().clone();
    let event_id = common::event_on_sale(&state, "bench", "Search benchmark")
        .await?
        .id;

    let t = Instant::now();
    let dim = state.faces.configured().embedding_dim();
    let mut vectors = Vec::with_capacity(photos * per_photo);
    for p in 0..photos {
        let photo = NewPhoto {
            event_id,
            content_hash: format!("{p:064x}"),
            original_file_name: format!("IMG_{p:06}.jpg"),
            storage_name: format!("synthetic{p:08}.jpg"),
            photographer_id: 1,
        };
        // The synthetic photos have no files: their job goes to a queue nobody works.
        let job = |id: i64| NewJob {
            queue: "benchmark".into(),
            kind: "none".into(),
            payload: serde_json::json!({ "photo_id": id }),
            dedupe_key: None,
            max_attempts: 1,
            run_at: chrono::Utc::now(),
        };
        let Added::New(id) = state.store.add_photo(&photo, job, state.now()).await? else {
            continue;
        };
        let mut faces = Vec::with_capacity(per_photo);
        for f in 0..per_photo {
            let e = random_embedding((p * per_photo + f) as u64, dim)?;
            faces.push(NewFace {
                embedding: e.to_bytes(),
                bbox: [0.0, 0.0, 40.0, 40.0],
                landmarks: vec![0; 40],
                score: 0.9,
            });
            vectors.push((id, e));
        }
        state
            .store
            .save_processed_photo(
                id,
                event_id,
                &ProcessedPhoto {
                    size: (6000, 4000),
                    faces: FaceSet {
                        pair: state.faces.configured().name().to_owned(),
                        faces,
                    },
                    // A bib on the chest under the first face, as a race photo's.
                    bibs: vec![NewBib {
                        bib: BibRule::default().parse(&(1000 + p % 90_000).to_string())?,
                        confidence: 0.9,
                        bbox: [0.0, 60.0, 40.0, 80.0],
                    }],
                    ..ProcessedPhoto::default()
                },
                state.now(),
            )
            .await?;
        if p % 10_000 == 0 && p > 0 {
            eprintln!("  {p} photos inserted ({:.0} s)", t.elapsed().as_secs_f64());
        }
    }
    println!(
        "inserted {photos} photos / {} faces in {:.1} s",
        photos * per_photo,
        t.elapsed().as_secs_f64()
    );

    let players = models.join("photos/players.jpg");
    let report = ingest::ingest(&state, "bench", 0, &[players], true, false).await?;
    println!(
        "ingested players.jpg: {} ready, {} failed",
        report.ready,
        report.failed.len()
    );

    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = rx.await;
    }));
    let selfie = std::fs::read(models.join("photos/yaoming.jpg"))?;
    let client = reqwest::Client::new();
    let token = "demo-client-token";
    let v1 = |addr: std::net::SocketAddr, bytes: Vec<u8>| {
        let form = reqwest::multipart::Form::new()
            .text("event_key", "bench")
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name("me.jpg"),
            );
        client
            .post(format!("http://{addr}/v1/facesearch"))
            .bearer_auth(token)
            .multipart(form)
            .send()
    };

    let t = Instant::now();
    let first: serde_json::Value = v1(addr, selfie.clone()).await?.json().await?;
    println!(
        "cold first search (loads the event's index): {:.0} ms, {} photos found",
        t.elapsed().as_secs_f64() * 1000.0,
        first["image_length"]
    );

    // The first search wrote the event's index snapshot in the background; a process
    // started after it reads that instead of the rows.
    let t = Instant::now();
    let pair = state.faces.configured();
    let snapshot = loop {
        match state.store.face_snapshot(event_id, pair.name()).await? {
            Some(s) => break s,
            None if t.elapsed() < Duration::from_secs(600) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            None => return Err("no index snapshot was written".into()),
        }
    };
    println!(
        "index snapshot: {} faces, {:.0} MB, ready {:.1} s after the first search",
        snapshot.faces,
        snapshot.bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let _ = tx.send(());
    let _ = server.await;
    drop(state);

    let app = common::application(dir.path(), &env).await?;
    let addr = app.local_addr()?;
    let state = app.state().clone();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let t = Instant::now();
    let server = tokio::spawn(app.run_until(async {
        let _ = rx.await;
    }));
    let restarted: serde_json::Value = v1(addr, selfie.clone()).await?.json().await?;
    println!(
        "first search after a restart (reads the snapshot): {:.0} ms, {} photos found",
        t.elapsed().as_secs_f64() * 1000.0,
        restarted["image_length"]
    );
    if restarted["image_length"] != first["image_length"] {
        return Err(format!("the restarted process answered {restarted}").into());
    }

    let rounds = 200;
    let mut v1_times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        let resp: serde_json::Value = v1(addr, selfie.clone()).await?.json().await?;
        v1_times.push(t.elapsed());
        if resp["image_length"] != 1 {
            return Err(format!("unexpected answer {resp}").into());
        }
    }
    v1_times.sort();

    let mut v2_times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        let signed: serde_json::Value = client
            .post(format!("http://{addr}/v2/facesearch/sign"))
            .bearer_auth(token)
            .json(&serde_json::json!({"event_key": "bench", "file_type": "image/jpeg"}))
            .send()
            .await?
            .json()
            .await?;
        client
            .put(signed["url"].as_str().ok_or("url")?)
            .body(selfie.clone())
            .send()
            .await?;
        let resp: serde_json::Value = client
            .post(format!("http://{addr}/v2/facesearch"))
            .bearer_auth(token)
            .json(&serde_json::json!({"search_id": signed["search_id"], "file_location": signed["file_location"], "event_key": "bench"}))
            .send()
            .await?
            .json()
            .await?;
        v2_times.push(t.elapsed());
        if resp["image_length"] != 1 {
            return Err(format!("unexpected answer {resp}").into());
        }
    }
    v2_times.sort();

    // The index scan alone, on the same vectors (40 px faces, as inserted above), and the
    // fit of a search's thresholds on them.
    let mut index = FaceIndex::with_capacity(dim, vectors.len());
    for (i, (photo, e)) in vectors.iter().enumerate() {
        index.insert_face(i as i64, *photo, e, 40.0)?;
    }
    let query = random_embedding(u64::MAX, dim)?;
    let (mut scan, mut fit) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let t = Instant::now();
        let hits = index.search(&query, 0.35, 200)?;
        scan.push(t.elapsed());
        std::hint::black_box(hits);
        let t = Instant::now();
        std::hint::black_box(index.stranger_fit(&query)?);
        fit.push(t.elapsed());
    }
    scan.sort();
    fit.sort();

    // The lookalike guard alone at its most: every hit of both views a weak match (two
    // views of an event's largest answer) against the most surest appearances that vouch.
    let guard_at = |weak: usize| {
        let faces: Vec<i64> = (0..weak as i64).collect();
        let sure: Vec<i64> = (weak as i64..(weak + MOST_SURE) as i64).collect();
        let mut times: Vec<Duration> = (0..rounds)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(index.most_alike(&faces, &sure));
                t.elapsed()
            })
            .collect();
        times.sort();
        times
    };
    let guard_default = guard_at(2 * DEFAULT_MAX_FACE_SEARCH as usize);
    let guard_limit = guard_at(2 * MAX_FACE_SEARCH_LIMIT as usize);

    // The runner's bib at its most: the bibs and faces of as many photos as the guard's
    // weak matches and surest appearances above, spread over the event, every one wearing
    // a bib (an event whose photos carry none pays only the first two of its queries).
    let photo_ids: Vec<i64> = vectors.iter().step_by(per_photo).map(|v| v.0).collect();
    let mut bib_times = Vec::new();
    for weak in [DEFAULT_MAX_FACE_SEARCH, MAX_FACE_SEARCH_LIMIT] {
        let count = 2 * weak as usize + MOST_SURE;
        let step = (photo_ids.len() / count).max(1);
        let ids: Vec<i64> = photo_ids
            .iter()
            .step_by(step)
            .take(count)
            .copied()
            .collect();
        let mut times = Vec::with_capacity(rounds);
        let mut worn = 0;
        for _ in 0..rounds {
            let t = Instant::now();
            worn = bibs::worn(&state.store, pair, &ids).await?.len();
            times.push(t.elapsed());
        }
        times.sort();
        bib_times.push((times, ids.len(), worn));
    }

    println!(
        "== {photos} photos, {} faces, {rounds} searches each, sequential",
        vectors.len() + 16
    );
    println!(
        "POST /v1/facesearch        p50 {:.1} ms  p99 {:.1} ms",
        percentile(&v1_times, 0.5),
        percentile(&v1_times, 0.99)
    );
    println!(
        "sign + PUT + /v2/facesearch p50 {:.1} ms  p99 {:.1} ms",
        percentile(&v2_times, 0.5),
        percentile(&v2_times, 0.99)
    );
    println!(
        "index scan alone            p50 {:.2} ms  p99 {:.2} ms  ({} bytes/face)",
        percentile(&scan, 0.5),
        percentile(&scan, 0.99),
        index.memory_bytes() / vectors.len().max(1)
    );
    println!(
        "stranger fit alone          p50 {:.2} ms  p99 {:.2} ms  (a search fits two views)",
        percentile(&fit, 0.5),
        percentile(&fit, 0.99)
    );
    for (times, most) in [
        (&guard_default, DEFAULT_MAX_FACE_SEARCH),
        (&guard_limit, MAX_FACE_SEARCH_LIMIT),
    ] {
        println!(
            "lookalike guard alone       p50 {:.2} ms  p99 {:.2} ms  ({} weak matches x {MOST_SURE} sure: two views of {most} hits)",
            percentile(times, 0.5),
            percentile(times, 0.99),
            2 * most
        );
    }
    for (times, photos, worn) in &bib_times {
        println!(
            "the runner's bib alone      p50 {:.2} ms  p99 {:.2} ms  ({photos} photos' bibs and faces read, {worn} faces wearing one)",
            percentile(times, 0.5),
            percentile(times, 0.99)
        );
    }
    let _ = tx.send(());
    let _ = server.await;
    Ok(())
}
