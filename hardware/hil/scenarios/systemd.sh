# systemd: the Debian package under a real systemd. Runs in run.sh's second boot, where systemd is PID 1 on the
# guest's writable overlay (init, HIL_SYSTEMD=1); the packages were made on the host from the binary under test
# (deploy/make-deb.sh --test: revision 1, and 2 for the upgrade) into $HIL_WORK/deb.
#
# Shows that the hardened unit (deploy/aubade.service) lets the daemon do its job — every line of its sandbox
# is exercised: READY (Type=notify), an alarm on the loopback card (DevicePolicy, audio group), a GPIO button
# through the package's udev rule (gpio group), an evdev accelerometer (input group), the backlight under
# /sys/devices/platform (ReadWritePaths, the video group's udev rule), the state folder, the network (its
# API on 127.0.0.1:8080, a station from a local Icecast), sd_notify and the watchdog; that systemd restarts it
# when the watchdog stops hearing from it (SIGSTOP) and after kill -9; and that alarms and the user's config
# edits survive a package upgrade, remove keeps the alarms and purge deletes them. Prints
# `systemd-analyze security aubade.service` and checks its exposure is at most 2.0; `aubade doctor --play`
# under the running unit passes every check.

SD=aubade.service
sd_prop() { systemctl show -p "$1" --value "$SD"; }
# sd_wait PROPERTY VALUE SECONDS: until the unit's property has that value.
sd_wait() {
  local deadline=$((${EPOCHREALTIME%.*} + $3))
  while [ "${EPOCHREALTIME%.*}" -lt "$deadline" ]; do
    [ "$(sd_prop "$1")" = "$2" ] && return 0
    sleep 0.5
  done
  return 1
}
# sd_wait_restart OLD_PID SECONDS: until the unit is active again with another main process.
sd_wait_restart() {
  local deadline=$((${EPOCHREALTIME%.*} + $2)) pid
  while [ "${EPOCHREALTIME%.*}" -lt "$deadline" ]; do
    pid=$(sd_prop MainPID)
    [ "$pid" != 0 ] && [ "$pid" != "$1" ] && [ "$(sd_prop ActiveState)" = active ] && return 0
    sleep 0.5
  done
  return 1
}
api() { curl -s -m 10 "http://127.0.0.1:8080/api/v1/$1"; }
status_json() { aubade status --json > "$T/status.json" 2> "$T/status.err"; }
# wait_status EXPR SECONDS: until the Python expression over `aubade status --json` (d) holds.
wait_status() {
  local deadline=$((${EPOCHREALTIME%.*} + $2))
  while [ "${EPOCHREALTIME%.*}" -lt "$deadline" ]; do
    status_json
    jset "$T/status.json" held_ok="$1"
    [ "$held_ok" = true ] && return 0
    sleep 0.5
  done
  return 1
}
# hhmm SECONDS_FROM_NOW: the UTC minute that starts at least that far from now (alarms are whole minutes).
hhmm() { date -u -d "@$(( ( $(date +%s) + $1 + 59 ) / 60 * 60 ))" +%H:%M; }
# Marks the kernel's clock synchronised, as an NTP client does after its first answer (adjtimex: STA_UNSYNC
# cleared, a small maximum error); the guest has no network time server. Doctor and the daemon read it (R7).
mark_clock_synchronised() {
  python3 -S - <<'PY'
import ctypes, ctypes.util
class Timex(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("time_sec", ctypes.c_long), ("time_usec", ctypes.c_long), ("tick", ctypes.c_long),
                ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int),
                ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
                ("pad", ctypes.c_int * 11)]
ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS = 0x0004, 0x0008, 0x0010
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
tx = Timex(modes=ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR, status=0, maxerror=1000, esterror=100)
state = libc.adjtimex(ctypes.byref(tx))
raise SystemExit(0 if state == 0 else 1)
PY
}

