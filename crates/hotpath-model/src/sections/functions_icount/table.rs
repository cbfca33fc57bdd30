//! The printed table of the `functions_icount` section.

use crate::format::{format_count, format_percent, short_name};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;

use super::FunctionsIcount;

const TITLE: &str = "functions-icount";

impl FunctionsIcount {
    /// The `functions-icount` table, or its one-line note when there are no counts.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        if let Some(note) = &self.note {
            return format!("{TITLE} - {note}\n");
        }
        let mut table =
            Table::new(["Function", "Calls", "Ir/call", "Self Ir", "Total Ir", "% Total"]).names(meta.name_width);
        for row in &self.rows {
            table.row(vec![
                // The same name as in every other table (HOTPATH_FUNCTIONS_NAME_DEPTH).
                short_name(&row.name, meta.name_depth).to_string(),
                format_count(row.calls),
                format_count(row.ir_per_call),
                format_count(row.self_ir),
                format_count(row.ir),
                format_percent(row.ir, self.program_ir),
            ]);
        }
        let summary = format!(
            "{}; {} Ir in the program, {}",
            shown(self.rows.len(), self.total_functions),
            format_count(self.program_ir),
            self.tool
        );
        let mut out = titled(
            TITLE,
            "Instructions executed per measured function (Callgrind Ir, nested calls included); Self excludes nested measured calls.",
            &summary,
            &table,
        );
        for line in &self.uncounted {
            out.push_str(&format!("not counted: {line}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::FunctionIcount;
    use super::*;

    #[test]
    fn rows_or_the_note() {
        let mut s =
            FunctionsIcount { note: Some("not running under valgrind --tool=callgrind".into()), ..Default::default() };
        assert_eq!(s.table(&Meta::default()), "functions-icount - not running under valgrind --tool=callgrind\n");
        s.note = None;
        s.tool = "callgrind-3.19.0".into();
        s.program_ir = 2000;
        s.total_functions = 1;
        s.rows.push(FunctionIcount {
            name: "app::parse".into(),
            calls: 10,
            ir: 1000,
            ir_per_call: 100,
            self_ir: 400,
            ..Default::default()
        });
        s.uncounted.push("app::spin (never returns)".into());
        let text = s.table(&Meta::default());
        assert!(text.contains("1 total; 2,000 Ir in the program, callgrind-3.19.0"), "{text}");
        assert!(text.contains("| app::parse | 10    | 100     | 400     | 1,000    | 50.0%   |"), "{text}");
        assert!(text.ends_with("not counted: app::spin (never returns)\n"), "{text}");
    }
}
