//! The game's command line: `arachne [--variant ID] [--seed N] [--numbering kpat] [--capture PATH.png]`.
use std::path::PathBuf;

use arachne_engine::{Numbering, variant};

use crate::table::{GameSpec, Table};
use crate::theme::{BUILTIN_THEMES, Theme};

/// What the command line asks for.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The game to play: the deal asked for, with `--moves` already played.
    pub table: Table,
    /// Save a screenshot of the dealt table here and exit.
    pub capture: Option<PathBuf>,
    /// Play without sound.
    pub mute: bool,
    /// A theme other than the settings' one.
    pub theme: Option<Theme>,
    /// Whether the arguments chose a deal (else the saved game is resumed, if there is one).
    pub chose_deal: bool,
}

/// Usage text.
pub const USAGE: &str = "usage: arachne [--variant ID] [--seed N] [--numbering arachne|kpat] [--theme ID] [--moves \"1>2:1 d ...\"] [--capture PATH.png] [--mute]";

/// Parses the arguments after the program name. `default_seed` is used without `--seed`.
pub fn parse(args: &[String], default_seed: u64) -> Result<Launch, String> {
    let mut variant_id = "spider-2suit".to_string();
    let mut seed = default_seed;
    let mut numbering = Numbering::Arachne;
    let mut capture = None;
    let mut mute = false;
    let mut theme = None;
    let mut moves = Vec::new();
    let chose_deal = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--variant" | "--seed" | "--numbering" | "--moves"
        )
    });
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--variant" => variant_id = value("--variant")?,
            "--seed" => {
                let v = value("--seed")?;
                seed = v.parse().map_err(|_| {
                    format!("--seed: `{v}` is not a deal number (0 to 18446744073709551615)")
                })?;
            }
            "--numbering" => {
                numbering = match value("--numbering")?.as_str() {
                    "arachne" => Numbering::Arachne,
                    "kpat" => Numbering::Kpat,
                    other => return Err(format!("--numbering: `{other}` is not arachne or kpat")),
                }
            }
            "--capture" => capture = Some(PathBuf::from(value("--capture")?)),
            "--mute" => mute = true,
            "--moves" => {
                moves = arachne_engine::parse_move_list(&value("--moves")?)
                    .map_err(|e| format!("--moves: {e}"))?;
            }
            "--theme" => {
                let id = value("--theme")?;
                theme = Some(Theme::builtin(&id).ok_or_else(|| {
                    let ids: Vec<&str> = BUILTIN_THEMES.iter().map(|(id, _)| *id).collect();
                    format!(
                        "--theme: no theme `{id}`; the themes are: {}",
                        ids.join(", ")
                    )
                })?);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let spec = GameSpec::builtin(&variant_id, seed, numbering).ok_or_else(|| {
        let ids: Vec<&str> = variant::builtin().iter().map(|v| v.id.as_str()).collect();
        format!(
            "--variant: no variant `{variant_id}`; the variants are: {}",
            ids.join(", ")
        )
    })?;
    // Refuse a deal the numbering cannot make, or a move that does not apply, before the window
    // opens.
    let mut table = Table::new(spec).map_err(|e| e.to_string())?;
    for (i, &mv) in moves.iter().enumerate() {
        table
            .game
            .apply(mv)
            .map_err(|e| format!("--moves: move {} ({mv}): {e}", i + 1))?;
    }
    Ok(Launch {
        table,
        capture,
        mute,
        theme,
        chose_deal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn defaults_and_every_option() {
        let l = parse(&[], 7).unwrap();
        assert_eq!(
            (l.table.spec.variant.id.as_str(), l.table.spec.seed),
            ("spider-2suit", 7)
        );
        let l = parse(
            &args("--variant spider-4suit --seed 12 --numbering kpat --capture x.png --mute"),
            7,
        )
        .unwrap();
        assert_eq!(l.table.spec.variant.id, "spider-4suit");
        assert_eq!(
            (l.table.spec.seed, l.table.spec.numbering),
            (12, Numbering::Kpat)
        );
        assert_eq!(l.capture, Some(PathBuf::from("x.png")));
        assert!(l.mute);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let e = parse(&args("--variant nope"), 1).unwrap_err();
        assert!(
            e.contains("no variant `nope`") && e.contains("spider-1suit"),
            "{e}"
        );
        let e = parse(&args("--seed x"), 1).unwrap_err();
        assert!(e.contains("`x` is not a deal number"), "{e}");
        assert!(
            parse(&args("--seed"), 1)
                .unwrap_err()
                .contains("--seed needs a value")
        );
        assert!(
            parse(&args("--frobnicate"), 1)
                .unwrap_err()
                .contains("unknown argument")
        );
        // Huge Spider has no KPatience numbering.
        assert!(parse(&args("--variant huge-spider --numbering kpat"), 1).is_err());
    }
}
