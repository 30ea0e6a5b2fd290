//! Face detection (SCRFD and YuNet): input preparation, decoding of the per-stride outputs
//! into boxes and 5 landmarks, and non-maximum suppression. The math is pure functions so
//! it can be tested against hand-computed values; running the model lives in `engine`.
//!
//! SCRFD answers, per feature-map level (strides 8, 16, 32 for the common exports), three
//! tensors: scores `[cells * A, 1]`, box distances `[cells * A, 4]` (left, top, right,
//! bottom) and keypoint offsets `[cells * A, 10]`, all in stride units relative to the
//! anchor centre `(x * stride, y * stride)`, cells row-major, `A` anchors per cell (2).
//!
//! YuNet (decoded as OpenCV's `FaceDetectorYN` does, `modules/objdetect/src/face_detect.cpp`)
//! answers per level four: class and objectness scores `[cells, 1]`, each clamped to
//! [0, 1], the face's score their geometric mean; a box `[cells, 4]` of centre offsets
//! `(dx, dy)` in stride units from the cell's corner `(x, y)` and log sizes `(log w,
//! log h)` in stride units; and keypoints `[cells, 10]`, each `(x + kx, y + ky)` times the
//! stride. One prediction per cell.

use crate::image_io::{self, RgbImage};

/// An axis-aligned box in pixel coordinates (x1, y1) top-left, (x2, y2) bottom-right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BBox {
    pub x1: f32,
    pub y1: f32,
    pub x2: f32,
    pub y2: f32,
}

impl BBox {
    pub fn width(&self) -> f32 {
        (self.x2 - self.x1).max(0.0)
    }

    pub fn height(&self) -> f32 {
        (self.y2 - self.y1).max(0.0)
    }

    pub fn area(&self) -> f32 {
        self.width() * self.height()
    }

    /// The shorter side, which is what "face size" means for the quality gate.
    pub fn min_side(&self) -> f32 {
        self.width().min(self.height())
    }

    pub fn center(&self) -> (f32, f32) {
        ((self.x1 + self.x2) * 0.5, (self.y1 + self.y2) * 0.5)
    }

    /// Intersection over union; 0 for disjoint or empty boxes.
    pub fn iou(&self, o: &BBox) -> f32 {
        let iw = (self.x2.min(o.x2) - self.x1.max(o.x1)).max(0.0);
        let ih = (self.y2.min(o.y2) - self.y1.max(o.y1)).max(0.0);
        let inter = iw * ih;
        let union = self.area() + o.area() - inter;
        if union > 0.0 { inter / union } else { 0.0 }
    }
}

/// Five facial landmarks: left eye, right eye, nose tip, left and right mouth corners
/// (left/right as seen in the image).
pub type Landmarks = [[f32; 2]; 5];

/// One detected face.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detection {
    pub bbox: BBox,
    pub landmarks: Landmarks,
    pub score: f32,
}

/// The outputs of one feature-map level, flattened row-major as the model gives them.
#[derive(Debug, Clone, Copy)]
pub struct LevelOutputs<'a> {
    pub stride: u32,
    /// Feature-map width in cells (input width / stride).
    pub width: usize,
    /// Feature-map height in cells.
    pub height: usize,
    pub anchors: usize,
    pub scores: &'a [f32],
    /// YuNet's objectness scores (none for SCRFD).
    pub objectness: Option<&'a [f32]>,
    pub boxes: &'a [f32],
    pub keypoints: &'a [f32],
}

/// Decodes the detections of one level with score >= `threshold`, in network-input pixels.
/// Slices shorter than the grid implies are read only as far as they go.
pub fn decode_level(level: &LevelOutputs<'_>, threshold: f32) -> Vec<Detection> {
    let s = level.stride as f32;
    let n = level.width * level.height * level.anchors;
    let mut out = Vec::new();
    for (i, &score) in level.scores.iter().take(n).enumerate() {
        // NaN scores fail this comparison too, so a broken model output yields nothing.
        if score < threshold || score.is_nan() {
            continue;
        }
        let cell = i / level.anchors.max(1);
        let cx = (cell % level.width.max(1)) as f32 * s;
        let cy = (cell / level.width.max(1)) as f32 * s;
        let (Some(d), Some(k)) = (
            level.boxes.get(i * 4..i * 4 + 4),
            level.keypoints.get(i * 10..i * 10 + 10),
        ) else {
            break;
        };
        let bbox = BBox {
            x1: cx - d[0] * s,
            y1: cy - d[1] * s,
            x2: cx + d[2] * s,
            y2: cy + d[3] * s,
        };
        let mut landmarks = [[0.0f32; 2]; 5];
        for (j, lm) in landmarks.iter_mut().enumerate() {
            *lm = [cx + k[2 * j] * s, cy + k[2 * j + 1] * s];
        }
        out.push(Detection {
            bbox,
            landmarks,
            score,
        });
    }
    out
}

