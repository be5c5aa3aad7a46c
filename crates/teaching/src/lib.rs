//! The rules course: lessons kept as TOML data files (`lessons/`), embedded in the binary,
//! read into a typed model and checked against the rules core.
