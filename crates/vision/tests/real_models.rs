//! Integration tests against the real models and photos fetched by `scripts/fetch-models.sh`
//! (directory from `RACESHOT__FACES__MODELS_DIR`, else `<workspace>/models`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

use raceshot_vision::{
    AnalyzedFace, BBox, DecodeOptions, Error, FaceEngine, FaceEngineConfig, FaceIndex, FaceRuntime,
    OpenVinoPrecision, RgbImage, cosine, decode,
};

fn models_dir() -> PathBuf {
    common::models_dir_with(&[
        "scrfd_500m_bnkps.onnx",
        "w600k_mbf.onnx",
        "libonnxruntime.so",
        "openvino/libopenvino_c.so",
        "photos/players.jpg",
    ])
}

/// The engine on ONNX Runtime, with the given change to its configuration.
fn onnx_engine(change: impl FnOnce(&mut FaceEngineConfig)) -> FaceEngine {
    let mut config = FaceEngineConfig::with_models_dir(models_dir());
    config.runtime = FaceRuntime::OnnxRuntime;
    change(&mut config);
    FaceEngine::load(config).unwrap()
}

fn engine() -> &'static FaceEngine {
    static ENGINE: OnceLock<FaceEngine> = OnceLock::new();
    ENGINE
        .get_or_init(|| FaceEngine::load(FaceEngineConfig::with_models_dir(models_dir())).unwrap())
}

fn photo_bytes(name: &str) -> Vec<u8> {
    std::fs::read(models_dir().join("photos").join(name)).unwrap()
}

fn photo(name: &str) -> RgbImage {
    decode(&photo_bytes(name), &DecodeOptions::default()).unwrap()
}

fn players_faces() -> &'static Vec<AnalyzedFace> {
    static FACES: OnceLock<Vec<AnalyzedFace>> = OnceLock::new();
    FACES.get_or_init(|| engine().analyze(&photo("players.jpg")).unwrap())
}

fn yaoming_selfie() -> AnalyzedFace {
    engine()
        .analyze_selfie(&photo("yaoming.jpg"))
        .unwrap()
        .expect("a face in yaoming.jpg")
}

#[test]
fn players_photo_yields_the_crowd_and_all_16_players() {
    let img = photo("players.jpg");
    let dets = engine().detect(&img).unwrap();
    // 134 here at the default long edge 1600 (the photo is 1237 px wide and is enlarged).
    assert!(dets.len() >= 100, "only {} faces detected", dets.len());
    for d in &dets {
        assert!(d.bbox.x1 >= 0.0 && d.bbox.y1 >= 0.0);
        assert!(d.bbox.x2 <= img.width() as f32 && d.bbox.y2 <= img.height() as f32);
        assert!(d.score >= 0.5);
    }
    // The 16 players stand in front: their faces are 36-48 px, the crowd's at most ~20.
    // The coarse pass (640) adds none: its detections all duplicate main-pass ones.
    let players = dets.iter().filter(|d| d.bbox.min_side() >= 30.0).count();
    assert_eq!(players, 16);
    // The quality gate keeps exactly those (the crowd's faces are too small to trust).
    let kept = players_faces();
    assert_eq!(
        kept.len(),
        16,
        "{:?}",
        kept.iter().map(|f| f.bbox).collect::<Vec<_>>()
    );
    assert!(
        kept.iter()
            .all(|f| f.bbox.min_side() >= 30.0 && f.embedding.dim() == 512)
    );
}

/// On ONNX Runtime the engine loads the recogniser with its PReLUs computed as
/// `Max(x, slope * x)` (`recognizer.prelu_as_max`); every face of the team photo gets the
/// very embedding the file as it is gives.
#[test]
fn the_rewritten_recognizer_embeds_exactly_as_the_file_does() {
    let rewritten = onnx_engine(|_| {});
    let as_is = onnx_engine(|c| c.recognizer.prelu_as_max = false);
    // MobileFaceNet has 34 PReLUs, every slope at most 1; OpenVINO runs PReLU as it is.
    assert_eq!(
        (
            rewritten.prelus_rewritten(),
            as_is.prelus_rewritten(),
            engine().prelus_rewritten()
        ),
        (34, 0, 0)
    );
    let img = photo("players.jpg");
    let faces = rewritten.analyze(&img).unwrap();
    let crops: Vec<RgbImage> = faces
        .iter()
        .map(|f| raceshot_vision::align::align_face(&img, &f.landmarks, 112).unwrap())
        .collect();
    let original = as_is.embed_crops(&crops).unwrap();
    assert!(faces.len() >= 16, "{} faces", faces.len());
    for (face, e) in faces.iter().zip(&original) {
        assert_eq!(&face.embedding, e);
    }
}

