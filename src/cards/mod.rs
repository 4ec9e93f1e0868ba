//! What both games' cards share: their bodies and backs, the shapes and stroked glyphs their
//! faces are drawn with, motion (poses, legs, lenses, shakes), and the pointer.
pub mod body;
pub mod glyphs;
pub mod motion;
pub mod pointer;
pub mod samples;
pub mod shapes;
