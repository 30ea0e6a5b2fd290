//! Greedy CTC decoding of a PaddleOCR recogniser's output, with the character list the
//! model carries in its ONNX metadata (key `character`, one character per line).
//!
//! The classes are, as PaddleOCR's `CTCLabelDecode` builds them: 0 the CTC blank, then
//! the listed characters in order, then a space appended as the last class. Decoding
//! takes the best class per time step, collapses repeats, drops blanks, and scores the
//! line by the mean probability of the kept steps.
//!
//! The bundled recogniser also knows thousands of CJK characters, and reads a bib's
//! printed border around a digit as 日 or 口. [`Charset::latin_classes`] names the blank
//! and the Latin, digit and punctuation classes; the reader cuts the recogniser down to
//! them (`model_file`) and decodes with their charset, [`Charset::only`].

/// The recogniser's classes (without the blank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charset {
    chars: Vec<String>,
}

impl Charset {
    /// From the metadata string: one character per line; a trailing newline or `\r` is
    /// not part of a character. The space PaddleOCR appends comes last.
    pub fn from_metadata(list: &str) -> Self {
        let mut chars: Vec<String> = list
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
            .collect();
        if list.ends_with('\n') {
            chars.pop();
        }
        chars.push(" ".to_string());
        Self { chars }
    }

    /// The blank and the classes of the Latin script (code points below U+0250: ASCII,
    /// Latin-1 and Latin Extended-A/B, the appended space included), in order.
    pub fn latin_classes(&self) -> Vec<usize> {
        let latin = |c: &str| c.chars().all(|ch| (ch as u32) < 0x250);
        std::iter::once(0)
            .chain(
                self.chars
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| latin(c))
                    .map(|(i, _)| i + 1),
            )
            .collect()
    }

    /// The charset of a recogniser cut to `classes` (as [`Self::latin_classes`] gives
    /// them: the blank first, then classes of this charset in order).
    pub fn only(&self, classes: &[usize]) -> Self {
        Self {
            chars: classes
                .iter()
                .filter_map(|&k| self.get(k).map(str::to_string))
                .collect(),
        }
    }

    /// Classes the model must answer: the characters, the appended space and the blank.
    pub fn classes(&self) -> usize {
        self.chars.len() + 1
    }

    /// The text of class `k` (1-based; 0 is the blank).
    fn get(&self, k: usize) -> Option<&str> {
        k.checked_sub(1)
            .and_then(|i| self.chars.get(i))
            .map(String::as_str)
    }
}

/// Decodes one line: `probs` is `steps * classes` softmax outputs, row per time step.
/// Returns the text and the mean probability of its kept steps (0 for an empty line).
/// Non-finite probabilities never win a step; a class beyond the charset adds no text.
pub fn decode(probs: &[f32], classes: usize, charset: &Charset) -> (String, f32) {
    let mut text = String::new();
    let mut sum = 0.0f32;
    let mut kept = 0usize;
    let mut previous = 0usize;
    if classes == 0 {
        return (text, 0.0);
    }
    for row in probs.chunks_exact(classes) {
        let (mut best, mut best_p) = (0usize, f32::NEG_INFINITY);
        for (k, &p) in row.iter().enumerate() {
            if p > best_p {
                best = k;
                best_p = p;
            }
        }
        if best != 0
            && best != previous
            && let Some(c) = charset.get(best)
        {
            text.push_str(c);
            sum += best_p;
            kept += 1;
        }
        previous = best;
    }
    let confidence = if kept > 0 { sum / kept as f32 } else { 0.0 };
    (text, confidence)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// One-hot-ish rows: class `k` at probability `p`, the rest sharing what is left.
    fn rows(steps: &[(usize, f32)], classes: usize) -> Vec<f32> {
        let mut out = Vec::new();
        for &(k, p) in steps {
            let rest = (1.0 - p) / (classes - 1) as f32;
            out.extend((0..classes).map(|c| if c == k { p } else { rest }));
        }
        out
    }

    #[test]
    fn charset_appends_the_space_and_ignores_a_trailing_newline() {
        let c = Charset::from_metadata("0\n1\n2\nA\n");
        assert_eq!(c.classes(), 6);
        assert_eq!(c.get(0), None);
        assert_eq!(c.get(1), Some("0"));
        assert_eq!(c.get(4), Some("A"));
        assert_eq!(c.get(5), Some(" "));
        assert_eq!(c.get(6), None);
        assert_eq!(
            Charset::from_metadata("0\r\n1"),
            Charset::from_metadata("0\n1\n")
        );
    }

    #[test]
    fn collapses_repeats_drops_blanks_and_averages_kept_steps() {
        // Classes: blank, '1', '2', 'A', ' '.
        let c = Charset::from_metadata("1\n2\nA");
        let n = c.classes();
        // "A 1 1 _ 1 2 2 _" -> "A112" (a blank separates the two 1s).
        let p = rows(
            &[
                (3, 0.9),
                (1, 0.8),
                (1, 0.7),
                (0, 0.99),
                (1, 0.6),
                (2, 0.5),
                (2, 0.9),
                (0, 0.9),
            ],
            n,
        );
        let (text, conf) = decode(&p, n, &c);
        assert_eq!(text, "A112");
        // Kept: the first step of each run: 0.9, 0.8, 0.6, 0.5.
        assert!((conf - 0.7).abs() < 1e-6, "{conf}");
        let (space, _) = decode(&rows(&[(1, 0.9), (4, 0.9), (2, 0.9)], n), n, &c);
        assert_eq!(space, "1 2");
    }

    #[test]
    fn latin_classes_keep_the_blank_latin_and_the_space_in_order() {
        // Classes: blank, '3', '日', 'é', 'A', ' '.
        let c = Charset::from_metadata("3\n日\né\nA");
        let keep = c.latin_classes();
        assert_eq!(keep, vec![0, 1, 3, 4, 5]);
        let latin = c.only(&keep);
        assert_eq!(latin, Charset::from_metadata("3\né\nA"));
        assert_eq!(latin.classes(), keep.len());
        // The cut recogniser answers one probability per kept class.
        let n = latin.classes();
        let p = rows(&[(1, 0.9), (0, 0.9), (2, 0.8), (4, 0.9), (3, 0.7)], n);
        assert_eq!(decode(&p, n, &latin).0, "3é A");
    }

    #[test]
    fn empty_and_broken_outputs_decode_to_nothing() {
        let c = Charset::from_metadata("1\n2");
        assert_eq!(decode(&[], 4, &c), (String::new(), 0.0));
        assert_eq!(decode(&[0.1; 8], 0, &c), (String::new(), 0.0));
        let blanks = rows(&[(0, 0.9), (0, 0.9)], 4);
        assert_eq!(decode(&blanks, 4, &c), (String::new(), 0.0));
        let (t, conf) = decode(&[f32::NAN; 8], 4, &c);
        assert_eq!((t.as_str(), conf), ("", 0.0));
        // A class past the charset (a model with more outputs) is skipped, not a panic.
        let (t, _) = decode(&rows(&[(5, 0.9)], 6), 6, &c);
        assert_eq!(t, "");
    }
}
