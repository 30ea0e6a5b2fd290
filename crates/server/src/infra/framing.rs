//! Sponsor frames as pictures. An upload (a PNG with transparency, or an SVG drawn with the
//! shop's fonts and no outside references, at [`SVG_LONG_EDGE`] pixels on its long side)
//! becomes the one form the shop keeps: a PNG, re-encoded (so nothing of the upload but
//! its pixels is kept) and see-through over at least [`MIN_CLEAR_SHARE`] of its area, so
//! that it frames the photo rather than hides it. Drawn over a photo, the frame is
//! stretched to the photo's width and height (bilinear), in strips, so the memory it
//! takes beyond the photo is a few hundred rows whatever the photo's size.

use raceshot_vision::RgbImage;
use raceshot_vision::image_io::{ImageFormat, probe, sniff};
use resvg::tiny_skia::{FilterQuality, Pixmap, PixmapPaint, Transform};

use super::svg::{Document, Fonts};

/// The most pixels a PNG frame may declare (checked on its header before decoding).
pub const FRAME_MAX_PIXELS: u64 = 4096 * 4096;

/// An SVG frame is drawn this many pixels on its long side.
pub const SVG_LONG_EDGE: u32 = 3000;

/// The share of a frame's area that must be see-through (alpha below one half).
pub const MIN_CLEAR_SHARE: f64 = 0.4;

/// Rows of a photo framed at a time.
const STRIP_ROWS: u32 = 256;

/// Why an upload is not a frame the shop can use.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FrameError {
    #[error("a frame is a PNG with transparency or an SVG document")]
    NotAFrame,
    #[error("a frame may have at most 4096 × 4096 pixels")]
    TooManyPixels,
    #[error("the frame cannot be read: {0}")]
    Unreadable(String),
    #[error("SVG frames cannot be drawn: the shop's fonts are missing")]
    NoFonts,
    #[error("a frame must be see-through over at least 40% of its area, or it hides the photo")]
    Opaque,
}

/// A frame as the shop keeps it, from an upload: the PNG's bytes.
pub fn normalise(upload: &[u8], fonts: Option<&Fonts>) -> Result<Vec<u8>, FrameError> {
    let pixmap = match sniff(upload) {
        Ok(ImageFormat::Png) => {
            let info = probe(upload).map_err(|e| FrameError::Unreadable(e.to_string()))?;
            if info.pixels() > FRAME_MAX_PIXELS {
                return Err(FrameError::TooManyPixels);
            }
            Pixmap::decode_png(upload).map_err(|e| FrameError::Unreadable(e.to_string()))?
        }
        Ok(ImageFormat::Jpeg) => return Err(FrameError::NotAFrame),
        Err(_) => draw_svg(upload, fonts)?,
    };
    let clear = pixmap.pixels().iter().filter(|p| p.alpha() < 128).count();
    if (clear as f64) < MIN_CLEAR_SHARE * pixmap.pixels().len() as f64 {
        return Err(FrameError::Opaque);
    }
    pixmap
        .encode_png()
        .map_err(|e| FrameError::Unreadable(e.to_string()))
}

fn draw_svg(upload: &[u8], fonts: Option<&Fonts>) -> Result<Pixmap, FrameError> {
    let text = std::str::from_utf8(upload).map_err(|_| FrameError::NotAFrame)?;
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if !(start.starts_with("<svg") || start.starts_with("<?xml")) {
        return Err(FrameError::NotAFrame);
    }
    let fonts = fonts.ok_or(FrameError::NoFonts)?;
    let doc =
        Document::parse(text, fonts, &[]).map_err(|e| FrameError::Unreadable(e.to_string()))?;
    let (w, h) = doc.size();
    let scale = SVG_LONG_EDGE as f32 / w.max(h);
    let size = |side: f32| ((side * scale).round() as u32).clamp(1, SVG_LONG_EDGE);
    doc.to_pixmap(size(w), size(h))
        .map_err(|e| FrameError::Unreadable(e.to_string()))
}

/// A kept frame, decoded for drawing.
pub fn decode(png: &[u8]) -> Result<Pixmap, FrameError> {
    let info = probe(png).map_err(|e| FrameError::Unreadable(e.to_string()))?;
    if info.pixels() > FRAME_MAX_PIXELS {
        return Err(FrameError::TooManyPixels);
    }
    Pixmap::decode_png(png).map_err(|e| FrameError::Unreadable(e.to_string()))
}

