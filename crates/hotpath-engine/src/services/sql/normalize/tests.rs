use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::{normalize, Dialect, Kind, TEXT_CAP};

fn n(sql: &str) -> String {
    normalize(sql, Dialect::Unknown).text
}

fn in_(sql: &str, dialect: Dialect) -> String {
    normalize(sql, dialect).text
}

#[test]
fn literals_placeholders_lists_and_whitespace() {
    assert_eq!(n("SELECT name FROM users WHERE age = 21"), "SELECT name FROM users WHERE age = ?");
    assert_eq!(n("select * from t where id in (1, 2, 3)"), "select * from t where id in (?)");
    assert_eq!(n("SELECT * FROM t WHERE id IN (4,5,6,7,8)"), "SELECT * FROM t WHERE id IN (?)");
    assert_eq!(n("UPDATE t SET a = $1, b = $12 WHERE c = ?3"), "UPDATE t SET a = ?, b = ? WHERE c = ?");
    assert_eq!(n("INSERT INTO t VALUES ('it''s', -1.5e3, ?)"), "INSERT INTO t VALUES (?, ?, ?)");
    assert_eq!(
        in_("  SELECT\n\t t1.x,  \"Col 2\"  FROM t1 JOIN t2fa ON 2fa = 1  ", Dialect::Postgres),
        "SELECT t1.x, \"Col 2\" FROM t1 JOIN t2fa ON 2fa = ?"
    );
    assert_eq!(n("SELECT 'é' || name FROM ünïcode"), "SELECT ? || name FROM ünïcode");
    assert_eq!(n("SELECT * FROM t WHERE a IN (SELECT b FROM u)"), "SELECT * FROM t WHERE a IN (SELECT b FROM u)");
    assert_eq!(n("SELECT min(x), in_stock FROM t WHERE x IN(?, ?)"), "SELECT min(x), in_stock FROM t WHERE x IN (?)");
    assert_eq!(n("SELECT 'unterminated"), "SELECT ?");
    assert_eq!(n("SELECT a - 1, b-2 FROM t WHERE c IN (-1, +2, 3)"), "SELECT a - ?, b-? FROM t WHERE c IN (?)");
}

