//! Percentile values keyed like `p50`, `p99.9`, kept in their configured order.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Percentile → value pairs. Serialized as a JSON object `{"p50": 1200, "p99.9": 4100}`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Percentiles(pub Vec<(f64, u64)>);

impl Percentiles {
    /// The value recorded for percentile `p`, if any.
    pub fn get(&self, p: f64) -> Option<u64> {
        self.0.iter().find(|(q, _)| *q == p).map(|(_, v)| *v)
    }
}

/// `50.0` → `"p50"`, `99.9` → `"p99.9"`.
pub fn percentile_label(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("p{p:.0}")
    } else {
        format!("p{p}")
    }
}

impl Serialize for Percentiles {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (p, v) in &self.0 {
            map.serialize_entry(&percentile_label(*p), v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Percentiles {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PercentileMap;
        impl<'de> Visitor<'de> for PercentileMap {
            type Value = Percentiles;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object like {\"p50\": 1200}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Percentiles, A::Error> {
                let mut out = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, u64>()? {
                    let p = key
                        .strip_prefix('p')
                        .and_then(|n| n.parse::<f64>().ok())
                        .filter(|p| (0.0..=100.0).contains(p))
                        .ok_or_else(|| serde::de::Error::custom(format!("bad percentile key {key:?}")))?;
                    out.push((p, value));
                }
                Ok(Percentiles(out))
            }
        }
        deserializer.deserialize_map(PercentileMap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(percentile_label(50.0), "p50");
        assert_eq!(percentile_label(99.9), "p99.9");
        assert_eq!(percentile_label(100.0), "p100");
    }

    #[test]
    fn keeps_order_through_json() {
        let p = Percentiles(vec![(99.9, 7), (50.0, 3)]);
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(text, r#"{"p99.9":7,"p50":3}"#);
        assert_eq!(serde_json::from_str::<Percentiles>(&text).unwrap(), p);
        assert!(serde_json::from_str::<Percentiles>(r#"{"x50":1}"#).is_err());
    }
}