/// The photo with `frame` drawn over it, stretched to the photo's size.
pub fn draw_over(photo: RgbImage, frame: &Pixmap) -> RgbImage {
    let (w, h) = (photo.width(), photo.height());
    let scale = Transform::from_scale(
        w as f32 / frame.width() as f32,
        h as f32 / frame.height() as f32,
    );
    let paint = PixmapPaint {
        quality: FilterQuality::Bilinear,
        ..PixmapPaint::default()
    };
    let mut data = photo.into_data();
    let row = w as usize * 3;
    let mut y0 = 0;
    while y0 < h {
        let rows = STRIP_ROWS.min(h - y0);
        let Some(mut strip) = Pixmap::new(w, rows) else {
            break;
        };
        let part = &mut data[y0 as usize * row..(y0 + rows) as usize * row];
        // An opaque photo is its own premultiplied form.
        for (px, rgb) in strip
            .data_mut()
            .chunks_exact_mut(4)
            .zip(part.chunks_exact(3))
        {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
        let placed = scale.post_translate(0.0, -(y0 as f32));
        strip.draw_pixmap(0, 0, frame.as_ref(), &paint, placed, None);
        for (rgb, px) in part.chunks_exact_mut(3).zip(strip.data().chunks_exact(4)) {
            rgb.copy_from_slice(&px[..3]);
        }
        y0 += rows;
    }
    RgbImage::new(w, h, data).unwrap_or_else(|_| RgbImage::filled(w, h, [255, 255, 255]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infra::svg::tests::thai_fonts;

    /// A 100 × 50 frame: a 10-pixel red border, clear inside.
    fn border_png() -> Vec<u8> {
        let mut pixmap = Pixmap::new(100, 50).unwrap_or_else(|| panic!("pixmap"));
        for (i, px) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = (i % 100, i / 100);
            if !(10..90).contains(&x) || !(10..40).contains(&y) {
                px.copy_from_slice(&[255, 0, 0, 255]);
            }
        }
        pixmap.encode_png().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_frame_is_stretched_over_the_whole_photo_in_strips() {
        let frame = normalise(&border_png(), Some(&thai_fonts())).unwrap_or_else(|e| panic!("{e}"));
        let frame = decode(&frame).unwrap_or_else(|e| panic!("{e}"));
        // Taller than a strip, with the other aspect: the border follows the photo.
        let photo = RgbImage::filled(400, 600, [0, 0, 255]);
        let framed = draw_over(photo, &frame);
        assert_eq!((framed.width(), framed.height()), (400, 600));
        // The border is 10% of the width and 20% of the height.
        assert_eq!(framed.pixel(5, 300), Some([255, 0, 0]));
        assert_eq!(framed.pixel(200, 590), Some([255, 0, 0]));
        assert_eq!(framed.pixel(200, 300), Some([0, 0, 255]));
        assert_eq!(
            framed.pixel(200, 256),
            Some([0, 0, 255]),
            "across a strip's edge"
        );
        assert_eq!(framed.pixel(60, 150), Some([0, 0, 255]));
    }

    #[test]
    fn an_svg_frame_is_drawn_as_a_png_on_its_long_side() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
            <rect x="0" y="170" width="300" height="30" fill="#0a0"/>
            <text x="10" y="192" font-size="20" fill="#fff">ผู้สนับสนุน</text></svg>"##;
        let png = normalise(svg.as_bytes(), Some(&thai_fonts())).unwrap_or_else(|e| panic!("{e}"));
        let frame = decode(&png).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((frame.width(), frame.height()), (SVG_LONG_EDGE, 2000));
        let at = |x, y| frame.pixel(x, y).map(|p| (p.green(), p.alpha()));
        assert_eq!(at(1500, 100), Some((0, 0)), "clear above the banner");
        assert_eq!(at(2900, 1950), Some((170, 255)), "the banner");
        // The same upload is kept as the same bytes.
        assert_eq!(
            normalise(svg.as_bytes(), Some(&thai_fonts())).ok(),
            Some(png)
        );
    }

    #[test]
    fn pictures_that_would_hide_the_photo_or_are_no_frame_are_refused() {
        let fonts = thai_fonts();
        let opaque = r#"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20">
            <rect width="30" height="20" fill="red"/></svg>"#;
        assert_eq!(
            normalise(opaque.as_bytes(), Some(&fonts)),
            Err(FrameError::Opaque)
        );
        let jpeg = crate::infra::imaging::encode_jpeg(&RgbImage::filled(8, 8, [0, 0, 0]), 90)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(normalise(&jpeg, Some(&fonts)), Err(FrameError::NotAFrame));
        assert_eq!(
            normalise(b"GIF89a....", Some(&fonts)),
            Err(FrameError::NotAFrame)
        );
        assert!(matches!(
            normalise(b"<svg><unclosed", Some(&fonts)),
            Err(FrameError::Unreadable(_))
        ));
        // A header declaring a huge picture is refused before any pixel is read.
        let mut huge = border_png();
        huge[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        huge[20..24].copy_from_slice(&20_000u32.to_be_bytes());
        let crc = raceshot_vision::image_io::crc32(&huge[12..29]);
        huge[29..33].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(
            normalise(&huge, Some(&fonts)),
            Err(FrameError::TooManyPixels)
        );
    }
}
