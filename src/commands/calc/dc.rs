//! dc
