//! The playing levels the app names.

use xiangqi_engine::levels::MAX_LEVEL;

/// The named levels, weakest first.
pub const NAMED_LEVELS: [(&str, u32); 6] = [
    ("beginner", 0),
    ("casual", 4),
    ("club", 8),
    ("strong", 12),
    ("expert", 16),
    ("full", MAX_LEVEL),
];
