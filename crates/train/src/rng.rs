//! Random draws for weight initialisation, shuffling and the validation split, on the
//! engine's seeded generator, so that a run is reproducible from its seed.

pub use xiangqi_engine::random::SplitMix64 as Rng;

/// A number in `[-limit, limit)` drawn from `rng`.
pub fn symmetric(rng: &mut Rng, limit: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (unit * 2.0 - 1.0) * limit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_draws_stay_in_range_and_take_both_signs() {
        let mut rng = Rng::new(3);
        let draws: Vec<f32> = (0..10_000).map(|_| symmetric(&mut rng, 0.5)).collect();
        assert!(draws.iter().all(|x| (-0.5..0.5).contains(x)));
        assert!(draws.iter().any(|&x| x < -0.4) && draws.iter().any(|&x| x > 0.4));
    }
}
