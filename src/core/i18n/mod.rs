//! The overlay's words in English and German. Every string the player reads lives in one table
//! per language ([`en`], [`de`]) under a key; code asks for [`t`]`("key")`, or [`tf`] with
//! `{name}` placeholders filled. The language is the settings' choice, else the system's (the
//! desktop's `LANG`, the browser's `navigator.language`). A test fails when a key is missing
//! from a table, or when code asks for a key no table has.
pub mod de;
pub mod de_help;
pub mod de_spider;
mod de_studio;
pub mod en;
pub mod en_help;
pub mod en_spider;
mod en_studio;

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use serde::{Deserialize, Serialize};

/// A language of the overlay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// German (the seed rulebook's language).
    De,
}

impl Lang {
    /// Every language, in the order the settings list them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::De];

    /// The language's own name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
        }
    }

    /// The language a locale tag names (`de`, `de-AT`, `de_DE.UTF-8`), English otherwise.
    pub fn from_locale(tag: &str) -> Lang {
        let tag = tag.trim().to_ascii_lowercase();
        if tag == "de" || tag.starts_with("de-") || tag.starts_with("de_") || tag.starts_with("de.")
        {
            Lang::De
        } else {
            Lang::En
        }
    }

    /// The system's language: the browser's, or on the desktop the first of `LC_ALL`,
    /// `LC_MESSAGES`, `LANG` that is set.
    pub fn system() -> Lang {
        #[cfg(target_arch = "wasm32")]
        {
            Lang::from_locale(&crate::web::browser_language().unwrap_or_default())
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            ["LC_ALL", "LC_MESSAGES", "LANG"]
                .iter()
                .filter_map(|v| std::env::var(v).ok())
                .find(|v| !v.is_empty())
                .map_or(Lang::En, |v| Lang::from_locale(&v))
        }
    }

    fn table(self) -> &'static HashMap<&'static str, &'static str> {
        static EN: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
        static DE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
        let cell = match self {
            Lang::En => &EN,
            Lang::De => &DE,
        };
        cell.get_or_init(|| self.strings().collect())
    }

    /// Every (key, text) pair of this language's table, over all its parts.
    fn strings(self) -> impl Iterator<Item = (&'static str, &'static str)> {
        let parts: [&'static [(&'static str, &'static str)]; 4] = match self {
            Lang::En => [
                en::STRINGS,
                en_spider::STRINGS,
                en_help::STRINGS,
                en_studio::STRINGS,
            ],
            Lang::De => [
                de::STRINGS,
                de_spider::STRINGS,
                de_help::STRINGS,
                de_studio::STRINGS,
            ],
        };
        parts.into_iter().flatten().copied()
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Makes `lang` the overlay's language.
pub fn set_lang(lang: Lang) {
    CURRENT.store(lang as u8, Ordering::Relaxed);
}

/// The overlay's language now.
pub fn lang() -> Lang {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Lang::De,
        _ => Lang::En,
    }
}

