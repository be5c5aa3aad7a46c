//! Trains the engine's NNUE evaluation on the CPU from `xiangqi datagen` files: a loader that
//! replays the games and keeps the quiet positions, a float network, Adam, a multi-threaded
//! training loop, checkpoints, and the writer of the engine's quantised network file.

pub mod checkpoint;
pub mod dataset;
pub mod loader;
pub mod model;
pub mod optimiser;
pub mod quantise;
pub mod rng;
pub mod train;