/// Decodes YuNet's detections of one level with score >= `threshold` (see the module's
/// documentation), in network-input pixels. Slices shorter than the grid implies are
/// read only as far as they go; a level without objectness scores yields nothing.
pub fn decode_yunet_level(level: &LevelOutputs<'_>, threshold: f32) -> Vec<Detection> {
    let Some(objectness) = level.objectness else {
        return Vec::new();
    };
    let s = level.stride as f32;
    let n = level.width * level.height;
    let mut out = Vec::new();
    for (i, (&class, &object)) in level.scores.iter().zip(objectness).take(n).enumerate() {
        let score = (class.clamp(0.0, 1.0) * object.clamp(0.0, 1.0)).sqrt();
        // NaN scores fail this comparison too, so a broken model output yields nothing.
        if score < threshold || score.is_nan() {
            continue;
        }
        let col = (i % level.width.max(1)) as f32;
        let row = (i / level.width.max(1)) as f32;
        let (Some(b), Some(k)) = (
            level.boxes.get(i * 4..i * 4 + 4),
            level.keypoints.get(i * 10..i * 10 + 10),
        ) else {
            break;
        };
        let (cx, cy) = ((col + b[0]) * s, (row + b[1]) * s);
        let (w, h) = (b[2].exp() * s, b[3].exp() * s);
        let bbox = BBox {
            x1: cx - w / 2.0,
            y1: cy - h / 2.0,
            x2: cx + w / 2.0,
            y2: cy + h / 2.0,
        };
        let mut landmarks = [[0.0f32; 2]; 5];
        for (j, lm) in landmarks.iter_mut().enumerate() {
            *lm = [(k[2 * j] + col) * s, (k[2 * j + 1] + row) * s];
        }
        out.push(Detection {
            bbox,
            landmarks,
            score,
        });
    }
    out
}

/// Greedy non-maximum suppression: keeps the best-scoring box and drops every other box
/// overlapping it by more than `iou_threshold`, repeatedly. Output is sorted by score.
pub fn nms(mut dets: Vec<Detection>, iou_threshold: f32) -> Vec<Detection> {
    dets.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut keep: Vec<Detection> = Vec::with_capacity(dets.len().min(1024));
    for d in dets {
        if keep.iter().all(|k| k.bbox.iou(&d.bbox) <= iou_threshold) {
            keep.push(d);
        }
    }
    keep
}

/// One detection pass over an image: the geometry that fitted the image into the
/// network input, the detections in that input's pixels, and the face sizes this pass
/// answers for (shorter box side in its input's pixels; the others are left to the pass
/// that sees them at a better scale).
#[derive(Debug, Clone, Copy)]
pub struct Pass<'a> {
    pub geometry: InputGeometry,
    pub detections: &'a [Detection],
    pub min_side: f32,
    pub max_side: f32,
}

impl<'a> Pass<'a> {
    /// The main pass, which answers for faces of every size.
    pub fn main(geometry: InputGeometry, detections: &'a [Detection]) -> Self {
        Self {
            geometry,
            detections,
            min_side: 0.0,
            max_side: f32::INFINITY,
        }
    }

    /// The coarse pass: faces of at least [`COARSE_MIN_FACE_PX`].
    pub fn coarse(geometry: InputGeometry, detections: &'a [Detection]) -> Self {
        Self {
            min_side: COARSE_MIN_FACE_PX,
            ..Self::main(geometry, detections)
        }
    }

    /// The fine pass beside a main pass with geometry `main`: the faces the main pass
    /// sees under [`FINE_MAIN_MAX_FACE_PX`] (at a fine pass 4.7 times larger, under 150 px
    /// in the fine input).
    pub fn fine(
        geometry: InputGeometry,
        detections: &'a [Detection],
        main: &InputGeometry,
    ) -> Self {
        let growth = geometry.scaled_width as f32 / main.scaled_width.max(1) as f32;
        Self {
            max_side: FINE_MAIN_MAX_FACE_PX * growth,
            ..Self::main(geometry, detections)
        }
    }
}