/// The text of `key` in the current language (English if that table lacks it, the key itself
/// if no table has it: a test keeps both from happening).
pub fn t(key: &'static str) -> &'static str {
    lookup(lang(), key)
}

/// The text of `key` in `lang`.
pub fn lookup(lang: Lang, key: &'static str) -> &'static str {
    lang.table()
        .get(key)
        .or_else(|| Lang::En.table().get(key))
        .copied()
        .unwrap_or(key)
}

/// The text of `key` with each `{name}` replaced by its value.
pub fn tf(key: &'static str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    fill(t(key), args)
}

/// `text` with each `{name}` replaced by its value.
pub fn fill(text: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = text.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

/// A variant's name in the current language (the file's own name when the table has none).
pub fn variant_name(id: &str, fallback: &str) -> String {
    variant_text(id, "name", fallback)
}

/// A variant's description in the current language.
pub fn variant_description(id: &str, fallback: &str) -> String {
    variant_text(id, "description", fallback)
}

fn variant_text(id: &str, part: &str, fallback: &str) -> String {
    variant_text_in(lang(), id, part, fallback)
}

fn variant_text_in(lang: Lang, id: &str, part: &str, fallback: &str) -> String {
    // A combination (`BASE+OPTION+...`): the base's name with its options, in this language.
    if part == "name"
        && lang != Lang::En
        && let Some((base, options)) = id.split_once('+')
    {
        let base_name = variant_text_in(lang, base, "name", base);
        let options: Vec<&str> = options
            .split('+')
            .map(|o| match o {
                "knocking" => lookup(lang, "variant.option.knocking"),
                "ten-rounds" => lookup(lang, "variant.option.ten_rounds"),
                "any-order" => lookup(lang, "variant.option.any_order"),
                other => other,
            })
            .collect();
        return fill(
            lookup(lang, "variant.combined"),
            &[
                ("base", &base_name),
                ("options", &options.join(lookup(lang, "p10.and"))),
            ],
        );
    }
    let key = format!("variant.{id}.{part}");
    lang.table()
        .get(key.as_str())
        .map_or_else(|| fallback.to_string(), |s| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn keys(lang: Lang) -> BTreeSet<String> {
        lang.strings().map(|(k, _)| k.to_string()).collect()
    }

    #[test]
    fn every_key_is_in_both_tables_once_with_the_same_placeholders() {
        for lang in Lang::ALL {
            let name = lang.name();
            let mut seen = BTreeSet::new();
            for (k, v) in lang.strings() {
                assert!(seen.insert(k), "{name}: `{k}` twice");
                assert!(!v.is_empty(), "{name}: `{k}` is empty");
            }
        }
        // Variants' names and descriptions: English is the files' own text.
        let shared = |lang: Lang| -> BTreeSet<String> {
            keys(lang)
                .into_iter()
                .filter(|k| !k.starts_with("variant."))
                .collect()
        };
        let (en_keys, de_keys) = (shared(Lang::En), shared(Lang::De));
        let missing_de: Vec<_> = en_keys.difference(&de_keys).collect();
        let missing_en: Vec<_> = de_keys.difference(&en_keys).collect();
        assert!(missing_de.is_empty(), "missing in German: {missing_de:?}");
        assert!(missing_en.is_empty(), "missing in English: {missing_en:?}");
        let holes = |s: &str| -> BTreeSet<String> {
            s.split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(h, _)| h.to_string()))
                .collect()
        };
        let de: HashMap<_, _> = Lang::De.strings().collect();
        for (k, v) in Lang::En
            .strings()
            .filter(|(k, _)| !k.starts_with("variant."))
        {
            assert_eq!(holes(v), holes(de[k]), "placeholders of `{k}`");
        }
    }

    /// Every `t("…")`, `tf("…"`, `save_failed("…"` and `lookup(…, "…")` in the game's source
    /// names a key the tables have.
    #[test]
    fn every_key_the_code_asks_for_is_in_the_tables() {
        let en_keys = keys(Lang::En);
        let mut missing = Vec::new();
        let mut asked = 0;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let tables = path.components().any(|c| c.as_os_str() == "i18n");
                if path.extension().is_none_or(|e| e != "rs") || tables {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for open in ["t(\"", "tf(\"", "tr(\"", "save_failed(\""] {
                    for (i, _) in text.match_indices(open) {
                        // Only the calls themselves, not names ending in `t` or `tf`.
                        let before = text[..i].chars().next_back();
                        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                            continue;
                        }
                        let rest = &text[i + open.len()..];
                        let key = &rest[..rest.find('"').unwrap()];
                        asked += 1;
                        if !en_keys.contains(key) {
                            missing.push(format!("{}: {key}", path.display()));
                        }
                    }
                }
            }
        }
        assert!(
            asked > 100,
            "only {asked} keys asked for: is the scan broken?"
        );
        assert!(
            missing.is_empty(),
            "keys no table has:\n{}",
            missing.join("\n")
        );
    }

    #[test]
    fn the_system_language_follows_the_locale_and_the_german_table_is_used() {
        assert_eq!(Lang::from_locale("de_DE.UTF-8"), Lang::De);
        assert_eq!(Lang::from_locale("de-AT"), Lang::De);
        assert_eq!(Lang::from_locale("en_GB.UTF-8"), Lang::En);
        assert_eq!(Lang::from_locale("dexter"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
        assert_ne!(
            lookup(Lang::De, "lang.choose"),
            lookup(Lang::En, "lang.choose")
        );
        assert_eq!(
            fill("{a} and {b}", &[("a", &1), ("b", &"two")]),
            "1 and two"
        );
    }

    #[test]
    fn a_combined_variant_is_named_in_the_language() {
        let name = variant_text_in(
            Lang::De,
            "pro-spider-10-first-five+knocking",
            "name",
            "unused",
        );
        assert_eq!(name, "Pro Spider 10: die ersten fünf mit Klopfen");
        let both = variant_text_in(
            Lang::De,
            "pro-spider-10-odd+knocking+ten-rounds",
            "name",
            "-",
        );
        assert_eq!(
            both,
            "Pro Spider 10: ungerade Phasen mit Klopfen und einem Durchgang je Phase"
        );
        // English is the engine's own name.
        let en = variant_text_in(Lang::En, "pro-spider-10-odd+knocking", "name", "English");
        assert_eq!(en, "English");
    }

    #[test]
    fn every_builtin_variant_has_a_german_name_and_description() {
        let de = keys(Lang::De);
        let spider = arachne_engine::variant::builtin()
            .iter()
            .map(|v| v.id.clone());
        let p10 = arachne_engine::phase10::variant::builtin()
            .iter()
            .map(|v| v.id.clone());
        for id in spider.chain(p10) {
            for part in ["name", "description"] {
                let key = format!("variant.{id}.{part}");
                assert!(de.contains(&key), "missing in German: {key}");
            }
        }
    }
}
