//! Move notations: ICCS, WXF and Chinese.
