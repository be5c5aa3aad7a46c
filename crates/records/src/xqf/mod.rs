//! XQF, the binary game format of XQStudio.
//!
//! A 1024-byte header (signature `XQ`, version, keys, the 32 piece positions, side to move,
//! result, GBK text fields) is followed by move records from offset 0x400 in tree order: a
//! record, then the records of the moves after it, then the records of its alternatives. Each
//! record holds the origin and target (X*10+Y, plus 0x18 and 0x20), flags, a reserved byte,
//! and a comment length and GBK comment. The first record is empty and carries the comment
//! on the game.
//!
//! Versions 1.1 and later are encrypted (see the `cipher` module for the derivation); they
//! are read, and version 1.0 is written. The side to move is taken from the first move when
//! it disagrees with the header. Tags map to the header fields Title, Event, Date, Site, Red,
//! Black, Opening, RedTime, BlackTime, Annotator and Author. XQF keeps no move counters: the
//! start position is read with the clocks at 0 and 1.

mod cipher;
mod layout;
mod reader;
mod writer;

pub use reader::read;
pub use writer::{MAX_COMMENT_BYTES, write};
