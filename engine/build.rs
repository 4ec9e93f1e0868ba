//! Embeds every `levels/*.ron` file, so adding a variant is adding a file and the CLI and the
//! browser build need no files at run time. The two games' files are told apart by their
//! top-level RON struct name: `Variant(...)` is Spider, `ProSpider10(...)` is Pro Spider 10; a file
//! that is neither fails the build, naming the file.
use std::path::{Path, PathBuf};

/// The first identifier of a RON text, after whitespace and comments.
fn top_level_name(text: &str) -> Option<&str> {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("#![") {
            // RON extensions: `#![enable(...)]`
            rest = r.split_once(']').map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn write_list(dest: &Path, files: &[(String, PathBuf)]) {
    let mut out = String::from("pub(super) const LEVELS: &[(&str, &str)] = &[\n");
    for (name, f) in files {
        out += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.display().to_string()
        );
    }
    out += "];\n";
    std::fs::write(dest, out).expect("write the embedded level list");
}

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
    let (mut spider, mut phase10) = (Vec::new(), Vec::new());
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 file name")
            .to_string();
        let text = std::fs::read_to_string(&f).expect("readable level file");
        match top_level_name(&text) {
            Some("Variant") => spider.push((name, f)),
            Some("ProSpider10") => phase10.push((name, f)),
            other => panic!(
                "levels/{name}: the top-level struct must be `Variant(...)` (Spider) or `ProSpider10(...)` (Pro Spider 10), not {}",
                other.map_or("nothing".to_string(), |n| format!("`{n}`"))
            ),
        }
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    write_list(&out.join("levels.rs"), &spider);
    write_list(&out.join("phase10_levels.rs"), &phase10);
}
