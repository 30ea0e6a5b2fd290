//! Certificate templates: SVG documents an operator designs, with `{{field}}` placeholders
//! where the runner's result goes and `<image href="raceshot:photo">` /
//! `href="raceshot:logo"` where their photo and the event's logo go. A template is checked
//! whole when it is saved (size, fields, pictures, drawn once with sample values), so that
//! a runner never meets a broken one.

use resvg::usvg::roxmltree;

use crate::infra::svg::{Document, Fonts, PICTURE_SCHEME, Picture};

/// The largest template accepted: an SVG with its artwork embedded.
pub const MAX_TEMPLATE_BYTES: usize = 512 * 1024;

/// The two files a certificate comes as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A 1080 × 1350 JPEG, the portrait shape social media show whole.
    Image,
    /// An A4 page as PDF (595 × 842 points), text kept as text.
    Print,
}

impl Format {
    pub const ALL: [Format; 2] = [Format::Image, Format::Print];

    /// The document size a template of this format has, in its units (pixels, points).
    pub fn size(self) -> (f32, f32) {
        match self {
            Format::Image => (1080.0, 1350.0),
            Format::Print => (595.0, 842.0),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Image => "image",
            Format::Print => "print",
        }
    }

    pub fn parse(raw: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == raw)
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Image => "jpg",
            Format::Print => "pdf",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Image => "image/jpeg",
            Format::Print => "application/pdf",
        }
    }

    /// The shop's own template, used until an operator saves one.
    pub fn default_template(self) -> &'static str {
        match self {
            Format::Image => include_str!("image.svg"),
            Format::Print => include_str!("print.svg"),
        }
    }

    /// How many pixels the photo gets per unit of its slot: a picture is drawn at one
    /// pixel a unit; a page is printed at about 200 dpi (2.8 pixels a point).
    pub fn photo_scale(self) -> f32 {
        match self {
            Format::Image => 1.0,
            Format::Print => 2.8,
        }
    }
}

/// The fields a template may show, by placeholder name.
pub const FIELDS: [&str; 10] = [
    "name",
    "bib",
    "distance",
    "category",
    "gender",
    "chip_time",
    "gun_time",
    "rank",
    "event",
    "date",
];

/// The pictures a template may show, by `raceshot:` name.
pub const PICTURES: [&str; 2] = ["photo", "logo"];

/// What is wrong with a template.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TemplateError {
    #[error("the template is larger than {} KB", MAX_TEMPLATE_BYTES / 1024)]
    TooLarge,
    #[error("the template is not an SVG document: {0}")]
    NotSvg(String),
    #[error("a {format} template must be {w} × {h} (width and height, or its viewBox); this one is {found_w} × {found_h}", format = .format.as_str(), w = .format.size().0, h = .format.size().1)]
    WrongSize {
        format: Format,
        found_w: f32,
        found_h: f32,
    },
    #[error("unknown field {{{{{0}}}}}: the fields are {fields}", fields = FIELDS.join(", "))]
    UnknownField(String),
    #[error("a placeholder opened with {{{{ is not closed with }}}}")]
    OpenPlaceholder,
    #[error(
        "an image may show raceshot:photo, raceshot:logo or an embedded data: picture, not {0:?}"
    )]
    Reference(String),
}

/// The placeholders `{{name}}` of `template`, in order (each as written, trimmed).
fn placeholders(template: &str) -> Result<Vec<&str>, TemplateError> {
    let mut found = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let end = after.find("}}").ok_or(TemplateError::OpenPlaceholder)?;
        found.push(after[..end].trim());
        rest = &after[end + 2..];
    }
    Ok(found)
}

