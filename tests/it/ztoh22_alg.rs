//! Integration tests of one part of a paper (module name = the part).