#[test]
fn mysql_backslash_escapes_and_double_quoted_strings() {
    assert_eq!(n(r"SELECT * FROM t WHERE a = 'it\'s secret' AND b = 1"), "SELECT * FROM t WHERE a = ? AND b = ?");
    assert_eq!(in_(r"SELECT 'a\\', 'b\'c' FROM t", Dialect::Mysql), "SELECT ?, ? FROM t");
    assert_eq!(
        in_(r#"SELECT * FROM t WHERE name = "bob" AND x = "a\"b""#, Dialect::Mysql),
        "SELECT * FROM t WHERE name = ? AND x = ?"
    );
    // Unknown dialect: `"..."` is a value unless part of a qualified name.
    assert_eq!(n(r#"SELECT "t"."c" FROM t WHERE name = "secret""#), r#"SELECT "t"."c" FROM t WHERE name = ?"#);
    // Standard strings ending in a backslash: the second reading keeps the structure.
    assert_eq!(n(r"SELECT * FROM t WHERE p = 'C:\' AND q = 'secret'"), "SELECT * FROM t WHERE p = ? AND q = ?");
}

#[test]
fn postgres_strings_dollar_quotes_and_names() {
    assert_eq!(n(r"SELECT E'it\'s secret', e'x' FROM t"), "SELECT ?, ? FROM t");
    assert_eq!(n("SELECT $$a 'secret' $$ || $fn$ secret $x$ $fn$"), "SELECT ? || ?");
    assert_eq!(n("SELECT $$ open secret"), "SELECT ?");
    assert_eq!(n("SELECT U&'d\\0061t', 'x'::text"), "SELECT ?, ?::text");
    // A `::` says PostgreSQL: double quotes are names there.
    assert_eq!(
        n(r#"SELECT "users"."id" FROM "users" WHERE "name" = $1::text"#),
        r#"SELECT "users"."id" FROM "users" WHERE "name" = ?::text"#
    );
    assert_eq!(in_(r#"SELECT "users" FROM "users""#, Dialect::Postgres), r#"SELECT "users" FROM "users""#);
    // SQLite falls back to a string for a `"..."` naming no column.
    assert_eq!(
        in_(r#"SELECT `users`.`id`, "u"."name" FROM users WHERE name = "bob""#, Dialect::Sqlite),
        r#"SELECT `users`.`id`, "u"."name" FROM users WHERE name = ?"#
    );
    assert_eq!(in_("SELECT data #> '{a}', a$b FROM t", Dialect::Postgres), "SELECT data #> ?, a$b FROM t");
    // Unknown: a hint before the `#` makes it an operator; one after it was in a comment.
    assert_eq!(n("SELECT $1::int, data #> '{a}', a$b FROM t"), "SELECT ?::int, data #> ?, a$b FROM t");
    assert_eq!(n("SELECT data #> '{a}', a$b FROM t WHERE id = $1::int"), "SELECT data");
}

/// Review finding 1: both readings of a `'C:\'` string close; the kept one is masked
/// by the other, so an apostrophe in a comment cannot shift the quotes.
#[test]
fn a_backslash_ending_string_cannot_shift_quotes_through_a_comment() {
    let cases = [
        r"SELECT * FROM t WHERE dir = 'C:\' AND owner = 'alice' -- alice's rows",
        "SELECT * FROM t WHERE dir = 'C:\\' -- owner's files\nAND owner = 'alice'",
        r"SELECT * FROM t WHERE dir = 'C:\' /* bob's */ AND owner = 'alice'",
        r"SELECT * FROM t WHERE a = 'x\' AND b = 'it''s' AND c = 'secret3' -- d's",
    ];
    for sql in cases {
        let out = n(sql);
        for secret in ["alice", "rows", "files", "bob", "secret3", "owner's", "s rows"] {
            assert!(!out.contains(secret), "{secret} in {out:?} from {sql:?}");
        }
        assert!(out.starts_with("SELECT * FROM t WHERE"), "{out}");
    }
}

/// Review finding 2: `#-` and `#>` are comments outside PostgreSQL.
#[test]
fn hash_operators_only_in_postgres() {
    assert_eq!(in_("SELECT a FROM t #-secret1 token", Dialect::Mysql), "SELECT a FROM t");
    assert_eq!(in_("SELECT a FROM t #> secret2", Dialect::Mysql), "SELECT a FROM t");
    assert_eq!(n("SELECT a FROM t #> secret2"), "SELECT a FROM t");
    assert_eq!(n("SELECT a FROM t #-secret1 token"), "SELECT a FROM t");
    assert_eq!(in_("SELECT data #- '{a}' FROM t", Dialect::Postgres), "SELECT data #- ? FROM t");
}

/// Review finding 3: `$1` is sqlx's SQLite placeholder too, so it does not make
/// `"..."` a name.
#[test]
fn a_numbered_placeholder_does_not_mean_postgres() {
    assert_eq!(n(r#"SELECT * FROM t WHERE name = "secret5" AND id = $1"#), "SELECT * FROM t WHERE name = ? AND id = ?");
    assert_eq!(n(r#"SELECT "t"."c" FROM t WHERE id = $1"#), r#"SELECT "t"."c" FROM t WHERE id = ?"#);
}

/// Review finding 4: a column named `value` is not MySQL's `VALUE`.
#[test]
fn a_value_column_keeps_the_statement() {
    assert_eq!(
        n("SELECT value, coalesce(a, 0), (SELECT max(x) FROM u) FROM t"),
        "SELECT value, coalesce(a, ?), (SELECT max(x) FROM u) FROM t"
    );
    assert_eq!(n("UPDATE kv SET value = lower(v), (x) = (1)"), "UPDATE kv SET value = lower(v), (x) = (?)");
    assert_eq!(n("SELECT values, (a), (b) FROM t"), "SELECT values, (a), (b) FROM t");
    assert_eq!(n("INSERT INTO t VALUE (1, 2), (3, 4)"), "INSERT INTO t VALUE (?, ?)");
    assert_eq!(n("REPLACE INTO t VALUES (1), (2)"), "REPLACE INTO t VALUES (?)");
}

/// Review finding 7: diesel's PostgreSQL connects by conninfo too.
#[test]
fn conninfo_strings_are_postgres() {
    assert_eq!(Dialect::of_url("host=localhost dbname=app user=u"), Dialect::Postgres);
    assert_eq!(Dialect::of_url("dbname=app"), Dialect::Postgres);
    assert_eq!(Dialect::of_url("file:x.db?mode=ro"), Dialect::Sqlite);
    assert_eq!(Dialect::of_url("/tmp/a=b.db"), Dialect::Sqlite);
    assert_eq!(Dialect::of_url(":memory:"), Dialect::Sqlite);
}

/// Review finding 8: a token is two `u32` offsets and a class, not two `usize`.
#[test]
fn tokens_are_twelve_bytes() {
    assert_eq!(std::mem::size_of::<super::lex::Tok>(), 12);
}

#[test]
fn blobs_hex_and_numbers() {
    assert_eq!(n("SELECT X'DEADBEEF', x'00', B'0101', N'secret', _utf8mb4'secret'"), "SELECT ?, ?, ?, ?, ?");
    assert_eq!(n("SELECT 0xDEADBEEF, 0b1010, 0o17, 1e5, .5, 1.5E-3, 1_000_000"), "SELECT ?, ?, ?, ?, ?, ?, ?");
    assert_eq!(n("SELECT 0x FROM t2 JOIN 3d"), "SELECT 0x FROM t2 JOIN 3d");
}

#[test]
fn comments_are_dropped() {
    assert_eq!(n("SELECT 1 -- token abc123\nFROM t"), "SELECT ? FROM t");
    assert_eq!(n("/* user=alice */ SELECT a /* x /* nested */ secret */ FROM t"), "SELECT a FROM t");
    assert_eq!(n("SELECT a FROM t # secret"), "SELECT a FROM t");
    assert_eq!(n("SELECT a /* open secret"), "SELECT a");
    assert_eq!(n("/* a */ SELECT 1"), n("/* b */ SELECT 2"));
}

#[test]
fn value_rows_fold_to_the_first() {
    assert_eq!(n("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')"), "INSERT INTO t (a, b) VALUES (?, ?)");
    assert_eq!(n("INSERT INTO t VALUES (1, 'x')"), n("INSERT INTO t VALUES (?, ?),(?,?)"));
    assert_eq!(n("INSERT INTO t VALUES ROW(1, 2), ROW(3, 4)"), "INSERT INTO t VALUES ROW(?, ?)");
    assert_eq!(
        n("INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a), b = 2"),
        "INSERT INTO t VALUES (?) ON DUPLICATE KEY UPDATE a = VALUES(a), b = ?"
    );
    assert_eq!(n("INSERT INTO t VALUES (1), (2"), "INSERT INTO t VALUES (?), (?");
}

#[test]
fn kinds() {
    let kind = |sql: &str| normalize(sql, Dialect::Unknown).kind;
    assert_eq!(kind("SELECT 1"), Kind::Read);
    assert_eq!(kind("(SELECT 1) UNION (SELECT 2)"), Kind::Read);
    assert_eq!(kind("WITH x AS (SELECT 1) DELETE FROM t"), Kind::Write);
    assert_eq!(kind("insert into t values (1)"), Kind::Write);
    assert_eq!(kind("CREATE TABLE t (id INTEGER)"), Kind::Other);
    assert_eq!(Dialect::of_url("postgres://u@h/db"), Dialect::Postgres);
    assert_eq!(Dialect::of_url("MYSQL://h"), Dialect::Mysql);
    assert_eq!(Dialect::of_url("/tmp/x.db"), Dialect::Sqlite);
}

#[test]
fn long_text_is_capped_with_head_tail_and_hash() {
    let columns = |end: &str| {
        format!(
            "SELECT {} FROM t WHERE id = ? {end}",
            (0..3000).map(|i| format!("c{i}")).collect::<Vec<_>>().join(", ")
        )
    };
    let a = n(&columns("ORDER BY a"));
    let b = n(&columns("ORDER BY b"));
    assert!(a.len() <= TEXT_CAP && b.len() <= TEXT_CAP, "{} {}", a.len(), b.len());
    assert_ne!(a, b);
    assert!(a.starts_with("SELECT c0, c1, c2") && a.contains(" … "), "{a}");
    let (head, hash) = a.rsplit_once(" #").unwrap();
    assert!(head.ends_with("FROM t WHERE id = ? ORDER BY a") && hash.len() == 16, "{a}");
    assert_eq!(a, n(&columns("ORDER BY a")), "stable");
    let wide = n(&format!("SELECT '{}'", "é".repeat(5000)));
    assert_eq!(wide, "SELECT ?");
    let multibyte = n(&"ü".repeat(3000));
    assert!(multibyte.len() <= TEXT_CAP);
}

#[test]
fn linear_time_on_long_lists_and_nesting() {
    // Each of these took seconds or more in a quadratic normalizer; the bound only
    // catches a blow-up.
    let cases = [
        format!("SELECT * FROM t WHERE x IN ({})", "1, ".repeat(70_000)),
        format!("x IN ({})", "x IN (".repeat(40_000)),
        format!("INSERT INTO t VALUES {}", "(1, 'a'), ".repeat(20_000)),
        "VALUES (?), (".repeat(20_000),
        "/*".repeat(100_000),
        "'\\".repeat(100_000),
        "$a$".repeat(70_000),
    ];
    for sql in &cases {
        assert!(sql.len() >= 200_000, "{}", sql.len());
        let start = Instant::now();
        let out = n(sql);
        assert!(out.len() <= TEXT_CAP);
        assert!(start.elapsed() < Duration::from_secs(2), "{} bytes took {:?}", sql.len(), start.elapsed());
    }
}

/// The families of literal forms: MySQL's (`\'` escapes, `"..."` strings),
/// PostgreSQL's with a hint of it (`E'..'`, dollar quotes), and standard strings that
/// carry no hint (a `'C:\'` ending in a backslash, `N'..'`, `U&'..'`).
#[derive(Clone, Copy, Debug)]
enum Family {
    Mysql,
    Postgres,
    Plain,
}

/// Literals of every form of one family, each holding a marker the test looks for
/// afterwards.
fn literal(family: Family) -> impl Strategy<Value = String> {
    let word = "[A-Za-z][A-Za-z0-9]{3,8}";
    let forms: [fn(&str) -> String; 4] = match family {
        Family::Mysql => [
            |w| format!(r"'zz{w}\'s'"),
            |w| format!("\"zz{w}\""),
            |w| format!(r#""zz{w}\"x""#),
            |w| format!("_utf8mb4'zz{w}'"),
        ],
        Family::Postgres => [
            |w| format!("E'zz{w}\\''"),
            |w| format!("$$zz{w}$$"),
            |w| format!("$q$ zz{w} $q$"),
            |w| format!("N'zz{w}'"),
        ],
        Family::Plain => {
            [|w| format!(r"'zz{w}\'"), |w| format!(r"'C:\zz{w}\'"), |w| format!("U&'zz{w}'"), |w| format!("N'zz{w}'")]
        }
    };
    prop_oneof![
        word.prop_map(|w| format!("'zz{w}'")),
        word.prop_map(|w| format!("'zz{w}''s'")),
        word.prop_map(move |w| forms[0](&w)),
        word.prop_map(move |w| forms[1](&w)),
        word.prop_map(move |w| forms[2](&w)),
        word.prop_map(move |w| forms[3](&w)),
        "[0-9A-F]{4,12}".prop_map(|h| format!("X'FEED{h}'")),
        "[0-9A-F]{4,12}".prop_map(|h| format!("0xFEED{h}")),
        "[1-9][0-9]{5,12}".prop_map(|d| format!("-9{d}")),
        "[1-9][0-9]{5,12}".prop_map(|d| format!("9{d}.5e3")),
        Just("$1".to_string()),
    ]
}

/// The marker a literal carries: `zz...`, `FEED...` or the digits (none for `$1`).
fn marker(literal: &str) -> Option<String> {
    if literal == "$1" {
        return None;
    }
    let start = literal.find("zz").or_else(|| literal.find("FEED")).unwrap_or(0);
    let rest = literal[start..].trim_start_matches('-');
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// Which `#` comments the dialect has: none (SQLite, PostgreSQL), `# ...` only
/// (read as PostgreSQL, where `#>` and `#-` are operators), or all of them (MySQL).
#[derive(Clone, Copy, Debug)]
enum Hash {
    None,
    Plain,
    All,
}

/// A comment, some with an apostrophe in them (which must not shift the quotes).
fn comment(hash: Hash) -> impl Strategy<Value = String> {
    ("[a-z]{4,8}", 0..8usize).prop_map(move |(w, form)| {
        let hash_form = match (hash, form) {
            (Hash::None, _) => None,
            (_, 6) => Some(format!("# zz{w}'s\n")),
            (Hash::All, 7) => Some(format!("#-zz{w}\n")),
            (Hash::All, _) => Some(format!("#> zz{w}\n")),
            (Hash::Plain, _) => Some(format!("# zz{w}\n")),
        };
        match form {
            0 => format!("-- zz{w}\n"),
            1 => format!("/* zz{w} */"),
            2 => format!("-- zz{w}'s rows\n"),
            3 => format!("/* zz{w}'s */"),
            4 => format!("-- it's zz{w} 'x\n"),
            _ => hash_form.unwrap_or_else(|| format!("/* '{w} zz{w} */")),
        }
    })
}

proptest! {
    #[test]
    fn no_literal_survives(
        (dialect, lits, comment) in prop_oneof![
            Just((Dialect::Unknown, Family::Mysql, Hash::All)),
            Just((Dialect::Unknown, Family::Postgres, Hash::Plain)),
            Just((Dialect::Unknown, Family::Plain, Hash::All)),
            Just((Dialect::Mysql, Family::Mysql, Hash::All)),
            Just((Dialect::Postgres, Family::Postgres, Hash::None)),
            Just((Dialect::Postgres, Family::Plain, Hash::None)),
            Just((Dialect::Sqlite, Family::Postgres, Hash::None)),
            Just((Dialect::Sqlite, Family::Plain, Hash::None)),
        ]
        .prop_flat_map(|(d, family, hash)| (Just(d), prop::collection::vec(literal(family), 1..6), comment(hash))),
        shape in 0..5usize,
    ) {
        let list = lits.join(", ");
        let last = &lits[lits.len() - 1];
        let sql = match shape {
            0 => format!("SELECT a FROM t {comment} WHERE b = {} AND c IN ({list})", lits[0]),
            1 => format!("INSERT INTO t (a) VALUES ({list}), ({list}) {comment}"),
            2 => format!("{comment}UPDATE t SET a = {} WHERE id = {last}", lits[0]),
            3 => format!("SELECT * FROM t WHERE a = {} {comment}AND b = {last} {comment}", lits[0]),
            _ => format!("SELECT {list} {comment}"),
        };
        let out = normalize(&sql, dialect).text;
        for lit in &lits {
            if let Some(m) = marker(lit) {
                prop_assert!(!out.contains(&m), "{m} of {lit} in {out} (from {sql})");
            }
        }
        prop_assert!(!out.contains("zz"), "comment in {out}");
    }

    #[test]
    fn mysql_double_quoted_strings_never_survive(w in "[a-z]{4,8}", shape in 0..3usize) {
        let sql = match shape {
            0 => format!("SELECT * FROM t WHERE a = \"zz{w}\""),
            1 => format!("INSERT INTO t VALUES (\"zz{w}\", 1)"),
            _ => format!("SELECT \"zz{w}\\\"x\" FROM t"),
        };
        for dialect in [Dialect::Unknown, Dialect::Mysql] {
            let out = normalize(&sql, dialect).text;
            prop_assert!(!out.contains("zz"), "{out} from {sql}");
        }
    }
}
