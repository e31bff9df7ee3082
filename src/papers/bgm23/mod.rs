//! BGM23 front page (filled in below).

pub mod lin_box;
pub mod packing;
pub mod prop13;
