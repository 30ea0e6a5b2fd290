//! SVG documents the shop draws (finisher certificates): parsed by usvg with the shop's
//! own fonts only and no access to files or the network, shaped by rustybuzz (so Thai
//! vowels and tone marks stack as the font's mark positioning says), drawn by resvg into a
//! JPEG, or written by svg2pdf as a vector PDF whose text stays text (fonts subset and
//! embedded, with a Unicode map, so it can be searched and copied).
//!
//! An `<image>` may show an embedded `data:` picture (PNG or JPEG, the designer's artwork)
//! or a picture the caller hands over by name, `href="raceshot:NAME"`; any other
//! reference (a file, a URL) draws nothing. Rendering is deterministic: the same document,
//! fonts and pictures give the same bytes.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use raceshot_vision::RgbImage;
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg::{self, ImageHrefResolver, ImageKind, fontdb};

use super::imaging::encode_jpeg;

/// The scheme of the pictures a caller hands over: `raceshot:photo`, `raceshot:logo`.
pub const PICTURE_SCHEME: &str = "raceshot:";

/// The fonts documents are set in: every TrueType or OpenType file of one folder, with a
/// family used wherever a document names none (or names a generic one, or one that is
/// not there).
#[derive(Clone)]
pub struct Fonts {
    db: Arc<fontdb::Database>,
    family: String,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fonts")
            .field("faces", &self.db.len())
            .field("family", &self.family)
            .finish()
    }
}

impl Fonts {
    /// Loads the `.ttf` and `.otf` files directly in `dir` (in name order, so that the
    /// same folder always gives the same choices); `family` must be among them.
    pub fn load(dir: &Path, family: &str) -> anyhow::Result<Fonts> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .with_context(|| format!("reading the fonts folder {}", dir.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                path.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| e.eq_ignore_ascii_case("ttf") || e.eq_ignore_ascii_case("otf"))
            })
            .collect();
        files.sort();
        let mut db = fontdb::Database::new();
        for path in &files {
            let data =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            db.load_font_data(data);
        }
        let known = db
            .faces()
            .any(|face| face.families.iter().any(|(name, _)| name == family));
        anyhow::ensure!(
            known,
            "the font family {family:?} is not among the {} fonts in {}",
            db.len(),
            dir.display()
        );
        for set in [
            fontdb::Database::set_serif_family,
            fontdb::Database::set_sans_serif_family,
            fontdb::Database::set_cursive_family,
            fontdb::Database::set_fantasy_family,
            fontdb::Database::set_monospace_family,
        ] {
            set(&mut db, family);
        }
        Ok(Fonts {
            db: Arc::new(db),
            family: family.to_owned(),
        })
    }

    /// The family used where a document names none.
    pub fn family(&self) -> &str {
        &self.family
    }
}

/// A picture handed to a document by name.
#[derive(Debug, Clone)]
pub struct Picture {
    /// What follows `raceshot:` in the document's `href`.
    pub name: &'static str,
    pub bytes: Arc<Vec<u8>>,
    pub format: PictureFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PictureFormat {
    Jpeg,
    Png,
}

impl Picture {
    pub fn jpeg(name: &'static str, bytes: Vec<u8>) -> Self {
        Picture {
            name,
            bytes: Arc::new(bytes),
            format: PictureFormat::Jpeg,
        }
    }

    pub fn png(name: &'static str, bytes: Vec<u8>) -> Self {
        Picture {
            name,
            bytes: Arc::new(bytes),
            format: PictureFormat::Png,
        }
    }
}

/// Why a document cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum SvgError {
    #[error("not an SVG document: {0}")]
    Parse(String),
    #[error("the document cannot be drawn: {0}")]
    Draw(String),
}

/// A document ready to draw.
pub struct Document {
    tree: usvg::Tree,
}

