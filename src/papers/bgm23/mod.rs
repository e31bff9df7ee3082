//! BGM23 front page (filled in below).

pub mod bounds;
pub mod exact_box;
pub mod instances;
pub mod lin_box;
pub mod packing;
pub mod prop13;
