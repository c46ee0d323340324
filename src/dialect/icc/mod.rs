//! ICC formula.
