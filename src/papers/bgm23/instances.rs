//! The instances BGM23's checks, fixtures and benches share (beyond the core's
//! [`crate::instances`]): the rate experiments' data-affine loss in ℝ⁵ × ℝ⁵ with its seeded
//! four-atom distribution, and the instance on which Lemma 20 holds with equality.

use crate::error::Result;
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::problem::{Dataset, FiniteDist, QuadBilinear};
use crate::rng::Stream;

/// The rate experiments' loss: f(w, θ; x) = ⟨a, w⟩ − ⟨b, θ⟩ + wᵀθ on unit balls of ℝ⁵ × ℝ⁵
/// (x = (a, b), d = 10). The coupling makes the saddle point interior (w* = b̄, θ* = −ā), so the
/// gap is first order in the distance to it (a loss linear in each block alone would have its
/// saddle point on the sphere, where the gap is second order and decays like 1/n).
pub fn rate_loss() -> Result<QuadBilinear> {
    let ball = |d: usize| Domain::Ball {
        center: vec![0.0; d],
        radius: 1.0,
    };
    QuadBilinear::data_affine(ball(5), ball(5), Matrix::identity(5), 0.0, 0.0)
}

/// Four atoms of norm `scale` around the point `base` (all seeded), probabilities .4/.3/.2/.1.
pub fn rate_distribution(base: &[f64], scale: f64) -> Result<FiniteDist> {
    let mut s = Stream::new(23, "claims/bgm23.rates/atoms");
    let atoms: Vec<Vec<f64>> = (0..4)
        .map(|_| {
            let v: Vec<f64> = (0..10).map(|_| s.normal()).collect();
            let n = linalg::norm2(&v);
            linalg::add(base, &linalg::scale(scale / n, &v))
        })
        .collect();
    FiniteDist::new(atoms, vec![0.4, 0.3, 0.2, 0.1])
}

/// n i.i.d. points of `dist` from the stream ("claims/bgm23.rates/data", seed).
pub fn rate_sample(dist: &FiniteDist, n: usize, seed: u64) -> Result<Dataset> {
    let mut s = Stream::new(seed, "claims/bgm23.rates/data");
    let u = s.uniforms(n);
    let idx = dist.sample_indices(&u)?;
    let mut points = crate::problem::Rows::with_capacity(n, dist.atoms[0].len());
    for i in idx {
        points.push(&dist.atoms[i])?;
    }
    Dataset::from_rows(points)
}

/// Lemma 20's tight instance: (f, S, z_0, z = z*_S, L, D).
///
/// LIN-box with c = 0 and the single data point x = (3/5, 4/5), so G ≡ (3/5, 4/5) and ‖G‖ = L = 1;
/// z_0 = (3/10, 2/5), z = (−3/10, −2/5) = z*_S, so z_0 − z = G and D = 1; η = D/L = 1, T = 1: both
/// sides of Lemma 20 equal D·L = 1.
pub struct Lemma20Tight {
    /// LIN-box with c = 0.
    pub f: QuadBilinear,
    /// S = {(3/5, 4/5)}.
    pub s: Dataset,
    /// z_0 = (3/10, 2/5).
    pub z0: Vec<f64>,
    /// z = (−3/10, −2/5), the saddle point of F_S.
    pub z: Vec<f64>,
    /// L = ‖G‖ = 1.
    pub l: f64,
    /// D = ‖z_0 − z‖ = 1.
    pub d: f64,
}

/// The Lemma 20 tight instance ([`Lemma20Tight`]).
pub fn lemma20_tight() -> Result<Lemma20Tight> {
    Ok(Lemma20Tight {
        f: QuadBilinear::lin_box(0.0)?,
        s: Dataset::new(vec![vec![0.6, 0.8]])?,
        z0: vec![0.3, 0.4],
        z: vec![-0.3, -0.4],
        l: 1.0,
        d: 1.0,
    })
}
