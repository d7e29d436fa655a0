//! The IMP scale (rules §5) on exact differences.
//!
//! A difference is `ms − average`, where the average of n results is a fraction; it is kept
//! as `num / den` (den = n), and compared with the brackets in integers, so a difference of
//! exactly 2, 6, 10 … always lands in the upper bracket.

use std::fmt;

/// Lower bounds of |DIF| for 1, 2, … 20 IMP.
pub const BRACKETS: [i64; 20] = [
    2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296,
];

/// An exact difference `num / den` (den > 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dif {
    /// Numerator.
    pub num: i64,
    /// Denominator (positive).
    pub den: i64,
}

impl Dif {
    /// `value − sum / n`.
    pub fn from_average(value: i64, sum: i64, n: i64) -> Dif {
        Dif {
            num: value * n - sum,
            den: n,
        }
    }

    /// IMP for this difference, with its sign.
    pub fn imp(&self) -> i32 {
        table::points::imp_of_dif(self.num, self.den)
    }

    /// The value as a float, for printing and JSON.
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// Writes a fraction as a decimal when it has one of at most four places (quarters and
/// the like), otherwise rounded to two places.
impl fmt::Display for Dif {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scaled = self.num * 10_000;
        if scaled % self.den == 0 {
            let v = scaled / self.den;
            let sign = if v < 0 { "-" } else { "" };
            let v = v.abs();
            let (int, frac) = (v / 10_000, v % 10_000);
            if frac == 0 {
                write!(f, "{sign}{int}")
            } else {
                let s = format!("{frac:04}");
                write!(f, "{sign}{int}.{}", s.trim_end_matches('0'))
            }
        } else {
            write!(f, "{:.2}", self.to_f64())
        }
    }
}

/// IMP for an integer difference.
pub fn imp_of(dif: i64) -> i32 {
    Dif { num: dif, den: 1 }.imp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_are_half_open() {
        let cases = [
            (0, 0),
            (1, 0),
            (2, 1),
            (5, 1),
            (6, 2),
            (9, 2),
            (10, 3),
            (15, 3),
            (16, 4),
            (23, 4),
            (24, 5),
            (31, 5),
            (32, 6),
            (40, 7),
            (48, 8),
            (56, 9),
            (64, 10),
            (72, 11),
            (83, 11),
            (84, 12),
            (96, 13),
            (108, 14),
            (131, 14),
            (132, 15),
            (156, 16),
            (180, 17),
            (212, 18),
            (244, 19),
            (295, 19),
            (296, 20),
            (1000, 20),
        ];
        for (d, want) in cases {
            assert_eq!(imp_of(d), want, "{d}");
            assert_eq!(imp_of(-d), -want, "-{d}");
        }
        // Exactly 2 is in the upper bracket even as a fraction 8/4.
        assert_eq!(Dif { num: 8, den: 4 }.imp(), 1);
        assert_eq!(Dif { num: 7, den: 4 }.imp(), 0);
    }

    #[test]
    fn decimals() {
        assert_eq!(Dif::from_average(-8, -65, 4).to_string(), "8.25");
        assert_eq!(Dif::from_average(-45, -65, 4).to_string(), "-28.75");
        assert_eq!(Dif { num: 1, den: 3 }.to_string(), "0.33");
        assert_eq!(Dif { num: 12, den: 4 }.to_string(), "3");
    }
}
