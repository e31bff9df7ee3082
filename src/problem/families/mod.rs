//! Problem families on which every quantity is exact: closed-form best responses, saddle points
//! and gaps, so checks compare against the truth rather than against another solver.
pub mod abs_separable;
pub mod cos_hinge;
pub mod quad_bilinear;

pub use abs_separable::AbsSeparable;
pub use cos_hinge::CosHinge;
pub use quad_bilinear::QuadBilinear;
