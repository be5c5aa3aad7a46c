//! The integer kernels of the network: accumulator rows added and taken away, and the output
//! layer. AVX2 through `std::arch` when the processor has it (checked once at run time), plain
//! Rust otherwise and on other architectures. Both give the same results bit for bit: i16
//! lanes wrap the same way in both, and the output's i32 lanes cannot overflow for the weight
//! ranges the loader accepts (see [`super::net`]).

/// i16 values in one [`Chunk`].
pub const CHUNK_LEN: usize = 16;

/// Sixteen i16 values aligned to 32 bytes: one AVX2 register. Rows of weights and
/// accumulators are stored as slices of chunks so that every row is aligned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Chunk(pub [i16; CHUNK_LEN]);

/// The clipping ceiling of the squared clipped ReLU in quantised units.
const QA: i16 = super::net::QA as i16;

/// Which set of kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, on any processor.
    Scalar,
    /// AVX2 intrinsics; only constructed when the processor has AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
}

/// Proof that the processor has AVX2: made only by [`Backend::avx2`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2Token(());

impl Backend {
    /// The fastest backend this processor runs.
    pub fn detect() -> Backend {
        Backend::avx2().unwrap_or(Backend::Scalar)
    }

    /// The AVX2 backend, when the processor has AVX2.
    pub fn avx2() -> Option<Backend> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Backend::Avx2(Avx2Token(())));
        }
        None
    }

    /// `acc += row`, lane by lane (wrapping).
    #[inline]
    pub fn add(self, acc: &mut [Chunk], row: &[Chunk]) {
        assert_eq!(acc.len(), row.len());
        match self {
            Backend::Scalar => scalar::add(acc, row),
            // SAFETY: an `Avx2Token` exists only when the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::add(acc, row) },
        }
    }

    /// `dst = src + add - sub` (a quiet move: the piece leaves one point for another).
    #[inline]
    pub fn add_sub(self, dst: &mut [Chunk], src: &[Chunk], add: &[Chunk], sub: &[Chunk]) {
        let n = dst.len();
        assert!(src.len() == n && add.len() == n && sub.len() == n);
        match self {
            Backend::Scalar => scalar::add_sub(dst, src, add, sub),
            // SAFETY: as in `add`; the lengths are checked above.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::add_sub(dst, src, add, sub) },
        }
    }

    /// `dst = src + add - sub1 - sub2` (a capture: the mover leaves `sub1`'s point for
    /// `add`'s, and the captured piece, `sub2`, leaves the board).
    #[inline]
    pub fn add_sub_sub(
        self,
        dst: &mut [Chunk],
        src: &[Chunk],
        add: &[Chunk],
        sub1: &[Chunk],
        sub2: &[Chunk],
    ) {
        let n = dst.len();
        assert!(src.len() == n && add.len() == n && sub1.len() == n && sub2.len() == n);
        match self {
            Backend::Scalar => scalar::add_sub_sub(dst, src, add, sub1, sub2),
            // SAFETY: as in `add`; the lengths are checked above.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::add_sub_sub(dst, src, add, sub1, sub2) },
        }
    }

    /// The output layer before its bias and scaling:
    /// `Σ clamp(us[i], 0, QA)² · weights[i] + Σ clamp(them[i], 0, QA)² · weights[H + i]`,
    /// where `H` is the accumulator length and `weights` holds `2H` values.
    #[inline]
    pub fn output(self, us: &[Chunk], them: &[Chunk], weights: &[Chunk]) -> i64 {
        let n = us.len();
        assert!(them.len() == n && weights.len() == 2 * n);
        let (w_us, w_them) = weights.split_at(n);
        match self {
            Backend::Scalar => scalar::output(us, w_us) + scalar::output(them, w_them),
            // SAFETY: as in `add`; the lengths are checked above.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::output(us, them, w_us, w_them) },
        }
    }

    /// [`Backend::output`] for each of `sums.len()` rows of `2H` weights in `rows`, row `r`'s
    /// into `sums[r]`: the second hidden layer's sums before their biases. The accumulators
    /// are clamped once for all the rows.
    #[inline]
    pub fn outputs(self, us: &[Chunk], them: &[Chunk], rows: &[Chunk], sums: &mut [i64]) {
        let n = us.len();
        assert!(them.len() == n && n <= MAX_CHUNKS && rows.len() == sums.len() * 2 * n);
        match self {
            Backend::Scalar => {
                for (sum, row) in sums.iter_mut().zip(rows.chunks_exact(2 * n)) {
                    *sum = self.output(us, them, row);
                }
            }
            // SAFETY: as in `add`; the lengths are checked above.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::outputs(us, them, rows, sums) },
        }
    }
}

/// The most chunks in one accumulator.
const MAX_CHUNKS: usize = super::net::MAX_HIDDEN / CHUNK_LEN;

mod scalar {
    use super::{Chunk, QA};

