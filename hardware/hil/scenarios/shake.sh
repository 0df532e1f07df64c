# Shake: a uinput device (uinput_accel.py) stands in for an evdev accelerometer such as the adxl34x driver.

# accel_start: creates the device; sets ACCEL_NODE (/dev/input/eventN). accel_do COMMAND: sends a command
# (hold X Y Z / shake SECONDS / bump) and waits until the simulator has carried it out.
accel_start() {
  [ -n "${ACCEL_NODE:-}" ] && return 0
  local i
  mkfifo "$T/accel.cmd"
  python3 -S "$HIL/uinput_accel.py" "$T/accel.cmd" > "$T/accel.out" 2>&1 &
  ACCEL_PID=$!
  for i in $(seq 1 100); do
    ACCEL_NODE=$(sed -n 's/^ready //p' "$T/accel.out")
    [ -n "$ACCEL_NODE" ] && return 0
    sleep 0.1
  done
  cat "$T/accel.out"
  return 1
}
accel_do() {
  local before i
  before=$(grep -c '^done' "$T/accel.out")
  echo "$*" > "$T/accel.cmd"
  for i in $(seq 1 300); do
    [ "$(grep -c '^done' "$T/accel.out")" -gt "$before" ] && return 0
    sleep 0.05
  done
  return 1
}

scenario_shake() {
  accel_start || { fail "the uinput accelerometer could not be created"; return; }
  echo "uinput accelerometer: $ACCEL_NODE ($(cat /sys/class/input/"${ACCEL_NODE##*/}"/device/name))"
  CFG=$T/shake.toml DB=$T/shake.sqlite
  write_config "$CFG"   # [shake] source = "evdev", device = "" (the first accelerometer found)

  # Tilted: x = 0.5 g, y = -0.25 g, z = 0.9 g (counts 128, -64, 230 at 256 per g).
  accel_do hold 128 -64 230
  local d=$OUT/doctor-shake.json
  aub doctor --json > "$d" 2> "$d.err"
  jset "$d" sensor="d['shake'].get('sensor')" reading="d['shake'].get('reading') or d['shake'].get('problem')" \
    found_ok="d['shake']['source'] == 'evdev' and '$ACCEL_NODE (hil-accel)' in (d['shake'].get('sensor') or '')" \
    value_ok="abs(d['shake']['reading']['x'] - 4.903) < 0.05 and abs(d['shake']['reading']['y'] + 2.452) < 0.05 and abs(d['shake']['reading']['z'] - 8.811) < 0.05"
  check "doctor finds $ACCEL_NODE as the evdev accelerometer: $sensor" $found_ok
  check "and reads the tilted value 4.90, -2.45, 8.81 m/s²: $reading" $value_ok
  # Laid flat: the next reading follows the device (a live value, not a cached one).
  accel_do hold 0 0 256
  d=$OUT/doctor-shake-flat.json
  aub doctor --json > "$d" 2> "$d.err"
  jset "$d" reading="d['shake'].get('reading') or d['shake'].get('problem')" \
    value_ok="abs(d['shake']['reading']['x']) < 0.05 and abs(d['shake']['reading']['y']) < 0.05 and abs(d['shake']['reading']['magnitude'] - 9.807) < 0.05"
  check "after laying it flat doctor reads 0, 0, 9.81 m/s²: $reading" $value_ok
}
