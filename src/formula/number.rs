//! Exact NUMBER values: integers where possible, decimals otherwise.
//!
//! rulebook deliberately differs from PCGen here (PCGen uses 32-bit `Integer` that wraps and
//! `Double` that yields `Infinity`/`NaN`): every operation is exact (or rounded to 28
//! significant digits for non-terminating quotients and fractional powers) and checked. An
//! operation that cannot produce a finite number returns an [`ArithmeticError`].
//!
//! The representation is an `i64` fast path plus a [`Decimal`] for everything else. A result
//! that is a whole number fitting `i64` is always stored as [`Number::Int`], so integer
//! formulas stay on the fast path. Equality and ordering are numeric: scale and the sign of
//! zero are ignored (`1 == 1.0`, `0.0 == -0.0`).

use rust_decimal::Decimal;
use rust_decimal::prelude::{MathematicalOps, ToPrimitive};
use std::cmp::Ordering;
use std::fmt;

/// An exact number.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    /// A whole number that fits `i64`.
    Int(i64),
    /// Any other number (a fraction, or a whole number beyond `i64`).
    Dec(Decimal),
}

/// Why an arithmetic operation has no NUMBER result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithmeticError {
    /// Division or remainder by zero (also `0^-1`).
    DivisionByZero,
    /// The result is outside the representable range (about ±7.9e28).
    Overflow,
    /// The result is not a real number (a negative number to a fractional power).
    NotReal,
}

impl fmt::Display for ArithmeticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArithmeticError::DivisionByZero => "division by zero",
            ArithmeticError::Overflow => "the result is too large for a NUMBER",
            ArithmeticError::NotReal => "the result is not a real number",
        })
    }
}

impl std::error::Error for ArithmeticError {}

/// Result of a checked NUMBER operation.
pub type NumResult = Result<Number, ArithmeticError>;

impl Number {
    /// Zero.
    pub const ZERO: Number = Number::Int(0);

    /// A number from a decimal, using the integer representation when it is whole and fits.
    pub fn from_decimal(d: Decimal) -> Number {
        if let Some((m, sc)) = small(Number::Dec(d)) {
            return make_small(m, sc);
        }
        if d.is_integer() {
            if let Some(i) = d.to_i64() {
                return Number::Int(i);
            }
        }
        Number::Dec(d)
    }

    /// A number from an `i128`, or an overflow error when it is beyond the decimal range.
    pub fn from_i128(v: i128) -> NumResult {
        if let Ok(i) = i64::try_from(v) {
            return Ok(Number::Int(i));
        }
        Decimal::try_from_i128_with_scale(v, 0)
            .map(Number::Dec)
            .map_err(|_| ArithmeticError::Overflow)
    }

    /// This number as a decimal.
    pub fn to_decimal(self) -> Decimal {
        match self {
            Number::Int(i) => Decimal::from(i),
            Number::Dec(d) => d,
        }
    }