/// Merges detection passes over one image: keeps each pass's detections within its face
/// sizes, maps them to the image's pixels with that pass's geometry, then runs [`nms`]
/// over the union, so where two passes found a face the higher-scored detection is kept.
/// Output is sorted by score.
///
/// Suppression happens in image pixels because IoU is only comparable there: the same
/// face is a differently sized box in each pass's input.
pub fn merge_passes(passes: &[Pass<'_>], iou_threshold: f32) -> Vec<Detection> {
    let all: Vec<Detection> = passes
        .iter()
        .flat_map(|p| {
            p.detections
                .iter()
                .filter(|d| (p.min_side..p.max_side).contains(&d.bbox.min_side()))
                .map(|d| p.geometry.to_original(d))
        })
        .collect();
    nms(all, iou_threshold)
}

/// Coarse-pass detections whose shorter side is below this, in the coarse input's
/// pixels, are ignored. Such faces come from SCRFD's finest level (anchors of 16 and
/// 32 px), where boxes and landmarks are least precise, and the main pass sees them at
/// least [`COARSE_MIN_SHRINK`] times larger, well inside its range. On the 24 MP bench
/// photos, without this floor, coarse detections under 20 px that outscored the main
/// pass's replaced its embeddings by ones as far off as cosine 0.66 (five of 13 below
/// 0.9); from 20 px up the two agreed to >= 0.95.
pub const COARSE_MIN_FACE_PX: f32 = 32.0;

/// The coarse pass runs only if it shrinks the image by at least this factor relative to
/// the main pass. It recovers faces between the detector's ceiling (SCRFD-500M at scale
/// 1 finds a 300-px face and loses it by 340 px; the dev set's misses start at 326 px)
/// and that ceiling times the shrink. Below 1.25x that band lies mostly within the
/// ceiling's own fuzziness, while the pass would cost 1/shrink^2 (64 % or more) of the
/// main pass.
pub const COARSE_MIN_SHRINK: f32 = 1.25;

/// The geometry of a coarse (or fine) pass at `coarse_edge`: like [`InputGeometry::new`]
/// but never enlarging, because the coarse pass exists for faces that are too *large* for
/// the main pass (enlarging a small photo would only make them larger again), and the fine
/// pass for the pixels the main pass scaled away.
pub fn coarse_geometry(width: u32, height: u32, coarse_edge: u32, multiple: u32) -> InputGeometry {
    InputGeometry::new(width, height, coarse_edge, multiple, 1.0)
}

/// Whether a coarse detection pass at `coarse_edge` is worth running on a `width` x
/// `height` image whose main pass is at `long_edge` (enlarging by at most `max_upscale`):
/// only when the coarse input's long side ([`coarse_geometry`]) is at most the main
/// input's divided by [`COARSE_MIN_SHRINK`]. `coarse_edge` 0 means off.
///
/// Comparing the actual input sizes rather than the configured edges matters for photos
/// below the long edge: a 500-px photo is enlarged to 1000 for the main pass and kept at
/// 500 for the coarse one, a real 2x; without enlarging (`max_upscale` 1) the two passes
/// would see the same 500 px.
pub fn coarse_pass_worthwhile(
    width: u32,
    height: u32,
    long_edge: u32,
    coarse_edge: u32,
    max_upscale: f32,
) -> bool {
    pass_long_sides(width, height, long_edge, coarse_edge, max_upscale)
        .is_some_and(|(main, coarse)| coarse * COARSE_MIN_SHRINK <= main)
}

/// The fine pass answers for the faces the main pass sees with a shorter side under this
/// many pixels; its larger detections are ignored. SCRFD's smallest anchors are 16 px, so
/// the main pass finds faces from about there, and up to twice that it misses some (the
/// 3000x2000 small-face set, main pass at 640 beside a fine pass at 3000: 94.1 % recall
/// with the fine pass limited to 64 px, i.e. 14 px at 640; 100 % with this limit). Larger
/// faces are left to the main pass because at the fine pass's scale large faces of soft
/// photos are the ones SCRFD-500M loses (the race bench photos, enlarged from a small one,
/// lost a fifth of their faces, 80-300 px, when detected at 3000 px alone).
pub const FINE_MAIN_MAX_FACE_PX: f32 = 32.0;

/// The fine pass runs only if it enlarges the faces by at least this factor relative to
/// the main pass; below it the main pass already sees them nearly as large.
pub const FINE_MIN_GROWTH: f32 = 1.25;

/// Whether a fine detection pass at `fine_edge` (never enlarging: [`coarse_geometry`]) is
/// worth running on a `width` x `height` image whose main pass is at `long_edge`: only
/// when the fine input's long side is at least [`FINE_MIN_GROWTH`] times the main
/// input's. `fine_edge` 0 means off. A 24 MP photo decoded at 3000 px gets one at 3000
/// beside the main pass at 1600; a photo of 1600 px or less never does.
pub fn fine_pass_worthwhile(
    width: u32,
    height: u32,
    long_edge: u32,
    fine_edge: u32,
    max_upscale: f32,
) -> bool {
    pass_long_sides(width, height, long_edge, fine_edge, max_upscale)
        .is_some_and(|(main, fine)| fine >= main * FINE_MIN_GROWTH)
}

/// The long sides of the scaled image in the main pass at `long_edge` and in a pass at
/// `edge` that never enlarges ([`coarse_geometry`]), or `None` when `edge` is 0 (off) or
/// the image empty. The padding multiple does not change the scaled size, which is what
/// faces see.
fn pass_long_sides(
    width: u32,
    height: u32,
    long_edge: u32,
    edge: u32,
    max_upscale: f32,
) -> Option<(f32, f32)> {
    if edge == 0 || width == 0 || height == 0 {
        return None;
    }
    let long = |g: InputGeometry| g.scaled_width.max(g.scaled_height) as f32;
    Some((
        long(InputGeometry::new(width, height, long_edge, 1, max_upscale)),
        long(coarse_geometry(width, height, edge, 1)),
    ))
}

/// How an image was fitted into the network input, to map detections back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputGeometry {
    /// Size of the image scaled into the input (top-left aligned).
    pub scaled_width: u32,
    pub scaled_height: u32,
    /// Tensor size: scaled size padded up to a multiple of the model's largest stride.
    pub input_width: u32,
    pub input_height: u32,
    /// Original image size.
    pub original_width: u32,
    pub original_height: u32,
}

