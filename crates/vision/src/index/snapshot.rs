//! A face index written out as one piece and read back without quantising anything again:
//! the first search of a big event after a start reads its snapshot (about 800 bytes a
//! face, one sequential read) instead of decoding and quantising every stored embedding.
//!
//! # Format (version 2, little-endian)
//!
//! | bytes | holds |
//! |---|---|
//! | 8 | magic `RSFACEIX` |
//! | 4 | version (2) |
//! | 4 | dimensions `dim` |
//! | 8 | faces `n` |
//! | 4 | the largest quantisation error (`f32`) |
//! | 4 | zero |
//! | `n * dim` | 8-bit codes, row after row |
//! | `n * packed` | packed 4-bit codes (`packed = ceil(dim / 64) * 32`) |
//! | `4n` each | `scale8`, `scale4`, `resid` (`f32`) |
//! | `8n` each | face ids, photo ids (`i64`) |
//! | `n` | width classes (`u8`, [`crate::calibration::size_class`]) |
//! | 4 | CRC-32 of everything before it |
//!
//! [`SnapshotWriter`] hands the bytes out in parts, each made from the index borrowed for
//! that part only, so a writer never holds the index's lock for the whole file (rows are
//! only ever appended, so the first `n` rows stay as they were between parts).
//! [`SnapshotReader`] takes the bytes in parts of any size, as they arrive, and fills the
//! index's arrays in place: it allocates only what the announced length allows and
//! refuses any other length, a wrong checksum, a repeated face id, a non-finite scale or
//! an unknown width class. A snapshot of another version (version 1 had no classes) is
//! refused, and the index is built from the rows again.

use super::FaceIndex;
use crate::calibration::SIZE_CLASSES;
use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"RSFACEIX";
const VERSION: u32 = 2;
const HEADER: usize = 32;
const TRAILER: usize = 4;
/// No face embedding comes near this; a larger header is not one of ours.
const MAX_DIM: usize = 4096;

fn corrupt(why: impl Into<String>) -> Error {
    Error::Snapshot(why.into())
}

/// The sections after the header, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Codes8,
    Codes4,
    Scale8,
    Scale4,
    Resid,
    FaceIds,
    PhotoIds,
    Classes,
}

const SECTIONS: [Section; 8] = [
    Section::Codes8,
    Section::Codes4,
    Section::Scale8,
    Section::Scale4,
    Section::Resid,
    Section::FaceIds,
    Section::PhotoIds,
    Section::Classes,
];

impl Section {
    /// Bytes of one element of this section.
    fn width(self) -> usize {
        match self {
            Section::Codes8 | Section::Codes4 | Section::Classes => 1,
            Section::Scale8 | Section::Scale4 | Section::Resid => 4,
            Section::FaceIds | Section::PhotoIds => 8,
        }
    }

    /// Elements of this section in a snapshot of `rows` rows.
    fn elements(self, dim: usize, packed: usize, rows: usize) -> usize {
        match self {
            Section::Codes8 => rows * dim,
            Section::Codes4 => rows * packed,
            _ => rows,
        }
    }
}

/// Total bytes of a snapshot of `rows` rows of `dim` dimensions.
pub fn snapshot_len(dim: usize, rows: usize) -> u64 {
    let packed = dim.div_ceil(64) * 32;
    let body: usize = SECTIONS
        .iter()
        .map(|s| s.elements(dim, packed, rows) * s.width())
        .sum();
    (HEADER + body + TRAILER) as u64
}

/// Writes the snapshot of an index's first `rows` rows, part by part.
pub struct SnapshotWriter {
    rows: usize,
    /// The next section to write (`SECTIONS.len()`: the trailer; past it: done).
    section: usize,
    /// Elements of the current section already written.
    done: usize,
    header_written: bool,
    crc: crc32fast::Hasher,
}