# The guest as a Pi would be when the package is installed: the devices, the network, a station.
systemd_setup() {
  # The host image forbids starting services (a container's policy-rc.d exits 101); a real system has none.
  rm -f /usr/sbin/policy-rc.d
  # The test package holds the debug build, which links the toolchain's Swift runtime (make deb's static build
  # needs none): put that on the library path, as it would be on a machine with the toolchain installed.
  local swiftlib; swiftlib=$(ldd "$AUBADE" | awk '/libswiftCore/ { print $3 }')
  if [ -n "$swiftlib" ]; then
    dirname "$swiftlib" > /etc/ld.so.conf.d/hil-swift-runtime.conf && ldconfig
  fi
  for m in "snd-aloop index=0 pcm_substreams=1" uinput evdev hil_backlight i2c-dev; do
    modprobe $m || fail "modprobe $m"
  done
  gpiosim_create || { fail "could not create the gpio-sim chip"; return 1; }
  accel_start || { fail "the uinput accelerometer could not be created"; return 1; }
  accel_do hold 0 0 256
  ip link set lo up
  ip link add dummy0 type dummy 2>/dev/null; ip addr add 192.168.78.2/24 dev dummy0 2>/dev/null; ip link set dummy0 up
  route_via_wired
  icecast_start || { fail "the local Icecast server did not serve the stream"; return 1; }
  mark_clock_synchronised || fail "adjtimex could not mark the clock synchronised"
  udevadm settle -t 30
  figure "boot: $(systemd-analyze time 2>&1 | head -1)"
  return 0
}

# dpkg runs with --force-unsafe-io: its fsync per file costs minutes on this guest (TCG, a tmpfs overlay over
# 9p) and proves nothing about the package; man's index is not rebuilt (its trigger rereads every page over 9p).
systemd_install() {
  rm -f /var/lib/man-db/auto-update
  DEB1=$(ls "$HIL_WORK"/deb/aubade_*-1_*.deb) DEB2=$(ls "$HIL_WORK"/deb/aubade_*-2_*.deb)
  local start; start=$(now)
  dpkg --force-unsafe-io -i "$DEB1" > "$OUT/dpkg-install.log" 2>&1
  check "dpkg -i $(basename "$DEB1") installs ($(since "$start") s)" [ $? = 0 ]
  check "postinst made the system user aubade in audio, gpio, i2c, input, video: $(id aubade 2>&1)" \
    eval 'for g in audio gpio i2c input video; do id -nG aubade | tr " " "\n" | grep -qx $g || exit 1; done'
  check "the unit is enabled ($(systemctl is-enabled $SD 2>&1))" systemctl is-enabled --quiet $SD
  check "and started: active after READY (Type=notify): $(sd_prop ActiveState)/$(sd_prop SubState)" sd_wait ActiveState active 90
  check "the second waker's unit is enabled and active too: $(systemctl is-enabled aubade-waker.service 2>&1)/$(systemctl is-active aubade-waker.service 2>&1)" \
    eval 'systemctl is-enabled --quiet aubade-waker.service && systemctl is-active --quiet aubade-waker.service'
  # The kernel must pick the face, never the clock: both units ask for -900, and the running daemon has it.
  local clock_oom waker_oom proc_oom
  clock_oom=$(sd_prop OOMScoreAdjust) waker_oom=$(systemctl show -p OOMScoreAdjust --value aubade-waker.service)
  proc_oom=$(cat "/proc/$(sd_prop MainPID)/oom_score_adj" 2>&1)
  check "OOMScoreAdjust of aubade.service and aubade-waker.service is -900: $clock_oom / $waker_oom" \
    eval '[ "$clock_oom" = -900 ] && [ "$waker_oom" = -900 ]'
  check "the running daemon's /proc/<pid>/oom_score_adj is -900: $proc_oom" [ "$proc_oom" = -900 ]
  check "/dev/$GPIOSIM_CHIP belongs to the gpio group (the package's 60-aubade.rules): $(stat -c '%G %a' /dev/$GPIOSIM_CHIP)" \
    [ "$(stat -c %G "/dev/$GPIOSIM_CHIP")" = gpio ]
  check "the backlight's brightness belongs to the video group, writable (99-aubade-backlight.rules): $(stat -L -c '%G %a' /sys/class/backlight/hil-backlight/brightness)" \
    eval '[ "$(stat -L -c %G /sys/class/backlight/hil-backlight/brightness)" = video ]'
  local openapi; openapi=$(api openapi.json | head -c 200)
  check "the daemon under the unit serves its API, its pages and OpenAPI document compiled into /usr/bin/aubade: ${openapi:0:40}…" \
    eval '[[ "$openapi" == *openapi* ]]'
}

