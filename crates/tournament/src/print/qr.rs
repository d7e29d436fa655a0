//! QR codes as path data for an inline SVG, so a printed table card takes a phone straight
//! to its score-entry page (no image files, no scripts).

use qrcode::{Color, EcLevel, QrCode};
use serde::Serialize;

/// Modules of white border the QR standard asks for around the code.
const QUIET: usize = 4;

/// The dark modules of `text`'s QR code (error correction M), row by row, with the
/// side length; `None` if the text is too long for a QR code.
pub fn modules(text: &str) -> Option<(usize, Vec<bool>)> {
    let code = QrCode::with_error_correction_level(text, EcLevel::M).ok()?;
    let dark = code
        .to_colors()
        .into_iter()
        .map(|c| c == Color::Dark)
        .collect();
    Some((code.width(), dark))
}

/// A QR code drawn as one path of unit squares (SVG path data, `M x y h1v1h-1z` a dark
/// module) in a square of `side` units that includes the quiet zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QrPicture {
    /// The side of the square, quiet zone included.
    pub side: usize,
    /// The dark modules as path data.
    pub path: String,
}

/// `text`'s QR code as a picture; `None` if the text is too long for a QR code.
pub fn picture(text: &str) -> Option<QrPicture> {
    let (w, dark) = modules(text)?;
    let mut path = String::new();
    for (i, _) in dark.iter().enumerate().filter(|(_, d)| **d) {
        let (x, y) = (i % w + QUIET, i / w + QUIET);
        path.push_str(&format!("M{x} {y}h1v1h-1z"));
    }
    Some(QrPicture {
        side: w + 2 * QUIET,
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the squares back out of the path and decodes the picture with an independent
    /// QR decoder.
    fn decode(p: &QrPicture) -> String {
        let side = p.side;
        let mut grid = vec![false; side * side];
        for sq in p.path.split('M').filter(|s| !s.is_empty()) {
            let xy: Vec<usize> = sq
                .split('h')
                .next()
                .unwrap()
                .split(' ')
                .map(|n| n.parse().unwrap())
                .collect();
            grid[xy[1] * side + xy[0]] = true;
        }
        let scale = 6;
        let mut img =
            rqrr::PreparedImage::prepare_from_greyscale(side * scale, side * scale, |x, y| {
                if grid[(y / scale) * side + x / scale] {
                    0
                } else {
                    255
                }
            });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1);
        grids[0].decode().unwrap().1
    }

    #[test]
    fn the_picture_decodes_to_the_address() {
        let url = "https://mahjong.example.org:8080/events/12/table?table=7&code=K7PX3MQA";
        let p = picture(url).unwrap();
        assert_eq!(decode(&p), url);
        assert!(
            picture(&"x".repeat(5000)).is_none(),
            "too long for a QR code"
        );
    }
}
