//! Problems: datasets, finite-support distributions, the saddle-function and monotone-operator
//! traits, the exact problem families, and their JSON descriptions.
pub mod dataset;
pub mod distribution;
pub mod families;
pub mod monotone;
pub mod saddle;
pub mod spec;

pub use dataset::{Dataset, Rows};
pub use distribution::FiniteDist;
pub use families::{AbsSeparable, CosHinge, QuadBilinear};
pub use monotone::{
    AffineOp, ClampedOp, ConstantOp, DataAffineOp, MonotoneOp, OpConstants, RegularizedOp,
};
pub use saddle::{objective_value, Constants, Mixture, Objective, RegTerm, Regularizer, SaddleFn};
pub use spec::ProblemSpec;
