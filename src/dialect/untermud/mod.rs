//! UnterMUD locks.