/// OpenVINO (the default runtime, in bf16 where the CPU has it) finds the faces ONNX
/// Runtime finds in f32, in the same places, with embeddings that agree.
#[test]
fn openvino_finds_the_faces_onnx_runtime_finds_with_embeddings_that_agree() {
    let f32_engine = onnx_engine(|_| {});
    assert_eq!(f32_engine.runtime(), "onnxruntime f32");
    assert!(
        ["openvino bf16", "openvino f32"].contains(&engine().runtime().as_str()),
        "{}",
        engine().runtime()
    );
    let img = photo("players.jpg");
    let reference = f32_engine.analyze(&img).unwrap();
    let faces = players_faces();
    assert_eq!(faces.len(), reference.len());
    let mut worst = 1.0f32;
    for r in &reference {
        let same = faces
            .iter()
            .max_by(|a, b| a.bbox.iou(&r.bbox).total_cmp(&b.bbox.iou(&r.bbox)))
            .unwrap();
        assert!(
            same.bbox.iou(&r.bbox) > 0.9,
            "{:?} vs {:?}",
            same.bbox,
            r.bbox
        );
        worst = worst.min(cosine(&same.embedding, &r.embedding));
    }
    println!(
        "players.jpg, {}: worst cosine to f32 {worst:.4}",
        engine().runtime()
    );
    assert!(worst >= 0.99, "worst cosine {worst}");

    // Told to compute in f32, OpenVINO agrees with ONNX Runtime to rounding.
    let mut config = FaceEngineConfig::with_models_dir(models_dir());
    config.openvino_precision = OpenVinoPrecision::F32;
    let exact = FaceEngine::load(config).unwrap();
    assert_eq!(exact.runtime(), "openvino f32");
    let embeddings = exact
        .embed_crops(&[
            raceshot_vision::align::align_face(&img, &reference[0].landmarks, 112).unwrap(),
        ])
        .unwrap();
    let agreement = cosine(&embeddings[0], &reference[0].embedding);
    assert!(agreement > 0.9999, "f32 cosine {agreement}");
}

#[test]
fn yaoming_selfie_finds_player_13_and_nobody_else() {
    let selfie = yaoming_selfie();
    assert!(selfie.score > 0.8);
    let mut sims: Vec<(f32, usize)> = players_faces()
        .iter()
        .enumerate()
        .map(|(i, f)| (cosine(&selfie.embedding, &f.embedding), i))
        .collect();
    sims.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (best, second) = (sims[0].0, sims[1].0);
    println!("yaoming vs players.jpg: best {best:.3}, second {second:.3}");
    assert!(best >= 0.43, "best match {best}");
    assert!(
        second < 0.35 && best - second >= 0.2,
        "best {best}, second {second}"
    );

    // Same answer through the index, with the default-ish threshold.
    let mut index = FaceIndex::new(engine().embedding_dim());
    for (i, f) in players_faces().iter().enumerate() {
        index
            .insert(i as i64, 1000 + i as i64, &f.embedding)
            .unwrap();
    }
    let hits = index.search(&selfie.embedding, 0.35, 10).unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].face_id, sims[0].1 as i64);
    assert!((hits[0].similarity - best).abs() <= index.max_quantisation_error() + 1e-4);
}

/// `img` pasted at (`x`, `y`) onto a `width` x `height` canvas of flat grey.
fn on_canvas(img: &RgbImage, width: u32, height: u32, x: u32, y: u32) -> RgbImage {
    let mut canvas = RgbImage::filled(width, height, [110, 110, 110]);
    paste(&mut canvas, img, x, y);
    canvas
}

