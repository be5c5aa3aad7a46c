//! Where things stand in an XQF file: the 1024-byte header and the move records after it.

/// Length of the header; the move records start here.
pub(crate) const HEADER_LEN: usize = 0x400;
/// The signature at offset 0.
pub(crate) const MAGIC: &[u8; 2] = b"XQ";
/// Offset of the version byte (10 = 1.0; 11 and later are encrypted).
pub(crate) const VERSION: usize = 0x02;
/// The version written: 1.0, not encrypted.
pub(crate) const PLAIN_VERSION: u8 = 10;
/// Offset of the key mask.
pub(crate) const KEY_MASK: usize = 0x03;
/// Offset of the four key bytes OR-ed into the key stream (A, B, C, D).
pub(crate) const KEY_OR: usize = 0x08;
/// Offset of the key checksum byte.
pub(crate) const KEYS_SUM: usize = 0x0C;
/// Offset of the key for piece positions.
pub(crate) const KEY_XY: usize = 0x0D;
/// Offset of the key for move origins.
pub(crate) const KEY_XYF: usize = 0x0E;
/// Offset of the key for move targets.
pub(crate) const KEY_XYT: usize = 0x0F;
/// Offset of the 32 piece positions, each X*10+Y from Red's bottom left, > 89 for none.
pub(crate) const PIECES: usize = 0x10;
/// Offset of the side to move: 0 Red, 1 Black.
pub(crate) const SIDE_TO_MOVE: usize = 0x32;
/// Offset of the result: 0 unknown, 1 Red wins, 2 Black wins, 3 draw.
pub(crate) const RESULT: usize = 0x33;
/// Offset of the number of move records (a 32-bit little-endian count).
pub(crate) const RECORD_COUNT: usize = 0x34;
/// Offset of the kind of record: 0 whole game, 1 opening, 2 middle game, 3 endgame.
pub(crate) const GAME_TYPE: usize = 0x40;
/// A position byte that stands for "no such piece".
pub(crate) const NO_PIECE: u8 = 0xFF;

/// A text field of the header: a length byte, then that many GBK bytes.
pub(crate) struct TextField {
    /// Offset of the length byte.
    pub offset: usize,
    /// Bytes the field takes, the length byte included.
    pub size: usize,
    /// The tag it holds.
    pub tag: &'static str,
}

/// The header's text fields and the tags they hold.
pub(crate) const TEXT_FIELDS: [TextField; 11] = [
    TextField {
        offset: 0x50,
        size: 64,
        tag: "Title",
    },
    TextField {
        offset: 0xD0,
        size: 64,
        tag: "Event",
    },
    TextField {
        offset: 0x110,
        size: 16,
        tag: "Date",
    },
    TextField {
        offset: 0x120,
        size: 16,
        tag: "Site",
    },
    TextField {
        offset: 0x130,
        size: 16,
        tag: "Red",
    },
    TextField {
        offset: 0x140,
        size: 16,
        tag: "Black",
    },
    TextField {
        offset: 0x150,
        size: 64,
        tag: "Opening",
    },
    TextField {
        offset: 0x190,
        size: 16,
        tag: "RedTime",
    },
    TextField {
        offset: 0x1A0,
        size: 16,
        tag: "BlackTime",
    },
    TextField {
        offset: 0x1D0,
        size: 16,
        tag: "Annotator",
    },
    TextField {
        offset: 0x1E0,
        size: 16,
        tag: "Author",
    },
];

/// Added to a move's origin X*10+Y in its record.
pub(crate) const FROM_BIAS: u8 = 0x18;
/// Added to a move's target X*10+Y in its record.
pub(crate) const TO_BIAS: u8 = 0x20;

/// Record flags of version 1.0: a next move follows (any bit of the high nibble) …
pub(crate) const PLAIN_NEXT: u8 = 0xF0;
/// … an alternative follows (any bit of the low nibble). Every record has a comment length.
pub(crate) const PLAIN_SIBLING: u8 = 0x0F;
/// Record flags of encrypted versions: a next move follows …
pub(crate) const NEXT: u8 = 0x80;
/// … an alternative to this move follows …
pub(crate) const SIBLING: u8 = 0x40;
/// … a comment length and comment follow.
pub(crate) const COMMENT: u8 = 0x20;

/// X*10+Y of a board point (X the file from Red's left, Y the rank from Red's side).
pub(crate) fn xy(file: u8, rank: u8) -> u8 {
    file * 10 + rank
}
