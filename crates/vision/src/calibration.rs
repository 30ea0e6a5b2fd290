//! Match thresholds a search fits on the event's own faces.
//!
//! How a stranger's face scores against a selfie depends on the face's size: the small,
//! blurred faces of distant runners score lower against anyone's sharp selfie, strangers
//! and the runner alike. One threshold for every size is either too strict for small
//! faces or too loose for large ones. So a search looks at how its selfie scores against
//! the event's faces, class by class of face width ([`size_class`]), and matches each
//! class where that distribution, fitted by a normal, leaves one stranger comparison in a
//! million ([`STRANGER_RATE`]: about 0.1 false faces a search of a 100,000-face event).
//!
//! The fit is the crowd's own: the event's runners, its cameras, its light. It takes the
//! median and the median absolute deviation, so the runner's own appearances (a few dozen
//! among thousands of faces) barely move it. [`StrangerFit::thresholds`] only ever uses it
//! between a floor and a ceiling the caller gives: the shop never goes above the event's
//! threshold nor below the pair's calibrated floor (`ModelPair::calibrated_floor`), and a
//! class with fewer than [`MIN_CLASS_FACES`] faces keeps the ceiling. The small-face
//! benchmark (`examples/small_faces.rs`, its `per-search` lines) measures this same code.

/// The upper bounds of the width classes, in the photo's pixels: a face narrower than
/// `CLASS_WIDTHS[i]` (and not narrower than the bound before) is of class `i`.
pub const CLASS_WIDTHS: [f32; 4] = [50.0, 70.0, 90.0, f32::INFINITY];

/// How many width classes there are (a power of two: the index's scan masks a class
/// with `SIZE_CLASSES - 1`).
pub const SIZE_CLASSES: usize = CLASS_WIDTHS.len();
const _: () = assert!(SIZE_CLASSES.is_power_of_two());

/// The stranger comparisons a fitted threshold lets through: one in a million.
pub const STRANGER_RATE: f64 = 1e-6;

/// Where the standard normal's upper tail is [`STRANGER_RATE`].
const STRANGER_Z: f64 = 4.753_424;

/// A class needs at least this many faces for a fit; with fewer it keeps the ceiling.
pub const MIN_CLASS_FACES: usize = 50;

/// The standard deviation of a normal is 1.4826 times its median absolute deviation.
const MAD_TO_SD: f64 = 1.482_6;

/// The class of a face `width_px` wide in its photo's pixels (a width that is not a
/// number counts as the largest class).
pub fn size_class(width_px: f32) -> u8 {
    CLASS_WIDTHS
        .iter()
        .position(|&w| width_px < w)
        .unwrap_or(SIZE_CLASSES - 1) as u8
}

/// A match threshold for each width class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds([f32; SIZE_CLASSES]);

impl Thresholds {
    /// The same threshold for every class.
    pub fn uniform(threshold: f32) -> Self {
        Self([threshold; SIZE_CLASSES])
    }

    /// Each class's threshold, smallest faces first.
    pub fn new(classes: [f32; SIZE_CLASSES]) -> Self {
        Self(classes)
    }

    /// The threshold of faces of `class` (out of range: the largest class's).
    pub fn of_class(&self, class: u8) -> f32 {
        self.0[usize::from(class).min(SIZE_CLASSES - 1)]
    }

    /// Each class's threshold, smallest faces first.
    pub fn classes(&self) -> [f32; SIZE_CLASSES] {
        self.0
    }
}

impl From<f32> for Thresholds {
    fn from(threshold: f32) -> Self {
        Self::uniform(threshold)
    }
}

/// Where one selfie's scores against an event's faces leave [`STRANGER_RATE`], class by
/// class; `None` for a class with fewer than [`MIN_CLASS_FACES`] faces.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StrangerFit([Option<f32>; SIZE_CLASSES]);

impl StrangerFit {
    /// The fit of `(class, similarity)` pairs: the faces' classes and their similarities
    /// to one selfie. Linear in the pairs.
    pub fn from_scores(scores: impl IntoIterator<Item = (u8, f32)>) -> Self {
        let mut by_class: [Vec<f32>; SIZE_CLASSES] = Default::default();
        for (class, similarity) in scores {
            if similarity.is_finite() {
                by_class[usize::from(class).min(SIZE_CLASSES - 1)].push(similarity);
            }
        }
        Self(by_class.map(|mut s| {
            if s.len() < MIN_CLASS_FACES {
                return None;
            }
            let median = middle(&mut s);
            for v in &mut s {
                *v = (*v - median).abs();
            }
            let sd = MAD_TO_SD * f64::from(middle(&mut s));
            Some((f64::from(median) + STRANGER_Z * sd) as f32)
        }))
    }

