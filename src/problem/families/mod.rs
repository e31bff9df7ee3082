//! Problem families on which every quantity is exact (DESIGN "Core abstractions").
pub mod abs_separable;
pub mod cos_hinge;
pub mod quad_bilinear;

pub use abs_separable::AbsSeparable;
pub use cos_hinge::CosHinge;
pub use quad_bilinear::QuadBilinear;
