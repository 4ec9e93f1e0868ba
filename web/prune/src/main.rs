//! `arachne-wasm-prune IN OUT`: see the library's documentation. Used by `web/build.sh`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: arachne-wasm-prune IN.wasm OUT.wasm");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(input) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("arachne-wasm-prune: cannot read {input}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match arachne_wasm_prune::prune(&bytes) {
        Ok((pruned, report)) => {
            // Temporary file, then rename: a failed write never leaves a half module behind.
            let tmp = format!("{output}.tmp");
            if let Err(e) =
                std::fs::write(&tmp, &pruned).and_then(|()| std::fs::rename(&tmp, output))
            {
                eprintln!("arachne-wasm-prune: cannot write {output}: {e}");
                return ExitCode::FAILURE;
            }
            println!("arachne-wasm-prune: {input} -> {output}: {report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arachne-wasm-prune: {input}: {e}");
            ExitCode::FAILURE
        }
    }
}
