//! Character files (TOML).
