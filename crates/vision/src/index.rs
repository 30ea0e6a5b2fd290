//! Per-event in-memory face index: exact top-k search above a threshold, one hit per
//! photo, in about 830 bytes per face; one core scans 300,000 faces in ~9.5 ms (measured
//! here while another build was running). Several queries (a selfie and its distant view)
//! share one pass over the codes ([`FaceIndex::search_each`]). Each face keeps its width
//! class ([`crate::calibration`]), so a query may hold each class to its own threshold,
//! fitted on a sample of the index's faces ([`FaceIndex::stranger_fit`]).
//!
//! # Representation (per face, 512 dimensions)
//!
//! * `c8`: 512 signed bytes and an `f32` scale `s8`, chosen so that the stored vector
//!   `x^ = s8 * c8` has unit length: `c8 = round(127 * x / max|x|)`, `s8 = 1 / |c8|`.
//!   **This is the vector the index answers for.**
//! * `c4`: the same vector at 4 bits (values -7..=7, two per byte, 256 bytes), with the
//!   least-squares scale `s4 = (x^ . c4) / |c4|^2` and the residual norm
//!   `e = |x^ - s4 * c4|_2` (an `f32`, rounded up). Used only to find candidates.
//! * face id and photo id (16 bytes), the width class (1 byte) and a face-id -> row map
//!   (~30 bytes).
//!
//! 797 bytes of rows plus the map: ~830 bytes, and at most ~940 while the index grows
//! (rows grow by 1/8, not by doubling).
//!
//! # Why the search is exact
//!
//! The answer is exactly what a brute-force scan over the stored vectors gives:
//! `sim(q, v) = q . x^_v` computed in `f32`, thresholded, best face per photo, sorted by
//! similarity (then photo id), cut at k. Reading 512 bytes per face for 300,000 faces is
//! 154 MB, which one core cannot stream in 10 ms (measured ~12-19 ms here), so the search
//! has two stages:
//!
//! 1. **Scan** the 4-bit codes (77 MB) with an `i8`-quantised query `q~ = t * r`,
//!    `r = round(q / t)`, `t = max|q| / 127`: `a_v = s4 * t * (c4 . r)`, an exact integer
//!    dot product. It differs from the exact score by at most
//!    `|q . x^ - a_v| <= |q . (x^ - s4 c4)| + |(q - q~) . s4 c4|
//!                    <= |q| e_v + (t / 2) |s4 c4|_1 <= |q| e_v + (t / 2) sqrt(dim)`
//!    (Cauchy-Schwarz; `|s4 c4|_2 <= |x^|_2 = 1` because it is a projection, and
//!    `|y|_1 <= sqrt(dim) |y|_2`). Adding 1e-4 for `f32` rounding gives `delta_v`.
//!    A face is a candidate when `a_v + delta_v >= threshold` (its class's): no face whose exact
//!    score reaches the threshold is missed. (`e_v` is about 0.15 for face embeddings,
//!    so candidates are faces scanning above ~0.2 for a 0.35 threshold: a few percent.)
//! 2. **Prune** when there are many candidates: each photo's exact score is at least
//!    `max(a_v - delta_v)` over its faces; with `L` the k-th largest such lower bound,
//!    at least k photos score `>= L`, so a face with `a_v + delta_v < L` cannot belong to
//!    the top k and is dropped.
//! 3. **Rescore** the remaining candidates exactly against `x^` (8-bit codes and the
//!    `f32` query), then threshold, best face per photo, sort, cut at k.
//!
//! # Distance to the original `f32` embeddings
//!
//! For a unit query, `|q . x - q . x^| <= |x - x^|_2` (Cauchy-Schwarz). The index tracks
//! the largest `|x - x^|_2` it has seen ([`FaceIndex::max_quantisation_error`]); for
//! 512-d face embeddings it is about 0.01, a twentieth of the gap between same-person
//! (>= 0.43) and different-person (<= 0.25) similarities, and typical errors are far
//! smaller (independent rounding errors largely cancel in a dot product).
//!
//! # Speed
//!
//! The scan loops are plain Rust written so LLVM vectorises them (fixed-width lanes,
//! `i16` accumulators that provably cannot overflow: 8 steps x 2 x 15 x 127 < 32767).
//! They run inside `pulp`'s runtime CPU dispatch, which compiles them a second time with
//! AVX2 enabled and picks that version when the CPU has it, without `unsafe` here; the
//! baseline x86-64 target has only SSE2, about twice as slow on these loops.

use std::collections::HashMap;

use crate::calibration::{SIZE_CLASSES, StrangerFit, Thresholds, size_class};
use crate::embed::Embedding;

mod snapshot;
use crate::error::{Error, Result};
pub use snapshot::{SnapshotReader, SnapshotWriter, snapshot_len};

/// One search result: a photo and its best-matching face.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub photo_id: i64,
    pub face_id: i64,
    pub similarity: f32,
}

impl Hit {
    /// Photo `photo_id`'s face `face_id`, found at `similarity`.
    pub const fn new(photo_id: i64, face_id: i64, similarity: f32) -> Self {
        Self {
            photo_id,
            face_id,
            similarity,
        }
    }
}

/// The index. Not internally synchronised: callers wrap it (e.g. in an `RwLock`); it is
/// `Send + Sync` so they can.
#[derive(Debug, Clone)]
pub struct FaceIndex {
    dim: usize,
    /// Bytes of packed 4-bit codes per row: `dim` rounded up to a multiple of 64, halved.
    /// Byte `j` holds dimension `j` in its low nibble and `j + packed` in its high
    /// nibble, each stored as `c4 + 8` (1..=15); padding dimensions hold 8 (zero).
    packed: usize,
    /// Row-major `len * dim` 8-bit codes.
    codes8: Vec<i8>,
    /// Row-major `len * packed` 4-bit codes.
    codes4: Vec<u8>,
    scale8: Vec<f32>,
    scale4: Vec<f32>,
    /// Upper bound of `|x^ - s4 * c4|_2` per row.
    resid: Vec<f32>,
    face_ids: Vec<i64>,
    photo_ids: Vec<i64>,
    /// Each face's width class ([`crate::calibration::size_class`]).
    classes: Vec<u8>,
    rows: RowMap,
    max_quantisation_error: f32,
}

/// Face id -> row. Face ids are the shop's own row ids, never chosen by a client, so a
/// multiplicative hash serves (SipHash, the default, made loading 1,000,000 faces from a
/// snapshot 40 ms slower).
type RowMap = HashMap<i64, u32, std::hash::BuildHasherDefault<IdHasher>>;

