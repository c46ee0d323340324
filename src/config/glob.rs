//! Path globs of `rulebook.toml`'s `[[paths]]` tables: `*` any characters but `/`, `**` as a
//! whole segment any number of segments, `?` one character but `/`; everything else stands
//! for itself. Paths are `/`-separated and relative to the folder of the config file.
//!
//! Written here rather than taken from a crate: these three wildcards are all a config file
//! needs, and they fit in one small function.

/// A compiled glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    /// The glob's segments (split at `/`).
    segments: Vec<String>,
}

impl Glob {
    /// The glob `text` (a trailing `/` means everything below: `old/` is `old/**`).
    pub fn new(text: &str) -> Self {
        let mut segments: Vec<String> = text
            .trim_start_matches("./")
            .split('/')
            .map(str::to_owned)
            .collect();
        if segments.last().is_some_and(String::is_empty) {
            segments.pop();
            segments.push("**".to_owned());
        }
        Glob { segments }
    }

    /// Whether `path` (`/`-separated, relative) matches.
    pub fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let segments: Vec<&str> = self.segments.iter().map(String::as_str).collect();
        segments_match(&segments, &parts)
    }
}

fn segments_match(glob: &[&str], path: &[&str]) -> bool {
    match glob.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| segments_match(rest, &path[skip..])),
        Some((first, rest)) => path
            .split_first()
            .is_some_and(|(p, tail)| segment_matches(first, p) && segments_match(rest, tail)),
    }
}

/// One segment against one path part: `*` and `?` within it.
fn segment_matches(glob: &str, part: &str) -> bool {
    let (glob, part): (Vec<char>, Vec<char>) = (glob.chars().collect(), part.chars().collect());
    // The classic two-pointer match with one backtrack point for the last `*`.
    let (mut g, mut p, mut star, mut mark) = (0, 0, None, 0);
    while p < part.len() {
        match glob.get(g) {
            Some('*') => {
                star = Some(g);
                mark = p;
                g += 1;
            }
            Some(&c) if c == '?' || c == part[p] => {
                g += 1;
                p += 1;
            }
            _ => match star {
                Some(s) => {
                    g = s + 1;
                    mark += 1;
                    p = mark;
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_within_and_across_segments() {
        let m = |g: &str, p: &str| Glob::new(g).matches(p);
        assert!(m("data/homebrew/**", "data/homebrew/a/b.lst"));
        assert!(m("data/homebrew/", "data/homebrew/b.lst"));
        assert!(!m("data/homebrew/**", "data/other/b.lst"));
        assert!(m("**/*.lst", "data/a/b.lst"));
        assert!(m("**/*.lst", "b.lst"));
        assert!(!m("*.lst", "data/b.lst"));
        assert!(m("data/*_feats.lst", "data/core_feats.lst"));
        assert!(m("data/?.lst", "data/a.lst"));
        assert!(!m("data/?.lst", "data/ab.lst"));
        assert!(m("./data/a*b*c", "data/aXXbYYc"));
        assert!(!m("data/a*b*c", "data/aXXbYY"));
    }
}
