//! A FICS match request and the values the formula variables take for it.

use serde::{Deserialize, Deserializer};

/// The variant category of the offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum Category {
    /// Standard chess (`""` or `"standard"` in JSON).
    #[default]
    #[serde(rename = "", alias = "standard")]
    Standard,
    /// A wild variant with a board.
    #[serde(rename = "wild")]
    Wild,
    /// Any other category or board.
    #[serde(rename = "nonstd", alias = "nonstandard")]
    Nonstandard,
}

/// The game type FICS derives from the clocks and the category (`game_isblitz` of 1.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// `60·time + 40·inc < 180` seconds.
    Lightning,
    /// Between lightning and standard.
    Blitz,
    /// `60·time + 40·inc ≥ 900` seconds.
    Standard,
    /// A wild variant.
    Wild,
    /// Unequal clocks, or a non-standard category.
    Nonstandard,
    /// Either side has no time and no increment.
    Untimed,
}

/// One player's ratings by game type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Ratings {
    /// Blitz rating.
    pub blitz: i32,
    /// Standard rating.
    pub standard: i32,
    /// Lightning rating.
    pub lightning: i32,
    /// Wild rating.
    pub wild: i32,
}

impl Ratings {
    /// The rating for a game type: 0 for untimed and nonstandard games, as in FICS.
    pub fn for_type(&self, ty: GameType) -> i32 {
        match ty {
            GameType::Blitz => self.blitz,
            GameType::Standard => self.standard,
            GameType::Lightning => self.lightning,
            GameType::Wild => self.wild,
            GameType::Untimed | GameType::Nonstandard => 0,
        }
    }
}

/// A match request as the formula owner (`me`, the challenged player) receives it from the
/// challenger. Deserializes from the `context` object of the conformance vectors (flags may
/// be `0`/`1` or `true`/`false`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct MatchRequest {
    /// The challenger's initial time in minutes.
    pub time: i32,
    /// The challenger's increment in seconds.
    pub inc: i32,
    /// The owner's initial time in minutes.
    pub mytime: i32,
    /// The owner's increment in seconds.
    pub myinc: i32,
    /// Whether the game would be rated (after the server forced it off where it must).
    #[serde(deserialize_with = "flag")]
    pub rated: bool,
    /// The variant category.
    pub category: Category,
    /// The challenger's ratings.
    pub rating: Ratings,
    /// The owner's ratings.
    pub myrating: Ratings,
    /// The challenger is registered.
    #[serde(deserialize_with = "flag")]
    pub registered: bool,
    /// The challenger is on the computer list.
    #[serde(deserialize_with = "flag")]
    pub computer: bool,
    /// The challenger is on the abuser list.
    #[serde(deserialize_with = "flag")]
    pub abuser: bool,
    /// The challenger's private flag.
    #[serde(deserialize_with = "flag")]
    pub private: bool,
    /// The challenger uses timeseal.
    #[serde(deserialize_with = "flag")]
    pub timeseal: bool,
    /// The owner's rating change if they win (used only when rated).
    pub assesswin: i32,
    /// The owner's rating change on a draw (used only when rated).
    pub assessdraw: i32,
    /// The owner's rating change if they lose (used only when rated).
    pub assessloss: i32,
}

fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        B(bool),
        N(i64),
    }
    Ok(match Flag::deserialize(d)? {
        Flag::B(b) => b,
        Flag::N(n) => n != 0,
    })
}

impl MatchRequest {
    /// The game type, as FICS 1.6.2 classifies it: wild or nonstandard category first, then
    /// untimed (either side 0/0), then unequal clocks (nonstandard), then by
    /// `60·time + 40·inc` seconds: below 180 lightning, from 900 standard, else blitz.
    pub fn game_type(&self) -> GameType {
        match self.category {
            Category::Wild => return GameType::Wild,
            Category::Nonstandard => return GameType::Nonstandard,
            Category::Standard => {}
        }
        let (t, i, bt, bi) = (self.time, self.inc, self.mytime, self.myinc);
        if (t == 0 && i == 0) || (bt == 0 && bi == 0) {
            return GameType::Untimed;
        }
        if t != bt || i != bi {
            return GameType::Nonstandard;
        }
        let total = 60 * i64::from(t) + 40 * i64::from(i);
        if total < 180 {
            GameType::Lightning
        } else if total >= 900 {
            GameType::Standard
        } else {
            GameType::Blitz
        }
    }

    /// The longest time `moves` moves can take, in seconds: both players' clocks
    /// (`maxtime`) or only the owner's (`mymaxtime`). Sides starting at 0 minutes get 10
    /// seconds, unless the game is untimed. `None` when the result does not fit in 32 bits.
    pub fn max_time(&self, moves: i32, players: super::Players, ty: GameType) -> Option<i32> {
        // i128: no product of two 32-bit values and a small factor can overflow it.
        let n = i128::from(moves);
        let (t, i, bt, bi) = (
            i128::from(self.time),
            i128::from(self.inc),
            i128::from(self.mytime),
            i128::from(self.myinc),
        );
        let timed = ty != GameType::Untimed;
        let bonus = |start: i128| if timed && start == 0 { 10 } else { 0 };
        let total = if t == bt && i == bi {
            let p = match players {
                super::Players::Both => 2,
                super::Players::Me => 1,
            };
            p * (60 * t + n * i) + p * bonus(t)
        } else {
            match players {
                super::Players::Both => 60 * (t + bt) + n * (i + bi) + bonus(t) + bonus(bt),
                super::Players::Me => 60 * bt + n * bi + bonus(bt),
            }
        };
        i32::try_from(total).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(t: i32, i: i32, bt: i32, bi: i32) -> MatchRequest {
        MatchRequest {
            time: t,
            inc: i,
            mytime: bt,
            myinc: bi,
            ..MatchRequest::default()
        }
    }

    #[test]
    fn boundaries_of_the_game_types() {
        let ty = |t, i| clocks(t, i, t, i).game_type();
        assert_eq!(ty(2, 0), GameType::Lightning);
        assert_eq!(ty(3, 0), GameType::Blitz);
        assert_eq!(ty(1, 2), GameType::Lightning);
        assert_eq!(ty(14, 2), GameType::Standard);
        assert_eq!(ty(5, 14), GameType::Blitz);
        assert_eq!(ty(0, 4), GameType::Lightning);
        assert_eq!(ty(0, 0), GameType::Untimed);
        assert_eq!(clocks(5, 0, 3, 0).game_type(), GameType::Nonstandard);
    }

    #[test]
    fn maxtime_examples_of_the_reference() {
        use super::super::Players::{Both, Me};
        let r = clocks(2, 12, 2, 12);
        assert_eq!(r.max_time(40, Both, r.game_type()), Some(1200));
        assert_eq!(r.max_time(40, Me, r.game_type()), Some(600));
        let r = clocks(0, 12, 0, 12);
        assert_eq!(r.max_time(10, Both, r.game_type()), Some(260));
        let r = clocks(5, 2, 3, 0);
        assert_eq!(r.max_time(40, Both, r.game_type()), Some(560));
        assert_eq!(r.max_time(40, Me, r.game_type()), Some(180));
        let r = clocks(i32::MAX, i32::MAX, i32::MAX, i32::MAX);
        assert_eq!(r.max_time(i32::MAX, Both, r.game_type()), None);
        assert_eq!(r.max_time(i32::MIN, Me, r.game_type()), None);
    }
}
