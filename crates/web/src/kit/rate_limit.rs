//! Limits on how often one client may do something costly (make a room, sign in, …): a token
//! bucket per client address (or per any other key, such as an account's name), which holds
//! `burst` tokens, gains one every `every`, and spends one per act. A client past its bucket
//! is told when the next token comes (429 with `Retry-After`). Servers that share a store
//! (PostgreSQL) keep the buckets there, so that a client has one bucket on all of them and
//! cannot dodge a limit by asking another server.

use crate::kit::archive_store::ArchiveService;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most addresses remembered; beyond it the buckets that have filled up again are forgotten
/// (a full bucket is what a new address gets anyway).
const MAX_ADDRESSES: usize = 100_000;

/// A token bucket per key: a client address unless another is named. Cheap to clone.
#[derive(Clone)]
pub struct RateLimit<K = IpAddr> {
    burst: u32,
    every: Duration,
    buckets: Arc<Mutex<HashMap<K, Bucket>>>,
    /// The limit's name and the shared store its buckets are kept in, when there is one.
    shared: Option<(&'static str, ArchiveService)>,
}

#[derive(Clone, Copy)]
struct Bucket {
    /// Tokens when last counted (fractions of a token count too).
    tokens: f64,
    /// When they were counted.
    at: Instant,
}

impl<K: std::hash::Hash + Eq + Clone> RateLimit<K> {
    /// Buckets of `burst` tokens (at least one), each gaining one every `every`.
    pub fn new(burst: u32, every: Duration) -> RateLimit<K> {
        RateLimit {
            burst: burst.max(1),
            every: every.max(Duration::from_millis(1)),
            buckets: Arc::default(),
            shared: None,
        }
    }

    /// The same limit, named `kind`, with its buckets kept in `archive`'s store when several
    /// servers share it (else in this server alone).
    pub fn shared_through(mut self, kind: &'static str, archive: &ArchiveService) -> Self {
        if archive.is_shared() {
            self.shared = Some((kind, archive.clone()));
        }
        self
    }

    /// Spends one of `client`'s tokens now, as [`RateLimit::take`] does: in the shared store
    /// when there is one (in this server's own buckets while the store fails), else here.
    pub async fn spend(&self, client: K) -> Result<(), u32>
    where
        K: ToString,
    {
        let Some((kind, archive)) = &self.shared else {
            return self.take(client, Instant::now());
        };
        let (key, burst) = (client.to_string(), self.burst);
        let every_ms = u64::try_from(self.every.as_millis()).unwrap_or(u64::MAX);
        let now_ms = crate::kit::viewer::now_ms();
        let kind = *kind;
        match archive
            .run(move |s| s.take_token(kind, &key, burst, every_ms, now_ms))
            .await
        {
            Ok(None) => Ok(()),
            Ok(Some(wait_ms)) => Err(wait_ms.div_ceil(1000).max(1) as u32),
            Err(_) => self.take(client, Instant::now()),
        }
    }

    /// Spends one of `client`'s tokens at `now`; when it has none, the whole seconds until
    /// the next one comes.
    pub fn take(&self, client: K, now: Instant) -> Result<(), u32> {
        let burst = f64::from(self.burst);
        let per_token = self.every.as_secs_f64();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_ADDRESSES && !buckets.contains_key(&client) {
            buckets.retain(|_, b| b.filled(now, per_token) < burst);
        }
        let bucket = buckets.entry(client.clone()).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let tokens = bucket.filled(now, per_token).min(burst);
        *bucket = Bucket { tokens, at: now };
        if tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            // Counted in whole milliseconds, so that a wait of exactly ten seconds is ten.
            let wait_ms = ((1.0 - tokens) * per_token * 1000.0).round() as u64;
            Err(wait_ms.div_ceil(1000).max(1) as u32)
        }
    }

    /// The stated rate, for the words of a refusal: the burst and the time a token takes.
    pub fn rate(&self) -> (u32, Duration) {
        (self.burst, self.every)
    }
}

impl Bucket {
    /// The tokens at `now`, counting those gained since they were last counted.
    fn filled(&self, now: Instant, per_token: f64) -> f64 {
        self.tokens + now.saturating_duration_since(self.at).as_secs_f64() / per_token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, last])
    }

    #[test]
    fn a_burst_passes_then_one_token_comes_each_period() {
        let limit = RateLimit::new(3, Duration::from_secs(30));
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limit.take(ip(1), start), Ok(()));
        }
        assert_eq!(limit.take(ip(1), start), Err(30));
        assert_eq!(limit.take(ip(1), start + Duration::from_secs(20)), Err(10));
        assert_eq!(limit.take(ip(1), start + Duration::from_secs(30)), Ok(()));
        assert_eq!(limit.take(ip(1), start + Duration::from_secs(31)), Err(29));
        // Another address has its own bucket.
        assert_eq!(limit.take(ip(2), start), Ok(()));
    }

    #[test]
    fn a_bucket_fills_no_higher_than_its_burst() {
        let limit = RateLimit::new(2, Duration::from_secs(1));
        let later = Instant::now() + Duration::from_secs(3600);
        assert_eq!(limit.take(ip(1), later), Ok(()));
        assert_eq!(limit.take(ip(1), later), Ok(()));
        assert!(limit.take(ip(1), later).is_err());
    }
}
