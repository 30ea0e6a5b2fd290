//! Image decoding and resizing shared by selfies and ingested photos: JPEG/PNG sniffed by
//! content, pixel-count guard before any pixel is decoded, EXIF orientation applied, RGB8 out.
//!
//! Untrusted bytes arrive here (visitors' selfies, photographers' uploads), so every path
//! answers a clean [`Error`] and never panics: the header is parsed first, the pixel count
//! is checked against the caller's limit, and only then is memory for pixels allocated.

use std::io::Cursor;

use fast_image_resize as fir;

use crate::error::{Error, Result};

/// Default pixel-count limit for event photos (a 50 MP camera is the largest we expect).
/// Callers handling visitor uploads should pass a smaller limit.
pub const DEFAULT_MAX_PIXELS: u64 = 50_000_000;

/// Progressive JPEGs can declare thousands of scans to make decoding quadratic; real
/// encoders use about ten. The limit stops that CPU bomb.
const JPEG_SCAN_LIMIT: u32 = 500;

/// An owned 8-bit RGB image, rows top to bottom, no padding. The constructor checks that
/// `data.len() == width * height * 3`, so code holding one can rely on it.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbImage {
    width: u32,
    height: u32,
    data: Vec<u8>,
}

impl std::fmt::Debug for RgbImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The pixels would flood any log line.
        write!(f, "RgbImage({}x{})", self.width, self.height)
    }
}

impl RgbImage {
    /// Wraps RGB8 pixels; fails when the buffer length does not match the size.
    pub fn new(width: u32, height: u32, data: Vec<u8>) -> Result<Self> {
        let want = (width as usize)
            .checked_mul(height as usize)
            .and_then(|n| n.checked_mul(3));
        if width == 0 || height == 0 || want != Some(data.len()) {
            return Err(Error::Decode(format!(
                "RGB buffer of {} bytes does not fit {width}x{height}",
                data.len()
            )));
        }
        Ok(Self {
            width,
            height,
            data,
        })
    }

    /// A uniform image, mostly useful in tests and for padding.
    pub fn filled(width: u32, height: u32, rgb: [u8; 3]) -> Self {
        let n = width.max(1) as usize * height.max(1) as usize;
        let mut data = Vec::with_capacity(n * 3);
        for _ in 0..n {
            data.extend_from_slice(&rgb);
        }
        Self {
            width: width.max(1),
            height: height.max(1),
            data,
        }
    }

    /// An image whose every pixel is `px(x, y)`, mostly useful in tests (at least 1×1).
    pub fn from_fn(width: u32, height: u32, px: impl Fn(u32, u32) -> [u8; 3]) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let data = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .flat_map(|(x, y)| px(x, y))
            .collect();
        Self {
            width,
            height,
            data,
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn long_edge(&self) -> u32 {
        self.width.max(self.height)
    }

    /// The pixels, `width * height * 3` bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    pub fn into_data(self) -> Vec<u8> {
        self.data
    }

    /// The pixel at (x, y), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some([self.data[i], self.data[i + 1], self.data[i + 2]])
    }

    /// A copy of the `width` x `height` rectangle at (`x`, `y`), clipped to the image;
    /// `None` when none of it lies inside.
    pub fn crop(&self, x: u32, y: u32, width: u32, height: u32) -> Option<RgbImage> {
        let right = x.saturating_add(width).min(self.width);
        let bottom = y.saturating_add(height).min(self.height);
        if x >= right || y >= bottom {
            return None;
        }
        let stride = self.width as usize * 3;
        let (left, end) = (x as usize * 3, right as usize * 3);
        let mut data = Vec::with_capacity((end - left) * (bottom - y) as usize);
        for row in self
            .data
            .chunks_exact(stride)
            .skip(y as usize)
            .take((bottom - y) as usize)
        {
            data.extend_from_slice(&row[left..end]);
        }
        Some(RgbImage {
            width: right - x,
            height: bottom - y,
            data,
        })
    }
}

/// The two formats accepted anywhere in the shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Jpeg,
    Png,
}

/// What the header says, read without decoding pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageInfo {
    pub format: ImageFormat,
    /// Stored width, before EXIF orientation.
    pub width: u32,
    /// Stored height, before EXIF orientation.
    pub height: u32,
    /// EXIF orientation 1..=8 (1 when absent or unreadable).
    pub orientation: u8,
}

impl ImageInfo {
    /// Width and height as displayed, i.e. after EXIF orientation.
    pub fn display_size(&self) -> (u32, u32) {
        if self.orientation >= 5 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }

    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

/// How to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Refuse images whose header declares more pixels than this.
    pub max_pixels: u64,
    /// The long edge the caller will scale to. JPEGs are then decoded with DCT scaling at
    /// the smallest factor (1/2, 1/4, 1/8) whose output long edge is still >= this, about
    /// twice as fast as a full decode (a 24 MP photo for a 1600 px target decodes at 1/2,
    /// for a 400 px thumbnail at 1/8).
    /// The output may be larger than this; it is never smaller than
    /// `min(target, original long edge)`. `None` decodes at full size.
    pub target_long_edge: Option<u32>,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self {
            max_pixels: DEFAULT_MAX_PIXELS,
            target_long_edge: None,
        }
    }
}

