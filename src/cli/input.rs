//! Files named on the command line (`calc --character`, `dialect --context`, `conformance`):
//! only regular files of a bounded size are read, so a device (`/dev/zero`), a FIFO or a
//! folder gives a clear usage error instead of reading forever or blocking.

use std::io::Read;
use std::path::Path;

/// The largest file argument read, in bytes (64 MiB: far above any real character file,
/// context or vector file).
pub const MAX_INPUT: u64 = 64 << 20;

/// An error unless `path` is a regular file (links followed) of at most `limit` bytes.
pub fn check_file(path: &Path, what: &str, limit: u64) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{what} {}: {e}", path.display()))?;
    if meta.is_dir() {
        return Err(format!(
            "{what} {}: is a folder, not a file",
            path.display()
        ));
    }
    if !meta.is_file() {
        return Err(format!(
            "{what} {}: is not a regular file (a device, FIFO or socket cannot be read as one)",
            path.display()
        ));
    }
    if meta.len() > limit {
        return Err(format!(
            "{what} {}: is {} bytes; at most {limit} are read",
            path.display(),
            meta.len()
        ));
    }
    Ok(())
}

/// Reads a file argument checked by [`check_file`], stopping at `limit` bytes even if the
/// file grows meanwhile.
pub fn read_file(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    check_file(path, what, limit)?;
    let file = std::fs::File::open(path).map_err(|e| format!("{what} {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{what} {}: {e}", path.display()))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(format!("{what} {}: is over {limit} bytes", path.display()));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_devices_and_big_files_are_refused() {
        let dir = std::env::temp_dir();
        assert!(
            check_file(&dir, "--context", MAX_INPUT)
                .unwrap_err()
                .contains("folder")
        );
        let dev = Path::new("/dev/zero");
        if dev.exists() {
            assert!(
                check_file(dev, "--context", MAX_INPUT)
                    .unwrap_err()
                    .contains("not a regular file")
            );
        }
        let file = dir.join(format!("rulebook-input-{}.txt", std::process::id()));
        std::fs::write(&file, "0123456789").unwrap();
        assert!(
            check_file(&file, "--context", 5)
                .unwrap_err()
                .contains("10 bytes")
        );
        assert_eq!(read_file(&file, "--context", 10).unwrap().len(), 10);
        let _ = std::fs::remove_file(&file);
    }
}
