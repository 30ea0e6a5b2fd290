//! What the shop asks of the models, as two traits: [`FaceAnalyzer`] (faces found and
//! embedded in an event photo or a selfie) and [`BibReader`] (text lines read on a
//! photo). [`FaceEngine`] and [`TextReader`] run the real models; [`crate::testing`] holds
//! stand-ins for tests that are not about the models.

use crate::detect::BBox;
use crate::embed::Embedding;
use crate::engine::{AnalyzedFace, FaceEngine, SelfieFaces};
use crate::error::Result;
use crate::image_io::RgbImage;
use crate::ocr::{TextLine, TextReader};

/// Finds and embeds faces.
pub trait FaceAnalyzer: Send + Sync {
    /// The length of every embedding it makes.
    fn embedding_dim(&self) -> usize;
    /// The long edge an event photo should be decoded at, at least, for its passes.
    fn decode_long_edge(&self) -> u32;
    /// The long edge a selfie is decoded at.
    fn selfie_long_edge(&self) -> u32;
    /// The faces of an event photo that pass the quality gate, embedded.
    fn analyze(&self, img: &RgbImage) -> Result<Vec<AnalyzedFace>>;
    /// A selfie's primary face, embedded, and the boxes of all its faces; `None` without
    /// a face.
    fn analyze_selfie_faces(&self, img: &RgbImage) -> Result<Option<SelfieFaces>>;
    /// A face found in `img` seen from afar ([`crate::distant_view`]), embedded.
    fn embed_distant(&self, img: &RgbImage, face: &AnalyzedFace) -> Result<Embedding>;
}

/// Reads text lines on a photo, around the given faces.
pub trait BibReader: Send + Sync {
    /// The lines read; `faces` are in `img`'s pixels.
    fn read_photo(&self, img: &RgbImage, faces: &[BBox]) -> Result<Vec<TextLine>>;
}

impl FaceAnalyzer for FaceEngine {
    fn embedding_dim(&self) -> usize {
        FaceEngine::embedding_dim(self)
    }

    fn decode_long_edge(&self) -> u32 {
        FaceEngine::decode_long_edge(self)
    }

    fn selfie_long_edge(&self) -> u32 {
        self.config().detector.selfie_long_edge
    }

    fn analyze(&self, img: &RgbImage) -> Result<Vec<AnalyzedFace>> {
        FaceEngine::analyze(self, img)
    }

    fn analyze_selfie_faces(&self, img: &RgbImage) -> Result<Option<SelfieFaces>> {
        FaceEngine::analyze_selfie_faces(self, img)
    }

    fn embed_distant(&self, img: &RgbImage, face: &AnalyzedFace) -> Result<Embedding> {
        FaceEngine::embed_distant(self, img, face)
    }
}

impl BibReader for TextReader {
    fn read_photo(&self, img: &RgbImage, faces: &[BBox]) -> Result<Vec<TextLine>> {
        TextReader::read_photo(self, img, faces)
    }
}
