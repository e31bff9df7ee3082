//! Reference randomness: the crate's one source of random draws, for reference and testing.
//!
//! Every random draw the crate makes comes from here, and the recipe is fixed down to the bit
//! so that an implementation in another language (Python, JAX, C++) can regenerate each draw.
//! `fixtures/RANDOMNESS.md` restates it for such implementers, with worked examples, and
//! `fixtures/consumer/rng_vectors.py` is an independent pure-Python regeneration of the test
//! vectors in `tests/it/rng_vectors.rs`.
//!
//! # Not for releasing private data
//!
//! This randomness is for **reference and testing only**. Floating-point samplers of continuous
//! distributions (Box–Muller here) leak information through the pattern of representable values
//! and are known to be attackable (Mironov 2012 and later work on floating-point Gaussian
//! mechanisms); a seeded, reproducible stream is, moreover, not secret. Do not use it to release
//! private data. The float-safe tier is an exact discrete Gaussian sampler on big rationals,
//! planned in the privacy module.
//!
//! # The recipe
//!
//! A run has a **master seed** `s: u64`. Each purpose draws from its own **labelled stream**,
//! named by a UTF-8 label such as `"noise/round=3"` or `"batch/step=17"`:
//!
//! 1. **Key** (32 bytes): the 8 little-endian bytes of `s`, followed by 24 zero bytes.
//! 2. **Stream number**: `fnv1a64(label)`, FNV-1a 64 over the label's UTF-8 bytes (offset basis
//!    `0xcbf29ce484222325`, prime `0x100000001b3`, XOR each byte then multiply mod 2⁶⁴).
//! 3. **Generator**: `rand_chacha::ChaCha20Rng::from_seed(key)`, then `set_stream(number)`.
//!    This is the original (djb) ChaCha20, 20 rounds, with the 64-bit layout. The 16-word state is
//!    `"expand 32-byte k"` (words 0–3), the key as eight little-endian words (4–11), the 64-bit
//!    block counter starting at 0 (word 12 = low half, word 13 = high half), and the stream
//!    number as the 64-bit nonce (word 14 = low half, word 15 = high half). The keystream is the
//!    sequence of output words of blocks 0, 1, 2, … in order, 16 words per block.
//! 4. **`next_u64`** takes the next two keystream words `w[2k]`, `w[2k+1]` and returns
//!    `w[2k] | (w[2k+1] << 32)`: the **low word first**. Since the stream only ever reads
//!    64-bit values, the pairs never straddle anything awkward: value `k` (from 0) is words
//!    `2k`, `2k+1`, i.e. the little-endian reading of keystream bytes `8k..8k+8`.
//!    `tests/it/rng_vectors.rs` checks this word order and state layout against an independent
//!    ChaCha20 block function (written from the algorithm description, not using
//!    `rand_chacha`), which also reproduces RFC 8439 appendix A.1.
//! 5. **Uniform in \[0, 1)**: `(next_u64 >> 11) as f64 * 2⁻⁵³` (exact: a multiple of 2⁻⁵³).
//! 6. **Index in \[0, n)**: `((next_u64 as u128 * n as u128) >> 64)`, one `next_u64` per index,
//!    no rejection (the bias is below n/2⁶⁴, far beneath anything a test can see).
//! 7. **Standard normal** (Box–Muller, both outputs used): when no normal is cached, draw
//!    `u1 = 1.0 - uniform()` (so `u1 ∈ (0, 1]`, never 0) and then `u2 = uniform()`, compute
//!    `r = sqrt(-2.0 * ln(u1))` and `t = TAU * u2` (with `TAU = 2π = 6.283185307179586`, one
//!    rounded multiplication), return `r * cos(t)` and cache `r * sin(t)`. The next `normal()`
//!    call on the same stream returns the cached value without touching the generator.
//!    The cache belongs to the stream and is consumed only by `normal()`; `next_u64`,
//!    `uniform` and `index` draw from the generator and leave the cache as it is.
//!    `ln`, `cos`, `sin` are the platform libm's (`f64::ln` etc.); these are not correctly
//!    rounded in general, so another implementation using a different libm may differ in the
//!    last place (the committed vectors agree bit for bit with CPython's `math` on glibc).
//! 8. **Permutation of \[0, n)** (Fisher–Yates, from the end): start with `π = [0, 1, …, n−1]`;
//!    for `i = n−1, n−2, …, 1` draw `j = index(i + 1)` (step 6) and swap `π[i]` and `π[j]`.
//!    That is n − 1 `next_u64` draws (none for n = 1); the normal cache is left as it is.
//! 9. **m distinct indices of \[0, n) in random order** (sampling without replacement;
//!    Bentley–Floyd's ordered sample, "A sample of brilliance", CACM 1987), for 1 ≤ m ≤ n: start
//!    with the empty sequence S; for `j = n−m, n−m+1, …, n−1` draw `t = index(j + 1)` (step 6);
//!    if t is not in S put t at the **front** of S, else insert j **right after** t in S. The
//!    result S has m distinct values; every ordered m-tuple of distinct indices is equally likely
//!    (exactly so for exact uniform `index`; the index step's bias below n/2⁶⁴ is the only
//!    deviation). That is m `next_u64` draws; the normal cache is left as it is. Memory is the
//!    m-slot output itself (no O(n) table), time O(m²) for the membership scans and shifts.
//!
//! # Sampling, recording and replaying: [`NoiseSource`]
//!
//! Algorithms never hold a [`Stream`] directly; they ask a [`NoiseSource`] for a labelled batch
//! of normals, Gaussians, uniforms or indices. In `Sample` mode each label gets its own stream
//! (created on first use), and a **second request with the same label continues that stream**
//! where the previous request stopped (including a cached Box–Muller normal). Streams with
//! different labels are independent of each other and of the order in which labels are
//! interleaved. A `recording` source also appends every draw call to a [`Tape`]; a `Replay`
//! source serves the draws from a tape with no generator at all, checking that the i-th call
//! matches the i-th tape entry in label, kind, count (and `n` for indices). Replaying the tape
//! recorded by a run reproduces that run's values bit for bit.
//!
//! **One-shot step streams.** The iterative algorithms draw once per step from labels such as
//! `"rr/round=2/sgda/noise/step=17"` ([`StepLabel`]: a head and a step number). Their draws
//! ([`NoiseSource::indices_at`], [`NoiseSource::gaussian_at`]) derive the stream on demand from
//! (master seed, label), hash the label without formatting it, and do not keep the stream: the
//! values are those of the labelled request on the label's first use (the recipe is unchanged),
//! and a non-recording source stays constant in memory however many steps a run makes. Each
//! step label is drawn at most once per source (the step is in the label).
//!
//! # Coupling
//!
//! Because a draw depends only on (master seed, label, position within that label's stream),
//! and never on the data, two runs of an algorithm on neighbouring datasets S and S′ with the
//! same seed consume identical noise and identical indices, as long as they make the same
//! labelled requests (which data-independent control flow guarantees). This coupling is how
//! stability is measured: the difference of the two outputs is due to the data alone.