impl InputGeometry {
    /// Scales `width` x `height` so its long edge is `long_edge` (enlarging by at most
    /// `max_upscale`), and pads each side only up to the next multiple of `multiple` (no
    /// square padding: a 3:2 photo costs 3:2 worth of convolutions, not a square).
    ///
    /// Enlarging matters: SCRFD's smallest anchors are 16 px at stride 8, so the crowd in
    /// a small photo is found only once it is scaled up (players.jpg, 1237 px wide, gives
    /// markedly more faces at 1600 than at its own size).
    pub fn new(width: u32, height: u32, long_edge: u32, multiple: u32, max_upscale: f32) -> Self {
        let long = width.max(height).max(1);
        let (sw, sh) = if long >= long_edge {
            image_io::fit_long_edge(width, height, long_edge)
        } else {
            let s = (long_edge as f32 / long as f32).min(max_upscale.max(1.0));
            let up = |v: u32| ((v as f32 * s).round() as u32).max(1);
            (up(width), up(height))
        };
        let m = multiple.max(1);
        Self {
            scaled_width: sw,
            scaled_height: sh,
            input_width: sw.div_ceil(m) * m,
            input_height: sh.div_ceil(m) * m,
            original_width: width,
            original_height: height,
        }
    }

    /// For detector exports with a fixed input size (some SCRFD exports are 640x640 only):
    /// scales the image to fit inside `input_width` x `input_height` (enlarging by at most
    /// `max_upscale`) and pads the rest.
    pub fn fixed(
        width: u32,
        height: u32,
        input_width: u32,
        input_height: u32,
        max_upscale: f32,
    ) -> Self {
        let fit = (input_width as f32 / width.max(1) as f32)
            .min(input_height as f32 / height.max(1) as f32);
        let s = fit.min(max_upscale.max(1.0));
        let scale = |v: u32, max: u32| ((v as f32 * s).round() as u32).clamp(1, max.max(1));
        Self {
            scaled_width: scale(width, input_width),
            scaled_height: scale(height, input_height),
            input_width,
            input_height,
            original_width: width,
            original_height: height,
        }
    }

    /// Maps a detection from input pixels to original pixels, clipping the box to the image.
    pub fn to_original(&self, d: &Detection) -> Detection {
        let sx = self.original_width as f32 / self.scaled_width.max(1) as f32;
        let sy = self.original_height as f32 / self.scaled_height.max(1) as f32;
        let (w, h) = (self.original_width as f32, self.original_height as f32);
        let mut landmarks = d.landmarks;
        for p in &mut landmarks {
            *p = [p[0] * sx, p[1] * sy];
        }
        Detection {
            bbox: BBox {
                x1: (d.bbox.x1 * sx).clamp(0.0, w),
                y1: (d.bbox.y1 * sy).clamp(0.0, h),
                x2: (d.bbox.x2 * sx).clamp(0.0, w),
                y2: (d.bbox.y2 * sy).clamp(0.0, h),
            },
            landmarks,
            score: d.score,
        }
    }
}

/// Builds the detector input: the image scaled into the top-left corner of an
/// `input_height` x `input_width` frame of interleaved 8-bit RGB, the padding black. The
/// detector converts and normalises it itself (`model_file::rgb_u8_input`), as the
/// reference implementation pads with zeros before normalising.
pub fn prepare_input(img: &RgbImage, geo: &InputGeometry) -> Vec<u8> {
    let mut t = vec![0; input_len(geo)];
    prepare_input_into(img, geo, &mut t);
    t
}

/// The number of bytes of the detector input for `geo`.
pub fn input_len(geo: &InputGeometry) -> usize {
    geo.input_width as usize * geo.input_height as usize * 3
}

/// [`prepare_input`] into a buffer of [`input_len`] bytes (a runtime's own input tensor).
/// An image already at the pass's scale (the fine pass of a photo decoded at its long
/// edge) is copied without a resize.
pub fn prepare_input_into(img: &RgbImage, geo: &InputGeometry, t: &mut [u8]) {
    let resized;
    let scaled = if (img.width(), img.height()) == (geo.scaled_width, geo.scaled_height) {
        img
    } else {
        resized = image_io::resize_exact(img, geo.scaled_width, geo.scaled_height);
        &resized
    };
    let row = geo.input_width as usize * 3;
    let sw = (scaled.width() as usize * 3).min(row);
    let mut rows = scaled.data().chunks_exact(scaled.width() as usize * 3);
    for out in t.chunks_exact_mut(row) {
        match rows.next() {
            Some(src) => {
                out[..sw].copy_from_slice(&src[..sw]);
                out[sw..].fill(0);
            }
            None => out.fill(0),
        }
    }
}