    /// The number as an `i64` if it is a whole number in range.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Number::Int(i) => Some(i),
            Number::Dec(d) if d.is_integer() => d.to_i64(),
            Number::Dec(_) => None,
        }
    }

    /// True for whole numbers.
    pub fn is_integer(self) -> bool {
        match self {
            Number::Int(_) => true,
            Number::Dec(d) => d.is_integer(),
        }
    }

    /// True for zero (of any scale or sign).
    pub fn is_zero(self) -> bool {
        match self {
            Number::Int(i) => i == 0,
            Number::Dec(d) => d.is_zero(),
        }
    }

    /// True when below zero.
    pub fn is_negative(self) -> bool {
        match self {
            Number::Int(i) => i < 0,
            Number::Dec(d) => d.is_sign_negative() && !d.is_zero(),
        }
    }

    /// Parses a formula number literal (`12`, `1.5`, `.5`, `007`: digits with at most one
    /// `.`, no sign, no exponent). `None` when the text is not such a literal;
    /// `Some(Err(Overflow))` when it is one but too large.
    pub fn parse_literal(text: &str) -> Option<NumResult> {
        // Most literals are a few digits: at most 18 cannot overflow an `i64`, so they are
        // read in one pass without looking for a `.` first.
        if (1..=18).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()) {
            let n = text.bytes().fold(0i64, |n, b| n * 10 + i64::from(b - b'0'));
            return Some(Ok(Number::Int(n)));
        }
        let (int_part, frac_part) = match text.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !digits(int_part) || frac_part.is_some_and(|f| f.is_empty() || !digits(f)) {
            return None;
        }
        if int_part.is_empty() && frac_part.is_none() {
            return None;
        }
        if frac_part.is_none() {
            if let Ok(i) = int_part.parse::<i64>() {
                return Some(Ok(Number::Int(i)));
            }
        }
        let normal = if int_part.is_empty() {
            format!("0{text}")
        } else {
            text.to_owned()
        };
        Some(
            Decimal::from_str_exact(&normal)
                .map(Number::from_decimal)
                .map_err(|_| ArithmeticError::Overflow),
        )
    }

    /// Parses a NUMBER written in data (a default value, a fixed SET value): optional
    /// surrounding spaces, optional sign, digits with an optional fraction and an optional
    /// exponent (`1e3`). `NaN` and `Infinity` are not numbers.
    pub fn parse_text(text: &str) -> Result<Number, String> {
        let t = text.trim();
        let (neg, body) = match t.as_bytes().first() {
            Some(b'-') => (true, t.get(1..).unwrap_or("")),
            Some(b'+') => (false, t.get(1..).unwrap_or("")),
            _ => (false, t),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (body.get(..i).unwrap_or(""), body.get(i + 1..)),
            None => (body, None),
        };
        let bad = || format!("`{text}` is not a number");
        let mut n = match Number::parse_literal(mantissa) {
            Some(Ok(n)) => n,
            Some(Err(e)) => return Err(format!("`{text}`: {e}")),
            None => {
                // Java accepts a trailing dot (`5.`); so do we.
                match mantissa.strip_suffix('.') {
                    Some(m) if !m.is_empty() => match Number::parse_literal(m) {
                        Some(Ok(n)) => n,
                        _ => return Err(bad()),
                    },
                    _ => return Err(bad()),
                }
            }
        };
        if let Some(exp) = exponent {
            let (eneg, edigits) = match exp.as_bytes().first() {
                Some(b'-') => (true, exp.get(1..).unwrap_or("")),
                Some(b'+') => (false, exp.get(1..).unwrap_or("")),
                _ => (false, exp),
            };
            if edigits.is_empty() || !edigits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let e: i64 = edigits.parse().map_err(|_| bad())?;
            let e = if eneg { -e } else { e };
            let scale = Number::Int(10)
                .pow_i64(e)
                .map_err(|err| format!("`{text}`: {err}"))?;
            n = n
                .checked_mul(scale)
                .map_err(|err| format!("`{text}`: {err}"))?;
        }
        if neg {
            n = n.checked_neg().map_err(|err| format!("`{text}`: {err}"))?;
        }
        Ok(n)
    }

    /// `self + rhs`.
    #[inline]
    pub fn checked_add(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if let Some(r) = a.checked_add(b) {
                return Ok(Number::Int(r));
            }
        }
        self.slow_add(rhs)
    }

    #[inline(never)]
    fn slow_add(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            return Number::from_i128(i128::from(a) + i128::from(b));
        }
        if let Some(r) = small_add(self, rhs) {
            return Ok(r);
        }
        dec(self.to_decimal().checked_add(rhs.to_decimal()))
    }

    /// `self - rhs`.
    #[inline]
    pub fn checked_sub(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if let Some(r) = a.checked_sub(b) {
                return Ok(Number::Int(r));
            }
        }
        self.slow_sub(rhs)
    }

    #[inline(never)]
    fn slow_sub(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            return Number::from_i128(i128::from(a) - i128::from(b));
        }
        if let Some((m, sc)) = small(rhs) {
            if let Some(neg) = m.checked_neg() {
                if let Some(r) = small_add(self, make_small(neg, sc)) {
                    return Ok(r);
                }
            }
        }
        dec(self.to_decimal().checked_sub(rhs.to_decimal()))
    }

    /// `self * rhs`.
    #[inline]
    pub fn checked_mul(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if let Some(r) = a.checked_mul(b) {
                return Ok(Number::Int(r));
            }
        }
        self.slow_mul(rhs)
    }

    #[inline(never)]
    fn slow_mul(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            return Number::from_i128(i128::from(a) * i128::from(b));
        }
        if let (Some(a), Some(b)) = (small(self), small(rhs)) {
            if let Some((m, sc)) = fixed_mul(a, b) {
                return Ok(make_small(m, sc));
            }
        }
        dec(self.to_decimal().checked_mul(rhs.to_decimal()))
    }

    /// `self / rhs`: exact whole quotients stay integers (`6/3` = 2), others are decimals
    /// (`7/2` = 3.5, `1/3` rounded to 28 digits).
    #[inline]
    pub fn checked_div(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if b != 0 && !(a == i64::MIN && b == -1) {
                let (q, r) = (a / b, a % b);
                if r == 0 {
                    return Ok(Number::Int(q));
                }
                return Ok(int_fraction(a, b));
            }
        }
        self.slow_div(rhs)
    }

    #[inline(never)]
    fn slow_div(self, rhs: Number) -> NumResult {
        if rhs.is_zero() {
            return Err(ArithmeticError::DivisionByZero);
        }
        dec(self.to_decimal().checked_div(rhs.to_decimal()))
    }

    /// `floor(self / rhs)` in one step (exact for integers, no decimal in between).
    #[inline]
    pub fn div_floor(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if b != 0 && !(a == i64::MIN && b == -1) {
                let (q, r) = (a / b, a % b);
                return Ok(Number::Int(if r != 0 && ((r < 0) != (b < 0)) {
                    q.saturating_sub(1)
                } else {
                    q
                }));
            }
        }
        self.checked_div(rhs).map(Number::floor)
    }

    /// `ceil(self / rhs)` in one step.
    #[inline]
    pub fn div_ceil(self, rhs: Number) -> NumResult {
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            if b != 0 && !(a == i64::MIN && b == -1) {
                let (q, r) = (a / b, a % b);
                return Ok(Number::Int(if r != 0 && ((r < 0) == (b < 0)) {
                    q.saturating_add(1)
                } else {
                    q
                }));
            }
        }
        self.checked_div(rhs).map(Number::ceil)
    }

    /// `self % rhs` with the sign of the dividend (`-7%3` = -1, `-7.5%2` = -1.5).
    #[inline]
    pub fn checked_rem(self, rhs: Number) -> NumResult {
        if rhs.is_zero() {
            return Err(ArithmeticError::DivisionByZero);
        }
        if let (Number::Int(a), Number::Int(b)) = (self, rhs) {
            // i64::MIN % -1 overflows in Rust but is mathematically 0.
            return Ok(Number::Int(a.checked_rem(b).unwrap_or(0)));
        }
        dec(self.to_decimal().checked_rem(rhs.to_decimal()))
    }

    /// `self ^ rhs`. Whole exponents are exact; fractional exponents are computed to about
    /// 28 significant digits; a negative base with a fractional exponent is
    /// [`ArithmeticError::NotReal`].
    pub fn pow(self, rhs: Number) -> NumResult {
        if let Some(e) = rhs.as_i64() {
            return self.pow_i64(e);
        }
        if self.is_negative() {
            return Err(ArithmeticError::NotReal);
        }
        if self.is_zero() {
            return if rhs.is_negative() {
                Err(ArithmeticError::DivisionByZero)
            } else {
                Ok(Number::ZERO)
            };
        }
        let base = self.to_decimal();
        let r = base
            .checked_ln()
            .and_then(|l| l.checked_mul(rhs.to_decimal()))
            .and_then(|x| x.checked_exp())
            .ok_or(ArithmeticError::Overflow)?;
        // ln/exp are approximations: when the exact result is a short decimal (4^0.5 = 2,
        // 100^1.5 = 1000), return it exactly.
        if let Some(exact) = exact_root(self, rhs, r) {
            return Ok(exact);
        }
        Ok(Number::from_decimal(r.normalize()))
    }

    /// `self ^ e` for a whole exponent.
    pub fn pow_i64(self, e: i64) -> NumResult {
        if e == 0 {
            return Ok(Number::Int(1));
        }
        if e < 0 {
            if self.is_zero() {
                return Err(ArithmeticError::DivisionByZero);
            }
            let p = self.pow_i64(e.checked_neg().ok_or(ArithmeticError::Overflow)?)?;
            return Number::Int(1).checked_div(p);
        }
        if let Number::Int(b) = self {
            if let Ok(e32) = u32::try_from(e) {
                if let Some(r) = b.checked_pow(e32) {
                    return Ok(Number::Int(r));
                }
            }
            if b == 0 || b == 1 {
                return Ok(self);
            }
            if b == -1 {
                return Ok(Number::Int(if e % 2 == 0 { 1 } else { -1 }));
            }
        }
        let u = u64::try_from(e).map_err(|_| ArithmeticError::Overflow)?;
        dec(self.to_decimal().checked_powu(u))
    }

    /// `-self`.
    #[inline]
    pub fn checked_neg(self) -> NumResult {
        match self {
            Number::Int(i) => match i.checked_neg() {
                Some(r) => Ok(Number::Int(r)),
                None => Number::from_i128(-i128::from(i)),
            },
            Number::Dec(d) => Ok(Number::from_decimal(-d)),
        }
    }

    /// `|self|`.
    pub fn abs(self) -> NumResult {
        if self.is_negative() {
            self.checked_neg()
        } else {
            Ok(self)
        }
    }

    /// The largest whole number `<= self`.
    #[inline]
    pub fn floor(self) -> Number {
        match self {
            Number::Int(_) => self,
            Number::Dec(d) => match small(self) {
                Some((m, sc)) => Number::Int(m.div_euclid(pow10(sc))),
                None => Number::from_decimal(d.floor()),
            },
        }
    }

    /// The smallest whole number `>= self`.
    pub fn ceil(self) -> Number {
        match self {
            Number::Int(_) => self,
            Number::Dec(d) => match small(self) {
                Some((m, sc)) => {
                    let p = pow10(sc);
                    let q = m.div_euclid(p);
                    Number::Int(if m.rem_euclid(p) == 0 { q } else { q + 1 })
                }
                None => Number::from_decimal(d.ceil()),
            },
        }
    }

    /// `floor(self + 0.5)` (PCGen's `Math.round`: halves round up, `round(-2.5)` = -2).
    pub fn round(self) -> NumResult {
        match self {
            Number::Int(_) => Ok(self),
            Number::Dec(d) => {
                if let Some((m, sc)) = small(self) {
                    if sc >= 1 {
                        let half = 5 * pow10(sc - 1);
                        if let Some(x) = m.checked_add(half) {
                            return Ok(Number::Int(x.div_euclid(pow10(sc))));
                        }
                    }
                }
                // Half up (toward +∞) without adding 0.5: at 28 digits the sum is rounded
                // to the decimal's precision first, and `round(-9999…9)` lost its last digit.
                let half_up = if d.is_sign_negative() {
                    rust_decimal::RoundingStrategy::MidpointTowardZero
                } else {
                    rust_decimal::RoundingStrategy::MidpointAwayFromZero
                };
                dec(Some(d.round_dp_with_strategy(0, half_up)))
            }
        }
    }

    /// Numeric comparison (scale and sign of zero ignored).
    #[inline]
    pub fn cmp_num(self, rhs: Number) -> Ordering {
        match (self, rhs) {
            (Number::Int(a), Number::Int(b)) => a.cmp(&b),
            _ => {
                if let (Some(a), Some(b)) = (small(self), small(rhs)) {
                    return fixed_cmp(a, b);
                }
                self.to_decimal().cmp(&rhs.to_decimal())
            }
        }
    }
}

