//! User input never panics the loader: random text through the line splitter, the token
//! grammars and a whole in-memory load with the model built on it.

use proptest::prelude::*;
use rulebook::check::check_load_set;
use rulebook::load::syntax::{self, Slice};
use rulebook::load::text::{LineMode, lines};
use rulebook::load::{MemoryFs, PcgenRoot};
use rulebook::source::{FileId, Span};
use std::path::{Path, PathBuf};

fn token_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[A-Za-z0-9 |=\\[\\]()\",.:\\t-]{0,40}").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn token_grammars_never_panic(t in token_text()) {
        let s = Slice::new(&t, Span::new(FileId(0), 0..t.len()));
        let _ = syntax::split_pipes(s);
        let _ = syntax::modify(s);
        let _ = syntax::modify_other(s);
        let _ = syntax::var_decl(s, true);
        let _ = syntax::var_decl(s, false);
        let _ = syntax::part(s);
        let _ = syntax::default_value(s);
        let _ = syntax::address(s);
    }

    #[test]
    fn line_splitting_never_panics(t in "[\\PC\\t\\r\\n#]{0,80}") {
        for mode in [LineMode::Object, LineMode::Trimmed, LineMode::Whole] {
            for l in lines(FileId(0), &t, mode) {
                for tok in l.tokens {
                    prop_assert!(t.get(tok.range()).is_some());
                }
            }
        }
    }

    #[test]
    fn whole_loads_never_panic(
        vars in proptest::collection::vec(token_text(), 0..6),
        objs in proptest::collection::vec(token_text(), 0..6),
    ) {
        let fs = MemoryFs::new()
            .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
            .with("/r/data/t.pcc", "CAMPAIGN:T\nGAMEMODE:G\nVARIABLE:v.lst\nEQUIPMENT:e.lst\nGLOBALMODIFIER:g.lst\n")
            .with("/r/data/v.lst", vars.join("\n"))
            .with("/r/data/e.lst", objs.iter().map(|o| format!("Item\tMODIFY:{o}\tPART:{o}\tMODIFYOTHER:{o}")).collect::<Vec<_>>().join("\n"))
            .with("/r/data/g.lst", objs.iter().map(|o| format!("MODIFY:{o}")).collect::<Vec<_>>().join("\n"));
        let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
        let _ = check_load_set(&fs, &root, &[PathBuf::from("/r/data/t.pcc")]);
    }
}