use std::collections::BTreeMap;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::error::{invalid, Error, Result};

/// FNV-1a 64 offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64-bit hash of the UTF-8 bytes of `label` (offset basis `0xcbf29ce484222325`,
/// prime `0x100000001b3`): the stream number of the labelled stream.
pub fn fnv1a64(label: &str) -> u64 {
    label.bytes().fold(FNV_OFFSET, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// Continue an FNV-1a 64 hash `state` over `bytes`: `fnv1a64(a + b)` is
/// `fnv1a64_extend(fnv1a64(a), b)`.
pub fn fnv1a64_extend(state: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// A family of labels `{head}{step}` (e.g. `"rr/round=2/sgda/noise/step="` and 17 give
/// `"rr/round=2/sgda/noise/step=17"`), whose stream numbers are computed without formatting the
/// label: FNV-1a over the head is done once, then continued over the decimal digits of the step
/// (recipe step 2 is a byte-wise fold, so the stream number is exactly `fnv1a64` of the label).
#[derive(Clone, Debug)]
pub struct StepLabel {
    head: String,
    head_hash: u64,
}

impl StepLabel {
    /// The labels `{head}{step}`.
    pub fn new(head: impl Into<String>) -> StepLabel {
        let head = head.into();
        let head_hash = fnv1a64(&head);
        StepLabel { head, head_hash }
    }

    /// The stream number of the label of `step`: `fnv1a64(&self.label(step))`, with no allocation.
    pub fn stream_number(&self, step: u64) -> u64 {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut v = step;
        loop {
            i -= 1;
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        fnv1a64_extend(self.head_hash, &digits[i..])
    }

    /// The label of `step` as a string (`{head}{step}`, decimal, no padding).
    pub fn label(&self, step: u64) -> String {
        format!("{}{step}", self.head)
    }
}

/// The 32-byte ChaCha20 key of a master seed: its 8 little-endian bytes then 24 zero bytes.
pub fn chacha_key(master_seed: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&master_seed.to_le_bytes());
    key
}

/// One labelled ChaCha20 stream of a master seed (recipe in the module documentation).
#[derive(Clone, Debug)]
pub struct Stream {
    rng: ChaCha20Rng,
    /// The second Box–Muller output, returned by the next [`Stream::normal`] call.
    cached_normal: Option<f64>,
}

impl Stream {
    /// The stream of `master_seed` labelled `label`, positioned at its start.
    pub fn new(master_seed: u64, label: &str) -> Stream {
        Stream::with_stream_number(master_seed, fnv1a64(label))
    }

    /// The stream of `master_seed` with an explicit ChaCha20 stream number (nonce);
    /// `Stream::new(s, label)` is `Stream::with_stream_number(s, fnv1a64(label))`.
    pub fn with_stream_number(master_seed: u64, stream_number: u64) -> Stream {
        let mut rng = ChaCha20Rng::from_seed(chacha_key(master_seed));
        rng.set_stream(stream_number);
        Stream {
            rng,
            cached_normal: None,
        }
    }

    /// The ChaCha20 stream number (nonce) of this stream.
    pub fn stream_number(&self) -> u64 {
        self.rng.get_stream()
    }

    /// The next 64 bits: keystream words `w[2k] | w[2k+1] << 32` (low word first).
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Uniform in \[0, 1): `(next_u64 >> 11) · 2⁻⁵³`, exact.
    pub fn uniform(&mut self) -> f64 {
        // 2^-53 is exactly representable; the product is exact.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Index in \[0, n): `(next_u64 · n) >> 64` in 128-bit arithmetic, one `next_u64` per call.
    ///
    /// Callers are expected to pass `n >= 1`. For `n == 0` the formula gives 0, which is what
    /// this returns (still consuming one `next_u64`, so the stream position does not depend on
    /// `n`); [`NoiseSource::indices`] rejects `n == 0` with [`Error::Invalid`] before drawing.
    pub fn index(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A standard normal by Box–Muller, both outputs used in order (see the module docs):
    /// `u1 = 1 - uniform()` ∈ (0, 1], `u2 = uniform()`, `r = sqrt(-2 ln u1)`, returns
    /// `r cos(2π u2)` and caches `r sin(2π u2)` for the next call.
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.cached_normal.take() {
            return z;
        }
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        let r = (-2.0 * u1.ln()).sqrt();
        let t = std::f64::consts::TAU * u2;
        self.cached_normal = Some(r * t.sin());
        r * t.cos()
    }

    /// `out[i] = sigma · z_i` for `out.len()` consecutive [`Stream::normal`] draws z_i (the same
    /// values and the same stream state afterwards, cache included), without the per-draw
    /// bookkeeping of the cache.
    pub fn fill_scaled_normals(&mut self, sigma: f64, out: &mut [f64]) {
        let mut i = 0;
        if !out.is_empty() {
            if let Some(z) = self.cached_normal.take() {
                out[0] = sigma * z;
                i = 1;
            }
        }
        while i < out.len() {
            let u1 = 1.0 - self.uniform();
            let u2 = self.uniform();
            let r = (-2.0 * u1.ln()).sqrt();
            let t = std::f64::consts::TAU * u2;
            out[i] = sigma * (r * t.cos());
            let second = r * t.sin();
            match out.get_mut(i + 1) {
                Some(o) => *o = sigma * second,
                None => self.cached_normal = Some(second),
            }
            i += 2;
        }
    }

    /// `count` consecutive [`Stream::normal`] draws.
    pub fn normals(&mut self, count: usize) -> Vec<f64> {
        (0..count).map(|_| self.normal()).collect()
    }

    /// `count` consecutive [`Stream::uniform`] draws.
    pub fn uniforms(&mut self, count: usize) -> Vec<f64> {
        (0..count).map(|_| self.uniform()).collect()
    }

    /// `count` consecutive [`Stream::index`] draws.
    pub fn indices(&mut self, count: usize, n: usize) -> Vec<usize> {
        (0..count).map(|_| self.index(n)).collect()
    }

    /// `out.len()` = m distinct indices of \[0, n) in uniformly random order (recipe step 9,
    /// Bentley–Floyd's ordered sample): m [`Stream::next_u64`] draws, written into `out` with no
    /// other memory. The caller guarantees 1 ≤ m ≤ n ([`NoiseSource::distinct_indices`] checks).
    pub fn distinct_indices_into(&mut self, n: usize, out: &mut [usize]) {
        ordered_sample_into(n, out, |bound| self.index(bound));
    }

    /// A uniformly random permutation of \[0, n) by Fisher–Yates from the end (recipe step 8):
    /// `π = [0, …, n−1]`, then for `i = n−1` down to 1, `j = index(i + 1)` and swap `π[i]`, `π[j]`.
    /// Uses n − 1 [`Stream::next_u64`] draws (none for n ≤ 1; n = 0 gives the empty permutation).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut pi: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.index(i + 1);
            pi.swap(i, j);
        }
        pi
    }
}

/// Bentley–Floyd's ordered sample (recipe step 9) with the uniform choices supplied by
/// `index(bound)` (a value in \[0, bound)): for j = n − m, …, n − 1, t = index(j + 1); t is put in
/// front of the sequence if absent, else j is inserted right after t. With exact uniform choices
/// every ordered m-tuple of distinct indices comes out with probability (n − m)!/n! (Bentley and
/// Floyd's theorem; the exact enumeration test `ordered_sample_is_exactly_uniform` runs every
/// choice sequence for all 1 ≤ m ≤ n ≤ 6 and finds each ordered tuple equally often).
///
/// `out.len()` = m must satisfy m ≤ n; the slots are used as the sequence itself (O(m) memory,
/// O(m²) time). Exposed so that tests can enumerate every choice sequence exactly.
pub fn ordered_sample_into(n: usize, out: &mut [usize], mut index: impl FnMut(usize) -> usize) {
    let m = out.len();
    debug_assert!(m <= n, "an ordered sample of {m} from {n} points");
    for (len, j) in (n - m..n).enumerate() {
        let t = index(j + 1);
        match out[..len].iter().position(|&v| v == t) {
            None => {
                out.copy_within(0..len, 1);
                out[0] = t;
            }
            Some(p) => {
                out.copy_within(p + 1..len, p + 2);
                out[p + 1] = j;
            }
        }
    }
}

/// A record of every draw call a run made, in call order, enough to replay it without an RNG.
///
/// JSON form (serde): `{"draws":[{"label":"noise/round=3","values":{"normal":[0.1,-1.2]}},
/// {"label":"batch/step=0","values":{"index":{"n":10,"values":[3,7]}}}]}`; floats are written
/// so they round-trip exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tape {
    /// The draw calls, in the order they were made.
    pub draws: Vec<Draw>,
}

impl Tape {
    /// An empty tape.
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Number of draw calls recorded.
    pub fn len(&self) -> usize {
        self.draws.len()
    }

    /// Whether no draw call is recorded.
    pub fn is_empty(&self) -> bool {
        self.draws.is_empty()
    }

    /// The tape as JSON (floats round-trip exactly).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a tape of finite floats always serializes")
    }

    /// A tape from its JSON form; `path` names the source in the error.
    pub fn from_json(path: &str, json: &str) -> Result<Tape> {
        serde_json::from_str(json).map_err(|e| Error::Json {
            path: path.to_string(),
            msg: e.to_string(),
        })
    }
}