# The user's edits to the conffile: the loopback card, the Pi's buttons, the evdev accelerometer, a local station.
systemd_configure() {
  write_config /etc/aubade/aubade.toml outputs.shaker.line='"GPIO16"' outputs.shaker.pattern='"400/400"'
  echo "# edited by the HIL (must survive the upgrade)" >> /etc/aubade/aubade.toml
  local old; old=$(sd_prop MainPID)
  systemctl restart $SD
  check "restarted on the edited config: active again" sd_wait_restart "$old" 90
}

systemd_security() {
  local out=$OUT/systemd-analyze-security.txt exposure
  systemd-analyze security --no-pager $SD > "$out" 2>&1 ||
    systemd-analyze security --no-pager --offline=true /lib/systemd/system/$SD > "$out" 2>&1
  sed -n '/✗/p' "$out" | sed 's/^/  /'
  exposure=$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p' "$out")
  figure "systemd-analyze security $SD: $(grep 'Overall exposure' "$out")"
  check "exposure $exposure is at most 2.0" within "$exposure" 0 2.0
  systemd-analyze verify /lib/systemd/system/$SD > "$OUT/systemd-analyze-verify.txt" 2>&1
  check "systemd-analyze verify $SD: no complaint ($(head -c 200 "$OUT/systemd-analyze-verify.txt"))" [ ! -s "$OUT/systemd-analyze-verify.txt" ]
}

# Night dimming writes the backlight under /sys/devices/platform (ReadWritePaths; ProtectKernelTunables keeps
# the rest of /sys read-only).
systemd_backlight() {
  local from until level=/sys/class/backlight/hil-backlight/brightness i
  from=$(date -u -d '-1 hour' +%H:%M) until=$(date -u -d '+2 hours' +%H:%M)
  aubade settings set dimLevel 10 > /dev/null && aubade settings set dimFrom "$from" > /dev/null &&
    aubade settings set dimUntil "$until" > /dev/null || fail "aubade settings set dimFrom/dimUntil/dimLevel"
  for i in $(seq 1 60); do [ "$(cat $level)" -lt 255 ] && break; sleep 0.5; done
  check "inside the dimming window the daemon dimmed the backlight to 10 % ($(cat $level) of 255)" within "$(cat $level)" 20 30
}

# The GPIO button: a ring test through the running unit (`aubade ring`, alarm priority, heard on the loopback
# card) is ended by the stop button (gpio-sim GPIO27) — no minute to wait for.
systemd_button() {
  local pressed ring_pid
  capture_start "$OUT/systemd-ring.wav" || { fail "the loopback capture did not start"; return; }
  aubade ring --source tone --for 60s --volume 100 --json > "$OUT/systemd-ring.jsonl" 2> "$OUT/systemd-ring.err" &
  ring_pid=$!
  local i
  for i in $(seq 1 120); do grep -q '"event":"audible"' "$OUT/systemd-ring.jsonl" 2>/dev/null && break; sleep 0.5; done
  grep -q '"event":"audible"' "$OUT/systemd-ring.jsonl" ||
    fail "the ring test was not audible within 60 s: $(cat "$OUT/systemd-ring.jsonl" "$OUT/systemd-ring.err" | head -c 400)"
  sleep 1.5
  pressed=$(now)
  press 27; sleep 0.3; release 27
  wait "$ring_pid"
  local done_s; done_s=$(since "$pressed")
  sleep 2   # longer than the tone's 1.6-s beep period: a tone still playing would be recorded
  capture_stop
  wav_stats "$OUT/systemd-ring.wav"
  figure "ring test recording: $(cat "$OUT/systemd-ring.wav.json")"
  jset "$OUT/systemd-ring.jsonl" events="[e['event'] for e in d]" stopped="ev('stopped')" \
    heard_ok="len(ev('audible')) == 1 and [e.get('audible') for e in ev('stopped')] == [True]" \
    by_button_ok="[e.get('reason') for e in ev('stopped')] != ['finished']"
  check "the ring test under the unit was heard on the loopback card: 880 Hz ($W_freq_hz Hz, $W_level_db dBFS); events $events" \
    eval 'within "$W_freq_hz" 871 889 && [ "$heard_ok" = true ]'
  check "the stop button (gpio-sim GPIO27, read by the daemon under the unit) ended it: $stopped, $done_s s after the press (of 60 s)" \
    eval 'within "$done_s" 0 10 && [ "$by_button_ok" = true ]'
  local latency last stopped_t; latency=$(ms_diff "$(capture_real "${W_end_s:-x}")" "$pressed")
  figure "ring test: press -> last sound on the card $latency ms (the press held 0.3 s; a short press acts on its release)"
  # The tone beeps (4 beeps every 1.6 s), so the last sound may come just before the press; one that was not
  # stopped would beep again within 1.6 s of its stop event, and on for the whole 60 s.
  jset "$OUT/systemd-ring.jsonl" stopped_t="ev('stopped')[0]['t']"
  last=$(capture_real "${W_end_s:-x}")
  check "...and no beep came later than one beep period after its stop (last sound $latency ms after the press)" \
    awk -v l="$last" -v s="$stopped_t" 'BEGIN { exit !(l ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && l <= s + 1.6) }'
}

