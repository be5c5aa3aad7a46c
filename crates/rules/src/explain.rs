//! Why a requested move is illegal, as data the app can render in any language.