/// One draw call: its label and the values it returned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    /// The stream label the call drew from.
    pub label: String,
    /// The kind of draw and its values.
    pub values: DrawValues,
}

/// The kind and values of one draw call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawValues {
    /// Standard normals (also for [`NoiseSource::gaussian`], which records the unscaled values).
    Normal(Vec<f64>),
    /// Uniforms in \[0, 1).
    Uniform(Vec<f64>),
    /// Indices in \[0, n).
    Index {
        /// The range bound.
        n: u64,
        /// The indices.
        values: Vec<u64>,
    },
    /// A permutation of \[0, n) ([`NoiseSource::permutation`]; n is the length).
    Permutation(Vec<u64>),
    /// Distinct indices in \[0, n), in their drawn order ([`NoiseSource::distinct_indices`],
    /// recipe step 9: sampling without replacement). A kind of its own, not `index`, so that a
    /// replay checks distinctness and a with-replacement tape can never stand in for it.
    Distinct {
        /// The range bound.
        n: u64,
        /// The indices (pairwise distinct, each below n).
        values: Vec<u64>,
    },
}

impl DrawValues {
    fn kind(&self) -> &'static str {
        match self {
            DrawValues::Normal(_) => "normal",
            DrawValues::Uniform(_) => "uniform",
            DrawValues::Index { .. } => "index",
            DrawValues::Permutation(_) => "permutation",
            DrawValues::Distinct { .. } => "distinct",
        }
    }

    fn count(&self) -> usize {
        match self {
            DrawValues::Normal(v) | DrawValues::Uniform(v) => v.len(),
            DrawValues::Index { values, .. } => values.len(),
            DrawValues::Permutation(v) => v.len(),
            DrawValues::Distinct { values, .. } => values.len(),
        }
    }
}

