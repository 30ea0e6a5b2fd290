//! The lookalike guard of a face search. The selfie's distant view and the thresholds
//! fitted on an event's crowd find small faces below the event's threshold (weak
//! matches), and in a crowd of people who look alike (one team, one haircut, one light)
//! some of those are another runner: on the small-face set made of a basketball team they
//! cut the search's precision from 99 % to 92 % (docs/benchmarks.md, "Lookalikes in the
//! crowd"). A lookalike's faces resemble each other more than they resemble the runner's,
//! so a photo found only by weak matches is kept when one of them resembles one of the
//! runner's surest appearances elsewhere in the event: faces the sharp selfie scores
//! [`SURE_MARGIN`] above the threshold. A photo the sharp selfie finds at the threshold is
//! always kept, so the guard never finds less than the plain threshold does. A runner with
//! no sure appearance keeps only those. Linear in the hits: at most [`MOST_SURE`]
//! appearances vouch, one dot product each a weak match.
//!
//! A face does not always resemble itself across a day's photos (the light, the angle, a
//! cap), so the runner's bib vouches too ([`Guarded::with_bibs`]): a weak match whose face
//! wears the bib read under most of the runner's sure appearances is kept. Bibs are
//! unique in an event, so a lookalike wears another; a misread one rarely lands on a face
//! the selfie also finds.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::Hit;

/// How far above the threshold the sharp selfie must score a face for it to vouch for
/// weak matches: a lookalike reaching the threshold itself (rare: 1 % of the look-alike
/// set's pairs) then vouches for none of its other photos.
pub const SURE_MARGIN: f32 = 0.05;

/// The most appearances that vouch, the surest first.
pub const MOST_SURE: usize = 32;

/// The thresholds of one search's guard.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Guard {
    /// The sharp selfie's threshold: a photo it finds at this is kept outright.
    pub threshold: f32,
    /// The least resemblance (cosine of two stored faces) a weak match must have to one of
    /// the surest appearances ([`crate::ModelPair::lookalike_gate`]).
    pub gate: f32,
}

impl Guard {
    /// What the guard keeps of `sharp` (the sharp selfie's hits, best face a photo) and
    /// `weak` (hits of other views or below the threshold; any order) by faces alone:
    /// every hit on a photo `sharp` finds at the threshold, and each other hit whose face
    /// `most_alike` says resembles one of the surest appearances at the gate.
    /// `most_alike(faces, sure)` answers, for each of `faces`, its highest cosine to any of
    /// `sure` (`None`: unknown).
    pub fn keep(
        self,
        sharp: Vec<Hit>,
        weak: Vec<Hit>,
        most_alike: impl FnOnce(&[i64], &[i64]) -> Vec<Option<f32>>,
    ) -> Guarded {
        let outright: HashSet<i64> = sharp
            .iter()
            .filter(|h| h.similarity >= self.threshold)
            .map(|h| h.photo_id)
            .collect();
        let mut sure: Vec<Hit> = sharp
            .iter()
            .filter(|h| h.similarity >= self.threshold + SURE_MARGIN)
            .copied()
            .collect();
        sure.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
        sure.truncate(MOST_SURE);
        let (mut kept, doubtful): (Vec<Hit>, Vec<Hit>) = sharp
            .into_iter()
            .chain(weak)
            .partition(|h| outright.contains(&h.photo_id));
        if doubtful.is_empty() || sure.is_empty() {
            return Guarded {
                kept,
                unvouched: Vec::new(),
                sure,
            };
        }
        let faces: Vec<i64> = doubtful.iter().map(|h| h.face_id).collect();
        let sure_faces: Vec<i64> = sure.iter().map(|h| h.face_id).collect();
        let alike = most_alike(&faces, &sure_faces);
        let mut unvouched = Vec::new();
        for (hit, alike) in doubtful.into_iter().zip(alike) {
            if alike.is_some_and(|a| a >= self.gate) {
                kept.push(hit);
            } else {
                unvouched.push(hit);
            }
        }
        Guarded {
            kept,
            unvouched,
            sure,
        }
    }
}

/// What the guard decided by faces: the hits it keeps, the weak matches no face vouched
/// for, and the runner's surest appearances (the surest first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Guarded {
    pub kept: Vec<Hit>,
    pub unvouched: Vec<Hit>,
    pub sure: Vec<Hit>,
}

