//! Finding and reading PCC/LST dataset files, game modes and load order; token lines.
