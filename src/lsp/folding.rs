//! `textDocument/foldingRange` for LST files, read from the text alone (it answers before
//! any check): a class with its level lines (`CLASS:Fighter …` up to the next class), a run
//! of `.MOD`/`.COPY=`/`.FORGET` lines, a run of comment lines.

use lsp_types as lsp;

/// What a line is, for folding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Blank,
    Comment,
    /// `CLASS:name…`, with the name.
    Class(&'a str),
    /// A class level line (`1\tBONUS:…`).
    Level,
    /// A line whose first token changes an object defined elsewhere.
    Change,
    Other,
}

fn kind(line: &str) -> Line<'_> {
    let line = line.trim_end_matches('\r');
    if line.trim().is_empty() {
        return Line::Blank;
    }
    if line.trim_start().starts_with('#') {
        return Line::Comment;
    }
    let first = line.split('\t').next().unwrap_or("").trim();
    if let Some(name) = first.strip_prefix("CLASS:") {
        let name = name.split(['.', '|']).next().unwrap_or(name);
        return Line::Class(name);
    }
    if first.bytes().next().is_some_and(|b| b.is_ascii_digit()) && first.parse::<u32>().is_ok() {
        return Line::Level;
    }
    if first.ends_with(".MOD") || first.contains(".COPY=") || first.ends_with(".FORGET") {
        return Line::Change;
    }
    Line::Other
}

fn fold(start: usize, end: usize, kind: Option<lsp::FoldingRangeKind>) -> lsp::FoldingRange {
    lsp::FoldingRange {
        start_line: u32::try_from(start).unwrap_or(u32::MAX),
        start_character: None,
        end_line: u32::try_from(end).unwrap_or(u32::MAX),
        end_character: None,
        kind,
        collapsed_text: None,
    }
}

/// The folding ranges of an LST text, by line (0-based), in order of their start.
pub fn folding_ranges(text: &str) -> Vec<lsp::FoldingRange> {
    let lines: Vec<Line<'_>> = text.split('\n').map(kind).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(&line) = lines.get(i) else { break };
        // The last line of the run starting at `i` that `belongs` takes in (blank and
        // comment lines inside, not at its end).
        let run_end = |belongs: &dyn Fn(Line<'_>) -> bool| {
            let mut last = i;
            for (j, l) in lines.iter().enumerate().skip(i + 1) {
                match *l {
                    Line::Blank | Line::Comment => continue,
                    l if belongs(l) => last = j,
                    _ => break,
                }
            }
            last
        };
        let end = match line {
            Line::Class(name) => run_end(&|l| l == Line::Level || l == Line::Class(name)),
            Line::Change => {
                let mut last = i;
                while lines.get(last + 1) == Some(&Line::Change) {
                    last += 1;
                }
                last
            }
            Line::Comment => {
                let mut last = i;
                while lines.get(last + 1) == Some(&Line::Comment) {
                    last += 1;
                }
                if last > i {
                    out.push(fold(i, last, Some(lsp::FoldingRangeKind::Comment)));
                }
                i = last + 1;
                continue;
            }
            _ => i,
        };
        if end > i {
            out.push(fold(i, end, None));
        }
        i = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_with_their_levels_changes_and_comments_fold() {
        let text = "# Classes\n# of the book\nCLASS:Fighter\tHD:10\nCLASS:Fighter\tSTARTSKILLPTS:2\n\
                    1\tBONUS:VAR|A|1\n\n2\tBONUS:VAR|A|2\nCLASS:Monk\tHD:8\n1\tBONUS:VAR|B|1\n\
                    Dodge.MOD\tTYPE:General\nPower Attack.MOD\tTYPE:General\nAlone\tTYPE:X\n";
        let got: Vec<(u32, u32)> = folding_ranges(text)
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        assert_eq!(got, vec![(0, 1), (2, 6), (7, 8), (9, 10)]);
    }
}
