//! Examples live beside this file; run them with `cargo run -p speccheck-examples --example <name>`.
