//! Older formula languages on the same core: FICS and ICC match formulas, UnterMUD locks.
