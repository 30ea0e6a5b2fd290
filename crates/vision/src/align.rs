//! Five-point face alignment: the least-squares similarity transform (Umeyama) from the
//! detected landmarks to the ArcFace template, and the bilinear warp into the square crop
//! an ArcFace-style recogniser expects; a face larger than the crop is shrunk with an
//! antialiasing filter first.
//!
//! Recognisers are trained on crops made exactly this way; any other crop (a plain box
//! crop, a different template) costs far more accuracy than any model swap gains.

use crate::detect::Landmarks;
use crate::image_io::{RgbImage, resize_exact};

/// ArcFace's reference landmarks for a 112x112 crop (eyes, nose, mouth corners).
pub const ARCFACE_TEMPLATE_112: Landmarks = [
    [38.2946, 51.6963],
    [73.5318, 51.5014],
    [56.0252, 71.7366],
    [41.5493, 92.3655],
    [70.7299, 92.2041],
];

/// The template scaled to a `size` x `size` crop (recognisers with other input sizes were
/// trained on the same template scaled proportionally).
pub fn template_for(size: u32) -> Landmarks {
    let s = size as f32 / 112.0;
    ARCFACE_TEMPLATE_112.map(|[x, y]| [x * s, y * s])
}

/// A 2-D similarity transform (uniform scale, rotation, translation, no reflection):
/// `x' = a*x - b*y + tx`, `y' = b*x + a*y + ty`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similarity {
    pub a: f32,
    pub b: f32,
    pub tx: f32,
    pub ty: f32,
}

impl Similarity {
    pub const IDENTITY: Similarity = Similarity {
        a: 1.0,
        b: 0.0,
        tx: 0.0,
        ty: 0.0,
    };

    pub fn apply(&self, [x, y]: [f32; 2]) -> [f32; 2] {
        [
            self.a * x - self.b * y + self.tx,
            self.b * x + self.a * y + self.ty,
        ]
    }

    /// The inverse transform, or `None` when this one collapses everything to a point.
    pub fn inverse(&self) -> Option<Similarity> {
        let d = self.a * self.a + self.b * self.b;
        if !(d.is_finite() && d > f32::EPSILON) {
            return None;
        }
        let (a, b) = (self.a / d, -self.b / d);
        // Inverse translation: -R^-1 t.
        Some(Similarity {
            a,
            b,
            tx: -(a * self.tx - b * self.ty),
            ty: -(b * self.tx + a * self.ty),
        })
    }

    pub fn scale(&self) -> f32 {
        (self.a * self.a + self.b * self.b).sqrt()
    }
}

/// Least-squares similarity mapping `src[i]` onto `dst[i]`. In 2-D with the rotation kept
/// proper this is Umeyama's solution in closed form: with centred points P, Q,
/// `a = sum(P.Q) / sum|P|^2`, `b = sum(P x Q) / sum|P|^2`, `t = mean(Q) - R mean(P)`.
/// Returns `None` when all source points coincide.
pub fn estimate_similarity(src: &Landmarks, dst: &Landmarks) -> Option<Similarity> {
    let n = src.len() as f64;
    let mean = |pts: &Landmarks| {
        let (sx, sy) = pts.iter().fold((0.0f64, 0.0f64), |(ax, ay), p| {
            (ax + f64::from(p[0]), ay + f64::from(p[1]))
        });
        (sx / n, sy / n)
    };
    let (spx, spy) = mean(src);
    let (sqx, sqy) = mean(dst);
    let (mut dot, mut cross, mut norm) = (0.0f64, 0.0f64, 0.0f64);
    for (p, q) in src.iter().zip(dst) {
        let (px, py) = (f64::from(p[0]) - spx, f64::from(p[1]) - spy);
        let (qx, qy) = (f64::from(q[0]) - sqx, f64::from(q[1]) - sqy);
        dot += px * qx + py * qy;
        cross += px * qy - py * qx;
        norm += px * px + py * py;
    }
    if !(norm.is_finite() && norm > 1e-12) {
        return None;
    }
    let (a, b) = (dot / norm, cross / norm);
    Some(Similarity {
        a: a as f32,
        b: b as f32,
        tx: (sqx - (a * spx - b * spy)) as f32,
        ty: (sqy - (b * spx + a * spy)) as f32,
    })
}