/// What a draw call asks for (internal).
#[derive(Clone, Copy)]
enum Request {
    Normal,
    Uniform,
    Index(usize),
    Permutation,
    Distinct(usize),
}

impl Request {
    fn kind(self) -> &'static str {
        match self {
            Request::Normal => "normal",
            Request::Uniform => "uniform",
            Request::Index(_) => "index",
            Request::Permutation => "permutation",
            Request::Distinct(_) => "distinct",
        }
    }
}

/// Noise consumed by randomized algorithms: either sampled from labelled streams of a master
/// seed (optionally recording every draw onto a [`Tape`]) or replayed from a [`Tape`] with no
/// RNG at all.
///
/// Sampling: each label has its own [`Stream`], created on first use; a second request with the
/// same label **continues** that stream. Replay: the i-th draw call must match the i-th tape
/// entry in label, kind, count (and `n` for indices), else [`Error::Replay`].
///
/// Every successful call counts as one draw ([`NoiseSource::draws_made`]), including calls with
/// `count == 0`, which are recorded (and must be replayed) like any other. A call rejected for
/// invalid arguments draws nothing, records nothing and does not advance a replay.
#[derive(Clone, Debug)]
pub enum NoiseSource {
    /// Draw from the labelled streams of `master_seed`.
    Sample {
        /// The run's master seed.
        master_seed: u64,
        /// One stream per label seen so far.
        streams: BTreeMap<String, Stream>,
        /// The recording, if this source records.
        tape: Option<Tape>,
        /// Draw calls made so far.
        draws_made: usize,
    },
    /// Serve draws from a recorded tape.
    Replay {
        /// The tape being replayed.
        tape: Tape,
        /// Index of the next tape entry (= draw calls made so far).
        position: usize,
    },
}

impl NoiseSource {
    /// Sample from the streams of `master_seed`, without recording.
    pub fn sample(master_seed: u64) -> Self {
        NoiseSource::Sample {
            master_seed,
            streams: BTreeMap::new(),
            tape: None,
            draws_made: 0,
        }
    }

    /// Sample from the streams of `master_seed`, recording every draw call onto a tape.
    pub fn recording(master_seed: u64) -> Self {
        NoiseSource::Sample {
            master_seed,
            streams: BTreeMap::new(),
            tape: Some(Tape::new()),
            draws_made: 0,
        }
    }

    /// Replay the draws of `tape`, in order, with no RNG.
    pub fn replay(tape: Tape) -> Self {
        NoiseSource::Replay { tape, position: 0 }
    }

    /// `count` standard normals from the stream `label`.
    pub fn normals(&mut self, label: &str, count: usize) -> Result<Vec<f64>> {
        match self.draw(label, count, Request::Normal)? {
            DrawValues::Normal(v) => Ok(v),
            _ => unreachable!("draw returns the requested kind"),
        }
    }

    /// `count` draws of N(0, sigma²): `sigma` times standard normals from the stream `label`.
    ///
    /// `sigma` must be finite and `>= 0`, else [`Error::Invalid`] naming `"sigma"`. The tape
    /// records the **standard** normals (kind `normal`), not the scaled values, so a replay with
    /// the same `sigma` reproduces the scaled values bit for bit (each is one rounded product).
    pub fn gaussian(&mut self, label: &str, count: usize, sigma: f64) -> Result<Vec<f64>> {
        if !sigma.is_finite() || sigma < 0.0 {
            return Err(invalid(
                "sigma",
                format!("must be finite and >= 0, got {sigma}"),
            ));
        }
        let z = self.normals(label, count)?;
        Ok(z.into_iter().map(|x| sigma * x).collect())
    }

