# Outputs (issue 37): a bed shaker and a lamp on gpio-sim OUTPUT lines of the Pi-like chip (scenarios/gpio.sh) —
# the shaker on GPIO16, active-high, pattern 400/400; the lamp on GPIO20, active-low (its board pulls the line
# up: sim_gpio20/pull = pull-up), steady. Their levels are read from the simulator (sim_gpioN/value: the level the
# line is driven to) while `aubade outputs test` drives them, and the kernel's gpio_value tracepoint records every
# level set on them, in order, by whom — which is how the scenario tells what the PROGRAM did at its end from
# what the KERNEL did on release: gpio-sim puts a released line back to its pull (a Raspberry Pi's pin instead
# keeps its last level), so after any exit the simulator shows the pull whoever set what.
#   - SIGTERM: the program drives the line inactive, then releases it (the trace's last set is inactive);
#   - SIGKILL while the shaker is active: no set to inactive by the program (it cannot run code), the kernel
#     releases the line (gpioinfo: unused) and gpio-sim shows the pull; `aubade outputs off` — what the unit's
#     ExecStopPost runs after any exit (proven under systemd in scenarios/systemd.sh) — then drives it inactive.
# The waker's part (the shaker driven for a frozen daemon) is in scenarios/waker.sh.

# outputs_tracing: sets OUT_GPIO_BASE (the chip's first global GPIO number) and turns on the gpio_value and
# gpio_direction tracepoints; false when this kernel cannot trace them.
outputs_tracing() {
  local d
  OUT_GPIO_BASE=""
  for d in /sys/class/gpio/gpiochip*; do
    [ "$(cat "$d/label" 2>/dev/null)" = pinctrl-bcm2711 ] && OUT_GPIO_BASE=${d##*gpiochip}
  done
  [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
  [ -n "$OUT_GPIO_BASE" ] && [ -d /sys/kernel/tracing/events/gpio ] || return 1
  echo 0 > /sys/kernel/tracing/tracing_on
  echo > /sys/kernel/tracing/trace
  echo 1 > /sys/kernel/tracing/events/gpio/gpio_value/enable
  echo 1 > /sys/kernel/tracing/events/gpio/gpio_direction/enable
  echo 1 > /sys/kernel/tracing/tracing_on
}

# outputs_trace OFFSET: the levels set on that line since the trace was cleared, as "comm:value" words in order
# ("aubade-outputs:1 aubade-outputs:0 …"; a direction change to output is "comm:out").
outputs_trace() {
  local gpio=$((OUT_GPIO_BASE + $1))
  awk -v g="$gpio" '
    function comm(s) { sub(/-[0-9]+$/, "", s); return s }
    / gpio_value: / { if ($(NF-2) == g && $(NF-1) == "set") printf "%s:%s ", comm($1), $NF }
    / gpio_direction: / { if ($(NF-2) == g && $(NF-1) == "out") printf "%s:out ", comm($1) }
  ' /sys/kernel/tracing/trace
}
outputs_trace_clear() { echo > /sys/kernel/tracing/trace; }

# outputs_sample OFFSET COUNT: COUNT readings of sim_gpioOFFSET/value ~0.1 s apart, as a string of 0 and 1.
outputs_sample() {
  local i s=""
  for i in $(seq 1 "$2"); do s=$s$(cat "$GPIOSIM_SYS/sim_gpio$1/value"); sleep 0.1; done
  echo "$s"
}

# outputs_holder OFFSET: the line's consumer in gpioinfo, "unused" when free.
outputs_holder() {
  gpioinfo "$GPIOSIM_CHIP" | awk -v o="line  *$1:" '$0 ~ o { if ($0 ~ /unused/) print "unused"; else { match($0, /"[^"]*" *(input|output)/); s = substr($0, RSTART, RLENGTH); gsub(/"/, "", s); gsub(/ +/, " ", s); print s } }' | tail -1
}

outputs_wait_event() {  # outputs_wait_event FILE NAME SECONDS
  local i
  for i in $(seq 1 $(($3 * 10))); do grep -q "\"event\": *\"$2\"" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

scenario_outputs() {
  gpiosim_ready || { fail "the gpio-sim chip could not be made"; return; }
  release 20   # the lamp's active-low board pulls GPIO20 up: inactive when nothing drives it
  CFG=$T/outputs.toml DB=$T/outputs.sqlite
  write_config "$CFG" outputs.shaker.line='"GPIO16"' outputs.shaker.pattern='"400/400"' \
    outputs.lamp.line='"GPIO20"' outputs.lamp.active_low=true outputs.lamp.pattern='"steady"'
  local tracing=true
  outputs_tracing || { tracing=false; note "the kernel's gpio tracepoints are not available: the ends are judged by the simulator alone"; }

  # doctor: both lines found, free, and requested as outputs for a moment.
  local d=$OUT/doctor-outputs.json
  aub doctor --json > "$d" 2> "$d.err"
  jset "$d" outs="[(o['output'], o['status'], o.get('offset')) for o in d['outputs']]" \
    outs_ok="[(o['output'], o['status'], o.get('chip'), o.get('offset')) for o in d['outputs']] == [('shaker', 'ok', '$GPIOSIM_CHIP', 16), ('lamp', 'ok', '$GPIOSIM_CHIP', 20)]" \
    check_ok="[c['status'] for c in d['checks'] if c['check'] == 'outputs'] == ['ok']"
  check "doctor --json: both output lines found, free and drivable: $outs" $outs_ok
  check "...and its outputs check is ok" $check_ok
  aub doctor > "$OUT/doctor-outputs.txt" 2>&1
  check "doctor's text says the outputs can be driven" grep -q 'shaker (GPIO16, 400/400), lamp (GPIO20, steady) can be driven' "$OUT/doctor-outputs.txt"
  check "doctor left both lines inactive: shaker $(cat "$GPIOSIM_SYS/sim_gpio16/value"), lamp $(cat "$GPIOSIM_SYS/sim_gpio20/value") (active-low)" \
    [ "$(cat "$GPIOSIM_SYS/sim_gpio16/value")$(cat "$GPIOSIM_SYS/sim_gpio20/value")" = 01 ]

  # The shaker's pattern, read from the simulator; then SIGTERM.
  $tracing && outputs_trace_clear
  local ev=$OUT/outputs-test.jsonl pid samples
  # The program itself in the background, not the aub function: its subshell would take the signals below.
  "$AUBADE" outputs test --config "$CFG" --db "$DB" shaker --for 120s --json > "$ev" 2> "$ev.err" &
  pid=$!
  outputs_wait_event "$ev" on 30 || fail "aubade outputs test did not switch the shaker on within 30 s: $(cat "$ev.err")"
  check "while it buzzes, gpioinfo shows GPIO16 held as an output by aubade ($(outputs_holder 16))" [ "$(outputs_holder 16)" = "aubade output" ]
  samples=$(outputs_sample 16 40)
  figure "shaker GPIO16 sampled every ~0.1 s: $samples"
  check "the shaker's level follows its pattern: on, off and on again, in that order ($samples)" \
    bash -c "[[ '$samples' =~ 1+0+1+ ]] && [[ '$samples' =~ 0+1+0+ ]]"
  local runs; runs=$(echo "$samples" | sed 's/\(0\+\|1\+\)/& /g' | wc -w)
  check "...several times over 4 s of a 400/400 pattern ($runs runs of one level)" [ "$runs" -ge 5 ]
  kill -TERM "$pid"; wait "$pid"; local rc=$?
  check "aubade outputs test ends on SIGTERM with exit 0 ($rc) and says so" bash -c "[ $rc = 0 ] && grep -q '\"event\": *\"off\"' '$ev'"
  check "after SIGTERM the line is released (gpioinfo: $(outputs_holder 16)) and the simulator shows it inactive ($(cat "$GPIOSIM_SYS/sim_gpio16/value"))" \
    [ "$(outputs_holder 16)$(cat "$GPIOSIM_SYS/sim_gpio16/value")" = unused0 ]
  if $tracing; then
    local trace; trace=$(outputs_trace 16)
    figure "GPIO16 levels set (trace): $trace"
    check "the trace shows the program set the shaker inactive as its last act before the release: ${trace##* * }" \
      bash -c "t='$trace'; set -- \$t; [ \"\${!#}\" = aubade-outputs:0 ] && [[ \"\$t\" == *aubade-outputs:1* ]]"
  fi

  # The lamp (active-low, steady): on is the line LOW; SIGTERM drives it back high before the release.
  $tracing && outputs_trace_clear
  ev=$OUT/outputs-lamp.jsonl
  "$AUBADE" outputs test --config "$CFG" --db "$DB" lamp --for 120s --json > "$ev" 2> "$ev.err" &
  pid=$!
  outputs_wait_event "$ev" on 30 || fail "aubade outputs test did not switch the lamp on within 30 s: $(cat "$ev.err")"
  samples=$(outputs_sample 20 10)
  check "the active-low lamp is on steadily: the line is low in every sample ($samples)" [ "$samples" = 0000000000 ]
  kill -TERM "$pid"; wait "$pid"
  check "after SIGTERM the lamp's line is high, inactive ($(cat "$GPIOSIM_SYS/sim_gpio20/value"))" [ "$(cat "$GPIOSIM_SYS/sim_gpio20/value")" = 1 ]
  if $tracing; then
    local lamp; lamp=$(outputs_trace 20)
    figure "GPIO20 levels set (trace): $lamp"
    check "the trace shows the lamp requested high (inactive), set low (on), then set high before the release" \
      bash -c "[[ '$lamp' =~ aubade-outputs:1.*aubade-outputs:0.*aubade-outputs:1\ \$ ]]"
  fi

  # SIGKILL while the shaker is active: what the kernel alone does, then `aubade outputs off`.
  $tracing && outputs_trace_clear
  ev=$OUT/outputs-kill.jsonl
  # The shaker steady for this one: with its 400/400 pattern the program's last set before the kill could be a
  # pattern's edge to inactive, which would look like the clean-up a killed program cannot do.
  local steady=$T/outputs-steady.toml
  write_config "$steady" outputs.shaker.line='"GPIO16"' outputs.shaker.pattern='"steady"' \
    outputs.lamp.line='"GPIO20"' outputs.lamp.active_low=true outputs.lamp.pattern='"steady"'
  "$AUBADE" outputs test --config "$steady" --db "$DB" shaker --for 120s --json > "$ev" 2> "$ev.err" &
  pid=$!
  outputs_wait_event "$ev" on 30 || fail "aubade outputs test did not switch the shaker on within 30 s"
  local i; for i in $(seq 1 50); do [ "$(cat "$GPIOSIM_SYS/sim_gpio16/value")" = 1 ] && break; sleep 0.02; done
  local before; before=$(cat "$GPIOSIM_SYS/sim_gpio16/value")
  kill -KILL "$pid"; wait "$pid" 2>/dev/null
  sleep 0.3
  local after; after=$(cat "$GPIOSIM_SYS/sim_gpio16/value")
  check "SIGKILL while the shaker was active ($before): the kernel released the line ($(outputs_holder 16))" [ "$before$(outputs_holder 16)" = 1unused ]
  check "...and gpio-sim put it back to its pull, inactive ($after) — the kernel's doing, not the program's (a Pi's pin would stay high)" [ "$after" = 0 ]
  if $tracing; then
    local killed; killed=$(outputs_trace 16)
    check "the trace has no set to inactive by the killed program after its last set high: $killed" \
      bash -c "t='$killed'; set -- \$t; [ \"\${!#}\" = aubade-outputs:1 ]"
    outputs_trace_clear
  fi
  aub outputs off --json > "$OUT/outputs-off.jsonl" 2>&1
  jset "$OUT/outputs-off.jsonl" off="d" off_ok="[(e['output'], e['inactive']) for e in d] == [('shaker', True), ('lamp', True)]"
  check "aubade outputs off (the unit's ExecStopPost) drives both inactive and releases them: $off" $off_ok
  if $tracing; then
    local offtrace; offtrace=$(outputs_trace 16)
    # (The thread's name is the runtime's, not "aubade": the command runs on a worker thread.)
    check "the trace shows outputs off requesting GPIO16 low and never high ($offtrace)" bash -c "[[ '$offtrace' == *:0* ]] && [[ '$offtrace' != *:1* ]]"
  fi
  check "after outputs off: shaker $(cat "$GPIOSIM_SYS/sim_gpio16/value"), lamp $(cat "$GPIOSIM_SYS/sim_gpio20/value"), both unused" \
    [ "$(cat "$GPIOSIM_SYS/sim_gpio16/value")$(cat "$GPIOSIM_SYS/sim_gpio20/value")$(outputs_holder 16)$(outputs_holder 20)" = 01unusedunused ]

  # A line another program holds: doctor names the holder, outputs off says it could not.
  gpioset --mode=signal "$GPIOSIM_CHIP" 16=0 > /dev/null 2>&1 &
  local holder=$!
  for i in $(seq 1 50); do gpioinfo "$GPIOSIM_CHIP" | grep -q '"gpioset"' && break; sleep 0.1; done
  d=$OUT/doctor-outputs-held.json
  aub doctor --json > "$d" 2> "$d.err"
  aub outputs off > "$OUT/outputs-off-held.txt" 2>&1; rc=$?
  kill "$holder"; wait "$holder" 2>/dev/null
  jset "$d" held_ok="[(o['status'], o.get('consumer')) for o in d['outputs'] if o['output'] == 'shaker'] == [('in-use', 'gpioset')]" \
    warn_ok="[c['status'] for c in d['checks'] if c['check'] == 'outputs'] == ['warning']"
  check "a shaker line held by gpioset: doctor says in use by gpioset, and warns" bash -c "$held_ok && $warn_ok"
  check "...and outputs off exits 1 naming the line and its holder ($(head -1 "$OUT/outputs-off-held.txt"))" \
    bash -c "[ $rc = 1 ] && grep -q 'GPIO16 (shaker) cannot be driven: .*(in use by gpioset)' '$OUT/outputs-off-held.txt'"
  if $tracing; then echo 0 > /sys/kernel/tracing/tracing_on; fi
}