/// Largest scale of the fixed-point fast paths (10^18 fits `i64`).
const MAX_SMALL_SCALE: u32 = 18;

const POW10: [i64; 19] = {
    let mut t = [1i64; 19];
    let mut i = 1;
    while i < 19 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// 10^s for s <= 18 (callers guarantee the range; larger values saturate).
#[inline]
fn pow10(s: u32) -> i64 {
    POW10.get(s as usize).copied().unwrap_or(i64::MAX)
}

/// The number as an `i64` mantissa and a decimal scale <= 18, when it fits.
#[inline]
fn small(n: Number) -> Option<(i64, u32)> {
    match n {
        Number::Int(i) => Some((i, 0)),
        Number::Dec(d) => {
            let sc = d.scale();
            if sc > MAX_SMALL_SCALE {
                return None;
            }
            i64::try_from(d.mantissa()).ok().map(|m| (m, sc))
        }
    }
}

/// `m / 10^sc` as a number (integers become [`Number::Int`]).
#[inline]
fn make_small(m: i64, sc: u32) -> Number {
    let (m, sc) = fixed_norm(m, sc);
    if sc == 0 {
        Number::Int(m)
    } else {
        Number::Dec(Decimal::new(m, sc))
    }
}

/// `m / 10^sc` with a whole result as scale 0 (the mantissa/scale form of `make_small`).
#[inline(always)]
pub(crate) fn fixed_norm(m: i64, sc: u32) -> (i64, u32) {
    if sc == 0 {
        return (m, 0);
    }
    let p = pow10(sc);
    if m % p == 0 { (m / p, 0) } else { (m, sc) }
}

#[inline]
fn small_add(a: Number, b: Number) -> Option<Number> {
    let (m, sc) = fixed_add(small(a)?, small(b)?)?;
    Some(if sc == 0 {
        Number::Int(m)
    } else {
        Number::Dec(Decimal::new(m, sc))
    })
}

/// The sum of two fixed-point numbers (mantissa, scale <= 18), `None` when it does not fit.
#[inline(always)]
pub(crate) fn fixed_add((x, sx): (i64, u32), (y, sy): (i64, u32)) -> Option<(i64, u32)> {
    let sc = sx.max(sy);
    let x = x.checked_mul(pow10(sc - sx))?;
    let y = y.checked_mul(pow10(sc - sy))?;
    let m = x.checked_add(y)?;
    if (sx == 0) != (sy == 0) {
        // A whole number plus a fraction is a fraction: no need to test for a whole result.
        return Some((m, sc));
    }
    Some(fixed_norm(m, sc))
}

/// The product of two fixed-point numbers, `None` when it does not fit.
#[inline(always)]
pub(crate) fn fixed_mul((a, sa): (i64, u32), (b, sb): (i64, u32)) -> Option<(i64, u32)> {
    let m = a.checked_mul(b)?;
    let sc = sa + sb;
    if sc <= MAX_SMALL_SCALE {
        Some(fixed_norm(m, sc))
    } else {
        None
    }
}

/// Numeric order of two fixed-point numbers.
#[inline(always)]
pub(crate) fn fixed_cmp((a, sa): (i64, u32), (b, sb): (i64, u32)) -> Ordering {
    let sc = sa.max(sb);
    let a = i128::from(a) * i128::from(pow10(sc - sa));
    let b = i128::from(b) * i128::from(pow10(sc - sb));
    a.cmp(&b)
}

/// Division by a constant whole divisor, with the decimal factor worked out once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstDivisor {
    divisor: i64,
    terminating: Option<(u32, i64)>,
    /// `k` when the divisor is `2^k` (k >= 1): divisions become shifts.
    shift: Option<u32>,
}