# A scheduled alarm (tone, shake-to-stop) rings at its minute and is heard; while it rings the backlight is full;
# a shake of the uinput accelerometer (evdev, the input group) stops it.
systemd_alarm() {
  local at id
  at=$(hhmm 25)
  id=$(aubade alarm add --name hil-shake --time "$at" --days daily --duration 5m --fade-in 0s --volume 100 --source tone --shake --json |
       python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])') && [ -n "$id" ] ||
    { fail "aubade alarm add (through the running unit)"; return; }
  aubade alarm add --name hil-station --time 12:00 --days daily --source "$STREAM_URL" > /dev/null ||
    fail "aubade alarm add a station alarm"
  note "alarm $id at $at UTC (now $(date -u +%T))"
  # The recording starts 10 s before the alarm's minute (wavstat on a long one costs half a minute here).
  local start_at; start_at=$(( $(date -u -d "$at" +%s) - 10 ))
  while [ "${EPOCHREALTIME%.*}" -lt "$start_at" ]; do sleep 1; done
  capture_start "$OUT/systemd-alarm.wav" || { fail "the loopback capture did not start"; return; }
  if wait_status "(d.get('ringing') or {}).get('id') == $id and (d.get('ringing') or {}).get('audibleAfterSeconds') is not None" 120; then
    pass "alarm $id rang at $at and was audible: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["ringing"]; print(r["source"], "audible after", r["audibleAfterSeconds"], "s")' "$T/status.json")"
  else
    fail "alarm $id did not ring audibly within 120 s: $(cat "$T/status.json" "$T/status.err" | head -c 400)"
  fi
  check "while it rings the backlight is full: $(cat /sys/class/backlight/hil-backlight/brightness) of 255" \
    [ "$(cat /sys/class/backlight/hil-backlight/brightness)" = 255 ]
  sleep 1
  # A 4-s shake; a second one if the first did not stop it (on a loaded host the simulator's 100 Hz can falter,
  # as a sleepy hand's shake can) — as a person would shake again.
  local shakes=0
  for shakes in 1 2; do
    accel_do shake 4
    wait_status "(d.get('ringing') or {}).get('id') != $id" 20 && break
  done
  capture_stop
  wav_stats "$OUT/systemd-alarm.wav"
  check "the loopback heard the alarm's tone: $W_freq_hz Hz, $W_level_db dBFS" within "$W_freq_hz" 871 889
  api history > "$OUT/systemd-history.json"
  jset "$OUT/systemd-history.json" kinds="[e['kind'] for e in d['events'] if e.get('alarm') == $id]" \
    shaken="[e['detail'] for e in d['events'] if e['kind'] == 'dismissed' and e.get('alarm') == $id]" \
    shaken_ok="[e['detail'] for e in d['events'] if e['kind'] == 'dismissed' and e.get('alarm') == $id] == ['shake']"
  check "shaking the evdev accelerometer stopped it ($shakes shake(s) of 4 s; GET /api/v1/history: $kinds; $shaken)" $shaken_ok
}

