//! The project's copy of PCGen's token table is the shared reference's
//! (`../shared/reference/pcgen-token-vocabulary.tsv`), byte for byte, and the compiled-in
//! vocabulary holds every row of it. Skipped with a note when the reference is absent.

use rulebook::vocabulary::Vocabulary;
use rulebook::vocabulary::table::TABLE_TSV;
use std::path::Path;

#[test]
fn project_copy_equals_the_shared_reference() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = "shared/reference/pcgen-token-vocabulary.tsv";
    let Some(path) = [here.join("..").join(rel), here.join("../..").join(rel)]
        .into_iter()
        .find(|p| p.is_file())
    else {
        eprintln!("note: ../shared/reference is absent; table comparison skipped");
        return;
    };
    let shared = std::fs::read_to_string(&path).unwrap();
    assert!(
        shared == TABLE_TSV,
        "src/vocabulary/pcgen-token-vocabulary.tsv differs from {}: copy it again",
        path.display()
    );
}

#[test]
fn every_row_of_the_table_is_compiled_in() {
    let rows = TABLE_TSV.lines().skip(1).filter(|l| !l.is_empty()).count();
    let v = Vocabulary::get();
    assert_eq!(v.rows().len(), rows);
    for r in v.rows() {
        if r.token != "*" {
            assert!(
                v.lookup(r.token).iter().any(|x| x.kind == r.kind),
                "{} {}",
                r.kind,
                r.token
            );
        }
    }
}