impl ConstDivisor {
    /// `None` for zero or a divisor that is not a whole `i64`.
    pub(crate) fn new(n: Number) -> Option<ConstDivisor> {
        match n {
            Number::Int(b) if b != 0 && b != -1 => Some(ConstDivisor {
                divisor: b,
                terminating: terminating(b),
                shift: (b > 1 && b.count_ones() == 1).then(|| b.trailing_zeros()),
            }),
            _ => None,
        }
    }

    /// `a / divisor` for a whole `a` as a mantissa and scale, exactly as
    /// [`ConstDivisor::divide`] (`None`: use `divide`).
    #[inline(always)]
    pub(crate) fn divide_int(self, a: i64) -> Option<(i64, u32)> {
        if let Some(k) = self.shift {
            if a & ((1i64 << k) - 1) == 0 {
                return Some((a >> k, 0));
            }
        } else {
            let b = self.divisor;
            if a % b == 0 {
                return Some((a / b, 0));
            }
        }
        let (k, factor) = self.terminating?;
        Some((a.checked_mul(factor)?, k))
    }

    /// `floor(a / divisor)`, exactly as [`Number::div_floor`].
    #[inline(always)]
    pub(crate) fn floor_int(self, a: i64) -> i64 {
        if let Some(k) = self.shift {
            return a >> k;
        }
        let b = self.divisor;
        let (q, r) = (a / b, a % b);
        if r != 0 && ((r < 0) != (b < 0)) {
            q.saturating_sub(1)
        } else {
            q
        }
    }