impl DecodeOptions {
    pub fn with_max_pixels(mut self, max_pixels: u64) -> Self {
        self.max_pixels = max_pixels;
        self
    }

    pub fn with_target_long_edge(mut self, edge: u32) -> Self {
        self.target_long_edge = Some(edge);
        self
    }
}

/// Decides the format from the first bytes. Anything else is `UnsupportedFormat`.
pub fn sniff(bytes: &[u8]) -> Result<ImageFormat> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(ImageFormat::Jpeg)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(ImageFormat::Png)
    } else {
        Err(Error::UnsupportedFormat)
    }
}

/// Reads format, size and orientation from the header only.
pub fn probe(bytes: &[u8]) -> Result<ImageInfo> {
    match sniff(bytes)? {
        ImageFormat::Jpeg => {
            let (width, height) = jpeg_size(bytes)?;
            Ok(ImageInfo {
                format: ImageFormat::Jpeg,
                width,
                height,
                orientation: jpeg_orientation(bytes),
            })
        }
        ImageFormat::Png => {
            let (width, height) = png_size(bytes)?;
            Ok(ImageInfo {
                format: ImageFormat::Png,
                width,
                height,
                // PNG's eXIf chunk may come after IHDR anywhere before IDAT; only the full
                // decoder finds it, so probing reports the stored orientation.
                orientation: 1,
            })
        }
    }
}

/// Decodes a JPEG or PNG into upright RGB8 (EXIF orientation applied).
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<RgbImage> {
    let info = probe(bytes)?;
    if info.pixels() > opts.max_pixels {
        return Err(Error::TooManyPixels {
            width: u64::from(info.width),
            height: u64::from(info.height),
            limit: opts.max_pixels,
        });
    }
    let (img, orientation) = match info.format {
        ImageFormat::Jpeg => (
            decode_jpeg(bytes, &info, opts.target_long_edge)?,
            info.orientation,
        ),
        ImageFormat::Png => decode_png(bytes, opts.max_pixels)?,
    };
    Ok(apply_orientation(img, orientation))
}

/// Smallest DCT scale factor among 1/2, 1/4 and 1/8 whose output long edge is still at
/// least `target` (1 when none is). libjpeg-turbo also offers 3/8, 5/8 and so on, but only
/// the power-of-two reductions have SIMD inverse DCTs: measured on a 24 MP photo, 3/8
/// decodes no faster than 1/2 (72 vs 68 ms) while giving fewer pixels.
fn jpeg_scale_for(width: u32, height: u32, target: Option<u32>) -> turbojpeg::ScalingFactor {
    let one = turbojpeg::ScalingFactor::ONE;
    let Some(target) = target else { return one };
    let long = width.max(height) as usize;
    // libjpeg-turbo has supported these three since its first release.
    [
        turbojpeg::ScalingFactor::ONE_EIGHTH,
        turbojpeg::ScalingFactor::ONE_QUARTER,
        turbojpeg::ScalingFactor::ONE_HALF,
    ]
    .into_iter()
    .find(|f| f.scale(long) >= target as usize)
    .unwrap_or(one)
}

fn decode_jpeg(bytes: &[u8], info: &ImageInfo, target: Option<u32>) -> Result<RgbImage> {
    let tj = |e: turbojpeg::Error| Error::Decode(e.to_string());
    let mut d = turbojpeg::Decompressor::new().map_err(tj)?;
    let header = d.read_header(bytes).map_err(tj)?;
    // Trust libjpeg-turbo's header over our own SOF parse if they ever disagree, and check
    // the limit was applied to the larger of the two.
    if header.width != info.width as usize || header.height != info.height as usize {
        return Err(Error::Decode("inconsistent JPEG frame headers".into()));
    }
    let factor = if header.is_lossless {
        turbojpeg::ScalingFactor::ONE
    } else {
        jpeg_scale_for(info.width, info.height, target)
    };
    d.set_scaling_factor(factor).map_err(tj)?;
    d.set_scan_limit(JPEG_SCAN_LIMIT).map_err(tj)?;
    let scaled = header.scaled(factor);
    let (w, h) = (scaled.width, scaled.height);
    let len = w
        .checked_mul(h)
        .and_then(|n| n.checked_mul(3))
        .ok_or_else(|| Error::Decode("JPEG too large".into()))?;
    let mut pixels = vec![0u8; len];
    d.decompress(
        bytes,
        turbojpeg::Image {
            pixels: pixels.as_mut_slice(),
            width: w,
            pitch: w * 3,
            height: h,
            format: turbojpeg::PixelFormat::RGB,
        },
    )
    .map_err(tj)?;
    let w = u32::try_from(w).map_err(|_| Error::Decode("JPEG too wide".into()))?;
    let h = u32::try_from(h).map_err(|_| Error::Decode("JPEG too tall".into()))?;
    RgbImage::new(w, h, pixels)
}