/// Fibonacci hashing of an id: the high bits, which the table uses, mix every input bit.
#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_i64(&mut self, id: i64) {
        self.0 = (id as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// At most this many faces a search's [`FaceIndex::stranger_fit`] scores, evenly spread
/// over the index.
const FIT_SAMPLE: usize = 8_192;

/// Rows scanned per chunk: keeps the per-chunk score buffer in L1.
const CHUNK_ROWS: usize = 256;
/// Packed bytes per block whose `i16` lane sums provably fit (8 steps of 32 bytes).
const BLOCK_BYTES: usize = 256;

impl FaceIndex {
    pub fn new(dim: usize) -> Self {
        Self::with_capacity(dim, 0)
    }

    /// An index with room for `faces` faces, to build from the store without regrowth.
    pub fn with_capacity(dim: usize, faces: usize) -> Self {
        let packed = dim.div_ceil(64) * 32;
        Self {
            dim,
            packed,
            codes8: Vec::with_capacity(faces * dim),
            codes4: Vec::with_capacity(faces * packed),
            scale8: Vec::with_capacity(faces),
            scale4: Vec::with_capacity(faces),
            resid: Vec::with_capacity(faces),
            face_ids: Vec::with_capacity(faces),
            photo_ids: Vec::with_capacity(faces),
            classes: Vec::with_capacity(faces),
            rows: RowMap::with_capacity_and_hasher(faces, Default::default()),
            max_quantisation_error: 0.0,
        }
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of faces.
    pub fn len(&self) -> usize {
        self.face_ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.face_ids.is_empty()
    }

    /// Number of distinct photos (a linear pass; for reporting, not hot paths).
    pub fn photo_count(&self) -> usize {
        let mut ids = self.photo_ids.clone();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }

    /// The largest `|x - x^|_2` over inserted embeddings: the most any similarity
    /// reported by this index can differ from the one computed on the original vector.
    pub fn max_quantisation_error(&self) -> f32 {
        self.max_quantisation_error
    }

    /// Adds a face whose size is not known (counted among the largest faces), or replaces
    /// it when `face_id` is already present.
    pub fn insert(&mut self, face_id: i64, photo_id: i64, embedding: &Embedding) -> Result<()> {
        self.insert_face(face_id, photo_id, embedding, f32::INFINITY)
    }

    /// Adds a face `width_px` wide in its photo's pixels, or replaces it when `face_id` is
    /// already present.
    pub fn insert_face(
        &mut self,
        face_id: i64,
        photo_id: i64,
        embedding: &Embedding,
        width_px: f32,
    ) -> Result<()> {
        let x = embedding.as_slice();
        if x.len() != self.dim {
            return Err(Error::Dimension {
                expected: self.dim,
                got: x.len(),
            });
        }
        let q = Quantised::new(x, self.packed);
        self.max_quantisation_error = self.max_quantisation_error.max(q.error);
        if let Some(&row) = self.rows.get(&face_id) {
            let row = row as usize;
            self.codes8[row * self.dim..(row + 1) * self.dim].copy_from_slice(&q.codes8);
            self.codes4[row * self.packed..(row + 1) * self.packed].copy_from_slice(&q.codes4);
            self.scale8[row] = q.scale8;
            self.scale4[row] = q.scale4;
            self.resid[row] = q.resid;
            self.photo_ids[row] = photo_id;
            self.classes[row] = size_class(width_px);
            return Ok(());
        }
        let row = u32::try_from(self.len()).map_err(|_| Error::Dimension {
            expected: u32::MAX as usize,
            got: self.len(),
        })?;
        self.reserve_one();
        self.codes8.extend_from_slice(&q.codes8);
        self.codes4.extend_from_slice(&q.codes4);
        self.scale8.push(q.scale8);
        self.scale4.push(q.scale4);
        self.resid.push(q.resid);
        self.face_ids.push(face_id);
        self.photo_ids.push(photo_id);
        self.classes.push(size_class(width_px));
        self.rows.insert(face_id, row);
        Ok(())
    }

    /// Grows by 1/8 at a time instead of doubling, so spare capacity never pushes a face
    /// over the 1 KB budget (doubling would briefly cost 2x the codes). Only indexes of
    /// fewer than ~2,000 faces, whose absolute size is negligible, can exceed it.
    fn reserve_one(&mut self) {
        if self.face_ids.len() < self.face_ids.capacity() {
            return;
        }
        let extra = (self.len() / 8).max(256);
        self.codes8.reserve_exact(extra * self.dim);
        self.codes4.reserve_exact(extra * self.packed);
        self.scale8.reserve_exact(extra);
        self.scale4.reserve_exact(extra);
        self.resid.reserve_exact(extra);
        self.face_ids.reserve_exact(extra);
        self.photo_ids.reserve_exact(extra);
        self.classes.reserve_exact(extra);
    }

    /// Removes every face of a photo; returns how many there were.
    pub fn remove_photo(&mut self, photo_id: i64) -> usize {
        let rows: Vec<usize> = (0..self.len())
            .filter(|&r| self.photo_ids[r] == photo_id)
            .collect();
        // Highest first, so swap-removal never moves a row we still have to remove.
        for &r in rows.iter().rev() {
            self.remove_row(r);
        }
        rows.len()
    }

    /// Removes one face; returns whether it was present.
    pub fn remove_face(&mut self, face_id: i64) -> bool {
        match self.rows.get(&face_id) {
            Some(&row) => {
                self.remove_row(row as usize);
                true
            }
            None => false,
        }
    }

    fn remove_row(&mut self, row: usize) {
        let last = self.len() - 1;
        let (d, p) = (self.dim, self.packed);
        self.rows.remove(&self.face_ids[row]);
        if row != last {
            self.codes8.copy_within(last * d..(last + 1) * d, row * d);
            self.codes4.copy_within(last * p..(last + 1) * p, row * p);
            self.rows.insert(self.face_ids[last], row as u32);
        }
        self.codes8.truncate(last * d);
        self.codes4.truncate(last * p);
        self.scale8.swap_remove(row);
        self.scale4.swap_remove(row);
        self.resid.swap_remove(row);
        self.face_ids.swap_remove(row);
        self.photo_ids.swap_remove(row);
        self.classes.swap_remove(row);
    }

    /// Releases spare capacity (e.g. after bulk loading).
    pub fn shrink_to_fit(&mut self) {
        self.codes8.shrink_to_fit();
        self.codes4.shrink_to_fit();
        self.scale8.shrink_to_fit();
        self.scale4.shrink_to_fit();
        self.resid.shrink_to_fit();
        self.face_ids.shrink_to_fit();
        self.photo_ids.shrink_to_fit();
        self.classes.shrink_to_fit();
        self.rows.shrink_to_fit();
    }

    /// Heap bytes held, counting allocated capacity (not just what is in use).
    pub fn memory_bytes(&self) -> usize {
        let map_buckets = if self.rows.capacity() == 0 {
            0
        } else {
            (self.rows.capacity() * 8 / 7).next_power_of_two()
        };
        std::mem::size_of::<Self>()
            + self.codes8.capacity()
            + self.codes4.capacity()
            + (self.scale8.capacity() + self.scale4.capacity() + self.resid.capacity()) * 4
            + (self.face_ids.capacity() + self.photo_ids.capacity()) * 8
            + self.classes.capacity()
            // hashbrown: one (key, value) slot plus one control byte per bucket.
            + map_buckets * (std::mem::size_of::<(i64, u32)>() + 1)
    }

    /// The face ids, row by row (in insertion order while nothing was removed).
    pub fn face_ids(&self) -> &[i64] {
        &self.face_ids
    }

    /// Whether the index holds `face_id`, of `photo_id`, exactly as inserting `embedding`
    /// `width_px` wide would store it: how a snapshot is checked against the rows it was
    /// made from.
    pub fn holds(&self, face_id: i64, photo_id: i64, embedding: &Embedding, width_px: f32) -> bool {
        let Some(&row) = self.rows.get(&face_id) else {
            return false;
        };
        let row = row as usize;
        let x = embedding.as_slice();
        if x.len() != self.dim
            || self.photo_ids[row] != photo_id
            || self.classes[row] != size_class(width_px)
        {
            return false;
        }
        let q = Quantised::new(x, self.packed);
        self.codes8[row * self.dim..(row + 1) * self.dim] == q.codes8[..]
            && self.codes4[row * self.packed..(row + 1) * self.packed] == q.codes4[..]
            && self.scale8[row] == q.scale8
    }

    /// The exact similarity the index reports for a stored face (stored vector against
    /// the `f32` query), or `None` for an unknown face or a wrong dimension.
    pub fn similarity(&self, query: &Embedding, face_id: i64) -> Option<f32> {
        if query.dim() != self.dim {
            return None;
        }
        let row = *self.rows.get(&face_id)? as usize;
        Some(self.rescore(query.as_slice(), row))
    }

    /// For each of `faces`, how much it resembles the most alike of `others` (the cosine of
    /// their stored vectors), or `None` when it or all of `others` are unknown here:
    /// `faces.len() × others.len()` dot products of 8-bit codes, exact in integers.
    pub fn most_alike(&self, faces: &[i64], others: &[i64]) -> Vec<Option<f32>> {
        let rows = |ids: &[i64]| -> Vec<Option<usize>> {
            ids.iter()
                .map(|id| self.rows.get(id).map(|&r| r as usize))
                .collect()
        };
        let others: Vec<usize> = rows(others).into_iter().flatten().collect();
        rows(faces)
            .into_iter()
            .map(|row| {
                let a = row?;
                others
                    .iter()
                    .map(|&b| self.resemblance(a, b))
                    .reduce(f32::max)
            })
            .collect()
    }

    /// The cosine of the stored vectors of rows `a` and `b`.
    fn resemblance(&self, a: usize, b: usize) -> f32 {
        let code = |row: usize| &self.codes8[row * self.dim..(row + 1) * self.dim];
        let dot: i32 = code(a)
            .iter()
            .zip(code(b))
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum();
        dot as f32 * self.scale8[a] * self.scale8[b]
    }

    #[inline(always)]
    fn rescore(&self, q: &[f32], row: usize) -> f32 {
        let c = &self.codes8[row * self.dim..(row + 1) * self.dim];
        dot_i8_f32(c, q) * self.scale8[row]
    }

    /// How `query` scores against the event's faces, class by class of width
    /// ([`crate::calibration`]): exact similarities of at most [`FIT_SAMPLE`] faces, one of
    /// every `len / FIT_SAMPLE` rows, fitted. Linear in the sample.
    pub fn stranger_fit(&self, query: &Embedding) -> Result<StrangerFit> {
        if query.dim() != self.dim {
            return Err(Error::Dimension {
                expected: self.dim,
                got: query.dim(),
            });
        }
        let stride = self.len().div_ceil(FIT_SAMPLE).max(1);
        // One row of each run of `stride`, at a place that varies from run to run: a fixed
        // place would pick the same face of every photo when photos have `stride` faces.
        let rows: Vec<usize> = (0..self.len())
            .step_by(stride)
            .map(|start| {
                let spread = (start as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
                (start + (spread as usize) % stride).min(self.len() - 1)
            })
            .collect();
        let scores = pulp::Arch::new().dispatch(Rescore {
            index: self,
            query: query.as_slice(),
            rows: &rows,
        });
        Ok(StrangerFit::from_scores(scores))
    }

    /// Photos whose best face has similarity >= `threshold`, best first, at most `k`,
    /// exactly as a brute-force scan of the stored vectors would rank them.
    pub fn search(&self, query: &Embedding, threshold: f32, k: usize) -> Result<Vec<Hit>> {
        let mut each = self.search_each(&[(query, Thresholds::uniform(threshold))], k)?;
        Ok(each.pop().unwrap_or_default())
    }

    /// [`FaceIndex::search`] for several queries, each at its own thresholds (a face is
    /// held to its width class's), in one pass over the 4-bit codes (each chunk of them is
    /// scanned for every query while it is in the cache): the hits of each query, in the
    /// order given.
    pub fn search_each(
        &self,
        queries: &[(&Embedding, Thresholds)],
        k: usize,
    ) -> Result<Vec<Vec<Hit>>> {
        if let Some((q, _)) = queries.iter().find(|(q, _)| q.as_slice().len() != self.dim) {
            return Err(Error::Dimension {
                expected: self.dim,
                got: q.as_slice().len(),
            });
        }
        if k == 0 || self.is_empty() {
            return Ok(vec![Vec::new(); queries.len()]);
        }
        let scans: Vec<(ScanQuery, [f32; SIZE_CLASSES])> = queries
            .iter()
            .map(|(q, thresholds)| {
                (
                    ScanQuery::new(q.as_slice(), self.packed),
                    thresholds.classes(),
                )
            })
            .collect();

        // 1. Scan the 4-bit codes; keep every face that may reach the threshold.
        let candidates = pulp::Arch::new().dispatch(Scan {
            index: self,
            queries: &scans,
        });
        Ok(queries
            .iter()
            .zip(&scans)
            .zip(candidates)
            .map(|(((q, thresholds), (scan, _)), candidates)| {
                self.best_photos(q.as_slice(), scan, thresholds, k, candidates)
            })
            .collect())
    }

    /// Steps 2 and 3 of a search: the top `k` photos among one query's scan candidates.
    fn best_photos(
        &self,
        q: &[f32],
        query: &ScanQuery,
        thresholds: &Thresholds,
        k: usize,
        mut candidates: Vec<(f32, u32)>,
    ) -> Vec<Hit> {
        // 2. With many candidates, drop those that cannot reach the top k photos.
        if candidates.len() > 4 * k + 64 {
            let mut lower: HashMap<i64, f32> = HashMap::new();
            for &(a, row) in &candidates {
                let lb = a - query.delta(self.resid[row as usize]);
                let e = lower
                    .entry(self.photo_ids[row as usize])
                    .or_insert(f32::NEG_INFINITY);
                *e = e.max(lb);
            }
            if lower.len() >= k {
                let mut bounds: Vec<f32> = lower.into_values().collect();
                let (_, kth, _) = bounds.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
                let cut = *kth;
                candidates.retain(|&(a, row)| a + query.delta(self.resid[row as usize]) >= cut);
            }
        }

        // 3. Exact rescoring, best face per photo.
        let rescored = candidates.iter().filter_map(|&(_, row)| {
            let row = row as usize;
            let similarity = self.rescore(q, row);
            (similarity >= thresholds.of_class(self.classes[row])).then(|| Hit {
                photo_id: self.photo_ids[row],
                face_id: self.face_ids[row],
                similarity,
            })
        });
        let mut hits = best_per_photo(rescored);
        hits.truncate(k);
        hits
    }
}

/// Each photo once, by its best hit (the lower face id on a tie), best first, then by
/// photo id: what a search answers, and how the hits of several searches combine. Linear
/// in the hits, then a sort of the photos.
pub fn best_per_photo(hits: impl IntoIterator<Item = Hit>) -> Vec<Hit> {
    let mut best: HashMap<i64, Hit> = HashMap::new();
    for hit in hits {
        best.entry(hit.photo_id)
            .and_modify(|h| {
                if hit.similarity > h.similarity
                    || (hit.similarity == h.similarity && hit.face_id < h.face_id)
                {
                    *h = hit;
                }
            })
            .or_insert(hit);
    }
    let mut hits: Vec<Hit> = best.into_values().collect();
    hits.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then(a.photo_id.cmp(&b.photo_id))
    });
    hits
}

/// One embedding in the index's two representations.
struct Quantised {
    codes8: Vec<i8>,
    scale8: f32,
    codes4: Vec<u8>,
    scale4: f32,
    resid: f32,
    /// `|x - x^|_2` against the original vector.
    error: f32,
}

impl Quantised {
    fn new(x: &[f32], packed: usize) -> Self {
        let max = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        if !(max.is_finite() && max > 0.0) {
            // Embedding construction rules this out; a zero row simply never matches.
            return Self {
                codes8: vec![0; x.len()],
                scale8: 0.0,
                codes4: vec![0x88; packed],
                scale4: 0.0,
                resid: 0.0,
                error: 1.0,
            };
        }
        let k8 = 127.0 / max;
        let codes8: Vec<i8> = x
            .iter()
            .map(|v| (v * k8).round().clamp(-127.0, 127.0) as i8)
            .collect();
        let norm8 = codes8
            .iter()
            .map(|&c| f64::from(c).powi(2))
            .sum::<f64>()
            .sqrt();
        let scale8 = (1.0 / norm8) as f32;
        // Everything below works on the stored vector x^ in f64.
        let xh: Vec<f64> = codes8
            .iter()
            .map(|&c| f64::from(c) * f64::from(scale8))
            .collect();
        let error = x
            .iter()
            .zip(&xh)
            .map(|(&v, &h)| (f64::from(v) - h).powi(2))
            .sum::<f64>()
            .sqrt() as f32;

        let maxh = xh.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let k4 = 7.0 / maxh;
        let c4: Vec<i8> = xh
            .iter()
            .map(|v| (v * k4).round().clamp(-7.0, 7.0) as i8)
            .collect();
        let cc = c4.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>();
        let xc = xh
            .iter()
            .zip(&c4)
            .map(|(h, &c)| h * f64::from(c))
            .sum::<f64>();
        let scale4 = if cc > 0.0 { xc / cc } else { 0.0 };
        // The bound is computed with the f32 scale actually stored, then rounded up.
        let s4 = f64::from(scale4 as f32);
        let resid = xh
            .iter()
            .zip(&c4)
            .map(|(h, &c)| (h - s4 * f64::from(c)).powi(2))
            .sum::<f64>()
            .sqrt();
        let resid = (resid * (1.0 + 1e-6) + 1e-7) as f32;

        let mut codes4 = vec![0x88u8; packed];
        for (j, &c) in c4.iter().enumerate() {
            let nibble = (c + 8) as u8;
            if j < packed {
                codes4[j] = (codes4[j] & 0xF0) | nibble;
            } else if let Some(b) = codes4.get_mut(j - packed) {
                *b = (*b & 0x0F) | (nibble << 4);
            }
        }
        Self {
            codes8,
            scale8,
            codes4,
            scale4: scale4 as f32,
            resid,
            error,
        }
    }
}

/// The query as the scan needs it.
struct ScanQuery {
    /// `r = round(q / t)` for dimensions `0..packed` (low nibbles), as `i16` lanes.
    lo: Vec<i16>,
    /// The same for dimensions `packed..2 * packed` (high nibbles), zero-padded.
    hi: Vec<i16>,
    /// `8 * sum(r)`: the codes are stored with +8, so this is subtracted.
    offset: i32,
    /// `t`.
    step: f32,
    /// `|q|_2`.
    norm: f32,
    /// `(t / 2) sqrt(dim)` plus the rounding allowance.
    fixed_error: f32,
}

impl ScanQuery {
    fn new(q: &[f32], packed: usize) -> Self {
        let max = q.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let step = if max.is_finite() && max > 0.0 {
            max / 127.0
        } else {
            1.0
        };
        let mut r: Vec<i16> = q
            .iter()
            .map(|v| (v / step).round().clamp(-127.0, 127.0) as i16)
            .collect();
        r.resize(2 * packed, 0);
        let hi = r.split_off(packed);
        let offset = 8 * (r.iter().chain(&hi).map(|&v| i32::from(v)).sum::<i32>());
        let norm = q.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>().sqrt() as f32;
        Self {
            lo: r,
            hi,
            offset,
            step,
            norm,
            fixed_error: 0.5 * step * (q.len() as f32).sqrt() * 1.001 + 1e-4,
        }
    }

    /// `delta_v` of the module docs for a row with residual bound `resid`.
    fn delta(&self, resid: f32) -> f32 {
        self.norm * resid * 1.0001 + self.fixed_error
    }
}

/// Step 1 of the search as a `pulp` operation, so it is compiled for AVX2 as well: every
/// query (and its thresholds, by width class) against each chunk of rows in turn.
struct Scan<'a> {
    index: &'a FaceIndex,
    queries: &'a [(ScanQuery, [f32; SIZE_CLASSES])],
}

