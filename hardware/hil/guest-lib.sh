# Helpers for guest.sh and scenarios/*.sh (sourced, bash). Runs inside the HIL guest as root.
HIL=${HIL:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
OUT=$HIL_WORK/results          # shared with the host: logs, recordings, JSON
AUBADE=$HIL_WORK/aubade        # the binary under test, copied there by run.sh
T=/tmp/hil                     # guest-only scratch (tmpfs)
mkdir -p "$OUT" "$T"
FAILS=0

uptime_s() { cut -d' ' -f1 /proc/uptime; }
now() { echo "$EPOCHREALTIME"; }   # bash's clock: no fork (forks are slow under TCG)
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.1f", a - b }'; }      # seconds since an instant
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) * 1000 }'; }

pass() { echo "PASS $SCENARIO: $*"; }
fail() { echo "FAIL $SCENARIO: $*"; FAILS=$((FAILS + 1)); }
skip() { echo "SKIP $SCENARIO: $*"; }
note() { echo "NOTE $SCENARIO: $*"; }
figure() { echo "FIGURE $SCENARIO: $*"; }
check() {  # check "what it proves" command...: PASS when the command succeeds (no command: FAIL)
  local what=$1; shift
  if [ $# -gt 0 ] && "$@"; then pass "$what"; else fail "$what"; fi
}

# run_scenario NAME FUNCTION: runs it (unless HIL_ONLY leaves it out) and prints how long it took.
run_scenario() {
  local name=$1 fn=$2 start
  if [ -f "$HIL_WORK/only" ] && ! grep -qw "$name" "$HIL_WORK/only"; then return; fi
  SCENARIO=$name
  start=$(now)
  echo "--- $name"
  "$fn"
  echo "TIME $name $(since "$start") s"
  SCENARIO=$name
}

# jset FILE NAME=EXPR...: evaluates Python expressions over the JSON in FILE, in one python3 run (each one costs
# a fraction of a second under TCG), and sets shell variables: true/false for a bool (so `check "..." $NAME`
# works), JSON for a list or dict, the text otherwise; "" (and a message on stderr) when an expression fails,
# false when such a NAME ends in _ok. In the expressions `d` is the document (a file of JSON lines: the list of
# objects), `ev(name)` the objects whose "event" is name, `field(e, key)` a field of one, also found as key=value
# inside its "detail" text, and `ts(v)` unix seconds from a number or an ISO-8601 text.
jset() {
  local file=$1 code; shift
  code=$(python3 -S - "$file" "$@" <<'PY'
import json, re, shlex, sys
try:
    text = open(sys.argv[1]).read()
except OSError:
    text = ""
try:
    d = json.loads(text)
except ValueError:
    d = []
    for l in text.splitlines():
        try:
            d.append(json.loads(l))
        except ValueError:
            pass
def ev(name):
    return [e for e in d if isinstance(e, dict) and e.get("event") == name] if isinstance(d, list) else []
def field(e, key):
    if key in e:
        return e[key]
    m = re.search(r"(?:^| )" + key + r"=(.*?)(?= \w+=|$)", str(e.get("detail", "")))
    return m.group(1) if m else None
def ts(v):
    if isinstance(v, (int, float)):
        return float(v)
    from datetime import datetime
    return datetime.fromisoformat(str(v).replace("Z", "+00:00")).timestamp()
for arg in sys.argv[2:]:
    name, expr = arg.split("=", 1)
    try:
        v = eval(expr)
    except Exception as e:
        sys.stderr.write(f"jset {name} on {sys.argv[1]}: {type(e).__name__}: {e}\n")
        v = False if name.endswith("_ok") else ""
    if isinstance(v, bool):
        v = "true" if v else "false"
    elif isinstance(v, (dict, list)):
        v = json.dumps(v)
    elif v is None:
        v = "None"
    print(f"{name}={shlex.quote(str(v))}")
PY
)
  eval "$code"
}

# within VALUE LOW HIGH: LOW <= VALUE <= HIGH (decimals allowed).
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v ~ /^-?[0-9.]+$/ && v + 0 >= lo && v + 0 <= hi) }'; }

# aub ARGS...: the binary under test with the scenario's config and database.
aub() {
  local cmd=$1; shift
  case "$cmd" in
    alarm|settings|station|outputs|verify) local sub=$1; shift; "$AUBADE" "$cmd" "$sub" --config "$CFG" --db "$DB" "$@" ;;
    *) "$AUBADE" "$cmd" --config "$CFG" --db "$DB" "$@" ;;
  esac
}

