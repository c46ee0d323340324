//! Where prerequisites sit in an old-system token: as the token itself (`PRESIZEEQ:M`), or
//! as a field inside another token's value (`BONUS:…|PREVARGT:TL,2`, `PREMULT:1,[PRE…]`,
//! `DESC:…|!PRESIZEGT:G`). PCGen parses each as it reads the line; the reference checks and
//! the old-formula checks both find them here.

/// One prerequisite found in a token's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Embedded<'t> {
    /// Its name without `!` (`PREVARGT`).
    pub name: &'t str,
    /// Its value: up to the first `|`, or the `)`/`]` closing what holds it.
    pub value: &'t str,
    /// Where the value starts in the token's text.
    pub value_start: usize,
}

/// The search for `PRE`, made once (a token's text is short: setting up `str::find`'s
/// searcher cost more than the search).
static PRE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new("PRE"));

/// Whether `token` holds `PRE` anywhere: without it, [`embedded`] finds nothing.
pub fn may_hold_one(token: &str) -> bool {
    PRE.find(token.as_bytes()).is_some()
}

/// Every prerequisite in `token` (a token's whole text), in order: a `PRExxx:` at the
/// token's start or after `|`, `[` or `!`, whose name is upper-case letters.
pub fn embedded(token: &str) -> Vec<Embedded<'_>> {
    let bytes = token.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = token.get(from..).and_then(|r| PRE.find(r.as_bytes())) {
        let start = from + p;
        from = start + 3;
        let opens = |i: usize| i == 0 || matches!(bytes.get(i - 1), Some(b'|' | b'['));
        let negated = start > 0 && bytes.get(start - 1) == Some(&b'!');
        if !(opens(start) || negated && opens(start - 1)) {
            continue;
        }
        let rest = &token[start..];
        let Some(colon) = rest.find(':') else {
            continue;
        };
        let name = &rest[..colon];
        if !name.bytes().all(|b| b.is_ascii_uppercase()) {
            continue;
        }
        let value_start = start + colon + 1;
        let body = &token[value_start..];
        // The value ends at the first `|`, or at the `)`/`]` closing what holds the token.
        let (mut depth, mut end) = (0i32, body.len());
        for (i, b) in body.bytes().enumerate() {
            match b {
                b'|' => {
                    end = i;
                    break;
                }
                b'(' | b'[' => depth += 1,
                b')' | b']' if depth == 0 => {
                    end = i;
                    break;
                }
                b')' | b']' => depth -= 1,
                _ => {}
            }
        }
        out.push(Embedded {
            name,
            value: &body[..end],
            value_start,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(token: &str) -> Vec<(&str, &str)> {
        embedded(token).iter().map(|e| (e.name, e.value)).collect()
    }

    #[test]
    fn finds_prerequisites_wherever_they_sit() {
        assert_eq!(found("PRESIZEEQ:M"), [("PRESIZEEQ", "M")]);
        assert_eq!(
            found("BONUS:SKILL|Hide|4|PRESIZELTEQ:S|!PREVARGT:COUNT[FEATS],2|TYPE=Size"),
            [("PRESIZELTEQ", "S"), ("PREVARGT", "COUNT[FEATS],2")]
        );
        assert_eq!(
            found("PREMULT:1,[PREVAREQ:x,1],[!PREFACT:1,ABILITIES,A=True]"),
            [
                ("PREMULT", "1,[PREVAREQ:x,1],[!PREFACT:1,ABILITIES,A=True]"),
                ("PREVAREQ", "x,1"),
                ("PREFACT", "1,ABILITIES,A=True"),
            ]
        );
        // Inside a word, or a name that is not upper case, is no prerequisite.
        assert!(found("DESC:XPREVARGT:1,2").is_empty());
        assert!(found("DESC:a|Prefix:1").is_empty());
    }
}
