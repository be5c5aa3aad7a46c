//! Large tables in huge pages: a table read at random points (the transposition table, a
//! network's weights in training) misses the processor's address cache on almost every read
//! when it lies in ordinary 4 KB pages; in 2 MB pages it rarely does.

/// Asks the system to back the spare capacity of `vec` (memory not yet touched: call it after
/// reserving and before filling) with huge pages where it can, on Linux by transparent huge
/// pages. Elsewhere, or where the system declines, nothing changes but the speed.
pub fn advise_huge_pages<T>(vec: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 * 1024 * 1024;
        let spare = vec.spare_capacity_mut();
        let start = spare.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(spare);
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: the range lies inside the vector's own allocation, in memory nothing
            // reads yet; the advice changes only how the system backs it, never its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = vec;
}

/// A vector of `len` copies of `value`, in huge pages where the system gives them.
pub fn filled_in_huge_pages<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut vec = Vec::with_capacity(len);
    advise_huge_pages(&mut vec);
    vec.resize(len, value);
    vec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_in_huge_pages_holds_what_it_was_filled_with() {
        let vec = filled_in_huge_pages(3 << 20, 7u32);
        assert_eq!(vec.len(), 3 << 20);
        assert!(vec.iter().all(|&x| x == 7));
        let mut empty: Vec<u64> = Vec::new();
        advise_huge_pages(&mut empty);
        assert!(empty.is_empty());
    }
}
