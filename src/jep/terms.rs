//! PCGen's built-in terms, as data: the term patterns of `pcgen.core.term`
//! (`TermEvaluatorBuilderPCVar`, `TermEvaluatorBuilderEQVar`, read by `EvaluatorFactory`).
//!
//! PCGen looks a name up as a term after the character's variables
//! (`VariableProcessor.lookupVariable`): its term factory joins every builder's pattern, in
//! the order of this table, into one regular expression anchored at the start of the name;
//! the first builder whose pattern matches a prefix of the name decides. A builder marked
//! [`Form::Whole`] only takes the name if that prefix is all of it (`HD`, but not `HDX`,
//! which then is no term at all); a [`Form::Prefix`] builder takes the rest of the name as
//! its argument (`CL=Fighter`, `SKILLRANK=Spot`, `COUNT[FEATTYPE=Metamagic]`). Equipment
//! formulas try the equipment builders first, then the character's.
//!
//! The game mode's stats are a last builder PCGen adds at run time (`STR`, `STR.BASE`,
//! `STRSCORE`, `STRSCORE.BASE`): see [`stat_form`]; the parser does not know the stats.

/// Whether a builder needs the whole name or takes an argument after its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The key is the whole term (`TL`, `COUNT[FEATS]`).
    Whole,
    /// The key starts the term; the rest is its argument (`CL=`, `COUNT[EQTYPE.`).
    Prefix,
}

/// Which of PCGen's two term factories holds a builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Factory {
    /// `EvaluatorFactory.PC`: terms about the character.
    Pc,
    /// `EvaluatorFactory.EQ`: terms about a piece of equipment, in equipment formulas.
    Equipment,
}

/// One term builder of PCGen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermPattern {
    /// PCGen's name for the builder (`START_PC_CL`), which names what the term computes.
    pub builder: &'static str,
    /// The texts the builder's pattern matches, in the order the pattern tries them.
    pub keys: &'static [&'static str],
    /// Whole term or prefix.
    pub form: Form,
    /// The factory.
    pub factory: Factory,
}

/// Shorthand for a table row.
const fn row(
    builder: &'static str,
    keys: &'static [&'static str],
    form: Form,
    factory: Factory,
) -> TermPattern {
    TermPattern {
        builder,
        keys,
        form,
        factory,
    }
}

use Form::{Prefix, Whole};

