//! Image files the shop writes: JPEG encoding, crops, the shop's visible mark on previews,
//! and the logo stamped on the copies of sold photos.

use anyhow::Context;
use raceshot_vision::image_io::{DecodeOptions, decode, fit_long_edge, resize_exact};
use raceshot_vision::{BBox, RgbImage};

/// Event photos up to 100 megapixels are accepted.
pub const MAX_PHOTO_PIXELS: u64 = 100_000_000;

/// The most pixels a logo may declare: 2048 × 2048. A logo is stamped at 15% of a photo's
/// width, so more is never needed; the limit is checked on the header before any decoding,
/// so that a small file declaring a huge image (a pixel bomb) costs nothing.
pub const LOGO_MAX_PIXELS: u64 = 2048 * 2048;

/// Decodes a logo, refusing one that declares more than [`LOGO_MAX_PIXELS`] before
/// reading its pixels.
pub fn decode_logo(bytes: &[u8]) -> Result<RgbImage, raceshot_vision::Error> {
    decode(
        bytes,
        &DecodeOptions::default()
            .with_max_pixels(LOGO_MAX_PIXELS)
            .with_target_long_edge(1200),
    )
}

/// JPEG-encodes an RGB image (4:2:0, as photos are).
pub fn encode_jpeg(img: &RgbImage, quality: i32) -> anyhow::Result<Vec<u8>> {
    let image = turbojpeg::Image {
        pixels: img.data(),
        width: img.width() as usize,
        pitch: img.width() as usize * 3,
        height: img.height() as usize,
        format: turbojpeg::PixelFormat::RGB,
    };
    Ok(turbojpeg::compress(image, quality, turbojpeg::Subsamp::Sub2x2)?.to_vec())
}

/// The pixels of `img` inside `region`, which is clamped to the image and rounded outwards
/// to whole pixels; at least one pixel.
pub fn crop(img: &RgbImage, region: &BBox) -> anyhow::Result<RgbImage> {
    let (width, height) = (img.width(), img.height());
    anyhow::ensure!(
        width > 0 && height > 0,
        "an empty image has nothing to crop"
    );
    // `as` saturates: NaN and negatives become 0, and the bounds clamp the rest.
    let x1 = (region.x1.floor() as u32).min(width - 1);
    let y1 = (region.y1.floor() as u32).min(height - 1);
    let x2 = (region.x2.ceil() as u32).clamp(x1 + 1, width);
    let y2 = (region.y2.ceil() as u32).clamp(y1 + 1, height);
    img.crop(x1, y1, x2 - x1, y2 - y1)
        .context("the region lies outside the image")
}

/// 5×7 dot glyphs of the mark's letters, one row per byte, high bit on the left.
const GLYPHS: [(char, [u8; 7]); 8] = [
    (
        'R',
        [
            0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001,
        ],
    ),
    (
        'A',
        [
            0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001,
        ],
    ),
    (
        'C',
        [
            0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110,
        ],
    ),
    (
        'E',
        [
            0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111,
        ],
    ),
    (
        'S',
        [
            0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110,
        ],
    ),
    (
        'H',
        [
            0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001,
        ],
    ),
    (
        'O',
        [
            0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110,
        ],
    ),
    (
        'T',
        [
            0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100,
        ],
    ),
];
const MARK: &str = "RACESHOT";

/// The top-left corners of the dots that spell the shop's name from `(x0, y0)`, each dot
/// `dot` pixels square.
fn mark_dots(x0: i64, y0: i64, dot: i64) -> impl Iterator<Item = (i64, i64)> {
    let glyph_w = 6 * dot;
    MARK.chars().enumerate().flat_map(move |(i, ch)| {
        let rows = GLYPHS
            .iter()
            .find(|(c, _)| *c == ch)
            .map_or([0; 7], |(_, rows)| *rows);
        (0..7i64).flat_map(move |gy| {
            (0..5i64).filter_map(move |gx| {
                let lit = rows[gy as usize] & (1 << (4 - gx)) != 0;
                lit.then_some((x0 + i as i64 * glyph_w + gx * dot, y0 + gy * dot))
            })
        })
    })
}