impl SnapshotWriter {
    /// A writer of the first `rows` rows (at most the index's length when parts are made).
    pub fn new(rows: usize) -> Self {
        Self {
            rows,
            section: 0,
            done: 0,
            header_written: false,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// The next part of at most about `max` bytes (never empty), or `None` once the
    /// checksum is out. Fails when the index holds fewer rows than the writer was made for,
    /// or has another dimension than in earlier parts.
    pub fn next_part(&mut self, index: &FaceIndex, max: usize) -> Result<Option<Vec<u8>>> {
        if index.len() < self.rows {
            return Err(corrupt(format!(
                "the index shrank to {} rows while {} were written",
                index.len(),
                self.rows
            )));
        }
        let max = max.max(64);
        let mut out = Vec::with_capacity(max.min(snapshot_len(index.dim, self.rows) as usize));
        if !self.header_written {
            out.extend_from_slice(MAGIC);
            out.extend_from_slice(&VERSION.to_le_bytes());
            out.extend_from_slice(&(index.dim as u32).to_le_bytes());
            out.extend_from_slice(&(self.rows as u64).to_le_bytes());
            out.extend_from_slice(&index.max_quantisation_error.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
            self.header_written = true;
        }
        while out.len() < max && self.section < SECTIONS.len() {
            let section = SECTIONS[self.section];
            let total = section.elements(index.dim, index.packed, self.rows);
            let room = (max - out.len()) / section.width();
            let take = room.max(1).min(total - self.done);
            let range = self.done..self.done + take;
            match section {
                Section::Codes8 => out.extend(index.codes8[range].iter().map(|&c| c as u8)),
                Section::Codes4 => out.extend_from_slice(&index.codes4[range]),
                Section::Scale8 => extend_f32(&mut out, &index.scale8[range]),
                Section::Scale4 => extend_f32(&mut out, &index.scale4[range]),
                Section::Resid => extend_f32(&mut out, &index.resid[range]),
                Section::FaceIds => extend_i64(&mut out, &index.face_ids[range]),
                Section::PhotoIds => extend_i64(&mut out, &index.photo_ids[range]),
                Section::Classes => out.extend_from_slice(&index.classes[range]),
            }
            self.done += take;
            if self.done == total {
                self.section += 1;
                self.done = 0;
            }
        }
        self.crc.update(&out);
        if self.section == SECTIONS.len() && out.len() + TRAILER <= max.max(TRAILER) {
            out.extend_from_slice(&self.crc.clone().finalize().to_le_bytes());
            self.section += 1;
        }
        Ok((!out.is_empty()).then_some(out))
    }
}

fn extend_f32(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn extend_i64(out: &mut Vec<u8>, values: &[i64]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Reads a snapshot of a known total length from parts of any size.
pub struct SnapshotReader {
    expected_len: u64,
    received: u64,
    /// Bytes of a header, an element split between parts, or the trailer.
    pending: Vec<u8>,
    index: Option<FaceIndex>,
    rows: usize,
    section: usize,
    done: usize,
    crc: crc32fast::Hasher,
    trailer: Option<u32>,
}

impl SnapshotReader {
    /// A reader of a snapshot of `expected_len` bytes (the object's size): a header
    /// announcing any other size is refused before anything is allocated.
    pub fn new(expected_len: u64) -> Self {
        Self {
            expected_len,
            received: 0,
            pending: Vec::with_capacity(HEADER),
            index: None,
            rows: 0,
            section: 0,
            done: 0,
            crc: crc32fast::Hasher::new(),
            trailer: None,
        }
    }

    /// Takes the next bytes of the snapshot.
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<()> {
        self.received += bytes.len() as u64;
        if self.received > self.expected_len {
            return Err(corrupt("longer than announced"));
        }
        while !bytes.is_empty() {
            let Some(index) = self.index.as_mut() else {
                let need = HEADER - self.pending.len();
                let take = need.min(bytes.len());
                self.pending.extend_from_slice(&bytes[..take]);
                bytes = &bytes[take..];
                if self.pending.len() == HEADER {
                    self.start()?;
                }
                continue;
            };
            if self.section == SECTIONS.len() {
                // The trailer: never part of the checksum.
                self.pending.extend_from_slice(bytes);
                if self.pending.len() > TRAILER {
                    return Err(corrupt("bytes after the checksum"));
                }
                if self.pending.len() == TRAILER {
                    let mut word = [0u8; 4];
                    word.copy_from_slice(&self.pending);
                    self.trailer = Some(u32::from_le_bytes(word));
                }
                return Ok(());
            }
            let section = SECTIONS[self.section];
            let width = section.width();
            let total = section.elements(index.dim, index.packed, self.rows);
            // Complete an element split by the previous part first.
            if !self.pending.is_empty() {
                let take = (width - self.pending.len()).min(bytes.len());
                self.pending.extend_from_slice(&bytes[..take]);
                self.crc.update(&bytes[..take]);
                bytes = &bytes[take..];
                if self.pending.len() < width {
                    return Ok(());
                }
                let element = std::mem::take(&mut self.pending);
                fill(index, section, self.done, &element);
                self.done += 1;
            } else {
                let whole = (bytes.len() / width).min(total - self.done);
                let take = if whole == 0 {
                    bytes.len().min(width)
                } else {
                    whole * width
                };
                self.crc.update(&bytes[..take]);
                if whole == 0 {
                    self.pending.extend_from_slice(&bytes[..take]);
                } else {
                    fill(index, section, self.done, &bytes[..take]);
                    self.done += whole;
                }
                bytes = &bytes[take..];
            }
            if self.done == total {
                self.section += 1;
                self.done = 0;
            }
        }
        Ok(())
    }

    fn start(&mut self) -> Result<()> {
        let h = &self.pending;
        if &h[..8] != MAGIC {
            return Err(corrupt("not a face index snapshot"));
        }
        let word = |at: usize| u32::from_le_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]]);
        let version = word(8);
        if version != VERSION {
            return Err(corrupt(format!(
                "version {version}, this build reads {VERSION}"
            )));
        }
        let dim = word(12) as usize;
        let mut rows = [0u8; 8];
        rows.copy_from_slice(&h[16..24]);
        let rows = u64::from_le_bytes(rows);
        let max_error = f32::from_bits(word(24));
        if dim == 0 || dim > MAX_DIM {
            return Err(corrupt(format!("{dim} dimensions")));
        }
        // The announced rows must give exactly the announced length: nothing is allocated
        // for a header that claims more than the object holds.
        let fits = usize::try_from(rows)
            .ok()
            .filter(|&r| r <= u32::MAX as usize && snapshot_len(dim, r) == self.expected_len);
        let Some(rows) = fits else {
            return Err(corrupt(format!(
                "{rows} faces of {dim} dimensions do not make {} bytes",
                self.expected_len
            )));
        };
        if !max_error.is_finite() {
            return Err(corrupt("quantisation error is not a number"));
        }
        self.crc.update(h);
        let mut index = zeroed(dim, rows);
        index.max_quantisation_error = max_error;
        self.index = Some(index);
        self.rows = rows;
        self.pending.clear();
        if rows == 0 {
            self.section = SECTIONS.len();
        }
        Ok(())
    }

    /// The index, once every byte has arrived and the checksum holds.
    pub fn finish(self) -> Result<FaceIndex> {
        let (Some(mut index), Some(trailer)) = (self.index, self.trailer) else {
            return Err(corrupt("ends early"));
        };
        if self.crc.finalize() != trailer {
            return Err(corrupt("checksum does not match"));
        }
        let scales = index.scale8.iter().chain(&index.scale4).chain(&index.resid);
        if scales.into_iter().any(|v| !v.is_finite()) {
            return Err(corrupt("a scale is not a number"));
        }
        if let Some(c) = index
            .classes
            .iter()
            .find(|&&c| usize::from(c) >= SIZE_CLASSES)
        {
            return Err(corrupt(format!("width class {c}")));
        }
        let mut rows =
            super::RowMap::with_capacity_and_hasher(index.face_ids.len(), Default::default());
        for (row, &face) in index.face_ids.iter().enumerate() {
            if rows.insert(face, row as u32).is_some() {
                return Err(corrupt(format!("face {face} twice")));
            }
        }
        index.rows = rows;
        Ok(index)
    }
}

fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

fn i64s(bytes: &[u8]) -> impl Iterator<Item = i64> + '_ {
    bytes.chunks_exact(8).map(|c| {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        i64::from_le_bytes(w)
    })
}

/// Stores whole elements of `section`, from element `at` on.
fn fill(index: &mut FaceIndex, section: Section, at: usize, bytes: &[u8]) {
    fn put<T>(dst: &mut [T], values: impl Iterator<Item = T>) {
        for (d, v) in dst.iter_mut().zip(values) {
            *d = v;
        }
    }
    let n = bytes.len() / section.width();
    let to = at..at + n;
    match section {
        Section::Codes8 => put(&mut index.codes8[to], bytes.iter().map(|&b| b as i8)),
        Section::Codes4 => index.codes4[to].copy_from_slice(bytes),
        Section::Scale8 => put(&mut index.scale8[to], f32s(bytes)),
        Section::Scale4 => put(&mut index.scale4[to], f32s(bytes)),
        Section::Resid => put(&mut index.resid[to], f32s(bytes)),
        Section::FaceIds => put(&mut index.face_ids[to], i64s(bytes)),
        Section::PhotoIds => put(&mut index.photo_ids[to], i64s(bytes)),
        Section::Classes => index.classes[to].copy_from_slice(bytes),
    }
}

/// An index of `rows` rows of zeros, to be filled in place, its memory already mapped:
/// a fresh page costs the kernel a fault and a clearing on first touch, which for a
/// million faces (800 MB) took three quarters of a snapshot's reading when done while
/// filling it on one core. Two threads touch the pages, one half each, first.
fn zeroed(dim: usize, rows: usize) -> FaceIndex {
    let packed = dim.div_ceil(64) * 32;
    let mut index = FaceIndex {
        dim,
        packed,
        // Zeros from the allocator: pages the kernel maps on first touch.
        codes8: vec![0; rows * dim],
        codes4: vec![0; rows * packed],
        scale8: vec![0.0; rows],
        scale4: vec![0.0; rows],
        resid: vec![0.0; rows],
        face_ids: vec![0; rows],
        photo_ids: vec![0; rows],
        classes: vec![0; rows],
        rows: super::RowMap::default(),
        max_quantisation_error: 0.0,
    };
    /// Writes one byte of each page.
    fn touch<T: Copy + Default>(values: &mut [T]) {
        let per_page = (4096 / std::mem::size_of::<T>()).max(1);
        for page in values.chunks_mut(per_page) {
            page[0] = T::default();
        }
    }
    // Half of the codes' bytes on another thread (from the 8-bit codes); the rest here.
    let half = ((index.codes8.len() + index.codes4.len()) / 2).min(index.codes8.len());
    let (first, second) = index.codes8.split_at_mut(half);
    std::thread::scope(|scope| {
        scope.spawn(|| touch(first));
        touch(second);
        touch(&mut index.codes4);
    });
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Embedding;

    fn embedding(seed: u64, dim: usize) -> Embedding {
        crate::testing::stranger(seed, dim).unwrap()
    }

    fn index(dim: usize, faces: usize) -> FaceIndex {
        let mut index = FaceIndex::new(dim);
        for f in 0..faces {
            let id = 10 + 3 * f as i64;
            let width = 30.0 + (f % 9) as f32 * 10.0; // every class
            index
                .insert_face(id, 1000 + id / 7, &embedding(id as u64, dim), width)
                .unwrap();
        }
        index
    }

    fn write(index: &FaceIndex, rows: usize, part: usize) -> Vec<u8> {
        let mut writer = SnapshotWriter::new(rows);
        let mut bytes = Vec::new();
        while let Some(p) = writer.next_part(index, part).unwrap() {
            assert!(!p.is_empty());
            bytes.extend(p);
        }
        bytes
    }

    fn read(bytes: &[u8], part: usize) -> Result<FaceIndex> {
        let mut reader = SnapshotReader::new(bytes.len() as u64);
        for p in bytes.chunks(part) {
            reader.push(p)?;
        }
        reader.finish()
    }

    #[test]
    fn a_snapshot_reads_back_as_the_same_index_whatever_the_part_sizes() {
        for dim in [128, 512] {
            let index = index(dim, 700);
            let whole = write(&index, index.len(), 1 << 20);
            assert_eq!(whole.len() as u64, snapshot_len(dim, 700));
            for part in [1, 3, 7, 64, 1000, 4093] {
                assert_eq!(
                    write(&index, index.len(), part),
                    whole,
                    "written in parts of {part}"
                );
                let back = read(&whole, part).unwrap();
                assert_eq!(back.len(), index.len());
                assert_eq!(
                    back.max_quantisation_error(),
                    index.max_quantisation_error()
                );
                assert_eq!(back.classes, index.classes);
                let query = embedding(10 + 3 * 350, dim);
                assert_eq!(
                    back.search(&query, 0.1, 50).unwrap(),
                    index.search(&query, 0.1, 50).unwrap()
                );
                let by_class = [(
                    &query,
                    index.stranger_fit(&query).unwrap().thresholds(0.0, 0.2),
                )];
                assert_eq!(
                    back.search_each(&by_class, 50).unwrap(),
                    index.search_each(&by_class, 50).unwrap()
                );
                assert_eq!(
                    back.similarity(&query, 10 + 3 * 699),
                    index.similarity(&query, 10 + 3 * 699)
                );
            }
        }
    }

    #[test]
    fn a_snapshot_of_the_first_rows_leaves_out_later_ones() {
        let mut index = index(128, 300);
        let mut writer = SnapshotWriter::new(200);
        let mut bytes = writer.next_part(&index, 5000).unwrap().unwrap();
        // Rows appended meanwhile are not part of it.
        index.insert(99_999, 1, &embedding(7, 128)).unwrap();
        while let Some(p) = writer.next_part(&index, 5000).unwrap() {
            bytes.extend(p);
        }
        let back = read(&bytes, 4096).unwrap();
        assert_eq!(back.len(), 200);
        assert_eq!(back.face_ids.last(), Some(&(10 + 3 * 199)));
        assert!(back.similarity(&embedding(7, 128), 99_999).is_none());
    }

    #[test]
    fn an_empty_index_makes_a_valid_snapshot() {
        let index = FaceIndex::new(512);
        let bytes = write(&index, 0, 1000);
        assert_eq!(bytes.len() as u64, snapshot_len(512, 0));
        assert!(read(&bytes, 5).unwrap().is_empty());
    }

    #[test]
    fn damaged_snapshots_are_refused() {
        let index = index(128, 50);
        let good = write(&index, 50, 1 << 16);
        let refused = |bytes: &[u8], expected: u64| {
            let mut reader = SnapshotReader::new(expected);
            let pushed = bytes.chunks(100).try_for_each(|p| reader.push(p));
            pushed.and_then(|()| reader.finish()).is_err()
        };
        assert!(!refused(&good, good.len() as u64));
        // A flipped bit anywhere: the checksum (or the header) catches it.
        for at in [0, 9, 13, 20, 40, 5000, good.len() - 30, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            assert!(refused(&bad, bad.len() as u64), "bit flipped at {at}");
        }
        // Cut short, or longer than its header says.
        assert!(refused(&good[..good.len() - 1], good.len() as u64));
        assert!(refused(&good[..good.len() - 1], good.len() as u64 - 1));
        let mut long = good.clone();
        long.push(0);
        assert!(refused(&long, long.len() as u64));
        // A header announcing a billion faces allocates nothing: its length is wrong.
        let mut huge = good.clone();
        huge[16..24].copy_from_slice(&1_000_000_000u64.to_le_bytes());
        assert!(refused(&huge[..HEADER], good.len() as u64));
        // A repeated face id, with a checksum made to match.
        let mut twice = index.clone();
        let last = twice.len() - 1;
        twice.face_ids[last] = twice.face_ids[0];
        assert!(refused(&write(&twice, 50, 1 << 16), good.len() as u64));
        // A width class no face has, with a checksum made to match.
        let mut wide = index.clone();
        wide.classes[3] = SIZE_CLASSES as u8;
        assert!(refused(&write(&wide, 50, 1 << 16), good.len() as u64));
        // A snapshot of the version before width classes.
        let mut old = good.clone();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(refused(&old, old.len() as u64));
    }
}
