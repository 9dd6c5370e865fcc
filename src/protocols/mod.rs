//! Line protocols: a front end drives beamtris over stdin and stdout.

pub mod classroom;
pub mod tbp;
