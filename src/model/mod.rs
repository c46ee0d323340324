//! The data model built from token lines (scopes, variables, modifiers, objects) and every load-time check.