    /// `count` uniforms in \[0, 1) from the stream `label`.
    pub fn uniforms(&mut self, label: &str, count: usize) -> Result<Vec<f64>> {
        match self.draw(label, count, Request::Uniform)? {
            DrawValues::Uniform(v) => Ok(v),
            _ => unreachable!("draw returns the requested kind"),
        }
    }

    /// `count` indices in \[0, n) from the stream `label`; `n == 0` is [`Error::Invalid`]
    /// naming `"n"`.
    pub fn indices(&mut self, label: &str, count: usize, n: usize) -> Result<Vec<usize>> {
        if n == 0 {
            return Err(invalid("n", "index range must be >= 1, got 0"));
        }
        match self.draw(label, count, Request::Index(n))? {
            DrawValues::Index { values, .. } => values
                .into_iter()
                .map(|v| {
                    usize::try_from(v).map_err(|_| {
                        Error::Replay(format!("index value {v} does not fit in usize"))
                    })
                })
                .collect(),
            _ => unreachable!("draw returns the requested kind"),
        }
    }

    /// A uniformly random permutation π of \[0, n) from the stream `label` (Fisher–Yates, recipe
    /// step 8 of the module documentation): π\[k\] is the k-th element in the permuted order.
    /// `n == 0` is [`Error::Invalid`] naming `"n"`. The tape records the permutation itself (kind
    /// `permutation`, count n); a replay checks that the stored values are a permutation of \[0, n).
    pub fn permutation(&mut self, label: &str, n: usize) -> Result<Vec<usize>> {
        if n == 0 {
            return Err(invalid("n", "permutation length must be >= 1, got 0"));
        }
        match self.draw(label, n, Request::Permutation)? {
            DrawValues::Permutation(values) => values
                .into_iter()
                .map(|v| {
                    usize::try_from(v).map_err(|_| {
                        Error::Replay(format!("permutation value {v} does not fit in usize"))
                    })
                })
                .collect(),
            _ => unreachable!("draw returns the requested kind"),
        }
    }

    /// `m` distinct indices of \[0, n) in uniformly random order from the stream `label`
    /// (sampling without replacement, recipe step 9). Needs 1 ≤ m ≤ n, else [`Error::Invalid`]
    /// naming `"m"` (or `"n"` for n = 0). The tape records kind `distinct` with n; a replay checks
    /// label, kind, count and n, and that the stored values are pairwise distinct and below n.
    pub fn distinct_indices(&mut self, label: &str, m: usize, n: usize) -> Result<Vec<usize>> {
        check_distinct_args(m, n)?;
        match self.draw(label, m, Request::Distinct(n))? {
            DrawValues::Distinct { values, .. } => values
                .into_iter()
                .map(|v| {
                    usize::try_from(v).map_err(|_| {
                        Error::Replay(format!("index value {v} does not fit in usize"))
                    })
                })
                .collect(),
            _ => unreachable!("draw returns the requested kind"),
        }
    }

    /// `out.len()` = m distinct indices of \[0, n) in uniformly random order from the
    /// **one-shot** stream of `label`'s step `step` (one-shot streams as in
    /// [`NoiseSource::indices_at`]): the values of [`NoiseSource::distinct_indices`] with the
    /// formatted label on its first use. A non-recording source allocates nothing (the m slots
    /// of `out` are the sampler's only memory). Needs 1 ≤ m ≤ n (errors as there).
    pub fn distinct_indices_at(
        &mut self,
        label: &StepLabel,
        step: u64,
        n: usize,
        out: &mut [usize],
    ) -> Result<()> {
        check_distinct_args(out.len(), n)?;
        if let NoiseSource::Sample {
            master_seed,
            tape: None,
            draws_made,
            ..
        } = self
        {
            let mut stream = Stream::with_stream_number(*master_seed, label.stream_number(step));
            stream.distinct_indices_into(n, out);
            *draws_made += 1;
            return Ok(());
        }
        let v = self.one_shot(&label.label(step), out.len(), Request::Distinct(n))?;
        let DrawValues::Distinct { values, .. } = v else {
            unreachable!("draw returns the requested kind")
        };
        for (o, v) in out.iter_mut().zip(values) {
            *o = usize::try_from(v)
                .map_err(|_| Error::Replay(format!("index value {v} does not fit in usize")))?;
        }
        Ok(())
    }

    /// `out.len()` indices in \[0, n) from the **one-shot** stream of `label`'s step `step`
    /// (the label `{head}{step}`), written into `out`.
    ///
    /// One-shot: the stream is derived on demand from (master seed, label) at its start and not
    /// kept, so a non-recording source stays constant in memory however many steps a run
    /// makes, and no label string is formatted. The values are those of
    /// [`NoiseSource::indices`] with the formatted label **on its first use**; an algorithm
    /// must therefore draw each step label at most once from one source (every iterative
    /// algorithm of the crate does: the step is part of the label). Recording and replaying
    /// format the label and behave as [`NoiseSource::indices`] (tape entries are identical).
    /// `n == 0` is [`Error::Invalid`] naming `"n"`.
    pub fn indices_at(
        &mut self,
        label: &StepLabel,
        step: u64,
        n: usize,
        out: &mut [usize],
    ) -> Result<()> {
        if n == 0 {
            return Err(invalid("n", "index range must be >= 1, got 0"));
        }
        if let NoiseSource::Sample {
            master_seed,
            tape: None,
            draws_made,
            ..
        } = self
        {
            let mut stream = Stream::with_stream_number(*master_seed, label.stream_number(step));
            out.iter_mut().for_each(|o| *o = stream.index(n));
            *draws_made += 1;
            return Ok(());
        }
        let v = self.one_shot(&label.label(step), out.len(), Request::Index(n))?;
        let DrawValues::Index { values, .. } = v else {
            unreachable!("draw returns the requested kind")
        };
        for (o, v) in out.iter_mut().zip(values) {
            *o = usize::try_from(v)
                .map_err(|_| Error::Replay(format!("index value {v} does not fit in usize")))?;
        }
        Ok(())
    }

