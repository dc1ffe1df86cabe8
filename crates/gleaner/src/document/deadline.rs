//! The per-document time budget: a cooperative deadline.
//!
//! Every input-bounded limit of [`ParseOptions`](crate::ParseOptions) keeps
//! a page's work linear, but linear in 64 MiB of markup is still seconds,
//! and a batch of a billion pages meets inputs nobody thought of. The
//! deadline is the last fence: parsing checks it between chunks of tokens
//! and fails with [`Error::TimeBudget`]; extractors check it in every loop
//! that grows with the input and stop early, and whoever ran them asks
//! [`Deadline::was_hit`] to report the page as out of time instead of
//! passing a cut-short extraction for the whole page.
//!
//! Nothing is interrupted from outside: a check is a clock read, made every
//! few thousand items by the loops themselves (see [`Deadline::CHECK_EVERY`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// When a document's work must end, and whether some loop already found
/// that time had run out.
#[derive(Debug)]
pub struct Deadline {
    /// The budget and the instant it ends; `None` for no limit.
    end: Option<(Duration, Instant)>,
    /// Set by the first check past the end, so later checks are free and
    /// the caller can tell that a result was cut short.
    hit: AtomicBool,
}

impl Deadline {
    /// Loops over nodes or tokens read the clock once per this many items.
    /// A clock read costs ~20 ns; a node visit a few ns.
    pub const CHECK_EVERY: usize = 4096;

    /// A deadline `budget` from now; `None` for none.
    pub fn starting_now(budget: Option<Duration>) -> Deadline {
        Deadline { end: budget.map(|b| (b, Instant::now() + b)), hit: AtomicBool::new(false) }
    }

    /// No deadline at all.
    pub fn never() -> Deadline {
        Deadline::starting_now(None)
    }

    /// The budget this deadline was started with.
    pub fn budget(&self) -> Option<Duration> {
        self.end.map(|(budget, _)| budget)
    }

    /// True once the budget is spent (and from then on).
    pub fn expired(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        match self.end {
            Some((_, end)) if Instant::now() >= end => {
                self.hit.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// [`Deadline::expired`], reading the clock only when `item` (a loop
    /// counter) is a multiple of [`Deadline::CHECK_EVERY`].
    #[inline]
    pub fn expired_at(&self, item: usize) -> bool {
        if item % Self::CHECK_EVERY == 0 {
            self.expired()
        } else {
            self.hit.load(Ordering::Relaxed)
        }
    }

    /// `Err(Error::TimeBudget)` once the budget is spent.
    pub fn check(&self) -> Result<()> {
        if self.expired() {
            Err(self.error())
        } else {
            Ok(())
        }
    }

    /// Whether some check found the budget spent: work done under this
    /// deadline may have stopped early.
    pub fn was_hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }

    /// The error to report for work stopped by this deadline.
    pub fn error(&self) -> Error {
        Error::TimeBudget {
            budget_ms: self.budget().map_or(0, |b| b.as_millis().min(u64::MAX as u128) as u64),
        }
    }
}

impl Clone for Deadline {
    fn clone(&self) -> Deadline {
        Deadline { end: self.end, hit: AtomicBool::new(self.was_hit()) }
    }
}

impl Default for Deadline {
    fn default() -> Deadline {
        Deadline::never()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_budget_never_expires() {
        let d = Deadline::never();
        assert!(!d.expired());
        assert!(d.check().is_ok());
        assert!(!d.was_hit());
    }

    #[test]
    fn a_spent_budget_is_reported_and_stays_spent() {
        let d = Deadline::starting_now(Some(Duration::ZERO));
        assert!(!d.was_hit(), "nothing checked yet");
        assert!(!d.expired_at(1), "off-beat items do not read the clock");
        assert!(d.expired_at(0));
        assert!(d.was_hit());
        assert!(d.expired_at(1), "once hit, every check says so");
        assert!(matches!(d.check(), Err(Error::TimeBudget { budget_ms: 0 })));
        assert!(d.clone().was_hit());
    }

    #[test]
    fn a_long_budget_does_not_expire() {
        let d = Deadline::starting_now(Some(Duration::from_secs(3600)));
        assert!(!d.expired());
        assert_eq!(d.budget(), Some(Duration::from_secs(3600)));
    }
}