/// Picks the "primary" box of a selfie: the largest face, discounted by its distance
/// from the image centre so a big face at the very edge (a friend cut in half) loses to
/// a nearly-as-big centred one. Returns its index.
pub fn primary_index(boxes: &[BBox], width: u32, height: u32) -> Option<usize> {
    let (cx, cy) = (width as f32 * 0.5, height as f32 * 0.5);
    let half_diag = (cx * cx + cy * cy).sqrt().max(1.0);
    let weight = |b: &BBox| {
        let (bx, by) = b.center();
        let d = ((bx - cx).powi(2) + (by - cy).powi(2)).sqrt() / half_diag;
        // Up to a factor 2 for a face in a corner: size dominates, centrality decides ties.
        b.area() * (1.0 - 0.5 * d.min(1.0))
    };
    boxes
        .iter()
        .enumerate()
        .max_by(|(_, a), (_, b)| weight(a).total_cmp(&weight(b)))
        .map(|(i, _)| i)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn approx(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn decodes_hand_built_anchor_grid() {
        // A 2x2 grid at stride 8 with 2 anchors: 8 rows. Only row 5 scores: cell 2 = (x 0,
        // y 1), anchor 1. Anchor centre = (0 * 8, 1 * 8) = (0, 8).
        let mut scores = vec![0.1f32; 8];
        scores[5] = 0.9;
        scores[6] = 0.49; // just under the threshold
        let mut boxes = vec![0.0f32; 32];
        boxes[20..24].copy_from_slice(&[1.0, 0.5, 2.0, 3.0]);
        let mut kps = vec![0.0f32; 80];
        kps[50..60].copy_from_slice(&[0.5, 0.25, 1.5, 0.25, 1.0, 1.0, 0.5, 2.0, 1.5, 2.0]);
        let level = LevelOutputs {
            stride: 8,
            width: 2,
            height: 2,
            anchors: 2,
            scores: &scores,
            objectness: None,
            boxes: &boxes,
            keypoints: &kps,
        };
        let dets = decode_level(&level, 0.5);
        assert_eq!(dets.len(), 1);
        let d = dets[0];
        assert!(approx(d.score, 0.9));
        // x1 = 0 - 1*8, y1 = 8 - 0.5*8, x2 = 0 + 2*8, y2 = 8 + 3*8
        assert_eq!(
            d.bbox,
            BBox {
                x1: -8.0,
                y1: 4.0,
                x2: 16.0,
                y2: 32.0
            }
        );
        assert_eq!(
            d.landmarks,
            [
                [4.0, 10.0],
                [12.0, 10.0],
                [8.0, 16.0],
                [4.0, 24.0],
                [12.0, 24.0]
            ]
        );
    }

    #[test]
    fn decodes_yunet_cells_as_opencv_does() {
        // A 3x2 grid at stride 16, one prediction per cell. Cell 4 is (x 1, y 1); its class
        // score 0.81 and objectness 1.2 (clamped to 1) give sqrt(0.81 * 1) = 0.9. Cell 5
        // scores sqrt(0.36 * 0.64) = 0.48, under the threshold; cell 0 has a negative class
        // score (clamped to 0).
        let mut class = vec![0.0f32; 6];
        let mut object = vec![0.0f32; 6];
        (class[4], object[4]) = (0.81, 1.2);
        (class[5], object[5]) = (0.36, 0.64);
        (class[0], object[0]) = (-0.5, 1.0);
        let mut boxes = vec![0.0f32; 24];
        boxes[16..20].copy_from_slice(&[0.5, 0.25, 2f32.ln(), 3f32.ln()]);
        let mut kps = vec![0.0f32; 60];
        kps[40..50].copy_from_slice(&[0.0, 0.0, 1.0, 0.0, 0.5, 0.5, 0.0, 1.0, 1.0, 1.0]);
        let level = LevelOutputs {
            stride: 16,
            width: 3,
            height: 2,
            anchors: 1,
            scores: &class,
            objectness: Some(&object),
            boxes: &boxes,
            keypoints: &kps,
        };
        let dets = decode_yunet_level(&level, 0.5);
        assert_eq!(dets.len(), 1);
        let d = dets[0];
        assert!(approx(d.score, 0.9));
        // Centre ((1 + 0.5) * 16, (1 + 0.25) * 16) = (24, 20); size (2 * 16, 3 * 16).
        for (got, want) in [
            (d.bbox.x1, 8.0),
            (d.bbox.y1, -4.0),
            (d.bbox.x2, 40.0),
            (d.bbox.y2, 44.0),
        ] {
            assert!(approx(got, want), "{:?}", d.bbox);
        }
        assert_eq!(
            d.landmarks,
            [
                [16.0, 16.0],
                [32.0, 16.0],
                [24.0, 24.0],
                [16.0, 32.0],
                [32.0, 32.0]
            ]
        );
        // Without objectness scores (an SCRFD answer) nothing is decoded.
        let scrfd = LevelOutputs {
            objectness: None,
            ..level
        };
        assert!(decode_yunet_level(&scrfd, 0.5).is_empty());
    }

    #[test]
    fn decodes_cell_order_row_major_for_wider_grids() {
        // 3 wide x 2 high, stride 16, 1 anchor: row 4 is cell (x 1, y 1) -> centre (16, 16).
        let mut scores = vec![0.0f32; 6];
        scores[4] = 0.7;
        let level = LevelOutputs {
            stride: 16,
            width: 3,
            height: 2,
            anchors: 1,
            scores: &scores,
            objectness: None,
            boxes: &[0.5; 24],
            keypoints: &[0.0; 60],
        };
        let d = decode_level(&level, 0.5)[0];
        assert_eq!(
            d.bbox,
            BBox {
                x1: 8.0,
                y1: 8.0,
                x2: 24.0,
                y2: 24.0
            }
        );
        assert_eq!(d.landmarks[2], [16.0, 16.0]);
    }

    #[test]
    fn short_outputs_do_not_panic() {
        let level = LevelOutputs {
            stride: 8,
            width: 4,
            height: 4,
            anchors: 2,
            scores: &[0.9; 32],
            objectness: None,
            boxes: &[0.0; 8],
            keypoints: &[0.0; 10],
        };
        assert_eq!(decode_level(&level, 0.5).len(), 1);
    }

    fn det(x1: f32, y1: f32, x2: f32, y2: f32, score: f32) -> Detection {
        Detection {
            bbox: BBox { x1, y1, x2, y2 },
            landmarks: [[0.0; 2]; 5],
            score,
        }
    }

    #[test]
    fn iou_matches_hand_computation() {
        let a = BBox {
            x1: 0.0,
            y1: 0.0,
            x2: 10.0,
            y2: 10.0,
        };
        let b = BBox {
            x1: 5.0,
            y1: 0.0,
            x2: 15.0,
            y2: 10.0,
        };
        // intersection 50, union 150
        assert!(approx(a.iou(&b), 1.0 / 3.0));
        let c = BBox {
            x1: 20.0,
            y1: 20.0,
            x2: 30.0,
            y2: 30.0,
        };
        assert_eq!(a.iou(&c), 0.0);
        assert!(approx(a.iou(&a), 1.0));
    }

    #[test]
    fn nms_suppresses_overlaps_above_threshold_only() {
        let dets = vec![
            det(0.0, 0.0, 10.0, 10.0, 0.8),
            det(1.0, 0.0, 11.0, 10.0, 0.9), // IoU with first = 90/110 = 0.818 -> suppresses it
            det(5.0, 0.0, 15.0, 10.0, 0.7), // IoU with second = 60/140 = 0.43 > 0.4 -> dropped
            det(7.0, 0.0, 17.0, 10.0, 0.6), // IoU with second = 40/160 = 0.25 -> kept
            det(50.0, 50.0, 60.0, 60.0, 0.55),
        ];
        let kept = nms(dets, 0.4);
        let scores: Vec<f32> = kept.iter().map(|d| d.score).collect();
        assert_eq!(scores, vec![0.9, 0.6, 0.55]);
    }

    /// A detection in some pass's input pixels, with landmarks at fixed box fractions
    /// so their mapping can be checked too.
    fn det_lm(x1: f32, y1: f32, x2: f32, y2: f32, score: f32) -> Detection {
        let (w, h) = (x2 - x1, y2 - y1);
        let at = |fx: f32, fy: f32| [x1 + fx * w, y1 + fy * h];
        Detection {
            bbox: BBox { x1, y1, x2, y2 },
            landmarks: [
                at(0.3, 0.4),
                at(0.7, 0.4),
                at(0.5, 0.6),
                at(0.35, 0.8),
                at(0.65, 0.8),
            ],
            score,
        }
    }

    #[test]
    fn merge_maps_both_passes_and_keeps_the_better_duplicate() {
        // A 4000x3000 photo: main pass at 1600 (scale 0.4), coarse pass at 640 (0.16).
        let main = InputGeometry::new(4000, 3000, 1600, 32, 2.0);
        let coarse = coarse_geometry(4000, 3000, 640, 32);
        assert_eq!((main.scaled_width, coarse.scaled_width), (1600, 640));
        let main_dets = [
            // A small face only the main pass sees: (250, 250)-(290, 300) in the photo.
            det_lm(100.0, 100.0, 116.0, 120.0, 0.8),
            // The close-up, found weakly by the main pass at (2000, 1000)-(3000, 2250).
            det_lm(800.0, 400.0, 1200.0, 900.0, 0.55),
            // A third face, also found by the coarse pass but better here.
            det_lm(1400.0, 200.0, 1520.0, 350.0, 0.9),
        ];
        let coarse_dets = [
            // The close-up again, slightly shifted and much more confident.
            det_lm(322.0, 161.0, 482.0, 361.0, 0.95),
            // The third face at (3500, 500)-(3800, 875), weaker at this scale.
            det_lm(560.0, 80.0, 608.0, 140.0, 0.7),
            // A face only the coarse pass sees.
            det_lm(16.0, 400.0, 80.0, 464.0, 0.85),
        ];
        let merged = merge_passes(
            &[
                Pass::main(main, &main_dets),
                Pass::coarse(coarse, &coarse_dets),
            ],
            0.4,
        );

        let scores: Vec<f32> = merged.iter().map(|d| d.score).collect();
        assert_eq!(
            scores,
            vec![0.95, 0.9, 0.85, 0.8],
            "sorted, duplicates gone"
        );
        let close_up = merged[0];
        // Photo pixels are in the thousands, where f32 steps are ~1e-4.
        let near = |a: f32, b: f32| (a - b).abs() < 1e-2;
        // Coarse input pixels x 6.25 = photo pixels, landmarks included.
        for (got, want) in [
            (close_up.bbox.x1, 2012.5),
            (close_up.bbox.y1, 1006.25),
            (close_up.bbox.x2, 3012.5),
            (close_up.bbox.y2, 2256.25),
            (close_up.landmarks[2][0], 2512.5),
            (close_up.landmarks[2][1], 1756.25),
        ] {
            assert!(near(got, want), "{got} != {want}");
        }
        // The third face comes from the main pass (x 2.5).
        assert!(near(merged[1].bbox.x1, 3500.0) && near(merged[1].bbox.y2, 875.0));
        assert!(near(merged[1].landmarks[0][0], 3590.0));
        // Faces seen by one pass only are kept, each mapped by its own pass's scale.
        assert!(near(merged[2].bbox.x1, 100.0) && near(merged[2].bbox.y2, 2900.0));
        assert!(near(merged[3].bbox.x1, 250.0) && near(merged[3].bbox.y2, 300.0));
    }

    #[test]
    fn merge_ignores_small_coarse_detections() {
        let main = InputGeometry::new(4000, 3000, 1600, 32, 2.0);
        let coarse = coarse_geometry(4000, 3000, 640, 32);
        // A 50-px face in the main input; the coarse pass sees it at 20 px and scores it
        // higher, but its box and landmarks are the cruder ones.
        let main_dets = [det_lm(100.0, 100.0, 150.0, 150.0, 0.7)];
        let coarse_dets = [
            det_lm(40.0, 40.0, 60.0, 60.0, 0.9),
            // A coarse-only face just under the limit, and one at it.
            det_lm(300.0, 300.0, 331.9, 340.0, 0.8),
            det_lm(400.0, 300.0, 432.0, 332.0, 0.6),
        ];
        let merged = merge_passes(
            &[
                Pass::main(main, &main_dets),
                Pass::coarse(coarse, &coarse_dets),
            ],
            0.4,
        );
        let scores: Vec<f32> = merged.iter().map(|d| d.score).collect();
        assert_eq!(scores, vec![0.7, 0.6]);
        assert_eq!(merged[0], main.to_original(&main_dets[0]));
    }

    #[test]
    fn merge_without_coarse_detections_is_the_main_pass_mapped() {
        let g = InputGeometry::new(3200, 2000, 1600, 32, 2.0);
        let c = coarse_geometry(3200, 2000, 640, 32);
        let dets = [det_lm(10.0, 10.0, 50.0, 60.0, 0.7)];
        let merged = merge_passes(&[Pass::main(g, &dets), Pass::coarse(c, &[])], 0.4);
        assert_eq!(merged, vec![g.to_original(&dets[0])]);
        assert!(merge_passes(&[Pass::main(g, &[]), Pass::coarse(c, &[])], 0.4).is_empty());
        assert_eq!(merge_passes(&[Pass::main(g, &dets)], 0.4), merged);
    }

    #[test]
    fn merge_takes_only_small_faces_from_the_fine_pass() {
        // A 6000x4000 photo decoded at 3000: main pass at 1000, fine pass at 3000, which
        // answers for faces under 32 px at 1000, i.e. under 96 px in its own input.
        let main = InputGeometry::new(3000, 2000, 1000, 32, 2.0);
        let fine = coarse_geometry(3000, 2000, 3000, 32);
        assert_eq!(fine.scaled_width, 3000);
        let main_dets = [det_lm(100.0, 100.0, 140.0, 150.0, 0.6)];
        let fine_dets = [
            // The same face, larger and better scored here: above the fine pass's range.
            det_lm(300.0, 300.0, 420.0, 450.0, 0.9),
            // A face too small for the main pass (7 px there), and one just at the limit.
            det_lm(1000.0, 1000.0, 1020.0, 1024.0, 0.7),
            det_lm(2000.0, 1000.0, 2096.0, 1096.0, 0.8),
        ];
        let merged = merge_passes(
            &[
                Pass::main(main, &main_dets),
                Pass::fine(fine, &fine_dets, &main),
            ],
            0.4,
        );
        let scores: Vec<f32> = merged.iter().map(|d| d.score).collect();
        assert_eq!(scores, vec![0.7, 0.6]);
        assert_eq!(merged[0], fine.to_original(&fine_dets[1]));
    }

    #[test]
    fn fine_pass_runs_only_where_it_enlarges_the_faces() {
        // Off, and photos the main pass does not shrink.
        assert!(!fine_pass_worthwhile(3000, 2000, 1600, 0, 2.0));
        assert!(!fine_pass_worthwhile(1600, 1067, 1600, 3000, 2.0));
        assert!(!fine_pass_worthwhile(1237, 800, 1600, 3000, 2.0));
        // A 24 MP photo decoded at half size, and a 12 MP one decoded whole: 3000 vs 1600.
        assert!(fine_pass_worthwhile(3000, 2000, 1600, 3000, 2.0));
        assert!(fine_pass_worthwhile(4000, 3000, 1600, 3000, 2.0));
        // Just under and at the growth factor: 1999 and 2000 px against 1600.
        assert!(!fine_pass_worthwhile(1999, 1000, 1600, 3000, 2.0));
        assert!(fine_pass_worthwhile(2000, 1000, 1600, 3000, 2.0));
        assert!(!fine_pass_worthwhile(0, 0, 1600, 3000, 2.0));
    }

    #[test]
    fn coarse_pass_runs_only_where_it_shrinks_the_faces() {
        // Off.
        assert!(!coarse_pass_worthwhile(6000, 4000, 1600, 0, 2.0));
        // 24 MP and ordinary photos: 1600 vs 640, a 2.5x shrink.
        assert!(coarse_pass_worthwhile(6000, 4000, 1600, 640, 2.0));
        assert!(coarse_pass_worthwhile(1600, 1067, 1600, 640, 2.0));
        // Small photos are enlarged for the main pass only: 630 px -> 1260 vs 630, and
        // 400 px -> 800 vs 400.
        assert!(coarse_pass_worthwhile(630, 420, 1600, 640, 2.0));
        assert!(coarse_pass_worthwhile(400, 300, 1600, 640, 2.0));
        // Without enlarging, a photo at or near the coarse edge is one scale only.
        assert!(!coarse_pass_worthwhile(600, 400, 1600, 640, 1.0));
        assert!(!coarse_pass_worthwhile(700, 400, 1600, 640, 1.0));
        assert!(coarse_pass_worthwhile(1000, 400, 1600, 640, 1.0));
        // The main pass already at, or not far above, the coarse size.
        assert!(!coarse_pass_worthwhile(6000, 4000, 640, 640, 2.0));
        assert!(!coarse_pass_worthwhile(6000, 4000, 780, 640, 2.0));
        assert!(coarse_pass_worthwhile(6000, 4000, 800, 640, 2.0));
        // A coarse edge above the main one is never run.
        assert!(!coarse_pass_worthwhile(6000, 4000, 1600, 2000, 2.0));
        assert!(!coarse_pass_worthwhile(0, 0, 1600, 640, 2.0));
    }

    #[test]
    fn coarse_geometry_never_enlarges() {
        let g = coarse_geometry(400, 300, 640, 32);
        assert_eq!((g.scaled_width, g.scaled_height), (400, 300));
        assert_eq!((g.input_width, g.input_height), (416, 320));
        let g = coarse_geometry(6000, 4000, 640, 32);
        assert_eq!((g.scaled_width, g.scaled_height), (640, 427));
    }

    #[test]
    fn geometry_pads_to_multiple_without_squaring() {
        let g = InputGeometry::new(6000, 4000, 1600, 32, 2.0);
        assert_eq!((g.scaled_width, g.scaled_height), (1600, 1067));
        assert_eq!((g.input_width, g.input_height), (1600, 1088));
        let small = InputGeometry::new(300, 200, 1600, 32, 1.0);
        assert_eq!((small.input_width, small.input_height), (320, 224));
        let up = InputGeometry::new(1237, 800, 1600, 32, 2.0);
        assert_eq!((up.scaled_width, up.scaled_height), (1600, 1035));
        assert_eq!((up.input_width, up.input_height), (1600, 1056));
        let capped = InputGeometry::new(300, 200, 1600, 32, 2.0);
        assert_eq!((capped.scaled_width, capped.scaled_height), (600, 400));
        let f = InputGeometry::fixed(1237, 800, 640, 640, 2.0);
        assert_eq!(
            (
                f.scaled_width,
                f.scaled_height,
                f.input_width,
                f.input_height
            ),
            (640, 414, 640, 640)
        );
        let d = g.to_original(&det(100.0, 100.0, 200.0, 2000.0, 0.9));
        assert!(approx(d.bbox.x1, 375.0));
        assert!(approx(d.bbox.y2, 4000.0), "clipped to the image");
    }

    #[test]
    fn prepared_input_is_interleaved_rgb_padded_black() {
        let img = RgbImage::new(2, 1, vec![255, 0, 127, 1, 2, 3]).unwrap();
        let g = InputGeometry::new(2, 1, 2, 4, 1.0);
        let t = prepare_input(&img, &g);
        assert_eq!(t.len(), 3 * 4 * 4);
        assert_eq!(&t[..12], &[255, 0, 127, 1, 2, 3, 0, 0, 0, 0, 0, 0]);
        assert!(t[12..].iter().all(|&v| v == 0));
        // A buffer that held an earlier input is overwritten, padding included.
        let mut reused = vec![9; t.len()];
        prepare_input_into(&img, &g, &mut reused);
        assert_eq!(reused, t);
        // An image scaled for the pass is resized first.
        let g = InputGeometry::new(2, 1, 4, 4, 2.0);
        assert_eq!(prepare_input(&img, &g)[..3], [255, 0, 127]);
    }

    #[test]
    fn primary_prefers_large_then_central() {
        let big_corner = BBox {
            x1: 0.0,
            y1: 0.0,
            x2: 100.0,
            y2: 100.0,
        };
        let slightly_smaller_centre = BBox {
            x1: 460.0,
            y1: 460.0,
            x2: 550.0,
            y2: 550.0,
        };
        let tiny_centre = BBox {
            x1: 495.0,
            y1: 495.0,
            x2: 505.0,
            y2: 505.0,
        };
        let boxes = [big_corner, slightly_smaller_centre, tiny_centre];
        assert_eq!(primary_index(&boxes, 1000, 1000), Some(1));
        assert_eq!(primary_index(&boxes[..1], 1000, 1000), Some(0));
        assert_eq!(primary_index(&[], 1000, 1000), None);
    }

    proptest::proptest! {
        /// NMS keeps no two boxes overlapping beyond the threshold, and every dropped box
        /// overlaps a kept box that scores at least as high.
        #[test]
        fn nms_invariants(raw in proptest::collection::vec((0f32..200.0, 0f32..200.0, 5f32..60.0, 5f32..60.0, 0f32..1.0), 0..60)) {
            let dets: Vec<Detection> = raw.iter().map(|&(x, y, w, h, s)| det(x, y, x + w, y + h, s)).collect();
            let kept = nms(dets.clone(), 0.4);
            for (i, a) in kept.iter().enumerate() {
                for b in &kept[i + 1..] {
                    proptest::prop_assert!(a.bbox.iou(&b.bbox) <= 0.4);
                }
            }
            for d in &dets {
                let survived = kept.iter().any(|k| k == d);
                let covered = kept.iter().any(|k| k.score >= d.score && k.bbox.iou(&d.bbox) > 0.4);
                proptest::prop_assert!(survived || covered);
            }
        }
    }
}
