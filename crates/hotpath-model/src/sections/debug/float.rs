//! Gauge numbers in JSON: finite values as numbers, and `NaN`, `+Inf`, `-Inf` as
//! those strings (JSON has no such numbers, and `null` would not read back as `f64`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A number as JSON writes it: finite, or one of the three names.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Json {
    Number(f64),
    Name(String),
}

fn to_json(v: f64) -> Json {
    match v {
        v if v.is_finite() => Json::Number(v),
        v if v.is_nan() => Json::Name("NaN".into()),
        v if v > 0.0 => Json::Name("+Inf".into()),
        _ => Json::Name("-Inf".into()),
    }
}

fn from_json<E: serde::de::Error>(j: Json) -> Result<f64, E> {
    match j {
        Json::Number(v) => Ok(v),
        Json::Name(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "+Inf" | "Inf" => Ok(f64::INFINITY),
            "-Inf" => Ok(f64::NEG_INFINITY),
            other => Err(E::custom(format!("{other:?} is not a number, NaN, +Inf or -Inf"))),
        },
    }
}

/// `#[serde(with)]` for an `f64`.
pub(super) mod number {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        to_json(*v).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        from_json(Json::deserialize(d)?)
    }
}

/// `#[serde(with)]` for an `Option<f64>`.
pub(super) mod optional {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        v.map(to_json).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Option::<Json>::deserialize(d)?.map(from_json).transpose()
    }
}

/// `#[serde(with)]` for a `Vec<f64>`.
pub(super) mod numbers {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        v.iter().map(|x| to_json(*x)).collect::<Vec<_>>().serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<Json>::deserialize(d)?.into_iter().map(from_json).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::GaugeRow;

    #[test]
    fn non_finite_values_round_trip() {
        let row = GaugeRow {
            current: f64::NAN,
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
            history: vec![1.5, f64::INFINITY],
            ..GaugeRow::default()
        };
        let json = serde_json::to_string(&row).unwrap();
        assert!(json.contains(r#""current":"NaN","min":"-Inf","max":"+Inf""#), "{json}");
        assert!(json.contains(r#""history":[1.5,"+Inf"]"#), "{json}");
        let back: GaugeRow = serde_json::from_str(&json).unwrap();
        assert!(back.current.is_nan() && back.min == f64::NEG_INFINITY && back.history[1] == f64::INFINITY);
        assert!(serde_json::from_str::<GaugeRow>(&json.replace("\"NaN\"", "\"lots\"")).is_err());
    }
}