/// Warps `img` by `m` (image -> crop coordinates) into a `size` x `size` crop with bilinear
/// sampling; samples outside the image count as black, like OpenCV's constant border.
pub fn warp(img: &RgbImage, m: &Similarity, size: u32) -> RgbImage {
    let Some(inv) = m.inverse() else {
        return RgbImage::filled(size, size, [0, 0, 0]);
    };
    let (w, h) = (img.width() as i64, img.height() as i64);
    let src = img.data();
    let fetch = |x: i64, y: i64, c: usize| -> f32 {
        if x < 0 || y < 0 || x >= w || y >= h {
            0.0
        } else {
            f32::from(src[((y * w + x) * 3) as usize + c])
        }
    };
    let mut out = Vec::with_capacity(size as usize * size as usize * 3);
    for v in 0..size {
        for u in 0..size {
            let [x, y] = inv.apply([u as f32, v as f32]);
            if !(x.is_finite() && y.is_finite()) {
                out.extend_from_slice(&[0, 0, 0]);
                continue;
            }
            let (x0, y0) = (x.floor(), y.floor());
            let (fx, fy) = (x - x0, y - y0);
            let (x0, y0) = (x0 as i64, y0 as i64);
            for c in 0..3 {
                let top = fetch(x0, y0, c) * (1.0 - fx) + fetch(x0 + 1, y0, c) * fx;
                let bottom = fetch(x0, y0 + 1, c) * (1.0 - fx) + fetch(x0 + 1, y0 + 1, c) * fx;
                let value = top * (1.0 - fy) + bottom * fy;
                out.push(value.round().clamp(0.0, 255.0) as u8);
            }
        }
    }
    RgbImage::new(size, size, out).unwrap_or_else(|_| RgbImage::filled(size, size, [0, 0, 0]))
}

/// The least scale (crop pixels per image pixel) warped straight from the image. Below
/// it the bilinear warp would sample image pixels too far apart and alias fine detail
/// into the crop; at 0.8 it samples them 1.25 apart, which aliases little.
const LEAST_DIRECT_SCALE: f32 = 0.8;

/// Aligns one face: similarity from its landmarks to the template, then the warp. A face
/// larger than the crop (a selfie's, a near runner's) is first shrunk to the crop's scale
/// with an antialiasing filter ([`shrunk_around`]): sampled straight, its fine detail
/// would alias into the crop and lower its similarity to the same person's small faces
/// (docs/benchmarks.md, "Antialiased alignment").
pub fn align_face(img: &RgbImage, landmarks: &Landmarks, size: u32) -> Option<RgbImage> {
    let template = template_for(size);
    let m = estimate_similarity(landmarks, &template)?;
    if m.scale() < LEAST_DIRECT_SCALE
        && let Some((region, landmarks)) = shrunk_around(img, landmarks, &m, size)
    {
        let m = estimate_similarity(&landmarks, &template)?;
        return Some(warp(&region, &m, size));
    }
    Some(warp(img, &m, size))
}