impl Document {
    /// Parses `svg` with `fonts`, giving its `raceshot:` images from `pictures`.
    pub fn parse(svg: &str, fonts: &Fonts, pictures: &[Picture]) -> Result<Document, SvgError> {
        let pictures: Vec<Picture> = pictures.to_vec();
        let resolve_string = move |href: &str, _: &usvg::Options| -> Option<ImageKind> {
            let name = href.strip_prefix(PICTURE_SCHEME)?;
            let picture = pictures.iter().find(|p| p.name == name)?;
            Some(match picture.format {
                PictureFormat::Jpeg => ImageKind::JPEG(picture.bytes.clone()),
                PictureFormat::Png => ImageKind::PNG(picture.bytes.clone()),
            })
        };
        let resolve_data = |mime: &str, data: Arc<Vec<u8>>, _: &usvg::Options| match mime {
            "image/jpeg" | "image/jpg" => Some(ImageKind::JPEG(data)),
            "image/png" => Some(ImageKind::PNG(data)),
            _ => None,
        };
        let options = usvg::Options {
            resources_dir: None,
            font_family: fonts.family.clone(),
            fontdb: fonts.db.clone(),
            image_href_resolver: ImageHrefResolver {
                resolve_data: Box::new(resolve_data),
                resolve_string: Box::new(resolve_string),
            },
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(&sara_am_spelled_out(svg), &options)
            .map_err(|e| SvgError::Parse(e.to_string()))?;
        Ok(Document { tree })
    }

    /// The document's size in its own units (pixels for an image, points for a page).
    pub fn size(&self) -> (f32, f32) {
        let size = self.tree.size();
        (size.width(), size.height())
    }

    /// Draws the document at one pixel a unit on white (a JPEG has no transparency).
    pub fn to_rgb(&self) -> Result<RgbImage, SvgError> {
        let size = self.tree.size().to_int_size();
        let mut pixmap = Pixmap::new(size.width(), size.height())
            .ok_or_else(|| SvgError::Draw("the document has no area".to_owned()))?;
        pixmap.fill(Color::WHITE);
        resvg::render(&self.tree, Transform::identity(), &mut pixmap.as_mut());
        // Every pixel is opaque on the white ground, so premultiplied is plain RGB.
        let rgb: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|px| [px[0], px[1], px[2]])
            .collect();
        RgbImage::new(size.width(), size.height(), rgb).map_err(|e| SvgError::Draw(e.to_string()))
    }

    /// Draws the document scaled to `width` × `height` pixels on a transparent ground.
    pub fn to_pixmap(&self, width: u32, height: u32) -> Result<Pixmap, SvgError> {
        let mut pixmap = Pixmap::new(width, height)
            .ok_or_else(|| SvgError::Draw("the document has no area".to_owned()))?;
        let size = self.tree.size();
        let scale =
            Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
        resvg::render(&self.tree, scale, &mut pixmap.as_mut());
        Ok(pixmap)
    }

    /// Draws the document as a JPEG (4:2:0) of `quality`.
    pub fn to_jpeg(&self, quality: i32) -> Result<Vec<u8>, SvgError> {
        encode_jpeg(&self.to_rgb()?, quality).map_err(|e| SvgError::Draw(e.to_string()))
    }

    /// Writes the document as a one-page PDF, one unit a point (a document 595 × 842 units
    /// is an A4 page).
    pub fn to_pdf(&self) -> Result<Vec<u8>, SvgError> {
        svg2pdf::to_pdf(
            &self.tree,
            svg2pdf::ConversionOptions::default(),
            svg2pdf::PageOptions { dpi: 72.0 },
        )
        .map_err(|e| SvgError::Draw(e.to_string()))
    }
}

