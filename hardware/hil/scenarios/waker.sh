# The second waker (R35) on real drivers: the daemon rings on the snd-aloop card (an exclusive `plughw:` device)
# and holds the gpio-sim button lines; it is frozen (SIGSTOP) ten seconds before a tone alarm. The waker —
#   aubade-waker --db D --config C --json --grace 8s --fake-time <the daemon's clock when the waker starts>
# which prints armed, ringing {alarm, late_ms}, device {device, alternate}, daemon-killed {pid, reason},
# stopped {end, by} — finds the card and the button lines busy for its 2 s of retries, ends the frozen daemon
# that holds them, plays the tone to the loopback, and a press of the stop button (GPIO27, now free) stops it.
# The config has a bed shaker on GPIO16 (a gpio-sim output line, pattern 400/400): the waker drives it with the
# ring (its level, read from the simulator, follows the pattern) and leaves it inactive and released at the stop.
# Runs when run.sh copied aubade-waker beside aubade and the daemon has --fake-time.

WAKER=$HIL_WORK/aubade-waker
WAKER_PID=""

# waker_events NAME: how many events of that name the waker printed. waker_wait NAME SECONDS.
waker_count() { grep -Ec "\"event\": ?\"$1\"" "$WAKER_EVENTS" 2>/dev/null || true; }
waker_wait() {
  local name=$1 deadline=$((${EPOCHREALTIME%.*} + $2))
  while [ "${EPOCHREALTIME%.*}" -lt "$deadline" ]; do
    [ "$(waker_count "$name")" -ge 1 ] && return 0
    kill -0 "$WAKER_PID" 2>/dev/null || { sleep 0.3; [ "$(waker_count "$name")" -ge 1 ]; return; }
    sleep 0.1
  done
  return 1
}
waker_stop() {
  [ -n "$WAKER_PID" ] || return 0
  kill -TERM "$WAKER_PID" 2>/dev/null
  wait "$WAKER_PID" 2>/dev/null
  WAKER_PID=""
  sleep 0.3
}

# daemon_clock: the daemon's wall clock now (unix seconds), from its ready line (ready_t, ready_rt).
daemon_clock() { awk -v t="$ready_t" -v r="$ready_rt" -v n="$(now)" 'BEGIN { printf "%.3f", t + n - r }'; }

