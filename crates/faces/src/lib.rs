//! Face engine: SCRFD detection, 5-point alignment, ArcFace-style embeddings and the
//! per-event in-memory face index. Knows nothing of HTTP or SQL.