/// Tiles the shop's name across the image in translucent white with a dark edge, so it
/// shows on light and dark photos alike and cannot be cropped away.
pub fn watermark(img: RgbImage) -> RgbImage {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let dot = (img.long_edge() as i64 / 220).max(2);
    let glyph_w = 6 * dot;
    let text_w = glyph_w * MARK.len() as i64;
    let (step_x, step_y) = (text_w + 8 * dot, 7 * dot * 5);
    let mut data = img.into_data();
    let mut blend = |x: i64, y: i64, value: f32, alpha: f32| {
        if x < 0 || y < 0 || x >= w || y >= h {
            return;
        }
        let i = ((y * w + x) * 3) as usize;
        for c in &mut data[i..i + 3] {
            *c = (f32::from(*c) * (1.0 - alpha) + value * alpha).round() as u8;
        }
    };
    let mut row = 0;
    let mut y0 = dot * 4;
    while y0 < h {
        // Every other row shifts by half a stamp, so the mark covers the whole photo.
        let mut x0 = if row % 2 == 0 {
            dot * 2
        } else {
            dot * 2 - step_x / 2
        };
        while x0 < w {
            for (px, py) in mark_dots(x0, y0, dot) {
                for dy in 0..dot {
                    for dx in 0..dot {
                        blend(px + dx + dot / 3, py + dy + dot / 3, 0.0, 0.25);
                        blend(px + dx, py + dy, 255.0, 0.40);
                    }
                }
            }
            x0 += step_x;
        }
        y0 += step_y;
        row += 1;
    }
    // The buffer keeps its size, so rebuilding cannot fail; fall back to a blank image
    // of the same size rather than panic.
    RgbImage::new(w as u32, h as u32, data)
        .unwrap_or_else(|_| RgbImage::filled(w as u32, h as u32, [255, 255, 255]))
}

/// Stamps a logo on a sold photo's copy: `logo` scaled to 15% of the photo's width (and
/// at most a quarter of its height, so a tall logo still fits) in the lower right corner
/// on a white plate, or, with no logo, the shop's name there once. A logo is only ever
/// shrunk, so the work is bounded by the logo's own size.
pub fn stamp_logo(img: RgbImage, logo: Option<&RgbImage>) -> RgbImage {
    let (w, h) = (img.width(), img.height());
    let margin = (w.min(h) / 40).max(4);
    let Some(logo) = logo else {
        return stamp_name(img, margin);
    };
    let (box_w, box_h) = ((w * 15 / 100).max(16), (h / 4).max(16));
    let (lw, lh) = (logo.width().max(1), logo.height().max(1));
    let scale = (f64::from(box_w) / f64::from(lw)).min(f64::from(box_h) / f64::from(lh));
    let long = (f64::from(lw.max(lh)) * scale).round().max(1.0) as u32;
    let (fw, fh) = fit_long_edge(lw, lh, long);
    let logo = resize_exact(logo, fw, fh);
    let (lw, lh) = (logo.width(), logo.height());
    if lw + 2 * margin > w || lh + 2 * margin > h {
        return img;
    }
    let pad = margin / 2;
    let (x0, y0) = (w - lw - margin, h - lh - margin);
    let mut data = img.into_data();
    let stride = w as usize * 3;
    // A white plate a little larger than the logo, then the logo on it.
    for y in y0.saturating_sub(pad)..(y0 + lh + pad).min(h) {
        for x in x0.saturating_sub(pad)..(x0 + lw + pad).min(w) {
            let i = y as usize * stride + x as usize * 3;
            for c in &mut data[i..i + 3] {
                *c = ((u16::from(*c) + 3 * 255) / 4) as u8;
            }
        }
    }
    for y in 0..lh {
        for x in 0..lw {
            let Some(px) = logo.pixel(x, y) else { continue };
            let i = (y0 + y) as usize * stride + (x0 + x) as usize * 3;
            data[i..i + 3].copy_from_slice(&px);
        }
    }
    RgbImage::new(w, h, data).unwrap_or_else(|_| RgbImage::filled(w, h, [255, 255, 255]))
}