fn decode_png(bytes: &[u8], max_pixels: u64) -> Result<(RgbImage, u8)> {
    let de = |e: png::DecodingError| Error::Decode(e.to_string());
    // The allocation budget follows the pixel limit (16-bit RGBA is 8 bytes a pixel) so the
    // decoder itself also refuses to allocate for a lying header.
    let budget =
        usize::try_from(max_pixels.saturating_mul(8).saturating_add(1 << 20)).unwrap_or(usize::MAX);
    let mut decoder =
        png::Decoder::new_with_limits(Cursor::new(bytes), png::Limits { bytes: budget });
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(de)?;
    let orientation = reader
        .info()
        .exif_metadata
        .as_deref()
        .and_then(exif_orientation)
        .unwrap_or(1);
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Error::Decode("PNG too large".into()))?;
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(de)?;
    let (w, h) = (frame.width, frame.height);
    let (color, depth) = (frame.color_type, frame.bit_depth);
    if depth != png::BitDepth::Eight {
        return Err(Error::Decode(format!(
            "unexpected PNG bit depth {depth:?} after expansion"
        )));
    }
    let n = w as usize * h as usize;
    let line = frame.line_size;
    let channels = match color {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(Error::Decode("indexed PNG was not expanded".into()));
        }
    };
    if line < w as usize * channels || buf.len() < line * h as usize {
        return Err(Error::Decode("PNG frame smaller than declared".into()));
    }
    let mut out = Vec::with_capacity(n * 3);
    for row in buf.chunks_exact(line).take(h as usize) {
        for px in row[..w as usize * channels].chunks_exact(channels) {
            // Transparent areas become white, as a browser shows them on the shop's pages.
            let rgb = match *px {
                [g] => [g, g, g],
                [g, a] => {
                    let g = over_white(g, a);
                    [g, g, g]
                }
                [r, g, b] => [r, g, b],
                [r, g, b, a] => [over_white(r, a), over_white(g, a), over_white(b, a)],
                _ => [0, 0, 0],
            };
            out.extend_from_slice(&rgb);
        }
    }
    Ok((RgbImage::new(w, h, out)?, orientation))
}

fn over_white(c: u8, a: u8) -> u8 {
    let (c, a) = (u32::from(c), u32::from(a));
    ((c * a + 255 * (255 - a) + 127) / 255) as u8
}

/// Width and height from the first SOF marker, walking the marker segments.
fn jpeg_size(bytes: &[u8]) -> Result<(u32, u32)> {
    for (marker, payload) in jpeg_segments(bytes) {
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let h = be16(payload, 1)
                .ok_or_else(|| Error::Decode("truncated JPEG frame header".into()))?;
            let w = be16(payload, 3)
                .ok_or_else(|| Error::Decode("truncated JPEG frame header".into()))?;
            if w == 0 || h == 0 {
                return Err(Error::Decode("JPEG declares an empty image".into()));
            }
            return Ok((u32::from(w), u32::from(h)));
        }
    }
    Err(Error::Decode("no JPEG frame header found".into()))
}

/// EXIF orientation from the first APP1 "Exif" segment, 1 when absent.
fn jpeg_orientation(bytes: &[u8]) -> u8 {
    jpeg_segments(bytes)
        .filter(|(m, _)| *m == 0xE1)
        .find_map(|(_, p)| p.strip_prefix(b"Exif\0\0").and_then(exif_orientation))
        .unwrap_or(1)
}

/// Iterates (marker, payload) over the header segments up to the start of scan.
fn jpeg_segments(bytes: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut pos = 2usize; // after SOI
    std::iter::from_fn(move || {
        loop {
            // Skip fill bytes: a marker is one or more 0xFF then the code.
            if *bytes.get(pos)? != 0xFF {
                return None;
            }
            while bytes.get(pos) == Some(&0xFF) {
                pos += 1;
            }
            let marker = *bytes.get(pos)?;
            pos += 1;
            match marker {
                // Standalone markers carry no length.
                0x01 | 0xD0..=0xD7 => continue,
                // Start of scan or end of image: the header is over.
                0xDA | 0xD9 => return None,
                _ => {}
            }
            let len = usize::from(be16(bytes, pos)?);
            if len < 2 {
                return None;
            }
            let payload = bytes.get(pos + 2..pos + len)?;
            pos += len;
            return Some((marker, payload));
        }
    })
}

/// PNG width and height from the IHDR chunk, which the format requires to come first.
fn png_size(bytes: &[u8]) -> Result<(u32, u32)> {
    if bytes.get(12..16) != Some(b"IHDR") {
        return Err(Error::Decode("PNG without IHDR header".into()));
    }
    let w = be32(bytes, 16).ok_or_else(|| Error::Decode("truncated PNG header".into()))?;
    let h = be32(bytes, 20).ok_or_else(|| Error::Decode("truncated PNG header".into()))?;
    if w == 0 || h == 0 || w > i32::MAX as u32 || h > i32::MAX as u32 {
        return Err(Error::Decode("PNG declares an invalid size".into()));
    }
    Ok((w, h))
}

/// The fields of a TIFF-structured EXIF block (`kamadak-exif`); `None` when it does not
/// parse.
fn exif_fields(tiff: &[u8]) -> Option<exif::Exif> {
    exif::Reader::new().read_raw(tiff.to_vec()).ok()
}