    pub(super) fn add(acc: &mut [Chunk], row: &[Chunk]) {
        for (a, r) in acc.iter_mut().zip(row) {
            for (x, y) in a.0.iter_mut().zip(r.0) {
                *x = x.wrapping_add(y);
            }
        }
    }

    pub(super) fn add_sub(dst: &mut [Chunk], src: &[Chunk], add: &[Chunk], sub: &[Chunk]) {
        for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
            for i in 0..d.0.len() {
                d.0[i] = s.0[i].wrapping_add(a.0[i]).wrapping_sub(b.0[i]);
            }
        }
    }

    pub(super) fn add_sub_sub(
        dst: &mut [Chunk],
        src: &[Chunk],
        add: &[Chunk],
        sub1: &[Chunk],
        sub2: &[Chunk],
    ) {
        for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
            for i in 0..d.0.len() {
                d.0[i] = s.0[i]
                    .wrapping_add(a.0[i])
                    .wrapping_sub(b.0[i])
                    .wrapping_sub(c.0[i]);
            }
        }
    }

    pub(super) fn output(acc: &[Chunk], weights: &[Chunk]) -> i64 {
        let mut sum = 0i64;
        for (a, w) in acc.iter().zip(weights) {
            // One chunk's 16 products (each at most QA² · 128) fit an i32, which lets the
            // compiler vectorise this loop.
            let mut chunk_sum = 0i32;
            for (x, y) in a.0.iter().zip(w.0) {
                let v = i32::from((*x).clamp(0, QA));
                chunk_sum += v * v * i32::from(y);
            }
            sum += i64::from(chunk_sum);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Chunk, QA};
    use std::arch::x86_64::*;

    /// One chunk as a register; chunks are 32-byte aligned.
    #[inline(always)]
    unsafe fn load(c: &Chunk) -> __m256i {
        unsafe { _mm256_load_si256(std::ptr::from_ref(c).cast()) }
    }

    #[inline(always)]
    unsafe fn store(c: &mut Chunk, v: __m256i) {
        unsafe { _mm256_store_si256(std::ptr::from_mut(c).cast(), v) }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add(acc: &mut [Chunk], row: &[Chunk]) {
        for (a, r) in acc.iter_mut().zip(row) {
            unsafe { store(a, _mm256_add_epi16(load(a), load(r))) };
        }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_sub(dst: &mut [Chunk], src: &[Chunk], add: &[Chunk], sub: &[Chunk]) {
        for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
            unsafe {
                let v = _mm256_sub_epi16(_mm256_add_epi16(load(s), load(a)), load(b));
                store(d, v);
            }
        }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_sub_sub(
        dst: &mut [Chunk],
        src: &[Chunk],
        add: &[Chunk],
        sub1: &[Chunk],
        sub2: &[Chunk],
    ) {
        for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
            unsafe {
                let v = _mm256_add_epi16(load(s), load(a));
                let v = _mm256_sub_epi16(_mm256_sub_epi16(v, load(b)), load(c));
                store(d, v);
            }
        }
    }

    /// Adds `Σ clamp(acc, 0, QA)² · w` into the i32 lanes of `sum`: `clamp · w` fits i16
    /// (255 · 127), and `madd` multiplies it by the clamp again and adds pairs into i32.
    #[inline(always)]
    unsafe fn screlu_dot(sum: __m256i, acc: &[Chunk], weights: &[Chunk]) -> __m256i {
        let mut sum = sum;
        for (a, w) in acc.iter().zip(weights) {
            unsafe { sum = _mm256_add_epi32(sum, squared_times(clamp(load(a)), load(w))) };
        }
        sum
    }

    /// Each i16 lane clamped to `0..=QA`.
    #[inline(always)]
    unsafe fn clamp(v: __m256i) -> __m256i {
        unsafe {
            _mm256_min_epi16(
                _mm256_max_epi16(v, _mm256_setzero_si256()),
                _mm256_set1_epi16(QA),
            )
        }
    }

    /// `v² · w` for clamped activations `v`, pairs of lanes added into i32 lanes.
    #[inline(always)]
    unsafe fn squared_times(v: __m256i, w: __m256i) -> __m256i {
        unsafe { _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v) }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn output(
        us: &[Chunk],
        them: &[Chunk],
        w_us: &[Chunk],
        w_them: &[Chunk],
    ) -> i64 {
        unsafe {
            let sum = screlu_dot(_mm256_setzero_si256(), us, w_us);
            lane_sum(screlu_dot(sum, them, w_them))
        }
    }

    /// # Safety
    /// The processor must have AVX2, `us` and `them` at most `MAX_CHUNKS` chunks each, and
    /// `rows` `sums.len()` rows of twice as many.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn outputs(us: &[Chunk], them: &[Chunk], rows: &[Chunk], sums: &mut [i64]) {
        let n = us.len();
        let mut clamped = [Chunk::default(); 2 * super::MAX_CHUNKS];
        unsafe {
            for (c, a) in clamped.iter_mut().zip(us.iter().chain(them)) {
                store(c, clamp(load(a)));
            }
            let clamped = &clamped[..2 * n];
            let len = 2 * n;
            // Four rows at a time share each load of the activations.
            let mut r = 0;
            while r + 4 <= sums.len() {
                let mut acc = [_mm256_setzero_si256(); 4];
                for (k, v) in clamped.iter().enumerate() {
                    let v = load(v);
                    for (q, a) in acc.iter_mut().enumerate() {
                        let w = load(&rows[(r + q) * len + k]);
                        *a = _mm256_add_epi32(*a, squared_times(v, w));
                    }
                }
                for (q, a) in acc.into_iter().enumerate() {
                    sums[r + q] = lane_sum(a);
                }
                r += 4;
            }
            for (sum, row) in sums[r..].iter_mut().zip(rows[r * len..].chunks_exact(len)) {
                let mut acc = _mm256_setzero_si256();
                for (v, w) in clamped.iter().zip(row) {
                    acc = _mm256_add_epi32(acc, squared_times(load(v), load(w)));
                }
                *sum = lane_sum(acc);
            }
        }
    }

    /// The sum of a register's eight i32 lanes, widened.
    #[inline(always)]
    unsafe fn lane_sum(v: __m256i) -> i64 {
        let mut lanes = [0i32; 8];
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(seed: u64, n: usize, lo: i16, hi: i16) -> Vec<Chunk> {
        let mut rng = crate::random::SplitMix64::new(seed);
        let span = (hi as i32 - lo as i32 + 1) as usize;
        (0..n)
            .map(|_| {
                let mut c = Chunk::default();
                for v in &mut c.0 {
                    *v = (lo as i32 + rng.below(span) as i32) as i16;
                }
                c
            })
            .collect()
    }

    #[test]
    fn chunks_are_aligned_for_avx2_loads() {
        assert_eq!(std::mem::align_of::<Chunk>(), 32);
        assert_eq!(std::mem::size_of::<Chunk>(), 32);
        let heap: Vec<Chunk> = std::iter::repeat_n(Chunk::default(), 3).collect();
        assert_eq!(heap.as_ptr() as usize % 32, 0);
    }

    #[test]
    fn scalar_output_is_the_squared_clipped_sum() {
        let mut us = vec![Chunk::default(); 1];
        let mut them = vec![Chunk::default(); 1];
        let mut w = vec![Chunk::default(); 2];
        us[0].0[0] = 300; // clipped to 255
        us[0].0[1] = -5; // clipped to 0
        us[0].0[2] = 10;
        them[0].0[3] = 2;
        w[0].0 = [3; 16];
        w[1].0 = [-7; 16];
        let expected = 255 * 255 * 3 + 10 * 10 * 3 - 2 * 2 * 7;
        assert_eq!(Backend::Scalar.output(&us, &them, &w), expected);
    }

    #[test]
    fn avx2_and_scalar_agree() {
        let Some(avx2) = Backend::avx2() else {
            eprintln!("no AVX2 on this processor: only the scalar kernels run here");
            return;
        };
        let n = 16;
        let src = chunks(1, n, -20000, 20000);
        let add = chunks(2, n, -992, 992);
        let sub1 = chunks(3, n, -992, 992);
        let sub2 = chunks(4, n, -992, 992);
        let (a, b) = (Backend::Scalar, avx2);
        let mut da = vec![Chunk::default(); n];
        let mut db = vec![Chunk::default(); n];
        a.add_sub(&mut da, &src, &add, &sub1);
        b.add_sub(&mut db, &src, &add, &sub1);
        assert_eq!(da, db);
        a.add_sub_sub(&mut da, &src, &add, &sub1, &sub2);
        b.add_sub_sub(&mut db, &src, &add, &sub1, &sub2);
        assert_eq!(da, db);
        a.add(&mut da, &add);
        b.add(&mut db, &add);
        assert_eq!(da, db);
        let w = chunks(5, 2 * n, -127, 127);
        let us = chunks(6, n, -400, 400);
        let them = chunks(7, n, -400, 400);
        assert_eq!(a.output(&us, &them, &w), b.output(&us, &them, &w));
        // The largest values the loader allows.
        let full = vec![Chunk([QA; 16]); n];
        let wmax = vec![Chunk([127; 16]); 2 * n];
        assert_eq!(a.output(&full, &full, &wmax), b.output(&full, &full, &wmax));
        // The second layer's rows (four at a time and one left over): each sum is its row's
        // output, on both backends.
        let rows = chunks(8, 5 * 2 * n, -127, 127);
        let (mut sa, mut sb) = (vec![0; 5], vec![0; 5]);
        a.outputs(&us, &them, &rows, &mut sa);
        b.outputs(&us, &them, &rows, &mut sb);
        assert_eq!(sa, sb);
        for (r, sum) in sa.iter().enumerate() {
            let row = &rows[r * 2 * n..(r + 1) * 2 * n];
            assert_eq!(*sum, a.output(&us, &them, row));
        }
    }
}
