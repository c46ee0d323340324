//! The character API: a loaded dataset, characters built from granted objects, typed variable reads.