#[test]
fn close_up_portrait_is_found_by_the_coarse_pass() {
    // A race photo with a runner close to the camera: yaoming.jpg (233x287, face ~106 px)
    // enlarged so the face is ~500 px, on a 1600-px-wide canvas, so the main pass sees it
    // at scale 1 with a ~500 px face, beyond what SCRFD-500M finds (~300 px).
    let selfie = yaoming_selfie();
    let small = photo("yaoming.jpg");
    let k = 500.0 / selfie.bbox.min_side();
    let (w, h) = (
        (small.width() as f32 * k).round() as u32,
        (small.height() as f32 * k).round() as u32,
    );
    let runner = raceshot_vision::resize_exact(&small, w, h);
    let (x, y) = (300, 0);
    let img = on_canvas(&runner, 1600, h.max(1067), x, y);
    let long_edge = engine().config().detector.long_edge;
    assert_eq!(img.long_edge(), long_edge, "the main pass runs at scale 1");
    assert!(
        engine()
            .coarse_edge_for(img.width(), img.height())
            .is_some(),
        "the coarse pass runs on this photo"
    );

    let matches = |faces: &[AnalyzedFace]| {
        faces
            .iter()
            .filter(|f| cosine(&f.embedding, &selfie.embedding) > 0.6)
            .cloned()
            .collect::<Vec<_>>()
    };
    // Without this the test would pass with or without the coarse pass.
    let main_only = engine().analyze_at(&img, long_edge).unwrap();
    assert!(
        matches(&main_only).is_empty(),
        "the main pass alone now finds the close-up: this test no longer exercises the coarse pass"
    );

    let found = matches(&engine().analyze(&img).unwrap());
    assert_eq!(found.len(), 1, "{found:?}");
    let face = &found[0];
    println!(
        "close-up: face {:.0} px, score {:.3}, similarity to the selfie {:.3}",
        face.bbox.min_side(),
        face.score,
        cosine(&face.embedding, &selfie.embedding)
    );
    // Where the enlarged selfie face is, in the canvas's pixels.
    let want = BBox {
        x1: x as f32 + selfie.bbox.x1 * k,
        y1: y as f32 + selfie.bbox.y1 * k,
        x2: x as f32 + selfie.bbox.x2 * k,
        y2: y as f32 + selfie.bbox.y2 * k,
    };
    assert!(face.bbox.iou(&want) > 0.7, "{:?} vs {want:?}", face.bbox);
    for (p, q) in face.landmarks.iter().zip(&selfie.landmarks) {
        let (ex, ey) = (x as f32 + q[0] * k, y as f32 + q[1] * k);
        assert!(
            (p[0] - ex).abs() < 25.0 && (p[1] - ey).abs() < 25.0,
            "landmark {p:?}, expected ~({ex}, {ey})"
        );
    }
}

#[test]
fn distant_runner_is_found_by_the_fine_pass_beside_a_main_pass_at_640() {
    // A 3000x2000 frame (a 24 MP photo as ingestion decodes it) with two runners made
    // from yaoming.jpg: a distant one whose face is 40 px wide, 8.5 px at the main pass's
    // 640 (too small for SCRFD), and a near one of 240 px, which the main pass sees at
    // 51 px and the fine pass leaves to it (32 px and more at 640).
    let selfie = yaoming_selfie();
    let small = photo("yaoming.jpg");
    let runner = |face_px: f32| {
        let k = face_px / selfie.bbox.min_side();
        let (w, h) = (
            (small.width() as f32 * k).round() as u32,
            (small.height() as f32 * k).round() as u32,
        );
        (raceshot_vision::resize_exact(&small, w, h), k)
    };
    let ((distant, kd), (near, kn)) = (runner(40.0), runner(240.0));
    let mut img = on_canvas(&distant, 3000, 2000, 2200, 1400);
    paste(&mut img, &near, 400, 300);
    let (w, h) = (img.width(), img.height());
    assert_eq!(engine().fine_edge_for(w, h), Some(3000));
    assert_eq!(engine().main_edge_for(w, h), 640);
    assert_eq!(
        engine().coarse_edge_for(w, h),
        None,
        "the main pass is at 640 already"
    );
    // Photos the fine pass skips keep the main pass at the long edge.
    assert_eq!(engine().fine_edge_for(1999, 1333), None);
    assert_eq!(engine().main_edge_for(1999, 1333), 1600);

    let expected = |x: f32, y: f32, k: f32| BBox {
        x1: x + selfie.bbox.x1 * k,
        y1: y + selfie.bbox.y1 * k,
        x2: x + selfie.bbox.x2 * k,
        y2: y + selfie.bbox.y2 * k,
    };
    let (want_distant, want_near) = (expected(2200.0, 1400.0, kd), expected(400.0, 300.0, kn));
    let at = |faces: &[AnalyzedFace], want: &BBox| {
        faces
            .iter()
            .find(|f| f.bbox.iou(want) > 0.6)
            .map(|f| cosine(&f.embedding, &selfie.embedding))
    };
    let faces = engine().analyze(&img).unwrap();
    assert_eq!(faces.len(), 2, "{faces:?}");
    let (distant_sim, near_sim) = (at(&faces, &want_distant), at(&faces, &want_near));
    println!("distant runner: similarity {distant_sim:?}; near runner: {near_sim:?}");
    assert!(distant_sim.is_some_and(|s| s > 0.5), "{faces:?}");
    assert!(near_sim.is_some_and(|s| s > 0.6), "{faces:?}");
    // Without this the test would pass with or without the fine pass.
    let main_only = engine().analyze_at(&img, 640).unwrap();
    assert!(
        at(&main_only, &want_distant).is_none(),
        "the main pass at 640 alone now finds the distant runner: this test no longer exercises the fine pass"
    );
}

