//! Image files as strangers send them: valid JPEGs and PNGs with bytes flipped, cut short or
//! spliced, and plain noise, 10,000 of each. Probing and decoding must answer an image or
//! a clean error, never panic, and never hold more memory than the pixel limit allows: a
//! counting allocator measures the peak of every decode.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use raceshot_domain::testing::{CountingAllocator, peak_of};
use raceshot_vision::image_io::{DecodeOptions, decode, probe, sniff};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The pixel limit the tests decode under: a selfie's 40 megapixels would allow ~120 MB;
/// a smaller one keeps 10,000 cases quick while testing the same bound.
const MAX_PIXELS: u64 = 4_000_000;

/// What one decode may hold at its peak: the RGB buffer the limit allows, a second one
/// for orientation or conversion, and a little for the codec's own tables.
const PEAK_LIMIT: usize = (MAX_PIXELS as usize) * 3 * 2 + 16 * 1024 * 1024;

fn sample_jpeg() -> Vec<u8> {
    let (w, h) = (96usize, 64usize);
    let pixels: Vec<u8> = (0..w * h * 3).map(|i| (i * 7 % 251) as u8).collect();
    let image = turbojpeg::Image {
        pixels: pixels.as_slice(),
        width: w,
        pitch: w * 3,
        height: h,
        format: turbojpeg::PixelFormat::RGB,
    };
    turbojpeg::compress(image, 85, turbojpeg::Subsamp::Sub2x2)
        .unwrap()
        .to_vec()
}

fn sample_png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, 40, 30);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let data: Vec<u8> = (0..40 * 30 * 3).map(|i| (i % 256) as u8).collect();
        writer.write_image_data(&data).unwrap();
    }
    out
}

/// A damaged copy of `base`: some bytes overwritten, then maybe cut short.
fn damaged(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = base.len();
    (
        prop::collection::vec((0..len, any::<u8>()), 1..12),
        prop::option::of(0..len),
    )
        .prop_map(move |(edits, cut)| {
            let mut bytes = base.clone();
            for (at, value) in edits {
                bytes[at] = value;
            }
            if let Some(cut) = cut {
                bytes.truncate(cut);
            }
            bytes
        })
}

/// Decodes and answers the peak memory the decode added (on this thread, where it runs).
fn decode_peak(bytes: &[u8]) -> usize {
    let ((), peak) = peak_of(|| {
        let _ = sniff(bytes);
        let _ = probe(bytes);
        let _ = decode(bytes, &DecodeOptions::default().with_max_pixels(MAX_PIXELS));
    });
    peak
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn damaged_jpegs_decode_or_fail_within_the_memory_bound(bytes in damaged(sample_jpeg())) {
        let peak = decode_peak(&bytes);
        prop_assert!(peak <= PEAK_LIMIT, "peak {peak} bytes");
    }

    #[test]
    fn damaged_pngs_decode_or_fail_within_the_memory_bound(bytes in damaged(sample_png())) {
        let peak = decode_peak(&bytes);
        prop_assert!(peak <= PEAK_LIMIT, "peak {peak} bytes");
    }

    #[test]
    fn noise_decodes_to_nothing_within_the_memory_bound(
        head in prop_oneof![Just(vec![0xFF, 0xD8, 0xFF]), Just(b"\x89PNG\r\n\x1a\n".to_vec()), Just(vec![])],
        tail in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let bytes = [head, tail].concat();
        let peak = decode_peak(&bytes);
        prop_assert!(peak <= PEAK_LIMIT, "peak {peak} bytes");
    }
}