# write_config FILE [table.key=VALUE...]: the HIL's base config (loopback card, UTC, the Pi's default button
# lines, the evdev accelerometer) with the given keys set or replaced (VALUE is TOML: '"GPIO99"', 'true').
write_config() {
  local file=$1 kv k t; shift
  local -A value=([audio.device]='"plughw:Loopback,0,0"' [audio.allow_local_streams]=true [clock.time_zone]='"UTC"'
    [buttons.snooze]='"GPIO17"' [buttons.stop]='"GPIO27"' [buttons.play_pause]='"GPIO22"' [buttons.sleep]='"GPIO23"'
    [shake.source]='"evdev"')
  local keys=(audio.device audio.allow_local_streams clock.time_zone buttons.snooze buttons.stop buttons.play_pause
              buttons.sleep shake.source)
  for kv in "$@"; do
    k=${kv%%=*}
    [ -n "${value[$k]+set}" ] || keys+=("$k")
    value[$k]=${kv#*=}
  done
  {
    for t in $(printf '%s\n' "${keys[@]%%.*}" | awk '!seen[$0]++'); do
      echo "[$t]"
      for k in "${keys[@]}"; do [ "${k%%.*}" = "$t" ] && echo "${k#*.} = ${value[$k]}"; done
      echo
    done
  } > "$file"
}

# --- Sound capture from the other side of snd-aloop ---
# snd-aloop fixes the format from whichever side opens first, so the capture starts first (S16_LE, 44.1 kHz,
# stereo: what aubade plays) and must be RUNNING before anything plays. CAPTURE_T0 is the wall time the capture
# was seen running; sample n of the file was recorded at about CAPTURE_T0 + n / rate.
CAPTURE_PID=""
capture_start() {
  local file=$1 i
  unset CAPTURE_ZERO   # a new recording: its clock is read again (pcm_zero) or taken from its start
  arecord -q -D hw:Loopback,1,0 -f S16_LE -r 44100 -c 2 "$file" 2> "$file.log" &
  CAPTURE_PID=$!
  for i in $(seq 1 200); do
    if grep -q 'state: RUNNING' /proc/asound/Loopback/pcm1c/sub0/status 2>/dev/null; then
      CAPTURE_T0=$(now)
      return 0
    fi
    sleep 0.05
  done
  echo "capture did not start: $(cat "$file.log")"
  return 1
}
# pcm_zero SIDE: the real time of frame 0 of the stream running on /proc/asound/Loopback/SIDE/sub0 (pcm0p the
# playback side, pcm1c the capture side), from 200 readings of its hw_ptr (which reading the status file brings up
# to date) between two readings of bash's clock, without a fork (forks take tens of ms under TCG). A reading puts
# frame 0 at its middle minus hw_ptr / rate; the median of the quickest quarter of them is printed.
# Prints nothing when the stream is not running.
pcm_zero() {
  local f=/proc/asound/Loopback/$1/sub0/status i t u k v p pairs=""
  for ((i = 0; i < 200; i++)); do
    t=$EPOCHREALTIME p=""
    while read -r k _ v; do [ "$k" = hw_ptr ] && p=$v; done < "$f" 2>/dev/null
    u=$EPOCHREALTIME
    [ -n "$p" ] && [ "$p" != 0 ] && pairs+="$t $u $p "
  done
  [ -n "$pairs" ] && python3 -S -c '
import statistics, sys
v = [float(x) for x in sys.argv[1].split()]
r = sorted((v[i + 1] - v[i], (v[i] + v[i + 1]) / 2 - v[i + 2] / 44100) for i in range(0, len(v) - 2, 3))
narrow = [z for _, z in r[:max(1, len(r) // 4)]]
print("%.6f" % statistics.median(narrow), end="")' "$pairs"
}

# loopback_chain: plays a click through the card (aplay: 0.3 s of silence, 5 ms at -1 dBFS, 2 s of silence)
# while the capture runs, and measures the loopback chain itself: from when the playback side played the click
# (its frame 0, from its pointer, plus 0.3 s) to when the capture recorded it (CAPTURE_ZERO plus its place in
# the recording, found later with wav_stats). Sets CLICK_PLAYED (real time) for onset_net.
loopback_chain() {
  python3 -S - "$T/click.wav" <<'PY'
import struct, sys, wave
frames = [0] * int(0.3 * 44100) + [30000] * int(0.005 * 44100) + [0] * int(2 * 44100)
with wave.open(sys.argv[1], "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
    w.writeframes(b"".join(struct.pack("<hh", v, v) for v in frames))
PY
  aplay -q -D hw:Loopback,0,0 "$T/click.wav" 2> "$T/click.log" &
  local pid=$! i zero
  local state k v
  # "state: RUNNING" once aplay's stream runs (read without a fork: a grep each time would take longer than it plays)
  for ((i = 0; i < 5000; i++)); do
    state=""
    while read -r k v; do [ "$k" = state: ] && state=$v; done < /proc/asound/Loopback/pcm0p/sub0/status 2>/dev/null
    [ "$state" = RUNNING ] && break
  done
  zero=$(pcm_zero pcm0p)
  wait "$pid"
  CLICK_PLAYED=$(awk -v z="$zero" 'BEGIN { if (z != "") printf "%.6f", z + 0.3 }')
  [ -n "$CLICK_PLAYED" ] || echo "the click did not play: $(cat "$T/click.log")"
}

capture_stop() {
  [ -n "$CAPTURE_PID" ] || return 0
  kill -INT "$CAPTURE_PID" 2>/dev/null
  wait "$CAPTURE_PID" 2>/dev/null
  CAPTURE_PID=""
}
# wav_stats WAV [FROM_S]: measures a recording (from FROM_S seconds on, times still from its start) with wavstat.py: its JSON goes to WAV.json, and each figure to a shell
# variable W_<name> (W_onset_s, W_end_s, W_level_db, W_freq_hz, W_bursts, W_longest_gap_ms, W_seconds...).
wav_stats() {
  local code
  unset W_onset_s W_end_s W_level_db W_freq_hz W_bursts W_longest_gap_ms W_seconds W_active_s W_peak_db
  code=$(python3 -S "$HIL/wavstat.py" "$1" "$1.json" ${2:+"$2"}) || echo "wavstat failed on $1"
  eval "$code"
}

# --- gpio-sim ---
# The simulated chip's line N is driven from /sys/devices/platform/$GPIOSIM_DEV/$GPIOSIM_CHIP/sim_gpioN/pull.
# The buttons are active-low with a pull-up: pressing one pulls the line down.
press() { echo pull-down > "$GPIOSIM_SYS/sim_gpio$1/pull"; }
release() { echo pull-up > "$GPIOSIM_SYS/sim_gpio$1/pull"; }