/// `template` with each `{{field}}` replaced by its value from `values`, escaped for XML
/// (a field with no value is left empty). One pass over the text.
pub fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        out.push_str(&rest[..start]);
        let name = after[..end].trim();
        if let Some((_, value)) = values.iter().find(|(field, _)| *field == name) {
            escape_into(&mut out, value);
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

fn escape_into(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML; a name never needs them.
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// The `<image>` elements of a template: their `href` and the width and height of their
/// box (0 when not given in plain units).
fn images(doc: &roxmltree::Document<'_>) -> Vec<(String, f32, f32)> {
    const XLINK: &str = "http://www.w3.org/1999/xlink";
    doc.descendants()
        .filter(|n| n.has_tag_name("image"))
        .map(|n| {
            let href = n
                .attribute("href")
                .or_else(|| n.attribute((XLINK, "href")))
                .unwrap_or_default()
                .trim()
                .to_owned();
            let number = |name: &str| {
                n.attribute(name)
                    .and_then(|v| v.trim().trim_end_matches("px").parse::<f32>().ok())
                    .unwrap_or(0.0)
            };
            (href, number("width"), number("height"))
        })
        .collect()
}

/// The width and height of the template's photo slot, if it has one.
pub fn photo_slot(template: &str) -> Option<(f32, f32)> {
    let doc = roxmltree::Document::parse(template).ok()?;
    let photo = format!("{PICTURE_SCHEME}photo");
    images(&doc)
        .into_iter()
        .find(|(href, w, h)| *href == photo && *w > 0.0 && *h > 0.0)
        .map(|(_, w, h)| (w, h))
}

/// Checks a template of `format`: its size, its placeholders and pictures, and that it is
/// drawn with sample values in `fonts`.
pub fn check(template: &str, format: Format, fonts: &Fonts) -> Result<(), TemplateError> {
    if template.len() > MAX_TEMPLATE_BYTES {
        return Err(TemplateError::TooLarge);
    }
    for name in placeholders(template)? {
        if !FIELDS.contains(&name) {
            return Err(TemplateError::UnknownField(name.chars().take(40).collect()));
        }
    }
    let doc = roxmltree::Document::parse_with_options(
        template,
        roxmltree::ParsingOptions {
            allow_dtd: false,
            ..roxmltree::ParsingOptions::default()
        },
    )
    .map_err(|e| TemplateError::NotSvg(e.to_string()))?;
    if !doc.root_element().has_tag_name("svg") {
        return Err(TemplateError::NotSvg("its root is not <svg>".to_owned()));
    }
    for (href, _, _) in images(&doc) {
        let named = href
            .strip_prefix(PICTURE_SCHEME)
            .is_some_and(|name| PICTURES.contains(&name));
        let embedded = href.starts_with("data:image/png") || href.starts_with("data:image/jpeg");
        if !named && !embedded {
            return Err(TemplateError::Reference(href.chars().take(80).collect()));
        }
    }
    let drawn = sample_document(template, fonts, None)?;
    let (w, h) = drawn.size();
    let (want_w, want_h) = format.size();
    if (w - want_w).abs() > 0.5 || (h - want_h).abs() > 0.5 {
        return Err(TemplateError::WrongSize {
            format,
            found_w: w,
            found_h: h,
        });
    }
    Ok(())
}

/// `template` filled with made-up values as long as real ones get, a grey photo and
/// `logo` (else grey).
pub fn sample_document(
    template: &str,
    fonts: &Fonts,
    logo: Option<Picture>,
) -> Result<Document, TemplateError> {
    let values: Vec<(&str, String)> = FIELDS.iter().map(|f| (*f, sample(f))).collect();
    let filled = fill(template, &values);
    let pictures = [
        Picture::png("photo", SAMPLE_PNG.to_vec()),
        logo.unwrap_or_else(|| Picture::png("logo", SAMPLE_PNG.to_vec())),
    ];
    Document::parse(&filled, fonts, &pictures).map_err(|e| TemplateError::NotSvg(e.to_string()))
}

/// A value as long as real ones get.
fn sample(field: &str) -> String {
    match field {
        "name" => "นางสาวพิมพ์ชนก ปิ่นแก้วมณีรัตน์".to_owned(),
        "chip_time" | "gun_time" => "10:59:59.99".to_owned(),
        "rank" => "10000".to_owned(),
        other => other.to_uppercase(),
    }
}

/// A 1 × 1 grey PNG standing in for the pictures in the check.
const SAMPLE_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b,
    0x55, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x68, 0x00, 0x00, 0x00,
    0x82, 0x00, 0x81, 0x77, 0xcd, 0x72, 0xb6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infra::svg::tests::thai_fonts;

    #[test]
    fn fields_are_filled_escaped_and_unknown_ones_refused() {
        let filled = fill(
            "<text>{{ name }} {{chip_time}} {{rank}}</text>",
            &[
                ("name", "A&B <x>".to_owned()),
                ("chip_time", "1:02:03".to_owned()),
            ],
        );
        assert_eq!(filled, "<text>A&amp;B &lt;x&gt; 1:02:03 </text>");
        let fonts = thai_fonts();
        let svg = |body: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1350">{body}</svg>"#
            )
        };
        assert_eq!(
            check(&svg("<text>{{name}}</text>"), Format::Image, &fonts),
            Ok(())
        );
        assert_eq!(
            check(&svg("<text>{{password}}</text>"), Format::Image, &fonts),
            Err(TemplateError::UnknownField("password".to_owned()))
        );
        assert_eq!(
            check(&svg("<text>{{name</text>"), Format::Image, &fonts),
            Err(TemplateError::OpenPlaceholder)
        );
        assert!(matches!(
            check(&svg(""), Format::Print, &fonts),
            Err(TemplateError::WrongSize { .. })
        ));
        assert_eq!(
            check(
                &svg(r#"<image href="file:///etc/passwd" width="1" height="1"/>"#),
                Format::Image,
                &fonts
            ),
            Err(TemplateError::Reference("file:///etc/passwd".to_owned()))
        );
        assert!(matches!(
            check("not xml", Format::Image, &fonts),
            Err(TemplateError::NotSvg(_))
        ));
        assert!(matches!(
            check(&" ".repeat(MAX_TEMPLATE_BYTES + 1), Format::Image, &fonts),
            Err(TemplateError::TooLarge)
        ));
        // An entity bomb never reaches the parser's expansion: DTDs are refused.
        let bomb = r#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1350"><text>&a;</text></svg>"#;
        assert!(matches!(
            check(bomb, Format::Image, &fonts),
            Err(TemplateError::NotSvg(_))
        ));
    }

    #[test]
    fn the_shops_templates_pass_their_own_check_and_have_a_photo_slot() {
        let fonts = thai_fonts();
        for format in Format::ALL {
            let template = format.default_template();
            assert_eq!(check(template, format, &fonts), Ok(()), "{format:?}");
            assert!(photo_slot(template).is_some(), "{format:?}");
        }
    }
}
