use rulebook::load::{CampaignIndex, DiskFs, FileCache, PcgenRoot, load_cached, selectable_pccs};
use std::collections::HashMap;
use std::path::Path;
fn main() {
    let corpus = Path::new("/work/shared/pcgen-corpus");
    let root = PcgenRoot::at(&DiskFs, corpus);
    let index = CampaignIndex::build(&DiskFs, &root);
    let cache = FileCache::new();
    let pccs = selectable_pccs(&DiskFs, &root.data).unwrap_or_default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut lines_total = 0usize;
    let mut obj_lines = 0usize;
    for p in &pccs {
        let l = load_cached(&DiskFs, &root, &[p.clone()], &index, &cache);
        let key: Vec<String> = l.files.iter().map(|f| format!("{:?}{:?}{:?}", f.kind, f.path, f.filter)).collect();
        let n: usize = l.files.iter().map(|f| f.lines.len()).sum();
        lines_total += n;
        obj_lines += l.files.iter().filter(|f| f.kind >= rulebook::load::FileKind::AbilityCategory).map(|f| f.lines.len()).sum::<usize>();
        *seen.entry(key.join("\n")).or_default() += 1;
    }
    println!("sets {} distinct plans {} lines {} object lines {}", pccs.len(), seen.len(), lines_total, obj_lines);
}