/// Pastes `img` onto `canvas` at (`x`, `y`).
fn paste(canvas: &mut RgbImage, img: &RgbImage, x: u32, y: u32) {
    let width = canvas.width();
    assert!(x + img.width() <= width && y + img.height() <= canvas.height());
    let mut data = canvas.data().to_vec();
    let row = img.width() as usize * 3;
    for (r, src) in img.data().chunks_exact(row).enumerate() {
        let o = ((y as usize + r) * width as usize + x as usize) * 3;
        data[o..o + row].copy_from_slice(src);
    }
    *canvas = RgbImage::new(width, canvas.height(), data).unwrap();
}

#[test]
fn gdp_faces_do_not_match_yaoming() {
    let selfie = yaoming_selfie();
    let faces = engine().analyze(&photo("gdp.jpg")).unwrap();
    assert!(!faces.is_empty());
    for f in &faces {
        let s = cosine(&selfie.embedding, &f.embedding);
        assert!(
            s < 0.35,
            "gdp face at {:?} matches yaoming with {s}",
            f.bbox
        );
    }
}

#[test]
fn exif_rotated_selfie_still_matches() {
    // Store yaoming.jpg rotated a quarter turn counter-clockwise and tag it orientation 6
    // ("rotate 90 clockwise to display"), as a phone held sideways does.
    let upright = photo("yaoming.jpg");
    let stored = raceshot_vision::image_io::apply_orientation(upright, 8);
    let mut c = turbojpeg::Compressor::new().unwrap();
    c.set_quality(95).unwrap();
    let jpeg = c
        .compress_to_vec(turbojpeg::Image {
            pixels: stored.data(),
            width: stored.width() as usize,
            pitch: stored.width() as usize * 3,
            height: stored.height() as usize,
            format: turbojpeg::PixelFormat::RGB,
        })
        .unwrap();
    let mut tagged = jpeg[..2].to_vec();
    let mut app1 =
        b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0\x06\0\0\0\0\0\0\0".to_vec();
    let len = (app1.len() + 2) as u16;
    tagged.extend_from_slice(&[0xFF, 0xE1]);
    tagged.extend_from_slice(&len.to_be_bytes());
    tagged.append(&mut app1);
    tagged.extend_from_slice(&jpeg[2..]);

    let img = decode(&tagged, &DecodeOptions::default()).unwrap();
    assert_eq!((img.width(), img.height()), (233, 287), "displayed upright");
    let face = engine()
        .analyze_selfie(&img)
        .unwrap()
        .expect("face after EXIF rotation");
    let s = cosine(&face.embedding, &yaoming_selfie().embedding);
    assert!(s > 0.8, "same photo re-encoded should match itself: {s}");
}

