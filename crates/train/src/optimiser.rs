//! Adam: per-parameter step sizes from running averages of the gradient and its square, with
//! optional decoupled weight decay (AdamW).

use xiangqi_engine::memory::filled_in_huge_pages;

/// Moments smaller than this are set to zero. They no longer move a parameter, and a moment
/// left to decay ends up subnormal, where each step on it is many times slower (the rounding of
/// a subnormal times 0.9 or 0.999 can keep it there for good).
const MOMENT_FLOOR: f32 = 1e-30;

/// Adam's state: the running first and second moments and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// Exponential decay of the first moment.
    pub beta1: f32,
    /// Exponential decay of the second moment.
    pub beta2: f32,
    /// Added to the root of the second moment to keep steps finite.
    pub epsilon: f32,
    /// Running average of gradients.
    pub first: Vec<f32>,
    /// Running average of squared gradients.
    pub second: Vec<f32>,
    /// Steps taken so far.
    pub steps: u64,
}

impl Adam {
    /// Fresh state for `params` parameters with the usual constants (0.9, 0.999, 1e-8).
    pub fn new(params: usize) -> Adam {
        Adam {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            first: filled_in_huge_pages(params, 0.0),
            second: filled_in_huge_pages(params, 0.0),
            steps: 0,
        }
    }

    /// One step of size `lr` along `grads`; each parameter also shrinks by `lr · weight_decay`
    /// of itself (0: plain Adam).
    pub fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32, weight_decay: f32) {
        assert_eq!(params.len(), grads.len(), "one gradient per parameter");
        assert_eq!(
            params.len(),
            self.first.len(),
            "optimiser state sized for these parameters"
        );
        let step = self.next_step(lr, weight_decay);
        step.apply(
            params,
            grads,
            &mut self.first,
            &mut self.second,
            f32::INFINITY,
        );
    }

    /// Counts a step and returns its constants, to apply to the parameters part by part
    /// (e.g. on several threads) with [`Step::apply`].
    pub fn next_step(&mut self, lr: f32, weight_decay: f32) -> Step {
        self.steps += 1;
        let correction1 = 1.0 - self.beta1.powi(self.steps.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - self.beta2.powi(self.steps.min(i32::MAX as u64) as i32);
        Step {
            beta1: self.beta1,
            beta2: self.beta2,
            epsilon: self.epsilon,
            step_size: lr * correction2.sqrt() / correction1,
            keep: 1.0 - lr * weight_decay,
        }
    }
}

/// The constants of one Adam step, the same for every parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    beta1: f32,
    beta2: f32,
    epsilon: f32,
    step_size: f32,
    keep: f32,
}

impl Step {
    /// Moves each of `params` along its gradient in `grads`, updating its moments in `first`
    /// and `second` (the same part of the optimiser's state), then keeps it within ±`limit`.
    pub fn apply(
        &self,
        params: &mut [f32],
        grads: &[f32],
        first: &mut [f32],
        second: &mut [f32],
        limit: f32,
    ) {
        let (b1, b2, eps) = (self.beta1, self.beta2, self.epsilon);
        for (((p, &g), m), v) in params.iter_mut().zip(grads).zip(first).zip(second) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            if m.abs() < MOMENT_FLOOR {
                *m = 0.0;
            }
            if *v < MOMENT_FLOOR {
                *v = 0.0;
            }
            *p = (*p * self.keep - self.step_size * *m / (v.sqrt() + eps)).clamp(-limit, limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_decay_shrinks_parameters_without_gradient() {
        let mut adam = Adam::new(2);
        let mut params = [1.0, -2.0];
        adam.step(&mut params, &[0.0, 0.0], 0.1, 0.5);
        assert!((params[0] - 0.95).abs() < 1e-6, "{params:?}");
        assert!((params[1] + 1.9).abs() < 1e-6, "{params:?}");
    }

    #[test]
    fn first_step_moves_each_parameter_by_the_learning_rate_against_its_gradient() {
        let mut adam = Adam::new(3);
        let mut params = [1.0, 1.0, 1.0];
        adam.step(&mut params, &[0.5, -2.0, 0.0], 0.01, 0.0);
        assert!((params[0] - 0.99).abs() < 1e-5);
        assert!((params[1] - 1.01).abs() < 1e-5);
        assert_eq!(params[2], 1.0);
    }

    /// A parameter whose gradient stops sees its moments decay to exactly zero, never
    /// lingering as subnormal numbers.
    #[test]
    fn moments_without_gradient_decay_to_zero_not_to_subnormals() {
        let mut adam = Adam::new(1);
        let mut params = [0.5f32];
        adam.step(&mut params, &[1e-3], 0.001, 0.0);
        for _ in 0..100_000 {
            adam.step(&mut params, &[0.0], 0.001, 0.0);
            for moment in [adam.first[0], adam.second[0]] {
                assert!(moment == 0.0 || moment.is_normal(), "{moment:e}");
            }
        }
        assert_eq!((adam.first[0], adam.second[0]), (0.0, 0.0));
    }

    #[test]
    fn minimises_a_quadratic() {
        let mut adam = Adam::new(2);
        let mut params = [3.0f32, -4.0];
        for _ in 0..2000 {
            let grads = [2.0 * (params[0] - 1.0), 2.0 * (params[1] + 2.0)];
            adam.step(&mut params, &grads, 0.05, 0.0);
        }
        assert!((params[0] - 1.0).abs() < 0.01, "{params:?}");
        assert!((params[1] + 2.0).abs() < 0.01, "{params:?}");
    }
}
