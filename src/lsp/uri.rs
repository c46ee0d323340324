//! `file://` URIs and paths. Editors name documents by URI; the loader names files by path.

use lsp_types::Uri;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The path a `file://` URI names (`None` for other schemes). Percent escapes are decoded;
/// `file:///C:/x` becomes `C:/x` on Windows.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    // Drop an authority (`file://host/path`): the path starts at the first `/`.
    let path = rest.get(rest.find('/')?..)?;
    let decoded = percent_decode(path)?;
    let decoded = if cfg!(windows) {
        decoded
            .strip_prefix('/')
            .map_or(decoded.clone(), str::to_owned)
    } else {
        decoded
    };
    Some(crate::load::fs::normalize(Path::new(&decoded)))
}

/// The `file://` URI of an absolute path.
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_paths_with_spaces_and_unicode() {
        let p = Path::new("/data/my set/é_stats.lst");
        let uri = from_path(p).unwrap();
        assert_eq!(uri.as_str(), "file:///data/my%20set/%C3%A9_stats.lst");
        assert_eq!(to_path(&uri).unwrap(), p);
    }

    #[test]
    fn other_schemes_have_no_path() {
        let uri = Uri::from_str("untitled:Untitled-1").unwrap();
        assert!(to_path(&uri).is_none());
    }
}
