//! The call limits' own tests: a call past its limits named, a sleep woken by the run's limit,
//! one thread's limits held inside its stretch, durations said as people say them.

use super::hit::format_duration;
use super::*;
use crate::search::Outcome;

#[test]
fn a_call_past_its_time_limit_is_named() {
    let result = within(CallLimits::time(Duration::from_millis(20)), || {
        let _call = begin("draw");
        let began = Instant::now();
        loop {
            if let Some(hit) = check() {
                return (hit, began.elapsed());
            }
        }
    });
    let hit = result.expect_err("the limit was hit");
    assert_eq!(
        hit.to_string(),
        "the script's `draw` ran past its time limit of 20 ms"
    );
    assert_eq!(hit.outcome(), None, "the program's error, not the run's");
    assert_eq!(last_hit(), Some(hit));
}

#[test]
fn a_sleep_wakes_at_the_run_time_limit() {
    let cancel = CancelToken::with_limits(crate::search::Limits {
        timeout: Some(Duration::from_millis(30)),
        ..crate::search::Limits::default()
    });
    let guard = RunGuard::enter(&cancel);
    let began = Instant::now();
    let slept = {
        let _call = begin("moves");
        sleep(3600.0)
    };
    assert!(began.elapsed() < Duration::from_secs(5));
    assert_eq!(
        slept,
        Err(SleepError::Limit(Hit::RunTimeout { entry: "moves" }))
    );
    assert_eq!(
        guard.hit().and_then(|h| h.outcome()),
        Some(Outcome::Timeout)
    );
    assert!(matches!(sleep(1.0e300), Err(SleepError::Invalid(_))));
    assert!(matches!(sleep(f64::NAN), Err(SleepError::Invalid(_))));
}

#[test]
fn a_call_holding_more_than_the_budget_is_stopped() {
    let cancel = CancelToken::with_limits(crate::search::Limits {
        max_memory: 4 << 20,
        ..crate::search::Limits::default()
    });
    let _guard = RunGuard::enter(&cancel);
    let _call = begin("moves");
    let mut held = Vec::new();
    let hit = loop {
        held.push(vec![1u8; 1 << 20]);
        if let Some(hit) = check() {
            break hit;
        }
        assert!(held.len() < 64, "no limit after 64 MiB");
    };
    assert!((4..=5).contains(&held.len()), "{}", held.len());
    assert_eq!(hit.outcome(), Some(Outcome::MemoryLimit));
}

/// Inside [`on_one_thread`] the program's parallel work has no workers (it runs on the
/// caller's thread, the plain way); after it, nested or not, the workers are back.
#[test]
fn one_thread_holds_only_inside_its_stretch() {
    let outside = workers().is_some();
    let inside = on_one_thread(|| {
        let nested = on_one_thread(|| workers().is_none());
        (workers().is_none(), nested)
    });
    assert_eq!(inside, (true, true));
    assert_eq!(workers().is_some(), outside);
    // Another thread is not held by this one's stretch.
    let other = on_one_thread(|| {
        std::thread::Builder::new()
            .name("one-thread-test".into())
            .spawn(|| workers().is_some())
            .and_then(|t| t.join().map_err(|_| std::io::Error::other("panicked")))
    });
    assert_eq!(other.ok(), Some(outside));
}

#[test]
fn durations_read_as_people_say_them() {
    assert_eq!(format_duration(Duration::from_millis(50)), "50 ms");
    assert_eq!(format_duration(Duration::from_secs(2)), "2 s");
    assert_eq!(format_duration(Duration::from_millis(1500)), "1.5 s");
}
