//! Stand-ins for the models, for tests that are not about them: they start at once and
//! need no model files. [`FakeFaces`] sees one face in the middle of any photo that is not
//! of one flat colour, embedded from the photo's pixels (the same picture, decoded alike,
//! gives the same embedding; two different pictures are strangers); [`NoBibs`] reads
//! nothing. Tests about finding people use the real [`crate::FaceEngine`].

use crate::analyzer::{BibReader, FaceAnalyzer};
use crate::config::FaceEngineConfig;
use crate::detect::{BBox, Landmarks};
use crate::embed::Embedding;
use crate::engine::{AnalyzedFace, SelfieFaces, distant_view};
use crate::error::Result;
use crate::image_io::RgbImage;
use crate::ocr::TextLine;

/// Sees one face per photo with more than one colour.
#[derive(Debug, Clone)]
pub struct FakeFaces {
    dim: usize,
    decode_long_edge: u32,
    selfie_long_edge: u32,
}

impl FakeFaces {
    /// Embeddings of the configured length; photos and selfies decoded at the configured
    /// edges, as the real engine would ask.
    pub fn new(config: &FaceEngineConfig) -> Self {
        let detector = &config.detector;
        Self {
            dim: config.embedding_dim(),
            decode_long_edge: detector.long_edge.max(detector.fine_long_edge),
            selfie_long_edge: detector.selfie_long_edge,
        }
    }

    fn face(&self, img: &RgbImage) -> Result<Option<AnalyzedFace>> {
        let data = img.data();
        let Some(first) = data.get(..3) else {
            return Ok(None);
        };
        if data.chunks_exact(3).all(|p| p == first) {
            return Ok(None);
        }
        let (w, h) = (img.width() as f32, img.height() as f32);
        let bbox = BBox {
            x1: w * 0.25,
            y1: h * 0.25,
            x2: w * 0.75,
            y2: h * 0.75,
        };
        let at = |fx: f32, fy: f32| [w * fx, h * fy];
        let landmarks: Landmarks = [
            at(0.4, 0.4),
            at(0.6, 0.4),
            at(0.5, 0.5),
            at(0.42, 0.6),
            at(0.58, 0.6),
        ];
        Ok(Some(AnalyzedFace {
            bbox,
            landmarks,
            score: 0.9,
            embedding: self.embed(img)?,
        }))
    }

    /// A unit vector drawn from a seed that hashes the photo's size and a coarse grid of
    /// its pixels (FNV-1a, then xorshift).
    fn embed(&self, img: &RgbImage) -> Result<Embedding> {
        let mut seed: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            seed ^= v;
            seed = seed.wrapping_mul(0x0100_0000_01b3);
        };
        mix(u64::from(img.width()));
        mix(u64::from(img.height()));
        for gy in 0..8 {
            for gx in 0..8 {
                let x = img.width() * (2 * gx + 1) / 16;
                let y = img.height() * (2 * gy + 1) / 16;
                let [r, g, b] = img.pixel(x, y).unwrap_or_default();
                mix(u64::from(r) << 16 | u64::from(g) << 8 | u64::from(b));
            }
        }
        xorshift_unit(seed | 1, self.dim)
    }
}

impl FaceAnalyzer for FakeFaces {
    fn embedding_dim(&self) -> usize {
        self.dim
    }

    fn decode_long_edge(&self) -> u32 {
        self.decode_long_edge
    }

    fn selfie_long_edge(&self) -> u32 {
        self.selfie_long_edge
    }

    fn analyze(&self, img: &RgbImage) -> Result<Vec<AnalyzedFace>> {
        Ok(self.face(img)?.into_iter().collect())
    }

    fn analyze_selfie_faces(&self, img: &RgbImage) -> Result<Option<SelfieFaces>> {
        Ok(self.face(img)?.map(|primary| SelfieFaces {
            boxes: vec![primary.bbox],
            primary,
        }))
    }

    /// Embedded from the whole picture's [`distant_view`]: another vector than the
    /// face's, the same for the same picture.
    fn embed_distant(&self, img: &RgbImage, _face: &AnalyzedFace) -> Result<Embedding> {
        self.embed(&distant_view(img))
    }
}

/// Reads no text on any photo.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBibs;

impl BibReader for NoBibs {
    fn read_photo(&self, _img: &RgbImage, _faces: &[BBox]) -> Result<Vec<TextLine>> {
        Ok(Vec::new())
    }
}

/// A deterministic pseudo-random unit vector of `dim` dimensions (xorshift from `seed`):
/// an unrelated person's face, for tests and benchmarks of indexes and searches.
pub fn stranger(seed: u64, dim: usize) -> Result<Embedding> {
    xorshift_unit(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, dim)
}

/// The unit vector of `dim` components drawn by xorshift from `state` (odd, never zero),
/// each component uniform in [-0.5, 0.5) before the vector is normalised.
fn xorshift_unit(mut state: u64, dim: usize) -> Result<Embedding> {
    let raw = (0..dim)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect();
    Embedding::from_raw(raw, dim)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    #[test]
    fn the_same_picture_is_the_same_face_and_another_a_stranger() {
        let fake = FakeFaces::new(&FaceEngineConfig::default());
        let a = RgbImage::from_fn(64, 48, |x, y| [x as u8 * 3, y as u8 * 5, 7]);
        let b = RgbImage::from_fn(64, 48, |x, y| [y as u8 * 3, x as u8, 200]);
        let fa = fake.analyze(&a).unwrap();
        assert_eq!(fa.len(), 1);
        let again = fake.analyze_selfie_faces(&a).unwrap().unwrap();
        assert!(cosine(&fa[0].embedding, &again.primary.embedding) > 0.999);
        let fb = fake.analyze(&b).unwrap();
        assert!(cosine(&fa[0].embedding, &fb[0].embedding).abs() < 0.2);
        assert_eq!(fa[0].embedding.dim(), 512);
    }

    #[test]
    fn a_flat_picture_has_no_face() {
        let fake = FakeFaces::new(&FaceEngineConfig::default());
        let flat = RgbImage::from_fn(32, 32, |_, _| [90, 90, 90]);
        assert!(fake.analyze(&flat).unwrap().is_empty());
        assert!(fake.analyze_selfie_faces(&flat).unwrap().is_none());
    }
}
