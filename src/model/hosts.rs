//! The functions the model provides to formulas besides the built-ins (`input`, `lookup`,
//! `getFact`, `get`): one list, whose order is the numbering of the [`HostFnRef`] handles
//! the model's environment hands out and the character's environment calls.

use crate::formula::HostFnRef;

/// A host function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostFn {
    /// `input(channel)`: a channel's value.
    Input,
    /// `lookup(table, key, column[, type])`: a DATATABLE cell.
    Lookup,
    /// `getFact(type, key, fact)`: an object's FACT.
    GetFact,
    /// `get(type, key)`: an object.
    Get,
}

impl HostFn {
    /// Every host function, in handle order.
    pub const ALL: [HostFn; 4] = [HostFn::Input, HostFn::Lookup, HostFn::GetFact, HostFn::Get];

    /// Its name as formulas write it.
    pub const fn name(self) -> &'static str {
        match self {
            HostFn::Input => "input",
            HostFn::Lookup => "lookup",
            HostFn::GetFact => "getFact",
            HostFn::Get => "get",
        }
    }

    /// The host function called `name` (any ASCII case).
    pub fn named(name: &str) -> Option<HostFn> {
        HostFn::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
    }

    /// Its handle.
    pub const fn handle(self) -> HostFnRef {
        HostFnRef(self as u32)
    }

    /// The host function of `handle`.
    pub fn of(handle: HostFnRef) -> Option<HostFn> {
        HostFn::ALL.get(handle.0 as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::HostFn;

    #[test]
    fn handles_and_names_go_both_ways() {
        for h in HostFn::ALL {
            assert_eq!(HostFn::of(h.handle()), Some(h));
            assert_eq!(HostFn::named(&h.name().to_ascii_uppercase()), Some(h));
        }
        assert_eq!(HostFn::named("nope"), None);
    }
}