    /// `out.len()` draws of N(0, sigma²) from the one-shot stream of `label`'s step `step`,
    /// written into `out`: the values of [`NoiseSource::gaussian`] with the formatted label on its
    /// first use (one-shot streams as in [`NoiseSource::indices_at`]; a Box–Muller output left
    /// cached at the end is dropped with the stream). `sigma` must be finite and `>= 0`, else
    /// [`Error::Invalid`] naming `"sigma"`.
    pub fn gaussian_at(
        &mut self,
        label: &StepLabel,
        step: u64,
        sigma: f64,
        out: &mut [f64],
    ) -> Result<()> {
        if !sigma.is_finite() || sigma < 0.0 {
            return Err(invalid(
                "sigma",
                format!("must be finite and >= 0, got {sigma}"),
            ));
        }
        if let NoiseSource::Sample {
            master_seed,
            tape: None,
            draws_made,
            ..
        } = self
        {
            let mut stream = Stream::with_stream_number(*master_seed, label.stream_number(step));
            stream.fill_scaled_normals(sigma, out);
            *draws_made += 1;
            return Ok(());
        }
        let v = self.one_shot(&label.label(step), out.len(), Request::Normal)?;
        let DrawValues::Normal(z) = v else {
            unreachable!("draw returns the requested kind")
        };
        out.iter_mut().zip(z).for_each(|(o, z)| *o = sigma * z);
        Ok(())
    }

    /// One draw call on a one-shot stream (recording or replaying; see
    /// [`NoiseSource::indices_at`]): a recording source draws from a fresh stream of the label
    /// and records it without keeping the stream; a replay checks the tape entry as usual.
    fn one_shot(&mut self, label: &str, count: usize, req: Request) -> Result<DrawValues> {
        match self {
            NoiseSource::Sample {
                master_seed,
                tape,
                draws_made,
                ..
            } => {
                let mut stream = Stream::new(*master_seed, label);
                let values = draw_values(&mut stream, count, req);
                if let Some(tape) = tape {
                    tape.draws.push(Draw {
                        label: label.to_string(),
                        values: values.clone(),
                    });
                }
                *draws_made += 1;
                Ok(values)
            }
            NoiseSource::Replay { .. } => self.draw(label, count, req),
        }
    }

    /// The tape recorded so far (a recording `Sample` source), or the tape being replayed.
    /// `None` for a non-recording `Sample` source.
    pub fn tape(&self) -> Option<&Tape> {
        match self {
            NoiseSource::Sample { tape, .. } => tape.as_ref(),
            NoiseSource::Replay { tape, .. } => Some(tape),
        }
    }

    /// The recorded tape (or the replayed one), consuming the source; see [`NoiseSource::tape`].
    pub fn into_tape(self) -> Option<Tape> {
        match self {
            NoiseSource::Sample { tape, .. } => tape,
            NoiseSource::Replay { tape, .. } => Some(tape),
        }
    }

    /// Number of successful draw calls so far.
    pub fn draws_made(&self) -> usize {
        match self {
            NoiseSource::Sample { draws_made, .. } => *draws_made,
            NoiseSource::Replay { position, .. } => *position,
        }
    }

    /// The master seed of a `Sample` source; `None` when replaying.
    pub fn master_seed(&self) -> Option<u64> {
        match self {
            NoiseSource::Sample { master_seed, .. } => Some(*master_seed),
            NoiseSource::Replay { .. } => None,
        }
    }

    /// Whether this source replays a tape.
    pub fn is_replay(&self) -> bool {
        matches!(self, NoiseSource::Replay { .. })
    }

    /// Perform one draw call (sample, record, or replay-and-check).
    fn draw(&mut self, label: &str, count: usize, req: Request) -> Result<DrawValues> {
        match self {
            NoiseSource::Sample {
                master_seed,
                streams,
                tape,
                draws_made,
            } => {
                let stream = streams
                    .entry(label.to_string())
                    .or_insert_with(|| Stream::new(*master_seed, label));
                let values = draw_values(stream, count, req);
                if let Some(tape) = tape {
                    tape.draws.push(Draw {
                        label: label.to_string(),
                        values: values.clone(),
                    });
                }
                *draws_made += 1;
                Ok(values)
            }
            NoiseSource::Replay { tape, position } => {
                let i = *position;
                let entry = tape.draws.get(i).ok_or_else(|| {
                    Error::Replay(format!(
                        "draw #{i} ({} x{count} from '{label}'): the tape has only {} draws",
                        req.kind(),
                        tape.draws.len()
                    ))
                })?;
                check_entry(i, entry, label, count, req)?;
                *position += 1;
                Ok(entry.values.clone())
            }
        }
    }
}