    /// `ceil(a / divisor)`, exactly as [`Number::div_ceil`].
    #[inline(always)]
    pub(crate) fn ceil_int(self, a: i64) -> i64 {
        if let Some(k) = self.shift {
            return (a >> k) + i64::from(a & ((1i64 << k) - 1) != 0);
        }
        let b = self.divisor;
        let (q, r) = (a / b, a % b);
        if r != 0 && ((r < 0) == (b < 0)) {
            q.saturating_add(1)
        } else {
            q
        }
    }

    /// The divisor.
    #[inline(always)]
    pub(crate) fn get(self) -> i64 {
        self.divisor
    }

    /// `x / divisor`, exactly as [`Number::checked_div`].
    #[inline]
    pub(crate) fn divide(self, x: Number) -> NumResult {
        if let Number::Int(a) = x {
            let b = self.divisor;
            let (q, r) = (a / b, a % b);
            if r == 0 {
                return Ok(Number::Int(q));
            }
            if let Some((k, factor)) = self.terminating {
                if let Some(m) = a.checked_mul(factor) {
                    return Ok(Number::Dec(Decimal::new(m, k)));
                }
            }
        }
        x.checked_div(Number::Int(self.divisor))
    }
}

/// For a divisor made only of factors 2 and 5: `(k, 10^k / b)` with k <= 18.
#[inline]
fn terminating(b: i64) -> Option<(u32, i64)> {
    let mut r = b.unsigned_abs();
    let twos = r.trailing_zeros();
    r >>= twos;
    let mut fives = 0;
    while r % 5 == 0 && r > 0 {
        r /= 5;
        fives += 1;
    }
    if r != 1 {
        return None;
    }
    let k = twos.max(fives);
    if k > MAX_SMALL_SCALE {
        return None;
    }
    let factor = pow10(k) / b;
    Some((k, factor))
}

