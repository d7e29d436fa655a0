//! QR codes as inline SVG, so a printed table card takes a phone straight to its
//! score-entry page (no image files, no scripts).

use qrcode::{Color, EcLevel, QrCode};

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

/// An SVG of `text`'s QR code, `size_mm` wide, one path of unit squares in a viewBox
/// that includes the quiet zone.
pub fn svg(text: &str, size_mm: u32) -> Option<String> {
    let (w, dark) = modules(text)?;
    let mut path = String::new();
    for (i, _) in dark.iter().enumerate().filter(|(_, d)| **d) {
        let (x, y) = (i % w + QUIET, i / w + QUIET);
        path.push_str(&format!("M{x} {y}h1v1h-1z"));
    }
    let side = w + 2 * QUIET;
    Some(format!(
        "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         width=\"{size_mm}mm\" height=\"{size_mm}mm\" shape-rendering=\"crispEdges\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/><path fill=\"#000\" d=\"{path}\"/></svg>"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the squares back out of the SVG and decodes the picture with an independent
    /// QR decoder.
    fn decode(svg: &str) -> String {
        let side: usize = svg
            .split("viewBox=\"0 0 ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut grid = vec![false; side * side];
        for sq in d.split('M').filter(|s| !s.is_empty()) {
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
    fn the_svg_decodes_to_the_address() {
        let url = "https://mahjong.example.org:8080/events/12/table?table=7&code=K7PX3MQA";
        let s = svg(url, 50).unwrap();
        assert!(s.contains("width=\"50mm\""));
        assert_eq!(decode(&s), url);
        assert!(
            svg(&"x".repeat(5000), 50).is_none(),
            "too long for a QR code"
        );
    }
}