/// Orientation (tag 0x0112) from a TIFF-structured EXIF block, if present and valid.
fn exif_orientation(tiff: &[u8]) -> Option<u8> {
    let fields = exif_fields(tiff)?;
    let v = match &fields
        .get_field(exif::Tag::Orientation, exif::In::PRIMARY)?
        .value
    {
        exif::Value::Short(v) => *v.first()?,
        _ => return None,
    };
    u8::try_from(v).ok().filter(|v| (1..=8).contains(v))
}

/// An ASCII field's first value without its padding.
fn exif_text(fields: &exif::Exif, tag: exif::Tag) -> Option<String> {
    match &fields.get_field(tag, exif::In::PRIMARY)?.value {
        exif::Value::Ascii(v) => {
            let raw = v.first()?;
            let raw = raw.split(|&b| b == 0).next().unwrap_or(raw);
            let text = std::str::from_utf8(raw).ok()?.trim();
            (!text.is_empty()).then(|| text.to_owned())
        }
        _ => None,
    }
}

/// When a photo says it was taken, as its camera wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateTaken {
    /// EXIF `DateTimeOriginal`, `YYYY:MM:DD HH:MM:SS` in the camera's clock (not checked).
    pub local: String,
    /// EXIF `OffsetTimeOriginal` (`+07:00`) when the camera wrote one.
    pub offset: Option<String>,
}

/// The time a JPEG was taken, from its EXIF block; `None` for PNGs and when absent.
pub fn date_taken(bytes: &[u8]) -> Option<DateTaken> {
    if sniff(bytes).ok()? != ImageFormat::Jpeg {
        return None;
    }
    let exif = jpeg_segments(bytes)
        .filter(|(m, _)| *m == 0xE1)
        .find_map(|(_, p)| p.strip_prefix(b"Exif\0\0"))?;
    let fields = exif_fields(exif)?;
    let local = exif_text(&fields, exif::Tag::DateTimeOriginal)?;
    let offset = exif_text(&fields, exif::Tag::OffsetTimeOriginal);
    Some(DateTaken { local, offset })
}

/// The image without its metadata (EXIF with its GPS position and camera serial, XMP,
/// comments, text chunks): what a shop may keep of a visitor's selfie. The pixels are
/// untouched; an orientation other than upright is written back as a one-tag EXIF block,
/// so the image still decodes upright. Anything that is not a well-formed JPEG or PNG
/// header is `Decode`.
pub fn strip_metadata(bytes: &[u8]) -> Result<Vec<u8>> {
    match sniff(bytes)? {
        ImageFormat::Jpeg => strip_jpeg(bytes),
        ImageFormat::Png => strip_png(bytes),
    }
}

/// A TIFF block holding only an orientation tag.
fn orientation_tiff(o: u8) -> Vec<u8> {
    let mut t = Vec::with_capacity(26);
    t.extend_from_slice(b"II*\0");
    t.extend_from_slice(&8u32.to_le_bytes());
    t.extend_from_slice(&1u16.to_le_bytes());
    t.extend_from_slice(&0x0112u16.to_le_bytes());
    t.extend_from_slice(&3u16.to_le_bytes());
    t.extend_from_slice(&1u32.to_le_bytes());
    t.extend_from_slice(&u16::from(o).to_le_bytes());
    t.extend_from_slice(&[0, 0]);
    t.extend_from_slice(&0u32.to_le_bytes());
    t
}

fn strip_jpeg(bytes: &[u8]) -> Result<Vec<u8>> {
    let bad = || Error::Decode("malformed JPEG header".into());
    let orientation = jpeg_orientation(bytes);
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&[0xFF, 0xD8]);
    if orientation != 1 {
        let mut payload = b"Exif\0\0".to_vec();
        payload.extend_from_slice(&orientation_tiff(orientation));
        let len = u16::try_from(payload.len() + 2).map_err(|_| bad())?;
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&payload);
    }
    let mut pos = 2usize;
    loop {
        if bytes.get(pos) != Some(&0xFF) {
            return Err(bad());
        }
        let start = pos;
        while bytes.get(pos) == Some(&0xFF) {
            pos += 1;
        }
        let marker = *bytes.get(pos).ok_or_else(bad)?;
        pos += 1;
        if matches!(marker, 0x01 | 0xD0..=0xD7) {
            out.extend_from_slice(&bytes[start..pos]);
            continue;
        }
        if matches!(marker, 0xDA | 0xD9) {
            // The scan and everything after it are pixels: copied as they are.
            out.extend_from_slice(&bytes[start..]);
            return Ok(out);
        }
        let len = usize::from(be16(bytes, pos).ok_or_else(bad)?);
        let end = pos
            .checked_add(len)
            .filter(|e| len >= 2 && *e <= bytes.len());
        let end = end.ok_or_else(bad)?;
        // APP0 (JFIF), APP2 (ICC colour profile) and APP14 (Adobe colour transform) say
        // how to read the pixels; every other APPn and comments are metadata.
        let metadata = matches!(marker, 0xE1 | 0xE3..=0xED | 0xEF | 0xFE);
        if !metadata {
            out.extend_from_slice(&bytes[start..end]);
        }
        pos = end;
    }
}

