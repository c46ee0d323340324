//! "Did you mean": the closest known name to a mistyped one.

/// The closest of `candidates` to `wanted`: an exact match ignoring case first, then the
/// smallest edit distance (case-insensitive, a swap of two neighbours counts once) of at most
/// a third of the length rounded up. Ties prefer the candidate of the same length, then the
/// first in alphabetical order. No suggestion for names over 100 characters.
pub fn suggest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let chars = wanted.chars().count();
    if chars > 100 {
        return None;
    }
    let limit = crate::name::suggestion_bound(chars);
    let wanted_l: Vec<char> = wanted.to_ascii_uppercase().chars().collect();
    candidates
        .into_iter()
        .filter(|c| c.chars().count().abs_diff(chars) <= limit)
        .map(|c| {
            let cl: Vec<char> = c.to_ascii_uppercase().chars().collect();
            (
                osa_distance(&wanted_l, &cl),
                c.chars().count().abs_diff(chars),
                c,
            )
        })
        .filter(|(d, _, _)| *d <= limit)
        .min()
        .map(|(_, _, c)| c)
}

/// Optimal-string-alignment distance: Levenshtein plus transposition of neighbours.
fn osa_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        if let Some(x) = d.get_mut(at(i, 0)) {
            *x = i;
        }
    }
    for j in 0..=b.len() {
        if let Some(x) = d.get_mut(j) {
            *x = j;
        }
    }
    let get = |d: &[usize], i: usize, j: usize| d.get(at(i, j)).copied().unwrap_or(usize::MAX / 2);
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let (ca, cb) = (a.get(i - 1), b.get(j - 1));
            let cost = usize::from(ca != cb);
            let mut v = (get(&d, i - 1, j) + 1)
                .min(get(&d, i, j - 1) + 1)
                .min(get(&d, i - 1, j - 1) + cost);
            if i > 1 && j > 1 && ca == b.get(j - 2) && a.get(i - 2) == cb {
                v = v.min(get(&d, i - 2, j - 2) + 1);
            }
            if let Some(x) = d.get_mut(at(i, j)) {
                *x = v;
            }
        }
    }
    get(&d, a.len(), b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_case_typo_and_swap() {
        let names = [
            "BONUS",
            "MODIFY",
            "MODIFYOTHER",
            "PREVARGT",
            "PREVARGTEQ",
            "KEY",
        ];
        assert_eq!(suggest("bonus", names), Some("BONUS"));
        assert_eq!(suggest("MODIFYOTHR", names), Some("MODIFYOTHER"));
        assert_eq!(suggest("MODIFFY", names), Some("MODIFY"));
        assert_eq!(suggest("PREVARGTQE", names), Some("PREVARGTEQ"));
        assert_eq!(suggest("XYZZY", names), None);
    }
}
