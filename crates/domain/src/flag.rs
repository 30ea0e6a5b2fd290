//! `Flag`: the shop's `Y`/`N` switches, read liberally (`"Y"`, `"N"`, `true`, `false`, `1`,
//! `0`) and always written as `"Y"` or `"N"`.

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag(pub bool);

impl Flag {
    pub const YES: Flag = Flag(true);
    pub const NO: Flag = Flag(false);

    pub fn as_str(self) -> &'static str {
        if self.0 { "Y" } else { "N" }
    }
}

impl From<bool> for Flag {
    fn from(b: bool) -> Self {
        Flag(b)
    }
}

impl From<Flag> for bool {
    fn from(f: Flag) -> Self {
        f.0
    }
}

impl Serialize for Flag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"Y\", \"N\", true, false, 1 or 0")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Flag, E> {
                match v {
                    0 => Ok(Flag(false)),
                    1 => Ok(Flag(true)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Flag, E> {
                match v {
                    0 => Ok(Flag(false)),
                    1 => Ok(Flag(true)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Flag, E> {
                match v {
                    "Y" | "y" => Ok(Flag(true)),
                    "N" | "n" => Ok(Flag(false)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_spelling_and_writes_y_or_n() {
        for (json, want) in [
            ("\"Y\"", true),
            ("\"N\"", false),
            ("true", true),
            ("false", false),
            ("1", true),
            ("0", false),
        ] {
            let f: Flag = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(f.0, want, "{json}");
        }
        assert!(serde_json::from_str::<Flag>("\"yes\"").is_err());
        assert!(serde_json::from_str::<Flag>("2").is_err());
        assert_eq!(
            serde_json::to_string(&Flag::YES).ok().as_deref(),
            Some("\"Y\"")
        );
    }
}