/// `a / b` for integers that do not divide: a terminating decimal when `b` is made of 2s
/// and 5s (no decimal division), else a decimal quotient rounded to 28 digits.
#[inline(never)]
fn int_fraction(a: i64, b: i64) -> Number {
    if let Some((k, factor)) = terminating(b) {
        if let Some(m) = a.checked_mul(factor) {
            return Number::Dec(Decimal::new(m, k));
        }
    }
    // b != 0 here, and the quotient of two i64 always fits a decimal.
    Decimal::from(a)
        .checked_div(Decimal::from(b))
        .map_or(Number::ZERO, Number::from_decimal)
}

/// For `base ^ (n/d)` with a small denominator `d`: the short decimal near `approx` whose
/// `d`-th power is exactly `base ^ n`, if there is one.
fn exact_root(base: Number, exp: Number, approx: Decimal) -> Option<Number> {
    let (m, sc) = small(exp)?;
    let (mut n, mut d) = (m, pow10(sc));
    let g = gcd(n.unsigned_abs(), d.unsigned_abs());
    let g = i64::try_from(g).ok()?;
    if g > 1 {
        n /= g;
        d /= g;
    }
    if !(2..=1000).contains(&d) {
        return None;
    }
    let target = base.pow_i64(n).ok()?;
    for places in [0u32, 6, 12] {
        let candidate = Number::from_decimal(approx.round_dp(places));
        if candidate.pow_i64(d).ok()? == target {
            return Some(candidate);
        }
    }
    None
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn dec(d: Option<Decimal>) -> NumResult {
    d.map(Number::from_decimal).ok_or(ArithmeticError::Overflow)
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp_num(*other) == Ordering::Equal
    }
}
impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        self.cmp_num(*other)
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        Number::Int(i)
    }
}

impl fmt::Display for Number {
    /// Integers without a fraction, decimals in plain notation without trailing zeros.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Dec(d) => {
                let n = d.normalize();
                if n.is_zero() {
                    f.write_str("0")
                } else {
                    write!(f, "{n}")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse_text(s).unwrap()
    }

