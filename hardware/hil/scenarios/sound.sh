# Sound: aubade plays to snd-aloop's playback side (plughw:Loopback,0,0, a real ALSA driver paced in real
# time) and the test records the capture side (hw:Loopback,1,0), then measures what was heard.

# icecast_start: a local Icecast2 + ezstream (as nobody: Icecast refuses root) looping the 440 Hz MP3 that
# run.sh made on the host; sets STREAM_URL. Config as in Sources/AubadeTesting/IcecastServer.swift.
icecast_start() {
  [ -n "${STREAM_URL:-}" ] && return 0
  local d=$T/icecast port=8000 i
  mkdir -p "$d" && chmod 777 "$d"
  cp "$HIL_WORK/media/sine440.mp3" "$d/" && chmod 644 "$d/sine440.mp3"
  cat > "$d/icecast.xml" <<XML
<icecast><limits><clients>20</clients><sources>4</sources><burst-size>65536</burst-size></limits>
<authentication><source-password>src</source-password><admin-user>admin</admin-user>
<admin-password>adm</admin-password></authentication><hostname>127.0.0.1</hostname>
<listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
<paths><basedir>$d</basedir><logdir>$d</logdir>
<webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
</icecast>
XML
  echo "$d/sine440.mp3" > "$d/list.m3u"
  cat > "$d/ezstream.xml" <<XML
<ezstream><servers><server><hostname>127.0.0.1</hostname><port>$port</port><password>src</password>
</server></servers><streams><stream><mountpoint>/radio.mp3</mountpoint><format>MP3</format></stream>
</streams><intakes><intake><filename>$d/list.m3u</filename></intake></intakes>
<metadata><format_str>@a@ - @t@</format_str></metadata></ezstream>
XML
  chmod 644 "$d/icecast.xml" "$d/list.m3u"
  chmod 600 "$d/ezstream.xml" && chown nobody:nogroup "$d/ezstream.xml"   # ezstream refuses a config others can read
  setpriv --reuid=nobody --regid=nogroup --clear-groups icecast2 -c "$d/icecast.xml" > "$d/icecast.out" 2>&1 &
  sleep 0.5
  setpriv --reuid=nobody --regid=nogroup --clear-groups ezstream -c "$d/ezstream.xml" > "$d/ezstream.out" 2>&1 &
  for i in $(seq 1 100); do
    if [ "$(curl -s -o /dev/null -r 0-1000 -m 2 -w '%{http_code}' "http://127.0.0.1:$port/radio.mp3")" = 200 ]; then
      STREAM_URL=http://127.0.0.1:$port/radio.mp3
      return 0
    fi
    sleep 0.2
  done
  cat "$d/error.log" "$d"/*.out 2>/dev/null | tail -5
  return 1
}

# play_and_capture NAME ARGS...: records the loopback while `aubade play ARGS...` runs; leaves NAME.wav,
# NAME.jsonl (aubade's events), NAME.wav.json (wavstat) in $OUT, PLAY_RC, and the first-audio delay measured on
# the recording (process start -> first captured sample) in CAPTURED_TTFA_MS.
play_and_capture() {
  local name=$1 launched ended; shift
  capture_start "$OUT/$name.wav" || { fail "the loopback capture did not start"; return 1; }
  launched=$(now)
  aub play "$@" --json > "$OUT/$name.jsonl" 2> "$OUT/$name.err"
  PLAY_RC=$?
  ended=$(now)
  sleep 0.5
  capture_stop
  wav_stats "$OUT/$name.wav" > /dev/null
  local onset
  onset=$(j "$OUT/$name.wav.json" "d['onset_s']")
  CAPTURED_TTFA_MS=$( [ "$onset" = None ] && echo none || awk -v c="$CAPTURE_T0" -v o="$onset" -v l="$launched" 'BEGIN { printf "%d", (c + o - l) * 1000 }')
  figure "$name: aubade ran $(ms_between "$launched" "$ended") ms; recording $(cat "$OUT/$name.wav.json")"
}

scenario_sound() {
  CFG=$T/sound.toml DB=$T/sound.sqlite
  write_config "$CFG"
  grep -q Loopback /proc/asound/cards || { fail "no snd-aloop card"; return; }

  # The built-in tone: four 100 ms beeps of 880 Hz (+ a quarter of its octave) per 1.6 s, peak 0.7 at volume 100.
  play_and_capture tone tone --for 3s --volume 100
  local s=$OUT/tone.wav.json e=$OUT/tone.jsonl
  check "aubade play tone --for 3s exits 0 with playing + stopped(finished) events" \
    eval '[ "$PLAY_RC" = 0 ] && jtrue "$e" "[x[\"event\"] for x in d] == [\"playing\", \"stopped\"] and d[1][\"reason\"] == \"finished\""'
  check "the loopback heard the tone's 880 Hz ($(j "$s" "d['freq_hz']") Hz)" within "$(j "$s" "d['freq_hz']")" 871 889
  check "at the expected level, -8.2 dBFS at volume 100 ($(j "$s" "d['level_db']") dBFS)" within "$(j "$s" "d['level_db']")" -9.7 -6.7
  check "as 8 beeps in 3 s ($(j "$s" "d['bursts']"))" [ "$(j "$s" "d['bursts']")" = 8 ]
  check "paced by the card in real time: first to last beep 2.30 s ($(j "$s" "round(d['end_s'] - d['onset_s'], 3)") s)" \
    within "$(j "$s" "d['end_s'] - d['onset_s']")" 2.25 2.35
  figure "tone: time to first audio $(j "$e" "[x.get('firstAudioMs') for x in d if x['event'] == 'playing'][0]") ms (aubade's playing event), $CAPTURED_TTFA_MS ms (process start -> first captured sample)"

  # A station: Icecast in the guest, a 440 Hz sine at half scale (-9.0 dBFS RMS) as 128 kb/s MP3.
  if ! icecast_start; then fail "the local Icecast server did not serve the stream"; return; fi
  play_and_capture stream "$STREAM_URL" --allow-local --for 5s --volume 100
  s=$OUT/stream.wav.json e=$OUT/stream.jsonl
  check "aubade play $STREAM_URL --for 5s exits 0 and ends finished" \
    eval '[ "$PLAY_RC" = 0 ] && jtrue "$e" "d[-1][\"event\"] == \"stopped\" and d[-1][\"reason\"] == \"finished\""'
  check "the ICY title from ezstream arrived ($(j "$e" "[x['title'] for x in d if x['event'] == 'title']"))" \
    jtrue "$e" "'HIL - Sine 440' in [x.get('title') for x in d]"
  check "the loopback heard the stream's 440 Hz ($(j "$s" "d['freq_hz']") Hz)" within "$(j "$s" "d['freq_hz']")" 436 444
  check "at the stream's level, -9.0 dBFS at volume 100 ($(j "$s" "d['level_db']") dBFS)" within "$(j "$s" "d['level_db']")" -10.5 -7.5
  check "for 5 s of audio ($(j "$s" "round(d['end_s'] - d['onset_s'], 3)") s) without a dropout (longest gap $(j "$s" "d['longest_gap_ms']") ms)" \
    eval 'within "$(j "$s" "d[\"end_s\"] - d[\"onset_s\"]")" 4.9 5.1 && within "$(j "$s" "d[\"longest_gap_ms\"]")" 0 100'
  figure "stream: time to first audio $(j "$e" "[x.get('firstAudioMs') for x in d if x['event'] == 'playing'][0]") ms (aubade's playing event), $CAPTURED_TTFA_MS ms (process start -> first captured sample)"
}