scenario_waker() {
  SCENARIO=waker
  [ -x "$WAKER" ] || { skip "aubade-waker was not built beside aubade"; return; }
  daemon_available || { skip "aubade run is not the daemon yet (no --fake-time)"; return; }
  gpiosim_ready || { fail "the gpio-sim chip could not be made"; return; }
  CFG=$T/waker.toml
  write_config "$CFG" shake.source='"none"' outputs.shaker.line='"GPIO16"' outputs.shaker.pattern='"400/400"'
  alarm_db --source tone
  capture_start "$OUT/$SCENARIO.wav" || { fail "the loopback capture did not start"; return; }
  daemon_start "$SCENARIO" 45 || { capture_stop; return; }
  # The waker runs on the daemon's clock as it reads now (its `ready` line's own stamp, and the real time that
  # line arrived): started later on the same --fake-time, it would lag by the daemon's start-up, which under TCG
  # is many seconds.
  jset "$EVENTS" ready_t="ev('ready')[0]['t']" ready_rt="ev('ready')[0]['_rt']"
  local fake; fake=$(date -u -d "@$(daemon_clock)" +%Y-%m-%dT%H:%M:%S.%3NZ)
  WAKER_EVENTS=$OUT/$SCENARIO-waker.jsonl
  "$WAKER" --db "$DB" --config "$CFG" --json --grace 8s --fake-time "$fake" 2> "$OUT/$SCENARIO-waker.err" \
    > >(python3 -S -u "$HIL/stamp.py" > "$WAKER_EVENTS") &
  WAKER_PID=$!
  if ! waker_wait armed 60; then
    fail "the waker did not arm within 60 s: $(tail -3 "$OUT/$SCENARIO-waker.err")"
    waker_stop; daemon_stop; capture_stop; return
  fi
  # Frozen ten seconds before the alarm, on the daemon's clock.
  local lead; lead=$(awk -v a="$ALARM_AT" -v d="$(daemon_clock)" 'BEGIN { printf "%.2f", a - d }')
  if ! within "$lead" 10 1000; then
    fail "the VM was too slow: the daemon's clock was $lead s before the alarm once the waker had armed (10 needed)"
    waker_stop; daemon_stop; capture_stop; return
  fi
  sleep "$(awk -v l="$lead" 'BEGIN { printf "%.2f", l - 10 }')"
  kill -STOP "$DAEMON_PID"
  local frozen; frozen=$(now)
  if ! waker_wait ringing 60 || ! waker_wait device 30; then
    fail "the waker did not ring on the card within 90 s of the freeze: $(tail -3 "$OUT/$SCENARIO-waker.err")"
    kill -KILL "$DAEMON_PID" 2>/dev/null; waker_stop; capture_stop; return
  fi
  local shaker; shaker=$(outputs_sample 16 30)   # ~3 s of the ring
  local shaker_holder; shaker_holder=$(outputs_holder 16)
  local pressed; pressed=$(now)
  press 27; sleep 0.3; release 27
  waker_wait stopped 10 || fail "the waker did not stop within 10 s of the stop press"
  sleep 1.5
  local shaker_after; shaker_after=$(cat "$GPIOSIM_SYS/sim_gpio16/value")$(outputs_holder 16)
  # Where the recording was (its own clock: the capture's frames so far) when the waker is ended by this script.
  local ended_at; ended_at=$(awk '$1 == "hw_ptr" { printf "%.3f", $3 / 44100 }' /proc/asound/Loopback/pcm1c/sub0/status)
  waker_stop
  kill -KILL "$DAEMON_PID" 2>/dev/null
  wait "$DAEMON_PID" 2>/dev/null
  capture_stop
  wav_stats "$OUT/$SCENARIO.wav"
  figure "recording $(cat "$OUT/$SCENARIO.wav.json")"
  jset "$WAKER_EVENTS" ringing="ev('ringing')" killed="ev('daemon-killed')" stopped="ev('stopped')" \
    ring_rt="ev('ringing')[0]['_rt']" late="ev('ringing')[0].get('late_ms')" \
    armed_ok="ev('armed')[0]['occurrence'] == $ALARM_AT and ev('armed')[0]['at'] == $ALARM_AT + 8" \
    ring_ok="len(ev('ringing')) == 1 and ev('ringing')[0]['t'] >= $ALARM_AT + 8" \
    killed_ok="len(ev('daemon-killed')) == 1 and ev('daemon-killed')[0].get('reason') in ('it holds the sound device', 'it holds the button lines', 'it holds the output lines')" \
    output_ok="[(e.get('output'), e.get('line')) for e in ev('output')] == [('shaker', 'GPIO16')]" \
    device_ok="ev('device')[0].get('device') == 'plughw:Loopback,0,0'" \
    button_ok="[(e.get('end'), e.get('by')) for e in ev('stopped')] == [('stop', 'button')]"
  check "the waker armed for the daemon's next alarm plus its grace of 8 s" $armed_ok
  check "the frozen daemon's alarm was rung by the waker once the grace was over: $ringing" $ring_ok
  check "the waker ended the frozen daemon, which held the exclusive card and the buttons: $killed" $killed_ok
  check "and played on the daemon's device, the loopback card" $device_ok
  check "the loopback heard the tone: 880 Hz ($W_freq_hz Hz, $W_level_db dBFS)" within "$W_freq_hz" 871 889
  check "the waker drove the shaker (an output event for GPIO16), held as $shaker_holder" bash -c "$output_ok && [ '$shaker_holder' = 'aubade-waker output' ]"
  figure "shaker GPIO16 during the waker's ring, sampled every ~0.1 s: $shaker"
  check "the shaker's level followed its 400/400 pattern during the waker's ring: on, off, on again ($shaker)" \
    bash -c "[[ '$shaker' =~ 1+0+1+ ]] && [[ '$shaker' =~ 0+1+0+ ]]"
  check "a press of the stop button (gpio-sim) stopped the waker: $stopped" $button_ok
  check "after the stop the shaker is inactive and released ($shaker_after)" [ "$shaker_after" = 0unused ]
  # What happened, not how fast (as daemon.sh): the tone ended on the recording's own clock before this script ended
  # the waker (1.5 s after its stopped event), so the press silenced it. How soon after the press is the figure
  # below: the recording's clock maps to the wall clock through arecord's start, which an emulated guest on a loaded
  # host skews by hundreds of ms.
  check "the press silenced the tone: it ended at $W_end_s s of the recording, before the waker was ended at $ended_at s" \
    awk -v e="$W_end_s" -v x="$ended_at" 'BEGIN { exit !(e ~ /^[0-9.]+$/ && x ~ /^[0-9.]+$/ && e + 0 < x + 0) }'
  figure "freeze -> waker's ring $(ms_diff "$ring_rt" "$frozen") ms (the alarm was ~10 s and the grace 8 s ahead); its late_ms $late; button -> silence $(ms_diff "$(capture_real "${W_end_s:-x}")" "$pressed") ms"
  waker_clock_step
}