    /// Each class's fitted threshold, or `None` where it had too few faces.
    pub fn fitted(&self) -> [Option<f32>; SIZE_CLASSES] {
        self.0
    }

    /// The thresholds a search uses: each class's fit, never below `least` nor above
    /// `most`; `most` where a class has no fit, and wherever `least` is above `most`.
    pub fn thresholds(&self, least: f32, most: f32) -> Thresholds {
        Thresholds(
            self.0
                .map(|fit| fit.map_or(most, |t| t.max(least).min(most))),
        )
    }
}

/// The median (the upper one of an even count), reordering `v`. `v` is not empty.
fn middle(v: &mut [f32]) -> f32 {
    let mid = v.len() / 2;
    *v.select_nth_unstable_by(mid, f32::total_cmp).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_fall_in_their_classes() {
        assert_eq!(size_class(10.0), 0);
        assert_eq!(size_class(49.9), 0);
        assert_eq!(size_class(50.0), 1);
        assert_eq!(size_class(89.0), 2);
        assert_eq!(size_class(90.0), 3);
        assert_eq!(size_class(4000.0), 3);
        assert_eq!(size_class(f32::NAN), 3);
        assert_eq!(Thresholds::uniform(0.35).of_class(9), 0.35);
    }

    /// `n` scores of class `class` at evenly spaced quantiles of a logistic distribution
    /// of median `mean` and standard deviation `sd`: near a normal, its MAD 0.90 of a
    /// normal's of the same deviation.
    fn normal_scores(class: u8, n: usize, mean: f32, sd: f32) -> Vec<(u8, f32)> {
        (0..n)
            .map(|i| {
                let p = (i as f32 + 0.5) / n as f32;
                let logistic = (p / (1.0 - p)).ln() * (3f32.sqrt() / std::f32::consts::PI);
                (class, mean + sd * logistic)
            })
            .collect()
    }

    #[test]
    fn each_class_is_fitted_on_its_own_scores() {
        let mut scores = normal_scores(0, 1000, 0.0, 0.04);
        scores.extend(normal_scores(3, 1000, 0.05, 0.06));
        scores.extend(normal_scores(1, MIN_CLASS_FACES - 1, 0.0, 0.01));
        let fit = StrangerFit::from_scores(scores).fitted();
        let small = fit[0].unwrap();
        assert!((small - 4.75 * 0.04 * 0.91).abs() < 0.02, "{small}");
        let large = fit[3].unwrap();
        assert!(
            (large - (0.05 + 4.75 * 0.06 * 0.91)).abs() < 0.02,
            "{large}"
        );
        assert_eq!(fit[1], None, "too few faces for a fit");
        assert_eq!(fit[2], None);
    }

    #[test]
    fn the_runners_own_faces_barely_move_the_fit() {
        let crowd = normal_scores(0, 2000, 0.0, 0.05);
        let alone = StrangerFit::from_scores(crowd.clone()).fitted()[0].unwrap();
        let mut with_runner = crowd;
        with_runner.extend(std::iter::repeat_n((0, 0.7), 40));
        let with = StrangerFit::from_scores(with_runner).fitted()[0].unwrap();
        assert!((with - alone).abs() < 0.01, "{alone} -> {with}");
    }

    #[test]
    fn thresholds_stay_between_the_floor_and_the_ceiling() {
        let mut scores = normal_scores(0, 500, 0.0, 0.02); // fits low
        scores.extend(normal_scores(1, 500, 0.0, 0.07)); // fits between
        scores.extend(normal_scores(2, 500, 0.2, 0.1)); // fits high
        let fit = StrangerFit::from_scores(scores);
        let t = fit.thresholds(0.26, 0.35).classes();
        assert_eq!(t[0], 0.26);
        assert!(t[1] > 0.26 && t[1] < 0.35, "{t:?}");
        assert_eq!(t[2], 0.35);
        assert_eq!(t[3], 0.35, "no faces: the ceiling");
        // A ceiling below the floor wins.
        assert_eq!(fit.thresholds(0.26, 0.2), Thresholds::uniform(0.2));
        // Not a number is not a score.
        let none = StrangerFit::from_scores(vec![(0, f32::NAN); 100]);
        assert_eq!(none.fitted(), [None; SIZE_CLASSES]);
    }
}