impl pulp::WithSimd for Scan<'_> {
    type Output = Vec<Vec<(f32, u32)>>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> Self::Output {
        let ix = self.index;
        let p = ix.packed;
        let mut candidates = vec![Vec::new(); self.queries.len()];
        let mut scores = [0f32; CHUNK_ROWS];
        let chunks = ix
            .codes4
            .chunks(CHUNK_ROWS * p)
            .zip(ix.scale4.chunks(CHUNK_ROWS))
            .zip(ix.resid.chunks(CHUNK_ROWS))
            .zip(ix.classes.chunks(CHUNK_ROWS));
        for (n, (((codes, scales), resid), classes)) in chunks.enumerate() {
            let base = n * CHUNK_ROWS;
            for ((q, thresholds), found) in self.queries.iter().zip(&mut candidates) {
                for ((score, row), &s4) in scores.iter_mut().zip(codes.chunks_exact(p)).zip(scales)
                {
                    let dot = dot_nibbles(row, &q.lo, &q.hi) - q.offset;
                    *score = dot as f32 * (s4 * q.step);
                }
                for (i, ((&a, &e), &class)) in scores.iter().zip(resid).zip(classes).enumerate() {
                    if a + q.delta(e) >= thresholds[usize::from(class) & (SIZE_CLASSES - 1)] {
                        found.push((a, (base + i) as u32));
                    }
                }
            }
        }
        candidates
    }
}

