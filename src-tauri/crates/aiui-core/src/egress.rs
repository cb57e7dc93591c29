//! The egress screen (being written).