/// 1 ≤ m ≤ n for a sample without replacement.
fn check_distinct_args(m: usize, n: usize) -> Result<()> {
    if n == 0 {
        return Err(invalid("n", "index range must be >= 1, got 0"));
    }
    if m == 0 || m > n {
        return Err(invalid(
            "m",
            format!("a sample without replacement needs 1 <= m <= n = {n}, got {m}"),
        ));
    }
    Ok(())
}

/// The values of one draw call of kind `req` on `stream`.
fn draw_values(stream: &mut Stream, count: usize, req: Request) -> DrawValues {
    match req {
        Request::Normal => DrawValues::Normal(stream.normals(count)),
        Request::Uniform => DrawValues::Uniform(stream.uniforms(count)),
        Request::Index(n) => DrawValues::Index {
            n: n as u64,
            values: stream
                .indices(count, n)
                .into_iter()
                .map(|i| i as u64)
                .collect(),
        },
        Request::Distinct(n) => {
            let mut out = vec![0usize; count];
            stream.distinct_indices_into(n, &mut out);
            DrawValues::Distinct {
                n: n as u64,
                values: out.into_iter().map(|i| i as u64).collect(),
            }
        }
        Request::Permutation => DrawValues::Permutation(
            stream
                .permutation(count)
                .into_iter()
                .map(|i| i as u64)
                .collect(),
        ),
    }
}

