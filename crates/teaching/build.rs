//! Compresses the shipped puzzle set (`puzzles/puzzles.tsv`) into the build folder, so that the
//! binary carries it deflated; `puzzles::shipped_tsv` inflates it once when it is first read.

use std::path::PathBuf;

fn main() {
    let source = "puzzles/puzzles.tsv";
    println!("cargo::rerun-if-changed={source}");
    let text = std::fs::read(source).expect("the shipped puzzle set is readable");
    let deflated = miniz_oxide::deflate::compress_to_vec(&text, 10);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("puzzles.tsv.deflate"), deflated)
        .expect("the build folder is writable");
}
