//! Matching by sequence: a face that falls a little short of the threshold is still the
//! runner's when a face matched outright in a photo the same camera took moments before or
//! after, and this one sits where that runner would have moved to. A race photographer
//! shoots bursts; in the frame beside a sharp one the same runner is often blurred, turned
//! or half hidden, and scores below the threshold while nobody else stands in their place.
//!
//! Only confident: the anchor must match outright (a sequence match never anchors another),
//! the two photos must come from one camera within [`WINDOW_MS`], the face must reach the
//! pair's floor ([`crate::ModelPair::sequence_floor`], where about one stranger comparison in
//! a thousand lands), and its box must lie inside the anchor's [`GATE`]. The shop marks such
//! photos as found by sequence. docs/benchmarks.md ("Matching by sequence") measures it.

/// The longest time between two photos of a sequence, in milliseconds: a burst's frames, or
/// a photographer's next shot of the same runners.
pub const WINDOW_MS: i64 = 1_000;

/// How far a runner's face may move between two photos of a sequence: in heights of the
/// anchor's face, across and down, and the factor its height may change by. Heights, not
/// widths: a head turned between two frames narrows its box, hardly shortens it.
pub const GATE: Gate = Gate {
    across: 0.6,
    down: 0.4,
    grow: 1.25,
};

/// See [`GATE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gate {
    pub across: f32,
    pub down: f32,
    pub grow: f32,
}

/// A face in a photo: which camera took the photo and when (Unix milliseconds), and the
/// face's box (x1, y1, x2, y2) in the photo's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sighting {
    pub camera: i64,
    pub taken_ms: i64,
    pub bbox: [f32; 4],
}

impl Sighting {
    fn height(&self) -> f32 {
        self.bbox[3] - self.bbox[1]
    }

    fn centre(&self) -> (f32, f32) {
        (
            (self.bbox[0] + self.bbox[2]) / 2.0,
            (self.bbox[1] + self.bbox[3]) / 2.0,
        )
    }
}

/// Whether `face` continues the runner seen at `anchor`: the same camera, within
/// [`WINDOW_MS`] (not the same instant's photo: a photo is never its own sequence), inside
/// the anchor's [`GATE`].
pub fn continues(anchor: &Sighting, face: &Sighting) -> bool {
    let (ha, hf) = (anchor.height(), face.height());
    if !(ha > 0.0 && hf > 0.0) {
        return false;
    }
    let ((ax, ay), (fx, fy)) = (anchor.centre(), face.centre());
    anchor.camera == face.camera
        && (anchor.taken_ms - face.taken_ms).abs() <= WINDOW_MS
        && (ax - fx).abs() <= GATE.across * ha
        && (ay - fy).abs() <= GATE.down * ha
        && hf <= ha * GATE.grow
        && ha <= hf * GATE.grow
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(camera: i64, taken_ms: i64, x: f32, y: f32, h: f32) -> Sighting {
        Sighting {
            camera,
            taken_ms,
            bbox: [x, y, x + h * 0.75, y + h],
        }
    }

    #[test]
    fn a_runner_moving_a_little_in_the_next_frame_continues() {
        let anchor = at(7, 1_000, 1000.0, 500.0, 80.0);
        assert!(continues(&anchor, &at(7, 1_500, 1030.0, 510.0, 88.0)));
        assert!(continues(&anchor, &at(7, 500, 970.0, 490.0, 72.0)));
        // A turned head: narrower, as tall.
        let turned = Sighting {
            bbox: [1010.0, 500.0, 1050.0, 580.0],
            ..anchor
        };
        assert!(continues(&anchor, &turned));
    }

    #[test]
    fn another_camera_a_later_moment_or_another_place_does_not() {
        let anchor = at(7, 1_000, 1000.0, 500.0, 80.0);
        assert!(!continues(&anchor, &at(8, 1_500, 1000.0, 500.0, 80.0)));
        assert!(!continues(&anchor, &at(7, 2_001, 1000.0, 500.0, 80.0)));
        assert!(!continues(&anchor, &at(7, 1_500, 1049.0, 500.0, 80.0)));
        assert!(!continues(&anchor, &at(7, 1_500, 1000.0, 533.0, 80.0)));
        // Someone behind or in front: another size.
        assert!(!continues(&anchor, &at(7, 1_500, 1000.0, 500.0, 101.0)));
        assert!(!continues(&anchor, &at(7, 1_500, 1000.0, 500.0, 63.0)));
        // A degenerate box.
        assert!(!continues(&anchor, &at(7, 1_500, 1000.0, 500.0, 0.0)));
    }
}