systemd_doctor() {
  local d=$OUT/doctor-systemd.json rc
  stream_ready || fail "the test stream $STREAM_URL is not served (Icecast/ezstream), so doctor's station line cannot be judged"
  aubade doctor --json --play > "$d" 2> "$d.err"; rc=$?
  aubade doctor > "$OUT/doctor-systemd.txt" 2>&1
  sed 's/^/  /' "$OUT/doctor-systemd.txt" | sed -n '1,/^  $/p'
  jset "$d" bad="[(c['check'], c['status'], c['message']) for c in d['checks'] if c['status'] != 'ok']" \
    names="[c['check'] for c in d['checks']]" heard_ok="d.get('heard') is True"
  check "aubade doctor --play under the running unit exits 0 ($rc), every check ok: $names; not ok: $bad" \
    eval '[ "$rc" = 0 ] && [ "$bad" = "[]" ]'
  check "...and the next alarm would be heard" $heard_ok
}

# The shaker's switch (the phone page's, Home Assistant's) through the API of the clock under its unit: on by hand,
# the gpio-sim line follows the 400/400 pattern; off, it is inactive again and the clock still holds it.
systemd_switch() {
  local token on off samples i
  token=$(aubade token new --name hil-switch --json 2> "$OUT/systemd-token.err" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  # The clock takes a new token when it next looks at its store: asked again until it has.
  for i in $(seq 1 30); do
    on=$(curl -s -m 10 -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"on":true}' \
      http://127.0.0.1:8080/api/v1/outputs/shaker)
    [[ "$on" == *'The shaker is on.'* ]] && break
    sleep 1
  done
  samples=""
  for i in $(seq 1 30); do samples=$samples$(cat "$GPIOSIM_SYS/sim_gpio16/value"); sleep 0.1; done
  check "POST /outputs/shaker {on:true} switches the clock's shaker on ($on): GPIO16 follows its pattern ($samples)" \
    bash -c "[[ '$on' == *'The shaker is on.'* ]] && [[ '$samples' =~ 1+0+1+ ]]"
  off=$(curl -s -m 10 -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"on":false}' \
    http://127.0.0.1:8080/api/v1/outputs/shaker)
  sleep 0.5
  check "...and {on:false} off: inactive ($(cat "$GPIOSIM_SYS/sim_gpio16/value")), still held by the clock ($off)" \
    eval '[ "$(cat "$GPIOSIM_SYS/sim_gpio16/value")" = 0 ] && gpioinfo "$GPIOSIM_CHIP" | grep "\"GPIO16\"" | grep -q "\"aubade\" *output"'
}

# What a unit that does not come back is doing, for the results folder: its status, its processes and their states,
# the journal's last lines with their monotonic times.
systemd_stuck() {
  { systemctl status $SD --no-pager -l 2>&1; echo; ps -eo pid,ppid,stat,etimes,wchan:32,cmd 2>&1 | grep -E 'aubade|PID' | grep -v grep
    echo; journalctl -u $SD -o short-monotonic --no-pager 2>&1 | tail -60; } > "$1"
  note "the unit's state is in $(basename "$1"): $(grep -m3 -E 'Active:|ExecStopPost|Process:' "$1" | tr -s ' ' | tr '\n' ';')"
}

# The watchdog (WatchdogSec=20): a stopped daemon stops pinging, systemd kills and restarts it.
systemd_watchdog() {
  local pid restarts start
  pid=$(sd_prop MainPID) restarts=$(sd_prop NRestarts)
  check "no watchdog restart while the daemon runs normally (NRestarts $restarts, $(sd_prop ActiveEnterTimestamp))" [ "$restarts" = 0 ]
  start=$(now)
  kill -STOP "$pid"
  if sd_wait_restart "$pid" 120; then
    pass "after SIGSTOP the watchdog had it restarted: pid $pid -> $(sd_prop MainPID), NRestarts $(sd_prop NRestarts), active again $(since "$start") s after the SIGSTOP"
  else
    fail "no restart within 120 s of SIGSTOP (state $(sd_prop ActiveState)/$(sd_prop SubState), result $(sd_prop Result))"
    systemd_stuck "$OUT/systemd-stuck-sigstop.txt"
  fi
  check "the journal says why: $(journalctl -u $SD -o cat --no-pager | grep -m1 -i watchdog)" \
    eval 'journalctl -u $SD -o cat --no-pager | grep -qi "watchdog timeout"'
  kill -CONT "$pid" 2>/dev/null
}

# After kill -9 the unit's ExecStopPost= runs `aubade-waker --outputs-off` (the config has a shaker on GPIO16): the journal
# has its sentence once more than before, and the restarted clock holds the line again.
systemd_kill9() {
  local pid start offs before after
  offs() { journalctl -u $SD -o cat --no-pager | grep -c 'Output GPIO16 (shaker) is inactive (low) and released.'; }
  before=$(offs)
  check "the running clock holds the shaker's line GPIO16 (gpioinfo: $(gpioinfo "$GPIOSIM_CHIP" | grep -m1 'GPIO16' | tr -s ' \t' ' '))" \
    eval 'gpioinfo "$GPIOSIM_CHIP" | grep "\"GPIO16\"" | grep -q "\"aubade\" *output"'
  pid=$(sd_prop MainPID) start=$(now)
  kill -9 "$pid"
  if sd_wait_restart "$pid" 60; then
    pass "after kill -9 systemd started it again (Restart=always): active $(since "$start") s later"
  else
    fail "not back within 60 s of kill -9 ($(sd_prop ActiveState)/$(sd_prop SubState))"
    systemd_stuck "$OUT/systemd-stuck-kill9.txt"
  fi
  after=$(offs)
  check "ExecStopPost ran aubade-waker --outputs-off after the kill -9: the journal says the shaker is inactive and released ($before -> $after)" \
    [ "$after" -gt "$before" ]
}

systemd_upgrade() {
  local before after pid start
  aubade alarm list --json > "$T/alarms-before.json"
  pid=$(sd_prop MainPID) start=$(now)
  dpkg --force-unsafe-io -i "$DEB2" > "$OUT/dpkg-upgrade.log" 2>&1
  check "dpkg -i $(basename "$DEB2") upgrades ($(since "$start") s)" [ $? = 0 ]
  check "postinst restarted the clock: a new process, active" sd_wait_restart "$pid" 90
  aubade alarm list --json > "$T/alarms-after.json"
  check "the alarms survived the upgrade ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["alarms"]))' "$T/alarms-after.json") alarms, same JSON)" \
    cmp -s "$T/alarms-before.json" "$T/alarms-after.json"
  check "the user's edit of the conffile /etc/aubade/aubade.toml survived" grep -q 'edited by the HIL' /etc/aubade/aubade.toml
  check "dpkg reports $(dpkg-query -W -f '${Version}' aubade) installed" [ "$(dpkg-query -W -f '${Status}' aubade)" = "install ok installed" ]
}

systemd_remove() {
  dpkg -r aubade > "$OUT/dpkg-remove.log" 2>&1
  check "dpkg -r stops the clock ($(systemctl is-active $SD 2>&1)) and keeps the alarms ($(ls /var/lib/aubade | tr '\n' ' '))" \
    eval '! systemctl is-active --quiet $SD && [ -s /var/lib/aubade/aubade.sqlite ] && [ -f /etc/aubade/aubade.toml ]'
  dpkg -P aubade > "$OUT/dpkg-purge.log" 2>&1
  check "dpkg -P deletes them and the config" eval '[ ! -e /var/lib/aubade ] && [ ! -e /etc/aubade ]'
}

scenario_systemd() {
  check "systemd is PID 1 ($(systemctl --version | head -1))" [ "$(cat /proc/1/comm)" = systemd ]
  systemd_setup || return
  systemd_install
  [ "$(sd_prop ActiveState)" = active ] || { fail "the unit is not running; see $OUT/journal.txt"; journalctl -b --no-pager > "$OUT/journal.txt"; return; }
  systemd_configure
  systemd_security
  systemd_backlight
  systemd_button
  systemd_alarm
  systemd_doctor
  systemd_switch
  systemd_watchdog
  systemd_kill9
  systemd_upgrade
  journalctl -u $SD --no-pager > "$OUT/journal-aubade.txt" 2>&1
  systemd_remove
  cp /var/log/dpkg.log "$OUT/dpkg.log" 2>/dev/null
  cp "$T/icecast/error.log" "$OUT/icecast-error.log" 2>/dev/null
}
