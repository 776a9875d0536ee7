// The one rule every database backend's timeouts obey: after a network loss
// the client declares its locks lost (heartbeat interval + deadline), its
// holder stops the work under them (the stop grace: `advlock run` sends
// SIGTERM, then SIGKILL after --kill-grace), and only then may the server free
// them for someone else. The server's silence limit is derived from the three,
// so a longer heartbeat or grace moves the server's limit instead of being
// refused, and the defaults (2 + 3 + 10 + 3 s margin) free a dead holder's
// locks after 18 s.
#pragma once

namespace advlock::core {

// Below this, a heartbeat setting is a mistake (it would flood the server).
constexpr int kHeartbeatMinimumMs = 10;
// Above this (an hour), a setting is a mistake too: a lost lock unnoticed for
// hours, and a dead holder's lock never freed in practice.
constexpr int kHeartbeatMaximumMs = 3600 * 1000;

constexpr int kHeartbeatIntervalDefaultMs = 2000;
constexpr int kHeartbeatDeadlineDefaultMs = 3000;
// Library users stop on the lost callback; the CLI passes its --kill-grace,
// whose default is the same 10 s.
constexpr int kStopGraceDefaultMs = 10000;
// Between the holder's last chance to stop and the server freeing the locks:
// SIGKILL's delivery, a loaded machine's scheduling, timer granularity.
constexpr int kServerSilenceMarginMs = 3000;

struct HeartbeatSettings {
    int interval_ms = kHeartbeatIntervalDefaultMs;
    int deadline_ms = kHeartbeatDeadlineDefaultMs;
    int stop_grace_ms = kStopGraceDefaultMs;
};

// Throws InvalidArgument unless interval and deadline are within
// kHeartbeatMinimumMs..kHeartbeatMaximumMs and the stop grace within
// 0..kHeartbeatMaximumMs.
void validate_heartbeat(const HeartbeatSettings &settings);

// Whole seconds of silence after which the server may free the session's
// locks: interval + deadline + stop grace + margin, rounded up. Strictly more
// than the client needs to let go and stop its holder.
constexpr int server_silence_limit_s(const HeartbeatSettings &s) {
    const long long ms = static_cast<long long>(s.interval_ms) + s.deadline_ms + s.stop_grace_ms + kServerSilenceMarginMs;
    return static_cast<int>((ms + 999) / 1000);
}

// With the defaults, a dead holder is freed within 20 s (issue 23's promise).
static_assert(server_silence_limit_s(HeartbeatSettings{}) == 18);

}  // namespace advlock::core