/// The exact similarities of some rows and their width classes, as a `pulp` operation so
/// the 8-bit dot products are compiled for AVX2 as well (the same sums in the same order:
/// the same results as [`FaceIndex::rescore`] anywhere else).
struct Rescore<'a> {
    index: &'a FaceIndex,
    query: &'a [f32],
    rows: &'a [usize],
}

impl pulp::WithSimd for Rescore<'_> {
    type Output = Vec<(u8, f32)>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> Self::Output {
        let ix = self.index;
        self.rows
            .iter()
            .map(|&row| (ix.classes[row], ix.rescore(self.query, row)))
            .collect()
    }
}

/// `sum_j lo_nibble(p_j) * lo_j + hi_nibble(p_j) * hi_j` over packed bytes. Each block
/// of 8 x 32 bytes accumulates in `i16` lanes (at most 8 * 2 * 15 * 127 = 30480, no
/// overflow), then widens once: the shape LLVM turns into `vpmullw`/`vpaddw`.
#[inline(always)]
fn dot_nibbles(p: &[u8], lo: &[i16], hi: &[i16]) -> i32 {
    // 512 dimensions (the common case) are exactly one block: with the length known at
    // compile time the loop is fully unrolled (measured ~5% faster).
    if let (Ok(p), Ok(lo), Ok(hi)) = (
        <&[u8; BLOCK_BYTES]>::try_from(p),
        <&[i16; BLOCK_BYTES]>::try_from(lo),
        <&[i16; BLOCK_BYTES]>::try_from(hi),
    ) {
        return dot_nibble_block(p, lo, hi);
    }
    p.chunks(BLOCK_BYTES)
        .zip(lo.chunks(BLOCK_BYTES))
        .zip(hi.chunks(BLOCK_BYTES))
        .map(|((p, lo), hi)| dot_nibble_block(p, lo, hi))
        .sum()
}