/// Every term builder, in PCGen's order (the character's, then the equipment's).
pub static TERMS: &[TermPattern] = &[
    row(
        "COMPLETE_PC_ACCHECK",
        &["ACCHECK", "ACHECK"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_ARMORACCHECK",
        &["ARMORACCHECK", "ARMORACHECK"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_BAB", &["BAB"], Whole, Factory::Pc),
    row("COMPLETE_PC_BASECR", &["BASECR"], Whole, Factory::Pc),
    row("COMPLETE_PC_BASEHD", &["BASEHD"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_BASESPELLSTAT",
        &["BASESPELLSTAT"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_CASTERLEVEL",
        &["CASTERLEVEL.TOTAL", "CASTERLEVEL"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_ATTACKS",
        &["COUNT[ATTACKS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_CHECKS",
        &["COUNT[CHECKS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_CLASSES",
        &["COUNT[CLASSES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_CONTAINERS",
        &["COUNT[CONTAINERS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_DOMAINS",
        &["COUNT[DOMAINS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_FEATSNATUREALL",
        &[
            "COUNT[FEATSALL.VISIBLE]",
            "COUNT[FEATSALL.HIDDEN]",
            "COUNT[FEATSALL.ALL]",
            "COUNT[FEATSALL]",
        ],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_FEATSNATUREAUTO",
        &[
            "COUNT[FEATSAUTO.VISIBLE]",
            "COUNT[FEATSAUTO.HIDDEN]",
            "COUNT[FEATSAUTO.ALL]",
            "COUNT[FEATSAUTO]",
        ],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_FEATSNATURENORMAL",
        &[
            "COUNT[FEATS.VISIBLE]",
            "COUNT[FEATS.HIDDEN]",
            "COUNT[FEATS.ALL]",
            "COUNT[FEATS]",
        ],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_FEATSNATUREVIRTUAL",
        &[
            "COUNT[VFEATS.VISIBLE]",
            "COUNT[VFEATS.HIDDEN]",
            "COUNT[VFEATS.ALL]",
            "COUNT[VFEATS]",
        ],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_FOLLOWERS",
        &["COUNT[FOLLOWERS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_LANGUAGES",
        &["COUNT[LANGUAGES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_MISC_COMPANIONS",
        &["COUNT[MISC.COMPANIONS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_MISC_FUNDS",
        &["COUNT[MISC.FUNDS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_MISC_MAGIC",
        &["COUNT[MISC.MAGIC]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_MOVE",
        &["COUNT[MOVE]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_NOTES",
        &["COUNT[NOTES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_RACESUBTYPES",
        &["COUNT[RACESUBTYPES]"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_COUNT_SA", &["COUNT[SA]"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_COUNT_SKILLS",
        &[
            "COUNT[SKILLS.NONDEFAULT]",
            "COUNT[SKILLS.SELECTED]",
            "COUNT[SKILLS.USABLE]",
            "COUNT[SKILLS.RANKS]",
            "COUNT[SKILLS.ALL]",
            "COUNT[SKILLS]",
        ],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_SPELLCLASSES",
        &["COUNT[SPELLCLASSES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_SPELLRACE",
        &["COUNT[SPELLRACE]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_STATS",
        &["COUNT[STATS]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_TEMPBONUSNAMES",
        &["COUNT[TEMPBONUSNAMES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_TEMPLATES",
        &["COUNT[TEMPLATES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_VISIBLETEMPLATES",
        &["COUNT[VISIBLETEMPLATES]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_COUNT_VISION",
        &["COUNT[VISION]"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_ENCUMBERANCE",
        &["ENCUMBERANCE"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_HD", &["HD"], Whole, Factory::Pc),
    row("COMPLETE_PC_HP", &["HP"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_MAXCASTABLE",
        &["MAXCASTABLE"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_MOVEBASE", &["MOVEBASE"], Whole, Factory::Pc),
    row("COMPLETE_PC_PC_HEIGHT", &["PC.HEIGHT"], Prefix, Factory::Pc),
    row("COMPLETE_PC_PC_WEIGHT", &["PC.WEIGHT"], Prefix, Factory::Pc),
    row(
        "COMPLETE_PC_PROFACCHECK",
        &["PROFACCHECK"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_RACESIZE", &["RACESIZE"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_RACIALHDSIZE",
        &["RACIALHDSIZE"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_SCORE", &["SCORE"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_SHIELDACCHECK",
        &["SHIELDACCHECK", "SHIELDACHECK"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_SIZEMOD",
        &["SIZEMOD", "SIZE"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_SPELLBASESTAT",
        &["SPELLBASESTATSCORE", "SPELLBASESTAT"],
        Whole,
        Factory::Pc,
    ),
    row(
        "COMPLETE_PC_SPELLLEVEL",
        &["SPELLLEVEL"],
        Whole,
        Factory::Pc,
    ),
    row("COMPLETE_PC_TL", &["TL"], Whole, Factory::Pc),
    row(
        "COMPLETE_PC_FAVCLASSLEVEL",
        &["FAVCLASSLEVEL"],
        Whole,
        Factory::Pc,
    ),
    row("PC_CAST_ATWILL", &["ATWILL"], Whole, Factory::Pc),
    row("START_PC_BL", &["BL.", "BL=", "BL"], Prefix, Factory::Pc),
    row(
        "START_PC_CL_BEFORELEVEL",
        &["CL;BEFORELEVEL.", "CL;BEFORELEVEL="],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_CLASSLEVEL",
        &["CLASSLEVEL.", "CLASSLEVEL="],
        Prefix,
        Factory::Pc,
    ),
    row("START_PC_CLASS", &["CLASS.", "CLASS="], Prefix, Factory::Pc),
    row("START_PC_CL", &["CL.", "CL=", "CL"], Prefix, Factory::Pc),
    row(
        "START_PC_COUNT_EQTYPE",
        &["COUNT[EQTYPE.", "COUNT[EQTYPE"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_EQUIPMENT",
        &["COUNT[EQUIPMENT.", "COUNT[EQUIPMENT"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_FEATTYPE",
        &[
            "COUNT[FEATAUTOTYPE.",
            "COUNT[FEATAUTOTYPE=",
            "COUNT[VFEATTYPE.",
            "COUNT[VFEATTYPE=",
            "COUNT[FEATNAME.",
            "COUNT[FEATNAME=",
            "COUNT[FEATTYPE.",
            "COUNT[FEATTYPE=",
        ],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_FOLLOWERTYPE",
        &["COUNT[FOLLOWERTYPE."],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SKILLTYPE",
        &["COUNT[SKILLTYPE.", "COUNT[SKILLTYPE="],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SPELLBOOKS",
        &["COUNT[SPELLBOOKS"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SPELLSINBOOK",
        &["COUNT[SPELLSINBOOK"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SPELLSKNOWN",
        &["COUNT[SPELLSKNOWN"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SPELLSLEVELSINBOOK",
        &["COUNT[SPELLSLEVELSINBOOK"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_COUNT_SPELLTIMES",
        &["COUNT[SPELLTIMES"],
        Prefix,
        Factory::Pc,
    ),
    row("START_PC_EQTYPE", &["EQTYPE"], Prefix, Factory::Pc),
    row("START_PC_HASDEITY", &["HASDEITY:"], Prefix, Factory::Pc),
    row("START_PC_HASFEAT", &["HASFEAT:"], Prefix, Factory::Pc),
    row("START_PC_MAXLEVEL", &["MAXLEVEL"], Whole, Factory::Pc),
    row("START_PC_MODEQUIP", &["MODEQUIP"], Prefix, Factory::Pc),
    row("START_PC_MOVE", &["MOVE["], Prefix, Factory::Pc),
    row(
        "START_PC_PC_SIZE",
        &["PC.SIZE.INT", "PC.SIZE"],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_SKILLRANK",
        &["SKILLRANK.", "SKILLRANK="],
        Prefix,
        Factory::Pc,
    ),
    row(
        "START_PC_SKILLTOTAL",
        &["SKILLTOTAL.", "SKILLTOTAL="],
        Prefix,
        Factory::Pc,
    ),
    row("START_PC_VARDEFINED", &["VARDEFINED:"], Prefix, Factory::Pc),
    row("START_PC_WEIGHT", &["WEIGHT."], Prefix, Factory::Pc),
    row("COMPLETE_PC_BONUSLANG", &["BONUSLANG"], Whole, Factory::Pc),
    row("COMPLETE_PC_HANDS", &["HANDS"], Whole, Factory::Pc),
    row("COMPLETE_PC_LEGS", &["LEGS"], Whole, Factory::Pc),
    row(
        "COMPLETE_EQ_ALTPLUSTOTAL",
        &["ALTPLUSTOTAL"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_BASECOST",
        &["BASECOST"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_CRITMULT",
        &["CRITMULT"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_DMGDICE",
        &["DMGDICE"],
        Whole,
        Factory::Equipment,
    ),
    row("COMPLETE_EQ_DMGDIE", &["DMGDIE"], Whole, Factory::Equipment),
    row(
        "COMPLETE_EQ_EQACCHECK",
        &["EQACCHECK"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_EQHANDS",
        &["EQHANDS"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_EQSPELLFAIL",
        &["EQSPELLFAIL"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_EQUIP_SIZE_INT",
        &["EQUIP.SIZE.INT", "EQUIP.SIZE"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_HEADPLUSTOTAL",
        &["HEADPLUSTOTAL"],
        Whole,
        Factory::Equipment,
    ),
    row(
        "COMPLETE_EQ_PLUSTOTAL",
        &["PLUSTOTAL"],
        Whole,
        Factory::Equipment,
    ),
    row("COMPLETE_EQ_RANGE", &["RANGE"], Whole, Factory::Equipment),
    row(
        "COMPLETE_EQ_REACHMULT",
        &["RACEREACH", "REACHMULT", "REACH"],
        Whole,
        Factory::Equipment,
    ),
    row("COMPLETE_EQ_SIZE", &["SIZE"], Whole, Factory::Equipment),
    row("COMPLETE_EQ_WT", &["WT"], Whole, Factory::Equipment),
];

/// What the commonest terms compute, by builder (PCGen's `TermEvaluator` classes), for
/// hover text; the builder's name says it for the others.
static SUMMARIES: &[(&str, &str)] = &[
    (
        "COMPLETE_PC_ACCHECK",
        "the armour check penalty of the equipped armour and shields",
    ),
    ("COMPLETE_PC_BAB", "the character's base attack bonus"),
    (
        "COMPLETE_PC_CASTERLEVEL",
        "the caster level of the spell being cast (total: of every class)",
    ),
    (
        "COMPLETE_PC_COUNT_FEATSNATURENORMAL",
        "how many feats the character chose",
    ),
    (
        "COMPLETE_PC_COUNT_FEATSNATUREALL",
        "how many feats the character has, of any nature",
    ),
    (
        "COMPLETE_PC_COUNT_SKILLS",
        "how many skills the character has ranks in",
    ),
    (
        "COMPLETE_PC_ENCUMBERANCE",
        "the character's load (0 light, 1 medium, 2 heavy, 3 overloaded)",
    ),
    (
        "COMPLETE_PC_HD",
        "the character's hit dice (monster levels)",
    ),
    ("COMPLETE_PC_HP", "the character's hit points"),
    (
        "COMPLETE_PC_SIZEMOD",
        "the size modifier of the character's size",
    ),
    (
        "COMPLETE_PC_RACESIZE",
        "the size of the character's race, as a number",
    ),
    (
        "COMPLETE_PC_SPELLLEVEL",
        "the level of the spell being cast",
    ),
    (
        "COMPLETE_PC_TL",
        "the character's total level (every class)",
    ),
    (
        "START_PC_BL",
        "the caster level bonus of a class (`BL=Wizard`), or of the class the formula belongs to",
    ),
    (
        "START_PC_CL",
        "the level of a class (`CL=Fighter`), or of the class the formula belongs to (`CL`)",
    ),
    (
        "START_PC_CL_BEFORELEVEL",
        "the class's level before a given character level (`CL;BEFORELEVEL=3`)",
    ),
    (
        "START_PC_CLASSLEVEL",
        "the level of a class (`CLASSLEVEL=Wizard`)",
    ),
    (
        "START_PC_COUNT_FEATTYPE",
        "how many feats of a type the character has (`COUNT[FEATTYPE=Metamagic]`)",
    ),
    (
        "START_PC_COUNT_EQUIPMENT",
        "how many items the character carries (`COUNT[EQUIPMENT.…]`)",
    ),
    (
        "START_PC_HASFEAT",
        "1 when the character has the feat (`HASFEAT:Dodge`), else 0",
    ),
    (
        "START_PC_SKILLRANK",
        "the ranks in a skill (`SKILLRANK=Spot`)",
    ),
    (
        "START_PC_SKILLTOTAL",
        "the total bonus of a skill (`SKILLTOTAL=Spot`)",
    ),
    (
        "START_PC_VARDEFINED",
        "1 when a variable is defined (`VARDEFINED:Name`), else 0",
    ),
    ("COMPLETE_EQ_BASECOST", "the item's base cost"),
    (
        "COMPLETE_EQ_PLUSTOTAL",
        "the item's total enhancement (`+n`)",
    ),
    ("COMPLETE_EQ_SIZE", "the item's size, as a number"),
    ("COMPLETE_EQ_WT", "the item's weight"),
];

/// What the term of `builder` computes, in a sentence, when the table says it.
pub fn summary(builder: &str) -> Option<&'static str> {
    SUMMARIES
        .iter()
        .find(|(b, _)| *b == builder)
        .map(|(_, s)| *s)
}

/// Where a formula is evaluated, which decides the factories PCGen asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// A character's formula (`VariableProcessorPC`): character terms only.
    Character,
    /// An equipment formula (`VariableProcessorEq`): equipment terms, then character terms.
    Equipment,
}

/// The builder PCGen's term factory picks for `name` in `factory`, if any.
fn classify_in(name: &str, factory: Factory) -> Option<&'static TermPattern> {
    for pattern in candidates(name, factory) {
        if let Some(key) = pattern.keys.iter().find(|k| name.starts_with(**k)) {
            return match pattern.form {
                Form::Whole if name.len() != key.len() => None,
                Form::Whole | Form::Prefix => Some(pattern),
            };
        }
    }
    None
}

/// The term builder PCGen picks for `name` (as PCGen sees it: exact case; its fallback
/// parser upper-cases names first) in `context`, or `None` when the name is no term.
pub fn classify(name: &str, context: Context) -> Option<&'static TermPattern> {
    match context {
        Context::Character => classify_in(name, Factory::Pc),
        Context::Equipment => {
            classify_in(name, Factory::Equipment).or_else(|| classify_in(name, Factory::Pc))
        }
    }
}

/// The patterns of `factory` that may match `name`, in [`TERMS`] order: those with a key
/// starting with `name`'s first byte (or an empty key). Every formula name of the data is
/// classified, most are no term, and comparing each with every key of the table was a
/// tenth of reading a file's old formulas.
fn candidates(name: &str, factory: Factory) -> impl Iterator<Item = &'static TermPattern> {
    /// Positions in [`TERMS`] by factory and first byte of a key.
    type Index = [Vec<Vec<u16>>; 2];
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index: Index = [vec![Vec::new(); 256], vec![Vec::new(); 256]];
        for (i, pattern) in TERMS.iter().enumerate() {
            let Ok(i) = u16::try_from(i) else { continue };
            let Some(by_byte) = index.get_mut(pattern.factory as usize) else {
                continue;
            };
            for (byte, list) in by_byte.iter_mut().enumerate() {
                let starts =
                    |k: &&str| k.as_bytes().first().is_none_or(|b| usize::from(*b) == byte);
                if pattern.keys.iter().any(starts) {
                    list.push(i);
                }
            }
        }
        index
    });
    let listed = name.as_bytes().first().and_then(|b| {
        index
            .get(factory as usize)
            .and_then(|by_byte| by_byte.get(usize::from(*b)))
    });
    let (listed, all) = match listed {
        Some(list) => (list.as_slice(), None),
        // An empty name: only an empty key could match it; try every pattern.
        None => (
            &[][..],
            Some(TERMS.iter().filter(move |p| p.factory == factory)),
        ),
    };
    listed
        .iter()
        .filter_map(|i| TERMS.get(usize::from(*i)))
        .chain(all.into_iter().flatten())
}

/// The form of a stat term (PCGen's `TermEvaluatorBuilderPCStat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatForm {
    /// `STR`: the modifier.
    Modifier,
    /// `STR.BASE` or `STRSCORE.BASE`: the base score.
    BaseScore,
    /// `STRSCORE` (and anything else after `SCORE`): the total score.
    Score,
}

/// How `name` reads the stat abbreviated `abbreviation`, if it does; `None` also for a
/// name that merely starts with the abbreviation (PCGen then treats it as no term).
pub fn stat_form(name: &str, abbreviation: &str) -> Option<StatForm> {
    let rest = name.strip_prefix(abbreviation)?;
    if rest.is_empty() {
        Some(StatForm::Modifier)
    } else if rest == ".BASE" {
        Some(StatForm::BaseScore)
    } else if rest.starts_with("SCORE") {
        Some(if rest.ends_with(".BASE") {
            StatForm::BaseScore
        } else {
            StatForm::Score
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builder(name: &str) -> Option<&'static str> {
        classify(name, Context::Equipment).map(|p| p.builder)
    }

    #[test]
    fn every_summary_is_of_a_builder_of_the_table() {
        for (b, _) in SUMMARIES {
            assert!(TERMS.iter().any(|t| t.builder == *b), "{b}");
        }
        assert!(summary("COMPLETE_PC_TL").is_some());
    }

    #[test]
    fn the_first_byte_index_picks_what_a_scan_of_the_whole_table_picks() {
        let scan = |name: &str, factory: Factory| {
            TERMS
                .iter()
                .filter(|p| p.factory == factory)
                .find_map(|p| {
                    let key = p.keys.iter().find(|k| name.starts_with(**k))?;
                    Some((p.form == Form::Prefix || name.len() == key.len()).then_some(p))
                })
                .flatten()
        };
        let mut names = vec![String::new(), "x".to_owned(), "Rage".to_owned()];
        for key in TERMS.iter().flat_map(|p| p.keys) {
            names.extend([
                (*key).to_owned(),
                format!("{key}X"),
                format!("{key}=Fighter"),
                key.to_lowercase(),
                key.get(..1).unwrap_or("").to_owned(),
            ]);
        }
        for name in &names {
            for factory in [Factory::Pc, Factory::Equipment] {
                assert_eq!(classify_in(name, factory), scan(name, factory), "{name}");
            }
        }
    }

    #[test]
    fn terms_are_picked_as_pcgen_picks_them() {
        assert_eq!(builder("TL"), Some("COMPLETE_PC_TL"));
        assert_eq!(builder("CL=Fighter"), Some("START_PC_CL"));
        assert_eq!(builder("CL"), Some("START_PC_CL"));
        assert_eq!(builder("CL;BEFORELEVEL=3"), Some("START_PC_CL_BEFORELEVEL"));
        assert_eq!(builder("CLASSLEVEL=Wizard"), Some("START_PC_CLASSLEVEL"));
        assert_eq!(
            builder("COUNT[FEATS]"),
            Some("COMPLETE_PC_COUNT_FEATSNATURENORMAL")
        );
        assert_eq!(
            builder("COUNT[FEATTYPE=Metamagic]"),
            Some("START_PC_COUNT_FEATTYPE")
        );
        assert_eq!(builder("SKILLRANK=Spot"), Some("START_PC_SKILLRANK"));
        assert_eq!(builder("SIZE"), Some("COMPLETE_EQ_SIZE"));
        assert_eq!(
            classify("SIZE", Context::Character).map(|p| p.builder),
            Some("COMPLETE_PC_SIZEMOD")
        );
        assert_eq!(builder("RANGE"), Some("COMPLETE_EQ_RANGE"));
        // A whole-term builder that matches a prefix only: no term (PCGen stops there).
        assert_eq!(builder("HDX"), None);
        assert_eq!(builder("BABX"), None);
        assert_eq!(builder("Foo"), None);
    }

    #[test]
    fn stat_forms() {
        assert_eq!(stat_form("STR", "STR"), Some(StatForm::Modifier));
        assert_eq!(stat_form("STR.BASE", "STR"), Some(StatForm::BaseScore));
        assert_eq!(stat_form("STRSCORE", "STR"), Some(StatForm::Score));
        assert_eq!(stat_form("STRSCORE.BASE", "STR"), Some(StatForm::BaseScore));
        assert_eq!(stat_form("STRENGTH", "STR"), None);
    }
}