#[test]
fn bad_inputs_give_clean_errors() {
    let opts = DecodeOptions::default();
    // Text file, whatever its name.
    let err = decode(
        b"this is not an image, even if it is called photo.jpg\n",
        &opts,
    )
    .unwrap_err();
    assert!(matches!(err, Error::UnsupportedFormat), "{err}");

    // Corrupt JPEG: a valid header followed by garbage, and a truncated one.
    let jpeg = photo_bytes("players.jpg");
    let mut garbled = jpeg.clone();
    let mid = garbled.len() / 3;
    for b in &mut garbled[mid..] {
        *b = 0xFF;
    }
    assert!(matches!(decode(&garbled, &opts), Err(Error::Decode(_))));
    let truncated = &jpeg[..jpeg.len() / 2];
    assert!(matches!(decode(truncated, &opts), Err(Error::Decode(_))));
    assert!(matches!(decode(&jpeg[..100], &opts), Err(Error::Decode(_))));

    // Truncated PNG.
    let img = photo("yaoming.jpg");
    let mut png_bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_bytes, img.width(), img.height());
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(img.data()).unwrap();
    }
    let full = decode(&png_bytes, &opts).unwrap();
    assert_eq!(full, img);
    let cut = &png_bytes[..png_bytes.len() / 2];
    assert!(matches!(decode(cut, &opts), Err(Error::Decode(_))));

    // PNG bomb: the header declares 100000 x 100000.
    let mut bomb = png_bytes.clone();
    bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    assert!(matches!(
        decode(&bomb, &opts),
        Err(Error::TooManyPixels {
            width: 100_000,
            height: 100_000,
            ..
        })
    ));
    // A caller's smaller limit applies too (selfies).
    assert!(matches!(
        decode(&jpeg, &DecodeOptions::default().with_max_pixels(500_000)),
        Err(Error::TooManyPixels { .. })
    ));
}

#[test]
fn engine_is_shared_across_threads() {
    let img = photo("gdp.jpg");
    let want = engine().analyze(&img).unwrap();
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..3)
            .map(|_| s.spawn(|| engine().analyze(&img).unwrap()))
            .collect();
        for r in runs {
            let got = r.join().unwrap();
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!(cosine(&g.embedding, &w.embedding) > 0.999);
            }
        }
    });
}

#[test]
fn missing_models_are_reported_with_the_fix() {
    let err =
        FaceEngine::load(FaceEngineConfig::with_models_dir("/nonexistent/models")).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::ModelNotFound { .. }), "{msg}");
    assert!(msg.contains("scripts/fetch-models.sh"), "{msg}");
}

/// Timings on this machine (run with `--release --ignored --nocapture`).
#[test]
#[ignore = "benchmark"]
fn timings() {
    let time = |n: u32, f: &mut dyn FnMut()| {
        f();
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_secs_f64() * 1e3 / f64::from(n)
    };
    let img = photo("players.jpg");
    let bytes = photo_bytes("players.jpg");
    let dec = time(20, &mut || {
        decode(&bytes, &DecodeOptions::default()).unwrap();
    });
    let align = time(100, &mut || {
        raceshot_vision::align::align_face(&img, &players_faces()[0].landmarks, 112).unwrap();
    });
    println!("players.jpg: decode {dec:.1} ms, align {align:.2} ms/face");
    let crops: Vec<RgbImage> = players_faces()
        .iter()
        .map(|f| raceshot_vision::align::align_face(&img, &f.landmarks, 112).unwrap())
        .collect();
    for (runtime, intra) in [
        (FaceRuntime::OpenVino, 1),
        (FaceRuntime::OpenVino, 2),
        (FaceRuntime::OnnxRuntime, 1),
        (FaceRuntime::OnnxRuntime, 2),
    ] {
        let mut cfg = FaceEngineConfig::with_models_dir(models_dir());
        cfg.runtime = runtime;
        cfg.intra_threads = intra;
        let e = FaceEngine::load(cfg).unwrap();
        let detect = time(10, &mut || {
            e.detect_at(&img, 1600).unwrap();
        });
        let both = time(10, &mut || {
            e.detect(&img).unwrap();
        });
        let detect640 = time(10, &mut || {
            e.detect_at(&img, 640).unwrap();
        });
        let embed1 = time(20, &mut || {
            e.embed_crops(&crops[..1]).unwrap();
        });
        let embed16 = time(5, &mut || {
            e.embed_crops(&crops).unwrap();
        }) / crops.len() as f64;
        let analyze = time(3, &mut || {
            e.analyze(&img).unwrap();
        });
        println!(
            "{}, intra_threads={intra}: detect@1600 {detect:.1} ms, detect@640 {detect640:.1} ms, \
             detect (both passes) {both:.1} ms, \
             embed {embed1:.1} ms (1 face) / {embed16:.1} ms per face (batch of 16), analyze {analyze:.0} ms",
            e.runtime()
        );
    }

    // A 24 MP photo: DCT-scaled decodes for the sizes ingestion needs.
    let big = raceshot_vision::resize_exact(&img, 6000, 4000);
    let mut c = turbojpeg::Compressor::new().unwrap();
    c.set_quality(90).unwrap();
    let big_jpeg = c
        .compress_to_vec(turbojpeg::Image {
            pixels: big.data(),
            width: 6000,
            pitch: 18000,
            height: 4000,
            format: turbojpeg::PixelFormat::RGB,
        })
        .unwrap();
    for target in [None, Some(1600), Some(1500), Some(400)] {
        let opts = DecodeOptions {
            target_long_edge: target,
            ..DecodeOptions::default()
        };
        let mut size = (0, 0);
        let ms = time(3, &mut || {
            let d = decode(&big_jpeg, &opts).unwrap();
            size = (d.width(), d.height());
        });
        println!("24 MP decode for target {target:?}: {size:?} in {ms:.1} ms");
    }
    let half = decode(
        &big_jpeg,
        &DecodeOptions::default().with_target_long_edge(1600),
    )
    .unwrap();
    let r = time(5, &mut || {
        raceshot_vision::resize_to_long_edge(&half, 1600);
    });
    println!(
        "resize {}x{} -> 1600: {r:.1} ms",
        half.width(),
        half.height()
    );
}