# On the real clock (no --fake-time): the waker, started again on the same files, is armed for the next day's
# occurrence (the one it rang is over: a person stopped it). The guest's wall clock is then stepped past that
# occurrence plus the grace, as NTP or a manual set would: the alarm timer (CLOCK_REALTIME, TFD_TIMER_ABSTIME |
# TFD_TIMER_CANCEL_ON_SET) wakes the waker at once, which rings; the clock is put back afterwards.
waker_clock_step() {
  SCENARIO=waker-clock-step
  echo "--- $SCENARIO"
  local next=$((ALARM_AT + 86400)) before after
  WAKER_EVENTS=$OUT/$SCENARIO.jsonl
  "$WAKER" --db "$DB" --config "$CFG" --json --grace 8s 2> "$OUT/$SCENARIO.err" \
    > >(python3 -S -u "$HIL/stamp.py" > "$WAKER_EVENTS") &
  WAKER_PID=$!
  if ! waker_wait armed 30; then
    fail "the waker did not arm on the real clock within 30 s: $(tail -3 "$OUT/$SCENARIO.err")"
    waker_stop; return
  fi
  before=$(date +%s.%N)
  date -u -s "@$((next + 10))" > /dev/null
  local stepped; stepped=$(now)
  waker_wait ringing 30 || fail "the waker did not ring within 30 s of the step"
  kill -USR1 "$WAKER_PID"   # what `aubade stop` sends it
  waker_wait stopped 10 || fail "the waker did not stop on SIGUSR1"
  after=$(now)
  date -u -s "@$(awk -v b="$before" -v s="$stepped" -v a="$after" 'BEGIN { printf "%.3f", b + (a - s) }')" > /dev/null
  waker_stop
  jset "$WAKER_EVENTS" armed="ev('armed')" ringing="ev('ringing')" ring_rt="ev('ringing')[0]['_rt']" \
    armed_ok="ev('armed')[0]['occurrence'] == $next and ev('armed')[0]['at'] == $next + 8" \
    step_ok="len(ev('clock-step')) >= 1" \
    ring_ok="len(ev('ringing')) == 1 and ev('ringing')[0]['occurrence'] == $next" \
    cli_ok="[(e.get('end'), e.get('by')) for e in ev('stopped')] == [('stop', 'cli')]"
  check "started again on the real clock, it skips the occurrence a person stopped and arms the next day's: $armed" $armed_ok
  check "a step of the wall clock past it cancels the timer (TFD_TIMER_CANCEL_ON_SET): a clock-step event" $step_ok
  check "and the waker rings that occurrence: $ringing" $ring_ok
  check "SIGUSR1 (aubade stop) stops it" $cli_ok
  figure "wall-clock step -> the waker's ring $(ms_diff "$ring_rt" "$((next + 10))") ms after the instant the clock was set to"
}
