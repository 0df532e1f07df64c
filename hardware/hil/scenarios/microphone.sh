# Microphone (issue 37, part 4): `aubade verify microphone` plays through the one sound engine into snd-aloop's
# playback (plughw:Loopback,0,0) and listens on a capture subdevice. The loopback's matching capture
# (hw:Loopback,1,0) is fed by that playback: the tone, the chirp and a station are heard. hw:Loopback,0,0's capture is fed only by hw:Loopback,1,0's
# playback, which the clock does not use: silence — or pink noise that aplay plays into it, a loud room that has
# nothing to do with the alarm — the tone (and, in the noise, the station) not heard.
# Then the running daemon (`aubade run --fake-time --json`) with `[verify] microphone` on each: its alarm's ring heard
# on the fed capture; on the unfed one `not-heard` and the ladder's next step at once; and its daily self-test at
# self_test_hour, its chirp heard.

# verify NAME ARGS...: runs `aubade verify microphone ARGS... --json`; leaves NAME.jsonl, VERIFY_RC and the fields.
verify() {
  local name=$1 started; shift
  started=$(now)
  aub verify microphone "$@" --json > "$OUT/$name.jsonl" 2> "$OUT/$name.err"
  VERIFY_RC=$?
  # One JSON object: `d` is it (a dict), or nothing when the command printed none.
  jset "$OUT/$name.jsonl" heard="(d if isinstance(d, dict) else {}).get('heard', 'none')" \
    reason="(d if isinstance(d, dict) else {}).get('reason') or open('$OUT/$name.err').read().strip()" \
    basis="(d if isinstance(d, dict) else {}).get('basis', '')" listened="(d if isinstance(d, dict) else {}).get('listened_s', '')" \
    lag="(d if isinstance(d, dict) else {}).get('lag_s', '')" lost="(d if isinstance(d, dict) else {}).get('lost_s', '')"
  figure "$name: exit $VERIFY_RC in $(ms_between "$started" "$(now)") ms; $reason (decided after $listened s of the sound, lag $lag s, $lost s no evidence)"
}

# mic_daemon NAME CAPTURE: the running daemon (`aubade run --fake-time --json`) with `[verify] microphone = CAPTURE`,
# a tone alarm with the default ladder (its next step 3 minutes after the ring) due 12 s after its start; waits for
# the room check's verdict on the ring (its `room-check` line), then for a `not-heard` and a `climbed` a few seconds
# more, and stops it. Leaves $EVENTS.
mic_daemon() {
  SCENARIO=$1
  CFG=$T/$1.toml
  write_config "$CFG" shake.source='"none"' verify.microphone="\"$2\""
  alarm_db --source tone
  daemon_start "$1" 12 || return 1
  wait_event ringing 40 || fail "the alarm did not ring within 40 s of the daemon's start"
  wait_event room-check 30 || fail "the daemon's room check gave no verdict within 30 s of the ring"
  wait_event not-heard 2; wait_event climbed 2
  daemon_stop
}

