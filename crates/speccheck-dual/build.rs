//! With the `z3` feature, fail early and clearly when libz3 is missing
//! (z3-sys would otherwise fail only at the final link with `-lz3`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    if std::env::var_os("CARGO_FEATURE_Z3").is_none() {
        return;
    }
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("Z3_LIBRARY_PATH_OVERRIDE") {
        dirs.push(p.into());
    }
    for var in ["LIBRARY_PATH", "LD_LIBRARY_PATH"] {
        if let Some(p) = std::env::var_os(var) {
            dirs.extend(std::env::split_paths(&p));
        }
    }
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    for d in ["/usr/lib", "/usr/local/lib", "/usr/lib64", "/lib", "/opt/homebrew/lib"] {
        dirs.push(d.into());
    }
    dirs.push(format!("/usr/lib/{arch}-{os}-gnu").into());
    dirs.push(format!("/lib/{arch}-{os}-gnu").into());
    let names = ["libz3.so", "libz3.a", "libz3.dylib"];
    let found = dirs.iter().any(|d| names.iter().any(|n| d.join(n).exists()));
    if !found {
        panic!(
            "\n\nspeccheck-dual: the `z3` feature needs the Z3 library (libz3), which was not found.\n\
             Install it with:\n\n    apt-get install -y z3 libz3-dev\n\n\
             or set Z3_LIBRARY_PATH_OVERRIDE to the directory holding libz3.so,\n\
             or build without `--features z3` (the default solver needs nothing).\n"
        );
    }
}
