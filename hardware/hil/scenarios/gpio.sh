# GPIO: a gpio-sim chip laid out like a Raspberry Pi 4's (label pinctrl-bcm2711, 58 lines, GPIO0..GPIO27 named
# at their offsets), seen by aubade through the kernel's GPIO character device and libgpiod 1.6.

# gpiosim_create: makes the chip live; sets GPIOSIM_CHIP (gpiochipN) and GPIOSIM_SYS (the sysfs folder whose
# sim_gpioN/pull drives line N). Every line starts pulled up: a released active-low button.
gpiosim_create() {
  local C=/sys/kernel/config/gpio-sim/pi n
  modprobe gpio-sim || { fail "modprobe gpio-sim (the out-of-tree module from setup.sh)"; return 1; }
  mkdir "$C" "$C/bank0" || return 1
  echo 58 > "$C/bank0/num_lines"
  echo pinctrl-bcm2711 > "$C/bank0/label"
  for n in $(seq 0 27); do mkdir "$C/bank0/line$n" && echo "GPIO$n" > "$C/bank0/line$n/name"; done
  echo 1 > "$C/live" || return 1
  GPIOSIM_CHIP=$(cat "$C/bank0/chip_name")
  GPIOSIM_SYS=/sys/devices/platform/$(cat "$C/dev_name")/$GPIOSIM_CHIP
  for n in 17 27 22 23; do release $n; done
  echo "gpio-sim: $GPIOSIM_CHIP ($(gpiodetect | grep "$GPIOSIM_CHIP" | cut -d' ' -f2-)) at $GPIOSIM_SYS"
}

scenario_gpio() {
  gpiosim_create || { fail "could not create the gpio-sim chip"; return; }
  check "gpiofind GPIO17 -> $GPIOSIM_CHIP 17 (the fixture looks like a Pi)" [ "$(gpiofind GPIO17)" = "$GPIOSIM_CHIP 17" ]

  CFG=$T/gpio.toml DB=$T/gpio.sqlite
  write_config "$CFG"
  local d=$OUT/doctor-gpio.json rc
  aub doctor --json > "$d" 2> "$d.err"; rc=$?
  check "aubade doctor --json exits 0 ($rc)" [ "$rc" = 0 ]
  jset "$d" chip_ok="[c for c in d['chips'] if c['name'] == '$GPIOSIM_CHIP' and c['label'] == 'pinctrl-bcm2711' and c['lineCount'] == 58] != []" \
    lines="{b['role']: (b['status'], b.get('chip'), b.get('offset')) for b in d['buttons']}" \
    lines_ok="{b['role']: b['offset'] for b in d['buttons'] if b['status'] == 'found' and b['chip'] == '$GPIOSIM_CHIP'} == {'snooze': 17, 'stop': 27, 'play-pause': 22, 'sleep': 23}"
  check "doctor lists chip $GPIOSIM_CHIP labelled pinctrl-bcm2711 with 58 lines" $chip_ok
  check "doctor finds the 4 configured button lines at their Pi offsets: $lines" $lines_ok

  # A line the chip does not have: that button is reported missing, once, and the others still work.
  write_config "$CFG" 'buttons.sleep="GPIO99"'
  d=$OUT/doctor-gpio-missing.json
  aub doctor --json > "$d" 2> "$d.err"
  jset "$d" reasons="[b.get('reason') for b in d['buttons'] if b['status'] == 'missing']" \
    missing_ok="[b['role'] for b in d['buttons'] if b['status'] == 'missing'] == ['sleep'] and 'GPIO99' in [b for b in d['buttons'] if b['role'] == 'sleep'][0]['reason']" \
    others_ok="len([b for b in d['buttons'] if b['status'] == 'found']) == 3"
  check "a missing line name (sleep = GPIO99) is reported missing: $reasons" $missing_ok
  check "...while the other three buttons are still found" $others_ok
  aub doctor > "$OUT/doctor-gpio-missing.txt" 2>&1
  local lines_missing; lines_missing=$(grep -c 'missing' "$OUT/doctor-gpio-missing.txt")
  check "...and the text report warns once ($lines_missing line says missing)" [ "$lines_missing" = 1 ]

  # A line another program holds is reported in use, with the holder's name.
  write_config "$CFG"
  gpiomon "$GPIOSIM_CHIP" 22 > /dev/null 2>&1 &
  local holder=$! i
  for i in $(seq 1 50); do gpioinfo "$GPIOSIM_CHIP" | grep -q '"gpiomon"' && break; sleep 0.1; done
  d=$OUT/doctor-gpio-inuse.json
  aub doctor --json > "$d" 2> "$d.err"
  kill "$holder"; wait "$holder" 2>/dev/null
  jset "$d" inuse_ok="[(b['status'], b.get('consumer')) for b in d['buttons'] if b['role'] == 'play-pause'] == [('in-use', 'gpiomon')]"
  check "a line held by gpiomon is reported in use by gpiomon" $inuse_ok
}