/// The shop's name once, in the lower right corner, when no logo is configured.
fn stamp_name(img: RgbImage, margin: u32) -> RgbImage {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let dot = (img.width() as i64 / 160).max(2);
    let glyph_w = 6 * dot;
    let text_w = glyph_w * MARK.len() as i64;
    let (x0, y0) = (
        w - text_w - i64::from(margin),
        h - 7 * dot - i64::from(margin),
    );
    if x0 < 0 || y0 < 0 {
        return img;
    }
    let mut data = img.into_data();
    for (px, py) in mark_dots(x0, y0, dot) {
        for dy in 0..dot {
            for dx in 0..dot {
                let (x, y) = (px + dx, py + dy);
                if x < w && y < h {
                    let i = ((y * w + x) * 3) as usize;
                    data[i..i + 3].copy_from_slice(&[255, 255, 255]);
                }
            }
        }
    }
    RgbImage::new(w as u32, h as u32, data)
        .unwrap_or_else(|_| RgbImage::filled(w as u32, h as u32, [255, 255, 255]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crop_is_the_region_clamped_to_the_image() {
        // 4 x 3, each pixel's red value its index.
        let data: Vec<u8> = (0..12u8).flat_map(|i| [i, 0, 0]).collect();
        let img = RgbImage::new(4, 3, data).unwrap();
        let region = |x1, y1, x2, y2| BBox { x1, y1, x2, y2 };
        let reds = |c: &RgbImage| c.data().chunks(3).map(|p| p[0]).collect::<Vec<_>>();
        let inner = crop(&img, &region(1.2, 0.5, 2.7, 1.9)).unwrap();
        assert_eq!((inner.width(), inner.height()), (2, 2));
        assert_eq!(reds(&inner), [1, 2, 5, 6]);
        let past = crop(&img, &region(-5.0, -5.0, 50.0, 50.0)).unwrap();
        assert_eq!((past.width(), past.height()), (4, 3));
        let outside = crop(&img, &region(9.0, 9.0, 12.0, 12.0)).unwrap();
        assert_eq!((outside.width(), outside.height()), (1, 1));
        assert_eq!(reds(&outside), [11]);
        let nan = crop(&img, &region(f32::NAN, f32::NAN, f32::NAN, f32::NAN)).unwrap();
        assert_eq!((nan.width(), nan.height()), (1, 1));
    }

    #[test]
    fn the_mark_changes_pixels_but_not_the_size() {
        let plain = RgbImage::filled(800, 600, [20, 40, 60]);
        let marked = watermark(plain.clone());
        assert_eq!((marked.width(), marked.height()), (800, 600));
        let changed = plain
            .data()
            .iter()
            .zip(marked.data())
            .filter(|(a, b)| a != b)
            .count();
        let share = changed as f64 / plain.data().len() as f64;
        assert!(share > 0.05 && share < 0.6, "marked share {share}");
    }

    #[test]
    fn encodes_a_jpeg() {
        let jpeg = encode_jpeg(&RgbImage::filled(64, 48, [200, 10, 10]), 80).unwrap_or_default();
        assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
        assert_eq!(
            raceshot_vision::image_io::probe(&jpeg)
                .map(|i| i.display_size())
                .ok(),
            Some((64, 48))
        );
    }

    #[test]
    fn a_logo_lands_in_the_lower_right_corner_only() {
        let photo = RgbImage::filled(1000, 800, [10, 10, 10]);
        let logo = RgbImage::filled(200, 100, [200, 0, 0]);
        let stamped = stamp_logo(photo.clone(), Some(&logo));
        assert_eq!((stamped.width(), stamped.height()), (1000, 800));
        // 15% of 1000 px wide: a 150 × 75 logo, 25 px from the corner.
        assert_eq!(
            stamped.pixel(1000 - 25 - 75, 800 - 25 - 37),
            Some([200, 0, 0])
        );
        assert_eq!(stamped.pixel(10, 10), Some([10, 10, 10]));
        let named = stamp_logo(photo, None);
        assert!(named.data().contains(&255));
        assert_eq!(named.pixel(10, 10), Some([10, 10, 10]));
    }

    #[test]
    fn a_tall_or_thin_logo_is_shrunk_into_its_corner() {
        let photo = RgbImage::filled(1000, 800, [10, 10, 10]);
        // The margin is a 40th of the short side: 20 px.
        // Taller than the photo: brought down to a quarter of its height, 7 × 200 px.
        let tall = RgbImage::filled(100, 3000, [0, 200, 0]);
        let stamped = stamp_logo(photo.clone(), Some(&tall));
        assert_eq!(
            stamped.pixel(1000 - 20 - 3, 800 - 20 - 100),
            Some([0, 200, 0])
        );
        assert_eq!(
            stamped.pixel(1000 - 20 - 3, 800 - 20 - 240),
            Some([10, 10, 10])
        );
        // One pixel high and very wide: 150 × 1 px.
        let thin = RgbImage::filled(4000, 1, [0, 0, 200]);
        let stamped = stamp_logo(photo, Some(&thin));
        assert_eq!(
            stamped.pixel(1000 - 20 - 1, 800 - 20 - 1),
            Some([0, 0, 200])
        );
        assert_eq!(
            stamped.pixel(1000 - 20 - 175, 800 - 20 - 1),
            Some([10, 10, 10])
        );
    }

    /// A PNG of `width` × `height` black pixels: a few kilobytes however large it says it is.
    fn blank_png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, width, height);
            encoder.set_color(png::ColorType::Grayscale);
            encoder.set_depth(png::BitDepth::One);
            let Ok(mut writer) = encoder.write_header() else {
                return Vec::new();
            };
            let row = vec![0u8; width.div_ceil(8) as usize];
            let data: Vec<u8> = row.repeat(height as usize);
            let _ = writer.write_image_data(&data);
        }
        out
    }

    #[test]
    fn logos_declaring_too_many_pixels_are_refused_before_decoding() {
        let bomb = blank_png(5000, 5000);
        assert!(bomb.len() < 100_000, "{}", bomb.len());
        assert!(matches!(
            decode_logo(&bomb),
            Err(raceshot_vision::Error::TooManyPixels { .. })
        ));
        let fine = blank_png(2048, 2048);
        assert!(decode_logo(&fine).is_ok());
    }
}
