//! `system.stats`: plausible machine numbers for a small home node, drifting gently with time.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

const GIB: u64 = 1024 * 1024 * 1024;
const MEM_TOTAL: u64 = 16 * GIB;
const DISK_TOTAL: u64 = 2_000_398_934_016;
/// The machine had been up a while before the devnode "booted" it.
const UPTIME_AT_START: Duration = Duration::from_secs(3 * 24 * 3600 + 4 * 3600 + 17 * 60);

/// The machine's stats at `now` for a node started at `started` with `running_apps` apps up.
pub(crate) fn stats(started: SystemTime, now: SystemTime, running_apps: usize, disk_used: u64) -> Value {
    let elapsed = now.duration_since(started).unwrap_or_default();
    // A slow wobble rather than noise, so two calls a moment apart agree and tests stay deterministic.
    let phase = elapsed.as_secs_f64() / 17.0;
    let cpu = 6.0 + 3.5 * running_apps as f64 + 4.0 * phase.sin();
    let mem_used = 1_700_000_000 + running_apps as u64 * 850_000_000 + ((phase.cos() + 1.0) * 60_000_000.0) as u64;
    json!({
        "cpu_percent": (cpu.clamp(0.5, 100.0) * 10.0).round() / 10.0,
        "mem_used": mem_used.min(MEM_TOTAL),
        "mem_total": MEM_TOTAL,
        "disk_used": disk_used.min(DISK_TOTAL),
        "disk_total": DISK_TOTAL,
        "temperature_c": ((48.0 + 1.5 * running_apps as f64 + phase.sin()) * 10.0).round() / 10.0,
        "uptime_s": (UPTIME_AT_START + elapsed).as_secs(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_plausible() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let s = stats(t0, t0 + Duration::from_secs(30), 5, 800_000_000_000);
        let cpu = s["cpu_percent"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&cpu));
        assert!(s["mem_used"].as_u64().unwrap() < s["mem_total"].as_u64().unwrap());
        assert!(s["disk_used"].as_u64().unwrap() < s["disk_total"].as_u64().unwrap());
        assert_eq!(s["uptime_s"], UPTIME_AT_START.as_secs() + 30);
    }
}
