//! The campaigns `check` added to load sets (L0106 notes), summed up once per campaign.
//!
//! Checking a data folder checks each selectable PCC as its own load set, and every load
//! set that needs a campaign it did not select gets that campaign added, with a note: on the
//! whole PCGen corpus half the findings are these notes, and they filled the first screens.
//! The human report shows one line per campaign after the other findings instead;
//! `--verbose` shows each note. The counts, JSON and other formats keep every note. Each
//! note's campaign and PCC are read from its [`Diagnostic::added`], not from its prose.

use rulebook::diagnostic::Diagnostic;
use std::io::{self, Write};

/// The code of the notes summed up.
pub const CAMPAIGN_ADDED: &str = "L0106";

/// One campaign added: how often, and the first note about it.
#[derive(Clone, Debug)]
struct Added {
    campaign: String,
    file: String,
    times: usize,
}

/// The L0106 notes of a run, by the campaign added, in the order first met.
#[derive(Clone, Debug, Default)]
pub struct AddedCampaigns {
    campaigns: Vec<Added>,
    notes: usize,
}

impl AddedCampaigns {
    /// Takes `d` into the summary when it is an L0106 note; false for any other diagnostic.
    pub fn take(&mut self, d: &Diagnostic) -> bool {
        if d.code.id != CAMPAIGN_ADDED
            || !matches!(d.severity, rulebook::diagnostic::Severity::Note)
        {
            return false;
        }
        let Some(added) = d.added.as_deref() else {
            return false;
        };
        let (campaign, file) = (added.name.clone(), added.file.clone());
        self.notes += 1;
        match self
            .campaigns
            .iter_mut()
            .find(|a| a.file == file && a.campaign == campaign)
        {
            Some(a) => a.times += 1,
            None => self.campaigns.push(Added {
                campaign,
                file,
                times: 1,
            }),
        }
        true
    }

    /// Writes the summary: a heading, then one line per campaign, the most added first.
    /// Nothing when no note was taken.
    pub fn write(&self, w: &mut dyn Write) -> io::Result<()> {
        if self.notes == 0 {
            return Ok(());
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        writeln!(
            w,
            "note[{CAMPAIGN_ADDED}]: a required campaign was added to a load set {}, {} in all \
             (--verbose shows each note):",
            plural(self.notes, "time"),
            plural(self.campaigns.len(), "campaign"),
        )?;
        let mut rows: Vec<&Added> = self.campaigns.iter().collect();
        rows.sort_by(|a, b| b.times.cmp(&a.times).then(a.campaign.cmp(&b.campaign)));
        for a in rows {
            let escaped = rulebook::diagnostic::escape::escape_line(&a.campaign);
            if a.file.is_empty() {
                writeln!(w, "{:>6} × `{escaped}`", a.times)?;
            } else {
                let file = rulebook::diagnostic::escape::escape_line(&a.file);
                writeln!(w, "{:>6} × `{escaped}` ({file})", a.times)?;
            }
        }
        Ok(())
    }
}