fn strip_png(bytes: &[u8]) -> Result<Vec<u8>> {
    let bad = || Error::Decode("malformed PNG chunk".into());
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..8]);
    let mut pos = 8usize;
    while pos < bytes.len() {
        let len = usize::try_from(be32(bytes, pos).ok_or_else(bad)?).map_err(|_| bad())?;
        let end = pos
            .checked_add(12)
            .and_then(|e| e.checked_add(len))
            .filter(|e| *e <= bytes.len())
            .ok_or_else(bad)?;
        let kind = &bytes[pos + 4..pos + 8];
        // Critical chunks (upper-case first letter) and those that say how to show the
        // pixels stay; text, time and EXIF chunks go.
        let keep = kind[0].is_ascii_uppercase()
            || matches!(
                kind,
                b"tRNS" | b"gAMA" | b"cHRM" | b"sRGB" | b"iCCP" | b"sBIT" | b"bKGD" | b"pHYs"
            );
        if kind == b"eXIf" {
            let o = exif_orientation(&bytes[pos + 8..end - 4]).unwrap_or(1);
            if o != 1 {
                let tiff = orientation_tiff(o);
                let len = u32::try_from(tiff.len()).map_err(|_| bad())?;
                out.extend_from_slice(&len.to_be_bytes());
                let body_at = out.len();
                out.extend_from_slice(b"eXIf");
                out.extend_from_slice(&tiff);
                let crc = crc32(&out[body_at..]);
                out.extend_from_slice(&crc.to_be_bytes());
            }
        } else if keep {
            out.extend_from_slice(&bytes[pos..end]);
        }
        pos = end;
        if kind == b"IEND" {
            break;
        }
    }
    Ok(out)
}

/// CRC-32 (ISO-HDLC, as PNG chunks carry it) of a few bytes.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn be16(b: &[u8], o: usize) -> Option<u16> {
    let s = b.get(o..o + 2)?;
    Some(u16::from_be_bytes([s[0], s[1]]))
}