impl Guarded {
    /// Whether bibs could vouch for anything: a weak match is unvouched and the runner has
    /// a sure appearance to read a bib under.
    pub fn asks_bibs(&self) -> bool {
        !self.unvouched.is_empty() && !self.sure.is_empty()
    }

    /// The photos whose bibs [`Guarded::with_bibs`] asks about: the sure appearances' and
    /// the unvouched weak matches', each once.
    pub fn bib_photos(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .sure
            .iter()
            .chain(&self.unvouched)
            .map(|h| h.photo_id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The kept hits and each unvouched one whose face wears the runner's bib:
    /// `worn(face_id)` is the bib read under a face, if one was. The runner's bib is the
    /// one worn by most of their sure appearances; when two bibs are worn by as many
    /// (a misread splits the count), neither is trusted.
    pub fn with_bibs<B: Eq + Hash>(self, worn: impl Fn(i64) -> Option<B>) -> Vec<Hit> {
        let Guarded {
            mut kept,
            unvouched,
            sure,
        } = self;
        let mut votes: HashMap<B, usize> = HashMap::new();
        for hit in &sure {
            if let Some(bib) = worn(hit.face_id) {
                *votes.entry(bib).or_default() += 1;
            }
        }
        let most = votes.values().copied().max().unwrap_or(0);
        let mut leaders = votes.into_iter().filter(|(_, n)| *n == most);
        let runners = match (leaders.next(), leaders.next()) {
            (Some((bib, _)), None) => bib,
            _ => return kept,
        };
        kept.extend(
            unvouched
                .into_iter()
                .filter(|h| worn(h.face_id).is_some_and(|b| b == runners)),
        );
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn hit(photo_id: i64, face_id: i64, similarity: f32) -> Hit {
        Hit::new(photo_id, face_id, similarity)
    }

    /// `most_alike` over a table of resemblances between face ids.
    fn table(pairs: &[(i64, i64, f32)]) -> impl FnOnce(&[i64], &[i64]) -> Vec<Option<f32>> {
        let map: HashMap<(i64, i64), f32> = pairs.iter().map(|&(a, b, c)| ((a, b), c)).collect();
        move |faces: &[i64], sure: &[i64]| {
            faces
                .iter()
                .map(|f| {
                    sure.iter()
                        .filter_map(|s| map.get(&(*f, *s)).copied())
                        .reduce(f32::max)
                })
                .collect()
        }
    }

    const GUARD: Guard = Guard {
        threshold: 0.35,
        gate: 0.5,
    };

    fn photos(mut hits: Vec<Hit>) -> Vec<i64> {
        hits.sort_by_key(|h| (h.photo_id, h.face_id));
        hits.iter().map(|h| h.photo_id).collect()
    }

    #[test]
    fn a_weak_match_stays_when_it_resembles_a_sure_appearance_elsewhere() {
        // Photo 1: the runner, sure (0.60). Photo 2: at the threshold, kept outright.
        // Photo 3: weak (0.30), resembles photo 1's face: kept. Photo 4: weak by the
        // distant view, a lookalike that resembles nobody sure: dropped.
        let sharp = vec![hit(1, 10, 0.60), hit(2, 20, 0.36), hit(3, 30, 0.30)];
        let weak = vec![hit(4, 40, 0.33), hit(2, 21, 0.31)];
        let guarded = GUARD.keep(sharp, weak, table(&[(30, 10, 0.58), (40, 10, 0.44)]));
        assert_eq!(photos(guarded.kept), vec![1, 2, 2, 3]);
        assert_eq!(photos(guarded.unvouched), vec![4]);
        assert_eq!(photos(guarded.sure), vec![1]);
    }

    #[test]
    fn a_face_just_over_the_threshold_keeps_its_photo_but_vouches_for_none() {
        // Photo 1 is at 0.37: kept, yet below 0.35 + SURE_MARGIN, so photo 2's weak match
        // (its lookalike's other photo, resembling it at 0.9) has nobody to vouch for it.
        let sharp = vec![hit(1, 10, 0.37), hit(2, 20, 0.30)];
        let guarded = GUARD.keep(sharp, Vec::new(), table(&[(20, 10, 0.9)]));
        assert_eq!(photos(guarded.kept.clone()), vec![1]);
        assert!(
            !guarded.asks_bibs(),
            "nobody sure, so no bib to read: {guarded:?}"
        );
    }

    #[test]
    fn the_gate_is_inclusive_and_an_unknown_face_is_dropped() {
        let sharp = vec![hit(1, 10, 0.7)];
        let weak = vec![hit(2, 20, 0.3), hit(3, 30, 0.3), hit(4, 40, 0.3)];
        let kept = GUARD.keep(sharp, weak, table(&[(20, 10, 0.5), (30, 10, 0.49)]));
        assert_eq!(photos(kept.kept), vec![1, 2]);
    }

    #[test]
    fn only_the_surest_vouch_and_the_work_is_bounded() {
        // MOST_SURE + 1 sure appearances: the least sure one is not asked.
        let mut sharp: Vec<Hit> = (0..=MOST_SURE as i64)
            .map(|i| hit(i, 100 + i, 0.9 - 0.001 * i as f32))
            .collect();
        sharp.push(hit(999, 9990, 0.2));
        let least_sure = 100 + MOST_SURE as i64;
        let asked = std::cell::Cell::new(0);
        let kept = GUARD.keep(sharp, Vec::new(), |faces: &[i64], sure: &[i64]| {
            asked.set(faces.len() * sure.len());
            assert!(!sure.contains(&least_sure));
            assert_eq!(faces, [9990]);
            vec![Some(0.99)]
        });
        assert_eq!(asked.get(), MOST_SURE);
        assert_eq!(kept.kept.len(), MOST_SURE + 2);
        assert_eq!(kept.sure.len(), MOST_SURE);
    }

    #[test]
    fn nothing_sure_nothing_weak_kept_and_nothing_asked() {
        let sharp = vec![hit(1, 10, 0.36), hit(2, 20, 0.3)];
        let kept = GUARD.keep(sharp, vec![hit(3, 30, 0.31)], |_: &[i64], _: &[i64]| {
            panic!("no appearance is sure: nothing to ask")
        });
        assert_eq!(photos(kept.kept), vec![1]);
    }

    /// A guard's decision with sure appearances on photos 1-3 (faces 10, 20, 30), one
    /// outright hit on photo 4 and unvouched weak matches on photos 5-7 (faces 50-70).
    fn guarded() -> Guarded {
        Guarded {
            kept: vec![
                hit(1, 10, 0.7),
                hit(2, 20, 0.6),
                hit(3, 30, 0.5),
                hit(4, 40, 0.37),
            ],
            unvouched: vec![hit(5, 50, 0.3), hit(6, 60, 0.3), hit(7, 70, 0.3)],
            sure: vec![hit(1, 10, 0.7), hit(2, 20, 0.6), hit(3, 30, 0.5)],
        }
    }

    fn worn(bibs: &[(i64, &'static str)]) -> impl Fn(i64) -> Option<&'static str> {
        let map: HashMap<i64, &'static str> = bibs.iter().copied().collect();
        move |face| map.get(&face).copied()
    }

    #[test]
    fn a_weak_match_wearing_the_runners_bib_stays() {
        // Two sure appearances wear 1234, a misread gives the third 1284. The weak match wearing 1234 stays; the lookalike wearing 5678 and the one
        // whose bib was not read do not.
        let g = guarded();
        assert!(g.asks_bibs());
        assert_eq!(g.bib_photos(), vec![1, 2, 3, 5, 6, 7]);
        let kept = g.with_bibs(worn(&[
            (10, "1234"),
            (20, "1234"),
            (30, "1284"),
            (50, "1234"),
            (60, "5678"),
        ]));
        assert_eq!(photos(kept), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn bibs_worn_by_as_many_sure_appearances_vouch_for_nobody() {
        let kept = guarded().with_bibs(worn(&[(10, "1234"), (20, "1284"), (50, "1234")]));
        assert_eq!(photos(kept), vec![1, 2, 3, 4]);
        let kept = guarded().with_bibs(worn(&[(50, "1234")]));
        assert_eq!(
            photos(kept),
            vec![1, 2, 3, 4],
            "no sure appearance wears a bib"
        );
    }
}