scenario_microphone() {
  CFG=$T/mic.toml DB=$T/mic.sqlite
  write_config "$CFG"
  grep -q Loopback /proc/asound/cards || { fail "no snd-aloop card"; return; }

  verify mic_tone --device hw:Loopback,1,0 --play tone
  check "the alarm tone looped back into the capture is heard in the room (exit $VERIFY_RC, $basis)" \
    eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  verify mic_chirp --device hw:Loopback,1,0
  check "the self-test's quiet chirp is heard too (exit $VERIFY_RC, $basis)" eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  if icecast_start; then
    verify mic_stream --device hw:Loopback,1,0 --play "$STREAM_URL" --allow-local
    check "a station looped back is heard by its level (exit $VERIFY_RC, $basis)" eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  else
    skip "the local Icecast server did not serve the stream"
  fi

  verify mic_silence --device hw:Loopback,0,0 --play tone
  check "on a capture the playback does not feed (silence) the tone is not heard (exit $VERIFY_RC)" \
    eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  local noise
  sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 60 pinknoise vol 0.5 2> /dev/null | aplay -q -D hw:Loopback,1,0 - 2> "$OUT/mic-noise.err" &
  noise=$!
  sleep 0.5
  verify mic_noise --device hw:Loopback,0,0 --play tone
  check "with loud pink noise in that capture instead, the tone is still not heard (exit $VERIFY_RC)" \
    eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  if [ -n "${STREAM_URL:-}" ]; then
    verify mic_noise_stream --device hw:Loopback,0,0 --play "$STREAM_URL" --allow-local
    check "nor is the station, by its level, with that noise (exit $VERIFY_RC)" eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  fi
  kill "$noise" 2> /dev/null; pkill -P "$noise" 2> /dev/null; wait "$noise" 2> /dev/null

  printf '[verify]\nmicrophone = "hw:Loopback,1,0"\n' >> "$CFG"
  aub doctor --json > "$OUT/mic-doctor.json" 2> "$OUT/mic-doctor.err"
  jset "$OUT/mic-doctor.json" mic="[c['message'] for c in d['checks'] if c['check'] == 'microphone'][0]" \
    mic_ok="'opens' in [c['message'] for c in d['checks'] if c['check'] == 'microphone'][0]"
  check "doctor has a microphone line that opens the device ($mic)" $mic_ok

  # The running clock: its ring looped back into the capture is heard; on the capture its playback does not feed,
  # not heard — the history's `not-heard`, then the ladder's next step at once, not 3 minutes later. Then its daily
  # self-test.
  daemon_available || { skip "aubade run is not the daemon yet (no --fake-time)"; return; }
  if mic_daemon mic_daemon_fed hw:Loopback,1,0; then
    jset "$EVENTS" heard="[e.get('heard') for e in ev('room-check')]" not_heard="len(ev('not-heard'))" \
      why="[e.get('reason') for e in ev('room-check')][:1]"
    check "the running daemon's ring looped back is heard in the room ($why)" eval "[ '$heard' = '[true]' ] && [ '$not_heard' = 0 ]"
  fi
  SCENARIO=microphone
  if mic_daemon mic_daemon_unfed hw:Loopback,0,0; then
    # The order of the daemon's lines: the ring, its verdict, not-heard, then the climb (to=louder) — before the
    # ladder's step time (3 minutes on the daemon's clock; the whole run takes seconds).
    jset "$EVENTS" order="[e['event'] for e in d if e.get('event') in ('ringing', 'room-check', 'not-heard', 'climbed')]" \
      to="[field(e, 'to') for e in ev('climbed')][:1]" \
      climbed_after="round(ev('climbed')[0]['t'] - ev('ringing')[0]['t'], 1) if ev('climbed') and ev('ringing') else 'none'" \
      why="[e.get('detail') for e in ev('not-heard')][:1]"
    figure "the unfed capture: $order; climbed $climbed_after s after the ring ($why)"
    check "on a capture its playback does not feed, the running daemon says not-heard and then climbs at once ($to)" \
      eval "[[ '$order' == '[\"ringing\", \"room-check\", \"not-heard\", \"climbed\"'* ]] && [ '$to' = '[\"louder\"]' ] && within '$climbed_after' 0 170"
  fi
  SCENARIO=microphone

  # The daily self-test, run by the running clock at its hour (self_test_hour, 14:00 by default): the daemon starts
  # at 13:59:55 on its clock, and its quiet chirp, played through its one engine, looped back is heard.
  SCENARIO=mic_self_test
  CFG=$T/mic_self_test.toml
  write_config "$CFG" shake.source='"none"' verify.microphone='"hw:Loopback,1,0"'
  alarm_db --source tone
  if daemon_start mic_self_test $((5 - 6 * 3600)); then
    wait_event self-test-heard 40 || wait_event self-test-not-heard 1
    daemon_stop
    jset "$EVENTS" order="[e['event'] for e in d if str(e.get('event', '')).startswith('self-test')]" \
      why="[e.get('detail') for e in d if str(e.get('event', '')).startswith('self-test-')][:1]"
    check "the running clock's daily self-test at its hour: its chirp looped back is heard ($why)" \
      eval "[ '$order' = '[\"self-test\", \"self-test-heard\"]' ]"
  fi
  SCENARIO=microphone
}
