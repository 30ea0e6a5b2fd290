//! Face embeddings: the recogniser's input preparation, the L2-normalised [`Embedding`]
//! it produces, cosine similarity, and a stable byte form for storing embeddings.
//!
//! Embeddings are unit vectors, so cosine similarity is a plain dot product: every
//! consumer (the index, the search threshold) relies on that.

use crate::error::{Error, Result};
use crate::image_io::RgbImage;

/// The embedding dimension of the default recogniser (w600k_mbf) and of most
/// ArcFace-style models.
pub const DEFAULT_DIM: usize = 512;

/// An L2-normalised face embedding. Construction normalises, so holders never need to.
#[derive(Clone, PartialEq)]
pub struct Embedding(Vec<f32>);

impl std::fmt::Debug for Embedding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Embedding(dim {})", self.0.len())
    }
}

impl Embedding {
    /// Normalises a raw model output. Fails on a wrong length or a zero/non-finite vector
    /// (which a healthy model never answers, so it means a broken model or input).
    pub fn from_raw(mut v: Vec<f32>, expected_dim: usize) -> Result<Self> {
        if v.len() != expected_dim {
            return Err(Error::Dimension {
                expected: expected_dim,
                got: v.len(),
            });
        }
        let norm = v
            .iter()
            .map(|x| f64::from(*x) * f64::from(*x))
            .sum::<f64>()
            .sqrt();
        if !(norm.is_finite() && norm > 1e-12) {
            return Err(Error::Model("embedding is zero or not finite".into()));
        }
        let inv = (1.0 / norm) as f32;
        for x in &mut v {
            *x *= inv;
        }
        Ok(Self(v))
    }

    pub fn dim(&self) -> usize {
        self.0.len()
    }

    pub fn as_slice(&self) -> &[f32] {
        &self.0
    }

    pub fn into_vec(self) -> Vec<f32> {
        self.0
    }

    /// Little-endian f32s, `4 * dim` bytes: the form the store keeps.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// Reads [`Embedding::to_bytes`] output back (re-normalising, which is idempotent).
    pub fn from_bytes(bytes: &[u8], expected_dim: usize) -> Result<Self> {
        if bytes.len() != expected_dim * 4 {
            return Err(Error::Dimension {
                expected: expected_dim,
                got: bytes.len() / 4,
            });
        }
        let v = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Self::from_raw(v, expected_dim)
    }
}

/// Cosine similarity of two embeddings (their dot product, as both are unit vectors).
/// Mismatched dimensions compare only the common prefix, which never happens with one
/// recogniser; the index checks dimensions before it gets here.
pub fn cosine(a: &Embedding, b: &Embedding) -> f32 {
    dot(a.as_slice(), b.as_slice())
}

/// Dot product with independent accumulators so it vectorises.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// Packs aligned crops (all `size` x `size`) into one NCHW f32 batch, `(x - mean) / std`.
pub fn prepare_batch(crops: &[RgbImage], mean: f32, std: f32) -> Vec<f32> {
    let inv = 1.0 / std;
    let mut t = Vec::with_capacity(crops.iter().map(|c| c.data().len()).sum());
    for crop in crops {
        let px = crop.data();
        for c in 0..3 {
            t.extend(
                px.iter()
                    .skip(c)
                    .step_by(3)
                    .map(|&v| (f32::from(v) - mean) * inv),
            );
        }
    }
    t
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_checks_dimension() {
        let e = Embedding::from_raw(vec![3.0, 4.0], 2).unwrap();
        assert_eq!(e.as_slice(), &[0.6, 0.8]);
        assert!(matches!(
            Embedding::from_raw(vec![1.0; 3], 2),
            Err(Error::Dimension {
                expected: 2,
                got: 3
            })
        ));
        assert!(Embedding::from_raw(vec![0.0; 2], 2).is_err());
        assert!(Embedding::from_raw(vec![f32::NAN, 1.0], 2).is_err());
    }

    #[test]
    fn cosine_of_known_vectors() {
        let a = Embedding::from_raw(vec![1.0, 0.0, 0.0], 3).unwrap();
        let b = Embedding::from_raw(vec![1.0, 1.0, 0.0], 3).unwrap();
        assert!((cosine(&a, &b) - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        assert!((cosine(&a, &a) - 1.0).abs() < 1e-6);
        let long: Vec<f32> = (0..21).map(|i| i as f32).collect();
        let e = Embedding::from_raw(long, 21).unwrap();
        assert!((cosine(&e, &e) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn bytes_roundtrip() {
        let e = Embedding::from_raw((0..512).map(|i| (i as f32).sin()).collect(), 512).unwrap();
        let back = Embedding::from_bytes(&e.to_bytes(), 512).unwrap();
        assert!(
            e.as_slice()
                .iter()
                .zip(back.as_slice())
                .all(|(a, b)| (a - b).abs() < 1e-7)
        );
        assert!(Embedding::from_bytes(&[0; 12], 512).is_err());
    }

    #[test]
    fn batch_is_planar_per_crop() {
        let a = RgbImage::new(1, 2, vec![255, 0, 127, 0, 255, 127]).unwrap();
        let t = prepare_batch(&[a.clone(), a], 127.5, 127.5);
        assert_eq!(t.len(), 12);
        let r = |v: f32| (v - 127.5) / 127.5;
        assert_eq!(
            &t[0..6],
            &[r(255.0), r(0.0), r(0.0), r(255.0), r(127.0), r(127.0)]
        );
        assert_eq!(&t[6..8], &[r(255.0), r(0.0)]);
    }
}