/// One block of at most `BLOCK_BYTES` bytes, accumulated in `i16` lanes.
#[inline(always)]
fn dot_nibble_block(p: &[u8], lo: &[i16], hi: &[i16]) -> i32 {
    let mut acc = [0i16; 32];
    for ((x, a), b) in p
        .chunks_exact(32)
        .zip(lo.chunks_exact(32))
        .zip(hi.chunks_exact(32))
    {
        for i in 0..32 {
            let v = i16::from(x[i]);
            acc[i] = acc[i]
                .wrapping_add((v & 15).wrapping_mul(a[i]))
                .wrapping_add((v >> 4).wrapping_mul(b[i]));
        }
    }
    acc.iter().map(|&v| i32::from(v)).sum::<i32>()
}

#[inline(always)]
fn dot_i8_f32(a: &[i8], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(&x, &y)| f32::from(x) * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += f32::from(x[i]) * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    const DIM: usize = 512;

    fn random_unit(rng: &mut StdRng, dim: usize) -> Embedding {
        // Sum of uniforms is close enough to Gaussian for direction sampling here.
        let v: Vec<f32> = (0..dim)
            .map(|_| (0..4).map(|_| rng.random::<f32>() - 0.5).sum())
            .collect();
        Embedding::from_raw(v, dim).unwrap()
    }

    /// A vector at roughly the given cosine to `base` (a "same person" embedding).
    fn near(rng: &mut StdRng, base: &Embedding, cos: f32) -> Embedding {
        let noise = random_unit(rng, base.dim());
        let s = (1.0 - cos * cos).sqrt();
        let v = base
            .as_slice()
            .iter()
            .zip(noise.as_slice())
            .map(|(b, n)| cos * b + s * n)
            .collect();
        Embedding::from_raw(v, base.dim()).unwrap()
    }

    /// Brute force over the dequantised vectors, in f64, written independently.
    fn brute(index: &FaceIndex, q: &Embedding, threshold: f32, k: usize) -> Vec<Hit> {
        brute_by_class(index, q, Thresholds::uniform(threshold), k)
    }

    /// [`brute`] holding each face to its width class's threshold.
    fn brute_by_class(
        index: &FaceIndex,
        q: &Embedding,
        thresholds: Thresholds,
        k: usize,
    ) -> Vec<Hit> {
        let mut best: HashMap<i64, Hit> = HashMap::new();
        for row in 0..index.len() {
            let c = &index.codes8[row * index.dim..(row + 1) * index.dim];
            let s: f64 = c
                .iter()
                .zip(q.as_slice())
                .map(|(&c, &q)| f64::from(c) * f64::from(index.scale8[row]) * f64::from(q))
                .sum();
            let s = s as f32;
            if s < thresholds.classes()[usize::from(index.classes[row])] {
                continue;
            }
            let hit = Hit {
                photo_id: index.photo_ids[row],
                face_id: index.face_ids[row],
                similarity: s,
            };
            let e = best.entry(hit.photo_id).or_insert(hit);
            if s > e.similarity {
                *e = hit;
            }
        }
        let mut v: Vec<Hit> = best.into_values().collect();
        v.sort_by(|a, b| {
            b.similarity
                .total_cmp(&a.similarity)
                .then(a.photo_id.cmp(&b.photo_id))
        });
        v.truncate(k);
        v
    }

    fn assert_same(got: &[Hit], want: &[Hit]) {
        assert_eq!(got.len(), want.len(), "got {got:?}\nwant {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g.similarity - w.similarity).abs() < 1e-5, "{g:?} vs {w:?}");
            // Different photos may only swap places when their scores tie within rounding.
            if g.photo_id != w.photo_id {
                assert!((g.similarity - w.similarity).abs() < 1e-5);
            } else {
                assert_eq!(g.face_id, w.face_id);
            }
        }
    }

    /// An index of `photos` photos with 3 faces each; photo p's first face is a noisy copy
    /// of one of 20 "people", so queries have real matches spread over many photos.
    fn build(rng: &mut StdRng, photos: i64) -> (FaceIndex, Vec<Embedding>) {
        let people: Vec<Embedding> = (0..20).map(|_| random_unit(rng, DIM)).collect();
        let mut index = FaceIndex::new(DIM);
        for p in 0..photos {
            let person = &people[(p % 20) as usize];
            let cos = 0.3 + 0.6 * rng.random::<f32>();
            // Faces 20–140 px wide: every width class.
            let mut width = || 20.0 + 120.0 * rng.random::<f32>();
            let (w0, w1, w2) = (width(), width(), width());
            index
                .insert_face(p * 10, p, &near(rng, person, cos), w0)
                .unwrap();
            index
                .insert_face(p * 10 + 1, p, &random_unit(rng, DIM), w1)
                .unwrap();
            index
                .insert_face(p * 10 + 2, p, &random_unit(rng, DIM), w2)
                .unwrap();
        }
        (index, people)
    }

    #[test]
    fn search_is_exact_against_brute_force() {
        let mut rng = StdRng::seed_from_u64(7);
        let (index, people) = build(&mut rng, 2000);
        for (i, person) in people.iter().enumerate().take(8) {
            let q = near(&mut rng, person, 0.9);
            for &(threshold, k) in &[
                (0.35f32, 1000usize),
                (0.35, 5),
                (0.6, 50),
                (0.0, 20),
                (-1.0, 7),
                (0.99, 10),
            ] {
                let got = index.search(&q, threshold, k).unwrap();
                let want = brute(&index, &q, threshold, k);
                assert_same(&got, &want);
                assert!(got.windows(2).all(|w| w[0].similarity >= w[1].similarity));
                if i == 0 && threshold == 0.35 && k == 1000 {
                    assert!(
                        got.len() > 20,
                        "the test must have real matches: {}",
                        got.len()
                    );
                }
            }
        }
    }

    #[test]
    fn each_face_is_held_to_its_width_class_threshold() {
        let mut rng = StdRng::seed_from_u64(11);
        let (index, people) = build(&mut rng, 2000);
        let q = near(&mut rng, &people[3], 0.9);
        for thresholds in [
            Thresholds::uniform(0.35),
            StrangerFit::default().thresholds(0.1, 0.5),
            index.stranger_fit(&q).unwrap().thresholds(0.2, 0.35),
        ] {
            let got = index.search_each(&[(&q, thresholds)], 1000).unwrap();
            assert_same(&got[0], &brute_by_class(&index, &q, thresholds, 1000));
        }
        // No fit: the ceiling for every class.
        let uniform = index.search(&q, 0.35, 1000).unwrap();
        let unfitted = StrangerFit::default().thresholds(0.0, 0.35);
        assert_eq!(
            index.search_each(&[(&q, unfitted)], 1000).unwrap()[0],
            uniform
        );
        // A lower threshold for the smallest faces finds more, and only small faces more.
        let by_class = StrangerFit::from_scores(
            (0..4u8).flat_map(|c| std::iter::repeat_n((c, if c == 0 { 0.25 } else { 0.4 }), 50)),
        )
        .thresholds(0.0, 0.35);
        assert_eq!(by_class.classes(), [0.25, 0.35, 0.35, 0.35]);
        let more = index.search_each(&[(&q, by_class)], 1000).unwrap();
        assert!(
            more[0].len() > uniform.len(),
            "{} vs {}",
            more[0].len(),
            uniform.len()
        );
        for hit in more[0].iter().filter(|h| h.similarity < 0.35) {
            let row = index.rows[&hit.face_id] as usize;
            assert_eq!(index.classes[row], 0, "{hit:?}");
        }
    }

    #[test]
    fn the_stranger_fit_of_a_big_index_comes_from_a_sample() {
        let mut rng = StdRng::seed_from_u64(12);
        let q = random_unit(&mut rng, 128);
        let mut index = FaceIndex::new(128);
        let faces = 3 * FIT_SAMPLE + 7;
        for i in 0..faces {
            let width = if i % 2 == 0 { 40.0 } else { 120.0 };
            index
                .insert_face(i as i64, i as i64, &random_unit(&mut rng, 128), width)
                .unwrap();
        }
        let fit = index.stranger_fit(&q).unwrap().fitted();
        let all = StrangerFit::from_scores(
            (0..faces).map(|row| (index.classes[row], index.rescore(q.as_slice(), row))),
        )
        .fitted();
        for class in [0, 3] {
            // Random 128-d directions: similarities of deviation 1/sqrt(128).
            let (sampled, every) = (fit[class].unwrap(), all[class].unwrap());
            assert!((sampled - every).abs() < 0.02, "{sampled} vs {every}");
            assert!((every - 4.75 / 128f32.sqrt()).abs() < 0.04, "{every}");
        }
        assert_eq!((fit[1], fit[2]), (None, None));
        assert!(index.stranger_fit(&random_unit(&mut rng, 64)).is_err());
    }

    #[test]
    fn hits_of_several_searches_give_each_photo_once_by_its_best() {
        let hit = |photo_id, face_id, similarity| Hit {
            photo_id,
            face_id,
            similarity,
        };
        let sharp = vec![hit(1, 10, 0.6), hit(2, 20, 0.4)];
        let distant = vec![hit(2, 21, 0.5), hit(3, 30, 0.4), hit(1, 11, 0.6)];
        assert_eq!(
            best_per_photo(sharp.into_iter().chain(distant)),
            vec![hit(1, 10, 0.6), hit(2, 21, 0.5), hit(3, 30, 0.4)]
        );
        assert!(best_per_photo(Vec::new()).is_empty());
    }

    #[test]
    fn several_queries_in_one_pass_answer_as_each_alone() {
        let mut rng = StdRng::seed_from_u64(7);
        let (index, people) = build(&mut rng, 300);
        let a = near(&mut rng, &people[3], 0.9);
        let b = near(&mut rng, &people[11], 0.9);
        let each = index
            .search_each(&[(&a, 0.3.into()), (&b, 0.4.into()), (&a, 0.9.into())], 20)
            .unwrap();
        assert_eq!(each.len(), 3);
        assert_eq!(each[0], index.search(&a, 0.3, 20).unwrap());
        assert_eq!(each[1], index.search(&b, 0.4, 20).unwrap());
        assert_eq!(each[2], index.search(&a, 0.9, 20).unwrap());
        assert!(!each[0].is_empty() && !each[1].is_empty());
        assert_same(&each[1], &brute(&index, &b, 0.4, 20));
        assert!(index.search_each(&[], 20).unwrap().is_empty());
        let short = Embedding::from_raw(vec![1.0; 8], 8).unwrap();
        assert!(
            index
                .search_each(&[(&a, 0.3.into()), (&short, 0.3.into())], 20)
                .is_err()
        );
    }

    #[test]
    fn one_hit_per_photo_with_its_best_face() {
        let mut rng = StdRng::seed_from_u64(1);
        let a = random_unit(&mut rng, DIM);
        let mut index = FaceIndex::new(DIM);
        index.insert(1, 100, &near(&mut rng, &a, 0.5)).unwrap();
        index.insert(2, 100, &near(&mut rng, &a, 0.8)).unwrap();
        index.insert(3, 200, &near(&mut rng, &a, 0.6)).unwrap();
        let hits = index.search(&a, 0.3, 10).unwrap();
        assert_eq!(
            hits.iter()
                .map(|h| (h.photo_id, h.face_id))
                .collect::<Vec<_>>(),
            vec![(100, 2), (200, 3)]
        );
        assert!((hits[0].similarity - 0.8).abs() < 0.05);
        assert_eq!(index.search(&a, 0.3, 1).unwrap().len(), 1);
        assert!(index.search(&a, 0.9, 10).unwrap().is_empty());
    }

    #[test]
    fn remove_and_replace_keep_the_index_consistent() {
        let mut rng = StdRng::seed_from_u64(3);
        let (mut index, people) = build(&mut rng, 300);
        assert_eq!(index.remove_photo(5), 3);
        assert_eq!(index.remove_photo(5), 0);
        assert!(index.remove_face(71));
        assert!(!index.remove_face(71));
        assert_eq!(index.len(), 900 - 4);
        // Replacing face 80 moves it to photo 999.
        index.insert(80, 999, &people[0]).unwrap();
        assert_eq!(index.len(), 896);
        let hits = index.search(&people[0], 0.95, 3).unwrap();
        assert_eq!(hits[0].photo_id, 999);
        for row in 0..index.len() {
            assert_eq!(index.rows[&index.face_ids[row]] as usize, row);
        }
        let q = near(&mut rng, &people[3], 0.9);
        assert_same(
            &index.search(&q, 0.3, 100).unwrap(),
            &brute(&index, &q, 0.3, 100),
        );
        assert!(
            index
                .search(&q, 0.3, 100)
                .unwrap()
                .iter()
                .all(|h| h.photo_id != 5)
        );
    }

    #[test]
    fn quantisation_error_is_small_and_bounds_the_similarity_error() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut index = FaceIndex::new(DIM);
        let vs: Vec<Embedding> = (0..500).map(|_| random_unit(&mut rng, DIM)).collect();
        for (i, v) in vs.iter().enumerate() {
            index.insert(i as i64, i as i64, v).unwrap();
        }
        let bound = index.max_quantisation_error();
        assert!(bound > 0.0 && bound < 0.01, "max |x - x^| = {bound}");
        for _ in 0..20 {
            let q = random_unit(&mut rng, DIM);
            for (i, v) in vs.iter().enumerate() {
                let exact = crate::embed::cosine(&q, v);
                let stored = index.similarity(&q, i as i64).unwrap();
                assert!(
                    (exact - stored).abs() <= bound + 1e-5,
                    "{exact} vs {stored}"
                );
            }
        }
    }

    #[test]
    fn scan_bound_covers_both_quantisations() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut worst_ratio = 0.0f32;
        for dim in [DIM, 100] {
            let packed = dim.div_ceil(64) * 32;
            for _ in 0..300 {
                let q = random_unit(&mut rng, dim);
                let cos = rng.random::<f32>();
                let x = near(&mut rng, &q, cos);
                let v = Quantised::new(x.as_slice(), packed);
                let sq = ScanQuery::new(q.as_slice(), packed);
                let a = (dot_nibbles(&v.codes4, &sq.lo, &sq.hi) - sq.offset) as f32
                    * v.scale4
                    * sq.step;
                let exact = dot_i8_f32(&v.codes8, q.as_slice()) * v.scale8;
                let err = (a - exact).abs();
                assert!(
                    err <= sq.delta(v.resid),
                    "dim {dim}: {err} > {}",
                    sq.delta(v.resid)
                );
                worst_ratio = worst_ratio.max(err / sq.delta(v.resid));
            }
        }
        // The bound is rigorous, hence loose; it must still be usable (about 0.15).
        let v = Quantised::new(random_unit(&mut rng, DIM).as_slice(), DIM / 2);
        assert!(v.resid < 0.25, "residual bound {}", v.resid);
        assert!(worst_ratio < 1.0);
    }

    #[test]
    fn nibbles_pack_and_never_overflow() {
        // All codes +7 (nibble 15) against the largest query values: 512 * 7 * 127.
        let packed = DIM / 2;
        let bytes = vec![0xFFu8; packed];
        let q = vec![127i16; packed];
        let offset = 8 * 127 * DIM as i32;
        assert_eq!(dot_nibbles(&bytes, &q, &q) - offset, 7 * 127 * DIM as i32);
        let neg = vec![-127i16; packed];
        assert_eq!(
            dot_nibbles(&bytes, &neg, &neg) + offset,
            -7 * 127 * DIM as i32
        );
        // Dimension j goes to the low nibble of byte j, j + packed to the high nibble.
        let mut x = vec![0.0f32; DIM];
        x[3] = 1.0;
        x[3 + packed] = -1.0;
        let v = Quantised::new(&x, packed);
        assert_eq!(v.codes4[3], (1u8 << 4) | 15, "-7 + 8 high, 7 + 8 low");
        assert_eq!(v.codes4[4], 0x88);
        assert!(v.resid < 1e-5);
    }

    #[test]
    fn most_alike_is_the_best_cosine_of_the_stored_vectors() {
        let mut rng = StdRng::seed_from_u64(33);
        let base = random_unit(&mut rng, 512);
        let (close, far, other) = (
            near(&mut rng, &base, 0.8),
            near(&mut rng, &base, 0.3),
            random_unit(&mut rng, 512),
        );
        let mut index = FaceIndex::new(512);
        for (id, e) in [(1, &base), (2, &close), (3, &far), (4, &other)] {
            index.insert(id, id, e).unwrap();
        }
        let cos = crate::cosine;
        let got = index.most_alike(&[1, 4, 99], &[2, 3, 98]);
        assert_eq!(got.len(), 3);
        let want = [
            cos(&base, &close),
            cos(&other, &close).max(cos(&other, &far)),
        ];
        for (g, w) in got.iter().zip(want) {
            assert!((g.unwrap() - w).abs() < 0.01, "{g:?} against {w}");
        }
        // The same as the index's own similarity of the stored face to the query.
        let seen = index.similarity(&close, 1).unwrap();
        assert!((got[0].unwrap() - seen).abs() < 0.01);
        // An unknown face, or nothing known to compare with: no resemblance.
        assert_eq!(got[2], None);
        assert_eq!(index.most_alike(&[1], &[98]), vec![None]);
        assert!(index.most_alike(&[], &[1]).is_empty());
    }

    #[test]
    fn exact_for_dimensions_not_multiple_of_64() {
        let mut rng = StdRng::seed_from_u64(21);
        let dim = 100;
        let base = random_unit(&mut rng, dim);
        let mut index = FaceIndex::new(dim);
        for i in 0..500 {
            let cos = rng.random::<f32>();
            index.insert(i, i / 2, &near(&mut rng, &base, cos)).unwrap();
        }
        for (t, k) in [(0.3f32, 50usize), (0.0, 10), (0.7, 500)] {
            assert_same(
                &index.search(&base, t, k).unwrap(),
                &brute(&index, &base, t, k),
            );
        }
    }

    #[test]
    fn memory_is_at_most_1kb_per_face() {
        let mut rng = StdRng::seed_from_u64(9);
        let mut index = FaceIndex::new(DIM);
        let e = random_unit(&mut rng, DIM);
        // Growth (not just a shrunk index) must stay within budget at every size.
        for i in 0..5000i64 {
            index.insert(i, i / 3, &e).unwrap();
            if i >= 2048 && (i % 97 == 0 || i == 4999) {
                let per_face = index.memory_bytes() as f64 / index.len() as f64;
                assert!(
                    per_face <= 1024.0,
                    "{per_face} bytes/face at {}",
                    index.len()
                );
            }
        }
        index.shrink_to_fit();
        let per_face = index.memory_bytes() as f64 / index.len() as f64;
        assert!(per_face <= 1024.0, "{per_face} bytes/face");
    }

    #[test]
    fn wrong_dimension_is_an_error() {
        let mut index = FaceIndex::new(4);
        let e = Embedding::from_raw(vec![1.0, 0.0, 0.0], 3).unwrap();
        assert!(matches!(
            index.insert(1, 1, &e),
            Err(Error::Dimension {
                expected: 4,
                got: 3
            })
        ));
        assert!(index.search(&e, 0.0, 1).is_err());
        assert!(
            index
                .search(&Embedding::from_raw(vec![1.0; 4], 4).unwrap(), 0.0, 3)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn index_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<FaceIndex>();
    }

    /// Scan speed on 300,000 faces (run with `--ignored --nocapture` in release mode).
    #[test]
    #[ignore = "benchmark"]
    fn bench_scan_300k() {
        let mut rng = StdRng::seed_from_u64(42);
        let n = 300_000;
        let mut index = FaceIndex::with_capacity(DIM, n);
        let people: Vec<Embedding> = (0..1000).map(|_| random_unit(&mut rng, DIM)).collect();
        for i in 0..n {
            let cos = 0.2 + 0.6 * rng.random::<f32>();
            let e = near(&mut rng, &people[i % 1000], cos);
            index.insert(i as i64, (i / 3) as i64, &e).unwrap();
        }
        let q = near(&mut rng, &people[0], 0.9);
        let mut times = Vec::new();
        let mut hits = 0;
        for _ in 0..30 {
            let t = std::time::Instant::now();
            hits = index.search(&q, 0.35, 200).unwrap().len();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "300k faces: p50 {:.2} ms, min {:.2} ms, max {:.2} ms, {hits} hits, {:.0} bytes/face",
            times[15],
            times[0],
            times[29],
            index.memory_bytes() as f64 / n as f64
        );
        let mut fits: Vec<f64> = (0..30)
            .map(|_| {
                let t = std::time::Instant::now();
                std::hint::black_box(index.stranger_fit(&q).unwrap());
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        fits.sort_by(f64::total_cmp);
        println!("stranger fit: p50 {:.2} ms", fits[15]);
    }
}
