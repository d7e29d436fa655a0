//! Ranks shared by equal lines, as every standings here gives them: an event's, a
//! challenge's and a season's.

/// The ranks of lines already in order: one more than the lines before, or the rank of the
/// line before when `key` is equal (a shared rank, S3 §19).
pub fn shared<T, K: PartialEq>(lines: &[T], key: impl Fn(&T) -> K) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        let tied = i > 0 && key(l) == key(&lines[i - 1]);
        out.push(if tied { out[i - 1] } else { i + 1 });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_lines_share_a_rank_and_the_next_skips_it() {
        let imp = [10, 10, 8, 8, 8, 5];
        assert_eq!(super::shared(&imp, |x| *x), [1, 1, 3, 3, 3, 6]);
        assert!(super::shared(&[] as &[i32], |x| *x).is_empty());
    }
}