fn be32(b: &[u8], o: usize) -> Option<u32> {
    let s = b.get(o..o + 4)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// Turns stored pixels into the upright image EXIF orientation `o` describes.
pub fn apply_orientation(img: RgbImage, o: u8) -> RgbImage {
    if !(2..=8).contains(&o) {
        return img;
    }
    let (w, h) = (img.width as usize, img.height as usize);
    let (ow, oh) = if o >= 5 { (h, w) } else { (w, h) };
    let src = &img.data;
    let mut out = vec![0u8; ow * oh * 3];
    for oy in 0..oh {
        for ox in 0..ow {
            // Source pixel shown at (ox, oy) for each of the seven non-identity orientations.
            let (sx, sy) = match o {
                2 => (w - 1 - ox, oy),
                3 => (w - 1 - ox, h - 1 - oy),
                4 => (ox, h - 1 - oy),
                5 => (oy, ox),
                6 => (oy, h - 1 - ox),
                7 => (w - 1 - oy, h - 1 - ox),
                _ => (w - 1 - oy, ox),
            };
            let s = (sy * w + sx) * 3;
            let d = (oy * ow + ox) * 3;
            out[d..d + 3].copy_from_slice(&src[s..s + 3]);
        }
    }
    RgbImage {
        width: ow as u32,
        height: oh as u32,
        data: out,
    }
}

/// Scales so the long edge is at most `long_edge` (never upscales; a smaller image comes
/// back as a copy). Used for detector input, thumbnails and previews.
pub fn resize_to_long_edge(img: &RgbImage, long_edge: u32) -> RgbImage {
    let (w, h) = fit_long_edge(img.width, img.height, long_edge);
    if (w, h) == (img.width, img.height) {
        return img.clone();
    }
    resize_exact(img, w, h)
}

/// The size `(w, h)` an image gets when its long edge is brought down to `long_edge`,
/// keeping the aspect ratio (rounded, at least 1 px).
pub fn fit_long_edge(width: u32, height: u32, long_edge: u32) -> (u32, u32) {
    let long = width.max(height);
    if long <= long_edge || long == 0 {
        return (width, height);
    }
    let s = f64::from(long_edge.max(1)) / f64::from(long);
    let scale = |v: u32| ((f64::from(v) * s).round() as u32).clamp(1, long_edge.max(1));
    (scale(width), scale(height))
}

/// Resizes to exactly `width` x `height` with an antialiasing bilinear convolution.
pub fn resize_exact(img: &RgbImage, width: u32, height: u32) -> RgbImage {
    let (width, height) = (width.max(1), height.max(1));
    if (width, height) == (img.width, img.height) {
        return img.clone();
    }
    match fir_resize(img, width, height) {
        Some(out) => out,
        // fast_image_resize only fails on buffer/size mismatches, which RgbImage's
        // invariant rules out; answering a correct (if plainer) image beats panicking.
        None => resize_nearest(img, width, height),
    }
}

fn fir_resize(img: &RgbImage, width: u32, height: u32) -> Option<RgbImage> {
    let src =
        fir::images::ImageRef::new(img.width, img.height, &img.data, fir::PixelType::U8x3).ok()?;
    let mut dst = fir::images::Image::new(width, height, fir::PixelType::U8x3);
    let opts = fir::ResizeOptions::new()
        .resize_alg(fir::ResizeAlg::Convolution(fir::FilterType::Bilinear));
    fir::Resizer::new().resize(&src, &mut dst, &opts).ok()?;
    RgbImage::new(width, height, dst.into_vec()).ok()
}

fn resize_nearest(img: &RgbImage, width: u32, height: u32) -> RgbImage {
    let mut data = Vec::with_capacity(width as usize * height as usize * 3);
    for y in 0..height {
        let sy = (u64::from(y) * u64::from(img.height) / u64::from(height)) as u32;
        for x in 0..width {
            let sx = (u64::from(x) * u64::from(img.width) / u64::from(width)) as u32;
            data.extend_from_slice(&img.pixel(sx, sy).unwrap_or([0, 0, 0]));
        }
    }
    RgbImage {
        width,
        height,
        data,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn encode_png(w: u32, h: u32, color: png::ColorType, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(color);
            enc.set_depth(png::BitDepth::Eight);
            let mut wr = enc.write_header().unwrap();
            wr.write_image_data(data).unwrap();
        }
        out
    }

    fn encode_jpeg(img: &RgbImage) -> Vec<u8> {
        let mut c = turbojpeg::Compressor::new().unwrap();
        c.set_quality(95).unwrap();
        c.compress_to_vec(turbojpeg::Image {
            pixels: img.data(),
            width: img.width() as usize,
            pitch: img.width() as usize * 3,
            height: img.height() as usize,
            format: turbojpeg::PixelFormat::RGB,
        })
        .unwrap()
    }

    /// `jpeg` with an APP1 Exif segment holding `tiff`, right after SOI.
    fn with_exif(jpeg: &[u8], tiff: &[u8]) -> Vec<u8> {
        let mut payload = b"Exif\0\0".to_vec();
        payload.extend_from_slice(tiff);
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&((payload.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    /// Inserts an APP1 Exif segment with the given orientation right after SOI.
    fn with_orientation(jpeg: &[u8], o: u16) -> Vec<u8> {
        let mut tiff = b"MM\0*\0\0\0\x08".to_vec();
        tiff.extend_from_slice(&1u16.to_be_bytes());
        tiff.extend_from_slice(&0x0112u16.to_be_bytes());
        tiff.extend_from_slice(&3u16.to_be_bytes());
        tiff.extend_from_slice(&1u32.to_be_bytes());
        tiff.extend_from_slice(&o.to_be_bytes());
        tiff.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        with_exif(jpeg, &tiff)
    }

    /// 8x4 image: left half red, right half blue.
    fn halves() -> RgbImage {
        let mut d = Vec::new();
        for _y in 0..4 {
            for x in 0..8 {
                d.extend_from_slice(if x < 4 { &[255, 0, 0] } else { &[0, 0, 255] });
            }
        }
        RgbImage::new(8, 4, d).unwrap()
    }

    #[test]
    fn sniffs_by_content_only() {
        assert_eq!(sniff(b"\xFF\xD8\xFF\xE0rest").unwrap(), ImageFormat::Jpeg);
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest").unwrap(), ImageFormat::Png);
        assert!(matches!(
            sniff(b"hello, I am a .jpg"),
            Err(Error::UnsupportedFormat)
        ));
        assert!(matches!(sniff(b"GIF89a"), Err(Error::UnsupportedFormat)));
        assert!(matches!(sniff(b""), Err(Error::UnsupportedFormat)));
    }

    #[test]
    fn png_roundtrip_gray_and_alpha() {
        let gray = encode_png(2, 1, png::ColorType::Grayscale, &[0, 200]);
        let img = decode(&gray, &DecodeOptions::default()).unwrap();
        assert_eq!(img.data(), &[0, 0, 0, 200, 200, 200]);
        // Fully transparent black becomes white; opaque red stays red.
        let rgba = encode_png(2, 1, png::ColorType::Rgba, &[0, 0, 0, 0, 255, 0, 0, 255]);
        let img = decode(&rgba, &DecodeOptions::default()).unwrap();
        assert_eq!(img.data(), &[255, 255, 255, 255, 0, 0]);
    }

    #[test]
    fn png_bomb_is_refused_before_decoding() {
        let mut png = encode_png(1, 1, png::ColorType::Rgb, &[1, 2, 3]);
        png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let err = decode(&png, &DecodeOptions::default()).unwrap_err();
        assert!(
            matches!(
                err,
                Error::TooManyPixels {
                    width: 100_000,
                    height: 100_000,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn truncated_and_corrupt_inputs_are_clean_errors() {
        let png = encode_png(4, 4, png::ColorType::Rgb, &[7u8; 48]);
        for cut in [8, 20, 30, png.len() - 13] {
            let err = decode(&png[..cut], &DecodeOptions::default()).unwrap_err();
            assert!(matches!(err, Error::Decode(_)), "cut {cut}: {err}");
        }
        let jpeg = encode_jpeg(&halves());
        for cut in [3, 10, 40] {
            let err = decode(&jpeg[..cut], &DecodeOptions::default()).unwrap_err();
            assert!(matches!(err, Error::Decode(_)), "cut {cut}: {err}");
        }
        let mut garbage = jpeg.clone();
        for b in garbage.iter_mut().skip(200) {
            *b = 0x55;
        }
        // Either a clean error or a (damaged) image: never a panic.
        let _ = decode(&garbage, &DecodeOptions::default());
    }

    #[test]
    fn jpeg_decodes_and_respects_pixel_limit() {
        let jpeg = encode_jpeg(&halves());
        let img = decode(&jpeg, &DecodeOptions::default()).unwrap();
        assert_eq!((img.width(), img.height()), (8, 4));
        let left = img.pixel(0, 0).unwrap();
        assert!(left[0] > 200 && left[2] < 60, "{left:?}");
        let err = decode(&jpeg, &DecodeOptions::default().with_max_pixels(31)).unwrap_err();
        assert!(matches!(err, Error::TooManyPixels { .. }));
    }

    #[test]
    fn jpeg_dct_scaling_picks_smallest_factor_above_target() {
        let f = jpeg_scale_for(6000, 4000, Some(1600));
        assert_eq!((f.num(), f.denom()), (1, 2), "6000 / 2 >= 1600 > 6000 / 4");
        let f = jpeg_scale_for(6000, 4000, Some(1500));
        assert_eq!((f.num(), f.denom()), (1, 4));
        let f = jpeg_scale_for(6000, 4000, Some(400));
        assert_eq!((f.num(), f.denom()), (1, 8));
        let f = jpeg_scale_for(1000, 800, Some(1600));
        assert_eq!((f.num(), f.denom()), (1, 1));
        let big = RgbImage::filled(64, 32, [10, 20, 30]);
        let img = decode(
            &encode_jpeg(&big),
            &DecodeOptions::default().with_target_long_edge(16),
        )
        .unwrap();
        assert_eq!((img.width(), img.height()), (16, 8));
    }

    /// `jpeg` with a comment and an EXIF-like block that names a place, after SOI.
    fn with_secrets(jpeg: &[u8]) -> Vec<u8> {
        let mut out = jpeg[..2].to_vec();
        for (marker, text) in [
            (0xFE, &b"GPS 13.7563N 100.5018E"[..]),
            (0xE5, b"serial 1234"),
        ] {
            out.extend_from_slice(&[0xFF, marker]);
            out.extend_from_slice(&((text.len() + 2) as u16).to_be_bytes());
            out.extend_from_slice(text);
        }
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    #[test]
    fn stripped_jpegs_keep_pixels_and_orientation_only() {
        let plain = encode_jpeg(&halves());
        let rotated = with_secrets(&with_orientation(&plain, 6));
        let clean = strip_metadata(&rotated).unwrap();
        let text = String::from_utf8_lossy(&clean);
        assert!(
            !text.contains("GPS") && !text.contains("serial"),
            "metadata left"
        );
        assert_eq!(probe(&clean).unwrap().orientation, 6);
        let opts = DecodeOptions::default();
        assert_eq!(
            decode(&clean, &opts).unwrap(),
            decode(&rotated, &opts).unwrap()
        );
        // Upright images carry no EXIF at all.
        let clean = strip_metadata(&with_secrets(&plain)).unwrap();
        assert_eq!(clean, plain);
        assert!(
            strip_metadata(&plain[..40]).is_err(),
            "a cut header is refused"
        );
    }

    #[test]
    fn stripped_pngs_lose_their_text_chunks() {
        let png = encode_png(2, 1, png::ColorType::Rgb, &[1, 2, 3, 4, 5, 6]);
        // A tEXt chunk after IHDR (8 + 25 bytes).
        let mut chunk = Vec::new();
        let body = b"tEXtComment\0home address";
        chunk.extend_from_slice(&((body.len() - 4) as u32).to_be_bytes());
        chunk.extend_from_slice(body);
        chunk.extend_from_slice(&crc32(body).to_be_bytes());
        let mut with_text = png[..33].to_vec();
        with_text.extend_from_slice(&chunk);
        with_text.extend_from_slice(&png[33..]);
        let opts = DecodeOptions::default();
        assert_eq!(
            decode(&with_text, &opts).unwrap().data(),
            &[1, 2, 3, 4, 5, 6]
        );
        let clean = strip_metadata(&with_text).unwrap();
        assert_eq!(clean, png);
        assert!(!String::from_utf8_lossy(&clean).contains("home"));
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    /// `jpeg` with a little-endian EXIF block: IFD0 points to a sub-directory holding
    /// DateTimeOriginal and, when given, OffsetTimeOriginal.
    fn with_date_taken(jpeg: &[u8], local: &str, offset: Option<&str>) -> Vec<u8> {
        let entry = |tag: u16, kind: u16, count: u32, value: u32| {
            let mut e = Vec::new();
            e.extend_from_slice(&tag.to_le_bytes());
            e.extend_from_slice(&kind.to_le_bytes());
            e.extend_from_slice(&count.to_le_bytes());
            e.extend_from_slice(&value.to_le_bytes());
            e
        };
        let sub_at = 8 + 2 + 12 + 4;
        let entries = 1 + u16::from(offset.is_some());
        let data_at = sub_at + 2 + 12 * usize::from(entries) + 4;
        let mut tiff = b"II*\0\x08\0\0\0".to_vec();
        tiff.extend_from_slice(&1u16.to_le_bytes());
        tiff.extend(entry(0x8769, 4, 1, sub_at as u32));
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend_from_slice(&entries.to_le_bytes());
        let mut data = Vec::new();
        let text = |t: &str, data: &mut Vec<u8>| {
            let at = data_at + data.len();
            data.extend_from_slice(t.as_bytes());
            data.push(0);
            (at as u32, t.len() as u32 + 1)
        };
        let (at, n) = text(local, &mut data);
        tiff.extend(entry(0x9003, 2, n, at));
        if let Some(o) = offset {
            let (at, n) = text(o, &mut data);
            tiff.extend(entry(0x9011, 2, n, at));
        }
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend(data);
        with_exif(jpeg, &tiff)
    }

    #[test]
    fn date_taken_comes_from_the_exif_sub_directory() {
        let jpeg = encode_jpeg(&halves());
        assert_eq!(date_taken(&jpeg), None);
        let dated = with_date_taken(&jpeg, "2026:11:22 06:15:30", Some("+07:00"));
        assert_eq!(
            date_taken(&dated),
            Some(DateTaken {
                local: "2026:11:22 06:15:30".into(),
                offset: Some("+07:00".into()),
            })
        );
        let plain = with_date_taken(&jpeg, "2026:11:22 06:15:30", None);
        assert_eq!(date_taken(&plain).and_then(|d| d.offset), None);
        // Still decodes, and damaged blocks give nothing rather than a panic.
        assert!(decode(&dated, &DecodeOptions::default()).is_ok());
        for cut in 0..dated.len().min(200) {
            let mut broken = dated.clone();
            broken[cut] ^= 0x5A;
            let _ = date_taken(&broken);
        }
    }

    #[test]
    fn exif_orientation_is_applied() {
        let jpeg = encode_jpeg(&halves());
        // 6: stored image must be turned 90 degrees clockwise: red (left) ends up on top.
        let rotated = with_orientation(&jpeg, 6);
        assert_eq!(probe(&rotated).unwrap().orientation, 6);
        let img = decode(&rotated, &DecodeOptions::default()).unwrap();
        assert_eq!((img.width(), img.height()), (4, 8));
        let top = img.pixel(2, 0).unwrap();
        let bottom = img.pixel(2, 7).unwrap();
        assert!(top[0] > 200 && bottom[2] > 200, "{top:?} {bottom:?}");
    }

    #[test]
    fn orientations_map_pixels_as_specified() {
        // 2x3 image with distinct pixels, numbered row-major 0..6.
        let data: Vec<u8> = (0..6u8).flat_map(|i| [i, 0, 0]).collect();
        let img = RgbImage::new(2, 3, data).unwrap();
        let ids = |o: u8| -> (u32, u32, Vec<u8>) {
            let r = apply_orientation(img.clone(), o);
            (
                r.width(),
                r.height(),
                r.data().chunks(3).map(|p| p[0]).collect(),
            )
        };
        // Stored:  0 1 / 2 3 / 4 5
        assert_eq!(ids(1), (2, 3, vec![0, 1, 2, 3, 4, 5]));
        assert_eq!(ids(2), (2, 3, vec![1, 0, 3, 2, 5, 4]));
        assert_eq!(ids(3), (2, 3, vec![5, 4, 3, 2, 1, 0]));
        assert_eq!(ids(4), (2, 3, vec![4, 5, 2, 3, 0, 1]));
        assert_eq!(ids(5), (3, 2, vec![0, 2, 4, 1, 3, 5]));
        assert_eq!(ids(6), (3, 2, vec![4, 2, 0, 5, 3, 1]));
        assert_eq!(ids(7), (3, 2, vec![5, 3, 1, 4, 2, 0]));
        assert_eq!(ids(8), (3, 2, vec![1, 3, 5, 0, 2, 4]));
    }

    #[test]
    fn resize_keeps_aspect_and_never_upscales() {
        assert_eq!(fit_long_edge(6000, 4000, 1600), (1600, 1067));
        assert_eq!(fit_long_edge(400, 300, 1600), (400, 300));
        let img = RgbImage::filled(100, 50, [9, 9, 9]);
        let r = resize_to_long_edge(&img, 40);
        assert_eq!((r.width(), r.height()), (40, 20));
        assert!(r.data().iter().all(|&v| v == 9));
        assert_eq!(resize_to_long_edge(&img, 400), img);
    }

    #[test]
    fn crops_are_clipped_to_the_image() {
        let img = RgbImage::new(3, 2, (0u8..18).collect()).unwrap();
        let c = img.crop(1, 1, 5, 5).unwrap();
        assert_eq!((c.width(), c.height()), (2, 1));
        assert_eq!(c.data(), &[12, 13, 14, 15, 16, 17]);
        assert_eq!(img.crop(0, 0, 3, 2).unwrap(), img);
        assert!(img.crop(3, 0, 1, 1).is_none());
        assert!(img.crop(0, 0, 0, 2).is_none());
        assert!(img.crop(u32::MAX, 1, u32::MAX, 1).is_none());
    }

    #[test]
    fn rgb_image_checks_its_buffer() {
        assert!(RgbImage::new(2, 2, vec![0; 11]).is_err());
        assert!(RgbImage::new(0, 2, vec![]).is_err());
        assert!(RgbImage::new(2, 2, vec![0; 12]).is_ok());
    }
}