/// Thai SARA AM (ำ) written as the two signs it is drawn with, NIKHAHIT (ํ) before the
/// above-base marks it follows and SARA AA (า) after them: `น้ำ` becomes `น ํ ้ า`, which
/// is what a Thai shaper does itself. usvg 0.45 (the one svg2pdf builds on) gives a cluster
/// the advance of its widest glyph, not the sum, so the shaper's own split left SARA AA
/// under the next letter; split first, each part is a cluster of its own. (usvg 0.49 sums
/// the advances.) A PDF's text then holds the two signs for the one.
pub fn sara_am_spelled_out(text: &str) -> std::borrow::Cow<'_, str> {
    const SARA_AM: char = '\u{0E33}';
    if !text.contains(SARA_AM) {
        return std::borrow::Cow::Borrowed(text);
    }
    // Above-base marks: MAI HAN-AKAT, SARA I to SARA UEE, MAITAIKHU, the tone marks,
    // THANTHAKHAT, NIKHAHIT, YAMAKKAN.
    let above =
        |c: char| matches!(c, '\u{0E31}' | '\u{0E34}'..='\u{0E37}' | '\u{0E47}'..='\u{0E4E}');
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c != SARA_AM {
            out.push(c);
            continue;
        }
        let marks_from = out
            .char_indices()
            .rev()
            .take_while(|(_, m)| above(*m))
            .last()
            .map_or(out.len(), |(i, _)| i);
        let marks = out.split_off(marks_from);
        out.push('\u{0E4D}');
        out.push_str(&marks);
        out.push('\u{0E32}');
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The Thai fonts of the test machine (`fonts-thai-tlwg`, installed by
    /// `scripts/setup.sh`).
    pub(crate) fn thai_fonts() -> Fonts {
        Fonts::load(Path::new("/usr/share/fonts/truetype/tlwg"), "Laksaman")
            .unwrap_or_else(|e| panic!("{e:#}"))
    }

    #[test]
    fn sara_am_is_spelled_out_before_shaping() {
        assert_eq!(
            sara_am_spelled_out("น้ำ ทำ"),
            "น\u{0E4D}\u{0E49}\u{0E32} ท\u{0E4D}\u{0E32}"
        );
        assert_eq!(sara_am_spelled_out("1:02:03"), "1:02:03");
        // At the very start, with nothing before it.
        assert_eq!(sara_am_spelled_out("ำ"), "\u{0E4D}\u{0E32}");
    }

    #[test]
    fn a_family_that_is_not_in_the_folder_is_refused() {
        let err = Fonts::load(Path::new("/usr/share/fonts/truetype/tlwg"), "No Such Font")
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("No Such Font")));
    }

    #[test]
    fn only_named_and_embedded_pictures_are_drawn() {
        let fonts = thai_fonts();
        let red = RgbImage::filled(4, 4, [255, 0, 0]);
        let jpeg = encode_jpeg(&red, 95).unwrap_or_else(|e| panic!("{e}"));
        let svg = |href: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">
                <image href="{href}" x="0" y="0" width="10" height="10" preserveAspectRatio="none"/></svg>"#
            )
        };
        let draw = |href: &str| {
            Document::parse(&svg(href), &fonts, &[Picture::jpeg("photo", jpeg.clone())])
                .and_then(|d| d.to_rgb())
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let is_red = |img: &RgbImage| img.pixel(5, 5).is_some_and(|[r, g, _]| r > 200 && g < 60);
        assert!(is_red(&draw("raceshot:photo")));
        // A file of the server, a URL or an unknown name draw nothing.
        for href in [
            "/etc/passwd",
            "file:///etc/hostname",
            "https://example.com/a.png",
            "raceshot:logo",
        ] {
            assert_eq!(draw(href).pixel(5, 5), Some([255, 255, 255]), "{href}");
        }
    }

    #[test]
    fn the_same_document_gives_the_same_bytes() {
        let fonts = thai_fonts();
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">
            <text x="10" y="60" font-size="40">สมชาย 1:02:03</text></svg>"#;
        let doc = Document::parse(svg, &fonts, &[]).unwrap_or_else(|e| panic!("{e}"));
        let again = Document::parse(svg, &fonts, &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.to_jpeg(90).ok(), again.to_jpeg(90).ok());
        let pdf = doc.to_pdf().unwrap_or_else(|e| panic!("{e}"));
        assert!(pdf.starts_with(b"%PDF-"));
        assert_eq!(Some(pdf), again.to_pdf().ok());
        assert!(matches!(
            Document::parse("<html/>", &fonts, &[]),
            Err(SvgError::Parse(_))
        ));
    }

    /// A Thai name with a tone mark stacked on an upper vowel (ปิ่น), one above a
    /// consonant with SARA AM (น้ำ) and a mark under a tall consonant's tail (ทิพย์),
    /// as the shop draws it.
    const THAI_NAME: &str = "น้ำทิพย์ ปิ่นแก้ว";

    fn name_document(text: &str) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="560" height="120">
            <text x="20" y="82" font-family="Laksaman" font-size="60">{text}</text></svg>"#
        )
    }

    fn grey(img: &RgbImage) -> Vec<u8> {
        img.data()
            .chunks_exact(3)
            .map(|p| ((u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 3) as u8)
            .collect()
    }

    /// The mean difference of two grey images of one size, 0 to 255.
    fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
        let sum: u64 = a
            .iter()
            .zip(b)
            .map(|(x, y)| u64::from(x.abs_diff(*y)))
            .sum();
        sum as f64 / a.len() as f64
    }

    /// The reference (`tests/data/thai-name.png`) was drawn by this code and checked by
    /// eye against the name as a Thai reader writes it: each mark above its consonant,
    /// the tone mark of ปิ่น above the vowel, not over it. Set
    /// `RACESHOT_WRITE_REFERENCE=1` to draw it again after a deliberate change.
    #[test]
    fn a_thai_name_is_drawn_with_its_marks_stacked_as_the_reference_shows() {
        let fonts = thai_fonts();
        let draw = |text: &str| {
            Document::parse(&name_document(text), &fonts, &[])
                .and_then(|d| d.to_rgb())
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let drawn = draw(THAI_NAME);
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/thai-name.png");
        if std::env::var_os("RACESHOT_WRITE_REFERENCE").is_some() {
            let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{e}"));
            let mut encoder = png::Encoder::new(file, drawn.width(), drawn.height());
            encoder.set_color(png::ColorType::Grayscale);
            let mut writer = encoder.write_header().unwrap_or_else(|e| panic!("{e}"));
            writer
                .write_image_data(&grey(&drawn))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        ));
        let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{e}"));
        let mut reference = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader
            .next_frame(&mut reference)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((info.width, info.height), (drawn.width(), drawn.height()));
        reference.truncate(info.buffer_size());

        let same = mean_difference(&grey(&drawn), &reference);
        assert!(
            same < 0.5,
            "the name differs from the reference by {same:.2}"
        );
        // The comparison sees a misplaced mark: the tone mark typed before the vowel
        // (ป่ิน) is drawn under it, and that is far from the reference.
        let wrong = draw(&THAI_NAME.replace("ปิ่น", "ป่ิน"));
        let far = mean_difference(&grey(&wrong), &reference);
        assert!(
            far > 4.0 * same.max(0.1),
            "a misplaced mark differs only by {far:.2}"
        );
    }
}