    #[test]
    fn literals() {
        assert_eq!(Number::parse_literal("007"), Some(Ok(Number::Int(7))));
        // Both sides of the 18-digit fast path read alike.
        assert_eq!(
            Number::parse_literal("999999999999999999"),
            Some(Ok(Number::Int(999_999_999_999_999_999)))
        );
        assert_eq!(
            Number::parse_literal("9223372036854775807"),
            Some(Ok(Number::Int(i64::MAX)))
        );
        assert!(matches!(
            Number::parse_literal("9223372036854775808"),
            Some(Ok(Number::Dec(_)))
        ));
        assert_eq!(n(".5").to_string(), "0.5");
        assert_eq!(n("1.50").to_string(), "1.5");
        assert!(Number::parse_literal("1.").is_none());
        assert!(Number::parse_literal("-1").is_none());
        assert!(Number::parse_literal("1e5").is_none());
        assert_eq!(
            n("99999999999999999999").to_string(),
            "99999999999999999999"
        );
    }

    #[test]
    fn text_values() {
        assert_eq!(n(" 5"), Number::Int(5));
        assert_eq!(n("-7.3").to_string(), "-7.3");
        assert_eq!(n("1e3"), Number::Int(1000));
        assert_eq!(n("1.5E-2").to_string(), "0.015");
        assert!(Number::parse_text("NaN").is_err());
        assert!(Number::parse_text("0x10").is_err());
        assert!(Number::parse_text("").is_err());
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(n("6").checked_div(n("3")).unwrap().to_string(), "2");
        assert_eq!(n("7").checked_div(n("2")).unwrap().to_string(), "3.5");
        assert_eq!(n("0.1").checked_add(n("0.2")).unwrap().to_string(), "0.3");
        assert_eq!(
            n("2147483647").checked_add(n("1")).unwrap().to_string(),
            "2147483648"
        );
        assert_eq!(n("-7").checked_rem(n("3")).unwrap(), n("-1"));
        assert_eq!(n("-7.5").checked_rem(n("2")).unwrap(), n("-1.5"));
        assert_eq!(n("2").pow(n("3")).unwrap(), n("8"));
        assert_eq!(n("2").pow(n("-1")).unwrap().to_string(), "0.5");
        assert_eq!(
            n("1").checked_div(n("0")),
            Err(ArithmeticError::DivisionByZero)
        );
        assert_eq!(n("0").pow(n("-1")), Err(ArithmeticError::DivisionByZero));
        assert_eq!(n("2").pow(n("1024")), Err(ArithmeticError::Overflow));
        assert_eq!(n("-8").pow(n("0.5")), Err(ArithmeticError::NotReal));
        assert_eq!(n("4").pow(n("0.5")).unwrap(), n("2"));
        assert_eq!(n("100").pow(n("1.5")).unwrap(), n("1000"));
        assert_eq!(n("6.25").pow(n("0.5")).unwrap().to_string(), "2.5");
        let r = n("2").pow(n("0.5")).unwrap().to_decimal();
        assert!((r - Decimal::new(1414213562373095, 15)).abs() < Decimal::new(1, 12));
        let big = Number::Int(1 << 40);
        assert_eq!(
            big.checked_mul(big).unwrap().to_string(),
            (1i128 << 80).to_string()
        );
        assert_eq!(
            Number::Int(i64::MAX).checked_mul(Number::Int(i64::MAX)),
            Err(ArithmeticError::Overflow)
        );
    }

    #[test]
    fn rounding() {
        assert_eq!(n("-0.5").floor(), n("-1"));
        assert_eq!(n("-0.5").ceil(), n("0"));
        assert_eq!(n("2.5").round().unwrap(), n("3"));
        assert_eq!(n("-2.5").round().unwrap(), n("-2"));
        assert_eq!(n("-5.5").round().unwrap(), n("-5"));
        // 28 digits: adding 0.5 would round the sum before the floor.
        for big in [
            "9999999999999999999999999999",
            "-9999999999999999999999999999",
        ] {
            assert_eq!(n(big).round().unwrap(), n(big));
        }
        assert_eq!(
            n("-999999999999999999999999999.5").round().unwrap(),
            n("-999999999999999999999999999")
        );
        assert_eq!(
            n("7922816251426433759354395033.4").round().unwrap(),
            n("7922816251426433759354395033")
        );
    }

    #[test]
    fn equality_ignores_scale_and_zero_sign() {
        assert_eq!(n("1"), n("1.0"));
        assert_eq!(n("0.0"), n("-0.0"));
        assert_eq!(n("-0.0").to_string(), "0");
        assert!(n("1.5") > n("1"));
    }
}
