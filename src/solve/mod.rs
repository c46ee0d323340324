//! The solver: dependency graph of variable instances, modifier ordering, incremental evaluation, explanations.
