//! Embeds every `levels/*.ron` file, so adding a variant is adding a file and the CLI and the
//! browser build need no files at run time.
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let levels = manifest.join("../levels");
    println!("cargo:rerun-if-changed={}", levels.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&levels)
        .expect("levels/ beside engine/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let mut out = String::from("pub(super) const LEVELS: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 file name");
        out += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.display().to_string()
        );
    }
    out += "];\n";
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("levels.rs");
    std::fs::write(dest, out).expect("write levels.rs");
}