/// Check that tape entry `i` answers the request, including that its values are plausible
/// (finite normals, uniforms in \[0, 1), indices below n).
fn check_entry(i: usize, entry: &Draw, label: &str, count: usize, req: Request) -> Result<()> {
    let fail = |what: String| Err(Error::Replay(format!("draw #{i}: {what}")));
    if entry.label != label {
        return fail(format!(
            "label differs: requested '{label}', tape has '{}'",
            entry.label
        ));
    }
    if entry.values.kind() != req.kind() {
        return fail(format!(
            "kind differs on '{label}': requested {}, tape has {}",
            req.kind(),
            entry.values.kind()
        ));
    }
    if entry.values.count() != count {
        return fail(format!(
            "count differs on '{label}': requested {count} {} values, tape has {}",
            req.kind(),
            entry.values.count()
        ));
    }
    match (&entry.values, req) {
        (DrawValues::Normal(v), _) => {
            if let Some(j) = v.iter().position(|x| !x.is_finite()) {
                return fail(format!(
                    "normal value [{j}] on '{label}' is not finite: {}",
                    v[j]
                ));
            }
        }
        (DrawValues::Uniform(v), _) => {
            if let Some(j) = v.iter().position(|x| !(0.0..1.0).contains(x)) {
                return fail(format!(
                    "uniform value [{j}] on '{label}' is outside [0, 1): {}",
                    v[j]
                ));
            }
        }
        (DrawValues::Index { n: tn, values }, Request::Index(n)) => {
            if *tn != n as u64 {
                return fail(format!(
                    "index range differs on '{label}': requested n = {n}, tape has n = {tn}"
                ));
            }
            if let Some(j) = values.iter().position(|&v| v >= *tn) {
                return fail(format!(
                    "index value [{j}] on '{label}' is {} >= n = {tn}",
                    values[j]
                ));
            }
        }
        (DrawValues::Permutation(values), _) => {
            let mut seen = vec![false; values.len()];
            for (j, &v) in values.iter().enumerate() {
                let k = usize::try_from(v).ok().filter(|&k| k < seen.len());
                match k {
                    Some(k) if !seen[k] => seen[k] = true,
                    _ => {
                        return fail(format!(
                        "permutation value [{j}] on '{label}' is {v}: not a permutation of [0, {})",
                        values.len()
                    ))
                    }
                }
            }
        }
        (DrawValues::Distinct { n: tn, values }, Request::Distinct(n)) => {
            if *tn != n as u64 {
                return fail(format!(
                    "index range differs on '{label}': requested n = {n}, tape has n = {tn}"
                ));
            }
            if let Some(j) = values.iter().position(|&v| v >= *tn) {
                return fail(format!(
                    "index value [{j}] on '{label}' is {} >= n = {tn}",
                    values[j]
                ));
            }
            let mut sorted = values.clone();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return fail(format!(
                    "distinct indices on '{label}' repeat the value {}",
                    w[0]
                ));
            }
        }
        (DrawValues::Index { .. } | DrawValues::Distinct { .. }, _) => {
            unreachable!("kinds were checked equal")
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn filled_normals_are_the_normal_draws() {
        for sigma in [1.0, 0.3] {
            for lens in [vec![5usize, 3, 0, 4, 1], vec![0, 2, 7, 6]] {
                let (mut a, mut b) = (Stream::new(9, "x"), Stream::new(9, "x"));
                for len in lens {
                    let mut out = vec![0.0; len];
                    a.fill_scaled_normals(sigma, &mut out);
                    let want: Vec<u64> = (0..len).map(|_| (sigma * b.normal()).to_bits()).collect();
                    assert_eq!(out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want);
                }
                assert_eq!(a.normal().to_bits(), b.normal().to_bits(), "same cache");
                assert_eq!(a.next_u64(), b.next_u64(), "same position");
            }
        }
    }

    #[test]
    fn step_labels_hash_as_their_formatted_label() {
        let l = StepLabel::new("rr/round=2/sgda/noise/step=");
        for step in [0u64, 1, 9, 10, 17, 12345, u64::MAX] {
            assert_eq!(l.stream_number(step), fnv1a64(&l.label(step)));
        }
        assert_eq!(l.label(17), "rr/round=2/sgda/noise/step=17");
    }

    #[test]
    fn one_shot_draws_equal_first_labelled_draws() {
        let l = StepLabel::new("p/sgda/batch/step=");
        let (mut a, mut b, mut r) = (
            NoiseSource::sample(5),
            NoiseSource::sample(5),
            NoiseSource::recording(5),
        );
        for t in 1..=3u64 {
            let mut idx = [0usize; 7];
            a.indices_at(&l, t, 11, &mut idx).unwrap();
            assert_eq!(idx.to_vec(), b.indices(&l.label(t), 7, 11).unwrap());
            let mut idx2 = [0usize; 7];
            r.indices_at(&l, t, 11, &mut idx2).unwrap();
            assert_eq!(idx, idx2);
            let mut z = [0.0; 5];
            a.gaussian_at(&l, 100 + t, 0.3, &mut z).unwrap();
            assert_eq!(z.to_vec(), b.gaussian(&l.label(100 + t), 5, 0.3).unwrap());
            r.gaussian_at(&l, 100 + t, 0.3, &mut z).unwrap();
        }
        assert_eq!((a.draws_made(), r.draws_made()), (6, 6));
        let tape = r.into_tape().unwrap();
        assert_eq!(&tape, b.tape().unwrap_or(&tape));
        let mut rep = NoiseSource::replay(tape);
        let mut z = [0.0; 7];
        let mut idx = [0usize; 7];
        rep.indices_at(&l, 1, 11, &mut idx).unwrap();
        rep.gaussian_at(&l, 101, 0.3, &mut z[..5]).unwrap();
        assert!(rep.gaussian_at(&l, 2, 0.3, &mut z[..5]).is_err());
    }

    /// Every choice sequence of Bentley–Floyd's ordered sample, for all 1 ≤ m ≤ n ≤ 6: each
    /// ordered m-tuple of distinct values appears equally often (exact uniformity).
    #[test]
    fn ordered_sample_is_exactly_uniform() {
        for n in 1..=6usize {
            for m in 1..=n {
                let bounds: Vec<usize> = (n - m..n).map(|j| j + 1).collect();
                let total: usize = bounds.iter().product();
                let mut counts = BTreeMap::new();
                for code in 0..total {
                    let (mut c, mut k) = (code, 0);
                    let mut out = vec![0usize; m];
                    ordered_sample_into(n, &mut out, |b| {
                        assert_eq!(b, bounds[k]);
                        k += 1;
                        let t = c % b;
                        c /= b;
                        t
                    });
                    *counts.entry(out).or_insert(0usize) += 1;
                }
                let tuples: usize = (n - m + 1..=n).product();
                assert_eq!(counts.len(), tuples, "n={n} m={m}");
                assert!(counts.values().all(|&c| c * tuples == total), "n={n} m={m}");
                assert!(counts.keys().all(|t| {
                    let mut u = t.clone();
                    u.sort_unstable();
                    u.dedup();
                    u.len() == m && u.iter().all(|&v| v < n)
                }));
            }
        }
    }

    #[test]
    fn distinct_draws_record_replay_and_refuse_bad_tapes() {
        let l = StepLabel::new("p/batch/step=");
        let mut rec = NoiseSource::recording(3);
        let mut plain = NoiseSource::sample(3);
        let mut labelled = NoiseSource::sample(3);
        let mut a = [0usize; 4];
        let mut b = [0usize; 4];
        for t in 1..=3u64 {
            rec.distinct_indices_at(&l, t, 9, &mut a).unwrap();
            plain.distinct_indices_at(&l, t, 9, &mut b).unwrap();
            assert_eq!(a, b);
            assert_eq!(
                a.to_vec(),
                labelled.distinct_indices(&l.label(t), 4, 9).unwrap()
            );
        }
        assert!(
            plain.distinct_indices_at(&l, 9, 3, &mut a).is_err(),
            "m > n"
        );
        assert!(plain.distinct_indices("x", 0, 3).is_err(), "m = 0");
        let tape = rec.into_tape().unwrap();
        assert!(tape
            .to_json()
            .contains("\"distinct\":{\"n\":9,\"values\":["));
        let mut rep = NoiseSource::replay(Tape::from_json("t", &tape.to_json()).unwrap());
        for t in 1..=3u64 {
            rep.distinct_indices_at(&l, t, 9, &mut b).unwrap();
        }
        assert_eq!(b, a);
        // A repeated value, an index tape in place of a distinct one, a wrong n: refused.
        let mut bad = tape.clone();
        if let DrawValues::Distinct { values, .. } = &mut bad.draws[0].values {
            values[1] = values[0];
        }
        let e = NoiseSource::replay(bad)
            .distinct_indices_at(&l, 1, 9, &mut b)
            .unwrap_err();
        assert!(e.to_string().contains("repeat"), "{e}");
        let mut as_index = tape.clone();
        if let DrawValues::Distinct { n, values } = as_index.draws[0].values.clone() {
            as_index.draws[0].values = DrawValues::Index { n, values };
        }
        assert!(NoiseSource::replay(as_index)
            .distinct_indices_at(&l, 1, 9, &mut b)
            .is_err());
        assert!(NoiseSource::replay(tape)
            .distinct_indices_at(&l, 1, 10, &mut b)
            .is_err());
    }

    #[test]
    fn index_zero_range_is_zero_and_consumes_one() {
        let mut a = Stream::new(1, "x");
        let mut b = a.clone();
        assert_eq!(a.index(0), 0);
        b.next_u64();
        assert_eq!(a.next_u64(), b.next_u64());
    }
}