#[test]
fn a_selfie_answers_every_face_it_shows_and_embeds_the_primary() {
    let selfie = |name| {
        let opts = DecodeOptions::default().with_target_long_edge(640);
        decode(&photo_bytes(name), &opts).unwrap()
    };
    let portrait = engine()
        .analyze_selfie_faces(&selfie("yaoming.jpg"))
        .unwrap()
        .unwrap();
    assert_eq!(portrait.boxes, [portrait.primary.bbox]);
    assert!(cosine(&portrait.primary.embedding, &yaoming_selfie().embedding) > 0.99);
    // The team photo as a selfie: the 16 players in front (37-47 px at this scale) and a
    // few of the crowd behind (16-20 px); one of the players is the primary face.
    let team = engine()
        .analyze_selfie_faces(&selfie("players.jpg"))
        .unwrap()
        .unwrap();
    let players: Vec<&BBox> = team.boxes.iter().filter(|b| b.min_side() >= 30.0).collect();
    assert_eq!(players.len(), 16, "{:?}", team.boxes);
    assert!(players.contains(&&team.primary.bbox));
}

#[test]
fn the_selfie_seen_from_afar_finds_the_same_man_and_nobody_else() {
    let opts = DecodeOptions::default().with_target_long_edge(640);
    let img = decode(&photo_bytes("yaoming.jpg"), &opts).unwrap();
    let selfie = engine().analyze_selfie_faces(&img).unwrap().unwrap();
    let sharp = &selfie.primary.embedding;
    // The same man, one view blurred: close, not equal.
    let distant = engine().embed_distant(&img, &selfie.primary).unwrap();
    let views = cosine(sharp, &distant);
    assert!(views > 0.6 && views < 0.99, "{views}");
    // It is the distant view of the aligned crop, embedded.
    let crop = raceshot_vision::align::align_face(&img, &selfie.primary.landmarks, 112).unwrap();
    let again = engine()
        .embed_crops(&[raceshot_vision::distant_view(&crop)])
        .unwrap();
    assert!(cosine(&again[0], &distant) > 0.999);
    // In the team photo (faces about 45 px wide) it finds him, as the sharp selfie does,
    // and nobody else comes near the pair's least threshold for the view.
    let least = engine().model_pair().distant_least_threshold();
    let mut sims: Vec<(f32, f32)> = players_faces()
        .iter()
        .map(|f| (cosine(&distant, &f.embedding), cosine(sharp, &f.embedding)))
        .collect();
    sims.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("distant view against players.jpg: {:?}", &sims[..3]);
    let (him, others) = (sims[0], &sims[1..]);
    assert!(him.0 >= least + 0.1, "{him:?}");
    assert!(
        him.1 == sims.iter().map(|s| s.1).fold(f32::MIN, f32::max),
        "the distant view's best face is the sharp selfie's: {sims:?}"
    );
    assert!(others.iter().all(|s| s.0 < least - 0.05), "{sims:?}");
}