/// The part of `img` that `m` warps into a `size` crop, with a margin for the filters,
/// shrunk to `m`'s scale; and `landmarks` in its pixels. `None` when that part lies
/// outside the image.
fn shrunk_around(
    img: &RgbImage,
    landmarks: &Landmarks,
    m: &Similarity,
    size: u32,
) -> Option<(RgbImage, Landmarks)> {
    let inv = m.inverse()?;
    let scale = m.scale();
    let n = size as f32;
    // Three crop pixels: the shrinking filter's support and the warp's.
    let margin = 3.0 / scale;
    let corners = [[0.0, 0.0], [n, 0.0], [0.0, n], [n, n]].map(|p| inv.apply(p));
    let (mut left, mut top, mut right, mut bottom) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for [x, y] in corners {
        (left, right) = (left.min(x), right.max(x));
        (top, bottom) = (top.min(y), bottom.max(y));
    }
    // `as` saturates (NaN and negatives become 0); `crop` clips to the image.
    let (x0, y0) = (
        (left - margin).floor() as u32,
        (top - margin).floor() as u32,
    );
    let (x1, y1) = (
        (right + margin).ceil() as u32,
        (bottom + margin).ceil() as u32,
    );
    let region = img.crop(x0, y0, x1.saturating_sub(x0), y1.saturating_sub(y0))?;
    let shrunk = |v: u32| ((v as f32 * scale).round() as u32).max(1);
    let (w, h) = (shrunk(region.width()), shrunk(region.height()));
    let (sx, sy) = (
        w as f32 / region.width() as f32,
        h as f32 / region.height() as f32,
    );
    // Pixel centres sit on whole coordinates, in the image and in the shrunk region alike.
    let landmarks = landmarks.map(|[x, y]| {
        [
            (x - x0 as f32 + 0.5) * sx - 0.5,
            (y - y0 as f32 + 0.5) * sy - 0.5,
        ]
    });
    Some((resize_exact(&region, w, h), landmarks))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn recovers_pure_scale_and_translation() {
        // Landmarks = template at half size shifted by (10, 20): the transform back to the
        // template must be scale 2 with translation -(2*10, 2*20).
        let src = ARCFACE_TEMPLATE_112.map(|[x, y]| [x * 0.5 + 10.0, y * 0.5 + 20.0]);
        let m = estimate_similarity(&src, &ARCFACE_TEMPLATE_112).unwrap();
        assert!(close(m.a, 2.0, 1e-4) && close(m.b, 0.0, 1e-4), "{m:?}");
        assert!(
            close(m.tx, -20.0, 1e-3) && close(m.ty, -40.0, 1e-3),
            "{m:?}"
        );
    }

    #[test]
    fn recovers_ninety_degree_rotation() {
        // src = template rotated +90 degrees about the origin: (x, y) -> (-y, x).
        // Mapping back is the -90 degree rotation (x, y) -> (y, -x): a = 0, b = -1.
        let src = ARCFACE_TEMPLATE_112.map(|[x, y]| [-y, x]);
        let m = estimate_similarity(&src, &ARCFACE_TEMPLATE_112).unwrap();
        assert!(close(m.a, 0.0, 1e-4) && close(m.b, -1.0, 1e-4), "{m:?}");
        assert!(close(m.tx, 0.0, 1e-3) && close(m.ty, 0.0, 1e-3), "{m:?}");
        for (s, d) in src.iter().zip(&ARCFACE_TEMPLATE_112) {
            let p = m.apply(*s);
            assert!(close(p[0], d[0], 1e-3) && close(p[1], d[1], 1e-3));
        }
    }

    #[test]
    fn least_squares_fits_the_best_compromise() {
        // The template maps to itself exactly; widening eyes and mouth symmetrically by
        // 1 px each side leaves the centroid and the (near-zero) rotation alone and makes
        // the best fit shrink slightly.
        let mut src = ARCFACE_TEMPLATE_112;
        src[3][0] -= 1.0;
        src[4][0] += 1.0;
        src[0][0] -= 1.0;
        src[1][0] += 1.0;
        let m = estimate_similarity(&ARCFACE_TEMPLATE_112, &ARCFACE_TEMPLATE_112).unwrap();
        assert!(close(m.a, 1.0, 1e-5) && close(m.b, 0.0, 1e-5));
        let m2 = estimate_similarity(&src, &ARCFACE_TEMPLATE_112).unwrap();
        assert!(m2.scale() < 1.0, "spread-out source shrinks: {m2:?}");
        assert!(close(m2.b, 0.0, 1e-3));
    }

    #[test]
    fn degenerate_points_give_none() {
        assert!(estimate_similarity(&[[5.0, 5.0]; 5], &ARCFACE_TEMPLATE_112).is_none());
    }

    #[test]
    fn inverse_composes_to_identity() {
        let m = Similarity {
            a: 0.6,
            b: 0.8,
            tx: 3.0,
            ty: -7.0,
        };
        let inv = m.inverse().unwrap();
        let p = inv.apply(m.apply([12.0, -4.0]));
        assert!(close(p[0], 12.0, 1e-4) && close(p[1], -4.0, 1e-4));
    }

    #[test]
    fn warp_translates_and_interpolates() {
        // 4x1 ramp 0, 100, 200, 250.
        let img = RgbImage::new(
            4,
            1,
            [0u8, 100, 200, 250]
                .iter()
                .flat_map(|&v| [v, v, v])
                .collect(),
        )
        .unwrap();
        // Crop pixel u samples image x = u + 0.5 (shift by -0.5): averages of neighbours.
        let m = Similarity {
            a: 1.0,
            b: 0.0,
            tx: -0.5,
            ty: 0.0,
        };
        let out = warp(&img, &m, 3);
        let row: Vec<u8> = (0..3).map(|u| out.pixel(u, 0).unwrap()[0]).collect();
        assert_eq!(row, vec![50, 150, 225]);
        // Second row samples y = 1, outside a 1-pixel-high image: black.
        assert_eq!(out.pixel(0, 1).unwrap(), [0, 0, 0]);
    }

    #[test]
    fn warp_rotates_ninety_degrees() {
        // 2x2 image a b / c d; rotate +90 about origin then shift x by 1:
        // image (x, y) -> crop (1 - y, x). Crop (0,0) <- image (0,1) = c.
        let img =
            RgbImage::new(2, 2, vec![10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40]).unwrap();
        let m = Similarity {
            a: 0.0,
            b: 1.0,
            tx: 1.0,
            ty: 0.0,
        };
        let out = warp(&img, &m, 2);
        let px: Vec<u8> = out.data().chunks(3).map(|p| p[0]).collect();
        assert_eq!(px, vec![30, 10, 40, 20]);
    }

    /// A face four times the crop's size, on `img`: the template scaled up and shifted.
    fn large_face() -> Landmarks {
        ARCFACE_TEMPLATE_112.map(|[x, y]| [x * 4.0 + 37.0, y * 4.0 + 21.0])
    }

    #[test]
    fn a_large_face_is_shrunk_without_aliasing() {
        // Stripes one pixel wide: far finer than the crop can show. Sampled straight, a
        // warp at a quarter of the scale lands on stripes of one colour (or beats between
        // them); shrunk first, they average to grey.
        let img = RgbImage::from_fn(600, 600, |x, _| if x % 2 == 0 { [0; 3] } else { [255; 3] });
        let spread = |crop: &RgbImage| {
            let inner: Vec<f32> = (8..104)
                .flat_map(|v| (8..104).map(move |u| (u, v)))
                .map(|(u, v)| f32::from(crop.pixel(u, v).unwrap()[0]))
                .collect();
            let mean = inner.iter().sum::<f32>() / inner.len() as f32;
            let var = inner.iter().map(|p| (p - mean).powi(2)).sum::<f32>() / inner.len() as f32;
            (mean, var.sqrt())
        };
        let m = estimate_similarity(&large_face(), &ARCFACE_TEMPLATE_112).unwrap();
        let (straight_mean, straight) = spread(&warp(&img, &m, 112));
        let (mean, aligned) = spread(&align_face(&img, &large_face(), 112).unwrap());
        assert!(
            straight > 60.0 || (straight_mean - 127.5).abs() > 60.0,
            "the straight warp aliases: mean {straight_mean}, sd {straight}"
        );
        assert!(aligned < 10.0, "the shrunk face is grey: sd {aligned}");
        assert!((mean - 127.5).abs() < 10.0, "{mean}");
    }

    #[test]
    fn a_large_face_is_shrunk_onto_the_same_crop() {
        // On smooth ramps shrinking changes nothing but the detail: the crop matches the
        // straight warp's, so the landmarks were carried into the shrunk region exactly.
        let img = RgbImage::from_fn(600, 600, |x, y| [(x / 3) as u8, (y / 3) as u8, 90]);
        let m = estimate_similarity(&large_face(), &ARCFACE_TEMPLATE_112).unwrap();
        let straight = warp(&img, &m, 112);
        let aligned = align_face(&img, &large_face(), 112).unwrap();
        let worst = straight
            .data()
            .iter()
            .zip(aligned.data())
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
        assert!(worst <= 2, "largest difference {worst}");
    }

    #[test]
    fn a_large_face_at_the_image_edge_keeps_the_black_border() {
        // Half the face off the image's left edge: the crop's left part is black, as the
        // straight warp's is.
        let img = RgbImage::from_fn(400, 600, |_, _| [200; 3]);
        let face = ARCFACE_TEMPLATE_112.map(|[x, y]| [x * 4.0 - 224.0, y * 4.0 + 21.0]);
        let crop = align_face(&img, &face, 112).unwrap();
        assert_eq!(crop.pixel(10, 56).unwrap(), [0; 3]);
        assert_eq!(crop.pixel(100, 56).unwrap(), [200; 3]);
    }

    #[test]
    fn template_scales_with_crop_size() {
        assert_eq!(template_for(112), ARCFACE_TEMPLATE_112);
        let t = template_for(224);
        assert!(close(t[2][0], 112.0504, 1e-3));
    }

    proptest::proptest! {
        /// Any similarity applied to the template is recovered (and maps it back exactly).
        #[test]
        fn recovers_any_similarity(scale in 0.2f32..5.0, angle in -3.1f32..3.1, tx in -500f32..500.0, ty in -500f32..500.0) {
            let m = Similarity { a: scale * angle.cos(), b: scale * angle.sin(), tx, ty };
            let src = ARCFACE_TEMPLATE_112.map(|p| m.apply(p));
            let back = estimate_similarity(&src, &ARCFACE_TEMPLATE_112).unwrap();
            for (s, d) in src.iter().zip(&ARCFACE_TEMPLATE_112) {
                let p = back.apply(*s);
                proptest::prop_assert!(close(p[0], d[0], 2e-2) && close(p[1], d[1], 2e-2), "{:?} -> {:?} vs {:?}", s, p, d);
            }
        }
    }
}
